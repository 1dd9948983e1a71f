// The lobby: create a table (game, players, seats, options), show its invite links, list my tables.

import {
  ApiError,
  absoluteLink,
  api,
  createdTables,
  forgetToken,
  pageLink,
  rememberCreated,
  rememberToken,
  storedTokens,
} from "./api.js";
import { setupAccount } from "./account.js";
import { explainSymbols } from "./boards/mesopotamia-epochs/symbols.js";
import { clear, copyText, h } from "./dom.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";
import { loadMessages } from "./messages.js";
import {
  createPublicTable,
  currentAccount,
  guestName,
  loadPublicTables,
  rememberGuestName,
  renderPublicTables,
  setupPublicTables,
} from "./publictables.js";
import { messageText, seatName } from "./tablehelp.js";
import { lobbyReplayLink } from "./replaylinks.js";
import { renderTimeControl, setupTimeControl, timeControlBody } from "./timecontrolform.js";

const $ = (id) => document.getElementById(id);

let games = [];
const DEFAULT_GAME = "mesopotamia";
let lastCreated = null;
let myTables = null; // lookup answer
let loadError = null;

/** "Seat 1 · Blue"; a seat whose colour reads as the seat itself (Mare Nostrum: "seat 1", the
 * empires are dealt at random) is said once. */
function seatLabel(seat) {
  const label = t("lobby.seatN", { n: seat.seat + 1 });
  const colour = t(`colour.${seat.colour}`);
  return colour.toLowerCase() === label.toLowerCase() ? label : `${label} · ${colour}`;
}

function currentGame() {
  return games.find((g) => g.id === $("game").value) || games[0];
}

function optionLabel(name) {
  const key = `opt.${name}`;
  const text = t(key);
  return text === key ? name : `${text} (${name})`;
}

function renderGames() {
  const sel = $("game");
  const keep = sel.value;
  clear(sel);
  for (const g of games) sel.append(h("option", { value: g.id }, t(`game.${g.id}`) === `game.${g.id}` ? g.name : t(`game.${g.id}`)));
  // the first game of the series is the default choice, whatever order the server lists
  if (keep) sel.value = keep;
  else if (games.some((g) => g.id === DEFAULT_GAME)) sel.value = DEFAULT_GAME;
}

function renderPlayers() {
  const g = currentGame();
  const sel = $("players");
  const keep = Number(sel.value) || Math.min(Math.max(3, g.min_players), g.max_players);
  clear(sel);
  for (let n = g.min_players; n <= g.max_players; n++) sel.append(h("option", { value: n }, String(n)));
  sel.value = String(Math.min(Math.max(keep, g.min_players), g.max_players));
}

// Bot levels first (easy = the heuristic bot, medium and hard = search, docs/bots.md), then the plain kinds.
const BOT_LEVELS = ["easy", "medium", "hard"];

function seatChoices(g) {
  const bots = g.bots || [];
  const option = (b) => h("option", { value: `bot:${b}` }, t("seat.botKind", { bot: t(`bot.${b}`) }));
  const levels = bots.filter((b) => BOT_LEVELS.includes(b));
  const others = bots.filter((b) => !BOT_LEVELS.includes(b));
  const out = [h("option", { value: "human" }, t("seat.human"))];
  if ($("public").checked) out.push(h("option", { value: "open" }, t("seat.open")));
  if (!levels.length) return [...out, ...others.map(option)];
  out.push(h("optgroup", { label: t("lobby.botLevels") }, levels.map(option)));
  if (others.length) out.push(h("optgroup", { label: t("lobby.otherBots") }, others.map(option)));
  return out;
}

function defaultBot(g) {
  const bots = g.bots || [];
  const pick = ["easy", "heuristic"].find((b) => bots.includes(b)) || bots[0];
  return pick ? `bot:${pick}` : "human";
}

function renderSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll("select")].map((s) => s.value);
  clear(rows);
  const defBot = defaultBot(g);
  for (let i = 0; i < n; i++) {
    const sel = h("select", { id: `seat-${i}`, name: `seat-${i}`, dataset: { seat: i } }, seatChoices(g));
    sel.value = old[i] || (i === 0 ? "human" : defBot);
    if (!sel.value) sel.value = "human"; // an open seat of a table that is no longer public
    rows.append(h("div", { class: "field seat-row" }, h("label", { for: `seat-${i}` }, t("lobby.seatN", { n: i + 1 })), sel));
  }
  explainSymbols(rows, g.id, n);
}

/** "empire_assignment" -> "Empire assignment": an option name or value without a translation. */
function readableName(name) {
  const text = String(name).replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One option's field. `spec` is what its declaration allows (`option_specs` of /api/games):
 * `values` (a closed set: a select), `min`/`max` (a number's bounds), `rules` (its rule
 * numbers, shown after an untranslated name). */
function optionInput(name, def, spec = {}) {
  const id = `opt-${name}`;
  const translated = t(`opt.${name}`) !== `opt.${name}`;
  const label = translated ? optionLabel(name) : spec.rules ? `${readableName(name)} (${spec.rules})` : readableName(name);
  const labelEl = h("label", { for: id, title: translated ? undefined : name }, label);
  let input;
  if (typeof def === "boolean") {
    input = h("input", { type: "checkbox", id, dataset: { option: name }, checked: def });
    return h("div", { class: "field check" }, input, labelEl);
  }
  if (Array.isArray(spec.values) && typeof def === "string" && spec.values.includes(def)) {
    input = h(
      "select",
      { id, dataset: { option: name } },
      spec.values.map((v) => h("option", { value: v }, readableName(v))),
    );
    input.value = def;
  } else if (typeof def === "number") {
    input = h("input", { type: "number", id, step: "any", min: spec.min, max: spec.max, value: String(def), dataset: { option: name } });
  } else if (def === null) {
    input = h("input", { type: "text", id, value: "", placeholder: t("lobby.optionUnset"), dataset: { option: name, json: "1" } });
  } else if (typeof def === "string") {
    input = h("input", { type: "text", id, value: def, dataset: { option: name } });
  } else {
    input = h("input", { type: "text", id, value: JSON.stringify(def), dataset: { option: name, json: "1" }, spellcheck: "false" });
  }
  return h("div", { class: "field" }, labelEl, input);
}

function renderOptions() {
  const g = currentGame();
  const box = $("options");
  const old = {};
  for (const el of box.querySelectorAll("[data-option]")) old[el.dataset.option] = el.type === "checkbox" ? el.checked : el.value;
  clear(box);
  // options with a translated name come first; the other rule defaults fold away
  const more = h("details", { class: "more-options", open: !!box.dataset.moreOpen || undefined });
  more.addEventListener("toggle", () => (box.dataset.moreOpen = more.open ? "1" : ""));
  more.append(h("summary", {}, t("lobby.moreOptions")));
  const entries = Object.entries(g.options || {});
  const featured = entries.filter(([name]) => t(`opt.${name}`) !== `opt.${name}`);
  const rest = entries.filter(([name]) => t(`opt.${name}`) === `opt.${name}`);
  for (const [list, parent] of [
    [featured, box],
    [rest, more],
  ]) {
    for (const [name, def] of list) {
      const row = optionInput(name, def, (g.option_specs || {})[name]);
      const el = row.querySelector("[data-option]");
      if (name in old) {
        if (el.type === "checkbox") el.checked = old[name];
        else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === old[name])) el.value = old[name];
      }
      parent.append(row);
    }
  }
  if (rest.length) box.append(more);
}

function collectOptions(g) {
  const out = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    const def = g.options[name];
    let value;
    if (el.type === "checkbox") value = el.checked;
    else if (el.type === "number") {
      if (el.value === "") continue;
      value = Number(el.value);
    } else if (el.dataset.json) {
      const raw = el.value.trim();
      if (raw === "") {
        if (def === null) continue;
        value = null;
      } else {
        try {
          value = JSON.parse(raw);
        } catch {
          value = raw;
        }
      }
    } else value = el.value;
    if (JSON.stringify(value) !== JSON.stringify(def)) out[name] = value;
  }
  return out;
}

