// The game's data for the client: the map and the People cards (rules §9.1, §9.2). map.json and
// peoples.json next to this module are copies of the engine's packaged files (a test checks they
// are the same); a table created with the `map` or `peoples` option uses its own objects instead.

const here = new URL("./", import.meta.url);

async function load(name) {
  const res = await fetch(new URL(name, here));
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return res.json();
}

const [DEFAULT_MAP, DEFAULT_PEOPLES] = await Promise.all([load("map.json"), load("peoples.json")]);

// counter colours per card Epoch (§2.3: blue for Epoch 1 and red for Epoch 5 from the seed; the
// client chooses 2 to 4); `ink` is the colour of a symbol drawn on them
export const EPOCH_COLOURS = {
  1: { fill: "#2f6fd0", dark: "#143a78", ink: "#ffffff" },
  2: { fill: "#2f9a55", dark: "#11502a", ink: "#ffffff" },
  3: { fill: "#e2a623", dark: "#7a5200", ink: "#2a1d00" },
  4: { fill: "#8a48b3", dark: "#45205d", ink: "#ffffff" },
  5: { fill: "#d1382c", dark: "#6e140d", ink: "#ffffff" },
};

export function epochColour(epoch) {
  return EPOCH_COLOURS[epoch] || { fill: "#888", dark: "#333", ink: "#fff" };
}

function index(map, peoples) {
  const areas = new Map((map.areas || []).map((a) => [a.id, a]));
  const people = new Map((peoples.peoples || []).map((p) => [p.id, p]));
  const difficult = new Set((map.difficult_borders || []).map((d) => `${d.attacker_area}>${d.defender_area}`));
  /** Order number of People `id` in `epoch` (E4.2): its override for that Epoch, else its base order. */
  const order = (id, epoch) => {
    const p = people.get(id);
    if (!p) return 99;
    return p.order_overrides?.[String(epoch)] ?? p.base_order;
  };
  const bonusValue = (id) => {
    const p = people.get(id);
    const a = p && areas.get(p.bonus_area);
    return a ? (a.double_value ? 4 : 2) : 0;
  };
  return { map, peoples, areas, people, difficult, order, bonusValue };
}

const DEFAULT = index(DEFAULT_MAP, DEFAULT_PEOPLES);
const custom = new WeakMap();

/** The data a table plays with: its `map` / `peoples` options when they are objects, else the defaults. */
export function dataFor(tableInfo) {
  const opts = tableInfo?.options || {};
  const map = opts.map && typeof opts.map === "object" ? opts.map : null;
  const peoples = opts.peoples && typeof opts.peoples === "object" ? opts.peoples : null;
  if (!map && !peoples) return DEFAULT;
  const key = map || peoples;
  if (!custom.has(key)) custom.set(key, index(map || DEFAULT_MAP, peoples || DEFAULT_PEOPLES));
  return custom.get(key);
}

export function defaultData() {
  return DEFAULT;
}

/** Who holds each People whose card this view shows: Map(people id -> symbol). */
export function owners(view) {
  const out = new Map();
  for (const pl of view?.players || []) for (const c of pl.cards || []) if (c.people) out.set(c.people, pl.symbol);
  return out;
}

/** Area id -> [people, tribes] from the view. */
export function occupancy(view) {
  return new Map((view?.areas || []).map(([area, people, n]) => [area, [people, n]]));
}
