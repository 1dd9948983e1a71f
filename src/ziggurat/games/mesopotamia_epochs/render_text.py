"""The Mesopotamia: Epochs board as Rich renderables for a terminal, drawn from one seat's *view*.

Only a view (``state.view(seat)``, rules spec §6) is read, never the true state, so nothing the
viewer may not know can be drawn. The board shows: the Epoch and round with whose People is
moving and what is being decided; the map as a list of areas grouped by region (kind and marks,
the People holding it with its player's symbol, its tribes); the victory-point track; every
face-up People with its order, abilities, areas and score (face-down cards as ``?``); and the
viewer's own secrets (its card while still face down, a card it drew or passed). Colour marks
the Epoch of a People (§2.3); every mark is also a letter or a sign, so the board reads the
same in a plain log or a pipe.

Every word is a message of the game's catalogues (``messages/<lang>.json``, keys
``epochs.board.*``), shown in the reader's language ``lang``; areas, Peoples, players, phases,
regions, kinds and abilities are named by the game's vocabularies (:mod:`.words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.engine.messages import Message, message, noun
from ziggurat.games.mesopotamia_epochs.describe import (
    Names,
    attack_route,
    names_for,
    occupancy,
    owners,
    result_sentence,
)
from ziggurat.games.mesopotamia_epochs.words import as_is, symbol

View = dict[str, Any]

# Regions of the default map, for grouping the area list (areas of another map go to "areas"),
# by their id in the vocabulary ``epochs.region``.
REGIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("sumer_akkad", ("ur", "uruk", "babylon", "akkad", "kaldu", "elam")),
    ("assyria_zagros", ("gutium", "ashur", "subartu", "nisibis", "urartu", "media", "mari")),
    ("syria_levant", ("yamhad", "aramaea", "ugarit", "byblos", "canaan")),
    ("egypt", ("sinai", "avaris", "memphis", "thebes")),
    ("anatolia_thrace", ("kizzuwatna", "kanesh", "hatti", "isuwa", "arzawa", "lukka", "ahhiyawa", "thrace")),
    ("aegean_cyprus", ("knossos", "khania", "islands", "alishiya")),
)
KINDS = ("land", "island", "desert", "sea", "uninhabited")  # kinds with a mark (epochs.kindMark)
ABILITIES = ("military", "urbanisation", "seafaring", "fast_growth", "slow_growth")  # epochs.abilityShort
PHASES = ("allocation", "strategy", "over")  # epochs.phase


# --- words in the reader's language ------------------------------------------------------------
def area_name(names: Names, aid: str, lang: str) -> str:
    """The area's name in ``lang``."""
    return names.area_word(aid).render(lang)


def people_name(names: Names, pid: str, lang: str) -> str:
    """The People's name in ``lang`` (``Sumerians``)."""
    return names.people_word(pid).render(lang)


def the_people(names: Names, pid: str, lang: str) -> str:
    """The People with its article in ``lang`` (``the Sumerians``, ``les Sumériens``)."""
    return message("epochs.log.the", people=names.people_word(pid)).render(lang)


def player_name(sym: str, lang: str) -> str:
    """A player by symbol in ``lang`` (``Head``, ``Tête``)."""
    return symbol(sym).render(lang)


def seat_player(view: View, seat: int, alone: bool = False) -> Message:
    """The player at ``seat`` by symbol (``Head``), in a sentence or ``alone`` (a prompt)."""
    return symbol(str(view["players"][seat]["symbol"]))


def phase_name(phase: str, lang: str) -> str:
    """``Allocation``, ``Strategy``, ``Game over`` in ``lang``."""
    return noun("epochs.phase", phase).render(lang) if phase in PHASES else phase


def ability_short(ability: str, lang: str) -> str:
    """An ability's short name (``Mil``, ``Sea``) in ``lang``."""
    return noun("epochs.abilityShort", ability).render(lang) if ability in ABILITIES else ability


