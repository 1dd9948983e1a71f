// Log sentences. The server sends one English sentence per log entry (describe.py); this puts
// them into the current language by pattern. In English only the seat labels change ("Rome (seat
// 0)" -> "Rome", "seat 0" -> "Seat 1", as everywhere else on the page); in French every sentence is
// rebuilt from its parts. Unknown sentences keep their words (with the seat labels changed).

import { DATA } from "./data.js";
import { goodName, tileName } from "./labels.js";

const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const alt = (names) => names.slice().sort((a, b) => b.length - a.length).map(esc).join("|");

const EMPIRE_ID = new Map(Object.entries(DATA.empires).map(([id, e]) => [e.name, id]));
const AREA_ID = new Map([...Object.entries(DATA.provinces), ...Object.entries(DATA.seas)].map(([id, a]) => [a.name, id]));
const TILE_ID = new Map(Object.entries(DATA.tiles).map(([id, tl]) => [tl.name, id]));
const GOODS = DATA.goods.goods.map((g) => g.id);

const EMP = alt([...EMPIRE_ID.keys()]);
const SEAT_LABEL = new RegExp(`\\b(${EMP}) \\(seat \\d+\\)|\\b([Ss])eat (\\d+)\\b`, "g");
const WHO = `(?:${EMP}) \\(seat \\d+\\)|[Ss]eat \\d+|Chance|A player`;
const AREA = alt([...AREA_ID.keys()]);
const TILE = alt([...TILE_ID.keys()]);
const GOOD = alt(GOODS);
const TOK = `(?:legendary )?(?:${GOOD})|tax`;
const SLOT = `(?:${GOOD}) caravan|legendary city [A-Z][a-z]+|market|city|capital|temple`;
// a roll's faces: "4", or "2, 4, 5, 6 (total 17)"
const FACES = `(?<faces>\\d+(?:, \\d+)*)(?: \\(total (?<total>\\d+)\\))?`;
// one side of a battle result: "Rome (seat 0) 2, 4, 5, 6 + 5 = 22", and the hits it took
const SIDE = new RegExp(`^(?<who>${WHO}) (?<dice>no dice|\\d+(?:, \\d+)*)(?: \\+ (?<bonus>\\d+))?(?: = (?<total>\\d+))?(?:, |$)`);
const HIT = new RegExp(`^(?<who>${WHO}) (?<n>\\d+)(?:, |$)`);

/** English seat labels as the rest of the page names seats; in the revealed offers, where a label
 * was followed by that seat's tokens, a colon keeps the name and the tokens apart. */
function englishSeats(sentence) {
  const listed = sentence.startsWith("Offers revealed: ");
  return sentence.replace(SEAT_LABEL, (m, emp, s, n) => (emp ? emp : `${s}eat ${Number(n) + 1}`) + (listed ? ":" : ""));
}

// ---- French noun phrases (t gives the words; these add articles and elisions)
const VOWEL = /^[aeiouyhâàéèêëîïôöûüAEIOUYHÂÀÉÈÊËÎÏÔÖÛÜ]/;
const de = (x) => (VOWEL.test(x) ? `d'${x}` : `de ${x}`);

