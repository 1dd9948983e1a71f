// Readable names and action labels for Mare Nostrum (notation: docs/mare-nostrum.md).
import { lang } from "../../i18n.js";
import { DATA } from "./data.js";

export const EMPIRE_COLOURS = { rome: "#c0392b", greece: "#2e6fd1", carthage: "#8e44ad", egypt: "#d4a017", babylon: "#23955a" };
const PALETTE = ["#c0392b", "#2e6fd1", "#8e44ad", "#d4a017", "#23955a"];

export function seatColour(view, seat) {
  return EMPIRE_COLOURS[view?.empires?.[seat]] || PALETTE[seat % PALETTE.length];
}

export function areaName(id) {
  return DATA.provinces[id]?.name || DATA.seas[id]?.name || id;
}

export function goodName(t, tok) {
  if (tok === "tax") return t("mn.tax");
  if (tok === "?") return "?";
  if (String(tok).startsWith("leg:")) return t("mn.legendary", { good: goodName(t, tok.slice(4)) });
  const g = DATA.goods.goods.find((x) => x.id === tok);
  if (!g) return tok;
  return lang() === "fr" ? g.fr : g.en;
}

export function tileName(id) {
  if (id === "pyramids") return lang() === "fr" ? "Pyramides" : "Pyramids";
  const tl = DATA.tiles[id];
  if (!tl) return id;
  return lang() === "fr" ? tl.fr : tl.name;
}

export function empireName(t, view, seat) {
  const e = view?.empires?.[seat];
  return e ? t(`mn.empire.${e}`) : t("mn.seatN", { n: Number(seat) + 1 });
}

export function slotName(t, slot) {
  const [kind, arg] = String(slot).split(":");
  if (kind === "caravan") return t("mn.slot.caravanOf", { good: goodName(t, arg) });
  if (kind === "legendary_city") return t("mn.slot.legendary_city") + (arg ? ` (${arg[0].toUpperCase()}${arg.slice(1)})` : "");
  if (kind === "marker") return t("mn.marker");
  return t(`mn.slot.${kind}`);
}

/** The base cost of a purchase action (N3), or null. */
export function costOf(text, view, seat) {
  const w = text.split(" ");
  const cheap = w[w.length - 1] === "cheap";
  let cost = null;
  if (w[0] === "build") cost = DATA.costs[w[1].split(":")[0]];
  else if (w[0] === "buy" && w[1] === "marker") cost = DATA.costs.marker;
  else if (w[0] === "buy" && ["legion", "fortress", "trireme"].includes(w[1])) cost = DATA.costs[w[1]];
  else if (w[0] === "buy" && w[1] === "pyramids") cost = DATA.costs.pyramids;
  else if (w[0] === "buy" && w[1] === "tile") {
    const owned = (view?.tiles?.[seat] || []).length;
    cost = DATA.costs.tile[String(Math.min(4, Math.max(1, owned)))];
  }
  if (cost === null || cost === undefined) return null;
  return { cost, cheap };
}