def _styled(sentence: str, peoples: Sequence[tuple[Sequence[str], str]]) -> Text:
    """``sentence`` with each People it names in that People's style, left to right: the first
    of its spellings found (with its article, else the bare name where the language contracts
    the article, as in "des Hittites")."""
    text = Text(sentence)
    at = 0
    for spellings, style in peoples:
        for spelling in spellings:
            i = sentence.find(spelling, at)
            if i >= 0:
                text.stylize(style, i, i + len(spelling))
                at = i + len(spelling)
                break
    return text


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


def _initial(sym: str | None, lang: str) -> str:
    """The player's initial in ``lang`` (Head: ``H``; Tête: ``T``)."""
    name = player_name(sym, lang) if sym else ""
    return name[0].upper() if name else "?"


def _areas_of(view: View) -> dict[str, tuple[int, int]]:
    """People id -> (areas, tribes) on the map."""
    out: dict[str, tuple[int, int]] = {}
    for _a, pid, n in view["areas"]:
        areas, tribes = out.get(pid, (0, 0))
        out[pid] = (areas + 1, tribes + int(n))
    return out


# --- status and pending -----------------------------------------------------------------------
def status_line(view: View, palette: Palette = FULL, lang: str = "en") -> Text:
    """Epoch, segment, the People whose round it is and who is to decide."""
    names = names_for(view)
    who = owners(view)
    epochs = names.peoples.epochs if names.peoples else 5
    text = Text()
    text.append(message("epochs.board.epochOf", n=int(view["epoch"]), of=epochs).render(lang), style="bold")
    if view["phase"] != "over":
        text.append(f" · {phase_name(view['phase'], lang)}")
    rnd = view.get("round")
    if rnd:
        pid = rnd["people"]
        text.append(" · " + message("epochs.board.round", n=int(rnd["order"])).render(lang) + " ")
        text.append(the_people(names, pid, lang), style=_epoch_style(names, pid, palette))
        text.append(f" ({player_name(who.get(pid, '?'), lang)})")
        text.append(" · " + message("epochs.board.pool", n=int(rnd["pool"])).render(lang))
    if view["phase"] == "over":
        text.append(" · " + result_sentence(view).render(lang), style="bold")
    mover = view.get("to_move")
    if mover and mover != "chance":
        text.append(" · " + message("epochs.board.toDecide", who=symbol(mover)).render(lang), style="bold")
    return text


def _holds_card_this_epoch(view: View, sym: str) -> bool:
    """Whether player ``sym`` already holds a card of the current Epoch (the cards are public)."""
    player = next((p for p in view["players"] if p["symbol"] == sym), None)
    return player is not None and any(c.get("epoch") == view["epoch"] for c in player.get("cards") or [])


def pending_message(view: View) -> Message | None:
    """What is being decided or rolled now, as a message (None when nothing is)."""
    names = names_for(view)
    who = owners(view)
    pend = view.get("pending") or []
    rnd = view.get("round") or {}
    pid = rnd.get("people")
    kind = pend[0] if pend else None
    if kind == "deal":
        return message("epochs.board.pending.deal", who=symbol(pend[1]))
    if kind == "draw":
        drawer = symbol(view["draw_order"][view["draw_index"]])
        return message("epochs.board.pending.draw", who=drawer, n=int(view["deck_size"]))
    if kind == "keep":
        sym = view["draw_order"][view["draw_index"]]
        drawer = symbol(sym)
        keep = "no" if _holds_card_this_epoch(view, sym) else "yes"  # R9: then the drawer must pass
        if pend[1]:
            return message(
                "epochs.board.pending.keepNamed", who=drawer, people=names.people_word(pend[1]), keep=keep
            )
        return message("epochs.board.pending.keep", who=drawer, keep=keep)
    if kind == "landing" and pid:
        return message(
            "epochs.board.pending.landing", people=names.people_word(pid), who=symbol(who.get(pid, "?"))
        )
    if kind == "displace" and pid:
        moved = occupancy(view).get(pend[1], ("?", 0))[0]
        return message(
            "epochs.board.pending.displace",
            people=names.people_word(pid),
            area_the=names.area_the(pend[1]),
            who=symbol(who.get(moved, "?")),
            moved=names.people_word(moved),
        )
    if kind == "combat" and pid:
        occ = occupancy(view)
        defender, count = occ.get(pend[1], ("?", 0))
        route = attack_route(names, occ, pid, pend[1])
        if route:
            source = message("epochs.log.fromArea", area_the=names.area_the(route))
        else:
            source = message("epochs.log.fromSea") if names.map else message("epochs.log.nothing")
        dice = int(pend[2])
        return message(
            "epochs.board.pending.combat",
            people=names.people_word(pid),
            area_the=names.area_the(pend[1]),
            source=source,
            n=count,
            defender=names.people_word(defender),
            dice=dice,
            hard="yes" if dice == 2 and route else "no",
        )
    if kind is None and pid and view["phase"] == "strategy":
        return message(
            "epochs.board.pending.place", who=symbol(who.get(pid, "?")), people=names.people_word(pid)
        )
    return None


