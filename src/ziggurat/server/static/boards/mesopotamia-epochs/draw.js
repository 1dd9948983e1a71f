// SVG drawing of a Mesopotamia: Epochs view: the map from the map data (areas, sea, deserts,
// double-value and bonus areas, difficult borders), tribes by player symbol and People colour,
// and what can be clicked. Pure: view in, SVG out.

import { s } from "../../dom.js";
import { defaultData, epochColour, occupancy, owners } from "./data.js";
import { layout } from "./geometry.js";
import { activePeople, areaName, kindName, peopleName, symbolName } from "./labels.js";
import { patternDefs } from "./symbols.js";

const FILL = { land: "#eadfb4", island: "#e2e6b0", desert: "#ecc987", uninhabited: "#bdb19c" };
const EDGE = "#6d5b38";

/** The five player symbols (§2.3) as small glyphs in a 20 x 20 box centred on 0,0. */
export function symbolGlyph(symbol, ink, bg) {
  switch (symbol) {
    case "brooch":
      return s(
        "g",
        { class: "glyph" },
        s("circle", { r: 6.2, fill: "none", stroke: ink, "stroke-width": 2.6 }),
        s("line", { x1: -8.6, y1: 4.2, x2: 8.6, y2: -4.2, stroke: ink, "stroke-width": 2.1, "stroke-linecap": "round" }),
        s("circle", { cx: 8.2, cy: -4, r: 1.9, fill: ink }),
      );
    case "head":
      return s(
        "g",
        { class: "glyph" },
        s("circle", { cx: 0, cy: -3.2, r: 4.6, fill: ink }),
        s("path", { d: "M-7.8,8.8 Q-7.6,1.8 0,1.8 Q7.6,1.8 7.8,8.8 Z", fill: ink }),
      );
    case "mask":
      return s(
        "g",
        { class: "glyph" },
        s("path", { d: "M-8,-6.5 Q0,-10.5 8,-6.5 Q9.2,3.5 0,9.2 Q-9.2,3.5 -8,-6.5 Z", fill: ink }),
        s("ellipse", { cx: -3.3, cy: -2.2, rx: 2.1, ry: 1.3, fill: bg }),
        s("ellipse", { cx: 3.3, cy: -2.2, rx: 2.1, ry: 1.3, fill: bg }),
        s("path", { d: "M-2.6,4 Q0,5.6 2.6,4", fill: "none", stroke: bg, "stroke-width": 1.2, "stroke-linecap": "round" }),
      );
    case "statue":
      return s(
        "g",
        { class: "glyph" },
        s("circle", { cx: 0, cy: -6.4, r: 2.7, fill: ink }),
        s("path", { d: "M-3.2,-3.2 H3.2 L2.6,5 H-2.6 Z", fill: ink }),
        s("rect", { x: -6.5, y: 5, width: 13, height: 3.8, rx: 0.8, fill: ink }),
      );
    case "urn":
      return s(
        "g",
        { class: "glyph" },
        s("path", { d: "M-3,-8.6 H3 V-6.6 Q7.6,-4.6 7.4,1 Q7,6.6 3.2,8.6 H-3.2 Q-7,6.6 -7.4,1 Q-7.6,-4.6 -3,-6.6 Z", fill: ink }),
        s("path", { d: "M-3.4,-6 Q-9.2,-6.8 -6.6,-1.2 M3.4,-6 Q9.2,-6.8 6.6,-1.2", fill: "none", stroke: ink, "stroke-width": 1.4 }),
      );
    default:
      return s("text", { x: 0, y: 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: ink }, "?");
  }
}

/** A player's marker: their symbol on a light disk (used on the VP track and in panels). */
export function playerBadge(symbol, r = 11, extra = {}) {
  return s(
    "g",
    { class: `player-badge p-${symbol}`, ...extra },
    s("circle", { r, class: "badge-disk" }),
    s("g", { transform: `scale(${(r / 11).toFixed(3)})` }, symbolGlyph(symbol, "#2b2419", "#f7f1e3")),
  );
}

