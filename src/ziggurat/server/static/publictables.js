// The lobby's "Public tables": tables waiting for players (GET /api/lobby, refreshed every few
// seconds and when the page comes back into view), each with its time control, its seats and a
// Join button. A guest joins by a name (remembered in localStorage); a signed-in player joins as
// the account, sending the session's CSRF token. The seat token joins "My tables" like any other.
// A table where this browser or the signed-in account already holds a seat (the host's own
// table, a seat taken earlier) offers "Open my seat" instead of Join.

import { ApiError, api, pageLink, rememberToken, storedTokens } from "./api.js";
import { describeTimeControl } from "./clocks.js";
import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const GUEST_KEY = "ziggurat.guestName";
const CSRF_HEADER = "X-CSRF-Token";
const REFRESH_MS = 5000;

let tables = null; // GET /api/lobby
let loadError = null;
let account = null; // GET /api/account
let games = [];
let timer = null;
const rowErrors = new Map(); // table id -> refusal shown in its row

/** The guest name this browser remembers ("" if none). */
export function guestName() {
  try {
    return localStorage.getItem(GUEST_KEY) || "";
  } catch {
    return "";
  }
}

export function rememberGuestName(name) {
  try {
    localStorage.setItem(GUEST_KEY, name);
  } catch {
    /* storage disabled: the name is asked again next time */
  }
}

/** Who is signed in here (GET /api/account), or null. */
export async function currentAccount() {
  try {
    const me = await api("GET", "/api/account");
    account = me && me.signed_in ? me : null;
  } catch {
    account = null;
  }
  return account;
}

/** POST with the signed-in session's CSRF token (none for a guest). */
async function postAsAccount(path, body) {
  const me = await currentAccount();
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  if (me && me.csrf) headers[CSRF_HEADER] = me.csrf;
  let res;
  try {
    res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, String(e && e.message ? e.message : e));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.detail) || res.statusText);
  return data;
}

/** POST /api/tables for a public table: as the account (CSRF), else as the guest `host_name`. */
export function createPublicTable(body) {
  return postAsAccount("/api/tables", body);
}

function gameName(id) {
  const key = `game.${id}`;
  const text = t(key);
  if (text !== key) return text;
  return games.find((g) => g.id === id)?.name || id;
}

/** The options that differ from the game's defaults (a game may record the defaults it was
 * played under), as "name: value"; "standard rules" if none. */
function optionsSummary(game, options) {
  const defaults = games.find((g) => g.id === game)?.options || {};
  const changed = Object.entries(options || {}).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(defaults[name]));
  const names = changed.map(([name, value]) => {
    const key = `opt.${name}`;
    const label = t(key) === key ? name : t(key);
    return `${label}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`;
  });
  return names.length ? names.join(" · ") : t("pub.defaults");
}

/** The table's clock as the table page words it: "Time control: 10 min + 20 s", "1 d per turn",
 * or none. */
function clockSummary(tc) {
  return tc ? t("pub.clock", { tc: describeTimeControl(tc) }) : t("pub.untimed");
}

/** The seat the viewer holds at `tab`: {seat, token} from a seat token this browser keeps, else
 * {seat, token: null} for the signed-in account's seat; null if none. */
function mySeat(tab) {
  const kept = storedTokens().filter((e) => e.table === tab.table && Number.isInteger(e.seat) && tab.seats.some((s) => s.seat === e.seat && !s.free));
  if (kept.length) return { seat: kept[kept.length - 1].seat, token: kept[kept.length - 1].token };
  const name = account?.name?.toLowerCase();
  const held = name ? tab.seats.find((s) => s.account && (s.name || "").toLowerCase() === name) : null;
  return held ? { seat: held.seat, token: null } : null;
}

function seatChip(seat, mine) {
  let who;
  if (seat.free) who = h("em", {}, t("pub.free"));
  else if (seat.kind === "bot") who = t("seat.botKind", { bot: t(`bot.${seat.bot}`) });
  else who = seat.name || t("seat.human");
  const you = mine && mine.seat === seat.seat;
  return h(
    "li",
    { class: seat.free ? "pub-seat free" : "pub-seat", dataset: you ? { seat: seat.seat, kind: seat.kind, mine: "1" } : { seat: seat.seat, kind: seat.kind } },
    h("span", { class: `swatch sw-${seat.colour}` }),
    who,
    you ? h("span", { class: "muted" }, `\u00a0(${t("seat.you")})`) : null,
  );
}

/** Join, or "Open my seat" where the viewer already holds one. */
function seatButton(tab, mine) {
  if (!mine) {
    return h(
      "button",
      { type: "button", class: "primary join", disabled: tab.free === 0, dataset: { join: tab.table }, onclick: (ev) => join(tab, ev.currentTarget) },
      t("pub.join"),
    );
  }
  if (mine.token) {
    return h("a", { class: "button primary join open-seat", href: `/table/${encodeURIComponent(tab.table)}#token=${mine.token}`, dataset: { openSeat: tab.table } }, t("pub.openSeat"));
  }
  return h(
    "button",
    { type: "button", class: "primary join open-seat", dataset: { openSeat: tab.table }, onclick: (ev) => openAccountSeat(tab, ev.currentTarget) },
    t("pub.openSeat"),
  );
}

