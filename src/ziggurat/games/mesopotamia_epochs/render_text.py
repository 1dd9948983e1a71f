"""The Mesopotamia: Epochs board as Rich renderables for a terminal, drawn from one seat's *view*.

Only a view (``state.view(seat)``, rules spec §6) is read, never the true state, so nothing the
viewer may not know can be drawn. The board shows: the Epoch and round with whose People is
moving and what is being decided; the map as a list of areas grouped by region (kind and marks,
the People holding it with its player's symbol, its tribes); the victory-point track; every
face-up People with its order, abilities, areas and score (face-down cards as ``?``); and the
viewer's own secrets (its card while still face down, a card it drew or passed). Colour marks
the Epoch of a People (§2.3); every mark is also a letter or a sign, so the board reads the
same in a plain log or a pipe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.games.mesopotamia_epochs.describe import (
    ABILITY_SHORT,
    Names,
    attack_route,
    names_for,
    occupancy,
    owners,
    result_sentence,
    symbol_name,
)

View = dict[str, Any]

# Regions of the default map, for grouping the area list (areas of another map go to "Areas").
REGIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Sumer and Akkad", ("ur", "uruk", "babylon", "akkad", "kaldu", "elam")),
    ("Assyria and the Zagros", ("gutium", "ashur", "subartu", "nisibis", "urartu", "media", "mari")),
    ("Syria and the Levant", ("yamhad", "aramaea", "ugarit", "byblos", "canaan")),
    ("Egypt", ("sinai", "avaris", "memphis", "thebes")),
    (
        "Anatolia and Thrace",
        ("kizzuwatna", "kanesh", "hatti", "isuwa", "arzawa", "lukka", "ahhiyawa", "thrace"),
    ),
    ("Aegean and Cyprus", ("knossos", "khania", "islands", "alishiya")),
)
KIND_MARK = {"island": "isl", "desert": "des", "land": "", "sea": "sea", "uninhabited": "waste"}
PHASES = {"allocation": "Allocation", "strategy": "Strategy", "over": "game over"}


@dataclass(frozen=True)
class Palette:
    """Rich styles. ``FULL`` needs 256 colours or more; ``BASIC`` keeps to the 16 standard ones."""

    epoch: dict[int, str]  # a People's tribes and name, by its card Epoch (§2.3)
    player: str  # player symbols
    double: str
    bonus: str
    dim: str


FULL = Palette(
    epoch={1: "bold #4a7cf0", 2: "bold #3fae4f", 3: "bold #e09a1a", 4: "bold #b36ae0", 5: "bold #e0453a"},
    player="bold",
    double="bold #d4a017",
    bonus="bold #e6c200",
    dim="dim",
)
BASIC = Palette(
    epoch={
        1: "bold bright_blue",
        2: "bold bright_green",
        3: "bold bright_yellow",
        4: "bold bright_magenta",
        5: "bold bright_red",
    },  # fmt: skip
    player="bold",
    double="bold yellow",
    bonus="bold bright_yellow",
    dim="dim",
)


def palette_for(color_system: str | None) -> Palette:
    """The palette for a Rich console's ``color_system``."""
    return FULL if color_system in ("256", "truecolor") else BASIC


def _epoch_style(names: Names, pid: str | None, palette: Palette) -> str:
    e = names.card_epoch(pid) if pid else None
    return palette.epoch.get(e or 0, "bold")


def _initial(symbol: str | None) -> str:
    return symbol[0].upper() if symbol else "?"


def _areas_of(view: View) -> dict[str, tuple[int, int]]:
    """People id -> (areas, tribes) on the map."""
    out: dict[str, tuple[int, int]] = {}
    for _a, pid, n in view["areas"]:
        areas, tribes = out.get(pid, (0, 0))
        out[pid] = (areas + 1, tribes + int(n))
    return out


