"""Where the Mare Nostrum map is drawn: the layout keys of ``map.json``, read once.

Presentation only (no rule reads it). North is up, in a ``width`` x ``height`` box. A province
is a card of ``card_w`` x ``card_h`` centred on its ``x, y``; a sea is a polygon (its ``shape``)
with its name and triremes at its ``x, y``. The layout agrees with the map's graph (checked by
``tests/games/mare_nostrum/test_nostrum_render_layout.py``): a coastal province's card overlaps
the polygons of its seas and of no other sea, adjacent seas share a polygon edge, and a land link
is drawn from card centre to card centre, bent through ``link_via`` points where a straight line
would cross water or another card. Used by :mod:`render_svg` and, through :mod:`client`, by the
browser board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ziggurat.games.mare_nostrum import data as D

Point = tuple[float, float]

# Piece colours per empire (spec 2.5: Rome red, Greece green, Egypt yellow, Carthage black,
# Babylon purple), for pictures; INK_ON is the colour of a number or letter printed on them.
COLOURS = {
    "rome": "#c8312a",
    "greece": "#2f9e4b",
    "carthage": "#2b2b2b",
    "egypt": "#e3b417",
    "babylon": "#8a4fc0",
}
INK_ON = {
    "rome": "#ffffff",
    "greece": "#ffffff",
    "carthage": "#ffffff",
    "egypt": "#2b2317",
    "babylon": "#ffffff",
}


def parse_points(text: str) -> list[Point]:
    """``"10,20 30,40"`` (SVG ``points`` syntax) -> ``[(10.0, 20.0), (30.0, 40.0)]``."""
    out = []
    for pair in text.split():
        x, y = pair.split(",")
        out.append((float(x), float(y)))
    return out


@dataclass(frozen=True, slots=True)
class Layout:
    width: float
    height: float
    card_w: float
    card_h: float
    places: dict[str, Point]  # card centre of a province, label point of a sea
    shapes: dict[str, list[Point]]  # sea -> polygon
    via: dict[tuple[str, str], list[Point]]  # (a, b) with a < b -> bend points from a to b

    def card(self, prov: str) -> tuple[float, float, float, float]:
        """The card of ``prov``: left, top, right, bottom."""
        x, y = self.places[prov]
        return x - self.card_w / 2, y - self.card_h / 2, x + self.card_w / 2, y + self.card_h / 2

    def link_path(self, a: str, b: str) -> list[Point]:
        """The points a land link between provinces ``a`` and ``b`` is drawn through."""
        bends = self.via.get((min(a, b), max(a, b)), [])
        return [self.places[a], *(bends if a < b else bends[::-1]), self.places[b]]

    def sea_edges(self) -> tuple[list[tuple[Point, Point]], list[tuple[Point, Point]]]:
        """(coast, borders): polygon edges that belong to one sea (a coast) or to two (the border
        between adjacent seas, drawn once)."""
        count: dict[tuple[Point, Point], int] = {}
        for pts in self.shapes.values():
            for i, p in enumerate(pts):
                q = pts[(i + 1) % len(pts)]
                key = (min(p, q), max(p, q))
                count[key] = count.get(key, 0) + 1
        coast = [e for e, k in count.items() if k == 1]
        borders = [e for e, k in count.items() if k > 1]
        return coast, borders


@cache
def layout() -> Layout:
    meta = D._MAP["layout"]
    places: dict[str, Point] = {}
    shapes: dict[str, list[Point]] = {}
    for p in D._MAP["provinces"]:
        places[p["id"]] = (float(p["x"]), float(p["y"]))
    for s in D._MAP["seas"]:
        places[s["id"]] = (float(s["x"]), float(s["y"]))
        shapes[s["id"]] = parse_points(s["shape"])
    via = {}
    for key, text in meta.get("link_via", {}).items():
        a, b = sorted(key.split())
        via[(a, b)] = parse_points(text)
    return Layout(
        float(meta["width"]),
        float(meta["height"]),
        float(meta["card_width"]),
        float(meta["card_height"]),
        places,
        shapes,
        via,
    )
