"""The names Mesopotamia's messages use: colours, cards, tiles, resources, phases ...

Log sentences (:mod:`.describe`) and refusal reasons are messages (``meso.log.*``,
``meso.refusal.*``, ``meso.notation.*``) whose patterns are in ``messages/<lang>.json``; the
things they name are nested messages from the vocabularies declared here, from the game's own
data, so a test can check that every value has a name in every language (rules spec §6
decides what a viewer may read; this module only names things).
"""

from __future__ import annotations

from collections.abc import Sequence

from ziggurat.engine.messages import Message, declare_domain, message, noun
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

SVG_PENDING = ("pile", "volcano", "shares", "offer", "order", "teleport", "expel")
"""The pending decisions the SVG names (the others are over before anyone looks)."""

ACTION_KINDS = (
    "first", "move", "pickup", "drop", "exchange", "handoff", "steal", "offering", "donate", "end",
    "pile", "volcano", "share", "hut", "offer", "holy", "grow", "draw", "pass", "stop", "income",
    "play", "order", "to",
)  # fmt: skip
"""The kinds of action, by the first word of the notation (``move``, ``hut`` ...)."""

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
# what the boards (render_text, render_svg) and the list of legal actions say
declare_domain("meso.tileCode", TILE_TYPES)
declare_domain("meso.board.pending", PENDING)
declare_domain("meso.board.card", CARD_TYPES)
declare_domain("meso.svg.phase", PHASES)
declare_domain("meso.svg.pending", SVG_PENDING)
declare_domain("meso.svg.view", [*COLOURS, "spectator"])
declare_domain("meso.actionKind", ACTION_KINDS)


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


def colour_named(name: str) -> Message:
    """A colour as a player's name ("Blue") from its name in the data ("blue", "neutral")."""
    return noun("colour", name)


def hut(owner: int, num: int) -> Message:
    """A hut as the log, refusals and boards name it: its notation (``y4``, ``n1``) in English,
    its colour in words in French ("jaune 4"); ``owner`` is a seat, or negative for a neutral
    hut."""
    return message("meso.hutName", owner=COLOURS[owner] if owner >= 0 else "neutral", num=num)


def tile_code(kind: str) -> Message:
    """The three letters a terminal cell shows for a tile type ("PLA")."""
    return noun("meso.tileCode", kind)


def board_pending(kind: str) -> Message:
    """What a pending ``kind`` asks for, as the terminal's status line says it."""
    return noun("meso.board.pending", kind)


def board_card(card_type: str) -> Message:
    """A card's name in a count of cards on the terminal board ("holy stone")."""
    return noun("meso.board.card", card_type)


def svg_phase(name: str) -> Message:
    """A phase as the SVG's panel titles it ("Phase I · movement")."""
    return noun("meso.svg.phase", name)


def svg_pending(kind: str) -> Message:
    """What a pending ``kind`` asks for, as the SVG's panel says it ("choosing a tile pile")."""
    return noun("meso.svg.pending", kind)


def svg_view(viewer: str | None) -> Message:
    """Whose view a picture is ("blue's view", "spectator's view")."""
    return noun("meso.svg.view", viewer or "spectator")


def action_kind(kind: str) -> Message:
    """What a kind of action does, for a player choosing one ("drop a resource (free, M3.3)")."""
    return noun("meso.actionKind", kind)


def coord(c: Sequence[int]) -> str:
    """A coordinate as the notation writes it (``1,-1``): the same in every language."""
    return f"{c[0]},{c[1]}"
