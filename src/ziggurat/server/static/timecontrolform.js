// The lobby's time control choice (docs/server.md, "Time controls"): none, real-time (minutes
// per player + seconds added per move) or turn-based (hours or days per turn), and the bot
// level that plays a seat whose clock ran out. `timeControlBody()` is what POST /api/tables gets.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["easy", "medium", "hard"];

/** Show the fields of the chosen kind; offer the game's bot levels as takeover levels. */
export function renderTimeControl(game) {
  const kind = $("tc-kind").value;
  $("tc-realtime").hidden = kind !== "realtime";
  $("tc-turn").hidden = kind !== "turn_based";
  $("tc-takeover-row").hidden = kind === "none";
  $("tc-help").hidden = kind === "none";
  const sel = $("tc-takeover");
  const keep = sel.value;
  const bots = (game?.bots || []).filter((b) => LEVELS.includes(b));
  const levels = bots.length ? bots : game?.bots || [];
  clear(sel);
  for (const b of levels) sel.append(h("option", { value: b }, t(`bot.${b}`)));
  if (levels.includes(keep)) sel.value = keep;
}

/** The `time_control` of the create request, or `null` for none. */
export function timeControlBody() {
  const kind = $("tc-kind").value;
  if (kind === "none") return null;
  const takeover = $("tc-takeover").value || undefined;
  if (kind === "realtime") {
    return {
      kind,
      budget: Math.round(Number($("tc-minutes").value) * 60 * 1000) / 1000,
      increment: Number($("tc-increment").value) || 0,
      takeover,
    };
  }
  return { kind, per_turn: Number($("tc-per-turn").value) * Number($("tc-unit").value), takeover };
}

export function setupTimeControl(currentGame) {
  for (const id of ["tc-kind"]) $(id).addEventListener("change", () => renderTimeControl(currentGame()));
  renderTimeControl(currentGame());
}
