// The panels around the Mesopotamia: Epochs map: the turn bar, the players with the victory-point
// track, the People cards of the Epoch with the order of rounds, dice and card faces.

import { clear, h, s } from "../../dom.js";
import { seatKindText } from "../../seatnames.js";
import { epochColour, occupancy, owners } from "./data.js";
import { playerBadge, symbolIcon } from "./draw.js";
import { abilityName, activePeople, areaName, peopleName, symbolName } from "./labels.js";

const EPOCHS = 5;

function colourStyle(data, people) {
  const c = epochColour(data.people.get(people)?.card_epoch);
  return `--pc:${c.fill};--pc-ink:${c.ink};--pc-dark:${c.dark}`;
}

/** A People's name on its Epoch colour. */
export function peopleChip(t, data, people, epoch, extra = "") {
  const c = epochColour(epoch ?? data.people.get(people)?.card_epoch);
  return h(
    "span",
    { class: `people-chip${people ? "" : " hidden-card"} ${extra}`.trim(), style: `--pc:${c.fill};--pc-ink:${c.ink};--pc-dark:${c.dark}`, dataset: { people: people || "" } },
    peopleName(t, data, people),
  );
}

/** One die face (1-6, or any number shown as a digit) as a small SVG. */
export function dieFace(n, { kept = false, side = "attack" } = {}) {
  const svg = s("svg", { class: `die ${side}${kept ? " kept" : ""}`, viewBox: "0 0 24 24", width: 26, height: 26, role: "img", "aria-label": String(n) });
  svg.append(s("rect", { x: 1.5, y: 1.5, width: 21, height: 21, rx: 4.5, class: "die-body" }));
  const P = { 1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]], 5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]], 6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]] };
  if (P[n]) for (const [x, y] of P[n]) svg.append(s("circle", { cx: x, cy: y, r: 2.1, class: "pip" }));
  else svg.append(s("text", { x: 12, y: 16.5, "text-anchor": "middle", "font-size": 12, "font-weight": 700, class: "pip" }, String(n)));
  return svg;
}

/** The facts of a People card: order, start, tribes, bonus area, abilities. */
export function cardFacts(t, data, id) {
  const p = data.people.get(id);
  if (!p) return null;
  const orders = [String(p.base_order)];
  for (const [e, o] of Object.entries(p.order_overrides || {})) orders.push(t("epochs.card.orderIn", { n: o, epoch: e }));
  const tribes = [t("epochs.card.initial", { n: p.initial_tribes, epoch: p.card_epoch })];
  for (const [e, n] of Object.entries(p.reinforcements || {})) tribes.push(t("epochs.card.reinforcement", { n, epoch: e }));
  const start = data.areas.get(p.start_area);
  const startText = start?.kind === "sea" ? t("epochs.card.seaStart", { area: areaName(t, data, p.start_area) }) : areaName(t, data, p.start_area);
  const abilities = (p.abilities || []).map((a) => h("span", { class: "ability", title: t(`epochs.abilityHelp.${a}`) }, abilityName(t, a)));
  return h(
    "dl",
    { class: "card-facts" },
    h("dt", {}, t("epochs.card.order")),
    h("dd", {}, orders.join(", ")),
    h("dt", {}, t("epochs.card.start")),
    h("dd", {}, startText),
    h("dt", {}, t("epochs.card.tribes")),
    h("dd", {}, tribes.join(", ")),
    h("dt", {}, t("epochs.card.bonus")),
    h("dd", {}, t("epochs.card.bonusValue", { area: areaName(t, data, p.bonus_area), v: data.bonusValue(id) })),
    h("dt", {}, t("epochs.card.abilities")),
    h("dd", {}, abilities.length ? abilities.map((x, i) => [i ? ", " : "", x]) : t("epochs.card.none")),
  );
}