def pending_text(view: View, palette: Palette = FULL, lang: str = "en") -> Text | None:
    """What is being decided or rolled now, in words; an attack's two Peoples in their colours."""
    msg = pending_message(view)
    if msg is None:
        return None
    if msg.key != "epochs.board.pending.combat":
        return Text(msg.render(lang))
    names = names_for(view)
    pid = str((view.get("round") or {}).get("people"))
    defender = occupancy(view).get((view.get("pending") or ["", ""])[1], ("?", 0))[0]
    text = Text()
    text.append(message("epochs.board.attackInProgress").render(lang) + " ", style="bold")
    peoples = [((the_people(names, p, lang), people_name(names, p, lang)), _epoch_style(names, p, palette))
               for p in (pid, defender)]  # fmt: skip
    text.append_text(_styled(msg.render(lang), peoples))
    return text


# --- the map ------------------------------------------------------------------------------------
def _area_rows(view: View, names: Names) -> list[tuple[str, list[str]]]:
    """(region id, area ids) for every area that can be held, in region order."""
    m = names.map
    if m is None:  # a replaced map: only the areas the view names, alphabetically
        return [("areas", sorted({a for a, _, _ in view["areas"]}))]
    placeable = [a for i, a in enumerate(m.ids) if m.placeable[i]]
    out = []
    seen: set[str] = set()
    for region, ids in REGIONS:
        rows = [a for a in ids if a in m.index and m.placeable[m.index[a]]]
        seen.update(rows)
        if rows:
            out.append((region, rows))
    rest = [a for a in placeable if a not in seen]
    if rest:
        out.append(("other", rest))
    return out


def _region_table(
    region: str, ids: list[str], view: View, names: Names, palette: Palette, lang: str
) -> Table:
    occ = occupancy(view)
    who = owners(view)
    m = names.map
    title = noun("epochs.region", region).render(lang)
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False,
                  padding=(0, 1, 0, 0), show_header=False)  # fmt: skip
    for w in (10, 2, 3, 1, 13, 5):  # name, ×2, kind, ≈, holder and symbol, tribes: 39 columns
        table.add_column(no_wrap=True, min_width=w)
    for aid in ids:
        i = m.index[aid] if m is not None and aid in m.index else -1
        double, kind, coast = Text(), Text(), Text()
        if i >= 0 and m is not None:
            double.append("×2" if m.double[i] else "", style=palette.double)
            mark = noun("epochs.kindMark", m.kinds[i]).render(lang) if m.kinds[i] in KINDS else ""
            kind.append(mark, style=palette.dim)
            coast.append("≈" if m.coastal[i] else "", style="cyan")
        holder = Text()
        tribes = Text()
        if aid in occ:
            pid, count = occ[aid]
            style = _epoch_style(names, pid, palette)
            holder.append(people_name(names, pid, lang), style=style)
            holder.append(f" {_initial(who.get(pid), lang)}", style=palette.player)
            tribes.append("●" * count, style=style)
            if names.bonus(pid) == aid:
                tribes.append(" ★", style=palette.bonus)
        else:
            holder.append("·", style=palette.dim)
        table.add_row(area_name(names, aid, lang), double, kind, coast, holder, tribes)
    return table


