"""Component data and options of Mesopotamia: Epochs (rules spec §2, §3, §9).

The three data files of §9 are package data: ``map.json`` (§9.1), ``peoples.json`` (§9.2)
and ``rules.json`` (§9.3); ``components.json`` holds the seed's player symbols (§2.3). They
are read and validated once, at import. Every configurable default of §9.3 is a game option
of the same name with the file's value as its default; ``map`` and ``peoples`` options take a
whole replacement file (a dict), validated like the defaults (§3.6).

:class:`Rules` is what the rules code reads: the options resolved into plain attributes and
growth tables, with the compiled map and cards.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ziggurat.engine.errors import OptionError
from ziggurat.engine.options import check_spec, resolve
from ziggurat.games.mesopotamia_epochs.formula import growth_table
from ziggurat.games.mesopotamia_epochs.geography import Map
from ziggurat.games.mesopotamia_epochs.peoples import Peoples


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    return data


MAP_DATA = _read("map.json")
PEOPLES_DATA = _read("peoples.json")
RULES_DATA = _read("rules.json")
COMPONENTS = _read("components.json")

DEFAULT_MAP = Map(MAP_DATA)
DEFAULT_PEOPLES = Peoples(PEOPLES_DATA, DEFAULT_MAP)

SYMBOLS: list[str] = [s["id"] for s in COMPONENTS["symbols"]]
SYMBOL_NAMES: list[str] = [s["name"] for s in COMPONENTS["symbols"]]
COLOURS = SYMBOLS  # what the server calls a seat: its symbol (§2.3, R45)
SYMBOL_SEAT = {s: i for i, s in enumerate(SYMBOLS)}
SYMBOL_SEAT.update({s[0]: i for i, s in enumerate(SYMBOLS)})  # b, h, m, s, u are unique

_SPEC_OPTIONS: dict[str, dict[str, Any]] = RULES_DATA["options"]
# The player range bounds the game class itself (min_players/max_players); it is not a
# per-game option.
PLAYER_RANGE = (_SPEC_OPTIONS["players_min"]["value"], _SPEC_OPTIONS["players_max"]["value"])
_NOT_OPTIONS = ("players_min", "players_max")

_OBJECT = {"type": "object", "nullable": True, "max_depth": 8, "max_items": 5000}


def _declared(entry: dict[str, Any]) -> dict[str, Any]:
    """The option declaration of a §9.3 entry: its type and range, with its value as the
    default; a text option allows its value and the ``alternatives`` the file lists."""
    spec = {k: v for k, v in entry.items() if k not in ("value", "rule", "alternatives", "applies")}
    if spec.get("type") == "str":
        spec["values"] = [entry["value"], *entry.get("alternatives", [])]
    return {"default": entry["value"], **spec}


OPTION_SPECS: dict[str, dict[str, Any]] = {
    k: _declared(v) for k, v in _SPEC_OPTIONS.items() if k not in _NOT_OPTIONS
}
"""Every option's declaration: its default, type and range (``ziggurat.engine.options``)."""
OPTION_SPECS["map"] = {"default": None, **_OBJECT}  # None: map.json; else a replacement map (§9.1 shape)
OPTION_SPECS["peoples"] = {"default": None, **_OBJECT}  # None: peoples.json; else replacement cards (§9.2)
for _name, _spec in OPTION_SPECS.items():
    check_spec(_name, _spec)

OPTION_DEFAULTS: dict[str, Any] = {k: v["default"] for k, v in OPTION_SPECS.items()}

OPTION_RULES: dict[str, str] = {k: v["rule"] for k, v in _SPEC_OPTIONS.items()}
OPTION_RULES.update({"map": "§3.6", "peoples": "§3.6"})

_GROWTH = ("growth_standard", "growth_fast", "growth_slow")  # an integer or a formula in n
TIEBREAK_KEYS = ("most_areas_held", "most_double_value_areas_held", "shared")


def resolve_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Every option with its default filled in.

    :raises OptionError: (a ``ValueError``) naming the first unknown option, or a value outside
        its declared type and range.
    """
    resolved = resolve("mesopotamia-epochs", OPTION_SPECS, OPTION_DEFAULTS, options)
    for key in _GROWTH:
        try:
            growth_table(resolved[key], 1, key)  # syntax; the values for every n are checked in Rules
        except ValueError as exc:
            raise OptionError(str(exc)) from exc
    order = resolved["end_tiebreak"]
    if "shared" in order and order[-1] != "shared":
        raise OptionError("option end_tiebreak: 'shared' can only come last")
    return resolved


def non_default_options(resolved: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the defaults (what a record stores)."""
    return {k: v for k, v in resolved.items() if OPTION_DEFAULTS[k] != v}