function renderJoinAs() {
  const signedIn = !!account;
  $("guest-name-row").hidden = signedIn;
  const as = $("join-as");
  as.hidden = !signedIn;
  as.textContent = signedIn ? t("pub.joiningAs", { name: account.name }) : "";
}

export function renderPublicTables() {
  const el = $("public-list");
  if (!el) return;
  renderJoinAs();
  clear(el);
  if (loadError) el.append(h("p", { class: "error-banner", role: "alert" }, t("pub.loadFailed", { detail: loadError })));
  if (!tables) return;
  if (!tables.length) {
    el.append(h("p", { class: "muted" }, t("pub.none")));
    return;
  }
  const ul = h("ul", { class: "public-tables" });
  for (const tab of tables) {
    const mine = mySeat(tab);
    const created = new Date(tab.created);
    const since = Number.isNaN(created.getTime()) ? "" : created.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const error = rowErrors.get(tab.table);
    ul.append(
      h(
        "li",
        { dataset: { table: tab.table } },
        h(
          "div",
          { class: "row-head" },
          h("strong", {}, gameName(tab.game)),
          h("span", { class: "muted" }, ` · ${t("pub.players", { n: tab.players })} · ${t("pub.host", { name: tab.host || "?" })}${since ? ` · ${t("pub.since", { time: since })}` : ""}`),
        ),
        h(
          "div",
          { class: "pub-options muted" },
          h("span", { class: "pub-clock", dataset: { clock: tab.time_control?.kind || "none" } }, clockSummary(tab.time_control)),
          " · ",
          h("span", { class: "pub-rules" }, optionsSummary(tab.game, tab.options)),
        ),
        h("div", { class: "pub-row" }, h("ul", { class: "pub-seats" }, tab.seats.map((s) => seatChip(s, mine))), seatButton(tab, mine)),
        error ? h("p", { class: "error-banner", role: "alert" }, error) : null,
      ),
    );
  }
  el.append(ul);
}

async function join(tab, button) {
  rowErrors.delete(tab.table);
  const input = $("guest-name");
  $("guest-name-error").hidden = true;
  let body = {};
  if (!account) {
    const name = input.value.trim();
    if (!name) {
      $("guest-name-error").hidden = false;
      input.focus();
      return;
    }
    rememberGuestName(name);
    body = { name };
  }
  await openSeat(tab, button, "join", body, "pub.joinFailed");
}

/** Open the signed-in account's seat at `tab` through a fresh seat link (this browser keeps no
 * token for it: the seat was taken on another device). */
async function openAccountSeat(tab, button) {
  rowErrors.delete(tab.table);
  await openSeat(tab, button, "seat-link", {}, "games.openFailed");
}

/** POST `body` to the table's `what` (join, seat-link), keep the seat token it answers and open
 * the seat; a refusal shows in the table's row (`failKey`) and the list is read again. */
async function openSeat(tab, button, what, body, failKey) {
  button.disabled = true;
  try {
    const ans = await postAsAccount(`/api/tables/${encodeURIComponent(tab.table)}/${what}`, body);
    rememberToken(ans.table, ans.token, ans.seat);
    location.href = pageLink(ans.link);
  } catch (e) {
    rowErrors.set(tab.table, t(failKey, { detail: e instanceof ApiError ? e.detail : String(e) }));
    button.disabled = false;
    loadPublicTables();
  }
}

let shown = ""; // what the list shows now, to leave it (and the focus in it) alone when nothing changed

export async function loadPublicTables() {
  try {
    const ans = await api("GET", "/api/lobby");
    tables = Array.isArray(ans) ? ans : [];
    loadError = null;
  } catch (e) {
    loadError = e instanceof ApiError ? e.detail : String(e);
  }
  const now = JSON.stringify([tables, loadError, [...rowErrors], account?.name, (tables || []).map(mySeat)]);
  if (now === shown) return;
  shown = now;
  renderPublicTables();
}

function refreshSoon() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (document.visibilityState === "visible") await loadPublicTables();
    refreshSoon();
  }, REFRESH_MS);
}

/** Wire the section: the guest name field, the list and its refreshes. */
export async function setupPublicTables(gameList) {
  games = gameList || [];
  const input = $("guest-name");
  input.value = guestName();
  input.addEventListener("change", () => rememberGuestName(input.value.trim()));
  input.addEventListener("input", () => ($("guest-name-error").hidden = true));
  const again = () => {
    if (document.visibilityState === "visible") {
      currentAccount().then(renderJoinAs);
      loadPublicTables();
    }
  };
  window.addEventListener("focus", again);
  document.addEventListener("visibilitychange", again);
  await currentAccount();
  await loadPublicTables();
  refreshSoon();
}
