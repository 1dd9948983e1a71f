// The table page: connects to /ws/{table}, renders the game's board module and the generic panels
// (legal actions, notation box, refusals, log, undo, rematch). Games only add boards/<game>.js
// (and their strings in i18n.js). A board module exports:
//   createBoard({board, choice, status, players, general}, ctx) with
//     ctx = {t: () => t, send(action) -> bool, explain(action) -> Promise}
//     -> {update(stateMessage, tableInfo), setInfo(tableInfo), render(), clearSelection()}
//   ctx.send(action) plays a move. A move that ends the turn or cannot be taken back (the state
//     message's `final`) first asks the player in a small dialog (unless they turned that off);
//     send then returns false (nothing sent yet) and the move goes when they confirm.
//   ctx.explain(action) asks the server why this seat may not play `action` now (nothing is
//     played) and shows the answer in the refusal box: the engine's reason naming the rule, or
//     "that move is legal". Call it when a player clicks a spot that is not lit. Resolves to
//     {legal, code, message, event}, or null if the question could not be asked.
//   actionLabel(t, actionText, view) -> readable label;  actionGroup(actionText) -> group key
//   translateSentence(t, lang, sentence) (optional) -> a plain log sentence in the current language
//     (log entries and refusals that carry an `event` are rendered from the message catalogues
//     by messages.js instead)
//   renderResult(element, stateMessage, t) (optional) -> fills the game-over box (winner, ranking)
//   styled (optional): a promise that settles once the board's own stylesheet has arrived (dom.js's
//     boardStyles); the page awaits it before drawing the board
// Without a board module the page still plays: the legal list and the notation box work.

import { setupSeatSaving } from "./account.js";
import { ApiError, TableSocket, api, pageLink, rememberToken, tokenForTable, tokenFromHash } from "./api.js";
import { clear, h } from "./dom.js";
import { notationPlaceholder, renderLegalGroups } from "./legal.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";
import { linkRules, setupRules } from "./rules.js";
import { logItem } from "./loglines.js";
import { loadMessages, messagesReady, refusalReason, renderMessage } from "./messages.js";
import * as help from "./tablehelp.js";
import { renderTableReplayLinks } from "./replaylinks.js";
import { createChat } from "./chat.js";
import { setTitle, setupTurnNotices, turnUpdate } from "./notify.js";
import { renderClocks } from "./clocks.js";
import { renderWaitingRoom } from "./waitingroom.js";
import { renderRatings } from "./ratingbox.js";

const $ = (id) => document.getElementById(id);

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = tokenFromHash() || tokenForTable(tableId);

let info = null; // GET /api/tables/{id}
let board = null; // board module instance
let boardModule = null;
let socket = null;
let last = null; // last state message
let lastError = null;
let rematchOffer = null;
let infoFetchedAt = 0;
let zoom = 1;
let pendingAction = null; // the action text last sent, shown with its refusal
let awaiting = 0; // when the last action was sent, until its answer (a state or an error) arrives
let chat = null; // the chat panel (chat.js)
let presence = null; // which seats have a socket open, as the last `presence` message said (this socket)
let firstState = true; // the next state is the first of this socket: the table info is read again

let connState = "connecting";

function setConn(state, detail) {
  connState = state;
  renderConn(detail);
}

function renderConn(detail) {
  const el = $("conn");
  el.dataset.state = connState;
  el.textContent = t(`conn.${connState}`, { detail: detail ?? "" });
}

function showError(err) {
  lastError = err;
  renderError();
}