# --- status and pending -----------------------------------------------------------------------
def status_line(view: View, palette: Palette = FULL) -> Text:
    """Epoch, segment, the People whose round it is and who is to decide."""
    names = names_for(view)
    who = owners(view)
    epochs = names.peoples.epochs if names.peoples else 5
    text = Text()
    text.append(f"Epoch {view['epoch']} of {epochs}", style="bold")
    if view["phase"] != "over":
        text.append(f" · {PHASES.get(view['phase'], view['phase'])}")
    rnd = view.get("round")
    if rnd:
        pid = rnd["people"]
        text.append(f" · round #{rnd['order']}: ")
        text.append(names.the(pid), style=_epoch_style(names, pid, palette))
        text.append(f" ({symbol_name(who.get(pid, '?'))})")
        text.append(f" · pool {rnd['pool']}")
    if view["phase"] == "over":
        text.append(" · " + result_sentence(view), style="bold")
    mover = view.get("to_move")
    if mover and mover != "chance":
        text.append(f" · {symbol_name(mover)} to decide", style="bold")
    return text


def pending_text(view: View, palette: Palette = FULL) -> Text | None:
    """What is being decided or rolled now, in words."""
    names = names_for(view)
    who = owners(view)
    pend = view.get("pending") or []
    rnd = view.get("round") or {}
    pid = rnd.get("people")
    text = Text()
    kind = pend[0] if pend else None
    if kind == "deal":
        text.append(f"Dealing the Epoch 1 cards: the next goes to {symbol_name(pend[1])}")
    elif kind == "draw":
        drawer = view["draw_order"][view["draw_index"]]
        text.append(f"{symbol_name(drawer)} draws a card ({view['deck_size']} in the deck)")
    elif kind == "keep":
        drawer = view["draw_order"][view["draw_index"]]
        card = f" ({names.the(pend[1])})" if pend[1] else ""
        text.append(f"{symbol_name(drawer)} has drawn a card{card}: keep it or pass it face down")
    elif kind == "landing" and pid:
        text.append(f"{_cap(names.the(pid))} start at sea: {symbol_name(who.get(pid, '?'))} chooses a coast")
    elif kind == "displace" and pid:
        occ = occupancy(view)
        moved = occ.get(pend[1], ("?", 0))[0]
        text.append(f"{_cap(names.the(pid))} start in {names.area(pend[1])}: ")
        text.append(f"{symbol_name(who.get(moved, '?'))} moves a tribe of {names.the(moved)} out of it")
    elif kind == "combat" and pid:
        occ = occupancy(view)
        defender, count = occ.get(pend[1], ("?", 0))
        route = attack_route(names, occ, pid, pend[1])
        where = f" from {names.area(route)}" if route else " from the sea" if names.map else ""
        text.append("Attack in progress: ", style="bold")
        text.append(names.the(pid), style=_epoch_style(names, pid, palette))
        text.append(
            f" attack {names.area(pend[1])}{where} against {count} tribe{'s' if count != 1 else ''} of "
        )
        text.append(names.the(defender), style=_epoch_style(names, defender, palette))
        dice = int(pend[2])
        hard = " (difficult border)" if dice == 2 and route else ""
        text.append(f"; the attacker rolls 2 dice, the defender {dice}{hard}")
    elif kind is None and pid and view["phase"] == "strategy":
        text.append(f"{symbol_name(who.get(pid, '?'))} places the next tribe of {names.the(pid)}, or stops")
    else:
        return None
    return text


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


# --- the map ------------------------------------------------------------------------------------
def _area_rows(view: View, names: Names) -> list[tuple[str, list[str]]]:
    """(region title, area ids) for every area that can be held, in region order."""
    m = names.map
    if m is None:  # a replaced map: only the areas the view names, alphabetically
        return [("Areas", sorted({a for a, _, _ in view["areas"]}))]
    placeable = [a for i, a in enumerate(m.ids) if m.placeable[i]]
    out = []
    seen: set[str] = set()
    for title, ids in REGIONS:
        rows = [a for a in ids if a in m.index and m.placeable[m.index[a]]]
        seen.update(rows)
        if rows:
            out.append((title, rows))
    rest = [a for a in placeable if a not in seen]
    if rest:
        out.append(("Other areas", rest))
    return out


