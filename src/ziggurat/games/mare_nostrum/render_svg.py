"""The Mare Nostrum: Empires board as an SVG document, drawn from one seat's *view* only.

The map comes from the layout keys of ``map.json`` (:mod:`layout`): the seas are water polygons
(coasts solid, borders between seas dashed) with their triremes, the land is the background, and
each province is a card with its name, influence marker, building slots (filled in the
controller's colour when built, ringed when occupied), legions and fortress; land links join the
cards. Provinces out of play at this player count (3.3) are drawn greyed out. The side panel has
the round and stage, the title holders, each empire (tokens as a count, tracks, victory progress,
tiles, titles), the display, the trade or payment under way and, for a seat's view, that seat's
own screen. Texts, tooltips and slot codes are messages (``mn.svg.*``, ``mn.board.*`` and the
vocabularies of :mod:`.nouns`) drawn in the reader's language (``lang``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from html import escape
from typing import Any

from ziggurat.engine.messages import Message, message
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import nouns as N
from ziggurat.games.mare_nostrum.describe import PROVINCE_NAMES, result_sentence, seat_label
from ziggurat.games.mare_nostrum.layout import COLOURS, INK_ON, Point, layout
from ziggurat.games.mare_nostrum.render_text import (
    PROVINCE_SLOTS,
    level_text,
    phase_text,
    tracks_of,
    victory_of,
)

View = dict[str, Any]

INK = "#2b2317"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
LAND, WATER, COAST = "#e6d7b3", "#a9cbe6", "#4f7fa6"
LAYOUT = layout()
MAP_W, MAP_H = LAYOUT.width, LAYOUT.height
PANEL_X, PANEL_W = MAP_W + 10, 380
BOX_W, BOX_H = LAYOUT.card_w, LAYOUT.card_h


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _text(x: float, y: float, s: str, size: float = 11, fill: str = INK, anchor: str = "middle",
          weight: str = "normal", extra: str = "") -> str:  # fmt: skip
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape(s)}</text>')  # fmt: skip


def _empire(view: View, seat: int | None) -> str | None:
    emp = view.get("empires") or []
    if seat is not None and 0 <= seat < len(emp) and emp[seat]:
        return str(emp[seat])
    return None


def colour(view: View, seat: int | None) -> str:
    emp = _empire(view, seat)
    return COLOURS.get(emp, "#777") if emp else "#999"


def _ink_on(view: View, seat: int | None) -> str:
    emp = _empire(view, seat)
    return INK_ON.get(emp, "#fff") if emp else INK


def slot_code(slot: str, lang: str = "en") -> str:
    """The few letters printed on a slot: the caravan's good, the building, the legendary city."""
    kind, _, arg = slot.partition(":")
    if kind == "caravan":
        return N.good_code(arg).render(lang)
    if kind == "legendary_city":
        return arg[:3].title()
    return N.building_code(kind).render(lang)


def _units(view: View, x: float, y: float, per_seat: Sequence[int] | None, shape: str) -> str:
    out = []
    for s, c in enumerate(per_seat or []):
        if not c:
            continue
        fill = colour(view, s)
        if shape == "legion":
            out.append(f'<rect x="{_f(x - 8)}" y="{_f(y - 8)}" width="16" height="16" rx="3" fill="{fill}" '
                       f'stroke="#fff" stroke-width="1" class="legion"/>')  # fmt: skip
        else:
            out.append(f'<path d="M{_f(x - 11)} {_f(y - 7)} h22 l-5 13 h-12 z" fill="{fill}" stroke="#fff" '
                       f'class="trireme"/>')  # fmt: skip
        out.append(_text(x, y + 3.5, str(c), 10, _ink_on(view, s), weight="bold"))
        x += 21 if shape == "legion" else 25
    return "".join(out)


