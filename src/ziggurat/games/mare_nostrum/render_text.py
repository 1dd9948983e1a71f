"""The Mare Nostrum: Empires board as Rich renderables, drawn from one seat's *view* only.

Shows: round and stage with who decides; the empires (tokens behind the screen as a count,
tiles, tracks, victory progress, titles); the provinces with their building slots (``*`` built,
``.`` empty, occupier in brackets), influence marker, legions and fortress; the seas with
triremes; the trade / buy / battle under way; the tile display; and the viewer's own screen.
Every mark is also a letter, so the board reads the same without colour. Every word is a
message of the game's catalogue (``mn.board.*`` and the vocabularies of :mod:`.nouns`), drawn in
the reader's language (``lang``); a payment names its purchase in notation, as it was typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.engine.messages import Message, message
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import buy_place as BP
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import nouns as N
from ziggurat.games.mare_nostrum.describe import (
    PROVINCE_NAMES,
    SEA_NAMES,
    battle_result,
    result_sentence,
    seat_label,
)

View = dict[str, Any]


@dataclass(frozen=True)
class Palette:
    """Rich styles. ``FULL`` needs 256 colours or more; ``BASIC`` keeps to the 16 standard ones."""

    empire: dict[str, str]
    dim: str
    title: str


FULL = Palette(
    empire={
        "rome": "bold #e0453a",
        "greece": "bold #4a7cf0",
        "carthage": "bold #d8b400",
        "egypt": "bold #3fae4f",
        "babylon": "bold #b36ae0",
    },  # fmt: skip
    dim="dim",
    title="bold #d4a017",
)
BASIC = Palette(
    empire={
        "rome": "bold bright_red",
        "greece": "bold bright_blue",
        "carthage": "bold bright_yellow",
        "egypt": "bold bright_green",
        "babylon": "bold bright_magenta",
    },  # fmt: skip
    dim="dim",
    title="bold yellow",
)


def palette_for(color_system: str | None) -> Palette:
    """The palette for a Rich console's ``color_system``."""
    return FULL if color_system in ("256", "truecolor") else BASIC


def _style(view: View, seat: int | None, palette: Palette) -> str:
    emp = view.get("empires") or []
    if seat is not None and 0 <= seat < len(emp) and emp[seat]:
        return palette.empire.get(emp[seat], "bold")
    return "bold"


def seat_player(view: View, seat: int, alone: bool = False) -> Message:
    """The player at ``seat`` by empire once empires are dealt (else ``seat 1``, counted from 1):
    as a sentence names it (French "la Grèce") or ``alone``, as a list or a prompt does."""
    emp = (view.get("empires") or [None] * int(view["n"]))[seat]
    if alone and emp:
        return N.empire_name(emp)
    return N.whom(view, seat)


def _who(view: View, seat: int, lang: str) -> str:
    """A seat's empire by itself (``Rome``), or ``seat 1`` before empires are dealt."""
    return _say(seat_player(view, seat, alone=True), lang)


def _counts(view: View, per_seat: Sequence[int] | None, lang: str) -> str:
    """Units per empire: ``Rome 2 Carthage 1``."""
    return " ".join(
        _say(message("mn.board.unitCount", who=seat_player(view, s, alone=True), n=c), lang)
        for s, c in enumerate(per_seat or [])
        if c
    )


TRACK_TOP = 15
"""The last space of a title track: higher levels are drawn "15+" (2.6, N0.7.5, W11)."""


def tracks_of(view: View, seat: int) -> dict[str, int]:
    """``seat``'s true track levels (N0.7): the view's ``tracks``, or computed from the board."""
    given = view.get("tracks")
    if isinstance(given, list) and seat < len(given):
        return dict(given[seat])
    try:
        return B.tracks(view, seat)
    except (KeyError, TypeError, IndexError):
        return {t: 0 for t in D.TRACKS}


def level_text(level: int) -> str:
    """A track level as the track shows it: ``15+`` above 15 (2.6, W11)."""
    return f"{TRACK_TOP}+" if level > TRACK_TOP else str(level)


