// Accounts in the browser (docs/server.md, "Accounts"): the lobby's sign-in area and "My games",
// the table page's "Save this game to my account", and the game lines the profile page shares.
// Accounts are optional: every table keeps working by its secret link without one.

import { clockLine, isLow } from "./clocks.js";
import { ApiError, accountApi, api, currentAccount, pageLink, rememberToken, setAccount } from "./api.js";
import { clear, h } from "./dom.js";
import { lang, onLangChange, t } from "./i18n.js";
import { loadMessages } from "./messages.js";
import { markGamesToPlay } from "./notify.js";
import { replayHref } from "./replaylinks.js";
import { messageText, seatName } from "./tablehelp.js";

/** A refused sign-up or sign-in in the page's language (the server words its reasons in English). */
export function accountError(e) {
  if (!(e instanceof ApiError)) return t("acct.err.failed", { detail: String(e) });
  const detail = String(e.detail || "");
  if (e.status === 409) return t("acct.err.taken");
  if (e.status === 401) return t("acct.err.wrong");
  if (e.status === 429) return t("acct.err.tooMany", { s: (detail.match(/in (\d+) s/) || [])[1] || "?" });
  if (e.status === 400) {
    if (detail.includes("user name has")) return t("acct.err.badName");
    if (detail.includes("at least")) return t("acct.err.short");
    if (detail.includes("contain the user name")) return t("acct.err.containsName");
    if (detail.includes("easy to guess")) return t("acct.err.common");
    if (detail.includes("too long")) return t("acct.err.long");
  }
  return t("acct.err.failed", { detail });
}

/** A date (ISO text) as the page's language writes it. */
export function dateText(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return d.toLocaleDateString(lang() === "fr" ? "fr-FR" : "en-GB", { year: "numeric", month: "short", day: "numeric" });
}

export function profileHref(name) {
  return `/profile/${encodeURIComponent(name)}`;
}

// ---- one game of an account (My games, the profile page) -------------------------------------

/** A seat's name: how the game names it now (a live table's label), else its colour, else its number. */
function seatWord(label, colour, seat) {
  const key = `colour.${colour}`;
  const word = t(key);
  return seatName(label) || (word !== key ? word : t("lobby.seatN", { n: seat + 1 }));
}

function seatText(entry) {
  return seatWord(entry.seat_label, entry.colour, entry.seat);
}

/** Who else sits at the table: account names (linked to their profiles), guests' names, bots,
 * and a player known only by a link by the seat's name in the game. */
function others(entry) {
  const out = [];
  for (const p of entry.seats || []) {
    if (p.seat === entry.seat) continue;
    if (out.length) out.push(", ");
    if (p.kind === "bot") out.push(t("seat.botKind", { bot: t(`bot.${p.bot}`) }));
    else if (p.kind === "open") out.push(t("games.free"));
    else if (p.account && p.name) out.push(h("a", { href: profileHref(p.name) }, p.name));
    else out.push(p.name || seatWord(p.label, p.colour, p.seat));
  }
  return out;
}

const SWATCHES = ["blue", "yellow", "red", "green"]; // the colours style.css draws (sw-*)

/** How the game went for the account's seat: "Won", or its place by final return. */
function resultText(entry) {
  if (entry.status !== "over") return null;
  if (entry.won) return t("games.won");
  if (entry.rank) return t("games.place", { rank: entry.rank, n: entry.players });
  return null;
}

/**
 * One game as a list item: the game, its table, when, the account's seat, the others, and for a
 * finished game its result and how it was won. `mine`: the signed-in account's own list ("You
 * play"), else a profile's ("Plays"). `action`: an element to put at the end (the Open button).
 * A finished game links to its replay (the public view, which a finished table shows to anyone).
 */
