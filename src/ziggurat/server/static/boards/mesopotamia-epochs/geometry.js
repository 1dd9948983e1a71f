// The map's shapes, computed from the map data alone (rules §3.2: anchors in a 0-1000 box,
// "clients may draw the regions around the anchors in any style").
//
// Areas are the dual of the neighbour graph: anchors joined by straight lines (the sea's own
// borders left out: the sea is the water around the coasts) form a plane graph; each area's
// shape runs through the middle of each of its borders and the middle of each face between
// them, so two shapes touch exactly where the data says the areas are neighbours. On the
// outside of the land the shapes bulge out into a coast. Neighbours whose lines would cross
// others, or whose anchors are too far apart to meet, are drawn as straits (links) instead.
// Pure: map data in, numbers out; cached per map object.

// (an island reaches far enough to hold its name over its tribes and a line of marks under them)
const REACH = { land: 66, desert: 72, island: 46, uninhabited: 80 }; // how far a shape reaches out
const MAX = { land: 150, desert: 150, island: 52, uninhabited: 120 }; // never farther than this
const EPS = 1e-9;
const TAU = 2 * Math.PI;

/** Keep the part of polygon `poly` where a*x + b*y <= c (Sutherland-Hodgman step). */
function clipHalfPlane(poly, a, b, c) {
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    const fp = a * p[0] + b * p[1] - c;
    const fq = a * q[0] + b * q[1] - c;
    if (fp <= 0) out.push(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const k = fp / (fp - fq);
      out.push([p[0] + k * (q[0] - p[0]), p[1] + k * (q[1] - p[1])]);
    }
  }
  return out;
}

/** `poly` (any simple polygon) inside the disk of centre (x, y), radius r (a 48-gon). */
function clipDisk(poly, x, y, r) {
  let out = poly;
  const n = 48;
  for (let i = 0; i < n && out.length; i++) {
    const a = (TAU * (i + 0.5)) / n;
    const ux = Math.cos(a);
    const uy = Math.sin(a);
    out = clipHalfPlane(out, ux, uy, ux * x + uy * y + r);
  }
  return out;
}

function signedArea(poly) {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x0, y0] = poly[i];
    const [x1, y1] = poly[(i + 1) % poly.length];
    a += x0 * y1 - x1 * y0;
  }
  return a / 2;
}

export function polygonCentroid(poly) {
  const a = signedArea(poly);
  if (Math.abs(a) < EPS) {
    const n = poly.length || 1;
    return [poly.reduce((s, p) => s + p[0], 0) / n, poly.reduce((s, p) => s + p[1], 0) / n];
  }
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x0, y0] = poly[i];
    const [x1, y1] = poly[(i + 1) % poly.length];
    const f = x0 * y1 - x1 * y0;
    cx += (x0 + x1) * f;
    cy += (y0 + y1) * f;
  }
  return [cx / (6 * a), cy / (6 * a)];
}

export function pathOf(poly) {
  if (!poly || poly.length < 3) return "";
  return `M${poly.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join("L")}Z`;
}

function crosses(p1, p2, p3, p4) {
  const o = (a, b, c) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return o(p1, p2, p3) * o(p1, p2, p4) < 0 && o(p3, p4, p1) * o(p3, p4, p2) < 0;
}

const cache = new WeakMap();

// Where some anchors of a packaged map are drawn, when the map data's own anchors crowd an
// area's label, its marks and its tribes against its neighbours'. In the default map, Sumer
// (Ur, Uruk), Babylon, Kaldu and Elam lie so close that their pieces overlapped at every size:
// they are drawn spread out towards the empty south-east of the box. Knossos and Khania are
// drawn apart (Knossos had no room for its name, its double-value and its bonus marks), Ugarit a
// little lower (under its neighbours' corner, its name line had no room) and Alishiya a little
// further out to sea, off Ugarit's coast. Only the drawing moves (§3.2: "clients may draw the
// regions around the anchors in any style"); the neighbours and so the borders stay those of
// the data.
const DRAWN_AT = {
  "mesopotamia-epochs/default-map-v1": {
    babylon: [752, 584],
    uruk: [822, 652],
    ur: [892, 732],
    kaldu: [712, 712],
    elam: [912, 592],
    knossos: [140, 404],
    khania: [56, 391],
    ugarit: [470, 396],
    alishiya: [358, 416],
  },
};

/** The map's areas with the anchors they are drawn at (DRAWN_AT), the others as they are. */
function drawnAreas(map) {
  const moved = DRAWN_AT[map.map_id] || {};
  return (map.areas || []).map((a) => (moved[a.id] ? { ...a, x: moved[a.id][0], y: moved[a.id][1] } : a));
}

/**
 * The layout of `map` (the §9.1 object): {
 *   box: [x, y, w, h] (view box),
 *   areas: Map(id -> {id, name, kind, x, y, poly, path, double, coastal, neighbours}),
 *   dry: [path] (off-map land drawn over the sea that fills the box), seaLabel: [x, y] or null,
 *   links: [{a, b, p, q}] (neighbours whose shapes do not touch: drawn as a strait),
 *   difficult: [{from, to, at: [x, y], angle}] (a mark on the defender's side, pointing at the attacker),
 *   deserts: [id] }
 */