function renderError() {
  const el = clear($("error"));
  el.hidden = !lastError;
  el.classList.toggle("info", !!lastError?.info);
  if (!lastError) return;
  if (lastError.info) {
    el.append(
      h("strong", {}, t("ui.legalNote"), ": "),
      h("span", { class: "reason" }, lastError.message),
      h("button", { type: "button", class: "link dismiss", "aria-label": t("ui.dismiss"), onclick: () => showError(null) }, "×"),
    );
    return;
  }
  const code = lastError.code ? t(`err.${lastError.code}`) : "";
  // the engine's reasons start "illegal: <action>: "; the action is shown after the reason
  let reason = String(lastError.message || "");
  const ev = lastError.event;
  if (ev && messagesReady(lang())) reason = refusalReason(lang(), ev);
  if (lastError.code === "rate_limited") reason = t("err.rateLimitedWait", { s: lastError.retry_after ?? 1 });
  const action = lastError.action ? lastError.action.trim().replace(/\s+/g, " ") : "";
  for (const prefix of [`${lastError.code}: ${action}: `, `${lastError.code}: `]) {
    if (action && reason.startsWith(prefix)) {
      reason = reason.slice(prefix.length);
      break;
    }
  }
  el.append(
    h("strong", {}, t("ui.refused"), code ? ` (${code})` : "", ": "),
    h("span", { class: "reason" }, reason),
    lastError.action ? h("span", { class: "muted" }, " — ", h("code", {}, lastError.action)) : null,
    h("button", { type: "button", class: "link dismiss", "aria-label": t("ui.dismiss"), onclick: () => showError(null) }, "×"),
  );
  linkRules(el);
}

function fatal(text) {
  const el = $("fatal");
  el.hidden = false;
  el.textContent = text;
}

function send(action) {
  const kind = help.confirmationsOn() ? help.finalKind(last, action) : null;
  if (kind) {
    help.askConfirmation($("confirm"), { action, label: label(action), kind, onYes: () => sendNow(action) });
    return false;
  }
  return sendNow(action);
}

/** Ask the server why `action` is refused for this seat, and show the answer (ctx.explain). */
async function explain(action) {
  let answer = null;
  try {
    answer = await help.explainAction(tableId, token, action);
  } catch (e) {
    showError({ code: null, message: t("ui.explainFailed", { detail: e instanceof ApiError ? e.detail : String(e) }) });
    return null;
  }
  if (answer.legal) showError({ info: true, message: t("ui.explainLegal", { action: label(action) }) });
  else showError({ code: answer.code, message: answer.message, event: answer.event, action });
  return answer;
}

function sendNow(action) {
  if (!socket || !socket.isOpen()) {
    showError({ code: null, message: t("ui.notConnected") });
    return false;
  }
  // one action at a time: a second click before the answer would act on a stale board
  if (awaiting && Date.now() - awaiting < 4000) return false;
  lastError = null;
  renderError();
  pendingAction = action;
  awaiting = Date.now();
  document.body.dataset.busy = "1";
  return socket.send({ type: "action", action });
}

function settled() {
  awaiting = 0;
  delete document.body.dataset.busy;
}


function label(text) {
  if (boardModule?.actionLabel && last) return boardModule.actionLabel(t, text, last.view);
  return text;
}

function group(text) {
  return boardModule?.actionGroup ? boardModule.actionGroup(text) : text.split(" ")[0];
}

function renderLegal() {
  const el = clear($("legal"));
  const legal = last?.legal || [];
  $("legal-count").textContent = legal.length ? `(${legal.length})` : "";
  const list = clear($("legal-datalist"));
  for (const a of legal) list.append(h("option", { value: a }));
  renderNotationHint(legal);
  // an empty list draws no button but counts as a list shown (legal.js holds actions that come back)
  renderLegalGroups(el, legal, { group, label, send });
  if (!legal.length) {
    const spectator = last && (last.seat === null || last.seat === undefined);
    el.append(h("p", { class: "muted" }, t(last?.status === "over" ? "ui.noLegalOver" : spectator ? "ui.watching" : "ui.noLegal")));
  }
}

/** The notation box's example: one of the current legal actions, in this game's notation. */
function renderNotationHint(legal) {
  $("notation").placeholder = notationPlaceholder(legal);
}

function sentence(entry) {
  // a structured event is rendered from the message catalogue; an older plain sentence as it came
  if (entry.event && messagesReady(lang())) return renderMessage(lang(), entry.event);
  const text = entry.sentence || entry.text || "";
  return boardModule?.translateSentence ? boardModule.translateSentence(t, lang(), text) : text;
}

