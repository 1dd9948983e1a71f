"""Mesopotamia component data and options (rules spec §2, §3 and the data appendix §9).

Everything the spec marks as a configurable default is read from ``data.json`` and can be
overridden by a game option of the same name; nothing of it is hard-coded in the rules.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ziggurat.engine.errors import OptionError
from ziggurat.engine.options import check_spec, resolve

DATA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8")
)

COLOURS: list[str] = DATA["colours"]
COLOUR_LETTERS = [c[0] for c in COLOURS]  # b, y, r, g
LETTER_SEAT = {letter: i for i, letter in enumerate(COLOUR_LETTERS)}

TEMPLE, VOLCANO, FOREST, QUARRY, PLAINS = "temple", "volcano", "forest", "quarry", "plains"
TILE_TYPES = [TEMPLE, VOLCANO, FOREST, QUARRY, PLAINS]
DRAWABLE = [VOLCANO, FOREST, QUARRY, PLAINS]

DIRECTIONS: list[tuple[int, int]] = [tuple(v) for v in DATA["hexGrid"]["directions"].values()]  # type: ignore[misc]

CARD_TYPES: list[str] = [c["type"] for c in DATA["cardTypes"]]
CARD_INDEX = {name: i for i, name in enumerate(CARD_TYPES)}
ENDURANCE, PRIEST, FERTILITY, HOLY_STONE, LAND, MANA_THEFT, TELEPORT, EXPULSION = range(8)
ANY_TIME_CARDS = (HOLY_STONE, LAND, MANA_THEFT, TELEPORT, EXPULSION)

OFFERING_VALUES: list[int] = DATA["offeringValues"]
PIECES = DATA["piecesPerColour"]
MANA = DATA["mana"]
MOVEMENT = DATA["movement"]

# Cargo codes of a tribe: 0 nothing, 1 wood, 2 stone, OFFERING + k an own offering whose
# public id is k (1, 2, ... in the order the owner placed them; the id says nothing of value).
EMPTY, WOOD, STONE, OFFERING = 0, 1, 2, 10
RESOURCE_NAMES = {WOOD: "wood", STONE: "stone"}
RESOURCE_CODES = {"wood": WOOD, "stone": STONE}

# Options that are not in the spec's option table but are configurable defaults of setup (S3, S4);
# null means the data file's layout for the player count.
_NAME = {"type": "str", "max_length": 32}
_SETUP_OPTIONS: dict[str, dict[str, Any]] = {
    "start_tiles": {
        "default": None,
        "type": "list",
        "nullable": True,
        "min_items": 1,
        "max_items": DATA["tileTotal"],
        "items": {
            "type": "dict",
            "fields": {
                "id": _NAME,
                "type": {"type": "str", "values": TILE_TYPES},
                "q": {"type": "int", "min": -12, "max": 12},
                "r": {"type": "int", "min": -12, "max": 12},
            },
        },
        "rules": ["S3"],
    },
    "seat_tiles": {
        "default": None,
        "type": "dict",
        "nullable": True,
        "keys": {"type": "str", "values": ["1", "2", "3", "4"]},
        "values": _NAME,
        "max_items": 4,
        "rules": ["S4"],
    },
    "neutral_huts": {
        "default": None,
        "type": "list",
        "nullable": True,
        "items": _NAME,
        "max_items": PIECES["huts"],
        "rules": ["S4"],
    },
}

OPTION_SPECS: dict[str, dict[str, Any]] = {**DATA["options"], **_SETUP_OPTIONS}
"""Every option's declaration: its default, type and range (``ziggurat.engine.options``)."""
OPTION_DEFAULTS: dict[str, Any] = {k: v["default"] for k, v in OPTION_SPECS.items()}
OPTION_RULES: dict[str, str] = {k: ", ".join(v["rules"]) for k, v in OPTION_SPECS.items()}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


OPTION_ALIASES: dict[str, str] = {_camel(name): name for name in OPTION_SPECS if _camel(name) != name}
"""Old option names -> current ones: records and stored tables written before the options
were named in snake_case (``roundLimit`` -> ``round_limit``) still load. New ones are never
written with the old names."""
_OLD_HOLY_STONE_KEYS = {"limitGain": "limit_gain", "manaGain": "mana_gain"}