/** A standalone small SVG of a player's symbol, for HTML panels. */
export function symbolIcon(symbol, size = 18) {
  const svg = s("svg", { class: `symbol-icon p-${symbol}`, viewBox: "-12 -12 24 24", width: size, height: size, "aria-hidden": "true" });
  svg.append(playerBadge(symbol, 11));
  return svg;
}

/** A tribe counter (or a stack of them) of People `people` owned by `symbol`. */
function tribeToken(t, data, people, symbol, n, opts = {}) {
  const card = data.people.get(people);
  const col = epochColour(card?.card_epoch);
  const label = t("epochs.tribesOf", { n, people: peopleName(t, data, people), player: symbol ? symbolName(t, symbol) : "?" });
  const kids = [s("title", {}, label)];
  const r = 13;
  for (let i = Math.min(n, 3) - 1; i > 0; i--) {
    kids.push(s("circle", { cx: i * 2.6, cy: -i * 2.6, r, fill: col.fill, stroke: col.dark, "stroke-width": 1.4 }));
  }
  if (opts.active && !opts.attacker) kids.push(s("circle", { r: r + 3.2, class: "active-ring" }));
  if (opts.attacker) kids.push(s("circle", { r: r + 4, class: "attack-ring" }));
  kids.push(s("circle", { r, fill: col.fill, stroke: col.dark, "stroke-width": 1.6 }));
  kids.push(s("g", { transform: "scale(0.95)" }, symbolGlyph(symbol, col.ink, col.fill)));
  if (n > 1 || opts.showCount) {
    kids.push(s("circle", { cx: 11, cy: 9.5, r: 6.6, fill: "#fffdf6", stroke: "#2b2419", "stroke-width": 1.1 }));
    kids.push(s("text", { x: 11, y: 13.3, "text-anchor": "middle", "font-size": 10.5, "font-weight": 800, fill: "#1c1b19" }, String(n)));
  }
  if (opts.attacker) {
    kids.push(
      s(
        "g",
        { class: "swords", transform: "translate(-12,-11)" },
        s("circle", { r: 6.6, fill: "#fff4e0", stroke: "#8c1d14", "stroke-width": 1.2 }),
        s("path", { d: "M-3.6,3.6 L3.6,-3.6 M-3.6,-3.6 L3.6,3.6", stroke: "#8c1d14", "stroke-width": 1.9, "stroke-linecap": "round" }),
      ),
    );
  }
  return s("g", { class: `tribe e${card?.card_epoch ?? 0} p-${symbol || "none"}${opts.attacker ? " attacker" : ""}`, transform: `translate(${opts.x.toFixed(1)},${opts.y.toFixed(1)})`, dataset: opts.dataset || {} }, kids);
}

function star(x, y, r, fill, stroke) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
  }
  return s("polygon", { points: pts.join(" "), fill, stroke, "stroke-width": 1 });
}

/** People whose bonus area each area is, among those this view shows: Map(area -> [people]). */
function bonusAreas(data, view) {
  const out = new Map();
  const seen = owners(view);
  for (const id of seen.keys()) {
    const p = data.people.get(id);
    if (!p?.bonus_area) continue;
    if (!out.has(p.bonus_area)) out.set(p.bonus_area, []);
    out.get(p.bonus_area).push(id);
  }
  return out;
}

/** Whether point (x, y) is inside polygon `poly` (even-odd rule). */
function inside(poly, x, y) {
  let yes = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) yes = !yes;
  }
  return yes;
}

