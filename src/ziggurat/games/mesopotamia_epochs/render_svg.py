"""The Mesopotamia: Epochs board as an SVG picture, drawn from one seat's *view* (rules §3, §6).

Areas are discs at the anchor coordinates of the map data (§3.2, north up), as large as their
nearest neighbour allows. Borders are bands between neighbouring discs; a difficult border
(§3.3) has a mountain mark on the defender's side (two when difficult both ways). The Great
Green is the union of the Voronoi cells of the sea anchor, of points round each island and of
points off each coast (fillers behind each coast hold it back), so it reaches every coastal
area; those also have a blue rim. Deserts have the heavy boundary of E11, uninhabited areas
are hatched. Double-value areas have a gold ring and a ``2×`` badge, a holder's bonus a star.

Tribes are a chip in the colour of their People's Epoch (§2.3) carrying the owner's symbol
(Brooch, Head, Mask, Statue, Urn) and the count. The side panel shows the Epoch and round, what
is pending, the victory-point track, each player's cards (face-down ones as ``?``), the deal,
the set-aside cards and the viewer's own secrets. Only the view is read, so nothing hidden
from the viewer can be drawn. Elements carry ``data-`` attributes for tests. Every word comes
from the game's message catalogues in the reader's language ``lang`` (keys ``epochs.svg.*`` and
the terminal board's ``epochs.board.*``; names from :mod:`.words`).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from functools import cache, cached_property
from typing import Any
from xml.sax.saxutils import escape

from ziggurat.engine.messages import message, noun
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.games.mesopotamia_epochs.describe import (
    Names,
    attack_route,
    names_for,
    occupancy,
    owners,
    result_sentence,
)
from ziggurat.games.mesopotamia_epochs.render_text import (
    area_name,
    commons_line,
    pending_text,
    people_name,
    phase_name,
    player_name,
    secret_parts,
)
from ziggurat.games.mesopotamia_epochs.words import as_is, symbol

View = dict[str, Any]
Point = tuple[float, float]

S = 0.96  # map units (0-1000) to pixels
MAP_X, MAP_Y = 22.0, 44.0
MAP_W, MAP_H = 1000.0 * S + 2 * MAP_X - 20, 950.0 * S * 0.93 + MAP_Y
PANEL_X, PANEL_W = MAP_W + 14, 372.0
WIDTH = PANEL_X + PANEL_W
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
EPOCH_FILL = {1: "#2f63d6", 2: "#2f9e4b", 3: "#e08a1a", 4: "#8a4fc0", 5: "#d2372d"}
KIND_FILL = {"land": "#efe4c3", "island": "#dde8b4", "desert": "#f2cf8a", "uninhabited": "#d8d2c6"}
LAND, SEA, SEA_INK, INK, GOLD = "#e4d7b3", "#b9d6ea", "#2c5f8a", "#3b3426", "#d4a017"


# Where some anchors of the default map are drawn (map units): Sumer's corner (Ur, Uruk), Babylon,
# Kaldu and Elam lie so close in the data that their discs, names and tribes overlapped; they are
# drawn spread out towards the empty south-east; Knossos and Khania apart and Alishiya further out
# to sea (as the browser board draws them, geometry.js, which also moves Ugarit for its name
# line: the discs here need no such room). The data and
# its neighbours are unchanged (§3.2: clients draw the regions around the anchors in any style).
DRAWN_AT: dict[str, dict[str, Point]] = {
    "mesopotamia-epochs/default-map-v1": {
        "babylon": (752, 584),
        "uruk": (822, 652),
        "ur": (892, 732),
        "kaldu": (712, 712),
        "elam": (912, 592),
        "knossos": (140, 404),
        "khania": (56, 391),
        "alishiya": (358, 416),
    },
}


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: str, size: float = 11, fill: str = INK, anchor: str = "middle",
          weight: str = "normal", extra: str = "") -> str:  # fmt: skip
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape(s)}</text>')  # fmt: skip


HALO = ' stroke="#f7f1e1" stroke-width="3" paint-order="stroke" stroke-linejoin="round"'


def _poly(points: Sequence[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


# --- player symbols (§2.3) ------------------------------------------------------------------
def icon(symbol: str, x: float, y: float, size: float, colour: str) -> str:
    """The player's symbol, ``size`` pixels high, centred on ``x, y``."""
    k = size / 20.0

    def p(dx: float, dy: float) -> str:
        return f"{_f(x + dx * k)},{_f(y + dy * k)}"

    sw = _f(max(1.0, 2.2 * k))
    if symbol == "brooch":
        body = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(6.5 * k)}" fill="none" stroke="{colour}" stroke-width="{sw}"/>'
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(2.4 * k)}" fill="{colour}"/>'
                f'<path d="M{p(-9, 8)} L{p(9, -8)}" stroke="{colour}" stroke-width="{sw}"/>')  # fmt: skip
    elif symbol == "head":
        body = (f'<circle cx="{_f(x)}" cy="{_f(y - 3.5 * k)}" r="{_f(5 * k)}" fill="{colour}"/>'
                f'<path d="M{p(-8, 9)} Q{p(0, -2)} {p(8, 9)} Z" fill="{colour}"/>')  # fmt: skip
    elif symbol == "mask":
        body = (f'<path d="M{p(-8, -7)} L{p(8, -7)} Q{p(8, 9)} {p(0, 9)} Q{p(-8, 9)} {p(-8, -7)} Z" fill="{colour}"/>'
                f'<ellipse cx="{_f(x - 3.5 * k)}" cy="{_f(y - 1.5 * k)}" rx="{_f(2 * k)}" ry="{_f(1.3 * k)}" fill="#000" opacity="0.55"/>'
                f'<ellipse cx="{_f(x + 3.5 * k)}" cy="{_f(y - 1.5 * k)}" rx="{_f(2 * k)}" ry="{_f(1.3 * k)}" fill="#000" opacity="0.55"/>')  # fmt: skip
    elif symbol == "statue":
        body = (f'<circle cx="{_f(x)}" cy="{_f(y - 6 * k)}" r="{_f(3.2 * k)}" fill="{colour}"/>'
                f'<path d="M{p(-3.5, -2)} L{p(3.5, -2)} L{p(4.5, 6)} L{p(-4.5, 6)} Z" fill="{colour}"/>'
                f'<rect x="{_f(x - 7 * k)}" y="{_f(y + 6.5 * k)}" width="{_f(14 * k)}" height="{_f(3 * k)}" fill="{colour}"/>')  # fmt: skip
    else:  # urn
        body = (f'<path d="M{p(-3, -9)} L{p(3, -9)} L{p(2.5, -6)} Q{p(9, -3)} {p(6, 5)} L{p(3.5, 9)} L{p(-3.5, 9)} '
                f'L{p(-6, 5)} Q{p(-9, -3)} {p(-2.5, -6)} Z" fill="{colour}"/>')  # fmt: skip
    return f'<g class="symbol" data-symbol="{escape(symbol)}">{body}</g>'


