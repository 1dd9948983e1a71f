// The Mare Nostrum map as SVG: provinces (slots, buildings, markers, legions, fortresses) and seas
// (triremes), at the schematic positions of layout.js.
import { s } from "../../dom.js";
import { DATA } from "./data.js";
import { H, PH, PROV, PW, SEA, W } from "./layout.js";
import { areaName, seatColour, slotName } from "./labels.js";

const SLOT_CODE = { caravan: "", market: "M", city: "Ci", capital: "Ca", temple: "T", legendary_city: "LC" };

export function inPlay(view) {
  const out = new Set(DATA.out_of_play[String(view.n)] || []);
  return Object.keys(DATA.provinces).filter((p) => !out.has(p));
}

function controller(view, prov, slot) {
  const occ = view.occupy?.[prov]?.[slot];
  if (occ !== undefined && occ !== null) return Number(occ);
  const m = view.markers?.[prov];
  return m === undefined || m === null ? null : Number(m);
}

function unitDots(view, counts, x, y, kind) {
  const g = s("g", { class: `units ${kind}` });
  let i = 0;
  (counts || []).forEach((n, seat) => {
    if (!n) return;
    const cx = x + i * 24;
    if (kind === "trireme") g.append(s("path", { d: `M${cx - 10},${y - 4} L${cx + 10},${y - 4} L${cx + 6},${y + 6} L${cx - 6},${y + 6} Z`, fill: seatColour(view, seat), stroke: "#222", "stroke-width": 1, class: "piece", dataset: { seat } }));
    else g.append(s("rect", { x: cx - 9, y: y - 8, width: 18, height: 16, rx: 3, fill: seatColour(view, seat), stroke: "#222", "stroke-width": 1, class: "piece", dataset: { seat } }));
    g.append(s("text", { x: cx, y: y + 4, "text-anchor": "middle", class: "unit-txt" }, String(n)));
    i++;
  });
  return g;
}

/** opts: {t, lit: Map(area -> "choice" | "move"), selected, from: Set of areas with movable units} */
export function draw(view, opts = {}) {
  const t = opts.t || ((k) => k);
  const lit = opts.lit || new Map();
  const svg = s("svg", { class: "mn-map board-svg", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("mn.map") });
  const provs = inPlay(view);
  const live = new Set(provs);
  // links
  const links = s("g", { class: "links" });
  for (const [sid, sea] of Object.entries(DATA.seas)) {
    const [sx, sy] = SEA[sid];
    for (const p of sea.land) if (live.has(p)) links.append(s("line", { x1: sx, y1: sy, x2: PROV[p][0], y2: PROV[p][1], class: "link" }));
    for (const o of sea.seas) if (o > sid) links.append(s("line", { x1: sx, y1: sy, x2: SEA[o][0], y2: SEA[o][1], class: "link" }));
  }
  for (const p of provs) for (const q of DATA.provinces[p].land) if (q > p && live.has(q)) links.append(s("line", { x1: PROV[p][0], y1: PROV[p][1], x2: PROV[q][0], y2: PROV[q][1], class: "landlink" }));
  svg.append(links);
  const classes = (id) => {
    const c = ["area"];
    const l = lit.get(id);
    if (l) c.push("lit", `lit-${l}`);
    if (opts.selected === id) c.push("selected");
    else if (opts.from?.has(id)) c.push("from");
    return c.join(" ");
  };
  for (const [sid, [x, y]] of Object.entries(SEA)) {
    const g = s("g", { class: `sea ${classes(sid)}`, dataset: { area: sid }, tabindex: lit.has(sid) || opts.from?.has(sid) ? 0 : undefined });
    g.append(s("title", {}, areaName(sid)));
    g.append(s("ellipse", { cx: x, cy: y, rx: 62, ry: 30 }));
    g.append(s("text", { x, y: y - 10, "text-anchor": "middle", class: "name" }, areaName(sid)));
    g.append(unitDots(view, view.triremes?.[sid], x - 20, y + 10, "trireme"));
    svg.append(g);
  }
  for (const p of provs) {
    const [cx, cy] = PROV[p];
    const x = cx - PW / 2;
    const y = cy - PH / 2;
    const leg = view.legions?.[p] || [];
    const war = leg.filter((n) => n > 0).length >= 2;
    const g = s("g", { class: `prov ${classes(p)}${war ? " war" : ""}`, dataset: { area: p }, tabindex: lit.has(p) || opts.from?.has(p) ? 0 : undefined });
    g.append(s("title", {}, areaName(p)));
    g.append(s("rect", { x, y, width: PW, height: PH, rx: 8, class: "box" }));
    const owner = view.markers?.[p];
    if (owner !== undefined && owner !== null) {
      g.append(s("circle", { cx: x + 11, cy: y + 11, r: 7, fill: seatColour(view, owner), class: "marker", dataset: { marker: owner } }));
      if (view.pending?.[p]) g.append(s("text", { x: x + 11, y: y + 14, "text-anchor": "middle", class: "unit-txt" }, "?"));
    } else if (view.pending?.[p]) {
      g.append(s("circle", { cx: x + 11, cy: y + 11, r: 7, fill: "#fff", stroke: seatColour(view, view.pending[p][0]), "stroke-width": 3, class: "marker pending" }));
    }
    g.append(s("text", { x: x + 22, y: y + 15, class: "name" }, areaName(p)));
    if (view.fortresses?.[p] !== undefined && view.fortresses?.[p] !== null) {
      g.append(s("path", { d: `M${x + PW - 20},${y + 18} v-12 h4 v4 h4 v-4 h4 v4 h4 v-4 h4 v12 Z`, fill: seatColour(view, view.fortresses[p]), stroke: "#222", class: "fortress" }, s("title", {}, t("mn.unit.fortress"))));
    }
    const built = new Set(view.buildings?.[p] || []);
    const slots = DATA.provinces[p].slots;
    slots.forEach((slot, i) => {
      const sx = x + 6 + i * 23;
      const sy = y + 23;
      const kind = slot.split(":")[0];
      const isBuilt = built.has(slot);
      const c = isBuilt ? controller(view, p, slot) : null;
      const code = kind === "caravan" ? slot.split(":")[1].slice(0, 2) : SLOT_CODE[kind] || kind[0];
      const sg = s("g", { class: `slot-g${isBuilt ? " built" : ""}`, dataset: { slot } });
      sg.append(s("title", {}, `${slotName(t, slot)}${isBuilt ? "" : ` — ${t("mn.emptySlot")}`}`));
      sg.append(s("rect", { x: sx, y: sy, width: 21, height: 14, rx: kind === "caravan" ? 2 : 7, class: `slot ${isBuilt ? "built" : "empty"}`, fill: isBuilt ? (c === null ? "#bbb" : seatColour(view, c)) : undefined }));
      sg.append(s("text", { x: sx + 10.5, y: sy + 10, "text-anchor": "middle", class: "slot-txt", fill: isBuilt ? "#fff" : "#6b5a3a" }, code));
      g.append(sg);
    });
    g.append(unitDots(view, leg, x + 14, y + PH - 12, "legion"));
    svg.append(g);
  }
  return svg;
}