export function layout(map) {
  if (cache.has(map)) return cache.get(map);
  const all = drawnAreas(map);
  const byId = new Map(all.map((a) => [a.id, a]));
  const sea = all.filter((a) => a.kind === "sea");
  const sites = all.filter((a) => a.kind !== "sea");
  const reach = (a) => REACH[a.kind] ?? REACH.land;
  const far = (a) => MAX[a.kind] ?? MAX.land;

  // the plane graph: shortest borders first, a border that would cross one already kept is a link
  const pairs = [];
  const seen = new Set();
  for (const a of sites) {
    for (const id of a.neighbours || []) {
      const b = byId.get(id);
      if (!b || b.kind === "sea") continue;
      const k = a.id < b.id ? `${a.id}|${b.id}` : `${b.id}|${a.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      pairs.push([a, b, Math.hypot(a.x - b.x, a.y - b.y)]);
    }
  }
  pairs.sort((p, q) => p[2] - q[2]);
  const kept = [];
  const linkPairs = [];
  for (const [a, b, len] of pairs) {
    const clash = kept.some(([c, d]) => c !== a && c !== b && d !== a && d !== b && crosses([a.x, a.y], [b.x, b.y], [c.x, c.y], [d.x, d.y]));
    if (clash || len > 0.98 * (far(a) + far(b))) linkPairs.push([a, b]);
    else kept.push([a, b]);
  }
  const around = new Map(sites.map((a) => [a.id, []]));
  for (const [a, b] of kept) {
    around.get(a.id).push(b);
    around.get(b.id).push(a);
  }
  const angle = (a, b) => Math.atan2(b.y - a.y, b.x - a.x);
  for (const [id, list] of around) {
    const a = byId.get(id);
    list.sort((p, q) => angle(a, p) - angle(a, q));
  }

  // faces: next(u -> v) = v -> the neighbour of v just before u in angular order
  const faceOf = new Map(); // "u|v" -> face index
  const faces = [];
  for (const [id, list] of around) {
    for (const w of list) {
      if (faceOf.has(`${id}|${w.id}`)) continue;
      const fi = faces.length;
      const verts = [];
      let u = byId.get(id);
      let v = w;
      for (let guard = 0; guard < 1000 && !faceOf.has(`${u.id}|${v.id}`); guard++) {
        faceOf.set(`${u.id}|${v.id}`, fi);
        verts.push(u);
        const lv = around.get(v.id);
        const i = lv.indexOf(u);
        const next = lv[(i - 1 + lv.length) % lv.length];
        u = v;
        v = next;
      }
      const poly = verts.map((p) => [p.x, p.y]);
      faces.push({ verts, poly, area: signedArea(poly) });
    }
  }
  // inner faces go one way round; the outside of each piece of land the other way (or is flat)
  const innerSign = Math.sign(faces.reduce((s, f) => s + Math.sign(f.area), 0)) || 1;
  for (const f of faces) {
    f.outer = Math.sign(f.area) !== innerSign || Math.abs(f.area) < 1;
    f.centre = f.outer ? null : polygonCentroid(f.poly);
  }

  const mid = (a, b) => [(a.x + b.x) / 2, (a.y + b.y) / 2];
  // a shore: the reach of an anchor, wavy but the same every time (seeded by the id)
  const shore = (a) => {
    let h = 0;
    for (const ch of a.id) h = (h * 31 + ch.charCodeAt(0)) % 9973;
    const r = reach(a);
    return (th) => r * (1 + 0.07 * Math.sin(3 * th + h) + 0.05 * Math.sin(5 * th + h * 0.37) + 0.03 * Math.sin(9 * th + h * 0.11));
  };

  const areas = new Map();
  for (const a of sites) {
    const list = around.get(a.id);
    const r = shore(a);
    let poly = [];
    if (!list.length) {
      for (let i = 0; i < 48; i++) {
        const th = (TAU * i) / 48;
        poly.push([a.x + r(th) * Math.cos(th), a.y + r(th) * Math.sin(th)]);
      }
    } else {
      for (let i = 0; i < list.length; i++) {
        const w = list[i];
        const w2 = list[(i + 1) % list.length];
        poly.push(mid(a, w));
        const f = faces[faceOf.get(`${w2.id}|${a.id}`)];
        if (f && !f.outer) {
          poly.push(f.centre);
          continue;
        }
        // a coast: the sector between the two borders, cut where another anchor is nearer
        const t1 = Math.atan2(w.y - a.y, w.x - a.x);
        let wedge = Math.atan2(w2.y - a.y, w2.x - a.x) - t1;
        while (wedge <= 1e-9) wedge += TAU;
        if (list.length === 1) wedge = TAU;
        const fan = [[a.x, a.y]];
        const steps = Math.max(2, Math.ceil(wedge / (TAU / 48)));
        for (let k = 0; k <= steps; k++) {
          const th = t1 + (wedge * k) / steps;
          fan.push([a.x + r(th) * Math.cos(th), a.y + r(th) * Math.sin(th)]);
        }
        poly.push(...voronoiClip(fan, a, sites));
      }
    }
    poly = clipDisk(poly, a.x, a.y, far(a));
    areas.set(a.id, {
      id: a.id,
      name: a.name,
      kind: a.kind,
      x: a.x,
      y: a.y,
      poly,
      path: pathOf(poly),
      double: !!a.double_value,
      coastal: !!a.coastal,
      neighbours: a.neighbours || [],
    });
  }
  for (const a of sea) {
    areas.set(a.id, { id: a.id, name: a.name, kind: "sea", x: a.x, y: a.y, poly: [], path: "", double: false, coastal: false, neighbours: a.neighbours || [] });
  }

  const links = [];
  for (const [a, b] of linkPairs) {
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const ra = Math.min(reach(a) * 0.6, len / 3);
    const rb = Math.min(reach(b) * 0.6, len / 3);
    links.push({ a: a.id, b: b.id, p: [a.x + ux * ra, a.y + uy * ra], q: [b.x - ux * rb, b.y - uy * rb] });
  }

  // the sea fills the box; off-map land is drawn over it: the Voronoi cells of the anchors that
  // are not coastal, and the landward side of each coastal anchor's cell (islands face the sea
  // all round; other coastal areas face their sea's anchor)
  const xs = all.map((a) => a.x);
  const ys = all.map((a) => a.y);
  const minX = Math.min(0, ...xs) - 200;
  const minY = Math.min(0, ...ys) - 200;
  const maxX = Math.max(1000, ...xs) + 200;
  const maxY = Math.max(1000, ...ys) + 200;
  const box = [
    [minX, minY],
    [maxX, minY],
    [maxX, maxY],
    [minX, maxY],
  ];
  const dry = [];
  for (const a of all) {
    if (a.kind === "sea" || a.kind === "island") continue;
    let cell = box;
    for (const o of all) {
      if (o === a || !cell.length) continue;
      const dx = o.x - a.x;
      const dy = o.y - a.y;
      if (dx === 0 && dy === 0) continue;
      cell = clipHalfPlane(cell, 2 * dx, 2 * dy, o.x * o.x + o.y * o.y - a.x * a.x - a.y * a.y);
    }
    if (a.coastal && sea.length) {
      // the landward cone: within 70 degrees of the direction away from the sea
      const s0 = sea[0];
      const len = Math.hypot(s0.x - a.x, s0.y - a.y) || 1;
      const bx = -(s0.x - a.x) / len;
      const by = -(s0.y - a.y) / len;
      for (const sgn of [1, -1]) {
        const th = (sgn * 70 * Math.PI) / 180;
        const dx = bx * Math.cos(th) - by * Math.sin(th);
        const dy = bx * Math.sin(th) + by * Math.cos(th);
        let nx = -dy;
        let ny = dx;
        if (nx * bx + ny * by > 0) {
          nx = -nx;
          ny = -ny;
        }
        cell = clipHalfPlane(cell, nx, ny, nx * a.x + ny * a.y);
      }
    }
    if (cell.length >= 3) dry.push(pathOf(cell));
  }

  const difficult = [];
  for (const d of map.difficult_borders || []) {
    const from = byId.get(d.attacker_area);
    const to = byId.get(d.defender_area);
    if (!from || !to) continue;
    const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    const nx = (to.x - from.x) / len;
    const ny = (to.y - from.y) / len;
    const [mx, my] = mid(from, to);
    // on the defender's side of the border, pointing at the attacker (the HOTW symbol)
    difficult.push({ from: from.id, to: to.id, at: [mx + nx * 10, my + ny * 10], angle: (Math.atan2(-ny, -nx) * 180) / Math.PI });
  }

  const out = {
    box: [minX, minY, maxX - minX, maxY - minY],
    areas,
    dry,
    seaLabel: sea.length ? [sea[0].x, sea[0].y] : null,
    links,
    difficult,
    deserts: sites.filter((a) => a.kind === "desert").map((a) => a.id),
  };
  cache.set(map, out);
  return out;
}

/** The points of fan [anchor, p1, ..., pn] that stay nearer `a` than any other site, anchor left out. */
function voronoiClip(fan, a, sites) {
  let poly = fan;
  for (const o of sites) {
    if (o === a || !poly.length) continue;
    const dx = o.x - a.x;
    const dy = o.y - a.y;
    if (dx === 0 && dy === 0) continue;
    poly = clipHalfPlane(poly, 2 * dx, 2 * dy, o.x * o.x + o.y * o.y - a.x * a.x - a.y * a.y + 1e-6);
  }
  const i = poly.findIndex((p) => p[0] === a.x && p[1] === a.y);
  if (i < 0) return poly;
  return poly.slice(i + 1).concat(poly.slice(0, i));
}