def victory_of(view: View, seat: int) -> tuple[int, int]:
    """(tiles owned, capitals + legendary cities controlled) for N6.2 / N6.3."""
    try:
        return len(view["tiles"][seat]), B.victory_cities(view, seat)
    except (KeyError, TypeError, IndexError):
        return 0, 0


def _say(msg: Message, lang: str) -> str:
    return msg.render(lang)


def status_line(view: View, palette: Palette = FULL, lang: str = "en") -> Text:
    text = Text()
    text.append(_say(message("mn.game"), lang), style="bold")
    text.append(_say(message("mn.board.round", n=str(view.get("round"))), lang))
    stage = str(view.get("stage"))
    text.append(_say(N.stage_name(stage), lang))
    if stage == "over":
        text.append("  " + _say(result_sentence(view), lang), style="bold")
        return text
    mover = view.get("to_move")
    if isinstance(mover, int) and mover >= 0:
        who = _say(seat_label(view, mover), lang)
        line = _say(message("mn.board.toDecide", who=seat_label(view, mover)), lang)
        at = line.rfind(who)
        start = len(text)
        text.append(line)
        text.stylize(_style(view, mover, palette), start + at, start + at + len(who))
    return text


def empires_table(
    view: View, roles: Sequence[str] | None, palette: Palette = FULL, lang: str = "en"
) -> Table:
    opts = D.DEFAULT_OPTIONS
    table = Table(
        title=_say(message("mn.board.empires"), lang), title_justify="left", show_edge=False, pad_edge=False
    )
    for col in (
        message("mn.board.colSeat"),
        message("mn.board.colEmpire"),
        message("mn.board.colTokens"),
        message("mn.board.colTracks"),
        message("mn.board.colWin"),
        message("mn.board.colTiles"),
    ):
        table.add_column(_say(col, lang), overflow="fold")
    titles = view.get("titles") or {}
    for s in range(int(view["n"])):
        name = _who(view, s, lang)
        held = [_say(N.track_mark(t), lang) for t, who in titles.items() if who == s]
        if held:
            name += " [" + "".join(held) + "]"
        role = roles[s] if roles and s < len(roles) else ""
        tr = tracks_of(view, s)
        tiles, cities = victory_of(view, s)
        own = ", ".join(_say(N.tile(t), lang) for t in view["tiles"][s]) if view.get("tiles") else ""
        if view.get("pyramids") == s:
            own += ", " + _say(message("mn.board.pyramids"), lang)
        if (view.get("copy") or [None] * view["n"])[s]:
            own += _say(message("mn.board.copies", tile=N.tile(view["copy"][s])), lang)
        table.add_row(
            role,
            Text(name, style=_style(view, s, palette)),
            str((view.get("res_counts") or [0] * view["n"])[s]),
            "/".join(level_text(tr[t]) for t in D.TRACKS),
            f"{tiles}/{opts['tiles_to_win']} {cities}/{opts['capitals_to_win']}",
            own,
        )
    return table


def titles_line(view: View, lang: str = "en") -> Text:
    """Who holds each title (N5)."""
    items = [
        message(
            "mn.board.titleItem",
            track=N.track(t),
            who=seat_label(view, s) if s is not None else message("mn.board.nobody"),
        )
        for t, s in (view.get("titles") or {}).items()
    ]
    return Text(_say(message("mn.board.titles", items=items), lang))


def _slots_text(view: View, prov: str, lang: str) -> str:
    built = set(view["buildings"].get(prov, []))
    occ = view.get("occupy", {}).get(prov, {})
    parts = []
    for slot in PROVINCE_SLOTS.get(prov, []):
        mark = "*" if slot in built else "."
        if slot in occ:
            mark += f"[{_who(view, int(occ[slot]), lang)}]"
        parts.append(f"{mark}{_short(slot, lang)}")
    return " ".join(parts)


def _short(slot: str, lang: str = "en") -> str:
    kind, _, arg = slot.partition(":")
    if kind == "caravan":
        return _say(N.good(arg), lang)
    if kind == "legendary_city":
        return arg.title()
    return _say(N.building_code(kind), lang)


PROVINCE_SLOTS: dict[str, list[str]] = {p["id"]: [x.lower() for x in p["slots"]] for p in D._MAP["provinces"]}