def _province(view: View, prov: str, lang: str) -> str:
    x, y, _, _ = LAYOUT.card(prov)
    cx = x + BOX_W / 2
    marker = view["markers"].get(prov)
    legions = view["legions"].get(prov) or []
    war = sum(1 for c in legions if c) >= 2
    border = colour(view, marker) if marker is not None else "#9b917c"
    fill = "#f6d6cb" if war else "#f7f0dc"
    out = [f'<g class="province" id="p-{prov}">',
           f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(BOX_W)}" height="{_f(BOX_H)}" rx="7" fill="{fill}" '
           f'stroke="{border}" stroke-width="{3 if marker is not None else 1.2}"/>']  # fmt: skip
    if marker is not None:
        out.append(f'<circle cx="{_f(x + 11)}" cy="{_f(y + 11)}" r="6.5" fill="{border}" stroke="#fff" '
                   f'class="marker"><title>{escape(_say(message("mn.svg.marker", who=seat_label(view, int(marker))), lang))}</title></circle>')  # fmt: skip
    name = _say(N.area(prov), lang)
    if prov in view.get("pending", {}):
        name += " ~"
    out.append(_text(cx + 5, y + 15.5, name, 12.5, INK, weight="bold"))
    built = set(view["buildings"].get(prov, []))
    occ = view.get("occupy", {}).get(prov, {})
    slots = PROVINCE_SLOTS.get(prov, [])
    sw = 22.0
    sx = cx - len(slots) * sw / 2
    for slot in slots:
        kind = D.building_kind(slot)
        ctrl = occ.get(slot, marker)
        is_built = slot in built
        sfill = colour(view, ctrl) if is_built else "#fffdf6"
        stroke = "#e86a10" if slot in occ else ("#b8860b" if kind == "legendary_city" else "#8b7f66")
        width = 2.5 if slot in occ else (1.6 if kind == "legendary_city" else 0.8)
        dash = "3 2" if slot in occ or not is_built else "none"
        rx = 2 if kind == "caravan" else 7
        state = "built" if is_built else "empty"
        out.append(f'<rect x="{_f(sx + 1)}" y="{_f(y + 21)}" width="{_f(sw - 2)}" height="16" rx="{rx}" '
                   f'fill="{sfill}" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}" '
                   f'class="slot {state}"><title>{escape(_say(message("mn.svg.slot", slot=N.slot(slot), state=state), lang))}</title></rect>')  # fmt: skip
        ink = _ink_on(view, ctrl) if is_built else "#7d735e"
        out.append(
            _text(
                sx + sw / 2, y + 32.5, slot_code(slot, lang), 8, ink, weight="bold" if is_built else "normal"
            )
        )
        sx += sw
    out.append(_units(view, x + 14, y + 49, legions, "legion"))
    fort = view.get("fortresses", {}).get(prov)
    if fort is not None:
        fx, fy = x + BOX_W - 20, y + 41
        out.append(f'<path d="M{_f(fx)} {_f(fy + 15)} v-11 h3 v-4 h3 v4 h3 v-4 h3 v4 h3 v11 z" '
                   f'fill="{colour(view, fort)}" stroke="#fff" stroke-width="0.8" class="fortress"/>')  # fmt: skip
    out.append("</g>")
    return "".join(out)


def _covered(prov: str, lang: str) -> str:
    """A province out of play at this player count (3.3): greyed out, nothing on it."""
    x, y, _, _ = LAYOUT.card(prov)
    return (f'<g class="province-out" id="p-{prov}-out">'
            f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(BOX_W)}" height="{_f(BOX_H)}" rx="7" fill="#d9d2c2" '
            f'stroke="#aaa08a" stroke-width="1" stroke-dasharray="4 3"/>'
            + _text(x + BOX_W / 2, y + 27, _say(N.area(prov), lang), 11, "#8d8472", weight="bold")
            + _text(x + BOX_W / 2, y + 43, _say(message("mn.svg.outOfPlay"), lang), 9, "#8d8472", extra=' font-style="italic"')
            + "</g>")  # fmt: skip


def _sea(view: View, sea: str, lang: str) -> str:
    cx, cy = LAYOUT.places[sea]
    out = [f'<g class="sea" id="s-{sea}">', _text(cx, cy, _say(N.area(sea), lang), 12.5, "#1d4466",
                                                  extra=' font-style="italic" font-family="Georgia, serif"')]  # fmt: skip
    per = view["triremes"].get(sea) or []
    k = sum(1 for c in per if c)
    out.append(_units(view, cx - (k - 1) * 12.5, cy + 17, per, "trireme"))
    out.append("</g>")
    return "".join(out)


