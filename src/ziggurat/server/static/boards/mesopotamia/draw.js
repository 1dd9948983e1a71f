// SVG drawing of a Mesopotamia view: tiles, pieces, resources, highlights. Pure: view in, SVG out.

import { s } from "../../dom.js";
import { cargoText, colourName, hutText, offeringValue, tileName, tribeText } from "./labels.js";
import { COLOURS, NEIGHBOURS, hutToken, key, tribeToken } from "./notation.js";

export const R = 50; // hex circumradius in SVG units
const SQ3 = Math.sqrt(3);

export const PIECE_COLOURS = {
  blue: "#2563c9",
  yellow: "#f2c12e",
  red: "#d3352b",
  green: "#2f9a48",
  neutral: "#f3efe6",
};
const PIECE_DARK = { blue: "#0f2f66", yellow: "#6b5200", red: "#5c130e", green: "#0f4a1f", neutral: "#555" };

const TILE_FILL = {
  plains: "#e8dd9c",
  forest: "#6e9f4a",
  quarry: "#b8b2a7",
  volcano: "#4d302b",
  temple: "#e3bd6a",
};
const TILE_EDGE = {
  plains: "#8c7f36",
  forest: "#2f5a1f",
  quarry: "#625c52",
  volcano: "#1f1210",
  temple: "#8a5f12",
};

export function hexCenter(q, r) {
  return [1.5 * R * q, SQ3 * R * (r + q / 2)];
}