def adjacency_table(view: View, palette: Palette = FULL, lang: str = "en") -> RenderableType | None:
    """Which areas border which: per area that can be held, in region order, its land
    neighbours (E8.2, E8.3) and then ≈ the seas it touches (Seafaring, E9.3). ``None`` for a
    replaced map, whose borders the view does not carry."""
    names = names_for(view)
    m = names.map
    if m is None:
        return None
    table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), show_header=False)
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for _region, ids in _area_rows(view, names):
        for aid in ids:
            i = m.index[aid]
            land = [area_name(names, m.ids[j], lang) for j in m.land_adj[i]]
            seas = [area_name(names, m.ids[j], lang) for j in m.all_neighbours[i] if m.sea[j]]
            row = Text(", ".join(land) or message("epochs.board.noBorder").render(lang))
            if seas:
                row.append(
                    "  " + message("epochs.board.seas", seas=", ".join(seas)).render(lang), style="cyan"
                )
            table.add_row(Text(area_name(names, aid, lang), style="bold"), row)
    return Group(Text(message("epochs.board.borders").render(lang), style="bold"), table)


def render_map(view: View, width: int = 100, palette: Palette = FULL, lang: str = "en") -> RenderableType:
    """The areas by region: name, marks, the People holding it with its player, its tribes."""
    names = names_for(view)
    rows = _area_rows(view, names)
    tables = [_region_table(region, ids, view, names, palette, lang) for region, ids in rows]
    if width < 80 or len(tables) < 2:
        return Group(*tables)
    half = (sum(len(ids) + 1 for _, ids in rows) + 1) // 2
    left: list[Table] = []
    right: list[Table] = []
    count = 0
    for table in tables:
        (left if count < half else right).append(table)
        count += table.row_count + 1
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_row(Group(*left), Group(*right))
    return grid


# --- players and Peoples ----------------------------------------------------------------------------
def vp_track(
    view: View, roles: Sequence[str] | None, width: int, palette: Palette = FULL, lang: str = "en"
) -> Table:
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
    you = message("epochs.board.you").render(lang)
    for seat, pl in enumerate(players):
        label = Text(
            ("▶ " if pl["symbol"] == mover else "  ") + player_name(pl["symbol"], lang), style=palette.player
        )
        role = roles[seat] if roles and seat < len(roles) else ""
        if pl["symbol"] == viewer:
            label.append(f" ({you})")
        elif role:
            label.append(f" ({role})", style=palette.dim)
        vp = int(pl["vp"])
        filled = round(bar_w * vp / best)
        score = " " * max(0, 3 - len(str(vp))) + message("epochs.board.vp", n=vp).render(lang)
        table.add_row(label, Text(score, style="bold"), Text("█" * filled + "░" * (bar_w - filled)),
                      _cards_line(view, pl, palette, lang))  # fmt: skip
    return table


def _cards_line(view: View, pl: dict[str, Any], palette: Palette, lang: str) -> Text:
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
            name = people_name(names, pid, lang).replace(" ", "\u00a0")
            text.append(name, style=_epoch_style(names, pid, palette))
        else:
            text.append(f"({people_name(names, pid, lang)})".replace(" ", "\u00a0"), style=palette.dim)
    return text


def peoples_table(view: View, palette: Palette = FULL, lang: str = "en") -> Table:
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
    heads = (
        (message("epochs.board.col.order"), "right"),
        (message("epochs.board.col.people"), "left"),
        (message("epochs.board.col.player"), "left"),
        (message("epochs.board.col.abilities"), "left"),
        (message("epochs.board.col.route"), "left"),
        (message("epochs.board.col.held"), "right"),
        (message("epochs.board.col.vp"), "right"),
    )
    for head, just in heads:
        table.add_column(head.render(lang), justify=just, no_wrap=True)  # type: ignore[arg-type]
    current = int(rnd.get("order", 0)) if view["phase"] == "strategy" else 0
    none = message("epochs.board.noAreas").render(lang)
    for order, pid in sorted(rows):
        mark = "▶ " if pid == active else "✓ " if order and order < current else ""
        name = Text(mark + people_name(names, pid, lang), style=_epoch_style(names, pid, palette))
        abil = ", ".join(ability_short(a, lang) for a in names.abilities(pid)) or "-"
        start, bonus = names.start(pid), names.bonus(pid)
        route = f"{area_name(names, start, lang) if start else '?'} → {area_name(names, bonus, lang) if bonus else '?'}"
        areas, tribes = held.get(pid, (0, 0))
        vp = view.get("peoples", {}).get(pid, {}).get("vp", 0)
        table.add_row(str(order) if order else "", name, player_name(who.get(pid, "?"), lang), abil, route,
                      f"{areas}/{tribes}" if areas else none, str(vp))  # fmt: skip
    return table


