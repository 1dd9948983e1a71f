// Mare Nostrum: Empires board: the map (draw), the decision panels (trade offers and draft, buying
// with a cost preview, military moves by clicking units then lit destinations), players, tiles
// and title tracks. Exports follow table.js: createBoard, actionLabel, actionGroup, draw, seatName.

import { boardStyles, clear, h } from "../dom.js";
import { lang } from "../i18n.js";
import { STEP_HOLD_MS, stepHoldMs } from "../legal.js";
import { messagesReady, renderMessage } from "../messages.js";
import { DATA } from "./mare-nostrum/data.js";
import { draw, fitLabels, homeOf, inPlay } from "./mare-nostrum/draw.js";
import { actionGroup, actionLabel, areaName, capitalise, costOf, empireArt, empireName, goodName, optionsOf, seatColour, tileName } from "./mare-nostrum/labels.js";
import { createPopover } from "./mare-nostrum/popover.js";
import "./mare-nostrum/strings.js";
import { seatKindText } from "../seatnames.js";

export const id = "mare-nostrum";
// seatName: how the table's header names a seat, by its empire ("You play Greece", "Vous jouez la Grèce")
export { actionGroup, actionLabel, draw, empireArt as seatName };

// the board's own styles, next to its modules: pages await `styled` before drawing the board
export const styled = boardStyles("mare-nostrum", new URL("./mare-nostrum/board.css", import.meta.url).pathname);

const TARGET2 = new Set(["marker", "legion", "fortress", "trireme"]);
const MOVES = new Set(["row", "march", "sail"]);

/** How long (ms) the decision buttons wait after the step changed under them, shown disabled:
 * a step may end by itself (a Military step whose only action left is Done, N4.2), and the next
 * step's Done sits where the last one's was; a tap meant for the step that just ended is not
 * taken for the new one. The legal list's hold (legal.js), the one constant for both. */
export { STEP_HOLD_MS };

/** The decision under way: a change of it holds the buttons (STEP_HOLD_MS). */
function stepOf(m) {
  const v = m?.view || {};
  return `${v.stage}|${v.to_move}|${v.mil?.active ?? ""}|${v.buy?.active ?? ""}`;
}

/** Which area an action is about (its target), or a move's from/to. */
export function parse(text) {
  const w = text.split(" ");
  const a = { text, kind: w[0], w };
  if (w[0] === "buy" && TARGET2.has(w[1])) a.area = w[2];
  else if (w[0] === "build" || w[0] === "free") a.area = w[2];
  else if (["convert", "seabattle", "fight", "circe"].includes(w[0]) && w[1]) a.area = w[1];
  else if (MOVES.has(w[0])) {
    a.from = w[1];
    a.to = w[2];
  }
  return a;
}

function index(legal) {
  const byArea = new Map();
  const byFrom = new Map();
  const globals = [];
  const push = (m, k, a) => (m.has(k) ? m.get(k).push(a) : m.set(k, [a]));
  for (const text of legal || []) {
    const a = parse(text);
    if (a.area) push(byArea, a.area, a);
    else if (a.from) push(byFrom, a.from, a);
    else globals.push(a);
  }
  return { byArea, byFrom, globals };
}

/**
 * The action a click on an unlit area would mean at this stage, to ask the engine why it is
 * refused: ``sel`` is the area whose units are selected (a move's source). Null when a click
 * there names no action (nothing to ask about).
 */
export function intentOf(view, area, sel, seat) {
  const stage = String(view?.stage || "");
  const isSea = Boolean(DATA.seas[area]);
  const from = sel ? String(sel).split(">")[0] : null;
  if (from && from !== area && (stage === "mil_march" || stage === "mil_row")) {
    if (stage === "mil_row") return `row ${from} ${area}`;
    return `${DATA.seas[from] ? "sail" : "march"} ${from} ${area}`;
  }
  if (stage === "buy_turn") {
    if (isSea) return `buy trireme ${area}`;
    const owner = view.markers?.[area];
    return owner !== undefined && owner !== null && Number(owner) === Number(seat) ? `buy legion ${area}` : `buy marker ${area}`;
  }
  if (stage === "mil_conv" && !isSea) return `convert ${area}`;
  if (stage === "mil_fight" || stage === "mil_sea") {
    if (isSea !== (stage === "mil_sea")) return null;
    const units = (isSea ? view.triremes : view.legions)?.[area] || [];
    let enemy = units.findIndex((n, s) => n > 0 && s !== Number(seat));
    if (enemy < 0) enemy = Number(seat) === 0 ? 1 : 0;
    return `${isSea ? "seabattle" : "fight"} ${area} ${enemy}`;
  }
  return null;
}