// How wide a name is drawn, in map units at font size `size`: widths per letter of a wide sans
// serif (the map's font on Linux, DejaVu Sans Bold); narrower fonts leave a little more room.
const EM = [
  [/[iljIJ'.,:;!| ]/, 0.36],
  [/[frt()-]/, 0.5],
  [/[scz]/, 0.6],
  [/[mwMW]/, 1.04],
  [/[A-Z]/, 0.8],
];
function textWidth(text, size) {
  let w = 0;
  for (const ch of text.normalize("NFD").replace(/[\u0300-\u036f]/g, "")) w += EM.find(([re]) => re.test(ch))?.[1] ?? 0.69;
  return w * size;
}

// where an area's name goes, as offsets from its anchor (the tribes stand on the anchor): above
// the tribes, nudged sideways, or below them, the first place where the name and its marks stay
// inside the area. The double-value mark goes on the name's left, the bonus marks (stars) on its
// right; when the line is too long for the area, the stars go on a line of their own under the
// tribes or over the name, and when even the name and the double-value mark do not fit side by
// side, that mark joins the stars under the tribes.
const LABEL_DY = [-17, 43];
const LABEL_DX = [0, 6, -6, 12, -12, 18, -18, 24, -24, 30, -30];
const MARKS_DY = 36; // the line of marks under the tribes (clear of a combat's tokens)
const OVER_DY = -20; // the line of stars over the name
const STEP = 15; // from one mark to the next
const GAP = 2.5; // between the name and its marks
const MARGIN = 2; // between the name and the area's edge

const MARK_R = 6.5; // a difficult-border mark's reach from its point (its triangle, rotated)

/** Whether the box from x0 to x1 and from y0 to y1 is inside area `a` (sampled) and clear of
 * every difficult-border mark in `marks` ([x, y] of each). */
function fits(a, x0, x1, y0, y1, marks = []) {
  const xs = [x0, (3 * x0 + x1) / 4, (x0 + x1) / 2, (x0 + 3 * x1) / 4, x1];
  if (!xs.every((px) => inside(a.poly, px, y0) && inside(a.poly, px, y1))) return false;
  return marks.every(([mx, my]) => mx < x0 - MARK_R || mx > x1 + MARK_R || my < y0 - MARK_R || my > y1 + MARK_R);
}

/** Where area `a`'s name and marks go: {x, y} (the name's baseline's middle), `double` ([x, y]
 * of the double-value mark, or null) and `stars` ([x, y] of each of the `stars` bonus marks);
 * `width`: the name's width, `double`: whether the area has a double-value mark, `hard`: the
 * points of the difficult-border marks, which the name and marks keep clear of. */
function labelAt(a, width, double, stars, hard = []) {
  const half = width / 2;
  const dl = double ? GAP + 15.4 : 0;
  const line = (left, right, rows) => {
    for (const dy of rows) {
      for (const dx of LABEL_DX) {
        if (fits(a, a.x + dx - left - MARGIN, a.x + dx + right + MARGIN, a.y + dy - 12, a.y + dy + 4, hard)) return [a.x + dx, a.y + dy];
      }
    }
    return null;
  };
  // a line of n marks at height y, as near as can be to x: the first mark's x, or null
  const row = (n, x, y) => {
    const w = STEP * (n - 1);
    for (const dx of LABEL_DX) {
      const sx = x + dx - w / 2;
      if (fits(a, sx - 8, sx + w + 8, y - 8, y + 8, hard)) return sx;
    }
    return null;
  };
  const marks = (n, sx, y) => Array.from({ length: n }, (_, i) => [sx + STEP * i, y]);
  const before = ([x, y]) => (double ? [x - half - GAP - 7.2, y - 4] : null);
  const result = (at, dbl, st) => ({ x: at[0], y: at[1], double: dbl, stars: st });
  // one line: the double-value mark, the name, the stars
  const inline = line(half + dl, half + (stars ? GAP + 16 + STEP * (stars - 1) : 0), LABEL_DY);
  if (inline) return result(inline, before(inline), marks(stars, inline[0] + half + GAP + 8, inline[1] - 4));
  // the name line above the tribes, the stars under the tribes or over the name
  const above = line(half + dl, half, [LABEL_DY[0]]);
  if (above && stars) {
    const sx = row(stars, a.x, a.y + MARKS_DY);
    if (sx !== null) return result(above, before(above), marks(stars, sx, a.y + MARKS_DY));
    const ox = row(stars, above[0], above[1] + OVER_DY);
    if (ox !== null) return result(above, before(above), marks(stars, ox, above[1] + OVER_DY));
  }
  // the name alone above the tribes, all the marks under them
  const alone = line(half, half, [LABEL_DY[0]]);
  const n = stars + (double ? 1 : 0);
  const mx = alone && n ? row(n, a.x, a.y + MARKS_DY) : null;
  if (mx !== null) {
    const all = marks(n, mx, a.y + MARKS_DY);
    return result(alone, double ? all[0] : null, double ? all.slice(1) : all);
  }
  const at = [a.x, a.y - 17];
  return result(at, before(at), marks(stars, at[0] + half + GAP + 8, at[1] - 4));
}

/**
 * Draw `view` as an SVG element.
 * opts: {t, data, lit: Map(area -> "place" | "attack" | "choice"), combat: {area, dice} or null,
 *        displacing: area or null, lastAttack: area or null, options}
 * Clickable areas carry data-area and role=button.
 */
export function draw(view, opts = {}) {
  const t = opts.t || ((k) => k);
  const data = opts.data || defaultData();
  const lit = opts.lit || new Map();
  const L = layout(data.map);
  const occ = occupancy(view);
  const own = owners(view);
  const active = activePeople(view);
  const bonus = bonusAreas(data, view);

  // the view box: the land and the islands, with a margin
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const a of L.areas.values()) {
    for (const [x, y] of a.poly) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  if (!Number.isFinite(minX)) [minX, minY, maxX, maxY] = [0, 0, 1000, 1000];
  const m = 14;
  const vb = [minX - m, minY - m, maxX - minX + 2 * m, maxY - minY + 2 * m];

  const svg = s("svg", {
    class: "board-svg epochs-map",
    viewBox: vb.map((v) => v.toFixed(0)).join(" "),
    role: "img",
    "aria-label": t("epochs.boardLabel"),
    "font-family": "system-ui, sans-serif",
  });
  svg.append(s("title", {}, t("epochs.boardLabel")));
  svg.append(
    s(
      "defs",
      {},
      s(
        "pattern",
        { id: "ep-dunes", width: 18, height: 12, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M0,9 Q4.5,5 9,9 T18,9", fill: "none", stroke: "#c79a4e", "stroke-width": 1.1, opacity: 0.75 }),
      ),
      s(
        "pattern",
        { id: "ep-waste", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(35)" },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#958971", "stroke-width": 1.6 }),
      ),
      s(
        "pattern",
        { id: "ep-waves", width: 34, height: 16, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M2,8 q4,-4 8,0 t8,0", fill: "none", stroke: "#cfe6f6", "stroke-width": 1.1, opacity: 0.55 }),
      ),
      patternDefs(),
    ),
  );
  const defs = svg.querySelector("defs");

  // sea and off-map land
  svg.append(s("rect", { class: "sea", x: vb[0] - 50, y: vb[1] - 50, width: vb[2] + 100, height: vb[3] + 100 }));
  svg.append(s("rect", { class: "sea-waves", x: vb[0] - 50, y: vb[1] - 50, width: vb[2] + 100, height: vb[3] + 100, fill: "url(#ep-waves)" }));
  const dry = s("g", { class: "offmap" });
  for (const d of L.dry) dry.append(s("path", { d }));
  svg.append(dry);

  // areas
  const areaLayer = s("g", { class: "areas" });
  for (const a of L.areas.values()) {
    if (a.kind === "sea" || !a.path) continue;
    const how = lit.get(a.id);
    const o = occ.get(a.id);
    const name = areaName(t, data, a.id);
    const cls = ["area", `k-${a.kind}`];
    if (how) cls.push("lit", `lit-${how}`);
    if (opts.combat?.area === a.id) cls.push("combat");
    if (opts.displacing === a.id) cls.push("displacing");
    if (o && o[0] === active) cls.push("held-active");
    const facts = [kindName(t, a.kind)];
    if (a.double) facts.push(t("epochs.doubleValue"));
    if (a.coastal) facts.push(t("epochs.coastal"));
    if (o) facts.push(t("epochs.tribesOf", { n: o[1], people: peopleName(t, data, o[0]), player: own.get(o[0]) ? symbolName(t, own.get(o[0])) : "?" }));
    if (o && own.get(o[0])) facts.push(t("epochs.heldBy", { player: symbolName(t, own.get(o[0])) }));
    for (const p of bonus.get(a.id) || []) facts.push(t("epochs.bonusOf", { people: peopleName(t, data, p), v: data.bonusValue(p) }));
    const title = `${name} — ${facts.join("; ")}`;
    const g = s("g", {
      class: cls.join(" "),
      dataset: a.kind === "uninhabited" ? {} : { area: a.id },
      tabindex: how ? 0 : null,
      role: how ? "button" : null,
      "aria-label": how ? `${name}: ${t(`epochs.lit.${how}`)}` : null,
    });
    g.append(s("title", {}, title));
    g.append(s("path", { class: "shape", d: a.path, fill: FILL[a.kind] || FILL.land }));
    if (a.kind === "desert") g.append(s("path", { class: "texture", d: a.path, fill: "url(#ep-dunes)" }));
    if (a.kind === "uninhabited") g.append(s("path", { class: "texture", d: a.path, fill: "url(#ep-waste)", opacity: 0.55 }));
    const holder = o ? own.get(o[0]) : null;
    if (o) {
      const col = epochColour(data.people.get(o[0])?.card_epoch);
      g.append(s("path", { class: "tint", d: a.path, fill: col.fill }));
    }
    if (holder) {
      // the holder's pattern, and its outline drawn inside the area (clipped to it), so two
      // neighbours held by different players keep both outlines
      g.dataset.owner = holder;
      defs.append(s("clipPath", { id: `ep-clip-${a.id}` }, s("path", { d: a.path })));
      g.append(s("path", { class: "owner-fill", d: a.path, fill: `url(#ep-own-${holder})` }));
      g.append(s("path", { class: `owner-outline p-${holder}`, d: a.path, fill: "none", "clip-path": `url(#ep-clip-${a.id})` }));
    }
    g.append(s("path", { class: "outline", d: a.path, fill: "none", stroke: EDGE }));
    if (a.kind === "desert") g.append(s("path", { class: "desert-edge", d: a.path, fill: "none" }));
    if (how) g.append(s("path", { class: "lit-overlay", d: a.path }));
    if (opts.combat?.area === a.id || opts.displacing === a.id) g.append(s("path", { class: "mark-overlay", d: a.path }));
    areaLayer.append(g);
  }
  svg.append(areaLayer);

  // straits: neighbours whose shapes do not touch
  const linkLayer = s("g", { class: "links" });
  for (const l of L.links) {
    const A = L.areas.get(l.a);
    const B = L.areas.get(l.b);
    if (!A || !B || A.kind === "uninhabited" || B.kind === "uninhabited") continue;
    const g = s("g", { class: "strait" });
    g.append(s("title", {}, t("epochs.strait", { a: areaName(t, data, l.a), b: areaName(t, data, l.b) })));
    g.append(s("line", { x1: l.p[0], y1: l.p[1], x2: l.q[0], y2: l.q[1], class: "strait-under" }));
    g.append(s("line", { x1: l.p[0], y1: l.p[1], x2: l.q[0], y2: l.q[1], class: "strait-line" }));
    linkLayer.append(g);
  }
  svg.append(linkLayer);

  // difficult borders: the mark sits on the defender's side and points at the attacker (§3.3)
  const hard = s("g", { class: "difficult" });
  for (const d of L.difficult) {
    const g = s("g", { class: "difficult-mark", transform: `translate(${d.at[0].toFixed(1)},${d.at[1].toFixed(1)}) rotate(${d.angle.toFixed(1)})` });
    g.append(s("title", {}, t("epochs.difficultBorder", { from: areaName(t, data, d.from), to: areaName(t, data, d.to) })));
    g.append(s("path", { d: "M5,0 L-3.5,-5.5 L-3.5,5.5 Z" }));
    hard.append(g);
  }
  svg.append(hard);

  // the sea's name
  if (L.seaLabel) {
    const sea = [...L.areas.values()].find((a) => a.kind === "sea");
    svg.append(
      s(
        "text",
        { class: "sea-label", x: L.seaLabel[0], y: L.seaLabel[1], "text-anchor": "middle", "font-size": 19 },
        s("title", {}, `${areaName(t, data, sea.id)} — ${t("epochs.seaHelp")}`),
        areaName(t, data, sea.id),
      ),
    );
  }

  // labels, double-value and bonus marks
  const labels = s("g", { class: "labels" });
  const hardPoints = L.difficult.map((d) => d.at);
  for (const a of L.areas.values()) {
    if (a.kind === "sea" || !a.path) continue;
    const name = areaName(t, data, a.id);
    const size = a.kind === "uninhabited" ? 11 : 12.5;
    const peoples = bonus.get(a.id) || [];
    const { x, y, double, stars } = labelAt(a, textWidth(name, size), a.double, peoples.length, hardPoints);
    labels.append(s("text", { class: `area-label k-${a.kind}`, x, y, "text-anchor": "middle", "font-size": size, dataset: { of: a.id } }, name));
    if (double) {
      // the marks stand for their area: a click or tap on one is one on the area
      const g = s("g", { class: "double-mark", transform: `translate(${double[0].toFixed(1)},${double[1].toFixed(1)})`, dataset: { of: a.id, area: a.id } });
      g.append(s("title", {}, t("epochs.doubleValueHelp")));
      g.append(s("circle", { r: 7.2 }));
      g.append(s("text", { x: 0, y: 3.6, "text-anchor": "middle", "font-size": 9.5, "font-weight": 800 }, "2"));
      labels.append(g);
    }
    peoples.forEach((p, i) => {
      const col = epochColour(data.people.get(p)?.card_epoch);
      const g = s("g", { class: `bonus-mark${p === active ? " active" : ""}`, transform: `translate(${stars[i][0].toFixed(1)},${stars[i][1].toFixed(1)})`, dataset: { of: a.id, area: a.id } });
      g.append(s("title", {}, t("epochs.bonusOf", { people: peopleName(t, data, p), v: data.bonusValue(p) })));
      g.append(star(0, 0, p === active ? 8 : 6.8, col.fill, "#2b2419"));
      labels.append(g);
    });
  }
  svg.append(labels);

  // tribes (in a combat, the defenders and the attacking tribe side by side)
  const pieces = s("g", { class: "pieces" });
  for (const [area, [people, n]] of occ) {
    const a = L.areas.get(area);
    if (!a) continue;
    const combat = opts.combat?.area === area;
    pieces.append(tribeToken(t, data, people, own.get(people), n, { x: a.x + (combat ? 13 : 0), y: a.y + 7, active: people === active, dataset: { area, people } }));
  }
  if (opts.combat && active) {
    const a = L.areas.get(opts.combat.area);
    if (a) pieces.append(tribeToken(t, data, active, own.get(active), 1, { x: a.x - 21, y: a.y + 9, attacker: true, dataset: { area: a.id, attacker: active } }));
  }
  svg.append(pieces);
  return svg;
}