def _growth_table(opts: dict[str, Any], key: str, areas: int) -> list[int]:
    """A growth option's values for 0 .. ``areas`` areas, each within its declared range."""
    try:
        table = growth_table(opts[key], areas, key)
    except ValueError as exc:
        raise OptionError(str(exc)) from exc
    spec = OPTION_SPECS[key]
    for n, value in enumerate(table):
        if not spec["min"] <= value <= spec["max"]:
            raise OptionError(
                f"option {key}={opts[key]!r}: gives {value} for n={n}; growth must be "
                f"a whole number from {spec['min']} to {spec['max']}"
            )
    return table


class Rules:
    """Resolved options as attributes, plus the compiled map and cards, for the rules code."""

    __slots__ = (
        "opts", "map", "peoples", "stack_limit", "die_sides", "military_bonus", "growth_standard",
        "growth_fast", "growth_slow", "slow_keeps_reinforcements", "new_people_growth",
        "empty_pool_scores", "reenter", "displace_into_desert", "displace_by_sea",
        "sea_start_all_coastal", "seafaring_chain", "sea_extra_die", "attack_own",
        "reinforce_desert", "reveal_after_allocation", "set_aside_public", "tiebreak",
    )  # fmt: skip

    def __init__(self, players: int, opts: dict[str, Any]) -> None:
        """:raises ValueError: for a map or cards breaking §3.6, or a deck too small for ``players``."""
        self.opts = opts
        try:
            self.map = DEFAULT_MAP if opts["map"] is None else Map(opts["map"])
        except ValueError as exc:  # the message names the map and the broken invariant
            raise OptionError(str(exc)) from exc
        try:
            if opts["peoples"] is None and opts["map"] is None:
                self.peoples = DEFAULT_PEOPLES
            else:
                self.peoples = Peoples(PEOPLES_DATA if opts["peoples"] is None else opts["peoples"], self.map)
        except ValueError as exc:
            raise OptionError(str(exc)) from exc
        for e in range(1, self.peoples.epochs + 1):
            if len(self.peoples.epoch_cards[e]) < players:  # E1.5, E3.6: one card per player
                raise OptionError(
                    f"peoples: Epoch {e} has {len(self.peoples.epoch_cards[e])} cards, fewer than {players} players"
                )
        n = self.map.size
        self.stack_limit: int = opts["stack_limit"]
        self.die_sides: int = opts["die_sides"]
        self.military_bonus: int = opts["military_bonus"]
        self.growth_standard = _growth_table(opts, "growth_standard", n)
        self.growth_fast = _growth_table(opts, "growth_fast", n)
        self.growth_slow = _growth_table(opts, "growth_slow", n)
        self.slow_keeps_reinforcements: bool = opts["slow_growth_keeps_reinforcements"]
        self.new_people_growth: bool = opts["new_people_growth"]
        self.empty_pool_scores: bool = opts["empty_pool_round_scores"]
        self.reenter = opts["rescheduled_without_tribes"] == "reenter_at_start_area"
        self.displace_into_desert: bool = opts["displacement_into_desert"]
        self.displace_by_sea: bool = opts["displacement_uses_sea"]
        self.sea_start_all_coastal: bool = opts["sea_start_all_coastal"]
        self.seafaring_chain: bool = opts["seafaring_chain"]
        self.sea_extra_die: bool = opts["sea_attack_extra_defender_die"]
        self.attack_own: bool = opts["attack_own_peoples"]
        self.reinforce_desert: bool = opts["reinforce_own_desert"]
        self.reveal_after_allocation = opts["card_reveal"] == "after_allocation"
        self.set_aside_public = opts["set_aside_reveal"] == "end_of_epoch"
        self.tiebreak: list[str] = [k for k in opts["end_tiebreak"] if k != "shared"]

    def growth(self, p: int, n: int) -> int:
        """E6.3-E6.5 (R1-R3): growth of People ``p`` holding ``n`` areas."""
        if n <= 0:
            return 0  # E4.5: no tribes, no growth
        if self.peoples.slow[p]:
            return self.growth_slow[n]
        if self.peoples.fast[p]:
            return self.growth_fast[n]
        return self.growth_standard[n]
