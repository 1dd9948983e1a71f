"""Static data (spec section 10) and options (10.6) of Mare Nostrum: Empires."""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import Any

from ziggurat.engine.errors import ZigguratError

PLAYER_RANGE = (3, 5)
TRACKS = ("trade", "culture", "military")


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


GOODS: list[str] = [g["id"] for g in _load("goods.json")["goods"]]
TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in _load("tiles.json")["tiles"]}
PURCHASABLE: list[str] = sorted(t for t, v in TILES.items() if v["purchasable"])
_MAP = _load("map.json")
_EMPIRES = _load("empires.json")
EMPIRES: dict[str, dict[str, Any]] = {e["id"]: e for e in _EMPIRES["empires"]}
EMPIRE_ORDER: list[str] = [e["id"] for e in _EMPIRES["empires"]]
DEFAULT_OPTIONS: dict[str, Any] = _load("options.json")
COST = {
    "caravan": 3,
    "city": 3,
    "capital": 3,
    "legendary_city": 3,
    "market": 6,
    "temple": 6,
    "legion": 3,
    "trireme": 3,
    "fortress": 3,
    "marker": 3,
}
ALT_COST = {
    "legion": ("spartacus", "gladiators"),
    "trireme": ("lighthouse", "timber"),
    "fortress": ("gilgamesh", "marble"),
}


class OptionError(ZigguratError):
    """An unknown option or a bad option value."""


def resolve_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    if not PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]:
        raise OptionError(f"Mare Nostrum is for 3 to 5 players, not {players}")
    opts = copy.deepcopy(DEFAULT_OPTIONS)
    for key, value in options.items():
        if key not in opts:
            raise OptionError(f"unknown option {key!r}")
        opts[key] = value
    if opts["empire_assignment"] not in ("random", "choice"):
        raise OptionError("empire_assignment must be 'random' or 'choice'")
    if opts["hero_cost_mode"] not in ("by_tiles_owned", "by_round"):
        raise OptionError("hero_cost_mode must be 'by_tiles_owned' or 'by_round'")
    unsupported = {
        "building_supply_limit": None,
        "starting_title_tie_break": "youngest_player",
        "victory_tie_capitals": "most_capitals_then_military_leader",
    }
    for key, only in unsupported.items():
        if opts[key] != only:
            raise OptionError(f"option {key!r}: only {only!r} is implemented")
    if not 1 <= int(opts["conquest_options_per_conquest"]) <= 3:
        raise OptionError("conquest_options_per_conquest must be 1, 2 or 3")
    if opts["hero_cost_mode"] == "by_round" and not opts["hero_cost_by_round"]:
        raise OptionError("hero_cost_mode 'by_round' needs hero_cost_by_round")
    return opts


def non_default_options(opts: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if DEFAULT_OPTIONS.get(k) != v}


class Board:
    """The in-play map at a player count (3.3, R34): out-of-play areas are dropped."""

    def __init__(self, players: int) -> None:
        gone = set(_MAP["out_of_play"][str(players)])
        self.provinces: dict[str, dict[str, Any]] = {}
        for p in _MAP["provinces"]:
            if p["id"] in gone:
                continue
            q = dict(p)
            q["slots"] = [x.lower() for x in p["slots"]]
            q["land"] = [x for x in p["land"] if x not in gone]
            q["seas"] = list(p["seas"])
            self.provinces[p["id"]] = q
        self.seas: dict[str, dict[str, Any]] = {}
        for s in _MAP["seas"]:
            q = dict(s)
            q["land"] = [x for x in s["land"] if x not in gone]
            self.seas[s["id"]] = q
        self.province_ids = sorted(self.provinces)
        self.sea_ids = sorted(self.seas)
        self.empires = [e for e in EMPIRE_ORDER if players in EMPIRES[e]["in_play_at"]]
        self.starting_titles: dict[str, str] = _EMPIRES["starting_titles"][str(players)]
        unused = set(_EMPIRES["unused_starting_heroes"][str(players)])
        self.tiles = [t for t in TILES if t not in unused]

    def slots(self, prov: str) -> list[str]:
        return list(self.provinces[prov]["slots"])

    def coastal(self, prov: str) -> bool:
        return bool(self.provinces[prov]["seas"])


@cache
def board(players: int) -> Board:
    return Board(players)


def building_kind(slot: str) -> str:
    """``caravan:grain`` -> ``caravan``; ``legendary_city:troia`` -> ``legendary_city``."""
    return slot.split(":")[0]


def token_good(token: str) -> str | None:
    """The good type of a resource token (``L:grain`` is a legendary grain), or None for a tax."""
    if token == "tax":
        return None
    return token[2:] if token.startswith("L:") else token