export function actionLabel(t, text, view) {
  const w = String(text).split(" ");
  const seat = (x) => empireName(t, view, Number(x));
  const a = (x) => areaName(x);
  const g = (x) => goodName(t, x);
  switch (w[0]) {
    case "buy": {
      const cheap = w.includes("cheap") ? ` (${t("mn.cheap")})` : "";
      if (w[1] === "marker") return t("mn.act.buyMarker", { area: a(w[2]) }) + cheap;
      if (w[1] === "tile") return t("mn.act.buyTile", { tile: tileName(w[2]) }) + cheap;
      if (w[1] === "pyramids") return t("mn.act.buyTile", { tile: tileName("pyramids") });
      return t("mn.act.buyUnit", { unit: t(`mn.unit.${w[1]}`), area: a(w[2]) }) + cheap;
    }
    case "build":
      return t("mn.act.build", { slot: slotName(t, w[1]), area: a(w[2]) }) + (w.includes("cheap") ? ` (${t("mn.cheap")})` : "");
    case "pay": return t("mn.act.pay", { good: g(w[1]) });
    case "offer": return w[1] === "size" ? t("mn.act.offerSize", { n: w[2] }) : t("mn.act.offer", { good: g(w[1]) });
    case "take": return t("mn.act.take", { good: g(w[1]), seat: seat(w[3]) });
    case "give": return t("mn.act.give", { good: g(w[1]) });
    case "keep": return w[1] === "none" ? t("mn.act.keepNone") : t("mn.act.keep", { goods: w[1].split(",").map(g).join(", ") });
    case "token": return t("mn.act.token", { tok: w[1].toUpperCase(), v: w[2] });
    case "starter": return t("mn.act.starter", { seat: seat(w[1]) });
    case "first": return t(w[1] === "yes" ? "mn.act.firstYes" : "mn.act.firstNo");
    case "next": return t("mn.act.next", { seat: seat(w[1]) });
    case "zeus": return w[1] === "none" ? t("mn.act.zeusNone") : t("mn.act.zeus", { seat: seat(w[1]) });
    case "copy": return w[1] === "none" ? t("mn.act.copyNone") : t("mn.act.copy", { tile: tileName(w[1]) });
    case "extra": return t(w[1] === "tax" ? "mn.act.extraTax" : "mn.act.extraDraw");
    case "colossus": return t("mn.act.colossus", { good: g(w[1]) });
    case "convert": return w[1] ? t("mn.act.convert", { area: a(w[1]) }) : t("mn.act.convertHere");
    case "row": return t("mn.act.row", { from: a(w[1]), to: a(w[2]) });
    case "seabattle": return t("mn.act.seabattle", { area: a(w[1]), seat: seat(w[2]) });
    case "march":
    case "sail": {
      const dest = w[3] && w[3].startsWith("@") ? ` → ${w[3] === "@marker" ? t("mn.marker") : slotName(t, w[3].slice(1))}` : "";
      return t(`mn.act.${w[0]}`, { from: a(w[1]), to: a(w[2]) }) + dest;
    }
    case "fight": return t("mn.act.fight", { area: a(w[1]), seat: seat(w[2]) });
    case "roll": return t("mn.act.roll", { n: w[1] });
    case "lose": return t("mn.act.lose", { what: w[1] === "free" ? t("mn.freeLegion") : w[1] === "marker" ? t("mn.marker") : slotName(t, w[1]) });
    case "pillage": return t("mn.act.pillage", { slot: slotName(t, w[1]) }) + (w[2] ? ` (${w[2]})` : "");
    case "occupy": return t("mn.act.occupy", { slots: w[1].split("+").map((x) => slotName(t, x)).join(", ") });
    case "circe": return t("mn.act.circe", { area: a(w[1]), slot: slotName(t, w[2]) });
    case "title": return t("mn.act.title", { track: t(`mn.track.${w[1]}`), seat: seat(w[2]) });
    case "winner": return t("mn.act.winner", { seat: seat(w[1]) });
    case "free": return t("mn.act.free", { unit: w[1] === "marker" ? t("mn.marker") : t("mn.unit.legion"), area: a(w[2]) });
    case "pass": return t("mn.act.pass");
    case "done": return t("mn.act.done");
    case "end": return t("mn.act.end");
    default: return text;
  }
}

const GROUPS = {
  buy: "mn-buy", build: "mn-buy", free: "mn-buy", pay: "mn-pay", offer: "mn-trade", take: "mn-trade", give: "mn-trade",
  token: "mn-trade", starter: "mn-trade", row: "mn-move", march: "mn-move", sail: "mn-move", seabattle: "mn-battle",
  fight: "mn-battle", lose: "mn-battle", pillage: "mn-conquest", occupy: "mn-conquest", convert: "mn-conquest", pass: "mn-conquest",
  circe: "mn-conquest", next: "mn-order", first: "mn-order", zeus: "mn-order", done: "mn-end", end: "mn-end", keep: "mn-end",
  title: "mn-claim", winner: "mn-claim",
};
export function actionGroup(text) {
  return GROUPS[String(text).split(" ")[0]] || "mn-other";
}