/** A People card, face up. */
export function cardView(t, data, id, extra = {}) {
  const p = data.people.get(id);
  return h(
    "div",
    { class: "people-card", style: colourStyle(data, id), dataset: { people: id } },
    h("div", { class: "card-head" }, h("strong", {}, peopleName(t, data, id)), h("span", { class: "card-epoch" }, t("epochs.epochN", { n: p?.card_epoch ?? "?" }))),
    cardFacts(t, data, id),
    extra.note ? h("p", { class: "card-note" }, extra.note) : null,
  );
}

/** The turn bar: Epoch, segment, whose round or draw, pool. */
export function renderStatus(el, msg, t, data) {
  clear(el);
  const v = msg.view;
  const parts = [];
  if (v.phase === "over" || msg.status === "over") {
    parts.push(h("strong", {}, t("epochs.gameOver")));
  } else {
    parts.push(h("span", { class: "epoch-pill", style: `--pc:${epochColour(v.epoch).fill};--pc-ink:${epochColour(v.epoch).ink}` }, t("epochs.epochOf", { n: v.epoch, of: EPOCHS })));
    if (v.phase === "allocation") {
      parts.push(h("span", {}, t(v.epoch === 1 ? "epochs.phase.deal" : "epochs.phase.allocation")));
      if (v.draw_order?.length && v.draw_index < v.draw_order.length) {
        const who = v.draw_order[v.draw_index];
        parts.push(h("strong", { class: "turn" }, symbolIcon(who, 18), v.viewer === who ? t("epochs.yourDraw") : t("epochs.theirDraw", { player: symbolName(t, who) })));
      }
    } else if (v.phase === "strategy" && v.round) {
      const who = owners(v).get(v.round.people);
      // D2: where a displaced tribe goes is its owner's decision, not the active People's owner's
      const displacing = v.pending?.[0] === "displace" && v.to_move && v.to_move !== "chance" ? v.to_move : null;
      parts.push(h("span", {}, t("epochs.roundN", { n: v.round.order })));
      parts.push(
        h(
          displacing ? "span" : "strong",
          { class: displacing ? "round-people" : "turn" },
          who ? symbolIcon(who, 18) : null,
          peopleChip(t, data, v.round.people),
          " ",
          who ? (v.viewer === who && !displacing ? t("epochs.yours") : t("epochs.ofPlayer", { player: symbolName(t, who) })) : "",
        ),
      );
      if (displacing) {
        parts.push(
          h(
            "strong",
            { class: "turn", dataset: { decides: displacing } },
            symbolIcon(displacing, 18),
            v.viewer === displacing ? t("epochs.yourDisplace") : t("epochs.theirDisplace", { player: symbolName(t, displacing) }),
          ),
        );
      }
      parts.push(h("span", { class: "pool", title: t("epochs.poolHelp") }, t("epochs.pool", { n: v.round.pool })));
    }
    if (v.to_move === "chance") parts.push(h("span", { class: "muted" }, t("epochs.chance")));
  }
  el.append(...parts);
}

