"""The names Mesopotamia's messages use: colours, cards, tiles, resources, phases ...

Log sentences (:mod:`.describe`) and refusal reasons are messages (``meso.log.*``,
``meso.refusal.*``, ``meso.notation.*``) whose patterns are in ``messages/<lang>.json``; the
things they name are nested messages from the vocabularies declared here, from the game's own
data, so a test can check that every value has a name in every language (rules spec §6
decides what a viewer may read; this module only names things).
"""

from __future__ import annotations

from collections.abc import Sequence

from ziggurat.engine.messages import Message, declare_domain, noun
from ziggurat.games.mesopotamia.data import (
    CARD_TYPES,
    COLOURS,
    OFFERING,
    RESOURCE_NAMES,
    STONE,
    TILE_TYPES,
    WOOD,
)

PHASES = ("setup", "movement", "action", "mana", "over")
"""The values of ``state.phase``."""

ACTIONS = ("huts", "holy", "grow", "draw")
"""The Phase II actions a turn may choose (``state.action``, M8.1)."""

PENDING = (
    "first", "pile", "draw", "volcano", "shares", "offer", "order", "peek", "card_draw", "deal",
    "teleport", "expel",
)  # fmt: skip
"""The kinds of pending decision (``state.pending[0]``)."""

RESOURCES = (*RESOURCE_NAMES.values(), "offering")
CARGOES = ("none", *RESOURCES)

declare_domain("colour", [*COLOURS, "chance"])
declare_domain("meso.tribe", COLOURS)
declare_domain("meso.card", CARD_TYPES)
declare_domain("meso.tile", TILE_TYPES)
declare_domain("meso.resource", RESOURCES)
declare_domain("meso.cargo", CARGOES)
declare_domain("meso.phase", PHASES)
declare_domain("meso.action", ACTIONS)
declare_domain("meso.pending", PENDING)


def colour(seat: int) -> Message:
    """The colour of ``seat``, as a player's name ("Blue"); a negative seat is chance."""
    return noun("colour", COLOURS[seat] if seat >= 0 else "chance")


def tribe(seat: int) -> Message:
    """ "Blue tribe": a tribe of ``seat``'s colour."""
    return noun("meso.tribe", COLOURS[seat])


def card(card_type: str | int) -> Message:
    """A card's name ("Holy Stone") from its type or its index in the data."""
    return noun("meso.card", CARD_TYPES[card_type] if isinstance(card_type, int) else card_type)


def tile(kind: str) -> Message:
    """A tile type in a sentence ("forest")."""
    return noun("meso.tile", kind)


def resource(name_or_cargo: str | int) -> Message:
    """A resource ("wood", "stone") from its name or a cargo code; any other cargo is an offering."""
    if isinstance(name_or_cargo, str):
        return noun("meso.resource", name_or_cargo)
    return noun("meso.resource", RESOURCE_NAMES.get(name_or_cargo, "offering"))


def cargo(code: int) -> Message:
    """What a tribe carries, as a phrase after "a tribe" (" carrying wood"; nothing: empty)."""
    if code == WOOD:
        return noun("meso.cargo", "wood")
    if code == STONE:
        return noun("meso.cargo", "stone")
    if code >= OFFERING:
        return noun("meso.cargo", "offering")
    return noun("meso.cargo", "none")


def phase(name: str) -> Message:
    return noun("meso.phase", name)


def action(name: str) -> Message:
    """A Phase II action chosen for the turn (``state.action``)."""
    return noun("meso.action", name)


def pending(kind: str) -> Message:
    """The decision a pending ``kind`` asks for ("which tile pile to draw from (D13)")."""
    return noun("meso.pending", kind)


def coord(c: Sequence[int]) -> str:
    """A coordinate as the notation writes it (``1,-1``): the same in every language."""
    return f"{c[0]},{c[1]}"
