"""The Mare Nostrum: Empires board as an SVG document, drawn from one seat's *view* only.

The map data has no coordinates, so provinces and seas sit at hand-placed points of a schematic
Mediterranean (:data:`PLACES`, north up). A province is a card with its name, influence marker,
building slots (filled in the controller's colour when built, ringed when occupied), legions
and fortress; a sea is a blue oval with its triremes. The side panel has the round and stage,
each empire (tokens as a count, tracks, victory progress, tiles, titles), the display, the trade
or payment under way and, for a seat's view, that seat's own screen.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any

from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.describe import (
    PROVINCE_NAMES,
    SEA_NAMES,
    STAGES,
    empire_name,
    result_sentence,
    seat_label,
    tile_name,
    token_name,
)
from ziggurat.games.mare_nostrum.render_text import PROVINCE_SLOTS, _short, phase_text, tracks_of, victory_of

View = dict[str, Any]

PLACES: dict[str, tuple[float, float]] = {
    "gallia": (90, 70), "germania": (250, 45), "dalmatia": (345, 120), "latium": (190, 165),
    "italia": (260, 245), "macedonia": (420, 195), "dacia": (470, 85), "thracia": (580, 150),
    "achea": (430, 300), "sicilia": (200, 330), "numidia": (75, 395), "africa": (200, 430),
    "phasania": (180, 540), "libya": (330, 470), "garamantia": (350, 570), "cyrenaica": (480, 455),
    "nubia": (740, 575), "aegyptus": (630, 485), "aethiopia": (545, 575), "creta": (540, 360),
    "judea": (770, 445), "cilicia": (750, 300), "cappadocia": (790, 195), "asia": (650, 232),
    "syria": (880, 340), "mesopotamia": (920, 245), "babylonia": (920, 445), "armenia": (900, 120),
    "arabia": (900, 555),
    "mare_sardum": (60, 235), "mare_tyrrhenum": (90, 310), "mare_hadriaticum": (305, 190),
    "mare_ionium": (330, 360), "mare_africum": (390, 405), "mare_aegaeum": (522, 252),
    "mare_aegyptum": (640, 385), "mare_cyprium": (760, 372), "pontus_euxinus": (700, 60),
}  # fmt: skip
COLOURS = {"rome": "#c8312a", "greece": "#2f9e4b", "carthage": "#222222", "egypt": "#e3b417",
           "babylon": "#8a4fc0"}  # fmt: skip
INK = "#2b2317"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MAP_W, MAP_H = 1000, 640
PANEL_X, PANEL_W = 1010, 380
BOX_W, BOX_H = 118, 62


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: str, size: float = 11, fill: str = INK, anchor: str = "middle",
          weight: str = "normal", extra: str = "") -> str:  # fmt: skip
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape(s)}</text>')  # fmt: skip


def colour(view: View, seat: int | None) -> str:
    emp = view.get("empires") or []
    if seat is not None and 0 <= seat < len(emp) and emp[seat]:
        return COLOURS.get(emp[seat], "#777")
    return "#999"


def _ink_on(fill: str) -> str:
    return INK if fill in ("#e3b417", "#999") else "#fff"


def _units(view: View, x: float, y: float, per_seat: Sequence[int] | None, shape: str) -> str:
    out = []
    for s, c in enumerate(per_seat or []):
        if not c:
            continue
        fill = colour(view, s)
        if shape == "legion":
            out.append(f'<rect x="{_f(x - 8)}" y="{_f(y - 8)}" width="16" height="16" rx="3" fill="{fill}" '
                       f'stroke="#fff" stroke-width="1"/>')  # fmt: skip
        else:
            out.append(f'<path d="M{_f(x - 11)} {_f(y - 7)} h22 l-5 13 h-12 z" fill="{fill}" stroke="#fff" '
                       f'class="trireme"/>')  # fmt: skip
        out.append(_text(x, y + 3.5, str(c), 10, _ink_on(fill), weight="bold"))
        x += 21 if shape == "legion" else 25
    return "".join(out)


def _province(view: View, prov: str) -> str:
    cx, cy = PLACES.get(prov, (500, 320))
    x, y = cx - BOX_W / 2, cy - BOX_H / 2
    marker = view["markers"].get(prov)
    border = colour(view, marker) if marker is not None else "#9b917c"
    out = [f'<g class="province" id="p-{prov}">',
           f'<rect x="{_f(x)}" y="{_f(y)}" width="{BOX_W}" height="{BOX_H}" rx="7" fill="#efe4c3" '
           f'stroke="{border}" stroke-width="{3 if marker is not None else 1.2}"/>']  # fmt: skip
    if marker is not None:
        out.append(f'<circle cx="{_f(x + 10)}" cy="{_f(y + 10)}" r="6" fill="{border}" class="marker"/>')
    name = PROVINCE_NAMES.get(prov, prov)
    if prov in view.get("pending", {}):
        name += " ~"
    out.append(_text(cx + 4, y + 14, name, 11, INK, weight="bold"))
    built = set(view["buildings"].get(prov, []))
    occ = view.get("occupy", {}).get(prov, {})
    slots = PROVINCE_SLOTS.get(prov, [])
    sw = 22.0
    sx = cx - len(slots) * sw / 2
    for slot in slots:
        ctrl = occ.get(slot, marker)
        fill = colour(view, ctrl) if slot in built else "#fbf7ec"
        stroke = "#e86a10" if slot in occ else "#8b7f66"
        out.append(f'<rect x="{_f(sx + 1)}" y="{_f(y + 20)}" width="{_f(sw - 2)}" height="16" rx="2" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="{2.5 if slot in occ else 0.8}" '
                   f'stroke-dasharray="{"3 2" if slot in occ else "none"}"><title>{escape(slot)}</title></rect>')  # fmt: skip
        ink = _ink_on(fill) if slot in built else "#6d6450"
        out.append(_text(sx + sw / 2, y + 31.5, _short(slot)[:4], 7.5, ink))
        sx += sw
    out.append(_units(view, x + 14, y + 50, view["legions"].get(prov), "legion"))
    fort = view.get("fortresses", {}).get(prov)
    if fort is not None:
        fx, fy = x + BOX_W - 16, y + 42
        out.append(f'<path d="M{_f(fx)} {_f(fy + 14)} v-10 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v10 z" '
                   f'fill="{colour(view, fort)}" stroke="#fff" stroke-width="0.8" class="fortress"/>')  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _sea(view: View, sea: str) -> str:
    cx, cy = PLACES.get(sea, (500, 320))
    out = [
        f'<g class="sea" id="s-{sea}"><ellipse cx="{_f(cx)}" cy="{_f(cy)}" rx="58" ry="26" fill="#a9cbe6" '
        f'stroke="#5d8db5" stroke-width="1"/>',  # fmt: skip
        _text(cx, cy - 9, SEA_NAMES.get(sea, sea), 9.5, "#1d4466", extra=' font-style="italic"'),
    ]
    per = view["triremes"].get(sea) or []
    k = sum(1 for c in per if c)
    out.append(_units(view, cx - (k - 1) * 12.5, cy + 10, per, "trireme"))
    out.append("</g>")
    return "".join(out)


def _map(view: View) -> str:
    board = D.board(int(view["n"]))
    out = [f'<rect x="0" y="0" width="{MAP_W}" height="{MAP_H}" fill="#cfe3f2"/>']
    drawn: set[tuple[str, str]] = set()
    for prov, p in board.provinces.items():
        for other in p["land"] + p["seas"]:
            key = (min(prov, other), max(prov, other))
            if key in drawn or other not in PLACES:
                continue
            drawn.add(key)
            (x1, y1), (x2, y2) = PLACES[prov], PLACES[other]
            dash = "" if other in board.provinces else ' stroke-dasharray="4 4"'
            out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" stroke="#b9a982" '
                       f'stroke-width="1.4"{dash}/>')  # fmt: skip
    for sea, s in board.seas.items():
        for other in s["seas"]:
            key = (min(sea, other), max(sea, other))
            if key not in drawn and other in PLACES:
                drawn.add(key)
                (x1, y1), (x2, y2) = PLACES[sea], PLACES[other]
                out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" stroke="#7fa8cc" '
                           f'stroke-width="2"/>')  # fmt: skip
    out.extend(_sea(view, sea) for sea in board.seas)
    out.extend(_province(view, prov) for prov in board.provinces)
    battle = view.get("battle") or {}
    where = battle.get("where")
    if where in PLACES:  # the battle under way
        bx, by = PLACES[where]
        if where in board.seas:
            shape = f'<ellipse cx="{_f(bx)}" cy="{_f(by)}" rx="63" ry="31"'
        else:
            shape = f'<rect x="{_f(bx - BOX_W / 2 - 5)}" y="{_f(by - BOX_H / 2 - 5)}" width="{BOX_W + 10}" height="{BOX_H + 10}" rx="10"'  # fmt: skip
        out.append(
            f'{shape} fill="none" stroke="#d01c1c" stroke-width="3" stroke-dasharray="7 4" class="battle"/>'
        )
    return "".join(out)


def _panel(view: View, players: Sequence[str] | None) -> tuple[str, float]:
    x = PANEL_X + 8
    y = 30.0
    out = [_text(x, y, "Mare Nostrum: Empires", 20, "#3b2a10", "start", "bold")]
    y += 22
    stage = str(view.get("stage"))
    out.append(
        _text(x, y, f"Round {view.get('round')} · {STAGES.get(stage, stage)}", 13, INK, "start", "bold")
    )
    mover = view.get("to_move")
    if stage == "over":
        y += 18
        out.append(_text(x, y, result_sentence(view), 13, "#7a1d10", "start", "bold", ' class="result"'))
    elif isinstance(mover, int) and mover >= 0:
        y += 17
        out.append(_text(x, y, f"To decide: {seat_label(view, mover)}", 11.5, INK, "start"))
    opts = D.DEFAULT_OPTIONS
    titles = view.get("titles") or {}
    y += 14
    for s in range(int(view["n"])):
        y += 8
        fill = colour(view, s)
        emp = (view.get("empires") or [None] * view["n"])[s]
        role = f" · {players[s]}" if players and s < len(players) else ""
        held = [t for t, who in titles.items() if who == s]
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{PANEL_W - 20}" height="66" rx="5" fill="#fbf7ec" '
                   f'stroke="{fill}" stroke-width="2"/>')  # fmt: skip
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="8" height="66" rx="2" fill="{fill}"/>')
        out.append(_text(x + 14, y + 15, f"{empire_name(emp)} (seat {s}){role}", 12, INK, "start", "bold"))
        tokens = (view.get("res_counts") or [0] * view["n"])[s]
        tr = tracks_of(view, s)
        tiles, cities = victory_of(view, s)
        out.append(_text(x + 14, y + 30, f"tokens {tokens} · trade {tr['trade']} · culture {tr['culture']} · "
                                         f"military {tr['military']}", 10.5, INK, "start"))  # fmt: skip
        out.append(_text(x + 14, y + 44, f"victory: tiles {tiles}/{opts['tiles_to_win']}, capitals+legendary "
                                         f"{cities}/{opts['capitals_to_win']}", 10.5, INK, "start"))  # fmt: skip
        own = [tile_name(t) for t in (view.get("tiles") or [[]] * view["n"])[s]]
        if view.get("pyramids") == s:
            own.append("Pyramids")
        line = ", ".join(own) + ("  ★ " + ", ".join(held) if held else "")
        out.append(_text(x + 14, y + 57, line[:62], 10, "#5a4a2a", "start", extra=' class="tiles"'))
        y += 66
    y += 24
    out.append(_text(x, y, "Display", 12, INK, "start", "bold"))
    shown = ", ".join(tile_name(t) if t else "—" for t in view.get("display") or [])
    for part in textwrap.wrap(shown, 58):
        y += 15
        out.append(_text(x, y, part, 10.5, INK, "start"))
    y += 15
    out.append(_text(x, y, f"face down {view.get('facedown_count', 0)} · legendary pool "
                           f"{view.get('pool_count', 0)}", 10.5, INK, "start"))  # fmt: skip
    phase = phase_text(view)
    if phase is not None:
        y += 10
        for raw in phase.plain.splitlines():
            for part in textwrap.wrap(raw, 60):
                y += 14
                out.append(_text(x, y, part, 10, "#333", "start", extra=' class="phase"'))
    seat = view.get("viewer")
    res = view.get("res") or []
    if seat is not None and 0 <= seat < len(res) and res[seat] is not None:
        y += 24
        out.append(_text(x, y, f"Only seat {seat} sees: its screen", 12, INK, "start", "bold"))
        body = ", ".join(f"{token_name(t)} ×{c}" for t, c in sorted(res[seat].items()) if c) or "empty"
        for part in textwrap.wrap(body, 58):
            y += 15
            out.append(_text(x, y, part, 10.5, INK, "start", extra=' class="secrets"'))
    return "".join(out), y


def render_svg(view: View, players: Sequence[str] | None = None) -> str:
    """The whole picture for ``view`` (``state.view(seat)``) as an SVG document string;
    ``players``: a label per seat (e.g. the bot kind)."""
    panel, y = _panel(view, players)
    width = PANEL_X + PANEL_W
    height = max(MAP_H + 30, y + 30)
    viewer = view.get("viewer")
    title = f"Mare Nostrum: Empires, round {view.get('round')}, " + (
        f"seat {viewer}'s view" if viewer is not None else "spectator's view"
    )
    legend = ("Slots filled in the controller's colour when built, orange dashed ring = occupied; squares = legions, "
              "boats = triremes, towers = fortresses; ~ conversion pending; red dashes = battle")  # fmt: skip
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_f(height)}" '
        f'viewBox="0 0 {width} {_f(height)}" font-family="{FONT}">'
        f"<title>{escape(title)}</title>"
        f'<rect width="100%" height="100%" fill="#f4efe3"/>'
        + _map(view)
        + _text(8, MAP_H + 18, legend, 10.5, "#6d6450", "start")
        + panel
        + "</svg>"
    )