def _map(view: View, lang: str) -> str:
    board = D.board(int(view["n"]))
    out = [f'<rect x="0" y="0" width="{_f(MAP_W)}" height="{_f(MAP_H)}" fill="{LAND}"/>']
    for sea, shape in LAYOUT.shapes.items():
        # the fill's own stroke closes the hairline seams between neighbouring seas
        out.append(f'<polygon points="{_pts(shape)}" fill="{WATER}" stroke="{WATER}" stroke-width="1.5" '
                   f'stroke-linejoin="round" class="water" id="w-{sea}"/>')  # fmt: skip
    coast, borders = LAYOUT.sea_edges()
    out.append(
        '<g class="coast" fill="none" stroke="' + COAST + '" stroke-width="1.8" stroke-linecap="round">'
    )
    out.extend(f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}"/>' for a, b in coast)
    out.append('</g><g class="sea-borders" stroke="#eef6fc" stroke-width="1.3" stroke-dasharray="5 4">')
    out.extend(f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}"/>' for a, b in borders)
    out.append("</g>")
    out.append(
        '<g class="links" fill="none" stroke="#a98c57" stroke-width="2.4" stroke-linejoin="round" opacity="0.75">'
    )
    for prov, p in board.provinces.items():
        for other in p["land"]:
            if prov < other:
                out.append(f'<polyline points="{_pts(LAYOUT.link_path(prov, other))}"/>')
    out.append("</g>")
    out.extend(_sea(view, sea, lang) for sea in board.seas)
    out.extend(_covered(prov, lang) for prov in PROVINCE_NAMES if prov not in board.provinces)
    out.extend(_province(view, prov, lang) for prov in board.provinces)
    battle = view.get("battle") or {}
    where = battle.get("where")
    if where in LAYOUT.places:  # the battle under way
        if where in board.seas:
            ring = f'<polygon points="{_pts(LAYOUT.shapes[where])}"'
        else:
            x, y, _, _ = LAYOUT.card(where)
            ring = f'<rect x="{_f(x - 5)}" y="{_f(y - 5)}" width="{_f(BOX_W + 10)}" height="{_f(BOX_H + 10)}" rx="10"'  # fmt: skip
        out.append(
            f'{ring} fill="none" stroke="#d01c1c" stroke-width="3" stroke-dasharray="7 4" class="battle"/>'
        )
    return "".join(out)


def _say(msg: Message, lang: str) -> str:
    return msg.render(lang)


def _dotted(items: list[Message]) -> Message | str:
    """``a · b · c``, as the panel lists the title holders."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = message("mn.svg.dot", a=item, b=out)
    return out


def _empire_card(view: View, s: int, role: str, lang: str) -> list[str]:
    """The three lines of text on one empire's card in the side panel."""
    opts = D.DEFAULT_OPTIONS
    titles = view.get("titles") or {}
    emp = (view.get("empires") or [None] * view["n"])[s]
    held = [t for t, who in titles.items() if who == s]
    tokens = (view.get("res_counts") or [0] * view["n"])[s]
    tr = tracks_of(view, s)
    tiles, cities = victory_of(view, s)
    head = message("mn.svg.seat", empire=N.empire_name(emp), seat=str(s), role=role)
    tracks = message("mn.svg.tracks", tokens=str(tokens), trade=level_text(tr["trade"]),
                     culture=level_text(tr["culture"]), military=level_text(tr["military"]))  # fmt: skip
    victory = message("mn.svg.victory", tiles=str(tiles), tiles_to_win=str(opts["tiles_to_win"]),
                      cities=str(cities), cities_to_win=str(opts["capitals_to_win"]))  # fmt: skip
    own = [_say(N.tile(t), lang) for t in (view.get("tiles") or [[]] * view["n"])[s]]
    if view.get("pyramids") == s:
        own.append(_say(message("mn.board.pyramids"), lang))
    leaders = ", ".join(_say(N.leader(t), lang) for t in held)
    line = ", ".join(own) + ("  ★ " + leaders if held else "")
    return [_say(head, lang), _say(tracks, lang), _say(victory, lang), line]


