// Readable, translated labels for Mesopotamia actions, pieces and decisions.

import { LETTER_COLOUR, parseAction, parseHut, parseTribe } from "./notation.js";

export function colourName(t, colour) {
  return t(`colour.${colour}`);
}

export function tileName(t, type) {
  return t(`meso.tile.${type}`);
}

export function cardName(t, card) {
  return t(`meso.card.${card}`);
}

export function resourceName(t, res) {
  return t(`meso.res.${res === "w" ? "wood" : res === "s" ? "stone" : res}`);
}

function tileAt(view, k) {
  if (!view) return null;
  for (const [q, r, type] of view.tiles || []) if (`${q},${r}` === k) return type;
  return null;
}

/** Value of a carried or placed offering if this view shows it, else null. */
export function offeringValue(view, colour, id) {
  const pl = (view?.players || []).find((p) => p.colour === colour);
  if (!pl) return null;
  const v = pl.offerings?.placed?.[String(id)];
  return v === undefined ? null : v;
}

export function cargoText(t, cargo, colour, view) {
  if (!cargo) return "";
  if (cargo === "w") return t("meso.cargo.wood");
  if (cargo === "s") return t("meso.cargo.stone");
  const v = offeringValue(view, colour, cargo.slice(1));
  return v === null ? t("meso.cargo.offering") : t("meso.cargo.offeringValue", { v });
}

export function tribeText(t, tok, view) {
  const tr = parseTribe(tok);
  if (!tr) return tok;
  const base = t("meso.tribe", {
    colour: t(`colourAdj.${tr.colour}`),
    cargo: cargoText(t, tr.cargo, tr.colour, view),
    c: tr.key,
  });
  return tr.spent ? `${base} ${t("meso.spentMark")}` : base;
}

export function hutText(t, tok) {
  const hut = parseHut(tok);
  if (!hut) return tok;
  return hut.owner === "neutral" ? t("meso.hutNeutral", { n: hut.num }) : t("meso.hut", { colour: t(`colourAdj.${hut.owner}`), n: hut.num });
}

function pileSize(view, n) {
  const pile = view?.piles?.[Number(n) - 1];
  return pile ? pile.size : "?";
}

/** A readable label for one legal action. */
export function actionLabel(t, text, view) {
  const a = parseAction(text);
  const w = String(text).split(" ");
  const tribe = (i = 0) => tribeText(t, a.tribes[i], view);
  switch (a.kind) {
    case "move": {
      const there = tileAt(view, a.dest);
      if (!there) return t("meso.act.explore", { tribe: tribe(), c: a.dest });
      if (there === "temple") return t("meso.act.moveTemple", { tribe: tribe(), c: a.dest });
      return t("meso.act.move", { tribe: tribe(), c: a.dest, tile: tileName(t, there) });
    }
    case "pickup":
      return t("meso.act.pickup", { tribe: tribe(), res: resourceName(t, a.arg) });
    case "drop":
      return t("meso.act.drop", { tribe: tribe() });
    case "exchange":
      return t("meso.act.exchange", { tribe: tribe(), res: resourceName(t, a.arg) });
    case "handoff":
      return t("meso.act.handoff", { tribe: tribe(0), other: tribe(1) });
    case "steal": {
      const victim = parseTribe(a.tribes[0]);
      return t("meso.act.steal", {
        res: victim ? resourceName(t, victim.cargo) : "?",
        victim: tribe(0),
        own: tribe(1),
      });
    }
    case "offering":
      return t("meso.act.offering", { tribe: tribe(), hut: hutText(t, a.huts[0]) });
    case "donate":
      return t("meso.act.donate", { tribe: tribe() });
    case "end":
      return view?.phase === "movement" ? t("meso.act.endMovement") : t("meso.act.endTurn");
    case "pile":
      return t("meso.act.pile", { n: a.arg, size: pileSize(view, a.arg) });
    case "volcano":
      return t("meso.act.volcano", { c: a.hex });
    case "share": {
      const type = tileAt(view, a.hex);
      return t("meso.act.share", { res: resourceName(t, type === "forest" ? "wood" : "stone"), c: a.hex });
    }
    case "hut":
      return t("meso.act.hut", { c: a.hex, carrier: tribe(0), other: tribe(1) });
    case "holy":
      return t("meso.act.holy", { c: a.hex, carrier: tribe(0), other: tribe(1) });
    case "grow":
      return t(a.arg === "fertility" ? "meso.act.growFertility" : "meso.act.grow", {
        c: a.hex,
        hut: hutText(t, a.huts[0]),
        carrier: tribe(0),
        other: tribe(1),
      });
    case "offer":
      return t("meso.act.offer", { v: a.arg });
    case "draw":
      return t("meso.act.draw");
    case "pass":
      return t("meso.act.pass");
    case "stop":
      return t("meso.act.stop");
    case "income":
      return t("meso.act.income");
    case "order":
      return t("meso.act.order", { tiles: String(a.arg || "").split(",").map((x) => tileName(t, x)).join(", ") });
    case "to": {
      const kind = (view?.pending || [])[0];
      if (kind === "expel") return t("meso.act.toExpel", { c: a.hex });
      if (kind === "teleport") return t("meso.act.toTeleport", { c: a.hex });
      return t("meso.act.to", { c: a.hex });
    }
    case "first":
      return t("meso.act.first", { colour: colourName(t, LETTER_COLOUR[a.arg] || a.arg) });
    case "play": {
      const card = cardName(t, a.card);
      switch (a.card) {
        case "priest":
          return t("meso.act.playPriest", { card, c: a.hex });
        case "mana_theft":
          return t("meso.act.playManaTheft", { card, colour: colourName(t, LETTER_COLOUR[w[2]] || w[2]) });
        case "land":
          return t("meso.act.playLand", { card, n: w[2], size: pileSize(view, w[2]) });
        case "teleport":
          return t("meso.act.playTeleport", { card, tribe: tribe() });
        case "expulsion":
          return t("meso.act.playExpulsion", { card, hut: hutText(t, a.huts[0]) });
        default:
          return t("meso.act.play", { card });
      }
    }
    default:
      return text;
  }
}

/** The question a pending decision asks (view.pending), or null. */
export function pendingQuestion(t, view) {
  const p = view?.pending;
  if (!p) return null;
  const kind = p[0];
  const c = (x) => (Array.isArray(x) ? `${x[0]},${x[1]}` : "?");
  switch (kind) {
    case "pile":
      return t("meso.q.pile", { c: c(p[4]) });
    case "volcano":
      return t("meso.q.volcano", { c: c(p[4]) });
    case "shares":
      return t("meso.q.shares", { res: resourceName(t, p[2] === "forest" ? "wood" : "stone"), n: p[3] });
    case "offer":
      return t("meso.q.offer");
    case "teleport":
      return t("meso.q.teleport", { c: c(p[2]) });
    case "expel":
      return t("meso.q.expel", { hut: hutText(t, `${p[1][0] < 0 ? "n" : "byrg"[p[1][0]]}${p[1][1]}`) });
    case "order":
      return t("meso.q.order", { n: Number(p[1]) + 1 });
    case "first":
      return t("meso.q.first");
    default:
      return t("meso.q.other", { kind });
  }
}
