"""Player-readable sentences for Mesopotamia actions, redacted for one viewer (rules spec §6).

A *step* is one applied action plus the forced decisions and certain chance outcomes the
engine then applied itself (``auto`` events, see :mod:`.flow`). :func:`describe_step` turns a
step into sentences such as "Red moves a tribe from 1,-1 to 2,-1" or "Blue steals a stone
from Yellow on 2,0". It reads only two *views* of the viewer (before and after the step) and
the action texts, and it never prints a hidden value: offering values, cards drawn and
Land-peeked tiles are named only when the viewer owns them, and offering values otherwise only
once the view shows them (a delivery reveals the marker, M6.4).

It also names the kinds of legal actions for a player choosing one (:func:`action_groups`)
and summarises the notation (:data:`NOTATION_HELP`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ziggurat.engine.eventlog import events_since as events_since  # re-exported for the CLI
from ziggurat.engine.eventlog import log_mark as log_mark
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mesopotamia.data import COLOURS, LETTER_SEAT
from ziggurat.games.mesopotamia.notation import decode

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat whose turn it is
View = dict[str, Any]

_CARGO_WORDS = {"": "", "w": "wood", "s": "stone"}


# log_mark / events_since: the engine's (ziggurat.engine.eventlog), re-exported above


def colour_name(seat: int) -> str:
    return COLOURS[seat].capitalize()


def card_name(card: str) -> str:
    return card.replace("_", " ").title()


def _viewer(view: View) -> int | None:
    who = view.get("viewer")
    return None if who is None else COLOURS.index(who)


def _coord(c: Sequence[int]) -> str:
    return f"{c[0]},{c[1]}"


def _tile_kind(view: View, c: Sequence[int]) -> str | None:
    for q, r, kind in view["tiles"]:
        if q == c[0] and r == c[1]:
            return str(kind)
    return None


def _loose(view: View) -> dict[tuple[int, int], tuple[int, int]]:
    return {(q, r): (w, s) for q, r, w, s in view["loose"]}


def _player(view: View, seat: int) -> dict[str, Any]:
    pl: dict[str, Any] = view["players"][seat]
    return pl


def _offering_value(view: View, seat: int, pub: str) -> int | None:
    value = _player(view, seat)["offerings"]["placed"].get(pub)
    return None if value is None else int(value)


def _cargo_phrase(cargo: int) -> str:
    from ziggurat.games.mesopotamia.data import OFFERING, STONE, WOOD

    if cargo == WOOD:
        return " carrying wood"
    if cargo == STONE:
        return " carrying stone"
    if cargo >= OFFERING:
        return " carrying an offering"
    return ""


def _resource(cargo: int) -> str:
    from ziggurat.games.mesopotamia.data import STONE, WOOD

    return {WOOD: "wood", STONE: "stone"}.get(cargo, "offering")


def _mana(view: View, seat: int) -> str:
    pl = _player(view, seat)
    return f"Mana {pl['mana']}/{pl['limit']}"


def _temple_arrival(who: str, seat: int, cargo: int, origin: str, before: View, after: View) -> str:
    """What happened when a tribe of ``seat`` arrived on the temple (M5.4, M6.4, M6.5)."""
    from ziggurat.games.mesopotamia.data import OFFERING, STONE

    if cargo == STONE:
        return f"{who} donates a stone at the temple ({_mana(after, seat)})"
    if cargo >= OFFERING:
        pub = str(cargo - OFFERING)
        value = _offering_value(after, seat, pub)
        worth = f"worth {value}" if value is not None else "of hidden value"
        delivered = int(pub) in _player(after, seat)["offerings"]["delivered"]
        if delivered:
            return f"{who} delivers an offering {worth} at the temple ({_mana(after, seat)})"
        mana = _player(before, seat)["mana"]
        return (
            f"{who}'s delivery of an offering {worth} fails with Mana {mana}; the tribe returns to {origin}"
        )
    return ""


def describe_event(
    event: Event, before: View, after: View, target: list[int] | None = None, first: bool = True
) -> str:
    """One sentence for ``event``, as the viewer of ``before``/``after`` may read it.

    ``before`` is the viewer's view before the step the event belongs to, ``after`` after it;
    ``target`` the space a discovery under way is heading for, if known; ``first``: the event
    opens its step (so ``before`` is the position just before it).
    """
    actor, text, _, turn_seat = event
    viewer = _viewer(before)
    owner = turn_seat if actor < 0 else actor
    who = colour_name(owner) if owner >= 0 else "Chance"
    words = text.split(" ")
    kind = words[0]
    mine = viewer is not None and viewer == owner
    # Texts that hide something are handled before parsing: a redacted record shows them as "?".
    if kind == "offer":
        if mine and words[1:] != ["?"]:
            return f"{who} puts the offering worth {words[1]} under the new hut"
        return f"{who} puts an offering under the new hut"
    if kind == "card":
        if mine and words[1:] != ["?"]:
            return f"{who} draws a card: {card_name(words[1])}"
        return f"{who} draws a card"
    if kind == "peek":
        if mine and words[1:] != ["?"]:
            return f"{who} looks at a tile of the pile: {words[1]}"
        return f"{who} looks at a tile of the pile"
    if kind == "order":
        if mine and words[1:] != ["?"]:
            return f"{who} puts the peeked tiles back as {words[1].replace(',', ', ')} (top first)"
        return f"{who} puts the peeked tiles back"
    if kind == "deal":
        dealt = LETTER_SEAT.get(words[1], -1) if len(words) > 1 else -1
        name = colour_name(dealt) if dealt >= 0 else "A player"
        if viewer is not None and viewer == dealt and len(words) > 2 and words[2] != "?":
            return f"{name} is dealt a card: {card_name(words[2])}"
        return f"{name} is dealt a card"
    try:
        d = decode(text)
    except ValueError:
        return f"{who}: {text}"
    return _describe_decoded(d, who, owner, before, after, target, first)


def _describe_decoded(  # noqa: C901 - one branch per action kind reads best as a flat list
    d: tuple,
    who: str,
    seat: int,
    before: View,
    after: View,
    target: list[int] | None,
    first: bool,  # type: ignore[type-arg]
) -> str:
    kind = d[0]
    if kind == "first":
        order = ", ".join(c.capitalize() for c in after.get("turn_order") or [])
        return f"{colour_name(d[1])} plays first (turn order {order})"
    if kind == "move":
        tseat, c, cargo, _ = d[1]
        dest = d[2]
        there = _tile_kind(before, dest)
        if there is None:
            return f"{who} explores from {_coord(c)} towards {_coord(dest)}"
        if there == "temple":
            arrival = _temple_arrival(who, tseat, cargo, _coord(c), before, after)
            if arrival:
                return arrival
            return f"{who} moves a tribe from {_coord(c)} onto the temple {_coord(dest)}"
        return f"{who} moves a tribe{_cargo_phrase(cargo)} from {_coord(c)} to {_coord(dest)}"
    if kind == "pile":
        return f"{who} draws a tile from pile {d[1]}"
    if kind == "tile":
        tile = d[1]
        if tile == "volcano":
            return "The tile is a volcano: it must be placed elsewhere (M7.3)"
        where = f" at {_coord(target)}" if target else ""
        gains = _resource_gains(before, after, tile)
        return f"The tile is a {tile}: placed{where}, the tribe moves in{gains}"
    if kind == "volcano":
        return f"{who} places the volcano on {_coord(d[1])}"
    if kind == "share":
        res = "wood" if _tile_kind(before, d[1]) == "forest" else "stone"
        return f"{who} gives one {res} to {_coord(d[1])}"
    if kind == "pickup":
        return f"{who} picks up a {d[2]} on {_coord(d[1][1])}"
    if kind == "drop":
        return f"{who} drops a {_resource(d[1][2])} on {_coord(d[1][1])}"
    if kind == "exchange":
        return f"{who} exchanges a {_resource(d[1][2])} for a {d[2]} on {_coord(d[1][1])}"
    if kind == "handoff":
        return f"{who} hands a {_resource(d[1][2])} to another tribe on {_coord(d[1][1])}"
    if kind == "steal":
        victim = d[1]
        return f"{who} steals a {_resource(victim[2])} from {colour_name(victim[0])} on {_coord(victim[1])}"
    if kind == "offering":
        from ziggurat.games.mesopotamia.notation import fmt_hut

        hut = fmt_hut(*d[2])
        pub = _carried_offering(after, seat, d[1][1])
        value = _offering_value(after, seat, pub) if pub else None
        worth = f" (worth {value})" if value is not None else ""
        return f"{who} picks up the offering{worth} under hut {hut} on {_coord(d[1][1])}"
    if kind == "donate":
        return f"{who} donates a stone at the temple ({_mana(after, seat)})"
    if kind == "end":
        if before.get("phase") == "movement":
            return f"{who} ends Phase I (movement)"
        return f"{who} ends the turn"
    if kind == "hut":
        return f"{who} builds a hut on {_coord(d[1])}"
    if kind == "holy":
        return f"{who} erects a holy place on {_coord(d[1])}"
    if kind == "grow":
        grown = _player(before, seat)["tribes_in_supply"] - _player(after, seat)["tribes_in_supply"]
        extra = " with Fertility" if d[5] else ""
        n = max(grown, 0)
        return f"{who} grows the population on {_coord(d[1])}{extra}: +{n} tribe{'s' if n != 1 else ''}"
    if kind == "draw":
        return f"{who} chooses action D: draw a card"
    if kind == "pass":
        return f"{who} passes Phase II"
    if kind == "stop":
        return f"{who} stops resolving groups (end of Phase II)"
    if kind == "income":
        # before/after span the whole step: the gain is only the income's when nothing preceded it
        if first:
            gain = _player(after, seat)["mana"] - _player(before, seat)["mana"]
            return f"{who} collects {gain} Mana of income ({_mana(after, seat)})"
        return f"{who} collects income ({_mana(after, seat)})"
    if kind == "play":
        return _describe_play(d, who, seat, before, after)
    if kind == "to":
        return _describe_target(d[1], who, before, after)
    return f"{who}: {d}"


def _carried_offering(view: View, seat: int, c: Sequence[int]) -> str:
    """Public id of an offering an own tribe of ``seat`` carries on ``c`` (any, for wording)."""
    for q, r, cargo, _ in _player(view, seat)["tribes"]:
        if (q, r) == (c[0], c[1]) and str(cargo).startswith("o"):
            return str(cargo)[1:]
    return ""


def _resource_gains(before: View, after: View, tile: str) -> str:
    if tile not in ("forest", "quarry"):
        return ""
    idx = 0 if tile == "forest" else 1
    old, new = _loose(before), _loose(after)
    gains = []
    for c, amounts in sorted(new.items()):
        added = amounts[idx] - old.get(c, (0, 0))[idx]
        if added > 0 and _tile_kind(after, c) == tile:
            gains.append(f"{_coord(c)} +{added}")
    if not gains:
        return ""
    return f" ({'wood' if idx == 0 else 'stone'}: {', '.join(gains)})"


def _describe_play(d: tuple, who: str, seat: int, before: View, after: View) -> str:  # type: ignore[type-arg]
    from ziggurat.games.mesopotamia.data import CARD_TYPES
    from ziggurat.games.mesopotamia.notation import fmt_hut

    card = CARD_TYPES[d[1]]
    head = f"{who} plays {card_name(card)}"
    if card == "endurance":
        return f"{head}: +{after.get('mp', 0) - before.get('mp', 0)} MP"
    if card == "holy_stone":
        return f"{head} ({_mana(after, seat)})"
    if card == "priest":
        return f"{head} on the holy place at {_coord(d[2])}"
    if card == "mana_theft":
        victim = d[2]
        lost = _player(before, victim)["mana"] - _player(after, victim)["mana"]
        return f"{head} on {colour_name(victim)}, who loses {lost} Mana ({who} now {_mana(after, seat)})"
    if card == "land":
        return f"{head} on pile {d[2]}"
    if card == "teleport":
        tseat, c, cargo, _ = d[2]
        return f"{head} on a {colour_name(tseat)} tribe{_cargo_phrase(cargo)} at {_coord(c)}"
    if card == "expulsion":
        hut = fmt_hut(*d[2])
        where = next((f" on {h[2]},{h[3]}" for h in before["huts"] if _hut_key(h) == hut), "")
        return f"{head} on hut {hut}{where}"
    return head


def _hut_key(h: Sequence[Any]) -> str:
    owner = h[0]
    return f"n{h[1]}" if owner == "neutral" else f"{owner[0]}{h[1]}"


def _describe_target(dest: Sequence[int], who: str, before: View, after: View) -> str:
    pend = before.get("pending") or []
    if pend and pend[0] == "teleport":
        tseat, origin, cargo_code = int(pend[1]), pend[2], int(pend[3])
        if _tile_kind(before, dest) == "temple":
            arrival = _temple_arrival(colour_name(tseat), tseat, cargo_code, _coord(origin), before, after)
            if arrival:
                return f"Teleported from {_coord(origin)}: {arrival}"
        return f"{who} teleports the {colour_name(tseat)} tribe from {_coord(origin)} to {_coord(dest)}"
    if pend and pend[0] == "expel":
        owner, num = pend[1]
        hut = f"n{num}" if owner < 0 else f"{COLOURS[owner][0]}{num}"
        return f"{who} moves hut {hut} to {_coord(dest)}"
    return f"{who} chooses {_coord(dest)}"


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[str, bool]]:
    """Sentences ``(text, auto)`` for one step, as the viewer of ``before``/``after`` sees it."""
    out: list[tuple[str, bool]] = []
    pend = before.get("pending") or []
    target: list[int] | None = list(pend[4]) if pend and pend[0] in ("pile", "draw", "volcano") else None
    for i, event in enumerate(events):
        words = event[1].split(" ")
        if words[0] == "move" and len(words) == 3:
            dest = [int(x) for x in words[2].split(",")]
            if _tile_kind(before, dest) is None:
                target = dest
        out.append((describe_event(event, before, after, target, first=i == 0), event[2]))
    if after.get("winner") and not before.get("winner"):
        out.append(
            (f"{after['winner'].capitalize()} has delivered every offering and wins the game (M16.1)", False)
        )
    return out


# --- legal actions, for a player choosing one --------------------------------------------
ACTION_KINDS = {
    "first": "who plays first",
    "move": "step a tribe (1 MP); onto an empty space it explores (M2, M7)",
    "pickup": "pick up a loose resource (free, M3.2)",
    "drop": "drop a resource (free, M3.3)",
    "exchange": "swap the carried resource for a loose one (free, M3.4)",
    "handoff": "hand a resource to another own tribe (free, M3.5)",
    "steal": "steal: victim tribe, then your receiving tribe (free, M4)",
    "offering": "pick up your offering under your hut (free, M6.2)",
    "donate": "donate a stone at the temple (M5.5)",
    "end": "end the phase or the turn",
    "pile": "draw a tile from a pile (D13)",
    "volcano": "place the drawn volcano (D14)",
    "share": "give a resource to this tile (D15)",
    "hut": "action A, build a hut: tile, wood carrier, partner (M9)",
    "offer": "the offering to put under the new hut (D18)",
    "holy": "action B, erect a holy place: tile, stone carrier, partner (M10)",
    "grow": "action C, grow: tile, own hut, two tribes (M11)",
    "draw": "action D, draw a card (M12)",
    "pass": "take no Phase II action",
    "stop": "stop resolving groups",
    "income": "collect Phase III income (M13)",
    "play": "play a card (M15)",
    "order": "put the peeked tiles back in this order, top first (M15.5)",
    "to": "the destination (Teleport or Expulsion)",
}


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance."""
    return group_by_kind(legal, ACTION_KINDS)


NOTATION_HELP = """\
Notation (docs/mesopotamia.md): coordinates are q,r (flat-top axial, temple 0,0, north 0,-1).
A tribe is <colour letter><cargo>@<q,r>: colour b y r g, cargo nothing/w/s/o<k>, e.g. r@1,-1,
bw@-1,0, go2@2,-1; a trailing * marks a tribe that already stole (Phase I) or is in a group
(Phase II). Huts are <colour><n> (b1 is Blue's start hut) or n<n> for neutral ones.
Examples: move b@1,0 2,0 · pickup b@-1,0 wood · steal rs@2,0 b@2,0 · hut 2,-1 bw@2,-1 b@2,-1 ·
grow 1,0 b1 b@1,0 b@1,0 · play teleport r@2,0 · end"""
