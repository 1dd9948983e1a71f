"""The Mesopotamia board as an SVG picture, drawn from one seat's *view* (rules spec §2, §6).

Flat-top hexes are placed by axial ``q,r`` (S3). Each tile shows its coordinate and type
(colour and icon), huts (with an offering marker when one lies under it; its value only when
the view shows it), holy places, tribes as discs in their colour with a cargo mark, and loose
wood and stone. A side panel shows whose turn and phase it is, each player's Mana against the
limit, delivered offerings and personal supply, tile piles, cards, the general supply, and the
viewer's own secrets. Only the view is read, so the picture cannot leak a hidden value.
Offering values are drawn in elements of class ``offering-value`` with ``data-owner`` set, which
lets tests check what a picture reveals. Every word comes from the game's message catalogue
(``meso.svg.*`` and the game's vocabularies) in the reader's language ``lang``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from ziggurat.engine.messages import message, render
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import COLOURS, DIRECTIONS, MANA, OFFERING_VALUES, PIECES

View = dict[str, Any]

R = 56.0  # hex radius (centre to corner)
SQ3 = math.sqrt(3.0)
MARGIN = 30.0
PANEL_W = 340.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

TILE_FILL = {
    "plains": "#dcd98c",
    "forest": "#6f9c55",
    "quarry": "#bcb2a2",
    "volcano": "#6b4639",
    "temple": "#ecc96f",
}
TILE_INK = {
    "plains": "#a9ab5b",
    "forest": "#2f5e2b",
    "quarry": "#857a6a",
    "volcano": "#2e1d18",
    "temple": "#a87a2c",
}
PLAYER_FILL = {
    "blue": "#2f63d6",
    "yellow": "#f3c51b",
    "red": "#d2372d",
    "green": "#2f9e4b",
    "neutral": "#f3ead6",
}
PLAYER_INK = {"blue": "#fff", "yellow": "#222", "red": "#fff", "green": "#fff", "neutral": "#222"}
WOOD = "#8a5a2b"
STONE = "#9ea3a8"
GOLD = "#e2b13c"


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


_NARROW = frozenset(" ijlI.,:;'!|()")
_SEMI = frozenset("frt")


def text_width(s: str, size: float, bold: bool = False) -> float:
    """About how wide ``s`` is drawn in DejaVu Sans at ``size`` (an estimate that errs wide), so
    what follows a label can start after it whatever the language's word is."""
    em = 0.0
    for ch in s:
        if ch in _NARROW:
            em += 0.35
        elif ch in _SEMI:
            em += 0.48
        elif ch in "mwMW":
            em += 1.0
        elif ch.isupper() or ch.isdigit():
            em += 0.75
        else:
            em += 0.68
    return em * size * (1.0 if bold else 0.92)