/** The VP track: a marker per player on a 0..N scale. */
function vpTrack(t, view) {
  const players = view.players || [];
  const top = Math.max(30, Math.ceil((Math.max(0, ...players.map((p) => p.vp)) + 4) / 10) * 10);
  const W = 320;
  const x0 = 14;
  const x1 = W - 14;
  const X = (vp) => x0 + ((x1 - x0) * Math.min(vp, top)) / top;
  // markers that would touch go up a row (lowest row with room)
  const placed = [];
  for (const p of [...players].sort((a, b) => a.vp - b.vp)) {
    let row = 0;
    while (placed.some((q) => q.row === row && Math.abs(X(q.vp) - X(p.vp)) < 19)) row += 1;
    placed.push({ symbol: p.symbol, vp: p.vp, row });
  }
  const rows = Math.max(1, ...placed.map((q) => q.row + 1));
  const H = 34 + rows * 20;
  const svg = s("svg", { class: "vp-track", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("epochs.vpTrackLabel", { list: players.map((p) => `${symbolName(t, p.symbol)} ${p.vp}`).join(", ") }) });
  const base = H - 16;
  svg.append(s("rect", { x: x0 - 6, y: base - 5, width: x1 - x0 + 12, height: 10, rx: 5, class: "track-bar" }));
  for (let v = 0; v <= top; v += 5) {
    const big = v % 10 === 0;
    svg.append(s("line", { x1: X(v), y1: base - (big ? 7 : 4), x2: X(v), y2: base + (big ? 7 : 4), class: "tick" }));
    if (big) svg.append(s("text", { x: X(v), y: base + 15, "text-anchor": "middle", "font-size": 9, class: "tick-label" }, String(v)));
  }
  for (const { symbol: sym, vp, row: i } of placed) {
    const g = s("g", { transform: `translate(${X(vp).toFixed(1)},${(base - 17 - i * 20).toFixed(1)})`, class: `vp-marker${view.viewer === sym ? " me" : ""}`, dataset: { symbol: sym, vp } });
    g.append(s("title", {}, t("epochs.vpOf", { player: symbolName(t, sym), n: vp })));
    g.append(s("line", { x1: 0, y1: 10, x2: 0, y2: 17 + i * 20, class: "stem" }));
    g.append(playerBadge(sym, 9.5));
    svg.append(g);
  }
  return h("div", { class: "vp-box panel" }, h("h3", {}, t("epochs.vpTrack")), svg);
}

/** The other seats that know a card the viewer knows (its `known_by` in the view, §6), by name. */
function alsoKnownBy(t, view, card) {
  const others = (card.known_by || []).filter((sym) => sym !== view.viewer);
  return others.length ? others.map((sym) => symbolName(t, sym)).join(t("epochs.and")) : "";
}

/**
 * Who knows a face-down card the viewer knows: the viewer alone (a card drawn and kept, or dealt
 * in Epoch 1), the viewer and the seat that passed it or was passed it (after the deal, E3.5),
 * or, during the deal, the viewer alone until the receiver of the pass looks at it.
 */
function secretNote(t, view, pl, card) {
  const others = alsoKnownBy(t, view, card);
  if (others) return t("epochs.cardKnownWith", { players: others });
  if (pl.symbol !== view.viewer) return t("epochs.cardPassedUnseen", { player: symbolName(t, pl.symbol) });
  return t("epochs.cardSecret");
}

function playerBox(t, data, view, pl, seatInfo, lessonOver) {
  const me = view.viewer === pl.symbol;
  const occ = occupancy(view);
  const active = activePeople(view);
  const toMove = !lessonOver && view.to_move === pl.symbol;
  const kind = seatKindText(t, seatInfo);
  let areas = 0;
  let doubles = 0;
  const cards = (pl.cards || []).map((c) => {
    const held = c.people ? [...occ].filter(([, [p]]) => p === c.people) : [];
    const tribes = held.reduce((sum, [, [, n]]) => sum + n, 0);
    if (c.public) {
      areas += held.length;
      doubles += held.filter(([a]) => data.areas.get(a)?.double_value).length;
    }
    const stats = c.public && c.people ? view.peoples?.[c.people] : null;
    const note = !c.people ? t("epochs.cardHidden") : !c.public ? secretNote(t, view, pl, c) : t("epochs.peopleStats", { areas: held.length, tribes, vp: stats?.vp ?? 0 });
    return h(
      "li",
      { class: `card-line${c.people === active ? " active" : ""}`, dataset: { epoch: c.epoch, people: c.people || "" } },
      h("span", { class: "epoch-tag", style: `--pc:${epochColour(c.epoch).fill};--pc-ink:${epochColour(c.epoch).ink}`, title: t("epochs.epochN", { n: c.epoch }) }, String(c.epoch)),
      peopleChip(t, data, c.people, c.epoch),
      h("span", { class: "muted" }, ` ${note}`),
    );
  });
  return h(
    "section",
    { class: `player ep-player${toMove ? " active" : ""}${me ? " me" : ""}`, dataset: { symbol: pl.symbol } },
    h(
      "div",
      { class: "player-head" },
      symbolIcon(pl.symbol, 22),
      h("strong", {}, symbolName(t, pl.symbol) + (me ? ` (${t("seat.you")})` : "")),
      kind ? h("span", { class: "muted" }, ` · ${kind}`) : null,
      seatInfo && seatInfo.kind === "human"
        ? h("span", { class: `conn ${seatInfo.connected ? "on" : "off"}`, title: t(seatInfo.connected ? "seat.connected" : "seat.away") }, seatInfo.connected ? "●" : "○")
        : null,
      toMove ? h("span", { class: "to-move-badge" }, t("epochs.toMove")) : null,
      h("span", { class: "vp", title: t("epochs.vpHelp") }, t("epochs.vp", { n: pl.vp })),
    ),
    h("ul", { class: "card-lines" }, cards.length ? cards : h("li", { class: "muted" }, t("epochs.noCards"))),
    h("div", { class: "muted tiebreak", title: t("epochs.tiebreakHelp") }, t("epochs.areasHeld", { n: areas, d: doubles })),
  );
}