function showCreateError(text) {
  const el = $("create-error");
  el.hidden = !text;
  el.textContent = text || "";
}

async function onCreate(ev) {
  ev.preventDefault();
  showCreateError(null);
  const g = currentGame();
  const players = Number($("players").value);
  const seats = [];
  for (let i = 0; i < players; i++) {
    const v = $(`seat-${i}`).value;
    seats.push(v === "human" || v === "open" ? { kind: v } : { kind: "bot", bot: v.slice(4) });
  }
  const seedText = $("seed").value.trim();
  const body = { game: g.id, players, options: collectOptions(g), seats, seed: seedText === "" ? null : Number(seedText) };
  const timeControl = timeControlBody();
  if (timeControl) body.time_control = timeControl;
  if ($("public").checked) {
    body.public = true;
    if (!(await currentAccount())) {
      body.host_name = $("host-name").value.trim();
      if (!body.host_name) {
        showCreateError(t("pub.hostNameNeeded"));
        $("host-name").focus();
        return;
      }
      rememberGuestName(body.host_name);
    }
  }
  $("create").disabled = true;
  try {
    const ans = body.public ? await createPublicTable(body) : await api("POST", "/api/tables", body);
    lastCreated = ans;
    rememberCreated(ans);
    // The creator's own seat goes to "My tables" (Play) when it is known: the one seat with a
    // token (a public table's host seat; a private table with one human seat). The seats of a
    // private table for several people stay invite links until their links are opened here.
    const withToken = (ans.seats || []).filter((seat) => seat.token);
    if (withToken.length === 1) rememberToken(ans.table, withToken[0].token, withToken[0].seat);
    if (ans.spectator_token) rememberToken(ans.table, ans.spectator_token, null);
    renderCreated();
    $("created").scrollIntoView({ behavior: "smooth", block: "start" });
    loadMyTables();
    if (body.public) loadPublicTables();
  } catch (e) {
    showCreateError(t("lobby.createFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
  } finally {
    $("create").disabled = false;
  }
}

function copyRow(labelText, link, testId) {
  const url = absoluteLink(link);
  const input = h("input", { type: "text", readonly: true, value: url, class: "link-input", "aria-label": labelText, dataset: { link: testId } });
  input.addEventListener("focus", () => input.select());
  const status = h("span", { class: "copy-status", "aria-live": "polite" });
  const copy = h(
    "button",
    {
      type: "button",
      class: "copy",
      dataset: { copy: testId },
      onclick: async () => {
        const ok = await copyText(url);
        status.textContent = ok ? t("lobby.copied") : t("lobby.copyFailed");
        setTimeout(() => (status.textContent = ""), 2500);
      },
    },
    t("lobby.copy"),
  );
  const open = h("a", { class: "button", href: pageLink(link), dataset: { open: testId } }, t("lobby.open"));
  return h("div", { class: "link-row" }, input, copy, open, status);
}

function renderCreated() {
  const el = clear($("created"));
  el.hidden = !lastCreated;
  if (!lastCreated) return;
  const ans = lastCreated;
  el.append(h("h2", {}, t("lobby.created", { id: ans.table })));
  el.append(h("p", { class: "muted" }, t("lobby.createdHelp")));
  const list = h("ul", { class: "invites" });
  for (const seat of ans.seats || []) {
    const head = h(
      "div",
      { class: "seat-head" },
      h("span", { class: `swatch sw-${seat.colour}` }),
      h("strong", {}, seatLabel(seat)),
      " ",
      h("span", { class: "muted" }, seat.kind === "bot" ? t("seat.botKind", { bot: t(`bot.${seat.bot}`) }) : seat.kind === "open" ? t("seat.open") : t("seat.human")),
    );
    list.append(h("li", { dataset: { seat: seat.seat } }, head, seat.kind === "human" && seat.link ? copyRow(t("lobby.seatLink"), seat.link, `seat-${seat.seat}`) : null));
  }
  list.append(h("li", {}, h("div", { class: "seat-head" }, h("strong", {}, t("lobby.spectatorLink"))), copyRow(t("lobby.spectatorLink"), ans.spectator_link, "spectator")));
  el.append(list);
}

async function loadMyTables() {
  const tokens = storedTokens();
  const list = [...new Set(tokens.map((e) => e.token))];
  if (!list.length) {
    myTables = [];
    renderMyTables();
    return;
  }
  try {
    const ans = await api("POST", "/api/tables/lookup", { tokens: list });
    myTables = Array.isArray(ans) ? ans : [];
    loadError = null;
  } catch (e) {
    loadError = e instanceof ApiError ? e.detail : String(e);
    myTables = [];
  }
  renderMyTables();
}

function tokenFor(entry, tokens) {
  if (entry.token) return entry.token;
  const same = tokens.filter((e) => e.table === entry.table);
  const exact = same.find((e) => e.seat === entry.seat);
  if (exact) return exact.token;
  const unknown = same.filter((e) => e.seat === undefined);
  return unknown.length === 1 ? unknown[0].token : same.length === 1 ? same[0].token : null;
}

/** How the table names a seat now (the server's label: Mare Nostrum's empire), else its colour. */
function labelOf(label, colour) {
  return seatName(label) || t(`colour.${colour}`);
}

/** A finished table's line saying how it was won (the outcome the table page shows). */
function outcomeLine(entry) {
  if (entry.status !== "over" || !entry.outcome) return null;
  const o = entry.outcome;
  return h("div", { class: "outcome muted", dataset: { condition: o.condition, rule: o.rule } }, t("lobby.howWon", { summary: messageText(o.summary) }));
}

function renderMyTables() {
  const el = clear($("my-tables-list"));
  if (loadError) el.append(h("p", { class: "error-banner", role: "alert" }, loadError));
  if (!myTables || !myTables.length) {
    el.append(h("p", { class: "muted" }, t("lobby.noTables")));
    return;
  }
  const tokens = storedTokens();
  const created = new Map(createdTables().map((c) => [c.table, c]));
  const byTable = new Map();
  for (const e of myTables) {
    if (!byTable.has(e.table)) byTable.set(e.table, []);
    byTable.get(e.table).push(e);
  }
  const rows = [...byTable.entries()].sort((a, b) => String(b[1][0].created || "").localeCompare(String(a[1][0].created || "")));
  const ul = h("ul", { class: "my-tables" });
  for (const [table, entries] of rows) {
    const first = entries[0];
    const status = first.status === "over" ? t("lobby.statusOver") : first.status === "open" ? t("lobby.statusOpen") : t("lobby.statusPlaying");
    const toMove = first.status !== "over" && first.to_move ? t("lobby.toMove", { colour: labelOf(first.to_move_label, first.to_move) }) : "";
    const links = entries
      .sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99))
      .map((e) => {
        const tok = tokenFor(e, tokens);
        if (!tok) return null;
        const spectator = e.seat === null || e.seat === undefined;
        const over = e.status === "over";
        let label;
        if (spectator) label = t(over ? "lobby.seeEnd" : "lobby.watch");
        else label = t(over ? "lobby.seeEndAs" : "lobby.openAs", { colour: labelOf(e.seat_label, e.colour) });
        const myTurn = e.status !== "over" && e.colour && e.colour === e.to_move;
        return h(
          "span",
          { class: "entry" },
          h("a", { class: myTurn ? "button primary" : "button", title: myTurn ? t("lobby.yourTurn") : null, href: `/table/${encodeURIComponent(table)}#token=${tok}`, dataset: { table, seat: e.seat ?? "spectator" } }, label),
          h(
            "button",
            { type: "button", class: "link forget", title: t("lobby.forget"), "aria-label": t("lobby.forget"), onclick: () => (forgetToken(tok), loadMyTables()) },
            "×",
          ),
        );
      });
    // a finished table has one replay, as the first of its seats kept here saw it (else as
    // its spectators did)
    const replayEntry = first.status === "over" ? entries.find((e) => tokenFor(e, tokens)) : null;
    if (replayEntry) links.push(lobbyReplayLink(table, tokenFor(replayEntry, tokens)));
    const invites = created.get(table);
    ul.append(
      h(
        "li",
        { dataset: { table } },
        h("div", { class: "row-head" }, h("strong", {}, t(`game.${first.game}`)), h("span", { class: "muted" }, ` · ${t("ui.tableN", { id: table })} · ${status}${toMove ? ` · ${toMove}` : ""}`)),
        h("div", { class: "entries" }, links),
        outcomeLine(first),
        invites
          ? h(
              "details",
              { class: "invite-details" },
              h("summary", {}, t("lobby.inviteLinks")),
              (invites.seats || [])
                .filter((st) => st.kind === "human" && st.link)
                .map((st) => h("div", {}, h("span", {}, `${labelOf(first.seat_labels?.[st.seat], st.colour)}: `), copyRow(t("lobby.seatLink"), st.link, `mine-${table}-${st.seat}`))),
            )
          : null,
      ),
    );
  }
  el.append(ul);
}