function hexPoints(rad = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(rad * Math.cos(a)).toFixed(2)},${(rad * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

// ---------------------------------------------------------------- tile backgrounds

function tree(x, y, k = 1) {
  return s(
    "g",
    { transform: `translate(${x},${y}) scale(${k})` },
    s("rect", { x: -1.5, y: 4, width: 3, height: 5, fill: "#5a3a1c" }),
    s("polygon", { points: "0,-10 8,5 -8,5", fill: "#234d17", stroke: "#173510", "stroke-width": 0.8 }),
    s("polygon", { points: "0,-14 6,-2 -6,-2", fill: "#2f6420", stroke: "#173510", "stroke-width": 0.8 }),
  );
}

function rock(x, y, k = 1) {
  return s(
    "g",
    { transform: `translate(${x},${y}) scale(${k})` },
    s("polygon", { points: "-9,6 -6,-3 0,-7 7,-4 9,6", fill: "#8a8378", stroke: "#57524a", "stroke-width": 1 }),
    s("polyline", { points: "-6,-3 -1,1 7,-4", fill: "none", stroke: "#6d675d", "stroke-width": 0.8 }),
    s("line", { x1: -1, y1: 1, x2: 0, y2: 6, stroke: "#6d675d", "stroke-width": 0.8 }),
  );
}

function tuft(x, y) {
  return s("path", {
    d: `M${x - 4},${y} l2,-5 M${x},${y} l0,-6 M${x + 4},${y} l-2,-5`,
    stroke: "#99984a",
    "stroke-width": 1.2,
    "stroke-linecap": "round",
  });
}

function tileDecor(type) {
  switch (type) {
    case "plains":
      return s("g", { class: "decor" }, tuft(-30, 6), tuft(28, 8), tuft(-14, 24), tuft(18, -10), tuft(-20, -12));
    case "forest":
      return s("g", { class: "decor", opacity: 0.85 }, tree(-31, 4), tree(31, 4), tree(-18, -18, 0.8), tree(20, -18, 0.8), tree(0, 26, 0.7));
    case "quarry":
      return s("g", { class: "decor", opacity: 0.9 }, rock(-30, 6), rock(30, 6, 0.9), rock(-16, -20, 0.8), rock(18, -20, 0.7), rock(0, 27, 0.6));
    case "volcano":
      return s(
        "g",
        { class: "decor" },
        s("polygon", { points: "-30,26 -8,-14 8,-14 30,26", fill: "#2c1a17", stroke: "#150b09", "stroke-width": 1 }),
        s("path", { d: "M-8,-14 Q0,-8 8,-14 L4,-3 Q2,4 5,12 L0,6 L-3,14 Q-4,2 -5,-4 Z", fill: "#ff7b1c" }),
        s("ellipse", { cx: 0, cy: -14, rx: 8, ry: 2.5, fill: "#ffb347" }),
        s("circle", { cx: -4, cy: -24, r: 4, fill: "#8a8a8a", opacity: 0.7 }),
        s("circle", { cx: 3, cy: -30, r: 5, fill: "#a0a0a0", opacity: 0.6 }),
      );
    case "temple":
      return s(
        "g",
        { class: "decor", opacity: 0.55 },
        s("rect", { x: -30, y: 14, width: 60, height: 10, fill: "#b5852f", stroke: "#6e4a10" }),
        s("rect", { x: -22, y: 4, width: 44, height: 10, fill: "#c29139", stroke: "#6e4a10" }),
        s("rect", { x: -14, y: -6, width: 28, height: 10, fill: "#cf9e44", stroke: "#6e4a10" }),
        s("rect", { x: -7, y: -14, width: 14, height: 8, fill: "#dcaa4e", stroke: "#6e4a10" }),
        s("rect", { x: -2, y: -6, width: 4, height: 30, fill: "#8a5f12" }),
      );
    default:
      return null;
  }
}

// ---------------------------------------------------------------- pieces

function woodIcon(x, y, k = 1) {
  return s(
    "g",
    { transform: `translate(${x},${y}) scale(${k}) rotate(-20)`, class: "res-wood" },
    s("rect", { x: -6, y: -2.5, width: 12, height: 5, rx: 2.5, fill: "#9b5e2a", stroke: "#4a2a0e", "stroke-width": 1 }),
    s("ellipse", { cx: 5, cy: 0, rx: 1.6, ry: 2.3, fill: "#d9a56b", stroke: "#4a2a0e", "stroke-width": 0.6 }),
  );
}

function stoneIcon(x, y, k = 1) {
  return s(
    "g",
    { transform: `translate(${x},${y}) scale(${k})`, class: "res-stone" },
    s("polygon", { points: "-5,3.5 -4,-2.5 1,-4.5 5,-1.5 4.5,3.5", fill: "#9e9e9e", stroke: "#3d3d3d", "stroke-width": 1 }),
    s("line", { x1: -4, y1: -2.5, x2: 1, y2: 0, stroke: "#d4d4d4", "stroke-width": 0.8 }),
  );
}

function offeringMarker(x, y, colour, value, k = 1) {
  return s(
    "g",
    { transform: `translate(${x},${y}) scale(${k})`, class: "offering" },
    s("rect", { x: -4.5, y: -4.5, width: 9, height: 9, rx: 2, fill: "#3a2616", stroke: PIECE_COLOURS[colour] || "#000", "stroke-width": 1.6 }),
    s("text", { x: 0, y: 2.6, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#fff" }, value === null || value === undefined ? "?" : String(value)),
  );
}

function pawn(colour) {
  const fill = PIECE_COLOURS[colour];
  const edge = "#161616";
  return [
    s("path", { d: "M-6.5,8 Q-7,1.5 -2.6,-0.5 L2.6,-0.5 Q7,1.5 6.5,8 Z", fill, stroke: edge, "stroke-width": 1.3 }),
    s("circle", { cx: 0, cy: -4.4, r: 3.9, fill, stroke: edge, "stroke-width": 1.3 }),
  ];
}

function tribePiece(g, x, y, k, t, view, opts) {
  const tok = g.token;
  const classes = ["piece", "tribe", `c-${g.colour}`];
  if (opts.selectedTribe === tok) classes.push("selected");
  if (opts.actionableTribes?.has(tok)) classes.push("actionable");
  const label = tribeText(t, tok, view) + (g.count > 1 ? ` ×${g.count}` : "");
  const kids = [s("title", {}, label)];
  kids.push(s("circle", { class: "hit", r: 10.5, fill: "transparent" }));
  if (opts.selectedTribe === tok) {
    kids.push(s("circle", { r: 11, fill: "none", stroke: "#fff", "stroke-width": 3.5 }));
    kids.push(s("circle", { r: 11, fill: "none", stroke: "#000", "stroke-width": 1.6 }));
  } else if (opts.actionableTribes?.has(tok)) {
    kids.push(s("circle", { class: "ring", r: 10.5, fill: "none", stroke: "#fff", "stroke-width": 2.6, opacity: 0.9 }));
    kids.push(s("circle", { class: "ring", r: 10.5, fill: "none", stroke: "#111", "stroke-width": 1.1, "stroke-dasharray": "2.5 2" }));
  }
  kids.push(...pawn(g.colour));
  if (g.cargo === "w") kids.push(woodIcon(6, 5, 0.75));
  else if (g.cargo === "s") kids.push(stoneIcon(6, 5, 0.85));
  else if (g.cargo && g.cargo.startsWith("o")) kids.push(offeringMarker(6, 4, g.colour, offeringValue(view, g.colour, g.cargo.slice(1)), 0.9));
  if (g.count > 1) {
    // at the foot of the piece: above it sit the tile's huts and the offerings under them
    kids.push(
      s(
        "g",
        { class: "count" },
        s("circle", { cx: -7.5, cy: 5, r: 4.6, fill: "#fff", stroke: "#111", "stroke-width": 0.9 }),
        s("text", { x: -7.5, y: 7.4, "text-anchor": "middle", "font-size": 6.6, "font-weight": 700, fill: "#111" }, String(g.count)),
      ),
    );
  }
  if (g.spent) kids.push(s("text", { x: 7.5, y: -4, "font-size": 9, "font-weight": 700, fill: "#111", stroke: "#fff", "stroke-width": 0.6 }, "*"));
  const focusable = opts.actionableTribes?.has(tok) || opts.selectedTribe === tok;
  return s(
    "g",
    {
      class: classes.join(" "),
      transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) scale(${k})`,
      dataset: { tribe: tok },
      tabindex: focusable ? 0 : null,
      role: focusable ? "button" : null,
      "aria-label": focusable ? label : null,
      "aria-pressed": focusable ? String(opts.selectedTribe === tok) : null,
    },
    kids,
  );
}

function hutPiece(h, x, y, t, view, opts) {
  const [owner, num, , , offering] = h;
  const tok = hutToken(owner, num);
  const fill = PIECE_COLOURS[owner] || "#ccc";
  const classes = ["piece", "hut", `c-${owner}`];
  if (opts.selectedHut === tok) classes.push("selected");
  if (opts.actionableHuts?.has(tok)) classes.push("actionable");
  let label = hutText(t, tok);
  const value = offering ? offeringValue(view, owner, offering) : null;
  if (offering) label += ` — ${value === null ? t("meso.offeringUnder") : t("meso.offeringUnderValue", { v: value })}`;
  const kids = [s("title", {}, label), s("rect", { class: "hit", x: -10, y: -10, width: 20, height: 20, fill: "transparent" })];
  if (opts.selectedHut === tok) {
    kids.push(s("rect", { x: -11, y: -11, width: 22, height: 21, rx: 4, fill: "none", stroke: "#fff", "stroke-width": 4 }));
    kids.push(s("rect", { x: -11, y: -11, width: 22, height: 21, rx: 4, fill: "none", stroke: "#000", "stroke-width": 1.8 }));
  } else if (opts.actionableHuts?.has(tok)) {
    kids.push(s("rect", { x: -10, y: -10, width: 20, height: 19, rx: 3, fill: "none", stroke: "#fff", "stroke-width": 2.6 }));
    kids.push(s("rect", { x: -10, y: -10, width: 20, height: 19, rx: 3, fill: "none", stroke: "#111", "stroke-width": 1.1, "stroke-dasharray": "2.5 2" }));
  }
  kids.push(s("polygon", { points: "-7.5,7 7.5,7 7.5,-1 0,-8 -7.5,-1", fill, stroke: "#161616", "stroke-width": 1.3 }));
  kids.push(s("rect", { x: -2, y: 1.5, width: 4, height: 5.5, fill: PIECE_DARK[owner] || "#444" }));
  if (owner === "neutral") kids.push(s("text", { x: 0, y: -0.5, "text-anchor": "middle", "font-size": 5.5, "font-weight": 700, fill: "#333" }, "N"));
  if (offering) kids.push(offeringMarker(8, 6, owner, value, 0.85));
  const focusable = opts.actionableHuts?.has(tok) || opts.selectedHut === tok;
  return s(
    "g",
    {
      class: classes.join(" "),
      transform: `translate(${x},${y}) scale(1.25)`,
      dataset: { hut: tok },
      tabindex: focusable ? 0 : null,
      role: focusable ? "button" : null,
      "aria-label": focusable ? label : null,
    },
    kids,
  );
}

export const HEX_CLIP = "meso-hex-clip"; // the clip path of a hex, in a tile's own coordinates

/** A transparent disc around a piece a player may tap, beneath the tile's pieces and clipped to
 * its hex: on touch screens (board.css shows it) the board sizes it to a finger's width
 * (mesopotamia.js); `base` is the piece's own hit radius. */
function touchHit(kind, tok, x, y, base) {
  return s("circle", {
    class: "touch-hit",
    cx: x.toFixed(1),
    cy: y.toFixed(1),
    r: base.toFixed(1),
    fill: "transparent",
    "clip-path": `url(#${HEX_CLIP})`,
    dataset: { [kind === "tribe" ? "touchTribe" : "touchHut"]: tok, r: base.toFixed(1) },
  });
}

function holyPiece(colour, x, y, t) {
  const fill = PIECE_COLOURS[colour];
  return s(
    "g",
    { class: `piece holy c-${colour}`, transform: `translate(${x},${y}) scale(1.1)` },
    s("title", {}, t("meso.holyPlace", { colour: t(`colourAdj.${colour}`) })),
    s("rect", { x: -9, y: 4, width: 18, height: 4, fill, stroke: "#161616", "stroke-width": 1.2 }),
    s("rect", { x: -6, y: -4, width: 12, height: 8, fill, stroke: "#161616", "stroke-width": 1.2 }),
    s("polygon", { points: "-3,-4 3,-4 0,-11", fill, stroke: "#161616", "stroke-width": 1.2 }),
    s("circle", { cx: 0, cy: 0, r: 1.8, fill: "#fff" }),
  );
}

// ---------------------------------------------------------------- layout

function indexView(view) {
  const tiles = new Map();
  for (const [q, r, type] of view.tiles || []) tiles.set(key(q, r), { q, r, type, huts: [], holy: null, wood: 0, stone: 0, tribes: [] });
  for (const h of view.huts || []) tiles.get(key(h[2], h[3]))?.huts.push(h);
  for (const [q, r, owner] of view.holy_places || []) {
    const tl = tiles.get(key(q, r));
    if (tl) tl.holy = owner;
  }
  for (const [q, r, w, st] of view.loose || []) {
    const tl = tiles.get(key(q, r));
    if (tl) {
      tl.wood = w;
      tl.stone = st;
    }
  }
  const order = COLOURS;
  for (const pl of view.players || []) {
    const groups = new Map();
    for (const [q, r, cargo, spent] of pl.tribes || []) {
      const tok = tribeToken(pl.colour, q, r, cargo, spent);
      const g = groups.get(tok) || { token: tok, colour: pl.colour, cargo, spent, count: 0, key: key(q, r) };
      g.count += 1;
      groups.set(tok, g);
    }
    for (const g of groups.values()) tiles.get(g.key)?.tribes.push(g);
  }
  for (const tl of tiles.values()) {
    tl.tribes.sort((a, b) => order.indexOf(a.colour) - order.indexOf(b.colour) || a.token.localeCompare(b.token));
  }
  return tiles;
}

/** Empty hexes next to a tile: where discoveries and volcanoes may go. */
export function spacesOf(view) {
  const tiles = new Set((view.tiles || []).map(([q, r]) => key(q, r)));
  const out = new Map();
  for (const [q, r] of view.tiles || []) {
    for (const [dq, dr] of NEIGHBOURS) {
      const k = key(q + dq, r + dr);
      if (!tiles.has(k)) out.set(k, [q + dq, r + dr]);
    }
  }
  return out;
}

/** Positions and scale of n tribe pieces on a hex: big when few, smaller when crowded; `lift`
 * raises them, to leave the foot of the hex to the loose resources' badges. */
function tribeSlots(n, lift = 0) {
  let k;
  let perRow;
  let dx;
  let ys;
  if (n <= 4) {
    k = n <= 2 ? 1.45 : n === 3 ? 1.28 : 1.05;
    perRow = Math.max(n, 1);
    dx = n === 4 ? 21 : 22 * k;
    ys = [6];
  } else if (n <= 8) {
    k = 1;
    perRow = Math.ceil(n / 2);
    dx = 17;
    ys = [-3, 14];
  } else {
    k = 0.82;
    perRow = 5;
    dx = 14;
    ys = [-6, 7, 20];
  }
  const out = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, n - row * perRow);
    out.push([((i % perRow) - (inRow - 1) / 2) * dx, ys[Math.min(row, ys.length - 1)] - lift, k]);
  }
  return out;
}

function deliveredMarkers(view) {
  const out = [];
  for (const pl of view.players || []) {
    for (const id of pl.offerings?.delivered || []) out.push({ colour: pl.colour, value: offeringValue(view, pl.colour, id) });
  }
  return out;
}

// ---------------------------------------------------------------- main

/**
 * Draw `view` as an SVG element.
 * opts: {t, lit: Map(key -> "move" | "choice" | "explore"), target: key, selectedTribe, selectedHut,
 *        actionableTribes: Set, actionableHuts: Set}
 * Clickable things carry data-hex, data-tribe or data-hut attributes.
 */
export function draw(view, opts = {}) {
  const t = opts.t || ((k) => k);
  const lit = opts.lit || new Map();
  const tiles = indexView(view);
  const spaces = spacesOf(view);

  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [q, r] of [...[...tiles.values()].map((tl) => [tl.q, tl.r]), ...spaces.values()]) {
    const [x, y] = hexCenter(q, r);
    minX = Math.min(minX, x - R);
    maxX = Math.max(maxX, x + R);
    minY = Math.min(minY, y - R);
    maxY = Math.max(maxY, y + R);
  }
  if (!Number.isFinite(minX)) [minX, maxX, minY, maxY] = [-R, R, -R, R];
  const pad = 4;
  const vb = [minX - pad, minY - pad, maxX - minX + 2 * pad, maxY - minY + 2 * pad];

  const svg = s("svg", {
    class: "board-svg",
    viewBox: vb.map((v) => v.toFixed(1)).join(" "),
    role: "img",
    "aria-label": t("meso.boardLabel"),
    "font-family": "system-ui, sans-serif",
  });
  svg.append(s("title", {}, t("meso.boardLabel")));
  svg.append(s("defs", {}, s("clipPath", { id: HEX_CLIP }, s("polygon", { points: hexPoints(R - 2) }))));

  const spaceLayer = s("g", { class: "spaces" });
  for (const [k, [q, r]] of spaces) {
    const [x, y] = hexCenter(q, r);
    const how = lit.get(k);
    const isTarget = opts.target === k;
    const cls = ["space", how ? `lit lit-${how}` : "", isTarget ? "target" : ""].join(" ").trim();
    const title = how ? t(how === "explore" ? "meso.spaceExplore" : "meso.spaceChoose", { c: k }) : t("meso.space", { c: k });
    const g = s("g", {
      class: cls,
      transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
      dataset: { hex: k },
      tabindex: how ? 0 : null,
      role: how ? "button" : null,
      "aria-label": how ? title : null,
    });
    g.append(s("title", {}, title));
    g.append(s("polygon", { class: "hexshape", points: hexPoints(R - 3) }));
    if (how || isTarget) g.append(s("text", { x: 0, y: 4, "text-anchor": "middle", "font-size": 11, class: "space-label" }, k));
    if (isTarget) g.append(s("text", { x: 0, y: -12, "text-anchor": "middle", "font-size": 16, class: "target-mark" }, "?"));
    spaceLayer.append(g);
  }
  svg.append(spaceLayer);

  const tileLayer = s("g", { class: "tiles" });
  const pieceLayer = s("g", { class: "pieces" });
  const delivered = deliveredMarkers(view);
  for (const [k, tl] of tiles) {
    const [x, y] = hexCenter(tl.q, tl.r);
    const how = lit.get(k);
    const title = `${tileName(t, tl.type)} ${k}`;
    const g = s("g", {
      class: `tile t-${tl.type}${how ? ` lit lit-${how}` : ""}`,
      transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
      dataset: { hex: k, type: tl.type },
      tabindex: how ? 0 : null,
      role: how ? "button" : null,
      "aria-label": how ? `${title}: ${t(how === "move" ? "meso.litMove" : "meso.litChoice")}` : null,
    });
    g.append(s("title", {}, title));
    g.append(s("polygon", { class: "hexshape", points: hexPoints(R - 0.8), fill: TILE_FILL[tl.type], stroke: TILE_EDGE[tl.type], "stroke-width": 1.6 }));
    const decor = tileDecor(tl.type);
    if (decor) g.append(decor);
    if (how) g.append(s("polygon", { class: "lit-overlay", points: hexPoints(R - 4) }));
    // the coordinates over the lit overlay, so that a lit tile still shows them
    g.append(
      s("text", { x: 0, y: -33, "text-anchor": "middle", "font-size": 8, class: `coord${tl.type === "volcano" ? " light" : ""}` }, k),
    );
    tileLayer.append(g);

    const pg = s("g", { class: "tile-pieces", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, dataset: { hex: k } });
    if (tl.holy) pg.append(holyPiece(tl.holy, 0, -19, t)); // below the coordinates
    const hx = tl.huts.length === 1 ? [0] : tl.huts.length === 2 ? [-14, 14] : tl.huts.map((_, i) => (i - (tl.huts.length - 1) / 2) * 20);
    tl.huts.forEach((h, i) => pg.append(hutPiece(h, hx[i], -20, t, view, opts)));
    if (tl.type === "temple" && delivered.length) {
      const per = 6;
      delivered.forEach((d, i) => {
        const row = Math.floor(i / per);
        const inRow = Math.min(per, delivered.length - row * per);
        const mx = ((i % per) - (inRow - 1) / 2) * 10;
        const m = offeringMarker(mx, -21 + row * 10, d.colour, d.value, 0.95);
        m.append(s("title", {}, t("meso.deliveredBy", { colour: colourName(t, d.colour), v: d.value ?? "?" })));
        pg.append(m);
      });
    }
    const slots = tribeSlots(tl.tribes.length, tl.wood || tl.stone ? 3 : 0);
    tl.tribes.forEach((tg, i) => pg.append(tribePiece(tg, slots[i][0], slots[i][1], slots[i][2], t, view, opts)));
    // wider hit discs for the pieces a player may tap, under every piece of the tile; none on a
    // lit tile, where a tap beside a piece means the tile
    if (!how) {
      const discs = [];
      tl.huts.forEach((h, i) => {
        const tok = hutToken(h[0], h[1]);
        if (opts.actionableHuts?.has(tok) || opts.selectedHut === tok) discs.push(touchHit("hut", tok, hx[i], -20, 12.5));
      });
      tl.tribes.forEach((tg, i) => {
        if (opts.actionableTribes?.has(tg.token) || opts.selectedTribe === tg.token) discs.push(touchHit("tribe", tg.token, slots[i][0], slots[i][1], 10.5 * slots[i][2]));
      });
      pg.prepend(...discs);
    }
    const res = [];
    if (tl.wood) res.push(["w", tl.wood]);
    if (tl.stone) res.push(["s", tl.stone]);
    res.forEach(([kind, n], i) => {
      const rx = res.length === 1 ? -5 : i === 0 ? -19 : 6;
      const item = s("g", { class: `loose loose-${kind}` });
      item.append(s("title", {}, t(kind === "w" ? "meso.looseWood" : "meso.looseStone", { n, c: k })));
      item.append(s("rect", { x: rx - 7, y: 24, width: 23, height: 13, rx: 6, fill: "rgba(255,255,255,.78)", stroke: "rgba(0,0,0,.35)", "stroke-width": 0.6 }));
      item.append(kind === "w" ? woodIcon(rx, 30.5, 0.8) : stoneIcon(rx, 30.5, 0.9));
      item.append(s("text", { x: rx + 7, y: 34, "font-size": 8.5, "font-weight": 700, fill: "#111" }, `×${n}`));
      pg.append(item);
    });
    pieceLayer.append(pg);
  }
  svg.append(tileLayer, pieceLayer);
  return svg;
}

/** Cargo description used by the info panels. */
export { cargoText };
