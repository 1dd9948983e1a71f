// The Mare Nostrum map as SVG, at the positions of the engine's map data (map.json's layout keys,
// served with the board data): seas are water polygons with their triremes (coasts solid, borders
// between seas dashed), provinces are cards with their slots, buildings, influence marker, legions
// and fortress, joined by land links; provinces out of play at this player count are greyed out.
import { s } from "../../dom.js";
import { DATA } from "./data.js";
import { areaName, empireName, seatColour, seatInk, slotCode, slotName } from "./labels.js";

const L = DATA.layout;
const CW = L.card_width;
const CH = L.card_height;

// Labels are sized for the map drawn about 840 px wide (a desktop's board column at 100%, scale
// ~0.68): names and unit counts at 16.5 units read at about 11 CSS px, slot codes at 12 units
// at about 8 CSS px (board.css); a phone draws the map wider than its screen and scrolls it.
const NAME_X = 8; // a province's name is centred right of the middle, clear of its marker
const NAME_ROOM = CW - 24; // the width a province's name may take (fitLabels)
const LEGION = 21; // a legion's badge (a square), and the step from one seat's badge to the next
const LEGION_STEP = 24;
const LEGION_GAP = 2; // the least space between two seats' badges, or between a badge and the fortress
const FORT_X = CW - 20; // a fortress's left edge on its card (15 wide, under the slots)
// a province's slots share its card's width (a step of at most SLOT_STEP each): their codes, at
// 12 units (about 8 CSS px on a desktop), are narrowed to their slot where wider (fitLabels)
const SLOT_STEP = 28;
const SLOT_ROW = CW - 6;
const TRIREME_STEP = 31;
// a sea's name (with its triremes) moved from its map point where it would touch a card at that size
const SEA_NUDGE = { mare_ionium: [14, 6] };

const points = (text) => text.split(" ").map((p) => p.split(",").map(Number));

// polygon edges of the seas: coasts (one sea) and borders between two seas, computed once
const EDGES = (() => {
  const count = new Map();
  for (const sea of Object.values(DATA.seas)) {
    const pts = points(sea.shape);
    pts.forEach((p, i) => {
      const q = pts[(i + 1) % pts.length];
      const [a, b] = [p, q].sort((u, v) => u[0] - v[0] || u[1] - v[1]);
      const key = `${a}|${b}`;
      count.set(key, { a, b, n: (count.get(key)?.n || 0) + 1 });
    });
  }
  const coast = [];
  const borders = [];
  for (const e of count.values()) (e.n > 1 ? borders : coast).push(e);
  return { coast, borders };
})();

export function inPlay(view) {
  const out = new Set(DATA.out_of_play[String(view.n)] || []);
  return Object.keys(DATA.provinces).filter((p) => !out.has(p));
}

function linkPath(a, b) {
  const [p, q] = [a, b].sort();
  const via = DATA.layout.link_via?.[`${p} ${q}`];
  const bends = via ? points(via) : [];
  const pa = [DATA.provinces[a].x, DATA.provinces[a].y];
  const pb = [DATA.provinces[b].x, DATA.provinces[b].y];
  return [pa, ...(a < b ? bends : bends.slice().reverse()), pb];
}

function controller(view, prov, slot) {
  const occ = view.occupy?.[prov]?.[slot];
  if (occ !== undefined && occ !== null) return Number(occ);
  const m = view.markers?.[prov];
  return m === undefined || m === null ? null : Number(m);
}

/** Where a seat's empire is on the map: the province of its own capital (a capital it controls,
 * one it did not take by occupation first), else, when the view shows none, the provinces under
 * its influence markers; [] before the empires are dealt. */
export function homeOf(view, seat) {
  const provs = inPlay(view);
  const capitals = provs.filter((p) => (view.buildings?.[p] || []).includes("capital") && controller(view, p, "capital") === seat);
  const own = capitals.filter((p) => view.occupy?.[p]?.capital === undefined || view.occupy?.[p]?.capital === null);
  if (capitals.length) return [(own.length ? own : capitals)[0]];
  return provs.filter((p) => view.markers?.[p] !== undefined && view.markers?.[p] !== null && Number(view.markers[p]) === seat);
}

/** The halo around a count printed on a seat's piece: the opposite of its ink, so that the
 * number stands out from the piece and from the map around it. */
function haloOf(ink) {
  return String(ink).toLowerCase() === "#fff" || String(ink).toLowerCase() === "#ffffff" ? "rgba(0,0,0,.6)" : "rgba(255,255,255,.85)";
}

/** The legions' badges in a row of ``room`` units for ``k`` seats: their size and step. Up to
 * four seats' fit at full size beside a fortress; where more would not, the step narrows, then
 * the badges are drawn smaller, so that none touches another, the fortress or the card's edge. */
