// Log sentences. The server sends one English sentence per log entry; this turns them into the
// current language by pattern. A server without sentences for this game repeats the notation
// (`place babylon`): those are made readable here, in every language. Unknown sentences stay as
// they are.

import { areaName, peopleName, symbolName } from "./labels.js";
import { parseAction } from "./notation.js";

/** A readable sentence for a bare notation text (no subject: the log shows who acted). */
function fromNotation(t, data, text) {
  const a = parseAction(text);
  switch (a.kind) {
    case "deal":
      return a.people ? t("epochs.log.n.dealNamed", { player: symbolName(t, a.symbol), people: peopleName(t, data, a.people) }) : t("epochs.log.n.deal", { player: symbolName(t, a.symbol) });
    case "draw":
      return a.people ? t("epochs.log.n.drawNamed", { people: peopleName(t, data, a.people) }) : t("epochs.log.n.draw");
    case "keep":
      return t("epochs.log.n.keep");
    case "pass":
      return t("epochs.log.n.pass", { player: symbolName(t, a.symbol) });
    case "land":
      return t("epochs.log.n.land", { area: areaName(t, data, a.area) });
    case "displace":
      return t("epochs.log.n.displace", { area: areaName(t, data, a.area) });
    case "remove":
      return t("epochs.log.n.remove");
    case "place":
      return t("epochs.log.n.place", { area: areaName(t, data, a.area) });
    case "stop":
      return t("epochs.log.n.stop");
    case "roll":
      if (!a.dice) return null;
      return t("epochs.log.n.roll", { attack: a.dice.attack.join(t("epochs.and")), defence: a.dice.defence.join(t("epochs.and")) });
    default:
      return null;
  }
}

const NOTATION = /^(deal \S+ \S+|draw \S+|keep|pass \S+|land \S+|displace \S+|remove|place \S+|stop|roll \d+,\d+ \d+(,\d+)?)$/;

let cache = null;

function names(data) {
  // every name a sentence may carry, longest first so that "Sea Peoples" wins over shorter ones
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const areas = [...data.areas.values()].map((a) => [a.name, a.id]);
  const peoples = [...data.people.values()].map((p) => [p.name, p.id]);
  const alt = (list) => list.map(([n]) => n).sort((x, y) => y.length - x.length).map(esc).join("|");
  return { areaRe: alt(areas), peopleRe: alt(peoples), areaId: new Map(areas), peopleId: new Map(peoples) };
}

const SYMBOL_RE = "Brooch|Head|Mask|Statue|Urn";

