"""Static data (spec section 10) and options (10.6) of Mare Nostrum: Empires."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any, Final

from ziggurat.engine.errors import OptionError
from ziggurat.engine.options import check_spec, resolve

PLAYER_RANGE: Final = (3, 5)
TRACKS: Final = ("trade", "culture", "military")


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


GOODS: Final[list[str]] = [g["id"] for g in _load("goods.json")["goods"]]
TILES: Final[dict[str, dict[str, Any]]] = {t["id"]: t for t in _load("tiles.json")["tiles"]}
PURCHASABLE: list[str] = sorted(t for t, v in TILES.items() if v["purchasable"])
_MAP: dict[str, Any] = _load("map.json")
_EMPIRES: dict[str, Any] = _load("empires.json")
EMPIRES: dict[str, dict[str, Any]] = {e["id"]: e for e in _EMPIRES["empires"]}
EMPIRE_ORDER: list[str] = [e["id"] for e in _EMPIRES["empires"]]
OPTION_SPECS: dict[str, dict[str, Any]] = _load("options.json")
"""Every option of 10.6 with its default, type and range (``ziggurat.engine.options``)."""
DEFAULT_OPTIONS: dict[str, Any] = {k: v["default"] for k, v in OPTION_SPECS.items()}
COST: Final = {
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
ALT_COST: Final = {
    "legion": ("spartacus", "gladiators"),
    "trireme": ("lighthouse", "timber"),
    "fortress": ("gilgamesh", "marble"),
}


BUILDING_KINDS: Final = ("caravan", "market", "city", "capital", "legendary_city", "temple")
UNIT_PIECES = ("legion", "trireme", "fortress", "influence_marker")
for _name, _spec in OPTION_SPECS.items():
    check_spec(_name, _spec)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_table(key: str, value: Any, what: str) -> None:
    """A table from positive whole numbers (as strings, JSON keys) to positive costs."""
    if not isinstance(value, dict) or not value:
        raise OptionError(f"option {key!r} must be a non-empty object of {what} -> cost")
    for k, v in value.items():
        if not (str(k).isdigit() and int(k) >= 1 and _is_int(v) and v >= 1):
            raise OptionError(
                f"option {key!r}: {k!r}: {v!r} is not a {what} (1 or more) and a cost (1 or more)"
            )


def building_limits(opts: dict[str, Any]) -> dict[str, int]:
    """Buildings of each kind in the common supply (2.4, R35); kinds not listed are unlimited."""
    limit = opts["building_supply_limit"]
    if limit is None:
        return {}
    if _is_int(limit):
        return dict.fromkeys(BUILDING_KINDS, int(limit))
    return {k: int(v) for k, v in limit.items()}


def _starting_counts(players: int) -> tuple[dict[str, int], dict[str, int]]:
    """The buildings on the board at set-up, by kind, and the most pieces any empire starts with."""
    built: dict[str, int] = dict.fromkeys(BUILDING_KINDS, 0)
    pieces: dict[str, int] = dict.fromkeys(UNIT_PIECES, 0)
    for emp_id in board(players).empires:
        emp = EMPIRES[emp_id]
        for slots in emp["buildings"].values():
            for slot in slots:
                built[building_kind(slot)] += 1
        pieces["legion"] = max(pieces["legion"], sum(emp["legions"].values()))
        pieces["trireme"] = max(pieces["trireme"], sum(emp["triremes"].values()))
        pieces["fortress"] = max(pieces["fortress"], len(emp["fortresses"]))
        pieces["influence_marker"] = max(pieces["influence_marker"], len(emp["influence_markers"]))
    return built, pieces


def _check_limits(players: int, opts: dict[str, Any]) -> None:
    """``unit_limits`` (2.5) and ``building_supply_limit`` (2.4): well formed, and no smaller
    than what the set-up puts on the board (4.1)."""
    built, pieces = _starting_counts(players)
    units = opts["unit_limits"]
    if not isinstance(units, dict) or set(units) != set(UNIT_PIECES):
        raise OptionError(f"option 'unit_limits' must give exactly {', '.join(UNIT_PIECES)}")
    for piece, k in units.items():
        if not _is_int(k) or k < pieces[piece]:
            raise OptionError(
                f"option 'unit_limits': {piece} {k!r} must be a whole number no smaller than the "
                f"{pieces[piece]} an empire starts with (2.5, 4.1)"
            )
    limit = opts["building_supply_limit"]
    if limit is None:
        return
    if not (_is_int(limit) or isinstance(limit, dict)):
        raise OptionError(
            "option 'building_supply_limit' must be null (unlimited), a whole number for every "
            f"building kind, or an object from building kind ({', '.join(BUILDING_KINDS)}) to a number"
        )
    if isinstance(limit, dict):
        unknown = sorted(set(limit) - set(BUILDING_KINDS))
        if unknown:
            raise OptionError(
                f"option 'building_supply_limit': unknown building kind {unknown[0]!r} "
                f"(kinds: {', '.join(BUILDING_KINDS)})"
            )
        if not all(_is_int(v) for v in limit.values()):
            raise OptionError("option 'building_supply_limit': each count must be a whole number")
    for kind, k in building_limits(opts).items():
        if k < built[kind]:
            raise OptionError(
                f"option 'building_supply_limit': {k} {kind} is fewer than the {built[kind]} "
                f"on the board at set-up with {players} players (2.4, 4.1)"
            )


def resolve_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in (10.6).

    :raises OptionError: (a ``ValueError``) naming an unknown option, a value outside its
        declared type and range, or values that do not fit together or with the set-up.
    """
    if not PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]:
        raise OptionError(f"Mare Nostrum is for 3 to 5 players, not {players}")
    opts = resolve("mare-nostrum", OPTION_SPECS, DEFAULT_OPTIONS, options)
    seat = opts["youngest_player_seat"]
    if seat >= players:
        raise OptionError(f"option 'youngest_player_seat' must be a seat, 0 to {players - 1}, not {seat!r}")
    _int_table("hero_cost_by_tiles_owned", opts["hero_cost_by_tiles_owned"], "tiles owned")
    if opts["hero_cost_by_round"] is not None:
        _int_table("hero_cost_by_round", opts["hero_cost_by_round"], "round")
    if opts["hero_cost_mode"] == "by_round" and not opts["hero_cost_by_round"]:
        raise OptionError("hero_cost_mode 'by_round' needs hero_cost_by_round")
    _check_limits(players, opts)
    return opts