function legionRow(k, room) {
  if (k <= 1 || LEGION * k + (LEGION_STEP - LEGION) * (k - 1) <= room) return { size: LEGION, step: LEGION_STEP };
  const step = (room - LEGION) / (k - 1);
  if (step >= LEGION + LEGION_GAP) return { size: LEGION, step };
  const size = (room - LEGION_GAP * (k - 1)) / k;
  return { size, step: size + LEGION_GAP };
}

/** A seat's pieces in a row: triremes from the centre ``x`` of the first, legions (``row``: their
 * size and step, legionRow) from the left edge ``x`` of the first, on the line ``y``. */
function unitDots(view, counts, x, y, kind, row = { size: LEGION, step: LEGION_STEP }) {
  const g = s("g", { class: `units ${kind}` });
  let i = 0;
  (counts || []).forEach((n, seat) => {
    if (!n) return;
    const cx = kind === "trireme" ? x + i * TRIREME_STEP : x + row.size / 2 + i * row.step;
    const fill = seatColour(view, seat);
    if (kind === "trireme") g.append(s("path", { d: `M${cx - 14},${y - 9} h28 l-6,18 h-16 Z`, fill, stroke: "#fff", "stroke-width": 1.5, class: "piece", dataset: { seat } }));
    else g.append(s("rect", { x: cx - row.size / 2, y: y - row.size / 2, width: row.size, height: row.size, rx: 4, fill, stroke: "#fff", "stroke-width": 1.5, class: "piece", dataset: { seat } }));
    const ink = seatInk(view, seat);
    g.append(s("text", { x: cx, y: y + 5.8, "text-anchor": "middle", class: "unit-txt", fill: ink, stroke: haloOf(ink), dataset: { seat } }, String(n)));
    i++;
  });
  return g;
}

/** Names wider than their room (``data-fit``, in map units) are narrowed to it: call once the
 * map is in the page, with its stylesheet (the text is measured). */
