"""The Mare Nostrum: Empires board as Rich renderables, drawn from one seat's *view* only.

Shows: round and stage with who decides; the empires (tokens behind the screen as a count,
tiles, tracks, victory progress, titles); the provinces with their building slots (``*`` built,
``.`` empty, occupier in brackets), influence marker, legions and fortress; the seas with
triremes; the trade / buy / battle under way; the tile display; and the viewer's own screen.
Every mark is also a letter, so the board reads the same without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.describe import (
    PROVINCE_NAMES,
    SEA_NAMES,
    STAGES,
    area_name,
    battle_result,
    empire_name,
    faces_text,
    result_sentence,
    seat_label,
    slot_name,
    tile_name,
    token_name,
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
LEGEND = ("Slots: * built, . empty, [S] occupied by seat S. Units: L legions, T triremes, F fortress "
          "(seat: count). M marker owner.")  # fmt: skip


def palette_for(color_system: str | None) -> Palette:
    """The palette for a Rich console's ``color_system``."""
    return FULL if color_system in ("256", "truecolor") else BASIC


def _style(view: View, seat: int | None, palette: Palette) -> str:
    emp = view.get("empires") or []
    if seat is not None and 0 <= seat < len(emp) and emp[seat]:
        return palette.empire.get(emp[seat], "bold")
    return "bold"


def _counts(per_seat: Sequence[int] | None) -> str:
    return " ".join(f"{s}:{c}" for s, c in enumerate(per_seat or []) if c)


def tracks_of(view: View, seat: int) -> dict[str, int]:
    try:
        return B.tracks(view, seat)
    except (KeyError, TypeError, IndexError):
        return {t: 0 for t in D.TRACKS}


def victory_of(view: View, seat: int) -> tuple[int, int]:
    """(tiles owned, capitals + legendary cities controlled) for N6.2 / N6.3."""
    try:
        return len(view["tiles"][seat]), B.victory_cities(view, seat)
    except (KeyError, TypeError, IndexError):
        return 0, 0


def status_line(view: View, palette: Palette = FULL) -> Text:
    text = Text()
    text.append("Mare Nostrum: Empires", style="bold")
    text.append(f"  round {view.get('round')}  ")
    stage = str(view.get("stage"))
    text.append(STAGES.get(stage, stage))
    if stage == "over":
        text.append("  " + result_sentence(view), style="bold")
        return text
    mover = view.get("to_move")
    if isinstance(mover, int) and mover >= 0:
        text.append("  to decide: ")
        text.append(seat_label(view, mover), style=_style(view, mover, palette))
    return text


def empires_table(view: View, roles: Sequence[str] | None, palette: Palette = FULL) -> Table:
    opts = D.DEFAULT_OPTIONS
    table = Table(title="Empires", title_justify="left", show_edge=False, pad_edge=False)
    for col in ("seat", "empire", "tokens", "T/C/M", "win tiles/cities", "tiles"):
        table.add_column(col, overflow="fold")
    titles = view.get("titles") or {}
    for s in range(int(view["n"])):
        emp = (view.get("empires") or [None] * view["n"])[s]
        name = empire_name(emp)
        held = [t[0].upper() for t, who in titles.items() if who == s]
        if held:
            name += " [" + "".join(held) + "]"
        role = f" {roles[s]}" if roles and s < len(roles) else ""
        tr = tracks_of(view, s)
        tiles, cities = victory_of(view, s)
        own = ", ".join(tile_name(t) for t in view["tiles"][s]) if view.get("tiles") else ""
        if view.get("pyramids") == s:
            own += ", Pyramids"
        if (view.get("copy") or [None] * view["n"])[s]:
            own += f" (copies {tile_name(view['copy'][s])})"
        table.add_row(
            f"{s}{role}",
            Text(name, style=_style(view, s, palette)),
            str((view.get("res_counts") or [0] * view["n"])[s]),
            f"{tr['trade']}/{tr['culture']}/{tr['military']}",
            f"{tiles}/{opts['tiles_to_win']} {cities}/{opts['capitals_to_win']}",
            own,
        )
    return table


def _slots_text(view: View, prov: str) -> str:
    built = set(view["buildings"].get(prov, []))
    occ = view.get("occupy", {}).get(prov, {})
    parts = []
    for slot in PROVINCE_SLOTS.get(prov, []):
        mark = "*" if slot in built else "."
        if slot in occ:
            mark += f"[{occ[slot]}]"
        parts.append(f"{mark}{_short(slot)}")
    return " ".join(parts)


def _short(slot: str) -> str:
    kind, _, arg = slot.partition(":")
    if kind == "caravan":
        return arg
    if kind == "legendary_city":
        return arg.title()
    return {"market": "MKT", "capital": "CAP", "temple": "TMP", "city": "CITY"}.get(kind, kind)


PROVINCE_SLOTS: dict[str, list[str]] = {p["id"]: [x.lower() for x in p["slots"]] for p in D._MAP["provinces"]}