let tutorials = []; // GET /api/tutorials: the games with a tutorial

function renderTutorials() {
  const el = clear($("tutorial-links"));
  $("tutorials").hidden = !tutorials.length;
  for (const tut of tutorials) {
    el.append(h("a", { class: "button", href: `/tutorial/${encodeURIComponent(tut.game)}`, dataset: { tutorial: tut.game } }, t("tut.start", { game: t(`game.${tut.game}`) })));
  }
}

function renderAll() {
  applyStatic(document);
  renderTutorials();
  if (!games.length) return;
  renderGames();
  renderSeats();
  renderOptions();
  renderTimeControl(currentGame());
  renderCreated();
  renderMyTables();
  renderPublicTables();
}

/** "List in the public lobby": the seats may be open, and a guest host gives a name. */
async function onPublicChange() {
  const on = $("public").checked;
  $("public-help").hidden = !on;
  const n = Number($("players").value);
  renderSeats();
  // listed: the other seats start open (players take them from the lobby; any may still be a
  // bot); private again: open seats go back to the default bot
  const defBot = defaultBot(currentGame());
  for (let i = 0; i < n; i++) {
    const sel = $(`seat-${i}`);
    if (on && i > 0) sel.value = "open";
    else if (!on && sel.value === "human" && i > 0) sel.value = defBot;
  }
  const signedIn = on && !!(await currentAccount());
  $("host-name-row").hidden = !on || signedIn;
  if (on && !$("host-name").value) $("host-name").value = guestName();
}

