// Mesopotamia information panels: turn bar, players (Mana scales, supplies, offerings, hands), piles.

import { clear, h, s } from "../../dom.js";
import { seatKindText } from "../../seatnames.js";
import { PIECE_COLOURS } from "./draw.js";
import { cardName, colourName, tileName } from "./labels.js";

const TRACK_MAX = 8;

function manaScale(t, mana, limit) {
  const cell = 15;
  const svg = s("svg", {
    class: "mana-scale",
    viewBox: `0 0 ${cell * (TRACK_MAX + 1) + 2} 22`,
    role: "img",
    "aria-label": t("meso.manaScale", { mana, limit }),
  });
  svg.append(s("title", {}, t("meso.manaScale", { mana, limit })));
  for (let i = 0; i <= TRACK_MAX; i++) {
    const over = i > limit;
    svg.append(
      s("rect", {
        x: 1 + i * cell,
        y: 4,
        width: cell - 1,
        height: 14,
        rx: 2,
        class: over ? "cell over" : "cell",
      }),
    );
    svg.append(s("text", { x: 1 + i * cell + (cell - 1) / 2, y: 14.5, "text-anchor": "middle", "font-size": 8, class: "cell-num" }, String(i)));
  }
  // the beam: right edge of the limit cell
  const bx = 1 + (limit + 1) * cell - 0.5;
  svg.append(s("rect", { x: bx - 1.5, y: 0, width: 3, height: 22, class: "beam" }));
  // the pawn
  const px = 1 + mana * cell + (cell - 1) / 2;
  svg.append(s("circle", { cx: px, cy: 11, r: 5.6, class: "pawn" }));
  svg.append(s("text", { x: px, y: 14, "text-anchor": "middle", "font-size": 8, "font-weight": 700, class: "pawn-num" }, String(mana)));
  return svg;
}

function cardList(t, counts, newCounts) {
  const out = [];
  for (const [card, n] of Object.entries(counts || {})) {
    const fresh = (newCounts || {})[card] || 0;
    for (let i = 0; i < n; i++) {
      const isNew = i >= n - fresh;
      out.push(
        h(
          "li",
          { class: `card${isNew ? " new" : ""}`, title: t(`meso.cardHelp.${card}`) },
          h("span", { class: "card-name" }, cardName(t, card)),
          isNew ? h("span", { class: "card-new" }, ` (${t("meso.newCard")})`) : null,
          h("span", { class: "card-help" }, t(`meso.cardHelp.${card}`)),
        ),
      );
    }
  }
  return out;
}

function chip(value, colour, title) {
  return h("span", { class: "chip", style: `--c:${PIECE_COLOURS[colour] || "#888"}`, title }, value === null || value === undefined ? "?" : String(value));
}

function playerBox(t, view, pl, info, seatInfo) {
  const me = view.viewer === pl.colour;
  const toMove = !info?.lessonOver && view.to_move === pl.colour; // a finished lesson: no one moves
  const hutsOnMap = (view.huts || []).filter((hh) => hh[0] === pl.colour).length;
  const holyOnMap = (view.holy_places || []).filter((hp) => hp[2] === pl.colour).length;
  const off = pl.offerings || {};
  const delivered = new Set((off.delivered || []).map(String));
  const carried = (pl.tribes || []).filter((tr) => String(tr[2]).startsWith("o")).map((tr) => String(tr[2]).slice(1));
  const underHuts = (view.huts || []).filter((hh) => hh[0] === pl.colour && hh[4]).map((hh) => String(hh[4]));
  const kind = seatKindText(t, seatInfo);
  const name = colourName(t, pl.colour) + (me ? ` (${t("seat.you")})` : "");

  const header = h(
    "div",
    { class: "player-head" },
    h("span", { class: "swatch", style: `background:${PIECE_COLOURS[pl.colour]}` }),
    h("strong", {}, name),
    kind ? h("span", { class: "muted" }, ` · ${kind}`) : null,
    seatInfo && seatInfo.kind === "human"
      ? h("span", { class: `conn ${seatInfo.connected ? "on" : "off"}`, title: t(seatInfo.connected ? "seat.connected" : "seat.away") }, seatInfo.connected ? "●" : "○")
      : null,
    toMove ? h("span", { class: "to-move-badge" }, t("meso.toMove")) : null,
  );

  const offeringLine = [];
  if (me && Array.isArray(off.unplaced)) {
    offeringLine.push(h("span", {}, t("ui.labelColon", { label: t("meso.off.unplaced") })), ...off.unplaced.map((v) => chip(v, pl.colour, t("meso.off.unplaced"))));
  } else {
    offeringLine.push(h("span", {}, t("ui.labelColon", { label: t("meso.off.unplaced") }), String(off.unplaced_count ?? "?")));
  }
  const placedIds = Object.keys(off.placed || {});
  const huts = underHuts.map((id) => chip(off.placed?.[id], pl.colour, t("meso.off.underHut")));
  const carry = carried.map((id) => chip(off.placed?.[id], pl.colour, t("meso.off.carried")));
  const done = placedIds.filter((id) => delivered.has(id)).map((id) => chip(off.placed?.[id], pl.colour, t("meso.off.delivered")));

  let hand;
  if (me && pl.hand && Object.keys(pl.hand).length) hand = h("ul", { class: "hand" }, cardList(t, pl.hand, pl.new_cards));
  else if (me && pl.hand) hand = h("span", {}, t("meso.noCards"));
  else hand = h("span", {}, t("meso.handSize", { n: pl.hand_size ?? 0 }));

  return h(
    "section",
    { class: `player${toMove ? " active" : ""}${me ? " me" : ""}`, dataset: { colour: pl.colour }, style: `--c:${PIECE_COLOURS[pl.colour]}` },
    header,
    h("div", { class: "mana-line" }, manaScale(t, pl.mana, pl.limit), h("span", { class: "mana-text" }, t("meso.manaText", { mana: pl.mana, limit: pl.limit }))),
    h(
      "div",
      { class: "stats" },
      h("span", { title: t("meso.tribesHelp") }, t("meso.tribesCount", { map: (pl.tribes || []).length, supply: pl.tribes_in_supply })),
      h("span", {}, t("meso.hutsLeft", { n: Math.max(0, 5 - hutsOnMap) })),
      h("span", {}, t("meso.holyLeft", { n: Math.max(0, 3 - holyOnMap) })),
    ),
    h(
      "div",
      { class: "offerings" },
      h("span", { class: "group" }, offeringLine),
      huts.length ? h("span", { class: "group" }, t("ui.labelColon", { label: t("meso.off.underHut") }), huts) : null,
      carry.length ? h("span", { class: "group" }, t("ui.labelColon", { label: t("meso.off.carried") }), carry) : null,
      h("span", { class: "group" }, t("ui.labelColon", { label: t("meso.off.delivered") }), done.length ? done : "0"),
    ),
    h("div", { class: "cards" }, h("span", {}, t("ui.labelColon", { label: t("meso.cards") })), hand),
  );
}