def _panel(view: View, players: Sequence[str] | None, lang: str) -> tuple[str, float]:
    x = PANEL_X + 8
    y = 30.0
    out = [_text(x, y, _say(message("mn.game"), lang), 20, "#3b2a10", "start", "bold")]
    y += 22
    stage = str(view.get("stage"))
    heading = message("mn.svg.round", n=str(view.get("round")), stage=N.stage_name(stage))
    out.append(_text(x, y, _say(heading, lang), 13, INK, "start", "bold"))
    mover = view.get("to_move")
    if stage == "over":
        y += 18
        out.append(
            _text(x, y, _say(result_sentence(view), lang), 13, "#7a1d10", "start", "bold", ' class="result"')
        )
    elif isinstance(mover, int) and mover >= 0:
        y += 17
        out.append(
            _text(
                x, y, _say(message("mn.svg.toDecide", who=seat_label(view, mover)), lang), 11.5, INK, "start"
            )
        )
    titles = view.get("titles") or {}
    y += 20
    holders = _dotted([
        message("mn.svg.titleItem", track=N.track(track),
                who=N.empire_name(_empire(view, who)) if who is not None else message("mn.svg.nobody"))
        for track, who in titles.items()
    ])  # fmt: skip
    held_line = _say(message("mn.svg.titles", items=holders), lang)
    # an English line (65 characters at most) stays one line; a longer French one takes two
    for i, part in enumerate([held_line] if len(held_line) <= 65 else textwrap.wrap(held_line, 58)):
        y += 14 if i else 0
        out.append(_text(x, y, part, 11, INK, "start", extra=' class="titles"'))
    y += 6
    for s in range(int(view["n"])):
        y += 8
        fill = colour(view, s)
        role = f" · {players[s]}" if players and s < len(players) else ""
        head, tracks, victory, line = _empire_card(view, s, role, lang)
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{PANEL_W - 20}" height="66" rx="5" fill="#fbf7ec" '
                   f'stroke="{fill}" stroke-width="2"/>')  # fmt: skip
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="8" height="66" rx="2" fill="{fill}"/>')
        out.append(_text(x + 14, y + 15, head, 12, INK, "start", "bold"))
        out.append(_text(x + 14, y + 30, tracks, 10.5, INK, "start"))
        out.append(_text(x + 14, y + 44, victory, 10.5, INK, "start"))
        out.append(_text(x + 14, y + 57, line[:62], 10, "#5a4a2a", "start", extra=' class="tiles"'))
        y += 66
    y += 24
    out.append(_text(x, y, _say(message("mn.svg.display"), lang), 12, INK, "start", "bold"))
    shown = ", ".join(_say(N.tile(t), lang) if t else "—" for t in view.get("display") or [])
    for part in textwrap.wrap(shown, 58):
        y += 15
        out.append(_text(x, y, part, 10.5, INK, "start"))
    y += 15
    pile = message("mn.svg.pile", down=view.get("facedown_count", 0), pool=view.get("pool_count", 0))
    out.append(_text(x, y, _say(pile, lang), 10.5, INK, "start"))
    phase = phase_text(view, lang)
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
        out.append(
            _text(x, y, _say(message("mn.svg.screen", seat=str(seat)), lang), 12, INK, "start", "bold")
        )
        items = [
            _say(message("mn.svg.count", tok=N.good(t), n=c), lang) for t, c in sorted(res[seat].items()) if c
        ]
        body = ", ".join(items) or _say(message("mn.board.empty"), lang)
        for part in textwrap.wrap(body, 58):
            y += 15
            out.append(_text(x, y, part, 10.5, INK, "start", extra=' class="secrets"'))
    return "".join(out), y


def render_svg(view: View, players: Sequence[str] | None = None, lang: str = "en") -> str:
    """The whole picture for ``view`` (``state.view(seat)``) as an SVG document string;
    ``players``: a label per seat (e.g. the bot kind)."""
    panel, y = _panel(view, players, lang)
    width = PANEL_X + PANEL_W
    height = max(MAP_H + 30, y + 30)
    viewer = view.get("viewer")
    title = message(
        "mn.svg.title", n=str(view.get("round")), viewer="none" if viewer is None else str(viewer)
    )
    legend = _say(message("mn.svg.legend"), lang)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_f(height)}" '
        f'viewBox="0 0 {width} {_f(height)}" font-family="{FONT}">'
        f"<title>{escape(_say(title, lang))}</title>"
        f'<rect width="100%" height="100%" fill="#f4efe3"/>'
        + _map(view, lang)
        + _text(8, MAP_H + 18, legend, 10.5, "#6d6450", "start")
        + panel
        + "</svg>"
    )
