// The waiting room of a public table that has not started (state message `status: "open"`):
// who sits where, and for the host a Start button (with "fill empty seats with bots: level ...");
// the others wait for the host. POST /api/tables/{id}/start with the host seat's token; the
// state that follows (status "playing") closes the room and the game begins.

import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

const BOT_LEVELS = ["easy", "medium", "hard"];
const FILL_KEY = "ziggurat.fillLevel";

let bots = null; // the game's bots (GET /api/games), once asked
let fillOn = true;
let startError = null;
let starting = false;

async function loadBots(game) {
  if (bots) return bots;
  try {
    const games = await api("GET", "/api/games");
    bots = games.find((g) => g.id === game)?.bots || [];
  } catch {
    bots = [];
  }
  return bots;
}

function rememberedLevel(choices) {
  let level = null;
  try {
    level = localStorage.getItem(FILL_KEY);
  } catch {
    level = null;
  }
  if (level && choices.includes(level)) return level;
  return choices.find((b) => b === "easy") || choices[0];
}

function seatLine(seat, state, colour, label) {
  const you = seat.seat === state.seat;
  let who;
  if (seat.free) who = h("em", { class: "muted" }, t("wait.free"));
  else if (seat.kind === "bot") who = t("seat.botKind", { bot: t(`bot.${seat.bot}`) });
  else who = h("strong", {}, seat.name || t("seat.human"));
  const tags = [];
  if (seat.seat === state.host_seat) tags.push(t("wait.host"));
  if (you) tags.push(t("seat.you"));
  return h(
    "li",
    { dataset: { seat: seat.seat, free: seat.free ? "1" : "0" }, class: you ? "mine" : null },
    h("span", { class: `swatch sw-${colour}` }),
    h("span", { class: "seat-label" }, t("wait.seat", { seat: label }), " "),
    who,
    tags.length ? h("span", { class: "tag" }, ` (${tags.join(", ")})`) : null,
  );
}

/**
 * Fill `el` for the state message `state` (hidden unless the table is open).
 * opts: {tableId, token, game, colourOf(seat), labelOf(seat), rerender()}
 */
export function renderWaitingRoom(el, state, opts) {
  const open = state?.status === "open";
  el.hidden = !open;
  clear(el);
  if (!open) {
    startError = null;
    return;
  }
  const seats = state.seats || [];
  const free = seats.filter((s) => s.free).length;
  const isHost = state.seat !== null && state.seat !== undefined && state.seat === state.host_seat;
  const host = seats.find((s) => s.seat === state.host_seat);
  el.append(h("h2", {}, t("wait.title")));
  el.append(h("p", { class: "muted" }, free ? t("wait.help", { n: free }) : t("wait.full")));
  el.append(h("ul", { class: "waiting-seats" }, seats.map((s) => seatLine(s, state, opts.colourOf(s.seat), opts.labelOf(s.seat)))));
  if (!isHost) {
    el.append(h("p", { class: "waiting-host", role: "status" }, t("wait.waitingHost", { name: host?.name || "?" })));
    return;
  }
  const controls = h("div", { class: "start-controls" });
  const startButton = h("button", { type: "button", id: "start-game", class: "primary" }, t("wait.start"));
  if (free) {
    if (!bots) loadBots(opts.game).then(() => opts.rerender());
    const choices = (bots || []).slice().sort((a, b) => (BOT_LEVELS.indexOf(a) + 1 || 9) - (BOT_LEVELS.indexOf(b) + 1 || 9));
    const select = h(
      "select",
      { id: "fill-level", "aria-label": t("wait.level"), disabled: !fillOn },
      choices.map((b) => h("option", { value: b }, t(`bot.${b}`))),
    );
    if (choices.length) select.value = rememberedLevel(choices);
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(FILL_KEY, select.value);
      } catch {
        /* the level is asked again next time */
      }
    });
    const box = h("input", { type: "checkbox", id: "fill-bots", checked: fillOn });
    box.addEventListener("change", () => {
      fillOn = box.checked;
      opts.rerender();
    });
    controls.append(h("div", { class: "field check fill-row" }, box, h("label", { for: "fill-bots" }, t("wait.fill")), select));
    startButton.disabled = starting || !fillOn || !choices.length;
    if (!fillOn) controls.append(h("p", { class: "muted" }, t("wait.needFill", { n: free })));
    startButton.addEventListener("click", () => start(opts, fillOn ? select.value : null));
  } else {
    startButton.disabled = starting;
    startButton.addEventListener("click", () => start(opts, null));
  }
  controls.prepend(startButton);
  el.append(controls);
  if (startError) el.append(h("p", { class: "error-banner", role: "alert" }, startError));
}

async function start(opts, fill) {
  starting = true;
  startError = null;
  opts.rerender();
  try {
    await api("POST", `/api/tables/${encodeURIComponent(opts.tableId)}/start`, { fill }, opts.token);
  } catch (e) {
    startError = t("wait.startFailed", { detail: e instanceof ApiError ? e.detail : String(e) });
  } finally {
    starting = false;
    opts.rerender();
  }
}