export function gameItem(entry, { mine = false, action = null } = {}) {
  // a table still waiting for players has not started: it says when it was made
  let when;
  if (entry.status === "over" && entry.finished) when = t("games.ended", { date: dateText(entry.finished) });
  else if (entry.status === "open") when = t("games.created", { date: dateText(entry.created) });
  else when = t("games.started", { date: dateText(entry.created) });
  const toMove =
    entry.status === "playing" && entry.to_move && !entry.seat_to_move
      ? ` · ${t("lobby.toMove", { colour: seatName(entry.to_move_label) || t(`colour.${entry.to_move}`) })}`
      : "";
  const result = resultText(entry);
  const withWhom = others(entry);
  return h(
    "li",
    { class: "game-item", dataset: { table: entry.table, status: entry.status, turn: entry.seat_to_move ? "1" : "0" } },
    h(
      "div",
      { class: "game-main" },
      h("div", { class: "row-head" }, h("strong", {}, t(`game.${entry.game}`)), h("span", { class: "muted" }, ` · ${t("ui.tableN", { id: entry.table })} · ${when}`)),
      h(
        "div",
        { class: "game-seat" },
        SWATCHES.includes(entry.colour) ? h("span", { class: `swatch sw-${entry.colour}` }) : null,
        t(mine ? "games.youPlay" : "games.plays", { seat: seatText(entry) }),
        withWhom.length ? h("span", { class: "muted" }, " ", t("games.with"), " ", withWhom) : null,
        toMove ? h("span", { class: "muted" }, toMove) : null,
      ),
      entry.clock ? h("div", { class: `game-clock${isLow(entry.clock.remaining, entry.clock.time_control) ? " low" : ""}` }, clockLine(entry.clock)) : null,
      result ? h("div", { class: entry.won ? "game-result won" : "game-result" }, result) : null,
      entry.status === "over" && entry.outcome ? h("div", { class: "outcome muted" }, t("lobby.howWon", { summary: messageText(entry.outcome.summary) })) : null,
    ),
    entry.status === "over" ? h("a", { class: "button replay-game", href: replayHref(entry.table, null), dataset: { replay: entry.table } }, t("replay.lobby")) : null,
    action,
  );
}

// ---- the lobby's sign-in area -----------------------------------------------------------------

let me = { signed_in: false, name: null, csrf: null };
let els = null; // {bar, panel, games}
let games = null; // GET /api/account/games, or null before it answers
let gamesError = null;
let formError = null;
let busy = false;

function field(id, labelKey, input, hintKey) {
  return h(
    "div",
    { class: "field account-field" },
    h("label", { for: id }, t(labelKey)),
    input,
    hintKey ? h("small", { class: "muted hint", id: `${id}-hint` }, t(hintKey)) : null,
  );
}

function renderBar() {
  const bar = clear(els.bar);
  if (me.signed_in) {
    bar.append(
      h("span", { class: "account-label" }, t("acct.signedInAs")),
      h("a", { class: "button topbar-btn account-name", id: "profile-link", href: profileHref(me.name), title: t("acct.profile"), "aria-label": `${t("acct.profile")}: ${me.name}` }, h("span", { class: "name-text" }, me.name)),
      h("a", { class: "button topbar-btn", id: "mail-link", href: "/account/preferences" }, t("mail.link")),
      h("button", { type: "button", class: "topbar-btn", id: "signout", onclick: signOut }, t("acct.signOut")),
    );
  } else {
    bar.append(h("button", { type: "button", class: "topbar-btn", id: "account-open", "aria-expanded": String(!els.panel.hidden), onclick: togglePanel }, t("acct.signIn")));
  }
}

function togglePanel() {
  els.panel.hidden = !els.panel.hidden;
  renderBar();
  if (!els.panel.hidden) {
    els.panel.scrollIntoView({ block: "nearest" });
    document.getElementById("account-user")?.focus();
  }
}

