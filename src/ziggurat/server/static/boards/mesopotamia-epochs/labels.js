// Readable, translated names and labels for Mesopotamia: Epochs: areas, Peoples, players, actions
// and the decision under way.

import { lang } from "../../i18n.js";
import { format, messagePattern } from "../../messages.js";
import { occupancy, owners } from "./data.js";
import { parseAction } from "./notation.js";

/** t(key), or `fallback` when no string has that key (a custom map's area, say). */
export function tr(t, key, fallback) {
  const v = t(key);
  return v === key ? fallback : v;
}

/**
 * The name of a packaged area or People in the current language, from the game's message
 * catalogue (the words of the log and the refusals); a name the table's own map or cards give
 * differently from the packaged one is shown as it is.
 */
function catalogueName(key, name) {
  const english = messagePattern("en", key);
  if (english === undefined || (name !== undefined && name !== english)) return name;
  return messagePattern(lang(), key) ?? english;
}

export function areaName(t, data, id) {
  return catalogueName(`epochs.area.${id}`, data?.areas.get(id)?.name) ?? id;
}

/**
 * A packaged area in the form a sentence needs, from the same catalogue as its name (so the log,
 * the refusals and the page word it alike): `In` after "in" ("in Ur"; French "à Ur", "en
 * Élam", "au Sinaï", "dans les Îles"), `The` as a subject or an object ("the Islands"; French
 * "l'Élam", "le Sinaï", "Ur"). An area the catalogue does not know (a table's own map) gets the
 * catalogue's neutral wording around its name (`epochs.nameIn`, `epochs.nameThe`).
 */
function areaForm(t, data, id, form) {
  const name = data?.areas.get(id)?.name;
  const english = messagePattern("en", `epochs.area.${id}`);
  if (english !== undefined && (name === undefined || name === english)) {
    const own = messagePattern(lang(), `epochs.area${form}.${id}`);
    if (own !== undefined) return own;
  }
  const bare = areaName(t, data, id);
  const generic = messagePattern(lang(), `epochs.name${form}`);
  return generic === undefined ? bare : format(generic, { name: bare }, lang());
}

/** The area after "in": "in Ur", French "à Ur", "en Élam", "dans les Îles". */
export function areaIn(t, data, id) {
  return areaForm(t, data, id, "In");
}

/** The area as a subject or an object: "the Islands", French "l'Élam", "le Sinaï", "Ur". */
export function areaThe(t, data, id) {
  return areaForm(t, data, id, "The");
}

/** The parameters naming area `id` in a sentence: {area} (the bare name), {areaIn}, {areaThe}. */
export function areaParams(t, data, id) {
  return { area: areaName(t, data, id), areaIn: areaIn(t, data, id), areaThe: areaThe(t, data, id) };
}

export function peopleName(t, data, id) {
  if (!id) return t("epochs.hiddenCard");
  return catalogueName(`epochs.people.${id}`, data?.people.get(id)?.name) ?? id;
}

export function symbolName(t, symbol) {
  return t(`colour.${symbol}`);
}

export function abilityName(t, id) {
  return tr(t, `epochs.ability.${id}`, id);
}

export function kindName(t, kind) {
  return t(`epochs.kind.${kind}`);
}

/** The People whose round it is, or null. */
export function activePeople(view) {
  return view?.phase === "strategy" && view.round ? view.round.people : null;
}

/** How many dice the defender of `area` would roll against the active People (E12.3, E12.4, R40). */
export function defenderDice(data, view, area, options = {}) {
  const p = activePeople(view);
  const occ = occupancy(view);
  const target = data.areas.get(area);
  if (!p || !target) return 1;
  const people = data.people.get(p);
  const seafaring = (people?.abilities || []).includes("seafaring");
  const held = [...occ].filter(([, [who]]) => who === p).map(([a]) => a);
  const holdsCoast = held.some((a) => data.areas.get(a)?.coastal);
  const seaRoute = !!target.coastal && ((seafaring && holdsCoast) || !!view.round?.sea_start);
  const routes = [];
  for (const a of held) {
    if ((data.areas.get(a)?.neighbours || []).includes(area)) routes.push(data.difficult.has(`${a}>${area}`) ? 2 : 1);
  }
  if (seaRoute) routes.push(options.sea_attack_extra_defender_die ? 2 : 1);
  return routes.length ? Math.min(...routes) : 1;
}

/** What placing into `area` means for the active People: {how: own | empty | attack, people, tribes, dice}. */
export function placeInfo(data, view, area, options) {
  const occ = occupancy(view).get(area);
  const p = activePeople(view);
  if (!occ) return { how: "empty", people: null, tribes: 0, dice: 0 };
  const [who, n] = occ;
  if (who === p) return { how: "own", people: who, tribes: n, dice: 0 };
  return { how: "attack", people: who, tribes: n, dice: defenderDice(data, view, area, options) };
}

/** A readable label for one legal action. */
export function actionLabel(t, text, view, data, options) {
  const a = parseAction(text);
  switch (a.kind) {
    case "keep": {
      const drawn = view?.pending?.[0] === "keep" ? view.pending[1] : null;
      return drawn ? t("epochs.act.keepNamed", { people: peopleName(t, data, drawn) }) : t("epochs.act.keep");
    }
    case "pass":
      return t("epochs.act.pass", { player: symbolName(t, a.symbol) });
    case "land":
      return t("epochs.act.land", areaParams(t, data, a.area));
    case "displace":
      return t("epochs.act.displace", areaParams(t, data, a.area));
    case "remove":
      return t("epochs.act.remove");
    case "place": {
      const info = placeInfo(data, view, a.area, options);
      const area = areaParams(t, data, a.area);
      if (info.how === "own") return t("epochs.act.reinforce", { ...area, n: info.tribes });
      if (info.how === "attack") {
        return t(info.dice > 1 ? "epochs.act.attackDifficult" : "epochs.act.attack", {
          ...area,
          n: info.tribes,
          people: peopleName(t, data, info.people),
        });
      }
      return t("epochs.act.place", area);
    }
    case "stop": {
      const pool = view?.round?.pool ?? 0;
      return pool > 0 ? t("epochs.act.stopLosing", { n: pool }) : t("epochs.act.stop");
    }
    case "deal":
      return t("epochs.act.deal", { player: symbolName(t, a.symbol) });
    case "draw":
      return t("epochs.act.draw");
    case "roll":
      return a.dice ? t("epochs.act.roll", { attack: a.dice.attack.join(", "), defence: a.dice.defence.join(", ") }) : text;
    default:
      return text;
  }
}

/** The question the decision under way asks this seat, or null. */
export function pendingQuestion(t, data, view) {
  const p = view?.pending;
  const active = activePeople(view);
  const own = owners(view);
  if (p?.[0] === "keep") {
    return t("epochs.q.keep");
  }
  if (p?.[0] === "landing") return t("epochs.q.landing", { people: peopleName(t, data, active) });
  if (p?.[0] === "displace") {
    const occ = occupancy(view).get(p[1]);
    return t("epochs.q.displace", { people: peopleName(t, data, occ?.[0]), ...areaParams(t, data, p[1]), start: peopleName(t, data, active) });
  }
  if (view?.phase === "strategy" && !p && active) {
    return t("epochs.q.place", { people: peopleName(t, data, active), n: view.round.pool, player: symbolName(t, own.get(active)) });
  }
  return null;
}
