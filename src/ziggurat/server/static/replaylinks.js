// Links to the replay page (/replay/{table}?ply=N#token=...): the game-over box and the "Step
// back" control of the table page, and finished tables in the lobby's "My tables".

import { h } from "./dom.js";
import { t } from "./i18n.js";
import "./replaystrings.js";

/** The replay of `table` at `ply` (the last one if null) as `token`'s holder saw it. */
export function replayHref(table, token, ply = null) {
  const query = ply === null || ply === undefined ? "" : `?ply=${ply}`;
  return `/replay/${encodeURIComponent(table)}${query}${token ? `#token=${token}` : ""}`;
}

/** The table page's links: "Replay the game" in the game-over box once the game is over;
 * during the game, "Step back" under the board, which opens the replay one ply before the
 * current one, as this token saw it, in a tab of its own beside the game. */
export function renderTableReplayLinks(els, tableId, token, stateMsg) {
  const over = stateMsg?.status === "over";
  let back = els.controls.querySelector("#step-back");
  if (!back) {
    back = h("a", { id: "step-back", class: "button", target: `replay-${tableId}` });
    els.controls.append(back);
  }
  const version = Number(stateMsg?.version) || 0;
  back.hidden = over || !stateMsg || version < 1;
  back.textContent = t("replay.stepBack");
  back.title = t("replay.stepBackHelp");
  back.href = replayHref(tableId, token, Math.max(0, version - 1));
  if (over && !els.result.hidden) {
    els.result.append(h("p", { class: "replay-link" }, h("a", { id: "replay-link", class: "button", href: replayHref(tableId, token) }, t("replay.watch"))));
  }
}

/** The lobby's link to a finished table's replay, as `token`'s holder saw it. */
export function lobbyReplayLink(table, token) {
  return h("a", { class: "button replay", href: replayHref(table, token), dataset: { replay: table } }, t("replay.lobby"));
}