export function fitLabels(svg) {
  for (const el of svg.querySelectorAll("text[data-fit]")) {
    const room = Number(el.dataset.fit);
    el.removeAttribute("textLength");
    el.removeAttribute("lengthAdjust");
    let wide = 0;
    try {
      wide = el.getComputedTextLength();
    } catch {
      wide = 0; // not laid out (a hidden board): drawn as it is
    }
    if (wide > room) {
      el.setAttribute("textLength", String(room));
      el.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/** opts: {t, lit: Map(area -> "choice" | "move"), selected, from: Set of areas with movable units} */
export function draw(view, opts = {}) {
  const t = opts.t || ((k) => k);
  const lit = opts.lit || new Map();
  const svg = s("svg", { class: "mn-map board-svg", viewBox: `0 0 ${L.width} ${L.height}`, role: "img", "aria-label": t("mn.map") });
  svg.append(s("rect", { x: 0, y: 0, width: L.width, height: L.height, class: "land" }));
  const provs = inPlay(view);
  const live = new Set(provs);
  const battle = view.battle?.where;
  const classes = (id) => {
    const c = ["area"];
    if (battle === id) c.push("battle-here");
    const l = lit.get(id);
    if (l) c.push("lit", `lit-${l}`);
    if (opts.selected === id) c.push("selected");
    else if (opts.from?.has(id)) c.push("from");
    return c.join(" ");
  };
  const focusable = (id) => (lit.has(id) || opts.from?.has(id) ? 0 : undefined);
  // seas: lit or selected ones last, so that their outline is not under a neighbour's water
  const marked = (id) => lit.has(id) || opts.selected === id || opts.from?.has(id) || battle === id;
  const seas = Object.keys(DATA.seas).sort((a, b) => Number(marked(a)) - Number(marked(b)));
  for (const sid of seas) {
    const sea = DATA.seas[sid];
    const g = s("g", { class: `sea ${classes(sid)}`, dataset: { area: sid }, tabindex: focusable(sid) });
    g.append(s("title", {}, areaName(sid)));
    g.append(s("polygon", { points: sea.shape, class: "water" }));
    if (marked(sid)) g.append(s("polygon", { points: sea.shape, class: "halo" }));
    const [nx, ny] = SEA_NUDGE[sid] || [0, 0];
    g.append(s("text", { x: sea.x + nx, y: sea.y + ny, "text-anchor": "middle", class: "name" }, areaName(sid)));
    const k = (view.triremes?.[sid] || []).filter((n) => n > 0).length;
    g.append(unitDots(view, view.triremes?.[sid], sea.x + nx - ((k - 1) * TRIREME_STEP) / 2, sea.y + ny + 20, "trireme"));
    svg.append(g);
  }
  const line = (e, cls) => s("line", { x1: e.a[0], y1: e.a[1], x2: e.b[0], y2: e.b[1], class: cls });
  svg.append(s("g", { class: "coasts" }, EDGES.coast.map((e) => line(e, "coast")), EDGES.borders.map((e) => line(e, "sea-border"))));
  const links = s("g", { class: "links" });
  for (const p of provs) for (const q of DATA.provinces[p].land) if (q > p && live.has(q)) links.append(s("polyline", { points: linkPath(p, q).map((x) => x.join(",")).join(" "), class: "landlink" }));
  svg.append(links);
  for (const p of Object.keys(DATA.provinces)) {
    if (live.has(p)) continue;
    const { x, y } = DATA.provinces[p];
    svg.append(
      s(
        "g",
        { class: "prov-out", dataset: { covered: p } },
        s("title", {}, `${areaName(p)} — ${t("mn.outOfPlay")}`),
        s("rect", { x: x - CW / 2, y: y - CH / 2, width: CW, height: CH, rx: 8 }),
        s("text", { x, y: y - 2, "text-anchor": "middle", class: "name", dataset: { fit: CW - 8 } }, areaName(p)),
        s("text", { x, y: y + 16, "text-anchor": "middle", class: "out-txt" }, t("mn.outOfPlay")),
      ),
    );
  }
  for (const p of provs) {
    const { x: cx, y: cy } = DATA.provinces[p];
    const x = cx - CW / 2;
    const y = cy - CH / 2;
    const leg = view.legions?.[p] || [];
    const war = leg.filter((n) => n > 0).length >= 2;
    const owner = view.markers?.[p];
    const owned = owner !== undefined && owner !== null;
    const g = s("g", { class: `prov ${classes(p)}${war ? " war" : ""}`, dataset: { area: p }, tabindex: focusable(p) });
    g.append(s("title", {}, areaName(p)));
    if (marked(p)) g.append(s("rect", { x: x - 4, y: y - 4, width: CW + 8, height: CH + 8, rx: 11, class: "halo" }));
    g.append(s("rect", { x, y, width: CW, height: CH, rx: 8, class: "box", style: owned ? `--owner:${seatColour(view, owner)}` : undefined, dataset: owned ? { owner } : undefined }));
    if (owned) {
      g.append(s("circle", { cx: x + 11, cy: y + 11, r: 7, fill: seatColour(view, owner), class: "marker", dataset: { marker: owner } }, s("title", {}, t("mn.markerOf", { who: empireName(t, view, owner) }))));
      if (view.pending?.[p]) g.append(s("text", { x: x + 11, y: y + 14.5, "text-anchor": "middle", class: "marker-txt", fill: seatInk(view, owner) }, "?"));
    } else if (view.pending?.[p]) {
      g.append(s("circle", { cx: x + 11, cy: y + 11, r: 7, fill: "#fff", stroke: seatColour(view, view.pending[p][0]), "stroke-width": 3, class: "marker pending" }));
    }
    g.append(s("text", { x: cx + NAME_X, y: y + 16.5, "text-anchor": "middle", class: "name", dataset: { fit: NAME_ROOM } }, areaName(p)));
    const fortified = view.fortresses?.[p] !== undefined && view.fortresses?.[p] !== null;
    if (fortified) {
      const fx = x + FORT_X;
      const fy = y + 41;
      g.append(s("path", { d: `M${fx},${fy + 15} v-11 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v11 Z`, fill: seatColour(view, view.fortresses[p]), stroke: "#fff", "stroke-width": 0.8, class: "fortress" }, s("title", {}, t("mn.unit.fortress"))));
    }
    const built = new Set(view.buildings?.[p] || []);
    const slots = DATA.provinces[p].slots;
    const sw = Math.min(SLOT_STEP, SLOT_ROW / slots.length);
    slots.forEach((slot, i) => {
      const sx = cx - (slots.length * sw) / 2 + i * sw;
      const sy = y + 21;
      const kind = slot.split(":")[0];
      const isBuilt = built.has(slot);
      const occupied = view.occupy?.[p]?.[slot] !== undefined && view.occupy?.[p]?.[slot] !== null;
      const c = isBuilt ? controller(view, p, slot) : null;
      const sg = s("g", { class: `slot-g${isBuilt ? " built" : ""}${occupied ? " occupied" : ""}`, dataset: { slot } });
      sg.append(s("title", {}, `${slotName(t, slot)} — ${t(isBuilt ? (occupied ? "mn.occupiedSlot" : "mn.builtSlot") : "mn.emptySlot")}`));
      sg.append(s("rect", { x: sx + 0.5, y: sy, width: sw - 1, height: 16, rx: kind === "caravan" ? 2 : 6, class: `slot ${isBuilt ? "built" : "empty"} k-${kind}`, fill: isBuilt ? (c === null ? "#bbb" : seatColour(view, c)) : undefined }));
      sg.append(s("text", { x: sx + sw / 2, y: sy + 12.3, "text-anchor": "middle", class: "slot-txt", fill: isBuilt ? (c === null ? "#222" : seatInk(view, c)) : undefined, dataset: { fit: sw - 3 } }, slotCode(t, slot)));
      g.append(sg);
    });
    const row = legionRow(leg.filter((n) => n > 0).length, (fortified ? FORT_X - LEGION_GAP - 1 : CW - 4) - 4);
    g.append(unitDots(view, leg, x + 4, y + CH - 2 - row.size / 2, "legion", row));
    svg.append(g);
  }
  return svg;
}
