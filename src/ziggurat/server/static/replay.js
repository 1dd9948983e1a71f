// The replay page (/replay/{table}?ply=N#token=...): a table as one viewer saw it, ply by ply,
// from GET /api/tables/{table}/replay. A seat token shows that seat's own view, a spectator token
// or none the public one (no token: finished tables only). The board is the game's board module
// (static/boards/<game>.js), mounted the way table.js mounts it but read-only: it gets no legal
// actions and its ctx.send and ctx.explain do nothing. The ply bar (first, previous, slider,
// next, last; arrow keys, Home, End; a click on a log line) moves through the plies, and the
// address keeps the ply (?ply=N), so a link opens that ply.

import { ApiError, api, tokenForTable, tokenFromHash } from "./api.js";
import { clear, h } from "./dom.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";
import { loadMessages, messagesReady, renderMessage } from "./messages.js";
import "./replaystrings.js";
import { linkRules, setupRules } from "./rules.js";
import { logItem } from "./loglines.js";
import * as help from "./tablehelp.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = tokenFromHash() || tokenForTable(tableId);
const MAX_KEPT = 400; // answers kept in the page, so stepping back and forth asks once

let boardModule = null;
let board = null;
let shown = null; // the answer shown
let wanted = null; // the ply asked for last
const answers = new Map(); // ply -> answer

/** The ply the address asks for (`?ply=N`, or `#ply=N` beside the token), or null. */
function plyFromUrl() {
  const fromQuery = new URLSearchParams(location.search).get("ply");
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, "")).get("ply");
  const text = fromQuery ?? fromHash;
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}

/** Keep the shown ply in the address (the token stays in the hash, never in the query). */
function writeUrl(ply) {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  hash.delete("ply");
  const rest = hash.toString();
  history.replaceState(null, "", `${location.pathname}?ply=${ply}${rest ? `#${rest}` : ""}`);
}

function fatal(text) {
  const el = $("fatal");
  el.hidden = false;
  el.textContent = text;
  document.body.dataset.ready = "1";
  document.body.dataset.failed = "1";
}

async function fetchPly(ply) {
  if (answers.has(ply)) return answers.get(ply);
  const query = ply === null ? "" : `?ply=${ply}`;
  const answer = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay${query}`, undefined, token);
  // a game in progress goes on (and an undo takes a ply back): only a finished table's plies stay
  if (answer.status === "over") {
    answers.set(answer.ply, answer);
    if (answers.size > MAX_KEPT) answers.delete(answers.keys().next().value);
  }
  return answer;
}

/** Show `ply` (null: the last); a later request wins over an earlier one still on its way. */
async function go(ply) {
  if (shown && ply !== null) ply = Math.max(0, Math.min(shown.last, ply));
  wanted = ply;
  if (shown && ply !== null) renderBar(ply);
  let answer;
  try {
    answer = await fetchPly(ply);
  } catch (e) {
    if (wanted !== ply) return;
    if (!shown && ply !== null && e instanceof ApiError && e.status === 400) {
      go(null); // a link to a ply this game does not have opens its last one
      return;
    }
    if (e instanceof ApiError && e.status === 404) fatal(t("ui.tableNotFound"));
    else if (e instanceof ApiError && e.status === 403) fatal(token ? t("ui.badToken") : t("replay.noToken"));
    else fatal(t("replay.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
    return;
  }
  if (wanted !== ply) return;
  const first = !shown;
  shown = answer;
  if (first) await setup(answer);
  writeUrl(answer.ply);
  renderAll();
}

/** What the board module gets: a `state` message as the table page's socket would carry it,
 * with no legal actions. */
function stateMessage(a) {
  return {
    type: "state",
    seat: a.seat,
    colour: a.colour,
    version: a.ply,
    view: a.view,
    legal: [],
    log_start: 0,
    log: a.log,
    can_undo: false,
    undo_block: null,
    final: {},
    seat_labels: a.seat_labels,
    thinking: null,
    status: a.over ? "over" : "playing",
    result: a.result,
    outcome: a.outcome,
  };
}

/** The table's facts as the board modules read them (GET /api/tables/{id}). */
function tableInfo(a) {
  return {
    table: a.table,
    game: a.game,
    players: a.players,
    options: a.options,
    status: a.status,
    seats: a.seats.map((s) => ({ ...s, connected: false })),
    to_move: null,
    rematch: null,
  };
}

async function setup(a) {
  await Promise.all([loadBoard(a.game), loadMessages(lang()), loadMessages("en"), setupRules(a.game)]);
  const slider = $("ply");
  slider.max = String(a.last);
  $("replay-bar").hidden = false;
  if (token) {
    const link = $("to-table");
    link.href = `/table/${encodeURIComponent(tableId)}#token=${token}`;
    link.hidden = false;
  }
}

async function loadBoard(game) {
  try {
    boardModule = await import(`/boards/${game}.js`);
    await boardModule.styled; // the board is first drawn with its own styles
  } catch {
    boardModule = null;
  }
  const els = { board: $("board"), choice: $("choice"), status: $("status"), players: $("players"), general: $("general") };
  if (boardModule?.createBoard) {
    // read-only: nothing is sent, nothing is asked
    board = boardModule.createBoard(els, { t: () => t, send: () => false, explain: async () => null });
  } else {
    $("board").append(h("p", { class: "muted" }, t("ui.noBoard")));
  }
}