/** [regex, i18n key, params(match groups)] for the server's English sentences (describe.py). */
function patterns(t, data) {
  const n = names(data);
  const P = (k = "people") => `the (?<${k}>${n.peopleRe})`;
  const A = (k = "area") => `(?<${k}>${n.areaRe})`;
  const W = (k = "who") => `(?<${k}>${SYMBOL_RE})`;
  const area = (g, k = "area") => areaName(t, data, n.areaId.get(g[k]));
  const people = (g, k = "people") => peopleName(t, data, n.peopleId.get(g[k]));
  const who = (g, k = "who") => symbolName(t, g[k].toLowerCase());
  const tribes = (x) => t(Number(x) === 1 ? "epochs.log.tribe" : "epochs.log.tribes", { n: x });
  const symList = (text) => text.split(", ").map((x) => symbolName(t, x.toLowerCase())).join(", ");
  const scores = (text) => (text ? ` (${text.split(", ").map((x) => x.replace(/^(\w+)/, (w) => symbolName(t, w.toLowerCase()))).join(", ")})` : "");
  const faces = (g) => ({
    attack: g.att.split(" and ").join(t("epochs.and")),
    defence: g.def.split(" and ").join(t("epochs.and")),
    mil: g.mil ? t("epochs.log.withMilitary") : "",
  });
  const R = (src) => new RegExp(`^${src}$`);
  const list = [
    [R(`${W()} is dealt ${P()}`), "dealtNamed", (g) => ({ who: who(g), people: people(g) })],
    [R(`${W()} is dealt a card`), "dealt", (g) => ({ who: who(g) })],
    [R(`${W()} draws ${P()}(?<last> \\(the last card\\))?`), "drawsNamed", (g) => ({ who: who(g), people: people(g), last: g.last ? t("epochs.log.lastCard") : "" })],
    [R(`${W()} draws a card(?<last> \\(the last card\\))?`), "draws", (g) => ({ who: who(g), last: g.last ? t("epochs.log.lastCard") : "" })],
    [R(`${W()} keeps ${P()}`), "keepsNamed", (g) => ({ who: who(g), people: people(g) })],
    [R(`${W()} keeps the card`), "keeps", (g) => ({ who: who(g) })],
    [R(`${W()} passes ${P()} to ${W("to")}(?<forced> \\(forced: they already hold a card, R9\\))?`), "passesNamed", (g) => ({ who: who(g), people: people(g), to: who(g, "to"), forced: g.forced ? t("epochs.log.forced") : "" })],
    [R(`${W()} passes a card to ${W("to")}(?<forced> \\(forced: they already hold a card, R9\\))?`), "passes", (g) => ({ who: who(g), to: who(g, "to"), forced: g.forced ? t("epochs.log.forced") : "" })],
    [R(`The (?<people>${n.peopleRe}) \\(${W()}\\) come ashore at ${A()}`), "ashore", (g) => ({ who: who(g), people: people(g), area: area(g) })],
    [R(`${W()} moves a displaced tribe of ${P()} from ${A()} to ${A("to")}(?<only> \\(its only way out\\))?`), "displaced", (g) => ({ who: who(g), people: people(g), area: area(g), to: area(g, "to"), only: g.only ? t("epochs.log.onlyWay") : "" })],
    [R(`A displaced tribe of ${P()} in ${A()} has nowhere to go and is removed`), "removed", (g) => ({ people: people(g), area: area(g) })],
    [R(`The (?<people>${n.peopleRe}) place a tribe in ${A()}(?<sea> by sea)?`), "place", (g) => ({ people: people(g), area: area(g), sea: g.sea ? t("epochs.log.bySea") : "" })],
    [R(`The (?<people>${n.peopleRe}) add a tribe to ${A()} \\((?<n>\\d+) there\\)`), "reinforce", (g) => ({ people: people(g), area: area(g), n: g.n })],
    [R(`The (?<people>${n.peopleRe}) attack ${A()}, held by (?<n>\\d+) tribes? of ${P("def")}(?: \\(${W()}\\))?`), "attack", (g) => ({ people: people(g), area: area(g), tribes: tribes(g.n), def: people(g, "def"), owner: g.who ? t("epochs.log.owner", { who: who(g) }) : "" })],
    [R(`The (?<people>${n.peopleRe}) stop placing(?:; (?<n>\\d+) unplaced tribes? (?:are|is) discarded)?`), "stop", (g) => ({ people: people(g), lost: g.n ? t("epochs.log.discarded", { tribes: tribes(g.n) }) : "" })],
    [
      R(`The (?<people>${n.peopleRe}) attack ${A()}(?: from (?:${A("from")}|(?<sea>the sea)))?: (?<att>\\d+ and \\d+)(?<mil> with Military)? against (?<def>\\d+(?: and \\d+)?), (?<result>.+?)(?<urb> \\(Urbanisation breaks the tie\\))?`),
      "roll",
      (g) => {
        let result = g.result;
        let m;
        const a = area(g);
        if ((m = /^a tie: each side loses a tribe(, and .+ is left empty)?$/.exec(result))) result = t(m[1] ? "epochs.log.r.tieEmpty" : "epochs.log.r.tie", { area: a });
        else if (/^the attacker wins and takes /.test(result)) result = t("epochs.log.r.takes", { area: a });
        else if ((m = /^the attacker wins: (\d+) defending tribes? left, the attack goes on$/.exec(result))) result = t("epochs.log.r.goesOn", { tribes: tribes(m[1]) });
        else if (/^the defender wins: the attacking tribe is lost$/.test(result)) result = t("epochs.log.r.lost");
        else return null;
        const from = g.from ? t("epochs.log.from", { area: area(g, "from") }) : g.sea ? t("epochs.log.fromSea") : "";
        return { people: people(g), area: a, from, ...faces(g), result, urb: g.urb ? t("epochs.log.urbanisation") : "" };
      },
    ],
    [R(`The (?<people>${n.peopleRe}) score (?<n>\\d+) VP(?: \\(${W()} now has (?<total>\\d+)\\))?`), "score", (g) => ({ people: people(g), n: g.n, total: g.who ? t("epochs.log.total", { who: who(g), n: g.total }) : "" })],
    [R(`Epoch (?<n>\\d) ends`), "epochEnds", (g) => ({ n: g.n })],
    [R(`Set aside, never in play: (?<list>.+)`), "setAside", (g) => ({ list: g.list.split(", ").map((x) => t("epochs.log.the", { people: peopleName(t, data, n.peopleId.get(x.replace(/^the /, ""))) })).join(", ") })],
    [R(`Game over: (?<who>${SYMBOL_RE}) wins with (?<n>\\d+) VP(?: \\((?<rest>.+)\\))?`), "wins", (g) => ({ who: who(g), n: g.n, rest: scores(g.rest) })],
    [R(`Game over: (?<list>.+) share the victory with (?<n>\\d+) VP(?: \\((?<rest>.+)\\))?`), "shared", (g) => ({ list: g.list.split(" and ").map((x) => symbolName(t, x.toLowerCase())).join(t("epochs.and")), n: g.n, rest: scores(g.rest) })],
    [R(`Epoch (?<n>\\d) begins: cards are drawn in the order (?<list>.+) \\(fewest VP first\\)`), "epochBegins", (g) => ({ n: g.n, list: symList(g.list) })],
    [R(`The deal of Epoch (?<n>\\d) is complete`), "dealDone", (g) => ({ n: g.n })],
    [R(`${W()} holds ${P()} this Epoch`), "holds", (g) => ({ who: who(g), people: people(g) })],
    [R(`Round #(?<n>\\d+): ${P()} \\(${W()}\\) start at sea and choose a coast to land on \\((?<pool>\\d+) tribes?\\)`), "roundSea", (g) => ({ n: g.n, people: people(g), who: who(g), tribes: tribes(g.pool) })],
    [R(`Round #(?<n>\\d+): ${P()}(?: \\(${W()}\\))?(?:, enter at ${A()})?, (?<pool>\\d+) tribes? to place`), "round", (g) => ({ n: g.n, people: people(g), owner: g.who ? t("epochs.log.owner", { who: who(g) }) : "", enter: g.area ? t("epochs.log.enter", { area: area(g) }) : "", tribes: tribes(g.pool) })],
    [R(`${W()}'s card is turned face up: ${P()}`), "faceUp", (g) => ({ who: who(g), people: people(g) })],
    [R(`${W()}: (?<text>.+)`), "other", (g) => ({ who: who(g), text: fromNotation(t, data, g.text) ?? g.text })],
  ];
  return list.map(([re, key, params]) => [re, `epochs.log.${key}`, params]);
}

/** `sentence` in the current language. */
export function translateSentence(t, lang, sentence, data) {
  if (!sentence) return sentence;
  if (NOTATION.test(sentence.trim())) return fromNotation(t, data, sentence.trim()) ?? sentence;
  if (lang === "en") return sentence;
  if (!cache || cache.t !== t || cache.lang !== lang || cache.data !== data) cache = { t, lang, data, p: patterns(t, data), done: new Map() };
  if (cache.done.has(sentence)) return cache.done.get(sentence);
  let out = sentence;
  for (const [re, key, params] of cache.p) {
    const m = re.exec(sentence);
    if (!m) continue;
    const values = params(m.groups || {}, m);
    if (values) {
      out = t(key, values);
      break;
    }
  }
  if (cache.done.size > 5000) cache.done.clear();
  cache.done.set(sentence, out);
  return out;
}
