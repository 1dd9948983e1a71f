// Readable names and action labels for Mare Nostrum (notation: docs/mare-nostrum.md).
import { lang } from "../../i18n.js";
import { DATA } from "./data.js";

// before the empires are dealt, seats get neutral shades
const PALETTE = ["#7a6a55", "#5f7a8a", "#8a6f8a", "#6f8a5f", "#8a7a5f"];

/** The piece colour of a seat's empire (spec 2.5, from the engine's data). */
export function seatColour(view, seat) {
  return DATA.empires[view?.empires?.[seat]]?.colour || PALETTE[Number(seat) % PALETTE.length];
}

/** The colour of a number or letter printed on a seat's pieces. */
export function seatInk(view, seat) {
  return DATA.empires[view?.empires?.[seat]]?.ink || "#fff";
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
  return (lang() === "fr" ? g.fr : g.en).toLowerCase();
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

/** A seat's empire as a sentence names it ("la Grèce", "l'Égypte" in French), or its seat. */
export function empireArt(t, view, seat) {
  const e = view?.empires?.[seat];
  return e ? t(`mn.log.empire.${e}`) : t("mn.log.seat", { n: Number(seat) + 1 });
}

export const capitalise = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

export function slotName(t, slot) {
  const [kind, arg] = String(slot).split(":");
  if (kind === "caravan") return t("mn.slot.caravanOf", { good: goodName(t, arg) });
  if (kind === "legendary_city") return t("mn.slot.legendary_city") + (arg ? ` (${arg[0].toUpperCase()}${arg.slice(1)})` : "");
  if (kind === "marker") return t("mn.marker");
  return t(`mn.slot.${kind}`);
}

/** The few letters printed on a slot: its caravan's good, its building or legendary city. */
export function slotCode(t, slot) {
  const [kind, arg] = String(slot).split(":");
  if (kind === "caravan") return t(`mn.code.${arg}`);
  if (kind === "legendary_city") return arg ? `${arg[0].toUpperCase()}${arg.slice(1, 3)}` : "LC";
  return t(`mn.code.${kind}`);
}

/** The options of a table: the engine's defaults for what the board shows, then the table's own. */
export function optionsOf(tableInfo) {
  return { ...DATA.options, ...(tableInfo?.options || {}) };
}

/** A hero or wonder's cost (2.8, R25): by tiles owned (starting hero included) or by round. */
function tileCost(view, seat, opts) {
  const byRound = opts.hero_cost_mode === "by_round" && opts.hero_cost_by_round;
  const table = Object.entries(byRound ? opts.hero_cost_by_round : opts.hero_cost_by_tiles_owned).map(([k, v]) => [Number(k), Number(v)]).sort((a, b) => a[0] - b[0]);
  if (!table.length) return null;
  const keys = table.map(([k]) => k);
  if (byRound) {
    const upto = table.filter(([k]) => k <= Number(view?.round || 0));
    return (upto.length ? upto[upto.length - 1] : table[0])[1];
  }
  const owned = Math.max((view?.tiles?.[seat] || []).length, keys[0]);
  return (table.find(([k]) => k === owned) || table[table.length - 1])[1];
}

/** The base cost of a purchase action (N3), or null; ``opts``: the table's options (optionsOf). */
export function costOf(text, view, seat, opts = DATA.options) {
  const w = text.split(" ");
  const cheap = w[w.length - 1] === "cheap";
  let cost = null;
  if (w[0] === "build") cost = DATA.costs[w[1].split(":")[0]];
  else if (w[0] === "buy" && w[1] === "marker") cost = DATA.costs.marker;
  else if (w[0] === "buy" && ["legion", "fortress", "trireme"].includes(w[1])) cost = DATA.costs[w[1]];
  else if (w[0] === "buy" && w[1] === "pyramids") cost = opts.pyramids_cost;
  else if (w[0] === "buy" && w[1] === "tile") cost = tileCost(view, seat, opts);
  if (cost === null || cost === undefined) return null;
  return { cost, cheap };
}

export function actionLabel(t, text, view) {
  return capitalise(label(t, text, view));
}

function label(t, text, view) {
  const w = String(text).split(" ");
  const seat = (x) => empireArt(t, view, Number(x));
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