function renderPanel() {
  const panel = els.panel;
  const keep = {
    name: document.getElementById("account-user")?.value || "",
    password: document.getElementById("account-password")?.value || "",
  };
  clear(panel);
  if (me.signed_in) {
    panel.hidden = true;
    return;
  }
  const name = h("input", { type: "text", id: "account-user", name: "username", autocomplete: "username", autocapitalize: "off", spellcheck: "false", maxlength: "32", value: keep.name, "aria-describedby": "account-user-hint" });
  const password = h("input", { type: "password", id: "account-password", name: "password", autocomplete: "current-password", maxlength: "256", value: keep.password, "aria-describedby": "account-password-hint" });
  const error = h("div", { id: "account-error", class: "error-banner", role: "alert", hidden: !formError }, formError || "");
  const form = h(
    "form",
    { id: "account-form", novalidate: true, onsubmit: (ev) => (ev.preventDefault(), submit("signin")) },
    field("account-user", "acct.name", name, "acct.nameHint"),
    field("account-password", "acct.password", password, "acct.passwordHint"),
    h(
      "div",
      { class: "actions account-actions" },
      h("button", { type: "submit", class: "primary", id: "signin", disabled: busy }, t("acct.signIn")),
      h("button", { type: "button", id: "signup", disabled: busy, onclick: () => submit("signup") }, t("acct.signUp")),
    ),
    error,
  );
  panel.append(
    h(
      "div",
      { class: "panel-head" },
      h("h2", {}, t("acct.title")),
      h("button", { type: "button", class: "link close-panel", "aria-label": t("acct.close"), title: t("acct.close"), onclick: togglePanel }, "×"),
    ),
    h("p", { class: "muted" }, t("acct.help")),
    form,
  );
}

async function submit(kind) {
  const name = document.getElementById("account-user").value.trim();
  const password = document.getElementById("account-password").value;
  if (!name || !password) {
    formError = t("acct.err.empty");
    renderPanel();
    return;
  }
  formError = null;
  busy = true;
  renderPanel();
  try {
    const answer = await api("POST", `/api/account/${kind}`, { name, password });
    signedIn(answer);
  } catch (e) {
    formError = accountError(e);
    busy = false;
    renderPanel();
    document.getElementById(e instanceof ApiError && e.status === 409 ? "account-user" : "account-password")?.focus();
    return;
  }
  busy = false;
}

function signedIn(answer) {
  setAccount(answer);
  me = answer;
  formError = null;
  games = null;
  const password = document.getElementById("account-password");
  if (password) password.value = "";
  els.panel.hidden = true;
  renderAll();
  loadGames();
}

async function signOut() {
  try {
    const answer = await accountApi("POST", "/api/account/signout");
    setAccount(answer);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 401)) {
      gamesError = e instanceof ApiError ? e.detail : String(e);
      renderGames();
      return;
    }
    setAccount({ signed_in: false, name: null, csrf: null });
  }
  me = { signed_in: false, name: null, csrf: null };
  games = null;
  gamesError = null;
  renderAll();
}

// ---- My games ---------------------------------------------------------------------------------

async function loadGames() {
  if (!me.signed_in) return;
  try {
    // seat names and results are messages: the catalogue comes first
    [games] = await Promise.all([api("GET", "/api/account/games"), loadMessages(lang()).catch(() => null)]);
    gamesError = null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      // the session ended (signed out elsewhere, or expired)
      me = await currentAccount(true);
      renderAll();
      return;
    }
    gamesError = t("games.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) });
  }
  renderGames();
}

async function openGame(entry, button) {
  button.disabled = true;
  try {
    const answer = await accountApi("POST", `/api/tables/${encodeURIComponent(entry.table)}/seat-link`);
    rememberToken(answer.table, answer.token, answer.seat);
    location.href = pageLink(answer.link);
  } catch (e) {
    gamesError = t("games.openFailed", { detail: e instanceof ApiError ? e.detail : String(e) });
    button.disabled = false;
    renderGames();
  }
}

