// Log sentences come from the server in English (ziggurat.games.mesopotamia.describe); this
// translates them for the other languages by pattern. Unknown sentences stay as they are.

const WHO = "(?<who>Blue|Yellow|Red|Green)";
const C = "(-?\\d+,-?\\d+)";
const COLOUR = { Blue: "blue", Yellow: "yellow", Red: "red", Green: "green" };
const CARD = "(?<card>Endurance|Priest|Fertility|Holy Stone|Land|Mana Theft|Teleport|Expulsion)";
const MANA = "Mana (?<mana>\\d+)/(?<limit>\\d+)";

function cardId(name) {
  return name.toLowerCase().replace(/ /g, "_");
}

/** [regex, i18n key, extra params from the match] */
function patterns(t) {
  const who = (g) => t(`colour.${COLOUR[g.who]}`);
  const res = (word, form) => t(`meso.log.res.${form}.${word}`);
  const cargo = (phrase) => (phrase ? t(`meso.log.cargo.${phrase.trim().split(" ").pop()}`) : "");
  const mana = (g) => t("meso.log.mana", { mana: g.mana, limit: g.limit });
  const worth = (w) => (w === "of hidden value" ? t("meso.log.hiddenValue") : t("meso.log.worth", { v: w.replace("worth ", "") }));
  const tiles = (list) => list.split(", ").map((x) => t(`meso.tile.${x}`).toLowerCase()).join(", ");
  return [
    [new RegExp(`^${WHO} puts the offering worth (\\d+) under the new hut$`), "offerWorth", (g, m) => ({ v: m[2] })],
    [new RegExp(`^${WHO} puts an offering under the new hut$`), "offer"],
    [new RegExp(`^${WHO} draws a card: ${CARD}$`), "cardNamed", (g) => ({ card: t(`meso.card.${cardId(g.card)}`) })],
    [new RegExp(`^${WHO} draws a card$`), "card"],
    [new RegExp(`^${WHO} looks at a tile of the pile: (\\w+)$`), "peekNamed", (g, m) => ({ tile: t(`meso.tile.${m[2]}`).toLowerCase() })],
    [new RegExp(`^${WHO} looks at a tile of the pile$`), "peek"],
    [new RegExp(`^${WHO} puts the peeked tiles back as (.+) \\(top first\\)$`), "orderNamed", (g, m) => ({ tiles: tiles(m[2]) })],
    [new RegExp(`^${WHO} puts the peeked tiles back$`), "order"],
    [new RegExp(`^${WHO} is dealt a card: ${CARD}$`), "dealtNamed", (g) => ({ card: t(`meso.card.${cardId(g.card)}`) })],
    [new RegExp(`^(?:${WHO}|A player) is dealt a card$`), "dealt"],
    [new RegExp(`^${WHO} plays first \\(turn order (.+)\\)$`), "first", (g, m) => ({ list: m[2].split(", ").map((c) => t(`colour.${COLOUR[c]}`)).join(", ") })],
    [new RegExp(`^${WHO} explores from ${C} towards ${C}$`), "explore", (g, m) => ({ c: m[2], d: m[3] })],
    [new RegExp(`^${WHO} moves a tribe from ${C} onto the temple ${C}$`), "moveTemple", (g, m) => ({ c: m[2], d: m[3] })],
    [new RegExp(`^${WHO} moves a tribe( carrying (?:wood|stone|an offering))? from ${C} to ${C}$`), "move", (g, m) => ({ cargo: cargo(m[2]), c: m[3], d: m[4] })],
    [new RegExp(`^${WHO} donates a stone at the temple \\(${MANA}\\)$`), "donate", (g) => ({ m: mana(g) })],
    [new RegExp(`^${WHO} delivers an offering (worth \\d+|of hidden value) at the temple \\(${MANA}\\)$`), "deliver", (g, m) => ({ worth: worth(m[2]), m: mana(g) })],
    [new RegExp(`^${WHO}'s delivery of an offering (worth \\d+|of hidden value) fails with Mana (\\d+); the tribe returns to ${C}$`), "deliveryFails", (g, m) => ({ worth: worth(m[2]), n: m[3], c: m[4] })],
    [new RegExp(`^${WHO} draws a tile from pile (\\d+)$`), "pile", (g, m) => ({ n: m[2] })],
    [/^The tile is a volcano: it must be placed elsewhere \(M7\.3\)$/, "tileVolcano"],
    [new RegExp(`^The tile is a (plains|forest|quarry): placed(?: at ${C})?, the tribe moves in(?: \\((wood|stone): (.+)\\))?$`), "tile", (g, m) => ({
      tile: t(`meso.log.tileA.${m[1]}`),
      where: m[2] ? t("meso.log.at", { c: m[2] }) : "",
      gains: m[3] ? ` (${t(`meso.log.gain.${m[3]}`)} ${m[4]})` : "",
    })],
    [new RegExp(`^${WHO} places the volcano on ${C}$`), "volcano", (g, m) => ({ c: m[2] })],
    [new RegExp(`^${WHO} gives one (wood|stone) to ${C}$`), "share", (g, m) => ({ res: res(m[2], "one"), c: m[3] })],
    [new RegExp(`^${WHO} picks up a (wood|stone) on ${C}$`), "pickup", (g, m) => ({ res: res(m[2], "a"), c: m[3] })],
    [new RegExp(`^${WHO} drops a (wood|stone|offering) on ${C}$`), "drop", (g, m) => ({ res: res(m[2], "a"), c: m[3] })],
    [new RegExp(`^${WHO} exchanges a (wood|stone|offering) for a (wood|stone) on ${C}$`), "exchange", (g, m) => ({ res: res(m[2], "a"), other: res(m[3], "a"), c: m[4] })],
    [new RegExp(`^${WHO} hands a (wood|stone|offering) to another tribe on ${C}$`), "handoff", (g, m) => ({ res: res(m[2], "a"), c: m[3] })],
    [new RegExp(`^${WHO} steals a (wood|stone|offering) from (Blue|Yellow|Red|Green) on ${C}$`), "steal", (g, m) => ({ res: res(m[2], "a"), victim: t(`colour.${COLOUR[m[3]]}`), c: m[4] })],
    [new RegExp(`^${WHO} picks up the offering(?: \\(worth (\\d+)\\))? under hut (\\w+) on ${C}$`), "offering", (g, m) => ({ worth: m[2] ? t("meso.log.worthParen", { v: m[2] }) : "", h: m[3], c: m[4] })],
    [new RegExp(`^${WHO} ends Phase I \\(movement\\)$`), "endMovement"],
    [new RegExp(`^${WHO} ends the turn$`), "endTurn"],
    [new RegExp(`^${WHO} builds a hut on ${C}$`), "hut", (g, m) => ({ c: m[2] })],
    [new RegExp(`^${WHO} erects a holy place on ${C}$`), "holy", (g, m) => ({ c: m[2] })],
    [new RegExp(`^${WHO} grows the population on ${C}( with Fertility)?: \\+(\\d+) tribes?$`), "grow", (g, m) => ({ c: m[2], fert: m[3] ? t("meso.log.withFertility") : "", n: m[4], tribes: t(m[4] === "1" ? "meso.log.oneTribe" : "meso.log.tribes") })],
    [new RegExp(`^${WHO} chooses action D: draw a card$`), "drawAction"],
    [new RegExp(`^${WHO} passes Phase II$`), "pass"],
    [new RegExp(`^${WHO} stops resolving groups \\(end of Phase II\\)$`), "stop"],
    [new RegExp(`^${WHO} collects (\\d+) Mana of income \\(${MANA}\\)$`), "income", (g, m) => ({ n: m[2], m: mana(g) })],
    [new RegExp(`^${WHO} collects income \\(${MANA}\\)$`), "incomeNone", (g) => ({ m: mana(g) })],
    [new RegExp(`^${WHO} plays ${CARD}: \\+(\\d+) MP$`), "playMp", (g, m) => ({ n: m[3] })],
    [new RegExp(`^${WHO} plays ${CARD} \\(${MANA}\\)$`), "playMana", (g) => ({ m: mana(g) })],
    [new RegExp(`^${WHO} plays ${CARD} on the holy place at ${C}$`), "playPriest", (g, m) => ({ c: m[3] })],
    [new RegExp(`^${WHO} plays ${CARD} on (Blue|Yellow|Red|Green), who loses (\\d+) Mana \\((?:Blue|Yellow|Red|Green) now ${MANA}\\)$`), "playTheft", (g, m) => ({ victim: t(`colour.${COLOUR[m[3]]}`), n: m[4], m: mana(g) })],
    [new RegExp(`^${WHO} plays ${CARD} on pile (\\d+)$`), "playLand", (g, m) => ({ n: m[3] })],
    [new RegExp(`^${WHO} plays ${CARD} on a (Blue|Yellow|Red|Green) tribe( carrying (?:wood|stone|an offering))? at ${C}$`), "playTeleport", (g, m) => ({ colour: t(`colourAdj.${COLOUR[m[3]]}`), cargo: cargo(m[4]), c: m[5] })],
    [new RegExp(`^${WHO} plays ${CARD} on hut (\\w+)(?: on ${C})?$`), "playExpulsion", (g, m) => ({ h: m[3], where: m[4] ? t("meso.log.at", { c: m[4] }) : "" })],
    [new RegExp(`^${WHO} plays ${CARD}$`), "play"],
    [new RegExp(`^${WHO} teleports the (Blue|Yellow|Red|Green) tribe from ${C} to ${C}$`), "teleports", (g, m) => ({ colour: t(`colourAdj.${COLOUR[m[2]]}`), c: m[3], d: m[4] })],
    [new RegExp(`^${WHO} moves hut (\\w+) to ${C}$`), "movesHut", (g, m) => ({ h: m[2], c: m[3] })],
    [new RegExp(`^${WHO} chooses ${C}$`), "chooses", (g, m) => ({ c: m[2] })],
    [new RegExp(`^${WHO} has delivered every offering and wins the game \\(M16\\.1\\)$`), "wins"],
  ].map(([re, key, extra]) => [re, key, (g, m) => ({ who: g.who ? who(g) : t("meso.log.aPlayer"), card: g.card ? t(`meso.card.${cardId(g.card)}`) : "", ...(extra ? extra(g, m) : {}) })]);
}

let cache = null;

/** `sentence` in the current language (English sentences are returned as they are). */
export function translateSentence(t, lang, sentence) {
  if (!sentence || lang === "en") return sentence;
  if (!cache || cache.t !== t || cache.lang !== lang) cache = { t, lang, list: patterns(t) };
  const tele = /^Teleported from (-?\d+,-?\d+): (.+)$/.exec(sentence);
  if (tele) return t("meso.log.teleported", { c: tele[1], arrival: translateSentence(t, lang, tele[2]) });
  for (const [re, key, params] of cache.list) {
    const m = re.exec(sentence);
    if (m) return t(`meso.log.${key}`, params(m.groups || {}, m));
  }
  return sentence;
}
