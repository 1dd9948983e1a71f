// Mesopotamia: Epochs board: the map (draw) and the interaction layer (createBoard).
// Exports what table.js expects of a board module: draw, createBoard, actionLabel, actionGroup,
// and renderResult (the end of the game in VP). The log and the refusals come as messages
// (`event`: key and parameters) that table.js renders from the game's catalogues.
// The map and the People cards come from the game's data files (./mesopotamia-epochs/data.js),
// or from the table's `map` / `peoples` options when it was created with replacements.

import { boardStyles, clear, h } from "../dom.js";
import { lang as currentLang } from "../i18n.js";
import { messagesReady } from "../messages.js";
import { dataFor, defaultData, occupancy, owners } from "./mesopotamia-epochs/data.js";
import { draw, symbolIcon } from "./mesopotamia-epochs/draw.js";
import { actionLabel as labelFor, activePeople, areaName, areaParams, peopleName, pendingQuestion, placeInfo, symbolName } from "./mesopotamia-epochs/labels.js";
import { actionGroup, parseAction } from "./mesopotamia-epochs/notation.js";
import { cardView, dieFace, renderGeneral, renderPlayers, renderStatus } from "./mesopotamia-epochs/panels.js";
import { patternSwatch, SYMBOLS } from "./mesopotamia-epochs/symbols.js";

export const id = "mesopotamia-epochs";
export { actionGroup, draw };

// the board's own styles, next to its modules: pages await `styled` before drawing the board
export const styled = boardStyles("mesopotamia-epochs", new URL("./mesopotamia-epochs/board.css", import.meta.url).pathname);

// the data and options of the table on this page (the labels need them)
let current = defaultData();
let currentOptions = {};

export function actionLabel(t, text, view) {
  return labelFor(t, text, view, current, currentOptions);
}

/** The end of the game: the winner(s) and the ranking in VP (E15.2). */
export function renderResult(el, msg, t) {
  const v = msg.view;
  const players = v.players || [];
  const result = Array.isArray(msg.result) ? msg.result : players.map(() => 0);
  const best = Math.max(...result);
  const winners = players.filter((p, i) => result[i] === best && best > 0);
  const names = winners.map((p) => symbolName(t, p.symbol));
  let line;
  if (winners.length === 1) line = t("epochs.wins", { player: names[0], n: winners[0].vp });
  else if (winners.length > 1) line = t("epochs.sharedWin", { players: names.join(t("epochs.and")), n: winners[0].vp });
  else line = t("ui.noWinner");
  const occ = occupancy(v);
  const own = owners(v);
  const rows = players
    .map((p, i) => {
      const held = [...occ].filter(([, [people]]) => own.get(people) === p.symbol);
      const doubles = held.filter(([a]) => current.areas.get(a)?.double_value).length;
      return { p, score: result[i], areas: held.length, doubles };
    })
    .sort((a, b) => b.score - a.score || b.p.vp - a.p.vp || b.areas - a.areas || b.doubles - a.doubles);
  el.append(
    h("p", { class: "winner" }, line),
    h(
      "ol",
      { class: "ranking" },
      rows.map((r) => h("li", { dataset: { symbol: r.p.symbol } }, symbolIcon(r.p.symbol, 18), " ", t("epochs.rankLine", { player: symbolName(t, r.p.symbol), vp: r.p.vp, areas: r.areas, d: r.doubles }))),
    ),
  );
}

/** The action a click on an unlit area would mean now, to ask the engine why it is refused:
 * a placement (E8), a sea start's landing (D3) or where a displaced tribe goes (D2); null when
 * a click on the map means nothing at this point. */
export function intentOf(view, area) {
  const kind = view?.pending?.[0];
  if (kind === "landing") return `land ${area}`;
  if (kind === "displace") return `displace ${area}`;
  if (!view?.pending && view?.phase === "strategy" && view.round) return `place ${area}`;
  return null;
}

/** Who holds the areas: each player's symbol, pattern and outline, and how many areas they hold. */
export function legend(t, view) {
  const occ = occupancy(view);
  const own = owners(view);
  const held = new Map();
  for (const [, [people]] of occ) {
    const sym = own.get(people);
    if (sym) held.set(sym, (held.get(sym) || 0) + 1);
  }
  const players = (view.players || []).map((p) => p.symbol).filter((x) => SYMBOLS.includes(x));
  return h(
    "div",
    { class: "epochs-legend", role: "note" },
    h("h4", {}, t("epochs.legend.title")),
    players.map((sym) =>
      h(
        "span",
        { class: "legend-item", dataset: { symbol: sym } },
        symbolIcon(sym, 18),
        patternSwatch(sym, 18),
        h("span", {}, symbolName(t, sym), view.viewer === sym ? ` (${t("epochs.legend.you")})` : "", ` · ${held.get(sym) || 0}`),
      ),
    ),
  );
}