/** The VP track and the players' panels in seat order (no one to move once a tutorial's
 * lesson is over: `tableInfo.lessonOver`). */
export function renderPlayers(el, msg, t, tableInfo, data) {
  clear(el);
  const v = msg.view;
  el.append(vpTrack(t, v));
  for (const pl of v.players || []) {
    const seatInfo = tableInfo?.seats?.find((x) => x.colour === pl.symbol);
    el.append(playerBox(t, data, v, pl, seatInfo, Boolean(tableInfo?.lessonOver)));
  }
}

/** Where a card of the current Epoch is, as far as this view tells. */
function cardStatus(t, view, id) {
  for (const pl of view.players || []) {
    for (const c of pl.cards || []) {
      if (c.people !== id) continue;
      if (c.public) return t("epochs.status.faceUp", { player: symbolName(t, pl.symbol) });
      if (pl.symbol === view.viewer) {
        const others = alsoKnownBy(t, view, c);
        return others ? t("epochs.status.yoursKnown", { players: others }) : t("epochs.status.yours");
      }
      return t("epochs.status.passedTo", { player: symbolName(t, pl.symbol) });
    }
  }
  if ((view.set_aside || []).some((c) => c.people === id)) return t("epochs.status.setAside");
  if (view.pending?.[0] === "keep" && view.pending[1] === id) return t("epochs.status.drawn");
  return t("epochs.status.unknown");
}

/** The rounds of this Epoch for the Peoples this view can name, in order (E4.3). */
function roundList(t, data, view) {
  const e = view.epoch;
  const own = owners(view);
  const occ = occupancy(view);
  const rows = [];
  let hidden = 0;
  for (const pl of view.players || []) {
    for (const c of pl.cards || []) {
      if (c.epoch > e) continue;
      if (!c.people) {
        hidden += 1;
        continue;
      }
      const card = data.people.get(c.people);
      const old = card && card.card_epoch < e;
      const onMap = [...occ.values()].some(([p]) => p === c.people);
      rows.push({ id: c.people, order: data.order(c.people, e), owner: own.get(c.people), skipped: old && !onMap });
    }
  }
  rows.sort((a, b) => a.order - b.order);
  const cur = view.phase === "strategy" && view.round ? view.round.order : view.phase === "over" ? Infinity : -1;
  const items = rows.map((r) => {
    const state = r.order < cur ? "done" : r.order === cur ? "now" : r.skipped ? "skip" : "next";
    return h(
      "li",
      { class: `round-item ${state}`, dataset: { people: r.id } },
      h("span", { class: "order" }, `${r.order}.`),
      peopleChip(t, data, r.id),
      r.owner ? h("span", { class: "owner" }, symbolIcon(r.owner, 15)) : null,
      state === "now" ? h("span", { class: "now-badge" }, t("epochs.now")) : state === "skip" ? h("span", { class: "muted" }, ` ${t("epochs.noTribes")}`) : null,
    );
  });
  return h(
    "div",
    { class: "rounds" },
    h("h4", {}, t("epochs.roundsTitle", { n: e })),
    h("ol", { class: "round-list" }, items),
    hidden ? h("p", { class: "muted" }, t("epochs.hiddenRounds", { n: hidden })) : null,
  );
}