def _region_table(title: str, ids: list[str], view: View, names: Names, palette: Palette) -> Table:
    occ = occupancy(view)
    who = owners(view)
    m = names.map
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False,
                  padding=(0, 1, 0, 0), show_header=False)  # fmt: skip
    for w in (10, 2, 3, 1, 13, 5):  # name, ×2, kind, ≈, holder and symbol, tribes: 39 columns
        table.add_column(no_wrap=True, min_width=w)
    for aid in ids:
        i = m.index[aid] if m is not None and aid in m.index else -1
        double, kind, coast = Text(), Text(), Text()
        if i >= 0 and m is not None:
            double.append("×2" if m.double[i] else "", style=palette.double)
            kind.append(KIND_MARK.get(m.kinds[i], ""), style=palette.dim)
            coast.append("≈" if m.coastal[i] else "", style="cyan")
        holder = Text()
        tribes = Text()
        if aid in occ:
            pid, count = occ[aid]
            style = _epoch_style(names, pid, palette)
            holder.append(names.people(pid), style=style)
            holder.append(f" {_initial(who.get(pid))}", style=palette.player)
            tribes.append("●" * count, style=style)
            if names.bonus(pid) == aid:
                tribes.append(" ★", style=palette.bonus)
        else:
            holder.append("·", style=palette.dim)
        table.add_row(names.area(aid), double, kind, coast, holder, tribes)
    return table


def render_map(view: View, width: int = 100, palette: Palette = FULL) -> RenderableType:
    """The areas by region: name, marks, the People holding it with its player, its tribes."""
    names = names_for(view)
    tables = [_region_table(t, ids, view, names, palette) for t, ids in _area_rows(view, names)]
    if width < 80 or len(tables) < 2:
        return Group(*tables)
    half = (sum(len(ids) + 1 for _, ids in _area_rows(view, names)) + 1) // 2
    left: list[Table] = []
    right: list[Table] = []
    rows = 0
    for table in tables:
        (left if rows < half else right).append(table)
        rows += table.row_count + 1
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_row(Group(*left), Group(*right))
    return grid


LEGEND = (
    "×2 double value · isl island · des desert (no entry, E11) · ≈ coastal (Seafaring) · "
    "● a tribe, coloured by its People's Epoch · B H M S U: the player's symbol · "
    "★ the holder's bonus area (scores double) · #n: order number this Epoch"
)