def commons_line(view: View, palette: Palette = FULL, lang: str = "en") -> Text:
    """The draw order of the Allocation, the deck, and the set-aside cards."""
    names = names_for(view)
    text = Text()
    order = view.get("draw_order") or []
    deck = message("epochs.board.deck", n=int(view["deck_size"])).render(lang)
    if view["phase"] == "allocation" and order:
        text.append(message("epochs.board.drawOrder").render(lang) + " ", style="bold")
        parts = []
        for k, sym in enumerate(order):
            mark = "✓" if k < view["draw_index"] else "▶" if k == view["draw_index"] else ""
            parts.append(f"{mark}{player_name(sym, lang)}")
        text.append(" ".join(parts) + f" · {deck}  ")
    elif view["phase"] == "allocation":
        text.append(message("epochs.board.firstDeal").render(lang) + f" · {deck}  ")
    aside: dict[int, list[Message]] = {}
    for card in view["set_aside"]:
        pid = card["people"]
        aside.setdefault(card["epoch"], []).append(names.people_word(pid) if pid else as_is("?"))
    text.append(message("epochs.board.setAside").render(lang) + " ", style="bold")
    if not aside:
        text.append(message("epochs.board.noCards").render(lang))
    text.append(" · ".join(message("epochs.board.asideEpoch", n=e, peoples=cards).render(lang)
                           for e, cards in sorted(aside.items())))  # fmt: skip
    return text


def secret_parts(view: View, lang: str = "en") -> list[str] | None:
    """The viewer's own hidden knowledge, one phrase each (None for a spectator)."""
    viewer = view.get("viewer")
    if viewer is None:
        return None
    names = names_for(view)
    parts: list[str] = []
    for pl in view["players"]:
        for card in pl["cards"]:
            if card["public"] or card["people"] is None:
                continue
            people = names.people_word(card["people"])
            if pl["symbol"] == viewer:
                parts.append(
                    message("epochs.board.youHold", people=people, n=int(card["epoch"])).render(lang)
                )
            else:
                parts.append(
                    message("epochs.board.passedTo", who=symbol(pl["symbol"]), people=people).render(lang)
                )
    pend = view.get("pending") or []
    if pend and pend[0] == "keep" and pend[1]:
        parts.append(message("epochs.board.youDrew", people=names.people_word(pend[1])).render(lang))
    return parts


def secrets_text(view: View, palette: Palette = FULL, lang: str = "en") -> Text | None:
    """The viewer's own hidden knowledge: its face-down cards, cards it drew or passed."""
    parts = secret_parts(view, lang)
    if parts is None:
        return None
    text = Text()
    text.append(message("epochs.board.secrets").render(lang) + " ", style="bold")
    text.append("; ".join(parts) if parts else message("epochs.board.noSecrets").render(lang))
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
    the Peoples, the deal and set-aside cards, and the viewer's secrets, in ``lang``.

    ``roles``: a label per seat (e.g. the bot kind); ``palette``: :data:`FULL`, or
    :data:`BASIC` for a 16-colour terminal (see :func:`palette_for`).
    """
    parts: list[RenderableType] = [status_line(view, palette, lang)]
    pending = pending_text(view, palette, lang)
    if pending is not None:
        parts.append(pending)
    parts.append(render_map(view, width, palette, lang))
    if legend:
        parts.append(Text(message("epochs.board.legend").render(lang), style="dim"))
        borders = adjacency_table(view, palette, lang)  # with the legend: on request ('board')
        if borders is not None:
            parts.append(borders)
    parts.append(vp_track(view, roles, width, palette, lang))
    parts.append(peoples_table(view, palette, lang))
    parts.append(commons_line(view, palette, lang))
    secrets = secrets_text(view, palette, lang)
    if secrets is not None:
        parts.append(secrets)
    return Group(*parts)