async function main() {
  $("lang").append(langSwitch());
  applyStatic(document);
  setupAccount({ bar: $("account-bar"), panel: $("account"), games: $("my-games") }); // sign-in area, My games
  onLangChange((l) => {
    renderAll();
    loadMessages(l).then(renderAll);
  });
  $("create-form").addEventListener("submit", onCreate);
  $("refresh").addEventListener("click", loadMyTables);
  $("game").addEventListener("change", () => {
    renderPlayers();
    renderSeats();
    clear($("options"));
    renderOptions();
    renderTimeControl(currentGame());
  });
  $("players").addEventListener("change", renderSeats);
  $("public").addEventListener("change", onPublicChange);
  // signed in or out here: a guest's name is asked only of a guest (to host, or to join)
  window.addEventListener("ziggurat:account", async () => {
    const signedIn = !!(await currentAccount());
    $("host-name-row").hidden = !$("public").checked || signedIn;
    renderPublicTables();
  });
  try {
    games = await api("GET", "/api/games");
  } catch (e) {
    showCreateError(t("lobby.gamesFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
    $("create").disabled = true;
  }
  if (games.length) {
    renderGames();
    renderPlayers();
    renderSeats();
    renderOptions();
    setupTimeControl(currentGame);
  }
  await loadMessages(lang()).catch(() => null);
  document.body.dataset.ready = "1";
  loadMyTables();
  setupPublicTables(games);
  api("GET", "/api/tutorials")
    .then((list) => ((tutorials = list), renderTutorials()))
    .catch(() => {}); // without tutorials the lobby simply shows no links to them
}

main();