/** A track level as N0.7.5 shows it: above 15, the "15+" marker on the space of what is over. */
export function levelText(n) {
  return n > 15 ? "15+" : String(n);
}

/** N0.7 track levels of a seat (control, pieces, tiles' bonuses) and its N6.3 cities. */
function tracks(view, seat) {
  const lv = { trade: 0, culture: 0, military: 0, cities: 0 };
  const given = Array.isArray(view.tracks) ? view.tracks[seat] : null; // the engine's levels, when the view has them
  for (const [p, slots] of Object.entries(view.buildings || {})) {
    for (const slot of slots) {
      const occ = view.occupy?.[p]?.[slot];
      const c = occ !== undefined && occ !== null ? Number(occ) : view.markers?.[p];
      if (c === undefined || c === null || Number(c) !== seat) continue;
      const kind = slot.split(":")[0];
      lv[kind === "caravan" || kind === "market" ? "trade" : "culture"] += 1;
      if (kind === "capital" || kind === "legendary_city") lv.cities += 1;
    }
  }
  for (const v of Object.values(view.legions || {})) lv.military += v[seat] || 0;
  for (const v of Object.values(view.triremes || {})) lv.military += v[seat] || 0;
  for (const f of Object.values(view.fortresses || {})) if (Number(f) === seat) lv.military += 1;
  for (const tl of view.tiles?.[seat] || []) for (const k of ["trade", "culture", "military"]) lv[k] += DATA.tiles[tl]?.bonus?.[k] || 0;
  if (given) for (const k of ["trade", "culture", "military"]) if (Number.isFinite(Number(given[k]))) lv[k] = Number(given[k]);
  return lv;
}

function goodsChips(t, res) {
  const out = [];
  for (const [tok, n] of Object.entries(res || {})) {
    if (!n) continue;
    out.push(h("span", { class: `mn-good${tok === "tax" ? " tax" : tok.startsWith("leg:") ? " leg" : ""}`, dataset: { good: tok } }, `${capitalise(goodName(t, tok))} × ${n}`));
  }
  return out.length ? h("div", { class: "mn-goods" }, out) : h("span", { class: "muted" }, t("mn.nothing"));
}

function tileChip(t, id, extra = "") {
  const tl = DATA.tiles[id];
  return h("span", { class: `mn-tile ${tl?.type || ""} ${extra}`.trim(), title: tl?.text || "", dataset: { tile: id } }, tileName(id));
}

