"""What Mare Nostrum's heuristic bot (``bots.py``) reads of a position beyond the board's
own facts, worked out once per table or remembered: the military plan (``bots_military``)
by everything it reads, the provinces' worth and victory cities per ``buildings`` table, the
tax drain of a screen, the bounds a buy decision prunes with. Play replaces the board's tables
whole whenever they change (``board.put``, ``board.move_unit``) and a playout's views share
the state's, so an answer kept with the table it was read from holds while that table is
the one read; each is kept as one pair, stored at once (a thread never reads one table's
answer with another's)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P

_PLANS: dict[tuple[Any, ...], tuple[Any, M.Plan]] = {}
PLAN_MEMORY = 4096
"""Military plans remembered by everything :func:`bots_military.plan` reads of the position
(at most this many; then it starts afresh). The playouts of a search reach the same buy
decisions again and again (a plan costs as much as the rest of a buy decision), and a plan
is read, never changed, by the bot."""


def _pairs(table: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(table.items())


def _rows(table: dict[str, Any]) -> tuple[Any, ...]:
    return tuple([(k, tuple(row)) for k, row in table.items()])


def _seat_rows(rows: list[Any]) -> tuple[Any, ...]:
    return tuple([tuple(row) for row in rows])


def _nested(table: dict[str, dict[str, Any]]) -> tuple[Any, ...]:
    return tuple([(k, tuple(row.items())) for k, row in table.items()])


_PLAN_READS: dict[str, Any] = {
    "markers": _pairs,
    "legions": _rows,
    "triremes": _rows,
    "fortresses": _pairs,
    "tiles": _seat_rows,
    "copy": tuple,
    "buildings": _rows,
    "occupy": _nested,
    "on_marker": _pairs,
}
"""The parts of the position a military plan reads, each with its hashable form."""

_FROZEN: dict[str, tuple[Any, tuple[Any, ...]]] = {}
"""Per part of :data:`_PLAN_READS`, the last table read and its hashable form, one pair
stored at once."""


def _frozen(d: dict[str, Any], part: str) -> tuple[Any, ...]:
    """The hashable form of ``d[part]``, made once per table: play replaces these tables
    whole whenever they change (``board.put``, ``board.move_unit``), and a playout's views
    share the state's, so most of a plan's key is read from here."""
    table = d[part]
    got = _FROZEN.get(part)
    if got is None or got[0] is not table:
        got = _FROZEN[part] = (table, _PLAN_READS[part](table))
    return got[1]


def military_plan(d: dict[str, Any], seat: int) -> M.Plan:
    """:func:`bots_military.plan`, remembered (:data:`PLAN_MEMORY`). The key holds every part
    of the position the plan reads, in the position's own order (a scan keeps the first of
    equal attacks), the seat's screen by the one thing the plan reads of it (the purchases it
    pays, ``bots_military.budget``: screens that differ often pay as many) and the game's
    options by identity (kept alive with the plan)."""
    opts = d["opts"]
    money = M.budget(d, seat)  # all the plan reads of the seat's screen
    key = (seat, money, d["n"], id(opts), *[_frozen(d, part) for part in _PLAN_READS])
    got = _PLANS.get(key)
    if got is None:
        if len(_PLANS) >= PLAN_MEMORY:
            _PLANS.clear()
        got = _PLANS[key] = (opts, M.plan(d, seat, money))
    return got[1]


@cache
def marker_worth(n: int, prov: str) -> float:
    """What an influence marker in ``prov`` is worth to the heuristic: its building slots,
    more with a capital's or legendary city's slot (N6.3); the board's, so once per province."""
    slots = D.board(n).slots(prov)
    bonus = 10 if any(D.building_kind(s) in ("capital", "legendary_city") for s in slots) else 0
    return 45.0 + 2 * len(slots) + bonus


_VICTORY_CITIES: list[tuple[Any, frozenset[str]]] = [(None, frozenset())]
"""The last :func:`victory_city_provinces` answer, one pair stored at once: the ``buildings``
table read and the answer."""


def victory_city_provinces(d: dict[str, Any]) -> frozenset[str]:
    """The provinces where a capital or legendary city stands (N6.3), worked out once per
    ``buildings`` table: play replaces it whole whenever it changes (``board.put``), and a
    playout's views share the state's."""
    buildings = d["buildings"]
    seen, got = _VICTORY_CITIES[0]
    if seen is not buildings:
        got = frozenset(
            p
            for p, slots in buildings.items()
            if any(D.building_kind(s) in ("capital", "legendary_city") for s in slots)
        )
        _VICTORY_CITIES[0] = (buildings, got)
    return got


_BUILT: list[tuple[Any, frozenset[str]]] = [(None, frozenset())]
"""The last :func:`built_slots` answer, one pair stored at once (the ``buildings`` table read)."""


def built_slots(d: dict[str, Any]) -> frozenset[str]:
    """Every building slot built on the board, once per ``buildings`` table (replaced whole
    whenever it changes, ``board.put``)."""
    buildings = d["buildings"]
    seen, got = _BUILT[0]
    if seen is not buildings:
        got = frozenset(s for slots in buildings.values() for s in slots)
        _BUILT[0] = (buildings, got)
    return got


@lru_cache(maxsize=8192)
def tax_drain_of(left: tuple[tuple[str, int], ...], cost: int, allow: P.Allowance) -> float:
    """:meth:`HeuristicBot._tax_drain` from the tokens left once the kept taxes are set
    aside, remembered by them (the same screens recur from one buy decision to the next)."""
    return 0.0 if P.can_finish([], dict(left), cost, "normal", allow) else 30.0


PLANNED = ("legion", "trireme")
"""Purchases the military plan scores (``buy legion``, ``buy trireme``)."""

_MOST_WORTH: list[tuple[Any, float]] = [(None, 0.0)]
"""The last :func:`planned_cap` reading: the ``buildings`` table and its most worthy province."""


FORTRESS_CAP = 60.0
"""The most a fortress scores (:meth:`HeuristicBot._fortress_value`), 15 more when cheap."""

CAP_FLOOR = 96.0
"""The least :func:`planned_cap` can be (81, and 15 for a cheap purchase)."""


def planned_cap(d: dict[str, Any]) -> float:
    """A score no purchase of a legion or trireme reaches, by the plan or without it, for
    the heuristic or the raider: a legion the plan wants scores at most 68 and four times the
    worthiest province (``bots_military.plan``), a trireme 64 and twice the most triremes a
    seat has in a sea, an attack 81, the raider's 81 (66, and 15 for a cheap one), a legion
    without a plan 80; a cheap purchase adds 15. Tiles (500 and more), the Pyramids (1000) and
    free pieces (150 and more) are above it on every board."""
    buildings = d["buildings"]
    seen, most = _MOST_WORTH[0]
    if seen is not buildings:
        most = max(M.worths(d).values(), default=1.0)
        _MOST_WORTH[0] = (buildings, most)
    fleet = max((max(row) for row in d["triremes"].values()), default=0)
    fleet = max(fleet, int(d["limits"]["trireme"]))
    return max(68.0 + 4.0 * most, 64.0 + 2.0 * fleet, 81.0) + 15.0


def res_counts(d: dict[str, Any]) -> list[int]:
    """Every seat's token count (7.1): the view's ``res_counts``, or counted from a sampled
    world's screens (a playout's view, :func:`evaluate.rollout_view`, leaves them out: few
    decisions read them)."""
    got: list[int] | None = d.get("res_counts")
    if got is None:
        got = d["res_counts"] = [B.n_tokens(d, s) for s in range(d["n"])]
    return got