def _text(x: float, y: float, s: str, size: float = 11, fill: str = "#222", anchor: str = "middle",
          weight: str = "normal", extra: str = "") -> str:  # fmt: skip
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape(s)}</text>')  # fmt: skip


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of flat-top axial hex ``q,r`` (before translation)."""
    return (1.5 * R * q, SQ3 * R * (r + q / 2))


def _hex_points(cx: float, cy: float, radius: float = R) -> str:
    pts = []
    for k in range(6):
        a = math.pi / 3 * k
        pts.append(f"{_f(cx + radius * math.cos(a))},{_f(cy + radius * math.sin(a))}")
    return " ".join(pts)


def _offering_value(view: View, owner: str, pub: int | str) -> int | None:
    for pl in view["players"]:
        if pl["colour"] == owner:
            value = pl["offerings"]["placed"].get(str(pub))
            return None if value is None else int(value)
    return None


# --- tile icons -------------------------------------------------------------------------
def _tile_icon(kind: str, cx: float, cy: float) -> str:
    ink = TILE_INK[kind]
    if kind == "volcano":
        return (f'<polygon points="{_f(cx - 34)},{_f(cy + 26)} {_f(cx - 9)},{_f(cy - 16)} {_f(cx + 9)},{_f(cy - 16)} '
                f'{_f(cx + 34)},{_f(cy + 26)}" fill="{ink}"/>'
                f'<polygon points="{_f(cx - 9)},{_f(cy - 16)} {_f(cx + 9)},{_f(cy - 16)} {_f(cx + 4)},{_f(cy - 4)} '
                f'{_f(cx)},{_f(cy + 4)} {_f(cx - 5)},{_f(cy - 6)}" fill="#e8582a"/>'
                f'<circle cx="{_f(cx - 4)}" cy="{_f(cy - 24)}" r="5" fill="#8d7f78" opacity="0.7"/>'
                f'<circle cx="{_f(cx + 5)}" cy="{_f(cy - 31)}" r="6" fill="#8d7f78" opacity="0.5"/>')  # fmt: skip
    if kind == "temple":
        steps = []
        for i, (w, h) in enumerate(((66, 10), (50, 10), (34, 10), (18, 8))):
            y = cy + 30 - 10 * (i + 1)
            steps.append(
                f'<rect x="{_f(cx - w / 2)}" y="{_f(y)}" width="{w}" height="{h}" fill="{ink}" opacity="0.45"/>'
            )
        return "".join(steps)
    icons = []
    spots = ((-30, 20), (28, 22), (-34, -6), (34, -4))
    for dx, dy in spots:
        x, y = cx + dx, cy + dy
        if kind == "forest":
            icons.append(f'<polygon points="{_f(x)},{_f(y - 11)} {_f(x - 7)},{_f(y + 4)} {_f(x + 7)},{_f(y + 4)}" '
                         f'fill="{ink}" opacity="0.55"/>')  # fmt: skip
        elif kind == "quarry":
            icons.append(f'<polygon points="{_f(x - 7)},{_f(y + 4)} {_f(x - 4)},{_f(y - 4)} {_f(x + 3)},{_f(y - 6)} '
                         f'{_f(x + 7)},{_f(y + 3)}" fill="{ink}" opacity="0.55"/>')  # fmt: skip
        elif kind == "plains":
            icons.append(f'<path d="M{_f(x - 4)},{_f(y + 3)} l2,-7 M{_f(x)},{_f(y + 3)} l0,-8 M{_f(x + 4)},{_f(y + 3)} '
                         f'l-2,-7" stroke="{ink}" stroke-width="1.4" fill="none" opacity="0.7"/>')  # fmt: skip
    return "".join(icons)


# --- pieces -----------------------------------------------------------------------------
def _hut(x: float, y: float, owner: str, label: str, offering: str, value: int | None) -> str:
    """A hut centred on ``x``; ``offering``: public id under it ('' for none)."""
    fill = PLAYER_FILL[owner]
    out = [f'<g class="hut" data-owner="{owner}" data-hut="{escape(label)}">',
           f'<polygon points="{_f(x - 9)},{_f(y + 8)} {_f(x - 9)},{_f(y - 2)} {_f(x)},{_f(y - 10)} {_f(x + 9)},{_f(y - 2)} '
           f'{_f(x + 9)},{_f(y + 8)}" fill="{fill}" stroke="#222" stroke-width="1.3"/>',
           f'<rect x="{_f(x - 2.5)}" y="{_f(y + 2)}" width="5" height="6" fill="#222" opacity="0.55"/>']  # fmt: skip
    if offering:
        out.append(_offering_marker(x + 9, y + 5, owner, offering, value, 6.5))  # at its foot: under the hut
    out.append("</g>")
    return "".join(out)


def _offering_marker(x: float, y: float, owner: str, pub: str, value: int | None, radius: float) -> str:
    """A gold offering marker; its value is written only when the view shows it."""
    out = [f'<g class="offering" data-owner="{owner}" data-offering="{escape(pub)}">',
           f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(radius)}" fill="{GOLD}" stroke="#5a4210" stroke-width="1"/>']  # fmt: skip
    if value is not None:
        out.append(_text(x, y + radius * 0.5, str(value), radius * 1.35, "#222", weight="bold",
                         extra=f' class="offering-value" data-owner="{owner}"'))  # fmt: skip
    else:
        out.append(_text(x, y + radius * 0.5, "?", radius * 1.3, "#5a4210", weight="bold"))
    out.append("</g>")
    return "".join(out)


def _holy(x: float, y: float, owner: str) -> str:
    fill = PLAYER_FILL[owner]
    return (f'<g class="holy-place" data-owner="{owner}">'
            f'<rect x="{_f(x - 13)}" y="{_f(y + 3)}" width="26" height="6" fill="{fill}" stroke="#222" stroke-width="1.2"/>'
            f'<rect x="{_f(x - 8)}" y="{_f(y - 3)}" width="16" height="6" fill="{fill}" stroke="#222" stroke-width="1.2"/>'
            f'<polygon points="{_f(x - 4)},{_f(y - 3)} {_f(x)},{_f(y - 12)} {_f(x + 4)},{_f(y - 3)}" fill="{fill}" '
            f'stroke="#222" stroke-width="1.2"/></g>')  # fmt: skip


def _tribe(x: float, y: float, colour: str, cargo: str, view: View, radius: float) -> str:
    out = [f'<g class="tribe" data-owner="{colour}" data-cargo="{escape(cargo)}">',
           f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(radius)}" fill="{PLAYER_FILL[colour]}" stroke="#1a1a1a" '
           f'stroke-width="1.3"/>']  # fmt: skip
    if cargo == "w":
        out.append(f'<rect x="{_f(x - radius * 0.6)}" y="{_f(y - radius * 0.3)}" width="{_f(radius * 1.2)}" '
                   f'height="{_f(radius * 0.6)}" rx="1.5" fill="{WOOD}" stroke="#3b2410" stroke-width="0.8"/>')  # fmt: skip
    elif cargo == "s":
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(radius * 0.45)}" fill="{STONE}" stroke="#333" '
                   f'stroke-width="0.8"/>')  # fmt: skip
    elif cargo.startswith("o"):
        out.append(
            _offering_marker(x, y, colour, cargo[1:], _offering_value(view, colour, cargo[1:]), radius * 0.62)
        )
    out.append("</g>")
    return "".join(out)


def _resource(x: float, y: float, kind: str, count: int) -> str:
    if kind == "wood":
        icon = (f'<rect x="{_f(x - 9)}" y="{_f(y - 4)}" width="16" height="8" rx="2" fill="{WOOD}" stroke="#3b2410"/>'
                f'<circle cx="{_f(x + 7)}" cy="{_f(y)}" r="4" fill="#c89a62" stroke="#3b2410"/>')  # fmt: skip
    else:
        icon = (f'<polygon points="{_f(x - 8)},{_f(y + 5)} {_f(x - 6)},{_f(y - 3)} {_f(x)},{_f(y - 6)} {_f(x + 7)},{_f(y - 2)} '
                f'{_f(x + 8)},{_f(y + 5)}" fill="{STONE}" stroke="#333"/>')  # fmt: skip
    label = _text(x + 13, y + 4, f"×{count}", 9.5, "#1a1a1a", "start", "bold")
    return f'<g class="loose" data-kind="{kind}" data-count="{count}">{icon}{label}</g>'


def _tile_pieces(view: View, cx: float, cy: float, c: tuple[int, int]) -> str:
    out: list[str] = []
    buildings: list[str] = []
    huts = [h for h in view["huts"] if (h[2], h[3]) == c]
    for owner, num, _q, _r, pub in huts:
        label = f"n{num}" if owner == "neutral" else f"{owner[0]}{num}"
        value = _offering_value(view, owner, pub) if pub else None
        buildings.append(("hut", owner, label, str(pub) if pub else "", value))  # type: ignore[arg-type]
    holy = [h[2] for h in view["holy_places"] if (h[0], h[1]) == c]
    slots = len(buildings) + len(holy)
    for i, b in enumerate(buildings):
        x = cx + (i - (slots - 1) / 2) * 30
        out.append(_hut(x, cy - 20, b[1], b[2], b[3], b[4]))  # type: ignore[arg-type]
    for j, owner in enumerate(holy):
        x = cx + (len(buildings) + j - (slots - 1) / 2) * 30
        out.append(_holy(x, cy - 20, owner))
    tribes: list[tuple[str, str]] = []
    for pl in view["players"]:
        for q, r, cargo, _spent in sorted(pl["tribes"], key=lambda t: str(t[2])):
            if (q, r) == c:
                tribes.append((pl["colour"], cargo))
    if tribes:
        per_row = 5 if len(tribes) <= 10 else 7
        radius = 7.5 if len(tribes) <= 10 else 6.0
        rows = [tribes[i : i + per_row] for i in range(0, len(tribes), per_row)]
        gap = radius * 2 + 1
        if slots:  # below the buildings
            top = cy + 2 if len(rows) == 1 else cy - 2
        else:
            top = cy - 6 - (len(rows) - 1) * gap / 2
        for k, row in enumerate(rows):
            for i, (colour, cargo) in enumerate(row):
                x = cx + (i - (len(row) - 1) / 2) * (radius * 2 + 1.5)
                out.append(_tribe(x, top + k * gap, colour, cargo, view, radius))
    loose = next((row for row in view["loose"] if (row[0], row[1]) == c), None)
    if loose:
        items = [("wood", loose[2]), ("stone", loose[3])]
        items = [(k, n) for k, n in items if n]
        for i, (kind, n) in enumerate(items):
            # an item spans x-9 .. x+26; centre it on its slot, the bottom row is narrow
            x = cx - 8.5 + (i - (len(items) - 1) / 2) * 37
            out.append(_resource(x, cy + 31, kind, n))
    return "".join(out)


# --- the map ----------------------------------------------------------------------------
def _spaces(tiles: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(q + dq, r + dr) for q, r in tiles for dq, dr in DIRECTIONS} - tiles


def _map(view: View, lang: str) -> tuple[str, float, float]:
    """The map group (translated to start at 0,0) and its width and height."""
    tiles = {(q, r): kind for q, r, kind in view["tiles"]}
    spaces = _spaces(set(tiles))
    every = list(tiles) + list(spaces)
    xs = [hex_centre(q, r)[0] for q, r in every]
    ys = [hex_centre(q, r)[1] for q, r in every]
    x0, y0 = min(xs) - R, min(ys) - R * SQ3 / 2
    width, height = max(xs) + R - x0, max(ys) + R * SQ3 / 2 - y0
    out = [f'<g class="map" transform="translate({_f(MARGIN - x0)},{_f(MARGIN + 34 - y0)})">']
    for q, r in sorted(spaces):
        cx, cy = hex_centre(q, r)
        out.append(f'<polygon class="space" points="{_hex_points(cx, cy, R - 2)}" fill="none" stroke="#b9ae95" '
                   f'stroke-width="1.2" stroke-dasharray="5 4"/>')  # fmt: skip
        out.append(_text(cx, cy + 4, f"{q},{r}", 10, "#a89d84"))
    for (q, r), kind in sorted(tiles.items()):
        cx, cy = hex_centre(q, r)
        out.append(f'<g class="tile" data-type="{kind}" data-q="{q}" data-r="{r}">')
        out.append(f'<polygon points="{_hex_points(cx, cy, R - 1)}" fill="{TILE_FILL[kind]}" stroke="#5b5140" '
                   f'stroke-width="2"/>')  # fmt: skip
        out.append(_tile_icon(kind, cx, cy))
        label_fill = "#f4efe3" if kind in ("forest", "volcano") else "#3b3426"
        out.append(_text(cx, cy - R * 0.64, f"{q},{r}", 10, label_fill, weight="bold"))
        if kind == "temple":
            out.append(
                _text(
                    cx,
                    cy + R * 0.78,
                    render(V.tile("temple"), lang).upper(),
                    8,
                    "#6b4a14",
                    weight="bold",
                    extra=' letter-spacing="1.5"',
                )
            )
        out.append(_tile_pieces(view, cx, cy, (q, r)))
        out.append("</g>")
    out.append("</g>")
    return "".join(out), width, height


# --- side panel -------------------------------------------------------------------------
def _mana_track(x: float, y: float, mana: int, limit: int, colour: str) -> str:
    out = []
    cell = 20.0
    for v in range(MANA["trackMax"] + 1):
        fill = PLAYER_FILL[colour] if 0 < v <= mana else "#fbf8f0" if v <= limit else "#d6d0c2"
        out.append(f'<rect x="{_f(x + v * cell)}" y="{_f(y)}" width="{_f(cell - 2)}" height="16" fill="{fill}" '
                   f'stroke="#8c8270" stroke-width="1"/>')  # fmt: skip
        ink = PLAYER_INK[colour] if 0 < v <= mana else "#8c8270"
        out.append(_text(x + v * cell + 9, y + 12, str(v), 9, ink))
    bx = x + (limit + 1) * cell - 1
    out.append(f'<rect class="limit" x="{_f(bx - 2)}" y="{_f(y - 4)}" width="3" height="24" fill="#222"/>')
    return "".join(out)


def _player_block(view: View, seat: int, x: float, y: float, lang: str) -> str:
    pl = view["players"][seat]
    colour = pl["colour"]
    order = view.get("turn_order") or []
    active = order[view["turn"]] if order and view.get("phase") not in ("setup", "over") else None
    out = [f'<g class="player" data-colour="{colour}">']
    if colour == active:
        out.append(f'<rect x="{_f(x - 8)}" y="{_f(y - 16)}" width="{_f(PANEL_W - 16)}" height="98" rx="6" '
                   f'fill="#fff7d6" stroke="#d9b44a" stroke-width="1.5"/>')  # fmt: skip
    out.append(
        f'<circle cx="{_f(x + 8)}" cy="{_f(y - 4)}" r="8" fill="{PLAYER_FILL[colour]}" stroke="#222"/>'
    )
    name = render(V.colour_named(colour), lang)
    if view.get("viewer") == colour:
        name += render(message("meso.svg.you"), lang)
    if colour == active:
        name += render(message("meso.svg.toPlay"), lang)
    if view.get("winner") == colour:
        name += render(message("meso.svg.wins"), lang)
    out.append(_text(x + 22, y + 1, name, 14, "#222", "start", "bold"))
    out.append(_text(x, y + 24, render(message("meso.svg.mana"), lang), 10, "#555", "start"))
    out.append(_mana_track(x + 34, y + 12, pl["mana"], pl["limit"], colour))
    out.append(_text(x + 222, y + 24, f"{pl['mana']} / {pl['limit']}", 11, "#222", "start", "bold"))
    off = pl["offerings"]
    out.append(_text(x, y + 50, render(message("meso.svg.delivered"), lang), 10, "#555", "start"))
    for i in range(len(OFFERING_VALUES)):
        ox = x + 70 + i * 24
        if i < len(off["delivered"]):
            pub = off["delivered"][i]
            out.append(_offering_marker(ox, y + 46, colour, str(pub), _offering_value(view, colour, pub), 9))
        else:
            out.append(f'<circle cx="{_f(ox)}" cy="{_f(y + 46)}" r="9" fill="none" stroke="#b8ab8a" '
                       f'stroke-dasharray="3 2"/>')  # fmt: skip
    huts = sum(1 for h in view["huts"] if h[0] == colour)
    holy = sum(1 for h in view["holy_places"] if h[2] == colour)
    cards = message("meso.svg.cards", count=pl["hand_size"])
    out.append(_text(x + 178, y + 50, render(cards, lang), 10, "#333", "start"))
    supply = message(
        "meso.svg.supply",
        tribes=pl["tribes_in_supply"],
        huts=PIECES["huts"] - huts,
        holy=PIECES["holyPlaces"] - holy,
        offerings=off["unplaced_count"],
    )
    out.append(_text(x, y + 72, render(supply, lang), 10, "#333", "start"))
    out.append("</g>")
    return "".join(out)


def _commons(view: View, x: float, y: float, lang: str) -> tuple[str, float]:
    piles_title = render(message("meso.svg.tilePiles"), lang)
    out = ['<g class="commons">', _text(x, y, piles_title, 12, "#222", "start", "bold")]
    first = max(80.0, text_width(piles_title, 12, bold=True) + 16)  # a pile is 13 wide either side
    for k, pile in enumerate(view["piles"]):
        px = x + first + k * 56
        size = pile["size"]
        for j in range(min(4, (size + 2) // 3)):
            out.append(
                f'<polygon points="{_hex_points(px, y - 5 - j * 3, 13)}" fill="#cbbf9f" stroke="#6d634d"/>'
            )
        out.append(_text(px + 20, y, str(size), 12, "#222", "start", "bold"))
    y += 28
    discard = sum(view["discard"].values())
    deck = message("meso.svg.deck", size=view["deck_size"], discard=discard)
    out.append(_text(x, y, render(deck, lang), 12, "#222", "start"))
    y += 22
    sup = view["supply"]
    supply = render(message("meso.svg.supplyTitle"), lang)
    out.append(_text(x, y, supply, 12, "#222", "start", "bold"))
    shift = max(0.0, text_width(supply, 12, bold=True) + 15 - 62)  # a resource starts 9 left of its x
    out.append(_resource(x + 62 + shift, y - 4, "wood", sup["wood"]))
    out.append(_resource(x + 130 + shift, y - 4, "stone", sup["stone"]))
    donated = message("meso.svg.donated", count=sup["stones_removed"])
    out.append(_text(x + 196 + shift, y, render(donated, lang), 11, "#444", "start"))
    out.append("</g>")
    return "".join(out), y


def _secrets(view: View, x: float, y: float, lang: str) -> tuple[str, float]:
    viewer = view.get("viewer")
    if viewer is None:
        spectator = render(message("meso.svg.spectator"), lang)
        return _text(x, y, spectator, 11, "#555", "start", extra=' font-style="italic"'), y
    pl = next(p for p in view["players"] if p["colour"] == viewer)
    off = pl["offerings"]
    out = [
        '<g class="secrets">',
        _text(
            x,
            y,
            render(message("meso.svg.onlySees", who=V.colour_named(viewer)), lang),
            12,
            "#222",
            "start",
            "bold",
        ),
    ]
    y += 20
    unplaced = message("meso.svg.unplaced") if off["unplaced"] else message("meso.svg.unplacedNone")
    unplaced_text = render(unplaced, lang)
    out.append(_text(x, y, unplaced_text, 11, "#333", "start"))
    first = max(124.0, text_width(unplaced_text, 11) + 11)  # a marker is 8.5 wide either side
    for i, v in enumerate(off["unplaced"] or []):
        out.append(_offering_marker(x + first + i * 22, y - 4, viewer, "", v, 8.5))
    seat = COLOURS.index(viewer)
    places = {str(pub): message("meso.svg.underHut", hut=V.hut(seat, int(num)), at=f"{q},{r}")
              for owner, num, q, r, pub in view["huts"] if owner == viewer and pub}  # fmt: skip
    for q, r, cargo, _ in pl["tribes"]:
        if str(cargo).startswith("o"):
            places[cargo[1:]] = message("meso.svg.carried", at=f"{q},{r}")
    for pub, where in sorted(places.items()):
        y += 20
        out.append(_offering_marker(x + 8, y - 4, viewer, pub, _offering_value(view, viewer, pub), 8.5))
        out.append(_text(x + 22, y, render(where, lang), 11, "#333", "start"))
    y += 20
    hand = pl["hand"] or {}
    held = [message("meso.svg.cardCount", card=V.board_card(c), count=n) for c, n in sorted(hand.items())]
    cards = held or message("meso.svg.emptyHand")
    out.append(_text(x, y, render(message("meso.svg.hand", cards=cards), lang), 11, "#333", "start"))
    out.append("</g>")
    return "".join(out), y


def _status(view: View, lang: str) -> list[str]:
    """Short lines: round and whose turn; phase and MP; what is being decided."""
    first = [render(message("meso.svg.round", round=view["round"]), lang)]
    order = view.get("turn_order") or []
    if order and view.get("phase") not in ("setup", "over"):
        first.append(render(message("meso.svg.turn", who=V.colour_named(order[view["turn"]])), lang))
    second = [render(V.svg_phase(view["phase"]), lang)]
    if view.get("phase") == "movement":
        moves = message("meso.svg.movement", mp=view["mp"], discoveries=view["discoveries"])
        second.append(render(moves, lang))
    lines = [" · ".join(first), " · ".join(second)]
    pend = view.get("pending")
    if pend and pend[0] in V.SVG_PENDING:
        lines.append(render(V.svg_pending(pend[0]), lang))
    return lines


def render_svg(view: View, players: Sequence[str] | None = None, lang: str = "en") -> str:
    """The whole picture for ``view`` (``state.view(seat)``) as an SVG document string, its
    words in ``lang`` (a language of the message catalogues)."""
    body, map_w, map_h = _map(view, lang)
    panel_x = MARGIN + map_w + 30
    py = MARGIN + 24
    name = render(message("meso.svg.name"), lang)
    panel = [_text(panel_x, py, name, 22, "#3b2a10", "start", "bold", extra=' letter-spacing="1"')]
    py += 22
    for line in _status(view, lang):
        panel.append(_text(panel_x, py, line, 12, "#333", "start"))
        py += 17
    py -= 17
    if view.get("winner"):
        won = message("meso.svg.hasWon", who=V.colour_named(view["winner"]))
        py += 20
        panel.append(_text(panel_x, py, render(won, lang), 14, "#7a1d10", "start", "bold"))
    py += 40
    for seat in range(len(view["players"])):
        panel.append(_player_block(view, seat, panel_x + 8, py, lang))
        if players and seat < len(players):
            panel.append(_text(panel_x + PANEL_W - 24, py + 1, str(players[seat]), 10, "#777", "end"))
        py += 108
    commons, py = _commons(view, panel_x, py, lang)
    panel.append(commons)
    secrets, py = _secrets(view, panel_x, py + 34, lang)
    panel.append(secrets)
    width = panel_x + PANEL_W + MARGIN
    height = max(MARGIN * 2 + 34 + map_h, py + MARGIN)
    viewer = view.get("viewer")
    title = render(message("meso.svg.title", round=view["round"], view=V.svg_view(viewer)), lang)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}">'
        f"<title>{escape(title)}</title>"
        f'<rect width="100%" height="100%" fill="#f4efe3"/>'
        + _text(MARGIN, MARGIN + 6, render(message("meso.svg.orientation"), lang), 11, "#8b7f66", "start")
        + body
        + f'<line x1="{_f(panel_x - 16)}" y1="{_f(MARGIN)}" x2="{_f(panel_x - 16)}" y2="{_f(height - MARGIN)}" '
        f'stroke="#cdbf9c" stroke-width="1.5"/>' + "".join(panel) + "</svg>"
    )