def provinces_table(view: View, palette: Palette = FULL) -> Table:
    in_play = set(D.board(int(view["n"])).provinces)
    table = Table(title="Provinces", title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("province", no_wrap=True)
    table.add_column("M")
    table.add_column("slots (* built)", overflow="fold")
    table.add_column("legions", no_wrap=True)
    table.add_column("F")
    for prov in PROVINCE_NAMES:
        if prov not in in_play:
            continue
        marker = view["markers"].get(prov)
        name = PROVINCE_NAMES[prov]
        notes = []
        if prov in view.get("pending", {}):
            notes.append("conv")
        if prov in view.get("conqueror", {}):
            notes.append(f"cq{view['conqueror'][prov]}")
        if notes:
            name += " (" + ",".join(notes) + ")"
        fort = view.get("fortresses", {}).get(prov)
        table.add_row(
            name,
            Text("-" if marker is None else str(marker), style=_style(view, marker, palette)),
            _slots_text(view, prov),
            _counts(view["legions"].get(prov)),
            "" if fort is None else str(fort),
        )
    return table


def seas_line(view: View) -> Text:
    parts = []
    for sea in SEA_NAMES:
        c = _counts(view["triremes"].get(sea))
        if c:
            parts.append(f"{SEA_NAMES[sea]} T {c}")
    return Text("Seas: " + ("; ".join(parts) if parts else "no triremes"))


def display_line(view: View) -> Text:
    shown = [tile_name(t) if t else "-" for t in view.get("display") or []]
    text = Text("Display: " + ", ".join(shown))
    text.append(f"  face down {view.get('facedown_count', 0)}  legendary pool {view.get('pool_count', 0)}")
    if view.get("pyramids") is None:
        text.append("  Pyramids unbought")
    return text


def phase_text(view: View) -> Text | None:
    """The trade, buy or battle under way, as the view shows it."""
    lines: list[str] = []
    trade = view.get("trade")
    if trade:
        used = "".join("abc"[i] for i, u in enumerate(view.get("tokens_used") or []) if u)
        lines.append(f"Trade value {trade.get('v')} (tokens used: {used or 'none'})")
        for s in range(int(view["n"])):
            off = trade["offers"][s]
            if off is None:
                k = (view.get("offer_counts") or [0] * view["n"])[s]
                shown = f"{k} hidden"
            else:
                shown = ", ".join(token_name(t) for t in off) or "-"
            got = ", ".join(token_name(t) for t in trade["received"][s]) or "-"
            lines.append(f"  {seat_label(view, s)}: offers {shown}; received {got}")
    buy = view.get("buy")
    if buy and buy.get("paying"):
        pay = buy["paying"]
        paid = ", ".join(token_name(t) for t in pay.get("paid", []))
        lines.append(f"Paying for {pay.get('item')}: {len(pay.get('paid', []))}/{pay.get('cost')} ({paid})")
    battle = view.get("battle")
    if battle:
        att, dfn = battle.get("att"), battle.get("def")
        a = seat_label(view, att) if isinstance(att, int) else "?"
        b = seat_label(view, dfn) if isinstance(dfn, int) else "?"
        where = area_name(str(battle.get("where")))
        lines.append(f"Battle ({battle.get('kind')}) in {where}: {a} attacks {b}")
        for side, who in (("att", a), ("def", b)):
            faces = battle.get(f"{side}_faces") or []
            if faces:
                lines.append(f"  {who} rolled {faces_text(','.join(map(str, faces)))}")
    last = view.get("last_battle")
    if last and not battle:
        lines.append(battle_result(view, last, last=True))
    if not lines:
        return None
    return Text("\n".join(lines))


def screen_text(view: View) -> Text | None:
    seat = view.get("viewer")
    if seat is None or not view.get("res") or view["res"][seat] is None:
        return None
    res = view["res"][seat]
    body = ", ".join(f"{token_name(t)} x{c}" for t, c in sorted(res.items()) if c) or "empty"
    text = Text("Your screen ", style="bold")
    text.append(body)
    return text


def render_board(
    view: View,
    roles: Sequence[str] | None = None,
    width: int = 100,
    legend: bool = True,
    palette: Palette = FULL,
    lang: str = "en",
) -> RenderableType:
    """Everything a player needs to decide, within ``min(width, 100)`` columns."""
    parts: list[RenderableType] = [status_line(view, palette), empires_table(view, roles, palette)]
    titles = view.get("titles") or {}
    parts.append(Text("Titles: " + ", ".join(f"{t} {seat_label(view, s) if s is not None else '-'}"
                                             for t, s in titles.items())))  # fmt: skip
    parts.append(provinces_table(view, palette))
    parts.append(seas_line(view))
    parts.append(display_line(view))
    phase = phase_text(view)
    if phase is not None:
        parts.append(phase)
    screen = screen_text(view)
    if screen is not None:
        parts.append(screen)
    if legend:
        parts.append(Text(LEGEND, style="dim"))
    return Group(*parts)


__all__ = ["BASIC", "FULL", "Palette", "palette_for", "render_board", "slot_name"]
