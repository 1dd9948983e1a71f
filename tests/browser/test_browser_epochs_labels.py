"""The names and marks of the Mesopotamia: Epochs areas with the least room for them: Knossos,
Ugarit, Alishiya, Islands and Subartu (islands, a wedge between neighbours, a double-value area
with two bonus stars). With every area held (stacks with counts), every People's card face up
(so every bonus star shows), each of those Peoples in turn the active one (its star drawn
larger) and an attack under way in each of the five areas, on the table page at desktop and
phone sizes: the name, the double-value mark and each star stay inside their own area, none of
them overlaps another label, mark or tribe of the map, and a click or a tap on the middle of
each reaches its own area."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import open_table
from playwright.sync_api import Page, expect

import ziggurat

ROOT = Path(__file__).resolve().parents[2]
GAME = "mesopotamia-epochs"
STATIC = ROOT / "src/ziggurat/server/static/boards/mesopotamia-epochs"
FIVE = ("knossos", "ugarit", "alishiya", "islands", "subartu")
DOUBLE = {"knossos", "ugarit", "subartu"}

DRAW = """async ([view, combat]) => {
  const m = await import('/boards/mesopotamia-epochs.js');
  const d = await import('/boards/mesopotamia-epochs/draw.js');
  const { t } = await import('/i18n.js');
  document.getElementById('board').replaceChildren(d.draw(view, { t, combat }), m.legend(t, view));
}"""

# Every label (name, double-value mark, bonus star), tribe, difficult-border mark and the sea's
# name, with its box on screen, its area and, for the five areas' labels, the corners of its
# box that are outside its area's shape (in map units, from the drawing's own geometry).
ITEMS = """async (five) => {
  const { layout } = await import('/boards/mesopotamia-epochs/geometry.js');
  const { defaultData } = await import('/boards/mesopotamia-epochs/data.js');
  const L = layout(defaultData().map);
  const svg = document.querySelector('#board svg.epochs-map');
  const toMap = svg.getScreenCTM().inverse();
  const inside = (poly, x, y) => {
    let yes = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i], [xj, yj] = poly[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) yes = !yes;
    }
    return yes;
  };
  const items = [
    ...[...svg.querySelectorAll('.labels [data-of]')].map((e) => [e, e.dataset.of, e.classList[0]]),
    ...[...svg.querySelectorAll('.pieces .tribe')].map((e) => [e, e.dataset.area, e.dataset.attacker ? 'attacker' : 'tribe']),
    ...[...svg.querySelectorAll('.difficult-mark')].map((e) => [e, null, 'difficult']),
    ...[...svg.querySelectorAll('.sea-label')].map((e) => [e, null, 'sea']),
  ];
  return items.map(([el, area, kind]) => {
    const r = el.getBoundingClientRect();
    const outside = [];
    if (five.includes(area) && !['tribe', 'attacker'].includes(kind)) {
      for (const [x, y] of [[r.left, r.top], [r.right, r.top], [r.left, r.bottom], [r.right, r.bottom]]) {
        const p = new DOMPoint(x, y).matrixTransform(toMap);
        if (!inside(L.areas.get(area).poly, p.x, p.y)) outside.push([Math.round(p.x), Math.round(p.y)]);
      }
    }
    return { area, kind, box: [r.left, r.top, r.right, r.bottom], outside };
  });
}"""

# the area a click or a tap on the middle of each of an area's labels reaches (scrolled into
# sight in the board's box first)
UNDER = """(area) => {
  const svg = document.querySelector('#board svg.epochs-map');
  svg.querySelector(`.area[data-area="${area}"]`).scrollIntoView({ block: 'center', inline: 'center' });
  return [...svg.querySelectorAll(`.labels [data-of="${area}"]`)].map((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).find((e) => e.closest('.epochs-map .area'));
    return [el.classList[0], hit?.closest('.area').dataset.area ?? null];
  });
}"""


def _full_view(active: str, combat: str | None) -> dict[str, Any]:
    """A view of a five-player game in which every People's card is face up (so every bonus
    star is drawn), every land area is held by three tribes, ``active`` places its tribes and,
    with ``combat``, attacks that area."""
    rng = random.Random(5)
    s = ziggurat.load(GAME, players=5).new_initial_state()
    while not (s.current_player() >= 0 and s.view(None)["phase"] == "strategy"):
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    view: dict[str, Any] = s.view(s.current_player())
    peoples = json.loads((STATIC / "peoples.json").read_text())["peoples"]
    areas = json.loads((STATIC / "map.json").read_text())["areas"]
    for i, player in enumerate(view["players"]):
        player["cards"] = [
            {"epoch": p["card_epoch"], "people": p["id"], "public": True, "known_by": []}
            for k, p in enumerate(peoples)
            if k % 5 == i
        ]
    others = [p["id"] for p in peoples if p["id"] != active]
    land = [a["id"] for a in areas if a["kind"] in ("land", "island", "desert")]
    view["areas"] = [[a, others[k % len(others)], 3] for k, a in enumerate(land)]
    if combat is None:  # the active People holds its own bonus area (its tribes ringed there)
        home = next(p["bonus_area"] for p in peoples if p["id"] == active)
        view["areas"] = [[a, active if a == home else people, n] for a, people, n in view["areas"]]
    view["round"] = {"people": active, "order": 4, "pool": 3, "sea_start": False, "coast_held": False}
    view["pending"] = ["combat", combat, 1] if combat else None
    view["last_attack"] = None
    return view


def _boards() -> list[tuple[dict[str, Any], dict[str, Any] | None, str]]:
    """(view, combat, name) of each board the test draws."""
    stars = ("minoans", "mycenaeans", "phoenicians", "sea_peoples", "assyrians", "medes")
    out: list[tuple[dict[str, Any], dict[str, Any] | None, str]]
    out = [(_full_view(p, None), None, f"active {p}") for p in stars]
    out += [(_full_view("hittites", a), {"area": a, "dice": 1}, f"attack on {a}") for a in FIVE]
    return out


def _label_of_the_five(item: dict[str, Any]) -> bool:
    return item["area"] in FIVE and item["kind"] not in ("tribe", "attacker")


def _apart(a: list[float], b: list[float]) -> bool:
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a, b
    return ax1 <= bx0 + 0.5 or bx1 <= ax0 + 0.5 or ay1 <= by0 + 0.5 or by1 <= ay0 + 0.5


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize(
    ("size", "viewport"),
    [("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 375, "height": 740})],
)
def test_the_five_tightest_areas_keep_their_names_and_marks_inside_and_apart(
    new_page: Any, server: Any, shots: Path, size: str, viewport: dict[str, int], locale: str
) -> None:
    """In English and in French (whose names are longer: Ougarit, Alashiya)."""
    phone = size == "phone"
    page: Page = new_page(viewport=viewport, is_mobile=phone, has_touch=phone, locale=locale)
    table = server.create_table([{"kind": "human"}] * 3, game=GAME, seed=3)
    open_table(page, table["seats"][0]["link"])
    # the seats' facts come after the first state and redraw the board: the test's boards are
    # drawn over it once they are here, so nothing of the page's own replaces them
    expect(page.locator("#players .conn").first).to_be_visible()
    if locale == "fr-FR":
        expect(page.locator("#board .area-label[data-of='ugarit']")).to_have_text("Ougarit")
    pictured = ("knossos", "subartu") if phone else ("subartu",)  # the west and the east on a phone
    for view, combat, name in _boards():
        page.evaluate(DRAW, [view, combat])
        found = page.evaluate(ITEMS, list(FIVE))
        for area in FIVE:
            kinds = [f["kind"] for f in found if f["area"] == area]
            assert kinds.count("area-label") == 1, (name, area, kinds)
            assert kinds.count("double-mark") == (area in DOUBLE), (name, area, kinds)
            assert kinds.count("bonus-mark") == (2 if area == "subartu" else 1), (name, area, kinds)
        spilt = [(f["area"], f["kind"], f["outside"]) for f in found if f["outside"]]
        assert spilt == [], (name, spilt)
        clashes = [
            ((a["area"], a["kind"]), (b["area"], b["kind"]))
            for i, a in enumerate(found)
            for b in found[i + 1 :]
            if (_label_of_the_five(a) or _label_of_the_five(b)) and not _apart(a["box"], b["box"])
        ]
        assert clashes == [], (name, clashes)
        for area in FIVE:
            under = page.evaluate(UNDER, area)
            assert all(hit == area for _kind, hit in under), (name, area, under)
            if name in ("active assyrians", "attack on ugarit") and area in pictured:
                where = f"_{area}" if phone else ""
                page.locator("#board").screenshot(
                    path=str(shots / f"epochs_labels_{locale[:2]}_{size}_{name.replace(' ', '_')}{where}.png")
                )


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_no_name_or_mark_of_any_area_covers_a_difficult_border_mark(
    new_page: Any, server: Any, shots: Path, locale: str
) -> None:
    """The mountain marks of difficult borders (§3.3) say where an attack needs two dice: a
    name or a mark drawn over one hides it (Kanesh's name once covered the Kizzuwatna one).
    Every area's name, double-value mark and bonus stars keep clear of every such mark, with
    every area held and every star shown, in English and in French."""
    page: Page = new_page(viewport={"width": 1280, "height": 800}, locale=locale)
    table = server.create_table([{"kind": "human"}] * 3, game=GAME, seed=3)
    open_table(page, table["seats"][0]["link"])
    expect(page.locator("#players .conn").first).to_be_visible()
    for view, combat, name in _boards()[:3]:
        page.evaluate(DRAW, [view, combat])
        found = page.evaluate(ITEMS, [])
        marks = [f for f in found if f["kind"] == "difficult"]
        assert len(marks) >= 10, name
        labels = [f for f in found if f["kind"] in ("area-label", "double-mark", "bonus-mark")]
        covered = [(f["area"], f["kind"]) for f in labels for m in marks if not _apart(f["box"], m["box"])]
        assert covered == [], (name, covered)
    page.locator("#board").screenshot(path=str(shots / f"epochs_labels_difficult_{locale[:2]}.png"))