# --- geometry -----------------------------------------------------------------------------------
def _clip(poly: list[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of ``poly`` where ``a*x + b*y <= c``."""
    out: list[Point] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _cell(site: Point, others: Sequence[Point], box: list[Point]) -> list[Point]:
    """The Voronoi cell of ``site`` among ``others`` inside ``box``."""
    poly = box
    x, y = site
    for u, v in others:
        if (u, v) != (x, y) and poly:
            poly = _clip(poly, u - x, v - y, (u * u + v * v - x * x - y * y) / 2)
    return poly


def _circle(cx: float, cy: float, r: float, n: int = 36) -> list[Point]:
    return [(cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n)) for k in range(n)]  # fmt: skip


class _Layout:
    """Pixel centre, radius and kind of every area of the view's map."""

    def __init__(self, view: View, names: Names) -> None:
        self.names = names
        m = names.map
        self.pos: dict[str, Point] = {}
        self.kind: dict[str, str] = {}
        self.r: dict[str, float] = {}
        if m is None:  # a replaced map is not in the view: the held areas in a grid
            ids = sorted({a for a, _, _ in view["areas"]})
            for k, aid in enumerate(ids):
                self.pos[aid] = (MAP_X + 60 + (k % 8) * 115, MAP_Y + 70 + (k // 8) * 110)
                self.kind[aid], self.r[aid] = "land", 40.0
            self.edges: list[tuple[str, str]] = []
            self.difficult: set[tuple[str, str]] = set()
            return
        moved = DRAWN_AT.get(m.map_id, {})
        for i, aid in enumerate(m.ids):
            x, y = moved.get(aid, m.xy[i])
            self.pos[aid] = (MAP_X + x * S, MAP_Y + y * S * 0.93)
            self.kind[aid] = m.kinds[i]
        shown = [a for a in m.ids if self.kind[a] != "sea"]
        for a in shown:
            near = min((math.dist(self.pos[a], self.pos[b]) for b in shown if b != a), default=80.0)
            cap = 24.0 if self.kind[a] == "uninhabited" else 31.0
            self.r[a] = max(16.0, min(cap, near / 2 - 1))
        self.edges = [(m.ids[i], m.ids[j]) for i in range(m.size) for j in m.all_neighbours[i]
                      if i < j and not m.sea[i] and not m.sea[j]]  # fmt: skip
        self.difficult = {(m.ids[i], m.ids[j]) for i, j in m.difficult}

    @cached_property
    def sea_cells(self) -> list[list[Point]]:
        """The Great Green: Voronoi cells of the sea anchor, the islands, and a point off each
        coastal area towards the sea, among every area anchor."""
        m = self.names.map
        if m is None:
            return []
        out: list[list[Point]] = []
        for si, sid in enumerate(m.ids):
            if not m.sea[si]:
                continue
            sea = self.pos[sid]
            sites = [sea]
            land: list[Point] = []  # fillers on the landward side of each coast: they hold the sea back
            for j in m.all_neighbours[si]:
                aid = m.ids[j]
                (x, y), r = self.pos[aid], self.r[aid]
                if self.kind[aid] == "island":  # an island lies in the sea: sea all round it
                    sites.append((x, y))
                    sites.extend(_circle(x, y, r + 18, 8))
                    continue
                d = max(1.0, math.dist((x, y), sea))
                ux, uy = (sea[0] - x) / d, (sea[1] - y) / d
                for turn, dist, into in ((0.0, 18, sites), (-0.7, 14, sites), (0.7, 14, sites),
                                         (math.pi, 30, land), (2.2, 30, land), (-2.2, 30, land)):  # fmt: skip
                    c, s = math.cos(turn), math.sin(turn)
                    into.append((x + (ux * c - uy * s) * (r + dist), y + (ux * s + uy * c) * (r + dist)))
            others = list(self.pos.values()) + sites + land
            box = [(MAP_X - 12, MAP_Y - 8), (MAP_W - 6, MAP_Y - 8), (MAP_W - 6, MAP_H), (MAP_X - 12, MAP_H)]
            out.extend(c for c in (_cell(p, others, box) for p in sites) if c)
        return out


# --- the map -----------------------------------------------------------------------------------
def _defs() -> str:
    return ('<defs><pattern id="dunes" width="14" height="10" patternUnits="userSpaceOnUse">'
            '<path d="M1,7 q3,-4 6,0 M8,3 q3,-4 6,0" stroke="#c9953f" stroke-width="1" fill="none"/></pattern>'
            '<pattern id="waste" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            '<line x1="0" y1="0" x2="0" y2="8" stroke="#b3ab9c" stroke-width="2"/></pattern>'
            '<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" fill="#b3261e"/></marker></defs>')  # fmt: skip


def _borders(lay: _Layout) -> str:
    out = ['<g class="borders">']
    for a, b in lay.edges:
        (x1, y1), (x2, y2) = lay.pos[a], lay.pos[b]
        waste = "uninhabited" in (lay.kind[a], lay.kind[b])
        hard = (a, b) in lay.difficult or (b, a) in lay.difficult
        colour = "#c2b79f" if waste else "#8c6d46" if hard else "#b49a66"
        dash = ' stroke-dasharray="2 5"' if waste else ""
        out.append(f'<line class="border" data-from="{a}" data-to="{b}" x1="{_f(x1)}" y1="{_f(y1)}" '
                   f'x2="{_f(x2)}" y2="{_f(y2)}" stroke="{colour}" stroke-width="{3 if waste else 6}" '
                   f'stroke-linecap="round"{dash}/>')  # fmt: skip
    for a, b in sorted(lay.difficult):  # the mark sits on the defender's side (§3.3)
        (x1, y1), (x2, y2) = lay.pos[a], lay.pos[b]
        d = max(1.0, math.dist((x1, y1), (x2, y2)))
        k = (lay.r[b] + 8) / d
        mx, my = x2 + (x1 - x2) * k, y2 + (y1 - y2) * k
        out.append(f'<g class="difficult" data-from="{a}" data-to="{b}">'
                   f'<polygon points="{_poly([(mx - 7, my + 5), (mx, my - 7), (mx + 7, my + 5)])}" fill="#5a3d22" '
                   f'stroke="#f3ead6" stroke-width="1.2"/></g>')  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _area(
    lay: _Layout, aid: str, view: View, occ: dict[str, tuple[str, int]], who: dict[str, str], lang: str
) -> str:
    names = lay.names
    label = area_name(names, aid, lang)
    (cx, cy), r, kind = lay.pos[aid], lay.r[aid], lay.kind[aid]
    m = names.map
    i = m.index[aid] if m is not None else -1
    double = i >= 0 and m is not None and m.double[i]
    coastal = i >= 0 and m is not None and m.coastal[i]
    held = occ.get(aid)
    attrs = f'class="area" data-area="{aid}" data-kind="{kind}"'
    if held:
        attrs += f' data-people="{held[0]}" data-tribes="{held[1]}" data-owner="{who.get(held[0], "")}"'
    out = [f"<g {attrs}>"]
    fill = KIND_FILL.get(kind, KIND_FILL["land"])
    if kind == "uninhabited":
        out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="url(#waste)" stroke="#9b9384" '
                   f'stroke-width="1.2" stroke-dasharray="4 3"/>')  # fmt: skip
        out.append(_text(cx, cy + r + 12, label, 9.5, "#6f685b", extra=' font-style="italic"' + HALO))
        out.append("</g>")
        return "".join(out)
    stroke, width = ("#8a4b14", 4.5) if kind == "desert" else ("#2f6fa8", 2.6) if coastal else ("#7a6a4a", 1.4)  # fmt: skip
    out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')  # fmt: skip
    if kind == "desert":
        out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r - 3)}" fill="url(#dunes)"/>')
    if double:
        out.append(f'<circle class="double" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r - 3.5)}" fill="none" '
                   f'stroke="{GOLD}" stroke-width="2.6"/>')  # fmt: skip
        bx, by = cx + r * 0.74, cy - r * 0.74
        out.append(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="7.5" fill="{GOLD}" stroke="#6b4e0a" stroke-width="0.8"/>')  # fmt: skip
        out.append(_text(bx, by + 3, "2×", 7.5, "#2a1d00", weight="bold"))
    size = 9.5 if len(label) <= 8 else 8.6
    out.append(_text(cx, cy - r * 0.28, label, size, INK, weight="bold", extra=HALO))
    if held:
        pid, count = held
        colour = EPOCH_FILL.get(names.card_epoch(pid) or 0, "#555")
        w = 34.0
        out.append(f'<rect x="{_f(cx - w / 2)}" y="{_f(cy + r * 0.02)}" width="{_f(w)}" height="15" rx="4" '
                   f'fill="{colour}" stroke="#1d1d1d" stroke-width="0.9"/>')  # fmt: skip
        out.append(icon(who.get(pid, ""), cx - 8, cy + r * 0.02 + 7.5, 12, "#fff"))
        out.append(_text(cx + 7, cy + r * 0.02 + 12, str(count), 11.5, "#fff", weight="bold"))
        out.append(_text(cx, cy + r * 0.02 + 25, people_name(names, pid, lang)[:3].upper(), 7.5, "#4a4030", weight="bold",
                         extra=' letter-spacing="0.5"'))  # fmt: skip
        if names.bonus(pid) == aid:
            out.append(_text(cx - r * 0.74, cy - r * 0.6, "★", 13, GOLD, weight="bold",
                             extra=' class="bonus" stroke="#6b4e0a" stroke-width="0.6"'))  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _highlights(lay: _Layout, view: View, occ: dict[str, tuple[str, int]]) -> str:
    """The attack under way (target ringed, an arrow from its route) or the start area."""
    pend = view.get("pending") or []
    rnd = view.get("round") or {}
    out = []
    if pend and pend[0] in ("combat", "displace") and pend[1] in lay.pos:
        (cx, cy), r = lay.pos[pend[1]], lay.r[pend[1]]
        colour = "#b3261e" if pend[0] == "combat" else "#e07b00"
        out.append(f'<circle class="focus" cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r + 6)}" fill="none" '
                   f'stroke="{colour}" stroke-width="3" stroke-dasharray="7 4"/>')  # fmt: skip
        route = attack_route(lay.names, occ, rnd.get("people", ""), pend[1]) if pend[0] == "combat" else None
        if route in lay.pos:
            (x1, y1) = lay.pos[str(route)]
            d = max(1.0, math.dist((x1, y1), (cx, cy)))
            k1, k2 = lay.r[str(route)] / d, (r + 8) / d
            out.append(f'<line x1="{_f(x1 + (cx - x1) * k1)}" y1="{_f(y1 + (cy - y1) * k1)}" '
                       f'x2="{_f(cx + (x1 - cx) * k2)}" y2="{_f(cy + (y1 - cy) * k2)}" stroke="#b3261e" '
                       f'stroke-width="3.5" marker-end="url(#arrow)"/>')  # fmt: skip
    return "".join(out)


@cache
def _default_layout(map_id: str, peoples_id: str | None) -> _Layout:
    view: View = {"map": map_id, "peoples_data": peoples_id, "areas": []}
    return _Layout(view, names_for(view))


def _map(view: View, lang: str) -> str:
    names = names_for(view)
    lay = _Layout(view, names) if names.map is None else _default_layout(view["map"], view.get("peoples_data"))  # fmt: skip
    occ = occupancy(view)
    who = owners(view)
    out = ['<g class="map">',
           f'<rect x="{_f(MAP_X - 12)}" y="{_f(MAP_Y - 8)}" width="{_f(MAP_W - MAP_X + 6)}" '
           f'height="{_f(MAP_H - MAP_Y + 8)}" fill="{LAND}" stroke="#b8a77f"/>']  # fmt: skip
    cells = lay.sea_cells
    if cells:
        out.append(f'<g class="sea" fill="{SEA}" stroke="{SEA}" stroke-width="1.5" stroke-linejoin="round">')
        out.extend(f'<polygon points="{_poly(c)}"/>' for c in cells)
        out.append("</g>")
    m = names.map
    if m is not None:
        for i, aid in enumerate(m.ids):
            if m.sea[i]:
                x, y = lay.pos[aid]
                out.append(_text(x, y, area_name(names, aid, lang), 20, SEA_INK, weight="bold",
                                 extra=' font-style="italic" letter-spacing="3" opacity="0.75"'))  # fmt: skip
    out.append(_borders(lay))
    out.extend(_area(lay, aid, view, occ, who, lang) for aid in lay.pos if lay.kind[aid] != "sea")
    out.append(_highlights(lay, view, occ))
    out.append("</g>")
    return "".join(out)


# --- side panel -------------------------------------------------------------------------------
def _chip(x: float, y: float, w: float, label: str, fill: str, ink: str = "#fff", dashed: bool = False,
          size: float = 9) -> str:  # fmt: skip
    dash = ' stroke-dasharray="3 2"' if dashed else ""
    return (f'<rect x="{_f(x)}" y="{_f(y - 11)}" width="{_f(w)}" height="15" rx="4" fill="{fill}" stroke="#333" '
            f'stroke-width="0.8"{dash}/>' + _text(x + w / 2, y, label, size, ink, weight="bold"))  # fmt: skip


def _card_label(name: str) -> tuple[str, float]:
    """A People's name as it fits a card chip (11 letters at 9 px): a longer name of several
    words abbreviates its first ("P. de la mer"), then shrinks, then is cut short."""
    if len(name) > 11 and " " in name:
        name = name[0] + ". " + name.split(" ", 1)[1]
    if len(name) <= 11:
        return name, 9
    if len(name) <= 14:
        return name, round(9 * 11 / len(name), 1)
    return name[:13] + "…", round(9 * 11 / 14, 1)


def _status_lines(view: View, lang: str) -> list[str]:
    names = names_for(view)
    who = owners(view)
    lines = []
    rnd = view.get("round")
    if rnd:
        pid = rnd["people"]
        line = message("epochs.svg.round", n=int(rnd["order"]), people=names.people_word(pid),
                       who=symbol(who.get(pid, "?")), pool=int(rnd["pool"]))  # fmt: skip
        lines.append(line.render(lang))
    pend = pending_text(view, lang=lang)
    if pend is not None:
        lines.append(pend.plain)
    return lines


def _vp_track(view: View, x: float, y: float, lang: str) -> str:
    players = view["players"]
    top = max([int(pl["vp"]) for pl in players] + [10])
    step = 10 if top <= 60 else 25 if top <= 150 else 50
    scale_max = step * math.ceil(top / step)
    w = PANEL_W - 40
    out = [
        '<g class="vp-track">',
        _text(x, y, message("epochs.svg.victoryPoints").render(lang), 13, INK, "start", "bold"),
    ]
    ty = y + 34
    out.append(f'<rect x="{_f(x)}" y="{_f(ty)}" width="{_f(w)}" height="6" rx="3" fill="#cdbf9c"/>')
    for v in range(0, scale_max + 1, step):
        tx = x + w * v / scale_max
        out.append(f'<line x1="{_f(tx)}" y1="{_f(ty - 2)}" x2="{_f(tx)}" y2="{_f(ty + 8)}" stroke="#8c8270"/>')  # fmt: skip
        out.append(_text(tx, ty + 19, str(v), 9, "#6b6252"))
    last = -1e9
    for pl in sorted(players, key=lambda p: (int(p["vp"]), p["symbol"])):
        px = x + w * int(pl["vp"]) / scale_max
        mx = max(px, last + 18)  # markers side by side, each with a tick at its true place
        last = mx
        my = ty - 14
        out.append(f'<g class="vp-marker" data-symbol="{pl["symbol"]}" data-vp="{pl["vp"]}">'
                   f'<line x1="{_f(px)}" y1="{_f(ty)}" x2="{_f(mx)}" y2="{_f(my)}" stroke="{INK}" stroke-width="1.2"/>'
                   f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="8.5" fill="{INK}"/>'
                   f'{icon(pl["symbol"], mx, my, 11.5, "#f7f1e1")}</g>')  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _player_block(view: View, seat: int, x: float, y: float, role: str, lang: str) -> str:
    names = names_for(view)
    pl = view["players"][seat]
    sym = pl["symbol"]
    mover = view.get("to_move")
    out = [f'<g class="player" data-symbol="{sym}">']
    if sym == mover:
        out.append(f'<rect x="{_f(x - 6)}" y="{_f(y - 16)}" width="{_f(PANEL_W - 12)}" height="44" rx="6" '
                   f'fill="#fff5cf" stroke="#d9b44a"/>')  # fmt: skip
    out.append(f'<circle cx="{_f(x + 8)}" cy="{_f(y - 4)}" r="9" fill="{INK}"/>')
    out.append(icon(sym, x + 8, y - 4, 13, "#f7f1e1"))
    you = " (" + message("epochs.board.you").render(lang) + ")"
    label = player_name(sym, lang) + (you if view.get("viewer") == sym else "")
    out.append(_text(x + 22, y, label, 12.5, INK, "start", "bold"))
    if role and view.get("viewer") != sym:
        out.append(_text(x + 22 + 8.4 * len(label) + 8, y, role, 10, "#777", "start"))
    if sym == mover:
        out.append(_text(x + PANEL_W - 80, y, message("epochs.svg.toDecide").render(lang), 10.5, "#9a2b12", "end", "bold",
                         extra=' font-style="italic"'))  # fmt: skip
    out.append(
        _text(
            x + PANEL_W - 24,
            y,
            message("epochs.board.vp", n=int(pl["vp"])).render(lang),
            12.5,
            INK,
            "end",
            "bold",
        )
    )
    cw = (PANEL_W - 24) / 5 - 3
    for k, card in enumerate(pl["cards"]):
        pid = card["people"]
        size = 9.0
        if pid is None:  # face down, and the viewer does not know it
            chip = (
                message("epochs.svg.hiddenCard", n=int(card["epoch"])).render(lang),
                "#bdb5a3",
                "#4a4438",
                False,
            )
        else:  # face up, or (dashed) the viewer's own secret
            label, size = _card_label(people_name(names, pid, lang))
            public = card["public"]
            chip = (label, EPOCH_FILL.get(card["epoch"], "#555") if public else "#f3ead6", "#fff" if public else "#555", not public)  # fmt: skip
        out.append(_chip(x + k * (cw + 3), y + 20, cw, *chip, size=size))
    out.append("</g>")
    return "".join(out)


def _lines_block(x: float, y: float, title: str, lines: list[str], cls: str) -> tuple[str, float]:
    out = [f'<g class="{cls}">', _text(x, y, title, 12, INK, "start", "bold")]
    for line in lines:
        for part in textwrap.wrap(line, 58):
            y += 15
            out.append(_text(x, y, part, 10.5, "#333", "start"))
    out.append("</g>")
    return "".join(out), y


def _legend(x: float, y: float, lang: str) -> str:
    disc = '<circle cx="{x}" cy="{y}" r="6" fill="{fill}" stroke="{stroke}" stroke-width="{w}"/>'
    items = {
        message("epochs.svg.legend.double").render(lang): disc.format(
            x="{x}", y="{y}", fill=KIND_FILL["land"], stroke=GOLD, w=2.4
        ),
        message("epochs.svg.legend.coastal").render(lang): disc.format(
            x="{x}", y="{y}", fill=KIND_FILL["land"], stroke="#2f6fa8", w=2.4
        ),
        message("epochs.svg.legend.desert").render(lang): disc.format(
            x="{x}", y="{y}", fill=KIND_FILL["desert"], stroke="#8a4b14", w=3
        ),
        message("epochs.svg.legend.difficult").render(lang): "",
        message("epochs.svg.legend.bonus").render(lang): "",
    }
    out = ['<g class="legend">']
    for k, (label, shape) in enumerate(items.items()):
        ix, iy = x + (k % 2) * 178, y + (k // 2) * 20
        if shape:
            out.append(shape.format(x=_f(ix + 7), y=_f(iy - 4)))
        elif k == 3:
            out.append(f'<polygon points="{_poly([(ix + 1, iy + 1), (ix + 7, iy - 9), (ix + 13, iy + 1)])}" fill="#5a3d22"/>')  # fmt: skip
        else:
            out.append(_text(ix + 7, iy + 1, "★", 13, GOLD, weight="bold"))
        out.append(_text(ix + 18, iy, label, 10, "#444", "start"))
    y += 62
    label = message("epochs.svg.epochs").render(lang)
    out.append(_text(x, y, label, 10, "#444", "start"))
    left = max(44.0, 6.0 * len(label))  # the chips start after the label (about 6 px a letter)
    out.extend(_chip(x + left + (e - 1) * 30, y, 26, str(e), colour) for e, colour in EPOCH_FILL.items())
    out.append("</g>")
    return "".join(out)


def render_svg(view: View, players: Sequence[str] | None = None, lang: str = "en") -> str:
    """The whole picture for ``view`` (``state.view(seat)``) as an SVG document string;
    ``players``: a label per seat (e.g. the bot kind)."""
    names = names_for(view)
    epochs = names.peoples.epochs if names.peoples else 5
    x = PANEL_X + 8
    y = 40.0
    panel = [_text(x, y, message("epochs.svg.title").render(lang), 21, "#3b2a10", "start", "bold",
                   extra=' letter-spacing="0.5"')]  # fmt: skip
    y += 26
    head = message(
        "epochs.svg.epochOf", n=int(view["epoch"]), of=epochs, phase=phase_name(view["phase"], lang)
    )
    line = head.render(lang)
    # a smaller font when the line would run into the Epoch chips (bold 14 px: about 7.9 px a letter)
    panel.append(_text(x, y, line, min(14.0, 14.0 * 206 / (7.9 * len(line))), INK, "start", "bold"))
    for e in range(1, epochs + 1):
        fill = EPOCH_FILL.get(e, "#777") if e <= int(view["epoch"]) else "#d8d0bd"
        panel.append(f'<rect x="{_f(x + 214 + (e - 1) * 27)}" y="{_f(y - 12)}" width="23" height="14" rx="3" '
                     f'fill="{fill}" stroke="{INK if e == int(view["epoch"]) else "#9b917c"}" '
                     f'stroke-width="{2 if e == int(view["epoch"]) else 0.8}"/>')  # fmt: skip
    if view["phase"] == "over":
        prefix = message("epochs.svg.resultPrefix").render(lang)
        for part in textwrap.wrap(result_sentence(view).render(lang).removeprefix(prefix), 40):
            y += 20
            panel.append(_text(x, y, part, 14, "#7a1d10", "start", "bold", extra=' class="result"'))
    for line in _status_lines(view, lang):
        for part in textwrap.wrap(line, 56):
            y += 17
            panel.append(_text(x, y, part, 11.5, "#333", "start"))
    panel.append(_vp_track(view, x + 10, y + 34, lang))
    y += 112
    for seat in range(len(view["players"])):
        role = str(players[seat]) if players and seat < len(players) else ""
        panel.append(_player_block(view, seat, x + 6, y, role, lang))
        y += 52
    cards = [part.strip() for part in commons_line(view, lang=lang).plain.split("  ") if part.strip()]
    block, y = _lines_block(x, y + 6, message("epochs.svg.cards").render(lang), cards, "commons")
    panel.append(block)
    mine = secret_parts(view, lang)
    viewer = view.get("viewer")
    if mine is not None:
        secrets = ["; ".join(mine) if mine else message("epochs.board.noSecrets").render(lang)]
        title = message("epochs.svg.onlySees", who=symbol(str(viewer))).render(lang)
        block, y = _lines_block(x, y + 26, title, secrets, "secrets")
        panel.append(block)
    panel.append(_legend(x, max(y + 34, MAP_H - 80), lang))
    height = max(MAP_H + 12, y + 140)
    if viewer:
        reader = noun("epochs.seat", viewer) if viewer in SYMBOLS else as_is(str(viewer))
        doc = message("epochs.svg.docTitle", n=int(view["epoch"]), who=reader)
    else:
        doc = message("epochs.svg.docTitleSpectator", n=int(view["epoch"]))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(WIDTH)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(WIDTH)} {_f(height)}" font-family="{FONT}">'
        f"<title>{escape(doc.render(lang))}</title>{_defs()}"
        f'<rect width="100%" height="100%" fill="#f4efe3"/>'
        + _text(MAP_X - 8, 26, message("epochs.svg.header").render(lang), 11, "#8b7f66", "start")
        + _map(view, lang)
        + "".join(panel)
        + "</svg>"
    )
