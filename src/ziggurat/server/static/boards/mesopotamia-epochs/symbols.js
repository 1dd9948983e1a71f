// The five player symbols of Mesopotamia: Epochs (rules §2.3, E1.2, R45): what they are, the
// pattern and outline that mark each player's areas on the map (so owners read at a glance
// without telling colours apart), the map's legend, and the lobby's explanation of the symbols.
// Light on purpose: the lobby imports it (dom.js and i18n.js only).

import { boardStyles, h, s } from "../../dom.js";
import { STRINGS, t } from "../../i18n.js";

/** The symbols in seat order (seat 1 is Brooch, R45: dealt in seat order). */
export const SYMBOLS = ["brooch", "head", "mask", "statue", "urn"];

Object.assign(STRINGS.en, {
  "epochs.symbols.title": "Players are symbols: Brooch, Head, Mask, Statue, Urn",
  "epochs.symbols.help":
    "In Mesopotamia: Epochs a player is not a colour but a symbol, dealt in seat order. Your symbol is printed on every tribe you own, whatever its People, and the counters' colour only tells the People's Epoch. On the map each player's areas also carry that player's pattern and outline. Symbols change nothing in the rules (§2.3, R45).",
  "epochs.symbols.seat": "Seat {n}: {symbol}",
  "epochs.symbols.pattern.brooch": "diagonal stripes, solid outline",
  "epochs.symbols.pattern.head": "dots, dotted outline",
  "epochs.symbols.pattern.mask": "horizontal stripes, dashed outline",
  "epochs.symbols.pattern.statue": "cross-hatching, dash-dot outline",
  "epochs.symbols.pattern.urn": "vertical stripes, dash-dot-dot outline",
  "epochs.legend.title": "Who holds the areas",
  "epochs.legend.you": "you",
  "epochs.heldBy": "held by {player}",
});
Object.assign(STRINGS.fr, {
  "epochs.symbols.title": "Les joueurs sont des symboles : Broche, Tête, Masque, Statue, Urne",
  "epochs.symbols.help":
    "Dans Mésopotamie : Époques, un joueur n'est pas une couleur mais un symbole, attribué dans l'ordre des places. Votre symbole est imprimé sur chaque tribu que vous possédez, quel que soit son Peuple, et la couleur des pions indique seulement l'Époque du Peuple. Sur la carte, les régions de chaque joueur portent aussi son motif et son contour. Les symboles ne changent rien aux règles (§2.3, R45).",
  "epochs.symbols.seat": "Place {n} : {symbol}",
  "epochs.symbols.pattern.brooch": "rayures en biais, contour plein",
  "epochs.symbols.pattern.head": "points, contour pointillé",
  "epochs.symbols.pattern.mask": "rayures horizontales, contour en tirets",
  "epochs.symbols.pattern.statue": "hachures croisées, contour tiret-point",
  "epochs.symbols.pattern.urn": "rayures verticales, contour tiret-point-point",
  "epochs.legend.title": "Qui tient les régions",
  "epochs.legend.you": "vous",
  "epochs.heldBy": "tenue par {player}",
});

const INK = "#2b2419";

/** The fill pattern of a player's areas: `<pattern id="ep-own-<symbol>">` (userSpaceOnUse). */
function patternOf(symbol, id) {
  const line = (x1, y1, x2, y2, w = 2) => s("line", { x1, y1, x2, y2, stroke: INK, "stroke-width": w });
  const p = (attrs, ...kids) => s("pattern", { id, patternUnits: "userSpaceOnUse", ...attrs }, ...kids);
  switch (symbol) {
    case "brooch":
      return p({ width: 12, height: 12, patternTransform: "rotate(45)" }, line(0, 0, 0, 12, 2.4));
    case "head":
      return p({ width: 11, height: 11 }, s("circle", { cx: 5.5, cy: 5.5, r: 1.9, fill: INK }));
    case "mask":
      return p({ width: 12, height: 10 }, line(0, 5, 12, 5, 2.2));
    case "statue":
      return p({ width: 12, height: 12, patternTransform: "rotate(45)" }, line(0, 0, 0, 12, 1.6), line(0, 0, 12, 0, 1.6));
    case "urn":
      return p({ width: 11, height: 12 }, line(5.5, 0, 5.5, 12, 2.2));
    default:
      return p({ width: 10, height: 10 });
  }
}

/** The `<defs>` children for every symbol's pattern (ids `${prefix}<symbol>`). */
export function patternDefs(prefix = "ep-own-") {
  return SYMBOLS.map((sym) => patternOf(sym, `${prefix}${sym}`));
}

/** A small square showing a player's pattern and outline, for legends. */
export function patternSwatch(symbol, size = 22) {
  const id = `ep-sw-${symbol}-${Math.random().toString(36).slice(2, 8)}`;
  return s(
    "svg",
    { class: `owner-swatch p-${symbol}`, viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" },
    s("defs", {}, patternOf(symbol, id)),
    s("rect", { x: 2, y: 2, width: 20, height: 20, rx: 3, fill: "#eadfb4" }),
    s("rect", { x: 2, y: 2, width: 20, height: 20, rx: 3, fill: `url(#${id})`, class: "owner-fill" }),
    s("rect", { x: 2, y: 2, width: 20, height: 20, rx: 3, class: `owner-outline p-${symbol}`, fill: "none" }),
  );
}

/** Load the board's style sheet (the symbols' swatches and outlines) on a page without the board. */
function ensureStyles() {
  boardStyles("mesopotamia-epochs", new URL("./board.css", import.meta.url).pathname);
}

/**
 * The lobby's explanation of the symbols, appended to `container` when `gameId` is this game:
 * what a symbol is, and which symbol and pattern each of the `n` seats gets.
 */
export function explainSymbols(container, gameId, n = 5) {
  if (gameId !== "mesopotamia-epochs" || !container) return null;
  ensureStyles();
  const seats = SYMBOLS.slice(0, Math.max(1, Math.min(SYMBOLS.length, Number(n) || SYMBOLS.length)));
  const box = h(
    "details",
    { class: "symbols-help", open: true },
    h("summary", {}, t("epochs.symbols.title")),
    h("p", { class: "muted" }, t("epochs.symbols.help")),
    h(
      "ul",
      { class: "symbols-list" },
      seats.map((sym, i) =>
        h(
          "li",
          { dataset: { symbol: sym } },
          h("span", { class: `swatch sw-${sym}` }),
          " ",
          h("strong", {}, t("epochs.symbols.seat", { n: i + 1, symbol: t(`colour.${sym}`) })),
          " ",
          patternSwatch(sym, 18),
          " ",
          h("span", { class: "muted" }, t(`epochs.symbols.pattern.${sym}`)),
        ),
      ),
    ),
  );
  container.append(box);
  return box;
}