for _name, _spec in OPTION_SPECS.items():
    check_spec(_name, _spec)


def _upgrade(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with ``holyStoneEffect``'s old keys renamed (the names are aliases)."""
    out = dict(options)
    for key in ("holyStoneEffect", "holy_stone_effect"):
        if isinstance(out.get(key), dict):
            out[key] = {_OLD_HOLY_STONE_KEYS.get(k, k): v for k, v in out[key].items()}
    return out


def _check_layout(players: int, opts: dict[str, Any]) -> None:
    """S3, S4: the start layout names each tile once, has the forest and quarry that get the
    start resources, and seats and neutral huts stand on its plains."""
    tiles = opts["start_tiles"]
    ids = [t["id"] for t in tiles]
    if len(set(ids)) != len(ids) or len({(t["q"], t["r"]) for t in tiles}) != len(tiles):
        raise OptionError("option start_tiles: each tile needs its own id and its own (q, r)")
    kinds = [t["type"] for t in tiles]
    if kinds.count(TEMPLE) != 1 or FOREST not in kinds or QUARRY not in kinds:
        raise OptionError("option start_tiles: needs one temple, a forest and a quarry (S3)")
    plains = {t["id"] for t in tiles if t["type"] == PLAINS}
    seats = opts["seat_tiles"]
    wanted = {str(i) for i in range(1, players + 1)}
    if not wanted <= set(seats):
        raise OptionError(
            f"option seat_tiles={seats!r}: must give a start plains to each of seats 1 to {players} (S4)"
        )
    for key in sorted(wanted):
        if seats[key] not in plains:
            raise OptionError(
                f"option seat_tiles: seat {key}'s tile {seats[key]!r} is not a start plains (S4)"
            )
    for tile in opts["neutral_huts"]:
        if tile not in plains:
            raise OptionError(f"option neutral_huts: {tile!r} is not a start plains (S4)")


def resolve_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in; old camelCase names are read as the new ones.

    :raises OptionError: (a ``ValueError``) naming an unknown option, or a value outside its
        declared type and range.
    """
    resolved = resolve("mesopotamia", OPTION_SPECS, OPTION_DEFAULTS, _upgrade(options), OPTION_ALIASES)
    by_count = DATA["setup"]["byPlayerCount"][str(players)]
    if resolved["start_tiles"] is None:
        resolved["start_tiles"] = DATA["setup"]["startTiles"]["tiles"]
    if resolved["seat_tiles"] is None:
        resolved["seat_tiles"] = by_count["seatTiles"]
    if resolved["neutral_huts"] is None:
        resolved["neutral_huts"] = by_count["neutralHuts"]
    _check_layout(players, resolved)
    return resolved


def non_default_options(resolved: dict[str, Any], players: int) -> dict[str, Any]:
    """The options that differ from the defaults for this player count (for records)."""
    base = resolve_options(players, {})
    return {k: v for k, v in resolved.items() if base.get(k) != v}


def deck_for(players: int, options: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Card counts per type in the deck and removed from the game (S8)."""
    deck = [0] * len(CARD_TYPES)
    removed = [0] * len(CARD_TYPES)
    gone = set(options["two_player_removed_cards"]) if players == 2 else set()
    for card in DATA["cards"]:
        target = removed if card["id"] in gone else deck
        target[CARD_INDEX[card["type"]]] += 1
    return deck, removed


def draw_pool(players: int) -> dict[str, int]:
    pool = DATA["drawPoolByPlayerCount"][str(players)]
    return {t: pool[t] for t in DRAWABLE}


def first_turn_mp(players: int) -> list[int]:
    return list(MOVEMENT["firstTurnMpBySeat"][str(players)])


def any_left(counts: list[int]) -> bool:
    """Whether any of ``counts`` is not zero: ``any(counts)`` without an iterator object (the
    listing asks it at every Phase I ply; a compiled build runs this as a C loop)."""
    for n in counts:  # noqa: SIM110
        if n:
            return True
    return False


def sum_of(counts: list[int]) -> int:
    """``sum(counts)``, which a compiled build runs as a C loop rather than a call of the
    builtin (asked at most plies: whether a player holds cards from before this turn)."""
    n = 0
    for k in counts:
        n += k
    return n