# --- players and Peoples ----------------------------------------------------------------------------
def vp_track(view: View, roles: Sequence[str] | None, width: int, palette: Palette = FULL) -> Table:
    """Every player's VP as a bar against the leader's, with their role and whose turn it is."""
    viewer = view.get("viewer")
    players = view["players"]
    best = max([int(pl["vp"]) for pl in players] + [1])
    bar_w = max(8, min(24, width // 5))
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_header=False)
    for _ in range(3):
        table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    mover = view.get("to_move")
    for seat, pl in enumerate(players):
        label = Text(
            ("▶ " if pl["symbol"] == mover else "  ") + symbol_name(pl["symbol"]), style=palette.player
        )
        role = roles[seat] if roles and seat < len(roles) else ""
        if pl["symbol"] == viewer:
            label.append(" (you)")
        elif role:
            label.append(f" ({role})", style=palette.dim)
        vp = int(pl["vp"])
        filled = round(bar_w * vp / best)
        table.add_row(label, Text(f"{vp:>3} VP", style="bold"), Text("█" * filled + "░" * (bar_w - filled)),
                      _cards_line(view, pl, palette))  # fmt: skip
    return table


def _cards_line(view: View, pl: dict[str, Any], palette: Palette) -> Text:
    """``1:Sumerians 2:(Amorites) 3:?``: face up, the viewer's own secret, unknown to the viewer.
    Names keep together (no-break spaces) when the line wraps."""
    names = names_for(view)
    text = Text()
    for card in pl["cards"]:
        if text:
            text.append(" ")
        pid = card["people"]
        text.append(f"{card['epoch']}:", style="" if pid else palette.dim)
        if pid is None:
            text.append("?", style=palette.dim)
        elif card["public"]:
            text.append(names.people(pid).replace(" ", "\u00a0"), style=_epoch_style(names, pid, palette))
        else:
            text.append(f"({names.people(pid)})".replace(" ", "\u00a0"), style=palette.dim)
    return text


def peoples_table(view: View, palette: Palette = FULL) -> Table:
    """Every face-up People in play, in round order this Epoch: order, player, abilities,
    start and bonus areas, areas and tribes on the map, VP scored; ``▶`` marks the active one."""
    names = names_for(view)
    who = owners(view)
    epoch = int(view["epoch"])
    held = _areas_of(view)
    rnd = view.get("round") or {}
    active = rnd.get("people")
    rows = []
    for pl in view["players"]:
        for card in pl["cards"]:
            if card["public"]:
                pid = card["people"]
                rows.append((names.order(pid, epoch) or 0, pid))
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold")
    for head, just in (("#", "right"), ("People", "left"), ("player", "left"), ("abilities", "left"),
                       ("start → bonus", "left"), ("areas/tribes", "right"), ("VP", "right")):  # fmt: skip
        table.add_column(head, justify=just, no_wrap=True)  # type: ignore[arg-type]
    current = int(rnd.get("order", 0)) if view["phase"] == "strategy" else 0
    for order, pid in sorted(rows):
        mark = "▶ " if pid == active else "✓ " if order and order < current else ""
        name = Text(mark + names.people(pid), style=_epoch_style(names, pid, palette))
        abil = ", ".join(ABILITY_SHORT.get(a, a) for a in names.abilities(pid)) or "-"
        start, bonus = names.start(pid), names.bonus(pid)
        route = f"{names.area(start) if start else '?'} → {names.area(bonus) if bonus else '?'}"
        areas, tribes = held.get(pid, (0, 0))
        vp = view.get("peoples", {}).get(pid, {}).get("vp", 0)
        table.add_row(str(order) if order else "", name, symbol_name(who.get(pid, "?")), abil, route,
                      f"{areas}/{tribes}" if areas else "none", str(vp))  # fmt: skip
    return table


def commons_line(view: View, palette: Palette = FULL) -> Text:
    """The draw order of the Allocation, the deck, and the set-aside cards."""
    names = names_for(view)
    text = Text()
    order = view.get("draw_order") or []
    if view["phase"] == "allocation" and order:
        text.append("Draw order ", style="bold")
        parts = []
        for k, sym in enumerate(order):
            mark = "✓" if k < view["draw_index"] else "▶" if k == view["draw_index"] else ""
            parts.append(f"{mark}{symbol_name(sym)}")
        text.append(" ".join(parts) + f" · deck {view['deck_size']}  ")
    elif view["phase"] == "allocation":
        text.append(f"Epoch 1 deal · deck {view['deck_size']}  ")
    aside: dict[int, list[str]] = {}
    for card in view["set_aside"]:
        aside.setdefault(card["epoch"], []).append(names.people(card["people"]) if card["people"] else "?")
    text.append("Set aside ", style="bold")
    if not aside:
        text.append("none")
    text.append(" · ".join(f"E{e}: {', '.join(cards)}" for e, cards in sorted(aside.items())))
    return text


def secrets_text(view: View, palette: Palette = FULL) -> Text | None:
    """The viewer's own hidden knowledge: its face-down cards, cards it drew or passed."""
    viewer = view.get("viewer")
    if viewer is None:
        return None
    names = names_for(view)
    parts: list[str] = []
    for pl in view["players"]:
        for card in pl["cards"]:
            if card["public"] or card["people"] is None:
                continue
            people = names.the(card["people"])
            if pl["symbol"] == viewer:
                parts.append(f"you hold {people} (Epoch {card['epoch']}), face down until their round")
            else:
                parts.append(f"{symbol_name(pl['symbol'])} holds {people} (you passed it)")
    pend = view.get("pending") or []
    if pend and pend[0] == "keep" and pend[1]:
        parts.append(f"you drew {names.the(pend[1])}")
    text = Text()
    text.append("Your secrets ", style="bold")
    text.append("; ".join(parts) if parts else "none")
    return text


def render_board(
    view: View,
    roles: Sequence[str] | None = None,
    width: int = 100,
    legend: bool = True,
    palette: Palette = FULL,
    lang: str = "en",
) -> RenderableType:
    """Everything a player needs to decide: status, what is pending, the map, the VP track,
    the Peoples, the deal and set-aside cards, and the viewer's secrets.

    ``roles``: a label per seat (e.g. the bot kind); ``palette``: :data:`FULL`, or
    :data:`BASIC` for a 16-colour terminal (see :func:`palette_for`).
    """
    parts: list[RenderableType] = [status_line(view, palette)]
    pending = pending_text(view, palette)
    if pending is not None:
        parts.append(pending)
    parts.append(render_map(view, width, palette))
    if legend:
        parts.append(Text(LEGEND, style="dim"))
    parts.append(vp_track(view, roles, width, palette))
    parts.append(peoples_table(view, palette))
    parts.append(commons_line(view, palette))
    secrets = secrets_text(view, palette)
    if secrets is not None:
        parts.append(secrets)
    return Group(*parts)