function seatName(msg, seat) {
  if (boardModule?.seatName && msg.view) return boardModule.seatName(t, msg.view, seat);
  return help.seatLabel(msg, seat) || t(`colour.${msg.colour || shown.seats[seat]?.colour}`);
}

function renderHeader() {
  if (!shown) return;
  const game = t(`game.${shown.game}`);
  $("table-title").textContent = [t("replay.title"), game, t("ui.tableN", { id: tableId })].join(" · ");
  const msg = stateMessage(shown);
  const seat = shown.seat;
  $("who").textContent = seat === null || seat === undefined ? t("replay.publicView") : t("replay.seatView", { name: help.seatLabel(msg, seat) || seatName(msg, seat) });
  $("who").dataset.colour = shown.colour || "";
  $("to-table").textContent = t(shown.status === "over" ? "replay.openTable" : "replay.toTable");
  document.title = `${t("replay.title")} · ${game} — Ziggurat`;
}

function renderBar(ply) {
  const last = shown.last;
  const slider = $("ply");
  slider.max = String(last);
  slider.value = String(ply);
  $("first").disabled = $("prev").disabled = ply <= 0;
  $("next").disabled = ply >= last;
  $("last").disabled = ply >= last && shown.status === "over"; // a game in progress may have gone on
  const where = ply === 0 ? ` (${t("replay.setup")})` : "";
  const state = t(shown.status === "over" ? "replay.finished" : "replay.inProgress");
  $("ply-label").textContent = `${t("replay.plyOf", { ply, last })}${where} · ${state}`;
}

function sentence(entry) {
  if (entry.event && messagesReady(lang())) return renderMessage(lang(), entry.event);
  const text = entry.sentence || entry.text || "";
  return boardModule?.translateSentence ? boardModule.translateSentence(t, lang(), text) : text;
}

function renderLog() {
  const el = clear($("log-list"));
  let prev = null;
  for (const e of shown.log) {
    const attrs = {
      title: t("replay.jump", { ply: e.ply }),
      tabindex: "0",
      class: `${e.colour ? `c-${e.colour}` : "chance"}${e.ply === shown.ply ? " current" : ""}`,
      dataset: { ply: e.ply },
    };
    el.append(logItem(e, prev, attrs, sentence(e)));
    prev = e;
  }
  linkRules(el);
  el.scrollTop = el.scrollHeight; // the log ends at the ply shown
}

function renderResult(msg) {
  const result = clear($("result"));
  result.hidden = !shown.over;
  delete result.dataset.condition;
  delete result.dataset.rule;
  if (!shown.over) return;
  result.append(h("h2", {}, t("ui.gameOver")));
  if (boardModule?.renderResult) boardModule.renderResult(result, msg, t);
  else if (!msg.outcome) {
    const winner = msg.view?.winner;
    result.append(h("p", { class: "winner" }, winner ? t("ui.wins", { colour: t(`colour.${winner}`) }) : t("ui.noWinner")));
  }
  if (msg.outcome) help.renderOutcome(result, msg, (seat) => seatName(msg, seat));
}

function renderAll() {
  if (!shown) return;
  const msg = stateMessage(shown);
  renderHeader();
  renderBar(shown.ply);
  if (board) board.update(msg, tableInfo(shown));
  $("choice").hidden = true; // a replay asks nothing
  renderLog();
  renderResult(msg);
  document.body.dataset.ply = String(shown.ply);
  document.body.dataset.last = String(shown.last);
  document.body.dataset.seat = shown.seat === null ? "" : String(shown.seat);
  document.body.dataset.ready = "1";
}

function step(delta) {
  if (!shown) return;
  const from = wanted ?? shown.ply;
  go(Math.max(0, Math.min(shown.last, from + delta)));
}

function setupControls() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  // the last ply of a game in progress is asked afresh: the game may have gone on
  $("last").addEventListener("click", () => go(shown?.status === "over" ? shown.last : null));
  $("ply").addEventListener("input", (ev) => go(Number(ev.target.value)));
  $("log-list").addEventListener("click", (ev) => {
    if (ev.target.closest("a")) return; // a rule link opens the rule
    const li = ev.target.closest("li[data-ply]");
    if (li) go(Number(li.dataset.ply));
  });
  $("log-list").addEventListener("keydown", (ev) => {
    const li = ev.target.closest?.("li[data-ply]");
    if (li && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      go(Number(li.dataset.ply));
    }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = ev.target;
    // the slider moves itself with the arrows; text fields and dialogs keep their keys
    if (target.closest?.("input, textarea, select, dialog, [contenteditable]")) return;
    const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => go(0), End: () => $("last").click() };
    const move = moves[ev.key];
    if (!move) return;
    ev.preventDefault();
    move();
  });
}

async function main() {
  $("lang").append(langSwitch());
  applyStatic(document);
  onLangChange((l) => {
    applyStatic(document);
    renderAll();
    if (!messagesReady(l)) loadMessages(l).then(renderAll);
  });
  setupControls();
  if (!tableId) {
    fatal(t("ui.tableNotFound"));
    return;
  }
  await go(plyFromUrl());
  window.__replay = { go, get shown() { return shown; }, stateMessage, tableInfo };
}

main();