function colourOfSeat(seat) {
  return last?.view?.players?.[seat]?.colour || info?.seats?.[seat]?.colour || String(seat);
}

function renderLog() {
  const el = $("log-list");
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  clear(el);
  let prev = null;
  for (const e of last?.log || []) {
    el.append(logItem(e, prev, { title: e.text || "" }, sentence(e)));
    prev = e;
  }
  linkRules(el);
  if (atBottom) el.scrollTop = el.scrollHeight;
}

/** Undo, the notation box and the confirmation setting are a seat's: a spectator has none;
 * a disabled Undo says why. */
function renderSeatControls() {
  const spectator = !last || last.seat === null || last.seat === undefined;
  const over = last?.status === "over";
  const undo = $("undo");
  undo.disabled = !last?.can_undo;
  undo.hidden = spectator || over;
  const why = help.undoReason(last);
  undo.title = why;
  $("undo-why").textContent = why;
  $("undo-why").hidden = spectator || over || !why;
  $("notation-form").hidden = spectator || over;
  $("confirm-setting-row").hidden = spectator || over;
  document.body.dataset.role = spectator ? "spectator" : "seat";
}

/** A seat's name standing alone (a table row, a panel): the board's name for it if it has one
 * (Mare Nostrum: the empire), else how the game names it, else its colour. */
function seatName(seat) {
  if (boardModule?.seatName && last?.view) return boardModule.seatName(t, last.view, seat);
  return help.seatLabel(last, seat) || t(`colour.${colourOfSeat(seat)}`);
}

function renderControls() {
  renderSeatControls();
  const over = last?.status === "over";
  const isSeat = last && last.seat !== null && last.seat !== undefined;
  $("rematch").hidden = !(over && isSeat);
  const result = clear($("result"));
  result.hidden = !over;
  delete result.dataset.condition;
  delete result.dataset.rule;
  if (over && last) {
    result.append(h("h2", {}, t("ui.gameOver")));
    if (boardModule?.renderResult) boardModule.renderResult(result, last, t);
    else if (!last.outcome) {
      const winner = last.view?.winner;
      result.append(h("p", { class: "winner" }, winner ? t("ui.wins", { colour: t(`colour.${winner}`) }) : t("ui.noWinner")));
      if (Array.isArray(last.result)) {
        const rows = last.result.map((score, seat) => ({ seat, score, colour: colourOfSeat(seat) })).sort((a, b) => b.score - a.score);
        result.append(h("ol", { class: "ranking" }, rows.map((r) => h("li", {}, h("span", { class: `swatch sw-${r.colour}` }), `${t(`colour.${r.colour}`)}: ${r.score}`))));
      }
    }
    // how it was won: the victory condition and its rule, and the scores that mean something here
    if (last.outcome) help.renderOutcome(result, last, seatName);
    renderRatings(result, tableId, seatName, renderControls); // a rated table: each account's change
  }
  renderTableReplayLinks({ controls: document.querySelector(".controls"), result }, tableId, token, last);
  const offer = clear($("rematch-offer"));
  offer.hidden = !rematchOffer;
  if (rematchOffer) {
    offer.append(
      h("span", {}, t("ui.rematchReady"), " "),
      h("a", { class: "button primary", href: `/table/${encodeURIComponent(rematchOffer.table)}#token=${rematchOffer.token}`, id: "go-rematch" }, t("ui.goRematch")),
    );
  }
}

function renderHeader() {
  const title = $("table-title");
  const game = info?.game ? t(`game.${info.game}`) : "";
  title.textContent = [game, tableId ? t("ui.tableN", { id: tableId }) : ""].filter(Boolean).join(" · ");
  const who = $("who");
  if (last) {
    const seat = last.seat;
    if (seat === null || seat === undefined) who.textContent = t("ui.spectator");
    else {
      // the game names the seat (Mare Nostrum: by empire, dealt at random, S2); else its colour
      const name = help.seatLabel(last, seat) || (boardModule?.seatName && last.view ? boardModule.seatName(t, last.view, seat) : t(`colour.${last.colour || colourOfSeat(seat)}`));
      who.textContent = t("ui.playingAs", { colour: name });
    }
    who.dataset.colour = last.colour || "";
    const mine = last.status !== "over" && (last.legal || []).length > 0;
    $("my-turn").hidden = !mine;
    $("my-turn").textContent = t("ui.yourTurn");
  }
  setTitle(`${game || "Ziggurat"} — Ziggurat`); // notify.js marks it while it is this seat's turn
}