function index(legal) {
  const byArea = new Map();
  const globals = [];
  for (const text of legal || []) {
    const a = parseAction(text);
    if (a.area) byArea.set(a.area, a);
    else globals.push(a);
  }
  return { byArea, globals };
}

/** The outcome of one roll (E12.2-E12.5): "attacker" | "defender" | "both", with the scores. */
export function rollOutcome(data, options, ctx, dice) {
  const has = (people, ability) => (data.people.get(people)?.abilities || []).includes(ability);
  const bonus = has(ctx.attacker, "military") ? Number(options?.military_bonus ?? 1) : 0;
  const att = Math.max(...dice.attack) + bonus;
  const def = Math.max(...dice.defence);
  let winner;
  if (att > def) winner = "attacker";
  else if (def > att) winner = "defender";
  else {
    const ua = has(ctx.attacker, "urbanisation");
    const ud = has(ctx.defender, "urbanisation");
    winner = ua && !ud ? "attacker" : ud && !ua ? "defender" : "both";
  }
  return { att, def, bonus, winner, urbanisation: att === def && winner !== "both" };
}

/**
 * The interactive board. elements: {board, choice, status, players, general} (containers);
 * ctx: {t: () => translate function, send(actionText) -> bool}.
 */
export function createBoard(els, ctx) {
  let msg = null;
  let info = null;
  let data = defaultData();
  let idx = index([]);
  const combats = new Map(); // log index of an attacking `place` -> {area, dice, attacker, defender, tribes}

  const t = (...args) => ctx.t()(...args);
  const options = () => info?.options || {};

  function send(text) {
    if (ctx.send(text)) render();
  }

  /** Remember who fights whom while a combat is under way (the log alone does not say). */
  function noteCombat(m) {
    const p = m.view?.pending;
    if (p?.[0] !== "combat") return;
    const log = m.log || [];
    let i = log.length - 1;
    while (i >= 0 && /^roll /.test(log[i].text || "")) i--;
    if (i < 0 || !(log[i].text || "").startsWith("place ") || combats.has(i)) return;
    const occ = occupancy(m.view).get(p[1]);
    combats.set(i, { area: p[1], dice: p[2], attacker: activePeople(m.view), defender: occ?.[0] ?? null, tribes: occ?.[1] ?? 0 });
  }

  /** The attack to show: under way, or the last one while its People's round goes on. The
   * view carries it (`last_attack`, also after a reload or for a late spectator); a view
   * without the key falls back on the log and what this page saw happen. */
  function lastAttack() {
    const view = msg?.view;
    if (view && "last_attack" in view) {
      const la = view.last_attack;
      const underWay = view.pending?.[0] === "combat";
      if (!la) return null;
      const current = la.result === "under_way" ? underWay : activePeople(view) === la.attacker && view.epoch === la.epoch;
      if (!current) return null;
      return {
        area: la.area,
        rolls: la.rolls.map((r) => ({ attack: r.attack, defence: r.defence, winner: r.winner })),
        colour: owners(view).get(la.attacker) || null,
        ctx: { area: la.area, dice: la.dice, attacker: la.attacker, defender: la.defender, tribes: la.defenders },
        underWay: la.result === "under_way",
        result: la.result,
      };
    }
    const log = msg?.log || [];
    let r = log.length - 1;
    const underWay = msg?.view?.pending?.[0] === "combat";
    if (!underWay) {
      // after the rolls, only further placements by the same player keep it on show
      while (r >= 0 && (log[r].text || "").startsWith("place ")) r--;
    }
    if (r < 0) return null;
    let p = r;
    while (p >= 0 && /^roll /.test(log[p].text || "")) p--;
    if (p < 0 || !(log[p].text || "").startsWith("place ")) return null;
    if (!underWay && p === r) return null; // a peaceful placement
    for (let k = r + 1; k < log.length; k++) if (log[k].colour !== log[p].colour) return null;
    const rolls = [];
    for (let k = p + 1; k <= r; k++) {
      const a = parseAction(log[k].text);
      if (a.dice) rolls.push(a.dice);
    }
    const area = parseAction(log[p].text).area;
    return { index: p, area, rolls, colour: log[p].colour, ctx: combats.get(p) || null, underWay };
  }

  function litMap() {
    const lit = new Map();
    const view = msg?.view;
    if (!view) return lit;
    for (const [area, a] of idx.byArea) {
      if (a.kind === "place") lit.set(area, placeInfo(data, view, area, options()).how === "attack" ? "attack" : "place");
      else lit.set(area, "choice");
    }
    return lit;
  }

  function onClick(ev) {
    if (!msg) return;
    const el = ev.target.closest?.("[data-area]");
    if (!el) return;
    const a = idx.byArea.get(el.dataset.area);
    if (a) send(a.text);
    else if (ctx.explain && msg.seat !== null && msg.seat !== undefined) {
      // not lit: ask the engine why what a click there would mean is refused
      const text = intentOf(msg.view, el.dataset.area);
      if (text) ctx.explain(text);
    }
  }

  function onKey(ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.("[data-area][tabindex]")) {
      ev.preventDefault();
      onClick(ev);
    }
  }

  els.board.addEventListener("click", onClick);
  els.board.addEventListener("keydown", onKey);

  function actionButton(a, extraClass = "") {
    return h(
      "button",
      { type: "button", class: `act ${extraClass}`.trim(), dataset: { action: a.text }, title: a.text, onclick: () => send(a.text) },
      labelFor(t, a.text, msg.view, data, options()),
    );
  }

  /** Where a board drawn wider than its box (a narrow screen: board.css) opens: on the viewer's
   * tribes (the active People's if it is theirs, else their largest stack), or on the middle of
   * the map. Done once, on the first draw that is laid out and shows a tribe of the viewer's (true
   * then): later states keep where the player scrolled to. Until the viewer has a tribe (a page
   * opened before their People entered) the map waits in the middle, and goes to their tribes
   * when they come unless the player scrolled meanwhile. A map that fits the box's width (a
   * desktop) is left as drawn. */
  function openOnOwnArea(svg, view) {
    const box = els.board;
    if (!box.clientWidth) return false;
    if (box.scrollWidth <= box.clientWidth + 1) return true;
    const own = owners(view);
    const active = activePeople(view);
    const mine = view.viewer ? (view.areas || []).filter(([, people]) => own.get(people) === view.viewer) : [];
    mine.sort((a, b) => (b[1] === active) - (a[1] === active) || b[2] - a[2]);
    const tribe = mine.length ? svg.querySelector(`.pieces .tribe[data-area="${mine[0][0]}"]`) : null;
    // the legend sticks to the bottom of the board's box, over the map
    const shown = box.clientHeight - (box.querySelector(".epochs-legend")?.offsetHeight || 0);
    if (centred && (box.scrollLeft !== centred[0] || box.scrollTop !== centred[1])) return true; // the player scrolled
    if (!tribe) {
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
      box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
      centred = [box.scrollLeft, box.scrollTop];
      return !view.viewer; // a player's board goes to their tribes once there are some
    }
    const r = tribe.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollLeft += r.left + r.width / 2 - (b.left + box.clientLeft + box.clientWidth / 2);
    box.scrollTop += r.top + r.height / 2 - (b.top + box.clientTop + shown / 2);
    return true;
  }

  let opened = false;
  let centred = null; // the scroll set on the map's middle while the viewer had no tribe
  function renderBoard() {
    const view = msg.view;
    const p = view.pending;
    const focused = document.activeElement && els.board.contains(document.activeElement) ? document.activeElement.dataset?.area : null;
    const svg = draw(view, {
      t,
      data,
      lit: litMap(),
      combat: p?.[0] === "combat" ? { area: p[1], dice: p[2] } : null,
      displacing: p?.[0] === "displace" ? p[1] : null,
      options: options(),
    });
    clear(els.board).append(svg, legend(t, view));
    if (focused) svg.querySelector(`[data-area="${focused}"][tabindex]`)?.focus({ preventScroll: true });
    if (!opened) opened = openOnOwnArea(svg, view);
  }

  /** The dice of the last attack, roll by roll, with what each roll did when it is known. */
  function attackBox(att) {
    const view = msg.view;
    const c = att.ctx;
    const area = areaParams(t, data, att.area);
    const head = c
      ? t("epochs.dice.title", { attacker: peopleName(t, data, c.attacker), defender: peopleName(t, data, c.defender), ...area })
      : t("epochs.dice.titleShort", { ...area, player: att.colour ? symbolName(t, att.colour) : "?" });
    const rows = [];
    let defenders = c?.tribes ?? null;
    let lost = false;
    att.rolls.forEach((d, i) => {
      const keptA = Math.max(...d.attack);
      const keptD = Math.max(...d.defence);
      const out = c ? rollOutcome(data, options(), c, d) : null;
      if (out && d.winner) out.winner = d.winner; // the engine's word, when the view gives it
      let result = "";
      if (out) {
        if (out.winner === "attacker") defenders -= 1;
        else if (out.winner === "defender") lost = true;
        else {
          defenders -= 1;
          lost = true;
        }
        const who = out.winner === "attacker" ? peopleName(t, data, c.defender) : peopleName(t, data, c.attacker);
        result = out.winner === "both" ? t("epochs.dice.both") : t(out.urbanisation ? "epochs.dice.urbanisation" : "epochs.dice.loses", { people: who });
      }
      let keptShown = false;
      let keptDef = false;
      rows.push(
        h(
          "li",
          { class: `roll${out ? ` w-${out.winner}` : ""}`, dataset: { roll: i + 1 } },
          h("span", { class: "roll-n" }, `${i + 1}.`),
          h(
            "span",
            { class: "dice-side attack", title: t("epochs.dice.attacker") },
            d.attack.map((n) => {
              const kept = !keptShown && n === keptA;
              if (kept) keptShown = true;
              return dieFace(n, { kept, side: "attack" });
            }),
            out?.bonus ? h("span", { class: "bonus", title: t("epochs.abilityHelp.military") }, `+${out.bonus}`) : null,
          ),
          h("span", { class: "vs" }, out ? `${out.att} : ${out.def}` : t("epochs.dice.vs")),
          h(
            "span",
            { class: "dice-side defence", title: t("epochs.dice.defender") },
            d.defence.map((n) => {
              const kept = !keptDef && n === keptD;
              if (kept) keptDef = true;
              return dieFace(n, { kept, side: "defence" });
            }),
          ),
          result ? h("span", { class: "roll-result" }, result) : null,
        ),
      );
    });
    let summary = null;
    if (att.result === "taken") summary = t("epochs.dice.taken", { ...area, people: peopleName(t, data, c.attacker) });
    else if (att.result === "emptied") summary = t("epochs.dice.emptied", area);
    else if (att.result === "failed") summary = t("epochs.dice.failed", area);
    else if (att.result === "under_way") summary = t("epochs.dice.rolling", { n: view.pending?.[2] ?? c.dice });
    else if (c && !att.underWay) {
      if (lost && defenders <= 0) summary = t("epochs.dice.emptied", area);
      else if (lost) summary = t("epochs.dice.failed", area);
      else if (defenders <= 0) summary = t("epochs.dice.taken", { ...area, people: peopleName(t, data, c.attacker) });
    } else if (att.underWay) summary = t("epochs.dice.rolling", { n: view.pending[2] });
    const difficult = (c?.dice ?? (att.underWay ? view.pending[2] : 1)) > 1;
    return h(
      "div",
      { class: "attack-box", dataset: { area: att.area } },
      h("div", { class: "attack-head" }, att.colour ? symbolIcon(att.colour, 18) : null, h("strong", {}, head)),
      difficult ? h("p", { class: "muted" }, t("epochs.dice.difficult")) : null,
      rows.length ? h("ol", { class: "rolls" }, rows) : null,
      summary ? h("p", { class: "attack-summary" }, summary) : null,
    );
  }

  function keepPanel(view) {
    const drawn = view.pending[1];
    const legal = idx.globals.filter((a) => a.kind === "keep" || a.kind === "pass");
    const keep = legal.find((a) => a.kind === "keep");
    const passes = legal.filter((a) => a.kind === "pass");
    const vpOf = (sym) => (view.players || []).find((p) => p.symbol === sym)?.vp ?? 0;
    return h(
      "div",
      { class: "keep-panel" },
      h("p", { class: "secret-note" }, t(keep ? "epochs.keepSecret" : "epochs.mustPass")),
      drawn ? cardView(t, data, drawn) : null,
      h(
        "div",
        { class: "buttons keep-buttons" },
        keep ? actionButton(keep, "primary keep") : null,
        passes.map((a) =>
          h(
            "button",
            { type: "button", class: "act pass", dataset: { action: a.text }, title: a.text, onclick: () => send(a.text) },
            symbolIcon(a.symbol, 20),
            h("span", {}, labelFor(t, a.text, view, data, options())),
            h("span", { class: "muted" }, ` (${t("epochs.vp", { n: vpOf(a.symbol) })})`),
          ),
        ),
      ),
    );
  }

  /** Whom the table waits for, and why when another seat decides where its displaced tribe goes
   * (D2: a People starting in its area). */
  function waitingFor(view) {
    const player = view.to_move ? symbolName(t, view.to_move) : "—";
    const p = view.pending;
    if (p?.[0] !== "displace") return t("epochs.waiting", { player });
    const leaving = occupancy(view).get(p[1])?.[0];
    return t("epochs.waitingDisplace", {
      player,
      start: peopleName(t, data, activePeople(view)),
      ...areaParams(t, data, p[1]),
      people: peopleName(t, data, leaving),
    });
  }

  function renderChoice() {
    const view = msg.view;
    const el = clear(els.choice);
    const legal = msg.legal || [];
    if (msg.status === "over" || view.phase === "over") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const att = lastAttack();
    if (att) el.append(attackBox(att));
    let prompt;
    if (msg.seat === null || msg.seat === undefined) prompt = t("epochs.spectating");
    else if (!legal.length) {
      if (view.to_move === "chance") prompt = t(view.pending?.[0] === "combat" ? "epochs.waitDice" : "epochs.waitCards");
      else prompt = waitingFor(view);
    } else prompt = pendingQuestion(t, data, view) || t("epochs.yourMove");
    el.append(h("p", { class: "prompt", role: "status" }, prompt));
    if (!legal.length) return;

    if (view.pending?.[0] === "keep") {
      el.append(keepPanel(view));
      return;
    }
    const targets = [...idx.byArea.values()];
    if (targets.length) {
      const kind = targets[0].kind;
      el.append(h("p", { class: "muted" }, t(kind === "place" ? "epochs.clickPlace" : "epochs.clickChoose")));
      const again = att && !att.underWay && idx.byArea.get(att.area);
      if (again && placeInfo(data, view, att.area, options()).how === "attack") {
        el.append(
          h(
            "div",
            { class: "buttons" },
            h(
              "button",
              { type: "button", class: "act primary attack-again", dataset: { action: again.text }, onclick: () => send(again.text) },
              t("epochs.attackAgain", areaParams(t, data, att.area)),
            ),
          ),
        );
      }
      const order = { attack: 0, place: 1, own: 2, empty: 1 };
      const how = (a) => (a.kind === "place" ? placeInfo(data, view, a.area, options()).how : "place");
      targets.sort((x, y) => (order[how(x)] ?? 1) - (order[how(y)] ?? 1) || areaName(t, data, x.area).localeCompare(areaName(t, data, y.area)));
      el.append(h("div", { class: "buttons targets" }, targets.map((a) => actionButton(a, `small how-${how(a)}`))));
    }
    const rest = idx.globals.filter((a) => a.kind !== "keep" && a.kind !== "pass");
    if (rest.length) el.append(h("div", { class: "buttons globals" }, rest.map((a) => actionButton(a, a.kind === "stop" ? "primary stop" : ""))));
  }

  // the side panels are rebuilt only when what they show changed (bots can play fast)
  const shown = { players: null, general: null };
  function panelKey(kind) {
    const v = msg.view;
    // names come from the message catalogue, which may arrive after a switch of language
    const lang = `${currentLang()}${messagesReady(currentLang()) ? "" : "…"}`;
    if (kind === "players") {
      const seats = (info?.seats || []).map((x) => `${x.kind}${x.bot}${x.connected}`).join();
      return JSON.stringify([lang, seats, Boolean(info?.lessonOver), v.viewer, v.to_move, v.players, v.areas, v.peoples, v.round?.people]);
    }
    return JSON.stringify([lang, v.epoch, v.phase, v.players, v.set_aside, v.deck_size, v.round?.order, v.pending?.[0] === "keep" ? v.pending : null, v.areas.map((a) => a[1])]);
  }

  function render() {
    if (!msg) return;
    renderBoard();
    renderChoice();
    if (els.status) renderStatus(els.status, msg, t, data);
    for (const [kind, fn] of [["players", () => renderPlayers(els.players, msg, t, info, data)], ["general", () => renderGeneral(els.general, msg, t, data)]]) {
      if (!els[kind]) continue;
      const key = panelKey(kind);
      if (key === shown[kind] && els[kind].firstChild) continue;
      shown[kind] = key;
      fn();
    }
  }

  function useInfo(tableInfo) {
    if (!tableInfo) return;
    info = tableInfo;
    data = dataFor(info);
    current = data;
    currentOptions = info.options || {};
  }

  return {
    update(newMsg, tableInfo) {
      useInfo(tableInfo);
      msg = newMsg;
      idx = index(msg.legal);
      noteCombat(msg);
      render();
    },
    setInfo(tableInfo) {
      useInfo(tableInfo);
      if (msg) render();
    },
    render,
    clearSelection() {
      render();
    },
    destroy() {
      els.board.removeEventListener("click", onClick);
      els.board.removeEventListener("keydown", onKey);
    },
  };
}

