// What the table page adds so a new player does not trip (used by table.js, protocol in
// docs/server.md): confirmations of final moves, "why can't I play there?", the reason Undo is
// off, the bot-thinking indicator, seats named the way the game names them, and how the game
// was won. Each export is one feature; table.js calls them from its own render steps.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { messagesReady, renderMessage } from "./messages.js";

const CONFIRM_KEY = "ziggurat.confirm";

/** A message ({key, params}) or plain text in the page's language. */
export function messageText(msg) {
  if (msg === null || msg === undefined) return "";
  if (typeof msg !== "object") return String(msg);
  return messagesReady(lang()) ? renderMessage(lang(), msg) : String(msg.key || "");
}

// ---- seat names --------------------------------------------------------------------------

/** How the game names `seat` now (state message `seat_labels`: Mare Nostrum's empire once
 * dealt, a colour or a symbol elsewhere); a one-word name is capitalised; null if unknown. */
export function seatLabel(stateMsg, seat) {
  return seatName(stateMsg?.seat_labels?.[seat]);
}

/** A seat label (a message) as a name: a one-word name is capitalised; null if none. */
export function seatName(label) {
  if (label === undefined || label === null) return null;
  const text = messageText(label);
  return /^\S+$/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// ---- confirmations -------------------------------------------------------------------------

/** True unless the player turned confirmations off (remembered in this browser). */
export function confirmationsOn() {
  try {
    return localStorage.getItem(CONFIRM_KEY) !== "off";
  } catch {
    return true;
  }
}

function setConfirmations(on) {
  try {
    localStorage.setItem(CONFIRM_KEY, on ? "on" : "off");
  } catch {
    /* storage disabled: the setting lasts as long as the page */
  }
}

/** The checkbox that turns confirmations on and off (`#confirm-setting`). */
export function setupConfirmSetting(input) {
  input.checked = confirmationsOn();
  input.addEventListener("change", () => setConfirmations(input.checked));
}

/** Why `action` is final in the last state message ("ends_turn" | "irreversible"), or null. */
export function finalKind(stateMsg, action) {
  const flags = stateMsg?.final || {};
  if (flags[action]) return flags[action];
  const loose = String(action).trim().replace(/\s+/g, " ").toLowerCase();
  return flags[loose] || null;
}

let openDialog = null;

/**
 * Ask before sending a final move: a small in-page dialog naming the move and why it is final.
 * Calls `onYes()` if the player confirms; nothing happens on Cancel or Escape.
 */
export function askConfirmation(dialog, { action, label, kind, onYes }) {
  if (openDialog) openDialog.close();
  clear(dialog);
  const close = () => {
    if (dialog.open) dialog.close();
    openDialog = null;
  };
  const yes = h("button", { type: "button", class: "primary", id: "confirm-yes", onclick: () => (close(), onYes()) }, t("conf.play"));
  const no = h("button", { type: "button", id: "confirm-no", onclick: close }, t("ui.cancel"));
  dialog.dataset.kind = kind;
  dialog.dataset.action = action;
  dialog.append(
    h("h2", { id: "confirm-title" }, t("conf.title")),
    h("p", { class: "confirm-move" }, h("strong", {}, label), label !== action ? h("code", { class: "notation" }, ` ${action}`) : null),
    h("p", { class: "confirm-why" }, t(`conf.${kind}`)),
    h("div", { class: "buttons" }, yes, no),
    h("p", { class: "muted small" }, t("conf.turnOff")),
  );
  dialog.addEventListener("cancel", () => (openDialog = null), { once: true });
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  openDialog = dialog;
  yes.focus();
}

/** Close the confirmation (the game moved on meanwhile, so the question is stale). */
export function dropConfirmation() {
  if (openDialog?.open) openDialog.close();
  openDialog = null;
}

// ---- why can't I play there? ---------------------------------------------------------------

/**
 * Ask the server why this seat may not play `action` now (POST /api/tables/{id}/explain: the
 * engine's refusal, nothing is played). Resolves to the answer {legal, code, message, event}.
 */
export async function explainAction(tableId, token, action) {
  return api("POST", `/api/tables/${encodeURIComponent(tableId)}/explain`, { action }, token);
}

// ---- undo ----------------------------------------------------------------------------------

/** The visible reason a disabled Undo gives (state message `undo_block`), or "" if none. */
export function undoReason(stateMsg) {
  const key = stateMsg?.undo_block;
  if (!key || stateMsg?.can_undo) return "";
  return t(`undo.${key}`);
}

// ---- a bot thinking ------------------------------------------------------------------------

let thinking = null; // {seat, since}: since = Date.now() when the bot started
let ticker = null;
let lastArgs = null; // what the page last rendered with: the ticker redraws with the same

/** Record what the server said: {seat, elapsed} (a state's `thinking`, or a `thinking` message). */
export function setThinking(payload) {
  if (!payload || payload.seat === null || payload.seat === undefined) thinking = null;
  else {
    const since = Date.now() - Math.max(0, Number(payload.elapsed) || 0) * 1000;
    if (!thinking || thinking.seat !== payload.seat) thinking = { seat: payload.seat, since };
  }
}

function panelOf(players, seat, info, stateMsg) {
  if (!players) return null;
  const byNumber = players.querySelector(`.player[data-seat="${seat}"]`);
  if (byNumber) return byNumber;
  const name = info?.seats?.[seat]?.colour ?? stateMsg?.view?.players?.[seat]?.colour;
  if (name === undefined || name === null) return null;
  const quoted = String(name).replace(/"/g, '\\"');
  return players.querySelector(`.player[data-colour="${quoted}"], .player[data-symbol="${quoted}"]`);
}

/**
 * Show which bot is thinking, and for how long, in its seat's panel (`#players`; a line of its
 * own, `fallback`, when the board draws no panel for that seat). Counts the seconds itself.
 */
export function renderThinking(players, fallback, info, stateMsg, name) {
  lastArgs = [players, fallback, info, stateMsg, name];
  for (const old of document.querySelectorAll(".thinking-badge")) old.remove();
  document.body.dataset.thinking = thinking ? String(thinking.seat) : "";
  if (!thinking || stateMsg?.status === "over") {
    fallback.hidden = true;
    clearInterval(ticker);
    ticker = null;
    return;
  }
  const seconds = Math.floor((Date.now() - thinking.since) / 1000);
  const badge = h(
    "span",
    { class: "thinking-badge", role: "status", dataset: { seat: thinking.seat } },
    h("span", { class: "dots", "aria-hidden": "true" }),
    t("ui.thinking", { s: seconds }),
  );
  const panel = panelOf(players, thinking.seat, info, stateMsg);
  if (panel) {
    (panel.querySelector(".player-head") || panel).append(badge);
    fallback.hidden = true;
  } else {
    clear(fallback).append(h("strong", {}, name(thinking.seat)), " ", badge);
    fallback.hidden = false;
  }
  if (!ticker) ticker = setInterval(() => renderThinking(...lastArgs), 1000);
}

// ---- how the game was won ------------------------------------------------------------------

/**
 * Fill the game-over box from the state message's `outcome`: the victory condition and its
 * rule (the summary sentence), then the scores that mean something in that game, winners first.
 */
export function renderOutcome(box, stateMsg, name) {
  const outcome = stateMsg.outcome;
  box.dataset.condition = outcome.condition;
  box.dataset.rule = outcome.rule;
  box.append(h("p", { class: "outcome-summary" }, messageText(outcome.summary)));
  const keys = (outcome.scores[0] || []).map((c) => c.key);
  const winners = new Set(outcome.winners);
  // winners first, then by the game's scores (the first one first), then in seat order
  const byScores = (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const d = Number(outcome.scores[b][i].value) - Number(outcome.scores[a][i].value);
      if (d) return d;
    }
    return a - b;
  };
  const order = outcome.scores.map((_, seat) => seat).sort((a, b) => (winners.has(b) ? 1 : 0) - (winners.has(a) ? 1 : 0) || byScores(a, b));
  box.append(
    h(
      "table",
      { class: "outcome-scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ui.player")), keys.map((k) => h("th", { scope: "col" }, messageText(outcome.labels[k]))))),
      h(
        "tbody",
        {},
        order.map((seat) =>
          h(
            "tr",
            { class: winners.has(seat) ? "winner-row" : "", dataset: { seat } },
            h("th", { scope: "row" }, name(seat), winners.has(seat) ? h("span", { class: "win-mark" }, ` ★ ${t("ui.winnerMark")}`) : null),
            outcome.scores[seat].map((c) => h("td", {}, String(c.value))),
          ),
        ),
      ),
    ),
  );
}