/** Who sits where, as the state message says it (a player took a seat, the host started):
 * the player panels show it at once. */
function syncSeats(m) {
  if (!info?.seats || !Array.isArray(m.seats)) return;
  for (const seat of m.seats) {
    const known = info.seats[seat.seat];
    if (known) Object.assign(known, { kind: seat.kind, bot: seat.bot, name: seat.name });
  }
}

/** A public table that has not started: its waiting room (waitingroom.js). */
function renderWaiting() {
  renderWaitingRoom($("waiting-room"), last, { tableId, token, game: info?.game, colourOf: colourOfSeat, labelOf: seatName, rerender: renderWaiting });
}

function renderAll() {
  renderWaiting();
  renderHeader();
  renderError();
  renderControls();
  renderLegal();
  renderLog();
  if (board && last) board.render();
  renderBotThinking();
  renderClocks($("clocks"), last, seatName, takeBack);
  chat?.update(last, info);
}

/** The seat's player takes their seat back from the bot that plays it since their clock ran out. */
function takeBack() {
  if (!socket || !socket.isOpen()) {
    showError({ code: null, message: t("ui.notConnected") });
    return;
  }
  socket.send({ type: "take_back" });
}

function renderBotThinking() {
  help.renderThinking($("players"), $("thinking"), info, last, seatName);
}

async function refreshInfo(force = false) {
  if (!force && Date.now() - infoFetchedAt < 3000) return;
  infoFetchedAt = Date.now();
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`, undefined, token);
    applyPresence(); // the socket's word is the later one
    if (board?.setInfo) board.setInfo(info);
    renderHeader();
  } catch {
    /* the socket reports access problems */
  }
}

/** Who is connected, as the socket last said (`presence`), over the table info's `connected`. */
function applyPresence() {
  if (!info?.seats || !Array.isArray(presence)) return;
  for (const seat of info.seats) {
    if (typeof presence[seat.seat] === "boolean") seat.connected = presence[seat.seat];
  }
}

function onMessage(m) {
  if (chat?.handle(m)) return; // chat messages, the chat history, refused chat messages
  if (m.type === "state") {
    const changed = !last || last.version !== m.version;
    if (!last) rememberToken(tableId, token, m.seat ?? null);
    // the log comes incrementally: keep the first log_start entries we have, append the rest
    const start = Number.isInteger(m.log_start) ? m.log_start : 0;
    const kept = start > 0 && last ? (last.log || []).slice(0, start) : [];
    m.log = kept.concat(m.log || []);
    last = m;
    help.setThinking(m.thinking);
    if (changed) {
      help.dropConfirmation();
      if (pendingAction) $("notation").value = "";
      pendingAction = null;
      lastError = null;
      settled();
    }
    syncSeats(m);
    turnUpdate(m, info?.game ? t(`game.${info.game}`) : "Ziggurat"); // title, favicon, chime, notification
    if (board) board.update(m, info);
    renderAll();
    document.body.dataset.version = String(m.version);
    document.body.dataset.status = m.status || "";
    document.body.dataset.ready = "1";
    // read after this socket was registered, the info knows who else is connected; changes
    // from then on come as `presence` messages
    refreshInfo(firstState);
    firstState = false;
  } else if (m.type === "error") {
    settled();
    showError({ code: m.code, message: m.message, event: m.event, action: pendingAction, retry_after: m.retry_after });
    pendingAction = null;
  } else if (m.type === "presence") {
    presence = m.connected;
    applyPresence();
    if (board?.setInfo && info) board.setInfo(info); // the players' panels show who is connected
  } else if (m.type === "thinking") {
    help.setThinking(m);
    renderBotThinking();
  } else if (m.type === "rematch") {
    rematchOffer = { table: m.table, token: m.token };
    rememberToken(m.table, m.token, last?.seat);
    renderControls();
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
    board = boardModule.createBoard(els, { t: () => t, send, explain });
  } else {
    $("board").append(h("p", { class: "muted" }, t("ui.noBoard")));
  }
}

function setupControls() {
  $("notation-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("notation").value.trim();
    if (text) send(text);
  });
  $("undo").addEventListener("click", () => {
    if (socket?.send({ type: "undo" })) {
      lastError = null;
      renderError();
    }
  });
  $("rematch").addEventListener("click", async () => {
    $("rematch").disabled = true;
    try {
      const ans = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, undefined, token);
      const mine = ans.seats?.[last.seat];
      if (mine?.token) {
        rememberToken(ans.table, mine.token, last.seat);
        location.href = mine.link ? pageLink(mine.link) : `/table/${encodeURIComponent(ans.table)}#token=${mine.token}`;
      } else {
        rematchOffer = null;
        showError({ message: t("ui.rematchNoSeat") });
      }
    } catch (e) {
      showError({ message: e instanceof ApiError ? e.detail : String(e) });
    } finally {
      $("rematch").disabled = false;
    }
  });
  const applyZoom = () => {
    // keep the middle of what is shown in the middle
    const el = $("board");
    const cx = (el.scrollLeft + el.clientWidth / 2) / Math.max(1, el.scrollWidth);
    const cy = (el.scrollTop + el.clientHeight / 2) / Math.max(1, el.scrollHeight);
    $("board-wrap").style.setProperty("--zoom", String(zoom));
    $("zoom-reset").textContent = `${Math.round(zoom * 100)}%`;
    el.scrollLeft = cx * el.scrollWidth - el.clientWidth / 2;
    el.scrollTop = cy * el.scrollHeight - el.clientHeight / 2;
  };
  $("zoom-in").addEventListener("click", () => ((zoom = Math.min(3, zoom * 1.25)), applyZoom()));
  $("zoom-out").addEventListener("click", () => ((zoom = Math.max(0.5, zoom / 1.25)), applyZoom()));
  $("zoom-reset").addEventListener("click", () => ((zoom = 1), applyZoom()));
  window.addEventListener("hashchange", () => location.reload());
}