READING_OPTIONS: tuple[str, ...] = (
    "hero_cost_mode",
    "hannibal_reading",
    "cleopatra_reading",
    "hero_payments_for_pyramids",
    "capitals_victory_check",
)
"""The options that choose a reading of the rules text (R25, R28, N6). A game's recorded
options always carry them, default or not, so a record replays under the readings it was
played with whatever the defaults become."""

EARLIER_DEFAULTS: dict[str, Any] = {
    "hero_cost_mode": "by_tiles_owned",
    "hannibal_reading": "any",
    "cleopatra_reading": "any_mix",
    "hero_payments_for_pyramids": True,
    "capitals_victory_check": "end_of_military",
}
"""The readings in force before the defaults followed the rules text: options stored without
``hannibal_reading`` (every record and table written then) are loaded with these."""


def recorded_options(options: dict[str, Any]) -> dict[str, Any]:
    """Stored options with the readings they were played under (:data:`EARLIER_DEFAULTS` for
    options stored before the reading options were always written)."""
    out = dict(options)
    if "hannibal_reading" not in out:
        for key, value in EARLIER_DEFAULTS.items():
            out.setdefault(key, value)
    return out


def options_to_record(opts: dict[str, Any]) -> dict[str, Any]:
    """What a game records of its resolved options: those that differ from the defaults, and
    every reading option (:data:`READING_OPTIONS`)."""
    out = non_default_options(opts)
    out.update((k, opts[k]) for k in READING_OPTIONS)
    return out


# What the lobby lists (server/gamekit.py): every option with its default (values are JSON).
OPTION_DEFAULTS: dict[str, Any] = copy.deepcopy(DEFAULT_OPTIONS)


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
        self.victory_slots: list[tuple[str, str]] = [
            (p, slot)
            for p in self.province_ids
            for slot in self.provinces[p]["slots"]
            if building_kind(slot) in ("capital", "legendary_city")
        ]
        """Where a capital or legendary city may stand (N6.3), (province, slot) in map order."""
        self.slot_kinds: dict[str, list[tuple[str, str]]] = {
            p: [(slot, building_kind(slot)) for slot in q["slots"]] for p, q in self.provinces.items()
        }
        """Each province's building slots with their kinds."""
        self.shore: dict[str, list[str]] = {
            s: [p for p in self.province_ids if s in self.provinces[p]["seas"]] for s in self.seas
        }
        """The provinces on each sea's coast (a province lists its seas), in name order."""
        self.land_sorted: dict[str, list[str]] = {p: sorted(q["land"]) for p, q in self.provinces.items()}
        """Each province's land neighbours in name order."""
        self.sea_ids = sorted(self.seas)
        self.empires = [e for e in EMPIRE_ORDER if players in EMPIRES[e]["in_play_at"]]
        self.starting_titles: dict[str, str] = _EMPIRES["starting_titles"][str(players)]
        unused = set(_EMPIRES["unused_starting_heroes"][str(players)])
        self.tiles = [t for t in TILES if t not in unused]

    def slots(self, prov: str) -> list[str]:
        return list(self.provinces[prov]["slots"])

    def coastal(self, prov: str) -> bool:
        return bool(self.provinces[prov]["seas"])


_BOARDS: Final[dict[int, Board]] = {}
"""The boards made so far, by player count."""


def board(players: int) -> Board:
    """The board at ``players`` players, made once (a table rather than ``functools.cache``:
    asked several times per decision, and the compiled build calls this directly)."""
    found = _BOARDS.get(players)
    if found is None:
        found = _BOARDS[players] = Board(players)
    return found


def building_kind(slot: str) -> str:
    """``caravan:grain`` -> ``caravan``; ``legendary_city:troia`` -> ``legendary_city``."""
    return slot.split(":")[0]