/** The turn bar: round, whose turn, phase, MP and discoveries. */
export function renderStatus(el, msg, t) {
  clear(el);
  const v = msg.view;
  const who = v.turn_order?.[v.turn];
  const parts = [];
  if (v.phase === "over" || msg.status === "over") {
    parts.push(h("strong", {}, t("meso.gameOver")));
  } else {
    parts.push(h("span", { class: "round" }, t("meso.round", { n: v.round })));
    if (who) {
      const mine = v.viewer === who;
      parts.push(
        h(
          "strong",
          { class: "turn", style: `--c:${PIECE_COLOURS[who]}` },
          h("span", { class: "swatch", style: `background:${PIECE_COLOURS[who]}` }),
          mine ? t("meso.yourTurn") : t("meso.theirTurn", { colour: colourName(t, who) }),
        ),
      );
    }
    parts.push(h("span", { class: "phase" }, t(`meso.phase.${v.phase}`)));
    if (v.phase === "movement") {
      parts.push(h("span", { class: "mp", title: t("meso.mpHelp") }, t("meso.mp", { n: v.mp })));
      parts.push(h("span", { class: "disc" }, t("meso.discoveries", { n: v.discoveries })));
    }
    if (v.phase === "action" && v.action) parts.push(h("span", {}, t(`meso.action.${v.action}`)));
    if (v.phase === "mana") parts.push(h("span", {}, v.income_done ? t("meso.incomeDone") : t("meso.incomeNotYet")));
  }
  el.append(...parts);
}

/** Players' panels in turn order. */
export function renderPlayers(el, msg, t, tableInfo) {
  clear(el);
  const v = msg.view;
  const order = v.turn_order && v.turn_order.length ? v.turn_order : (v.players || []).map((p) => p.colour);
  for (const colour of order) {
    const pl = (v.players || []).find((p) => p.colour === colour);
    if (!pl) continue;
    const seatInfo = tableInfo?.seats?.find((x) => x.colour === colour);
    el.append(playerBox(t, v, pl, tableInfo, seatInfo));
  }
}

/** Piles, deck, discard and general supply. */
export function renderGeneral(el, msg, t) {
  clear(el);
  const v = msg.view;
  const piles = (v.piles || []).map((p, i) => {
    const tops = (p.top || []).map(([type]) => (type ? tileName(t, type) : "?"));
    const known = tops.some((x) => x !== "?");
    return h("li", {}, t("meso.pile", { n: i + 1, size: p.size }), known ? h("span", { class: "muted" }, ` — ${t("meso.pileTop", { tiles: tops.join(", ") })}`) : null);
  });
  const remaining = Object.entries(v.remaining_tiles || {})
    .filter(([, n]) => n)
    .map(([type, n]) => `${tileName(t, type)} ${n}`)
    .join(", ");
  const discard = Object.entries(v.discard || {})
    .map(([card, n]) => `${cardName(t, card)}${n > 1 ? ` ×${n}` : ""}`)
    .join(", ");
  el.append(
    h("h3", {}, t("meso.generalTitle")),
    h("ul", { class: "piles" }, piles),
    h("p", {}, t("meso.tilesLeft", { list: remaining || "0" })),
    h("p", {}, t("meso.deck", { n: v.deck_size ?? "?" }), " · ", t("meso.discard", { list: discard || "—" })),
    h(
      "p",
      {},
      t("meso.supply", { wood: v.supply?.wood ?? "?", stone: v.supply?.stone ?? "?" }),
      v.supply?.stones_removed ? ` · ${t("meso.stonesRemoved", { n: v.supply.stones_removed })}` : "",
    ),
  );
}