export function createBoard(els, ctx) {
  let msg = null;
  let info = null;
  let idx = index([]);
  let sel = null; // an area: the units there are selected (moves) or its several actions shown
  let opened = false; // the board has opened on the seat's empire (openAtHome), once
  let heldUntil = 0; // the buttons take no tap before then: the step has just changed
  let holdTimer = null;
  const held = () => Date.now() < heldUntil;
  const t = (...args) => ctx.t()(...args);
  const popover = createPopover("", els.board);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && sel) {
      const back = popover.el.contains(document.activeElement) ? String(sel).split(">")[0] : null;
      sel = null;
      render();
      if (back) els.board.querySelector(`[data-area="${back}"][tabindex]`)?.focus(); // back where the choice began
    }
  });

  function send(text) {
    if (ctx.send(text)) sel = null;
    render();
  }
  /** A button that plays ``text``; while the step has just changed it is disabled (and a tap
   * that still reaches it sends nothing). */
  function actButton(text, cls, ...children) {
    const wait = held();
    return h("button", { type: "button", class: `act ${cls}${wait ? " mn-held" : ""}`.trim(), dataset: { action: text }, title: text, disabled: wait, onclick: () => held() || send(text) }, ...children);
  }
  const button = (text, cls = "", label = null) => actButton(text, cls, label ?? actionLabel(t, text, msg.view));

  /** The step changed: the buttons wait a moment, then are drawn again, enabled. */
  function hold() {
    const ms = stepHoldMs();
    if (!ms) return;
    heldUntil = Date.now() + ms;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      holdTimer = null;
      if (msg && els.board.isConnected) render();
    }, ms + 10);
  }

  function moveTargets() {
    const out = new Map();
    if (!sel) return out;
    for (const a of idx.byFrom.get(sel) || []) (out.has(a.to) ? out.get(a.to).push(a) : out.set(a.to, [a]));
    return out;
  }

  function onArea(area) {
    const moves = moveTargets();
    if (moves.has(area)) {
      const acts = moves.get(area);
      if (acts.length === 1) return send(acts[0].text);
      sel = `${sel}>${area}`; // several ways: choose next to the area
      return render();
    }
    const acts = idx.byArea.get(area) || [];
    if (idx.byFrom.has(area)) sel = sel === area ? null : area;
    else if (acts.length === 1) return send(acts[0].text);
    else if (acts.length > 1) sel = area;
    else {
      // not lit: ask the engine why what a click there would mean is refused
      const text = msg.seat === null || msg.seat === undefined ? null : intentOf(msg.view, area, sel, msg.seat);
      sel = null;
      if (text && ctx.explain) ctx.explain(text);
    }
    render();
  }

  function onClick(ev) {
    const el = ev.target.closest?.("[data-area]");
    if (el && msg) onArea(el.dataset.area);
  }
  function onKey(ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.("[data-area]")) {
      ev.preventDefault();
      onClick(ev);
      popover.focusFirst(); // from the keyboard, on to the choices
    }
  }
  els.board.addEventListener("click", onClick);
  els.board.addEventListener("keydown", onKey);

  function renderBoard() {
    const lit = new Map();
    const moves = moveTargets();
    if (moves.size) for (const k of moves.keys()) lit.set(k, "move");
    else if (!sel || !String(sel).includes(">")) for (const k of idx.byArea.keys()) lit.set(k, "choice");
    const svg = draw(msg.view, { t, lit, selected: sel && String(sel).split(">")[0], from: new Set(idx.byFrom.keys()) });
    clear(els.board).append(svg);
    fitLabels(svg);
    if (!opened) openAtHome();
  }

  /** A seat's board opens scrolled so that its own empire is in view, roughly centred (a phone
   * draws the map wider than its box, board.css): its capital, else its provinces (homeOf).
   * Once, at the first draw that shows them: the next states leave the scroll where the player
   * put it. A spectator's board opens at the map's corner. */
  function openAtHome() {
    const box = els.board;
    if (msg.seat === null || msg.seat === undefined) {
      opened = true;
      return;
    }
    const cards = homeOf(msg.view, Number(msg.seat)).map((p) => box.querySelector(`.prov[data-area="${p}"] > rect.box`)).filter(Boolean);
    if (!cards.length || !box.clientWidth) return; // no empire on the map yet, or no layout (hidden): a later draw
    opened = true;
    if (box.scrollLeft || box.scrollTop) return; // the player has scrolled already
    const rects = cards.map((c) => c.getBoundingClientRect());
    const frame = box.getBoundingClientRect();
    const mid = (lo, hi) => (Math.min(...rects.map(lo)) + Math.max(...rects.map(hi))) / 2;
    box.scrollLeft = mid((r) => r.left, (r) => r.right) - frame.left - box.clientLeft + box.scrollLeft - box.clientWidth / 2;
    box.scrollTop = mid((r) => r.top, (r) => r.bottom) - frame.top - box.clientTop + box.scrollTop - box.clientHeight / 2;
  }

  function tradePanel(view, seat) {
    const tr = view.trade;
    if (!tr) return null;
    const box = h("div", { class: "mn-panel mn-trade" }, h("h4", {}, t("mn.tradeTitle", { v: tr.v ?? "?" })));
    if (tr.token) box.append(h("p", { class: "muted" }, t("mn.tradeToken", { tok: "abc"[tr.token[0]]?.toUpperCase() ?? tr.token[0], v: tr.token[1] })));
    const offers = h("div", { class: "mn-offers" });
    const takes = new Map();
    for (const a of idx.globals) if (a.kind === "take") takes.set(a.w[3], [...(takes.get(a.w[3]) || []), a.text]);
    (tr.offers || []).forEach((off, s) => {
      if (tr.parts && tr.parts[String(s)] === undefined) return;
      const me = s === seat;
      const card = h("div", { class: `mn-offer${off ? "" : " hidden-offer"}`, dataset: { seat: s }, style: `border-left:5px solid ${seatColour(view, s)}` }, h("strong", {}, empireName(t, view, s), me ? ` (${t("seat.you")})` : ""));
      if (off) {
        const left = off.slice();
        card.append(h("div", { class: "mn-goods" }, left.map((g) => h("span", { class: "mn-good" }, goodName(t, g)))));
      } else card.append(h("div", {}, t("mn.secretOffer", { n: view.offer_counts?.[s] ?? 0 })));
      if ((tr.received || [])[s]?.length) card.append(h("div", { class: "muted" }, t("mn.received", { goods: tr.received[s].map((g) => goodName(t, g)).join(", ") })));
      // in the offer's own card, a take button names only the good
      if (takes.has(String(s))) card.append(h("div", { class: "buttons" }, takes.get(String(s)).map((x) => button(x, "small", capitalise(t("mn.act.takeShort", { good: goodName(t, x.split(" ")[1]) }))))));
      offers.append(card);
    });
    box.append(offers);
    const offerActs = idx.globals.filter((a) => a.kind === "offer");
    if (offerActs.length) box.append(h("p", { class: "muted" }, t("mn.offerHint")), h("div", { class: "buttons mn-offer-buttons" }, offerActs.map((a) => button(a.text))));
    return box;
  }

  /** A purchase chosen low in a long list: its payment (heading, what is paid so far) is
   * scrolled into sight below the page's sticky bar. */
  function showPayment() {
    const head = els.choice.querySelector(".mn-buy h4");
    if (!head) return;
    const bar = document.querySelector(".sticky-top");
    const top = bar ? bar.getBoundingClientRect().bottom : 0;
    const gap = head.getBoundingClientRect().top - top;
    if (gap < 0) window.scrollBy({ top: gap - 8 });
  }

  function buyPanel(view, seat, legal) {
    const box = h("div", { class: "mn-panel mn-buy" });
    const paying = view.buy?.paying;
    if (paying) {
      box.append(h("h4", {}, t("mn.paying", { item: actionLabel(t, paying.item.startsWith("build") ? paying.item : `buy ${paying.item}`, view), cost: paying.cost })));
      box.append(h("p", { class: "mn-cost" }, t("mn.paidSoFar", { n: (paying.paid || []).length, cost: paying.cost, goods: (paying.paid || []).map((g) => goodName(t, g)).join(", ") || "—" })));
    }
    const purchases = legal.filter((x) => /^(buy|build|free) /.test(x));
    if (purchases.length) {
      const held = Object.values(view.res?.[seat] || {}).reduce((a, b) => a + b, 0);
      box.append(h("p", { class: "mn-cost" }, t("mn.youHold", { n: held })));
      const list = h("div", { class: "mn-buylist" });
      for (const x of purchases) {
        const c = costOf(x, view, seat, optionsOf(info));
        const costText = c ? t(c.cheap ? "mn.costCheap" : "mn.cost", { n: c.cost }) : t("mn.free");
        list.append(actButton(x, "small", actionLabel(t, x, view), h("span", { class: "mn-cost" }, ` — ${costText}`)));
      }
      box.append(h("details", { class: "mn-buy-details", open: true }, h("summary", {}, t("mn.purchases", { n: purchases.length })), list));
    }
    return box;
  }

  function renderChoice() {
    const view = msg.view;
    const el = clear(els.choice);
    const legal = msg.legal || [];
    if (msg.status === "over") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const seat = msg.seat;
    let prompt;
    if (seat === null || seat === undefined) prompt = t("mn.spectating");
    else if (!legal.length) prompt = t("mn.waiting", { who: empireArt(t, view, view.to_move) });
    else prompt = stagePrompt(view);
    el.append(h("p", { class: "prompt", role: "status" }, prompt, h("span", { class: "muted" }, ` · ${t("mn.roundN", { n: view.round })}`)));
    const trade = String(view.stage || "").startsWith("trade") ? tradePanel(view, seat) : null;
    if (trade) el.append(trade);
    if (!legal.length) return;
    if (String(view.stage || "").startsWith("buy")) el.append(buyPanel(view, seat, legal));
    if (sel) {
      const [from, to] = String(sel).split(">");
      const choices = to ? moveTargets().get(to) || [] : idx.byArea.get(from) || [];
      el.append(h("p", { class: "muted" }, t(choices.length ? "mn.choicesOnMap" : "mn.clickLitDest")));
    } else if (idx.byFrom.size) {
      el.append(h("p", { class: "muted" }, t("mn.clickUnits")));
    } else if (idx.byArea.size && !String(view.stage || "").startsWith("buy")) {
      el.append(h("p", { class: "muted" }, t("mn.clickLit")));
    }
    // offers and takes sit in the trade panel, purchases (with their cost) in the buy panel
    const globals = idx.globals.filter((a) => !(a.kind === "take" || (a.kind === "offer" && a.w[1] !== "size") || /^(buy|build|free)$/.test(a.kind)));
    if (globals.length) el.append(h("div", { class: "buttons globals" }, globals.map((a) => button(a.text, ["done", "end"].includes(a.kind) ? "primary" : ""))));
  }

  /** One title track's level and bar; above 15 the "15+" marker, its bar on the space of what is over (N0.7.5, W11). */
  function trackRow(k, n) {
    const plus = n > 15;
    const level = plus
      ? h("strong", { class: "mn-plus", title: t("mn.levelPlus", { n, k: n - 15 }) }, levelText(n))
      : String(n);
    return [
      h("span", { class: "mn-level", dataset: { track: k, level: n } }, `${t(`mn.track.${k}`)} `, level),
      h("div", { class: `mn-bar${plus ? " plus" : ""}`, style: `width:${Math.min(100, (plus ? n - 15 : n) * 6)}%` }),
    ];
  }

  function renderPlayers() {
    const view = msg.view;
    const el = clear(els.players);
    const n = view.n || (view.empires || []).length;
    const opts = optionsOf(info);
    for (let s = 0; s < n; s++) {
      const me = msg.seat === s;
      const lv = tracks(view, s);
      const seatInfo = info?.seats?.[s];
      const colour = seatInfo?.colour && !String(seatInfo.colour).startsWith("seat") ? t(`colour.${seatInfo.colour}`) : "";
      const titles = Object.entries(view.titles || {}).filter(([, v]) => v !== null && Number(v) === s).map(([k]) => t(`mn.title.${k}`));
      const owned = view.tiles?.[s] || [];
      const counted = opts.starting_hero_counts_toward_win === false ? owned.filter((x) => DATA.tiles[x]?.buy).length : owned.length;
      const box = h(
        "div",
        { class: `mn-player player${view.to_move === s && !info?.lessonOver ? " to-move" : ""}`, style: `--c:${seatColour(view, s)}`, dataset: { seat: s } },
        h(
          "div",
          { class: "player-head" },
          h("strong", {}, empireName(t, view, s)),
          colour ? ` · ${colour}` : "",
          me ? ` (${t("seat.you")})` : "",
          seatKindText(t, seatInfo, "") ? h("span", { class: "muted" }, ` · ${seatKindText(t, seatInfo, "")}`) : null,
          // who is connected (docs/server.md, "Presence"), as in the other games' player panels
          seatInfo && seatInfo.kind === "human"
            ? h("span", { class: `conn ${seatInfo.connected ? "on" : "off"}`, title: t(seatInfo.connected ? "seat.connected" : "seat.away") }, seatInfo.connected ? "●" : "○")
            : null,
        ),
        titles.length ? h("div", { class: "mn-titles" }, "★ ", t("ui.labelColon", { label: t("mn.titles") }), titles.join(", ")) : null,
        h("div", { class: "mn-tracks" }, ["trade", "culture", "military"].flatMap((k) => trackRow(k, lv[k]))),
        h("div", { class: "mn-victory muted" }, t("mn.victory", { tiles: counted, tw: opts.tiles_to_win, cities: lv.cities, cw: opts.capitals_to_win })),
        me && view.res?.[s] ? h("div", { class: "mn-screen" }, h("div", { class: "muted" }, t("mn.yourScreen")), goodsChips(t, view.res[s])) : h("div", { class: "muted" }, view.res_counts?.[s] === 1 ? t("mn.tokenHeld") : t("mn.tokensHeld", { n: view.res_counts?.[s] ?? "?" })),
        h("div", { class: "mn-tiles" }, owned.map((x) => tileChip(t, x)), view.pyramids === s ? tileChip(t, "pyramids") : null),
      );
      el.append(box);
    }
  }

  /** The province a conquest option's log entry names ("" when it names none). */
  function conquered(e) {
    const p = e.event?.params || {};
    const key = String(p.area?.key || p.where?.key || "");
    return key.startsWith("mn.area.") || key.startsWith("mn.inArea.") ? key.split(".").pop() : "";
  }

  /** The log's battle results: hits only, or hits and the units lost when a side took more. */
  const RESULT_KEYS = new Set(["mn.log.result", "mn.log.resultLost"]);

  /** Battles told by the log, newest last: the attack, both rolls (die faces), the result and what
   * followed. The roll that settles a battle is told as its result (its entry's text is the roll,
   * its sentence the result), before what the step did next; the result is matched to its battle
   * by its area (the result's `where` names the area: `mn.inArea.<id>`). */
  /** What the seat to move is asked now: its stage's question, naming the province a conquest
   * option is for (N4.10) and the title and seats of a tie (N5.2) when the view shows them. */
  function stagePrompt(view) {
    const stage = view.stage;
    const conquest = (view.queue || []).find((item) => item[0] === "conquest" && item[1] === view.viewer);
    if (stage === "mil_circe" && conquest) return t("mn.stage.mil_circeAt", { area: areaName(conquest[2]) });
    const tie = view.claim;
    if (stage === "claim_tie" && tie?.track && Array.isArray(tie.tied)) {
      const who = tie.tied.map((s) => empireName(t, view, s)).join(t("mn.and"));
      return t("mn.stage.claim_tieOf", { title: t(`mn.title.${tie.track}`), who });
    }
    return t(`mn.stage.${stage}`) === `mn.stage.${stage}` ? t("mn.yourTurn") : t(`mn.stage.${stage}`);
  }

  function battlesOf(log) {
    const battles = [];
    let open = null;
    const say = (e) => (e.event && messagesReady(lang()) ? renderMessage(lang(), e.event) : e.sentence || e.text || "");
    for (const e of log || []) {
      const x = e.text || "";
      const w = x.split(" ");
      const result = RESULT_KEYS.has(e.event?.key) ? String(e.event.params?.where?.key || "").split(".").pop() : null;
      if (w[0] === "fight" || w[0] === "seabattle") {
        open = { area: w[1], head: say(e), rolls: [], after: [], result: null };
        battles.push(open);
      } else if (result) {
        // results come in the order of the battles
        const b = battles.find((c) => c.area === result && !c.result);
        if (b && w[0] === "roll") b.rolls.push(w[1] || "?");
        if (b) b.result = say(e);
      } else if (open && w[0] === "roll") open.rolls.push(w[1] || "?");
      else if (open && ["lose", "pillage", "occupy", "convert", "pass", "circe"].includes(w[0])) {
        // a conquest's Pillage, Occupy or Convert names its province (N4.11): it goes with that
        // province's battle, and with none when the province was conquered without one
        const option = w[0] === "pillage" || w[0] === "occupy" || (w[0] === "convert" && !w[1]);
        const at = option ? conquered(e) : "";
        const b = at ? battles.findLast((c) => c.area === at) : open;
        if (b) b.after.push(say(e));
      } else if (x) open = null;
    }
    return battles;
  }

  function dice(faces) {
    const list = String(faces).split(",").map(Number);
    return list.length > 1 ? `${list.join(" · ")} = ${list.reduce((a, b) => a + b, 0)}` : String(faces);
  }

  function renderGeneral() {
    const view = msg.view;
    const el = clear(els.general);
    const holder = (k) => (view.titles?.[k] === null || view.titles?.[k] === undefined ? "—" : empireName(t, view, view.titles[k]));
    const titleRow = h("div", { class: "mn-title-row" }, h("h4", {}, t("mn.titleTracks")), h("ul", {}, ["trade", "culture", "military"].map((k) => h("li", { dataset: { title: k } }, t("ui.labelColon", { label: t(`mn.title.${k}`) }), h("strong", {}, holder(k))))));
    const display = h("div", { class: "mn-tiles mn-display" }, (view.display || []).map((x) => (x ? tileChip(t, x) : h("span", { class: "mn-tile facedown" }, t("mn.empty")))), h("span", { class: "mn-tile facedown", title: t("mn.facedown") }, t("ui.labelColon", { label: t("mn.facedown") }), view.facedown_count ?? "?"), view.pyramids === null || view.pyramids === undefined ? tileChip(t, "pyramids") : null);
    const battles = battlesOf(msg.log);
    el.append(
      h(
        "div",
        { class: "mn-general" },
        titleRow,
        h("h4", {}, t("mn.heroesWonders")),
        display,
        h("p", { class: "muted" }, t("mn.pool", { n: view.pool_count ?? "?" })),
        h("h4", {}, t("mn.battles")),
        battles.length
          ? h("ul", { class: "mn-battles" }, battles.slice(-6).reverse().map((b) => h("li", {}, h("strong", {}, b.head), b.result ? h("div", {}, b.result) : b.rolls.length ? ` — ${t("mn.rolls", { a: dice(b.rolls[0]), d: b.rolls[1] === undefined ? "?" : dice(b.rolls[1]) })}` : "", b.after.length ? h("div", { class: "muted" }, b.after.join(lang() === "fr" ? " ; " : "; ")) : null)))
          : h("p", { class: "muted" }, t("mn.noBattles")),
      ),
    );
  }

  /** The choices for the selected area (or for a move to an area, when there are several ways),
   * next to that area on the map. */
  function renderPopover() {
    const legal = msg.legal || [];
    if (!sel || !legal.length || msg.status === "over") {
      popover.hide();
      return;
    }
    const [from, to] = String(sel).split(">");
    const acts = to ? moveTargets().get(to) || [] : idx.byArea.get(from) || [];
    const moving = idx.byFrom.has(from) && !to;
    if (!acts.length) {
      // units selected with nothing else to do there: the lit destinations stay uncovered
      popover.hide();
      return;
    }
    const anchor = els.board.querySelector(`[data-area="${to || from}"]`);
    const head = `${areaName(from)}${to ? ` → ${areaName(to)}` : ""}`;
    popover.show(
      anchor,
      head,
      h("div", { class: "sel-head" }, h("strong", {}, head), h("button", { type: "button", class: "link close", "aria-label": t("ui.cancel"), title: t("ui.cancel"), onclick: () => ((sel = null), render()) }, "×")),
      moving ? h("p", { class: "muted" }, t("mn.clickLitDest")) : null,
      h("div", { class: "buttons" }, acts.map((a) => button(a.text, "small"))),
    );
  }

  function renderStatus() {
    if (!els.status) return;
    const view = msg.view;
    const over = msg.status === "over";
    const parts = [t("mn.roundN", { n: view.round }), over ? t("mn.phase.over") : t(`mn.phase.${String(view.stage || "").split("_")[0]}`)];
    if (!over && view.to_move >= 0) parts.push(capitalise(t("mn.toMove", { who: empireArt(t, view, view.to_move) })));
    clear(els.status).append(h("span", {}, parts.filter(Boolean).join(" · ")));
  }

  function render() {
    if (!msg) return;
    renderBoard();
    renderChoice();
    renderPopover();
    renderStatus();
    if (els.players) renderPlayers();
    if (els.general) renderGeneral();
  }

  return {
    update(m, tableInfo) {
      const changed = !msg || m.version !== msg.version;
      const startsPaying = changed && !!m.view?.buy?.paying && !msg?.view?.buy?.paying;
      if (msg && changed && (m.legal || []).length && stepOf(m) !== stepOf(msg)) hold();
      msg = m;
      if (tableInfo) info = tableInfo;
      idx = index(m.legal);
      if (changed) {
        const from = sel && String(sel).split(">")[0];
        sel = from && idx.byFrom.has(from) ? from : null;
      }
      render();
      if (startsPaying) showPayment();
    },
    setInfo(tableInfo) {
      info = tableInfo;
      if (msg && els.players) renderPlayers();
    },
    render,
    clearSelection() {
      sel = null;
      render();
    },
  };
}

export function renderResult(el, m, t) {
  const view = m.view;
  const w = view.winner;
  el.append(h("p", { class: "winner" }, w === null || w === undefined ? t("ui.noWinner") : capitalise(t("mn.wins", { who: empireArt(t, view, w) }))));
  // the winner first, then the others by what N6 counts: heroes and wonders, then capitals
  const n = view.n || (view.empires || []).length;
  const rows = [];
  for (let s = 0; s < n; s++) rows.push({ s, tiles: (view.tiles?.[s] || []).length + (view.pyramids === s ? 1 : 0), cities: tracks(view, s).cities, r: Array.isArray(m.result) ? Number(m.result[s]) : 0 });
  rows.sort((a, b) => b.r - a.r || b.tiles - a.tiles || b.cities - a.cities);
  el.append(h("ol", { class: "ranking" }, rows.map((x) => h("li", { dataset: { seat: x.s } }, h("strong", {}, empireName(t, view, x.s)), ` — ${t("mn.resultLine", { tiles: x.tiles, cities: x.cities })}`))));
}

export { inPlay };
