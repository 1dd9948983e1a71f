"""The map layout of Mare Nostrum (map.json's layout keys, read by ``layout.py``) agrees with the
map's graph (spec 3.1, 3.2) and reads like the Mediterranean; the SVG renderer and the browser
board data draw from it."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import render_svg as RS
from ziggurat.games.mare_nostrum.client import board_data
from ziggurat.games.mare_nostrum.layout import Layout, Point, layout, parse_points

SVG = "{http://www.w3.org/2000/svg}"
L: Layout = layout()
PROVINCES = {p["id"]: p for p in D._MAP["provinces"]}
SEAS = {s["id"]: s for s in D._MAP["seas"]}
Rect = tuple[float, float, float, float]


# ---- a little plane geometry (polygons are lists of points; rects are left, top, right, bottom)
def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """The open segments pq and rs cross (touching at an end does not count)."""
    d1, d2, d3, d4 = _cross(p, q, r), _cross(p, q, s), _cross(r, s, p), _cross(r, s, q)
    return d1 * d2 < 0 and d3 * d4 < 0


def _point_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    k = dx * dx + dy * dy
    t = 0.0 if k == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / k))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    n, c = len(poly), False
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            c = not c
    return c


def _edges(poly: list[Point]) -> list[tuple[Point, Point]]:
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def _box(r: Rect) -> list[Point]:
    return [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])]


def _gap(a: list[Point], b: list[Point]) -> float:
    """0 when the polygons overlap or touch, else the distance between them."""
    if any(_inside(p, b) for p in a) or any(_inside(p, a) for p in b):
        return 0.0
    if any(_segments_cross(p, q, r, s) for p, q in _edges(a) for r, s in _edges(b)):
        return 0.0
    return min(min(_point_segment(p, r, s) for r, s in _edges(b)) for p in a) if a else math.inf


def _depth(r: Rect, poly: list[Point]) -> float:
    """How far into card ``r`` the polygon reaches (the largest inset of the card it still meets)."""
    lo, hi = 0.0, min(r[2] - r[0], r[3] - r[1]) / 2
    if _gap(_box(r), poly) > 0:
        return -_gap(_box(r), poly)
    for _ in range(16):
        mid = (lo + hi) / 2
        inner = (r[0] + mid, r[1] + mid, r[2] - mid, r[3] - mid)
        lo, hi = (mid, hi) if _gap(_box(inner), poly) == 0 else (lo, mid)
    return lo


def _water_on(a: Point, b: Point, poly: list[Point], steps: int = 100) -> float:
    """Length of segment ab that lies inside ``poly``."""
    wet = sum(_inside((a[0] + (b[0] - a[0]) * (i + 0.5) / steps, a[1] + (b[1] - a[1]) * (i + 0.5) / steps), poly)
              for i in range(steps))  # fmt: skip
    return math.dist(a, b) * wet / steps


# ---- the layout and the map's graph
def test_every_area_has_a_place_inside_the_box() -> None:
    assert set(L.places) == set(PROVINCES) | set(SEAS)
    assert set(L.shapes) == set(SEAS)
    for prov in PROVINCES:
        x0, y0, x1, y1 = L.card(prov)
        assert x0 >= 0 and y0 >= 0 and x1 <= L.width and y1 <= L.height, prov
    for sea, shape in L.shapes.items():
        assert len(shape) >= 3 and _inside(L.places[sea], shape), f"{sea}: its name is not on its water"
        assert all(0 <= x <= L.width and 0 <= y <= L.height for x, y in shape), sea


def test_cards_do_not_overlap() -> None:
    for a, b in combinations(PROVINCES, 2):
        assert _gap(_box(L.card(a)), _box(L.card(b))) >= 6, (a, b)


def test_a_card_touches_the_water_of_its_seas_and_no_other_3_1() -> None:
    for prov, p in PROVINCES.items():
        for sea, shape in L.shapes.items():
            depth = _depth(L.card(prov), shape)
            if sea in p["seas"]:
                assert depth >= 2, f"{prov} should reach {sea} (depth {depth:.1f})"
            else:
                assert depth <= -6, f"{prov} is drawn on {sea} (depth {depth:.1f})"
    # islands and landlocked provinces read as such
    for prov in ("sicilia", "creta"):
        assert PROVINCES[prov]["island"] and len(PROVINCES[prov]["seas"]) >= 3


def test_adjacent_seas_share_a_border_others_keep_apart_3_2() -> None:
    edges = {s: {frozenset(e) for e in _edges(shape)} for s, shape in L.shapes.items()}
    for a, b in combinations(SEAS, 2):
        if b in SEAS[a]["seas"]:
            assert edges[a] & edges[b], f"{a} and {b} are adjacent: they must share an edge"
        else:
            assert _gap(L.shapes[a], L.shapes[b]) >= 6, f"{a} and {b} are not adjacent but touch"
        shared = set(L.shapes[a]) & set(L.shapes[b])
        assert not any(_inside(p, L.shapes[b]) for p in L.shapes[a] if p not in shared), f"{a} overlaps {b}"


def test_land_links_cross_no_water_and_no_other_card() -> None:
    for prov, p in PROVINCES.items():
        for other in p["land"]:
            path = L.link_path(prov, other)
            assert path[0] == L.places[prov] and path[-1] == L.places[other]
            for a, b in zip(path, path[1:], strict=False):
                for sea, shape in L.shapes.items():
                    assert _water_on(a, b, shape) <= 12, f"link {prov}-{other} crosses {sea}"
                for third in PROVINCES:
                    if third not in (prov, other):
                        x0, y0, x1, y1 = L.card(third)
                        ring = _box((x0 - 4, y0 - 4, x1 + 4, y1 + 4))
                        assert not any(_segments_cross(a, b, r, s) for r, s in _edges(ring)), (
                            prov,
                            other,
                            third,
                        )


def test_the_map_reads_like_the_mediterranean() -> None:
    x = {a: L.places[a][0] for a in L.places}
    y = {a: L.places[a][1] for a in L.places}
    # west to east: Gallia and Numidia, then Italy and Greece, then Aegyptus, then the east
    assert max(x["gallia"], x["numidia"]) < min(x["latium"], x["macedonia"]) < x["aegyptus"] < x["babylonia"]
    assert x["mare_sardum"] < x["mare_ionium"] < x["mare_aegaeum"] < x["mare_cyprium"]
    # Europe north of the sea, Africa south of it, the Black Sea up north-east
    europe = ("gallia", "germania", "dalmatia", "dacia", "macedonia", "thracia")
    africa = ("numidia", "africa", "libya", "cyrenaica", "aegyptus", "phasania", "garamantia", "nubia")
    assert (
        max(y[p] for p in europe)
        < min(y[s] for s in ("mare_africum", "mare_aegyptum"))
        < min(y[p] for p in africa)
    )
    assert (
        y["pontus_euxinus"] < y["mare_aegaeum"] < y["mare_aegyptum"]
        and x["pontus_euxinus"] > x["mare_aegaeum"]
    )
    assert y["aegyptus"] > y["creta"] > y["achea"] and x["aegyptus"] > x["libya"]


def test_board_still_loads_the_map_with_its_layout_keys() -> None:
    for n in (3, 4, 5):
        board = D.board(n)
        assert set(board.provinces) == set(PROVINCES) - set(D._MAP["out_of_play"][str(n)])
        assert all(board.provinces[p]["land"] == [q for q in PROVINCES[p]["land"] if q in board.provinces]
                   for p in board.provinces)  # fmt: skip
    assert parse_points("1,2 3.5,4") == [(1.0, 2.0), (3.5, 4.0)]


# ---- the renderers draw from it
@pytest.mark.parametrize("n", [3, 5])
def test_svg_draws_at_the_layouts_places(n: int) -> None:
    game = MareNostrumGame(n, {})
    state = game.new_initial_state()
    root = ET.fromstring(RS.render_svg(state.view(None)))
    cards = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("class") in ("province", "province-out")}
    assert set(cards) == {f"p-{p}" for p in game.board.provinces} | {
        f"p-{p}-out" for p in D._MAP["out_of_play"][str(n)]
    }
    for prov in PROVINCES:
        g = cards.get(f"p-{prov}") or cards[f"p-{prov}-out"]
        rect = g.find(f"{SVG}rect")
        assert rect is not None
        assert (float(rect.get("x", "nan")), float(rect.get("y", "nan"))) == L.card(prov)[:2]
    water = {p.get("id"): p for p in root.iter(f"{SVG}polygon") if p.get("class") == "water"}
    assert {w: parse_points(p.get("points", "")) for w, p in water.items()} == {
        f"w-{s}": shape for s, shape in L.shapes.items()
    }
    # every built building of the view is a filled slot; the markers are drawn
    built = sum(len(v) for v in state.view(None)["buildings"].values())
    assert sum(1 for r in root.iter(f"{SVG}rect") if "slot built" in (r.get("class") or "")) == built
    assert sum(1 for c in root.iter(f"{SVG}circle") if c.get("class") == "marker") == len(
        state.view(None)["markers"]
    )


def test_board_data_for_the_browser_is_the_layout() -> None:
    data = json.loads(json.dumps(board_data()))  # JSON-ready
    assert {p: (v["x"], v["y"]) for p, v in data["provinces"].items()} == {p: L.places[p] for p in PROVINCES}
    assert {s: parse_points(v["shape"]) for s, v in data["seas"].items()} == L.shapes
    assert data["layout"]["width"] == L.width and data["layout"]["card_width"] == L.card_w
    assert data["empires"]["carthage"]["colour"] == RS.colour({"empires": ["carthage"]}, 0)
    assert data["options"]["tiles_to_win"] == D.DEFAULT_OPTIONS["tiles_to_win"]