/** The map key: what the marks on the map mean. */
function mapKey(t) {
  const icon = (...kids) => s("svg", { class: "key-icon", viewBox: "-12 -9 24 18", width: 26, height: 20, "aria-hidden": "true" }, ...kids);
  const items = [
    [icon(s("circle", { r: 7, fill: "#f1c232", stroke: "#6e5200", "stroke-width": 1.2 }), s("text", { x: 0, y: 3.5, "text-anchor": "middle", "font-size": 9.5, "font-weight": 800, fill: "#3d2c00" }, "2")), "epochs.key.double"],
    [icon(s("polygon", { points: "0,-7 2,-2.2 7,-2.2 3,1 4.4,6 0,3.2 -4.4,6 -3,1 -7,-2.2 -2,-2.2", fill: "#2f6fd0", stroke: "#2b2419", "stroke-width": 1 })), "epochs.key.bonus"],
    [icon(s("path", { d: "M-9,-8 L-9,8", stroke: "#6d5b38", "stroke-width": 1.4 }), s("path", { d: "M6,0 L-3,-5.5 L-3,5.5 Z", fill: "#5b2c0a" })), "epochs.key.difficult"],
    [icon(s("rect", { x: -10, y: -7, width: 20, height: 14, fill: "#ecc987", stroke: "#7a4a12", "stroke-width": 2.6, "stroke-dasharray": "6 2 1.5 2" })), "epochs.key.desert"],
    [icon(s("rect", { x: -10, y: -7, width: 20, height: 14, fill: "#bdb19c", stroke: "#8d826c", "stroke-dasharray": "3 2" })), "epochs.key.uninhabited"],
    [icon(s("line", { x1: -10, y1: 0, x2: 10, y2: 0, stroke: "#6d5b38", "stroke-width": 2.4, "stroke-dasharray": "5 4" })), "epochs.key.strait"],
  ];
  return h("details", { class: "map-key", open: true }, h("summary", {}, t("epochs.key.title")), h("ul", {}, items.map(([ic, key]) => h("li", {}, ic, h("span", {}, t(key))))));
}

/** The People cards of the current Epoch (and, folded, of the others), and the order of rounds. */
export function renderGeneral(el, msg, t, data) {
  clear(el);
  const v = msg.view;
  const byEpoch = new Map();
  for (const p of data.peoples.peoples || []) {
    if (!byEpoch.has(p.card_epoch)) byEpoch.set(p.card_epoch, []);
    byEpoch.get(p.card_epoch).push(p);
  }
  const cardsOf = (e) =>
    (byEpoch.get(e) || [])
      .slice()
      .sort((a, b) => a.base_order - b.base_order)
      .map((p) => h("li", {}, cardView(t, data, p.id, { note: e <= v.epoch ? cardStatus(t, v, p.id) : null })));
  el.append(
    mapKey(t),
    h("h3", {}, t("epochs.cardsTitle", { n: v.epoch })),
    h("p", { class: "muted" }, v.phase === "allocation" ? t("epochs.deckLeft", { n: v.deck_size ?? 0 }) : t("epochs.cardsHelp")),
    h("ul", { class: "card-grid" }, cardsOf(v.epoch)),
    roundList(t, data, v),
  );
  const others = [...byEpoch.keys()].filter((e) => e !== v.epoch).sort((a, b) => a - b);
  if (others.length) {
    el.append(
      h(
        "details",
        { class: "other-epochs" },
        h("summary", {}, t("epochs.otherCards")),
        others.map((e) => [h("h4", {}, t("epochs.epochN", { n: e })), h("ul", { class: "card-grid" }, cardsOf(e))]),
      ),
    );
  }
}