def provinces_table(view: View, palette: Palette = FULL, lang: str = "en") -> Table:
    in_play = set(D.board(int(view["n"])).provinces)
    table = Table(
        title=_say(message("mn.board.provinces"), lang), title_justify="left", show_edge=False, pad_edge=False
    )
    table.add_column(_say(message("mn.board.colProvince"), lang), no_wrap=True)
    table.add_column(_say(message("mn.board.colMarker"), lang))
    table.add_column(_say(message("mn.board.colSlots"), lang), overflow="fold")
    table.add_column(_say(message("mn.board.colLegions"), lang), no_wrap=True)
    table.add_column(_say(message("mn.board.colFortress"), lang))
    for prov in PROVINCE_NAMES:
        if prov not in in_play:
            continue
        marker = view["markers"].get(prov)
        name = _say(N.area(prov), lang)
        notes = []
        if prov in view.get("pending", {}):
            notes.append(_say(message("mn.board.conversion"), lang))
        if prov in view.get("conqueror", {}):
            who = seat_player(view, int(view["conqueror"][prov]))
            notes.append(_say(message("mn.board.conqueror", seat=who), lang))
        if notes:
            name += " (" + ",".join(notes) + ")"
        fort = view.get("fortresses", {}).get(prov)
        table.add_row(
            name,
            Text("-" if marker is None else _who(view, marker, lang), style=_style(view, marker, palette)),
            _slots_text(view, prov, lang),
            _counts(view, view["legions"].get(prov), lang),
            "" if fort is None else _who(view, int(fort), lang),
        )
    return table


def seas_line(view: View, lang: str = "en") -> Text:
    parts = []
    for sea in SEA_NAMES:
        c = _counts(view, view["triremes"].get(sea), lang)
        if c:
            parts.append(message("mn.board.seaItem", sea=N.area(sea), counts=c))
    listed = parts[-1] if parts else message("mn.board.noTriremes")
    for part in reversed(parts[:-1]):
        listed = message("mn.log.then", a=part, b=listed)
    return Text(_say(message("mn.board.seas", items=listed), lang))


def display_line(view: View, lang: str = "en") -> Text:
    shown = [N.tile(t) if t else message("mn.board.nobody") for t in view.get("display") or []]
    text = Text(_say(message("mn.board.display", tiles=shown), lang))
    pile = message("mn.board.pile", down=view.get("facedown_count", 0), pool=view.get("pool_count", 0))
    text.append(_say(pile, lang))
    if view.get("pyramids") is None:
        text.append(_say(message("mn.board.pyramidsUnbought"), lang))
    return text


def _offer_line(view: View, trade: dict[str, Any], s: int) -> Message:
    off = trade["offers"][s]
    offered: Any
    if off is None:
        k = (view.get("offer_counts") or [0] * view["n"])[s]
        offered = message("mn.board.hidden", n=k)
    else:
        offered = [N.good(t) for t in off] or message("mn.board.nobody")
    received = [N.good(t) for t in trade["received"][s]] or message("mn.board.nobody")
    return message(
        "mn.board.offerLine", who=seat_player(view, s, alone=True), offered=offered, received=received
    )


def _battle_lines(view: View, battle: dict[str, Any]) -> list[Message]:
    att, dfn = battle.get("att"), battle.get("def")
    a = seat_label(view, att) if isinstance(att, int) else message("mn.board.unknownSeat")
    b = seat_label(view, dfn) if isinstance(dfn, int) else message("mn.board.unknownSeat")
    where = N.in_area(str(battle.get("where")))
    lines = [message("mn.board.battle", kind=str(battle.get("kind")), where=where, att=a, dfn=b)]
    for side, who in (("att", a), ("def", b)):
        faces = [int(f) for f in battle.get(f"{side}_faces") or []]
        if len(faces) == 1:
            lines.append(message("mn.board.rolled", who=who, faces=faces))
        elif faces:
            lines.append(message("mn.board.rolledTotal", who=who, faces=faces, total=sum(faces)))
    return lines


