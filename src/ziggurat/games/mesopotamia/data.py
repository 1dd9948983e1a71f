"""Mesopotamia component data and options (rules spec §2, §3 and the data appendix §9).

Everything the spec marks as a configurable default is read from ``data.json`` and can be
overridden by a game option of the same name; nothing of it is hard-coded in the rules.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

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

# Options that are not in the spec's option table but are configurable defaults of setup (S3, S4).
_SETUP_OPTIONS: dict[str, Any] = {
    "startTiles": None,  # None: the data file's layout
    "seatTiles": None,
    "neutralHuts": None,
}

OPTION_DEFAULTS: dict[str, Any] = {k: v["default"] for k, v in DATA["options"].items()}
OPTION_DEFAULTS.update(_SETUP_OPTIONS)

_CHOICES: dict[str, list[Any]] = {k: v["values"] for k, v in DATA["options"].items() if "values" in v}


def _check_type(key: str, value: Any, default: Any) -> None:
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise ValueError(f"option {key}={value!r}: must be one of {_CHOICES[key]}")
        return
    if key in ("templeTribeLimit", "roundLimit"):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ValueError(f"option {key}={value!r}: must be a positive integer or null")
        return
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"option {key}={value!r}: must be true or false")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"option {key}={value!r}: must be a non-negative integer")
    elif isinstance(default, list):
        if not isinstance(value, list):
            raise ValueError(f"option {key}={value!r}: must be a list")
    elif isinstance(default, dict) and not isinstance(value, dict):
        raise ValueError(f"option {key}={value!r}: must be an object")


def resolve_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in; raises ``ValueError`` naming a bad option."""
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown option {unknown[0]!r} for mesopotamia; known options: "
            + ", ".join(sorted(OPTION_DEFAULTS))
        )
    resolved = dict(OPTION_DEFAULTS)
    for key, value in options.items():
        default = OPTION_DEFAULTS[key]
        if default is not None or key in ("templeTribeLimit", "roundLimit"):
            _check_type(key, value, default)
        resolved[key] = value
    if resolved["tilePileCount"] < 1:
        raise ValueError("option tilePileCount must be at least 1")
    for card in resolved["twoPlayerRemovedCards"]:
        if card not in {c["id"] for c in DATA["cards"]}:
            raise ValueError(f"option twoPlayerRemovedCards: unknown card {card!r}")
    bad = set(resolved["teleportForbiddenDestinationTypes"]) - set(TILE_TYPES)
    if bad:
        raise ValueError(f"option teleportForbiddenDestinationTypes: unknown tile type {sorted(bad)[0]!r}")
    effect = resolved["holyStoneEffect"]
    if set(effect) != {"limitGain", "manaGain"}:
        raise ValueError("option holyStoneEffect must have exactly limitGain and manaGain")
    by_count = DATA["setup"]["byPlayerCount"][str(players)]
    if resolved["startTiles"] is None:
        resolved["startTiles"] = DATA["setup"]["startTiles"]["tiles"]
    if resolved["seatTiles"] is None:
        resolved["seatTiles"] = by_count["seatTiles"]
    if resolved["neutralHuts"] is None:
        resolved["neutralHuts"] = by_count["neutralHuts"]
    return resolved


def non_default_options(resolved: dict[str, Any], players: int) -> dict[str, Any]:
    """The options that differ from the defaults for this player count (for records)."""
    base = resolve_options(players, {})
    return {k: v for k, v in resolved.items() if base.get(k) != v}


def deck_for(players: int, options: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Card counts per type in the deck and removed from the game (S8)."""
    deck = [0] * len(CARD_TYPES)
    removed = [0] * len(CARD_TYPES)
    gone = set(options["twoPlayerRemovedCards"]) if players == 2 else set()
    for card in DATA["cards"]:
        target = removed if card["id"] in gone else deck
        target[CARD_INDEX[card["type"]]] += 1
    return deck, removed


def draw_pool(players: int) -> dict[str, int]:
    pool = DATA["drawPoolByPlayerCount"][str(players)]
    return {t: pool[t] for t in DRAWABLE}


def first_turn_mp(players: int) -> list[int]:
    return list(MOVEMENT["firstTurnMpBySeat"][str(players)])