async function main() {
  $("lang").append(langSwitch());
  applyStatic(document);
  onLangChange((l) => {
    applyStatic(document);
    renderConn();
    renderAll();
    // the game's messages in that language come from the server once, then render again
    if (!messagesReady(l)) loadMessages(l).then(renderAll);
  });
  setupControls();
  help.setupConfirmSetting($("confirm-setting"));
  setupTurnNotices($("turn-settings"), tableId); // the chime and "Notify me"
  if (!tableId || !token) {
    fatal(t("ui.noToken"));
    setConn("fatal");
    return;
  }
  rememberToken(tableId, token);
  try {
    info = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`, undefined, token);
    infoFetchedAt = Date.now();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) fatal(t("ui.tableNotFound"));
    else if (e instanceof ApiError && e.status === 403) fatal(t("ui.badToken"));
    else fatal(t("ui.loadFailed", { detail: e.message }));
    setConn("fatal");
    return;
  }
  renderHeader();
  setupSeatSaving($("account-save"), tableId, token); // "Save this game to my account" when signed in
  await Promise.all([loadBoard(info.game), loadMessages(lang()), loadMessages("en"), setupRules(info.game)]);
  chat = createChat($("chat"), (msg) => !!socket?.send(msg));
  socket = new TableSocket(tableId, token, {
    onMessage,
    onStatus: (state, code) => {
      setConn(state === "closed" && code === 1008 ? "limited" : state); // 1008: too many connections
      if (state !== "open") settled();
      if (state === "fatal") fatal(code === 4404 ? t("ui.tableNotFound") : t("ui.badToken"));
      if (state === "open") {
        presence = null; // what this socket missed while closed is in the info read at its first state
        firstState = true;
      }
    },
  });
  socket.connect();
  window.__ziggurat = { socket, send, explain, get state() { return last; } };
}

main();