def phase_text(view: View, lang: str = "en") -> Text | None:
    """The trade, buy or battle under way, as the view shows it."""
    lines: list[Message] = []
    trade = view.get("trade")
    if trade:
        used = "".join("abc"[i] for i, u in enumerate(view.get("tokens_used") or []) if u)
        lines.append(
            message("mn.board.trade", value=str(trade.get("v")), used=used or message("mn.board.none"))
        )
        lines.extend(_offer_line(view, trade, s) for s in range(int(view["n"])))
    buy = view.get("buy")
    if buy and buy.get("paying"):
        pay = buy["paying"]
        paid = [N.good(t) for t in pay.get("paid", [])]
        lines.append(
            message("mn.board.paying", item=str(pay.get("item")), paid=len(pay.get("paid", [])),
                    cost=str(pay.get("cost")), tokens=paid)
        )  # fmt: skip
    battle = view.get("battle")
    if battle:
        lines.extend(_battle_lines(view, battle))
    last = view.get("last_battle")
    if last and not battle:
        lines.append(battle_result(view, last, last=True))
    if not lines:
        return None
    return Text("\n".join(_say(line, lang) for line in lines))


def screen_text(view: View, lang: str = "en") -> Text | None:
    seat = view.get("viewer")
    if seat is None or not view.get("res") or view["res"][seat] is None:
        return None
    res = view["res"][seat]
    items = [message("mn.board.count", tok=N.good(t), n=c) for t, c in sorted(res.items()) if c]
    body = ", ".join(_say(i, lang) for i in items)
    text = Text(_say(message("mn.board.screen"), lang), style="bold")
    text.append(body or _say(message("mn.board.empty"), lang))
    return text


def render_board(
    view: View,
    roles: Sequence[str] | None = None,
    width: int = 100,
    legend: bool = True,
    palette: Palette = FULL,
    lang: str = "en",
) -> RenderableType:
    """Everything a player needs to decide, within ``min(width, 100)`` columns, in ``lang``."""
    parts: list[RenderableType] = [
        status_line(view, palette, lang),
        empires_table(view, roles, palette, lang),
    ]
    parts.append(titles_line(view, lang))
    parts.append(provinces_table(view, palette, lang))
    parts.append(seas_line(view, lang))
    parts.append(display_line(view, lang))
    phase = phase_text(view, lang)
    if phase is not None:
        parts.append(phase)
    screen = screen_text(view, lang)
    if screen is not None:
        parts.append(screen)
    if legend:
        parts.append(Text(_say(message("mn.board.legend"), lang), style="dim"))
    return Group(*parts)


_SEAT_WORD: dict[str, int] = {
    "take": 3, "next": 1, "zeus": 1, "starter": 1, "winner": 1, "title": 2, "seabattle": 2, "fight": 2,
}  # fmt: skip
"""The word of an action that is a seat, counted from 0 (``take wine from 2``, ``next 1``,
``fight gallia 2``): the terminal names its empire beside the action."""


def action_notes(state: Any, actions: Sequence[str]) -> dict[str, Message]:
    """What the terminal prints beside an action of the list: each purchase's cost as the
    engine computes it now for the buyer (``buy_place.purchase``: a hero or wonder's cost
    varies, 2.8), and the empire of a seat the action names by its number (the seat a token
    is taken from, who moves or buys next, who is fought...). The buyer is the seat to move,
    the only one shown the list."""
    d = state.d
    notes: dict[str, Message] = {}
    view: View | None = None
    n = int(d["n"])
    for action in actions:
        w = action.split()
        at = _SEAT_WORD.get(w[0], -1)
        if d["stage"] == "buy_turn" and w[0] in ("buy", "build"):
            notes[action] = message("mn.board.cost", n=BP.purchase(d, int(d["buy"]["active"]), w)[1])
        elif w[0] == "free":
            notes[action] = message("mn.board.costFree")
        elif 0 < at < len(w) and w[at].isdigit() and int(w[at]) < n:
            if view is None:
                view = state.view(None)
            notes[action] = seat_player(view, int(w[at]), alone=True)
    return notes


__all__ = ["BASIC", "FULL", "Palette", "action_notes", "palette_for", "render_board", "seat_player"]