function phrases(t) {
  const seat = (label) => {
    if (label === "Chance") return t("mn.log.chance");
    if (label === "A player") return t("mn.log.aPlayer");
    const m = /^(.+) \(seat (\d+)\)$/.exec(label);
    if (m) return t(`mn.log.empire.${EMPIRE_ID.get(m[1])}`);
    const k = /^[Ss]eat (\d+)$/.exec(label);
    return t("mn.log.seat", { n: Number(k[1]) + 1 });
  };
  // "à" in front of a seat phrase: à Rome, à la Grèce, à l'Égypte (never "au": no empire is masculine)
  const to = (x) => `à ${x}`;
  const bare = (tok) => {
    const good = tok.startsWith("legendary ") ? `leg:${tok.slice(10)}` : tok;
    return goodName(t, good).toLowerCase();
  };
  const token = (tok) => t("mn.log.token", { what: de(bare(tok)) });
  const area = (name) => name; // the map's Latin names, in every language
  const where = (name) => t(DATA.seas[AREA_ID.get(name)] ? "mn.log.atSea" : "mn.log.inProvince", { area: area(name) });
  const slot = (text, form) => {
    let m = /^(\w+) caravan$/.exec(text);
    if (m) return t(`mn.log.${form}.caravan`, { good: de(bare(m[1])) });
    m = /^legendary city (\w+)$/.exec(text);
    if (m) return t(`mn.log.${form}.legendary_city`, { name: m[1] });
    return t(`mn.log.${form}.${text}`);
  };
  const list = (items) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} ${t("mn.log.and")} ${items[items.length - 1]}` : items[0] || "");
  const tile = (name) => tileName(TILE_ID.get(name));
  const faces = (g) => g.faces + (g.total ? t("mn.log.total", { n: g.total }) : "");
  /** The pieces of `text` matched one after another by `re` (anchored; eats its separator), or null. */
  const each = (text, re, fn) => {
    const out = [];
    let rest = text;
    while (rest) {
      const m = re.exec(rest);
      if (!m) return null;
      out.push(fn(m.groups));
      rest = rest.slice(m[0].length);
    }
    return out;
  };
  return { seat, to, bare, token, area, where, slot, list, tile, de, faces, each };
}

/** [regex, key, params(groups, phrases)]; the first that matches wins (more specific first). */
function patterns(t) {
  const W = (k = "who") => `(?<${k}>${WHO})`;
  const A = (k = "area") => `(?<${k}>${AREA})`;
  const K = (k = "tok") => `(?<${k}>${TOK})`;
  const S = (k = "slot") => `(?<${k}>${SLOT})`;
  const R = (src) => new RegExp(`^${src}$`);
  const cheap = (g) => (g.cheap ? t("mn.log.cheap") : "");
  return [
    [R(`Empires are dealt: (?<list>.+)`), "dealt", (g, p) => ({ list: g.list.split(", ").map((x) => { const m = /^(.+) to seat (\d+)$/.exec(x); return m ? t("mn.log.dealtItem", { empire: t(`mn.log.empire.${EMPIRE_ID.get(m[1])}`), n: Number(m[2]) + 1 }) : null; }).join(", ") })],
    [R(`${W()} takes (?<emp>${EMP})`), "chooses", (g, p) => ({ who: p.seat(g.who), empire: t(`mn.log.empire.${EMPIRE_ID.get(g.emp)}`) })],
    [R(`(?<tile>${TILE}) is turned face up in the display`), "reveal", (g, p) => ({ tile: p.tile(g.tile) })],
    [R(`${W()} copies nothing this round`), "copyNone", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} copies (?<tile>${TILE}) this round`), "copy", (g, p) => ({ who: p.seat(g.who), tile: p.tile(g.tile) })],
    [R(`${W()} draws a legendary (?<good>${GOOD})`), "drawNamed", (g, p) => ({ who: p.seat(g.who), tok: p.token(`legendary ${g.good}`) })],
    [R(`${W()} draws a legendary good`), "draw", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} takes an extra tax`), "extraTax", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} takes an extra legendary good`), "extraDraw", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} takes a good with the Colossus`), "colossus", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} takes ${K()} with the Colossus`), "colossusNamed", (g, p) => ({ who: p.seat(g.who), tok: p.token(g.tok) })],
    [R(`${W()} plays trade token (?<tk>[A-C]) with value (?<v>\\d+)`), "tradeToken", (g, p) => ({ who: p.seat(g.who), tk: g.tk, v: g.v })],
    [R(`${W()} offers (?<n>\\d+) tokens?`), "offerSize", (g, p) => ({ who: p.seat(g.who), n: g.n, tokens: t(Number(g.n) > 1 ? "mn.log.tokens" : "mn.log.tokenOne") })],
    [R(`${W()} offers ${K()}`), "offer", (g, p) => ({ who: p.seat(g.who), tok: p.token(g.tok) })],
    [R(`${W()} adds a token to its secret offer`), "offerSecret", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} names ${W("to")} to start taking`), "starter", (g, p) => ({ who: p.seat(g.who), to: p.seat(g.to) })],
    [R(`${W()} takes ${K()} from ${W("from")}`), "take", (g, p) => ({ who: p.seat(g.who), tok: p.token(g.tok), from: p.to(p.seat(g.from)) })],
    [R(`${W()} gives ${K()}`), "give", (g, p) => ({ who: p.seat(g.who), tok: p.token(g.tok) })],
    [R(`${W()} buys first \\(Perseus\\)`), "firstYes", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} does not buy first \\(Perseus\\)`), "firstNo", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} goes next`), "nextSelf", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} lets ${W("to")} go next`), "next", (g, p) => ({ who: p.seat(g.who), to: p.seat(g.to) })],
    [R(`${W()} builds an? ${S()} in ${A()}(?<cheap> at the reduced cost)?`), "build", (g, p) => ({ who: p.seat(g.who), slot: p.slot(g.slot, "a"), where: p.where(g.area), cheap: cheap(g) })],
    [R(`${W()} places a free marker in ${A()}`), "freeMarker", (g, p) => ({ who: p.seat(g.who), where: p.where(g.area) })],
    [R(`${W()} places a free legion in ${A()}`), "freeLegion", (g, p) => ({ who: p.seat(g.who), where: p.where(g.area) })],
    [R(`${W()} buys the Pyramids`), "buyPyramids", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} buys an influence marker for ${A()}`), "buyMarker", (g, p) => ({ who: p.seat(g.who), area: p.area(g.area) })],
    [R(`${W()} buys an? (?<unit>legion|trireme|fortress) in ${A()}(?<cheap> at the reduced cost)?`), "buyUnit", (g, p) => ({ who: p.seat(g.who), unit: t(`mn.log.a.${g.unit}`), where: p.where(g.area), cheap: cheap(g) })],
    [R(`${W()} buys (?<tile>${TILE})`), "buyTile", (g, p) => ({ who: p.seat(g.who), tile: p.tile(g.tile) })],
    [R(`${W()} pays ${K()}`), "pay", (g, p) => ({ who: p.seat(g.who), tok: p.token(g.tok) })],
    [R(`${W()} ends its turn`), "end", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} keeps nothing and discards the rest`), "keepNone", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} keeps 0 tokens and discards the rest`), "keepNone", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} keeps (?<n>\\d+) tokens? and discards the rest`), "keepCount", (g, p) => ({ who: p.seat(g.who), n: g.n, tokens: t(Number(g.n) > 1 ? "mn.log.tokens" : "mn.log.tokenOne") })],
    [R(`${W()} keeps (?<list>(?:${TOK})(?:, (?:${TOK}))*) and discards the rest`), "keep", (g, p) => ({ who: p.seat(g.who), list: p.list(g.list.split(", ").map(p.token)) })],
    [R(`${W()} uses Zeus on nobody`), "zeusNone", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} uses Zeus: ${W("to")} moves first`), "zeus", (g, p) => ({ who: p.seat(g.who), to: p.seat(g.to) })],
    [R(`${W()} is done with this step`), "done", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} converts the conquered province`), "convertHere", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} converts ${A()}`), "convert", (g, p) => ({ who: p.seat(g.who), area: p.area(g.area) })],
    [R(`${W()} rows a trireme from ${A("from")} to ${A("to")}`), "row", (g, p) => ({ who: p.seat(g.who), from: p.de(p.area(g.from)), to: p.area(g.to) })],
    [R(`${W()} attacks ${W("def")} in ${A()}`), "attack", (g, p) => ({ who: p.seat(g.who), def: p.seat(g.def), where: p.where(g.area) })],
    [
      R(`${W()} (?<how>marches|sails) a legion from ${A("from")} to ${A("to")}(?: onto (?:(?<marker>its marker)|the ${S()}))?`),
      "move",
      (g, p) => ({
        who: p.seat(g.who),
        how: t(g.how === "marches" ? "mn.log.marches" : "mn.log.sails"),
        from: p.de(p.area(g.from)),
        to: p.area(g.to),
        onto: g.marker ? t("mn.log.ontoMarker") : g.slot ? t("mn.log.onto", { slot: p.slot(g.slot, "the") }) : "",
      }),
    ],
    [R(`${W()} rolls (?<face>\\d+)`), "rollsOne", (g, p) => ({ who: p.seat(g.who), face: g.face })],
    [R(`${W()} rolls ${FACES}`), "rolls", (g, p) => ({ who: p.seat(g.who), faces: p.faces(g) })],
    [R(`Dice: ${FACES}`), "dice", (g, p) => ({ faces: p.faces(g) })],
    [
      R(`Result in ${A()}: (?<sides>.+); hits taken: (?<hits>.+)`),
      "result",
      (g, p) => {
        const sides = p.each(g.sides, SIDE, (m) => t("mn.log.side", { who: p.seat(m.who), dice: m.dice === "no dice" ? t("mn.log.noDice") : m.dice, bonus: m.bonus ? ` + ${m.bonus}` : "", total: m.total ? ` = ${m.total}` : "" }));
        const hits = p.each(g.hits, HIT, (m) => t("mn.log.hit", { who: p.seat(m.who), n: m.n }));
        return sides && hits ? { where: p.where(g.area), sides: sides.join(t("mn.log.against")), hits: hits.join(", ") } : null;
      },
    ],
    [R(`${W()} loses a free legion`), "loseFree", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} loses the legion on its marker`), "loseMarker", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} loses the legion on the ${S()}`), "loseSlot", (g, p) => ({ who: p.seat(g.who), slot: p.slot(g.slot, "the") })],
    [
      R(`${W()} pillages the ${S()}(?: and takes (?<gain>(?:tax|draw)(?: and (?:tax|draw))*))?`),
      "pillage",
      (g, p) => ({ who: p.seat(g.who), slot: p.slot(g.slot, "the"), gain: g.gain ? t("mn.log.andTakes", { what: p.list(g.gain.split(" and ").map((x) => t(`mn.log.gain.${x}`))) }) : "" }),
    ],
    [R(`${W()} occupies the (?<slots>(?:${SLOT})(?: and the (?:${SLOT}))*)`), "occupy", (g, p) => ({ who: p.seat(g.who), slots: p.list(g.slots.split(" and the ").map((x) => p.slot(x, "the"))) })],
    [R(`${W()} passes`), "pass", (g, p) => ({ who: p.seat(g.who) })],
    [R(`${W()} uses Circe on the ${S()} in ${A()}`), "circe", (g, p) => ({ who: p.seat(g.who), slot: p.slot(g.slot, "the"), where: p.where(g.area) })],
    [R(`${W()} takes the (?<track>trade|culture|military) title(?<lot> by lot)?`), "title", (g, p) => ({ who: p.seat(g.who), title: t(`mn.title.${g.track}`).replace(/^./, (c) => c.toLowerCase()), lot: g.lot ? t("mn.log.byLot") : "" })],
    [R(`${W()} wins the tie`), "winsTie", (g, p) => ({ who: p.seat(g.who) })],
    [
      R(`Offers revealed: (?<list>.+)`),
      "revealed",
      (g, p) => {
        const parts = [];
        for (const item of g.list.split("; ")) {
          const m = new RegExp(`^(?<who>${WHO}) (?<toks>nothing|(?:${TOK})(?:, (?:${TOK}))*)$`).exec(item);
          if (!m) return null;
          const toks = m.groups.toks === "nothing" ? t("mn.nothing") : m.groups.toks.split(", ").map(p.bare).join(", ");
          parts.push(t("mn.log.revealedItem", { who: p.seat(m.groups.who), toks }));
        }
        return { list: parts.join(" ; ") };
      },
    ],
    [R(`Round (?<n>\\d+) begins`), "round", (g) => ({ n: g.n })],
    [R(`Game over: ${W()} wins`), "overWins", (g, p) => ({ who: p.seat(g.who) })],
    [R(`Game over`), "over", () => ({})],
  ].map(([re, key, params]) => [re, `mn.log.${key}`, params]);
}

let cache = null;

/** `sentence` in language `lang`. */
export function translateSentence(t, lang, sentence) {
  if (!sentence) return sentence;
  if (lang !== "fr") return englishSeats(sentence);
  if (!cache || cache.t !== t) cache = { t, p: patterns(t), ph: phrases(t), done: new Map() };
  if (cache.done.has(sentence)) return cache.done.get(sentence);
  let out = englishSeats(sentence);
  for (const [re, key, params] of cache.p) {
    const m = re.exec(sentence);
    if (!m) continue;
    const values = params(m.groups || {}, cache.ph);
    if (values) {
      const text = t(key, values);
      out = text.charAt(0).toUpperCase() + text.slice(1);
      break;
    }
  }
  if (cache.done.size > 5000) cache.done.clear();
  cache.done.set(sentence, out);
  return out;
}