function renderGames() {
  const section = clear(els.games);
  section.hidden = !me.signed_in;
  markGamesToPlay(me.signed_in && games ? games.filter((g) => g.status === "playing" && g.seat_to_move).length : 0);
  if (!me.signed_in) return;
  section.append(
    h(
      "h2",
      {},
      h("span", {}, t("games.title")),
      " ",
      h("button", { type: "button", id: "my-games-refresh", class: "link", onclick: loadGames }, t("games.refresh")),
    ),
  );
  if (gamesError) section.append(h("p", { class: "error-banner", role: "alert" }, gamesError));
  if (games === null) return;
  if (!games.length) {
    section.append(h("p", { class: "muted" }, t("games.none")));
    return;
  }
  const groups = [
    ["your-turn", "games.yourTurn", games.filter((g) => g.status === "playing" && g.seat_to_move)],
    ["playing", "games.playing", games.filter((g) => g.status === "playing" && !g.seat_to_move)],
    ["waiting", "games.waiting", games.filter((g) => g.status !== "playing" && g.status !== "over")],
    ["finished", "games.finished", games.filter((g) => g.status === "over")],
  ];
  for (const [id, key, list] of groups) {
    if (!list.length) continue;
    section.append(
      h("h3", { class: "games-group" }, t(key), h("span", { class: "muted" }, ` (${list.length})`)),
      h(
        "ul",
        { class: "my-games", dataset: { group: id } },
        list.map((entry) => {
          const open = h("button", { type: "button", class: entry.seat_to_move ? "primary open-game" : "open-game", dataset: { open: entry.table } }, t("games.open"));
          open.addEventListener("click", () => openGame(entry, open));
          return gameItem(entry, { mine: true, action: open });
        }),
      ),
    );
  }
}

function renderAll() {
  renderBar();
  renderPanel();
  renderGames();
}

/**
 * The lobby's account area: `bar` (in the top bar: "Sign in", or the account's name and "Sign
 * out"), `panel` (the sign-up / sign-in form) and `games` (the "My games" section).
 */
export async function setupAccount(elements) {
  els = elements;
  me = await currentAccount();
  renderAll();
  onLangChange((l) => {
    renderAll();
    loadMessages(l).then(renderGames, () => null);
  });
  if (me.signed_in) loadGames();
  window.addEventListener("focus", () => {
    if (me.signed_in && games !== null) loadGames();
  });
}

// ---- the table page: save this seat to my account ---------------------------------------------

/**
 * On a table opened by a seat link while signed in: "Save this game to my account" (POST
 * /api/tables/{id}/claim), or a line saying it is saved. Shows nothing to a spectator, or when
 * nobody is signed in.
 */
export async function setupSeatSaving(box, tableId, token) {
  const account = await currentAccount();
  if (!account.signed_in || !token) return;
  const path = `/api/tables/${encodeURIComponent(tableId)}/claim`;
  let claim;
  try {
    claim = await api("GET", path, undefined, token);
  } catch {
    return; // a spectator's token, or the session ended: nothing to save
  }
  let error = null;
  let busyNow = false;
  const render = () => {
    clear(box);
    box.hidden = false;
    box.dataset.saved = claim.saved ? "1" : "0";
    if (claim.saved) {
      box.append(h("p", { class: "saved-line" }, "✓ ", t("save.saved", { name: account.name })));
      return;
    }
    if (claim.taken) {
      box.append(h("p", { class: "muted" }, t("save.taken")));
      return;
    }
    box.append(
      h("p", { class: "muted" }, t("save.help", { name: account.name })),
      h("button", { type: "button", id: "save-game", class: "primary", disabled: busyNow, onclick: save }, t("save.button")),
    );
    if (error) box.append(h("p", { class: "error-banner", role: "alert" }, error));
  };
  async function save() {
    busyNow = true;
    render();
    try {
      claim = await accountApi("POST", path, undefined, token);
      error = null;
    } catch (e) {
      error = t("save.failed", { detail: e instanceof ApiError ? e.detail : String(e) });
    }
    busyNow = false;
    render();
  }
  render();
  onLangChange(render);
}
