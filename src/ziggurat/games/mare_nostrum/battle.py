"""Battles, sea and land (N4.7, N4.9, R1, R12-R14, R36): the dice each side rolls, the rolls as
chance nodes, totals and hits with the fortress, and the removal of hit units (D22).

All dice results are public (7.6), so a roll records every die face: ``roll 2,4,5,6`` (faces in
ascending order; the dice of one side are alike, so their order carries nothing). Each side
rolls as one chance node, attacker first, whose outcomes are the multisets of faces with their
multinomial probabilities: 6 outcomes for one die, 126 for four, 4,368 for eleven (the most a
side can have with the default limits: 8 legions, Pericles and Ramses II). A side with more dice
than that (only with raised ``unit_limits`` or other ``die_faces``) rolls in handfuls, each a
chance node of at most ``MAX_OUTCOMES`` outcomes, like re-rolling dice at the table (2.10).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache
from typing import Any, Final

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import conquest

State = dict[str, Any]
SIDES = ("att", "def")
MAX_OUTCOMES = 5000  # outcomes of one roll chance node at most (see the module docstring)


def start(d: State, kind: str, where: str, att: int, dfn: int) -> None:
    """A battle begins: the sides roll next, attacker first (N4.7.1)."""
    d["battle"] = {"kind": kind, "where": where, "att": att, "def": dfn, "att_faces": [], "def_faces": []}
    if rolling_side(d) is None:  # no dice on either side (never with the rules' units): no roll
        _resolve(d)


def dice(d: State, side: str) -> int:
    """N4.7.1-N4.7.2: one die per unit plus hero dice, capped by ``dice_per_side_cap``."""
    bt: dict[str, Any] = d["battle"]
    seat: int = bt[side]  # a typed read, not a call of int()
    if bt["kind"] == "sea":
        n = B.triremes(d, bt["where"])[seat]
    else:
        n = B.legions(d, bt["where"])[seat]
        if side == "att" and B.has(d, seat, "caesar"):
            n += 1
        if side == "def" and B.has(d, seat, "pericles"):
            n += 2
    if B.has(d, seat, "ramses_ii"):
        n += 1
    cap = d["opts"]["dice_per_side_cap"]
    return n if cap is None else min(n, int(cap))


_LAST_DICE: Final[list[tuple[Any, ...]]] = [(None, None, None, None, None, (0, 0))]
"""The last :func:`both_dice` worked out, one tuple stored at once: the battle, the unit table,
the seats' tiles and copies and the options it read, and the answer."""


def both_dice(d: State) -> tuple[int, int]:
    """:func:`dice` of the attacker and of the defender of the battle under way.

    Asked several times for every roll: the dice depend on the units in the battle's area and
    the seats' heroes, and the unit tables, the seats' tiles and copies are replaced whole
    whenever they change (``board.move_unit``, ``board.put``), never changed in place, so the
    answer for the same battle and the same tables is the one worked out last."""
    bt = d["battle"]
    units = d["triremes"] if bt["kind"] == "sea" else d["legions"]
    tiles = d["tiles"]
    copies = d["copy"]
    opts = d["opts"]
    seen = _LAST_DICE[0]
    if seen[0] is bt and seen[1] is units and seen[2] is tiles and seen[3] is copies and seen[4] is opts:
        found: tuple[int, int] = seen[5]
        return found
    both = (dice(d, "att"), dice(d, "def"))
    _LAST_DICE[0] = (bt, units, tiles, copies, opts, both)
    return both


def rolling_side(d: State) -> str | None:
    """The side whose dice are still to be rolled (attacker first), or None when both have."""
    bt = d["battle"]
    att, dfn = both_dice(d)
    if len(bt["att_faces"]) < att:
        return "att"
    if len(bt["def_faces"]) < dfn:
        return "def"
    return None


def rolling_seat(d: State) -> int:
    """The seat whose dice the pending roll is (for the event log); -1 if none."""
    side = rolling_side(d)
    if side is None:
        return -1
    bt: dict[str, Any] = d["battle"]
    seat: int = bt[side]
    return seat


@cache
def handful(distinct_faces: int) -> int:
    """The most dice one chance node rolls: its outcomes, C(k + f - 1, f - 1), stay at most
    ``MAX_OUTCOMES`` (11 six-sided dice)."""
    if distinct_faces < 2:
        return 1 << 30  # every die shows the same face: one outcome however many dice
    k = 1
    while math.comb(k + distinct_faces, distinct_faces - 1) <= MAX_OUTCOMES:
        k += 1
    return k


@cache
def handful_outcomes(k: int, faces: tuple[int, ...]) -> tuple[tuple[str, float], ...]:
    """Every multiset of faces ``k`` dice can show, with its probability (multinomial)."""
    weight = Counter(faces)
    whole = len(faces) ** k
    out = []
    for combo in itertools.combinations_with_replacement(sorted(weight), k):
        ways = math.factorial(k)  # integers throughout, one division at the end
        for face, m in Counter(combo).items():
            ways = ways // math.factorial(m) * weight[face] ** m
        out.append(("roll " + ",".join(map(str, combo)), ways / whole))
    return tuple(out)


@cache
def handful_table(
    k: int, faces: tuple[int, ...]
) -> tuple[tuple[str, ...], tuple[float, ...], frozenset[str]]:
    """:func:`handful_outcomes` as the engine reads a chance node: the texts, their running
    sums of probabilities (added one by one, so a bisection picks what a scan of the outcomes
    picks) and the texts as a set. A roll has up to thousands of outcomes, worked out once."""
    outcomes = handful_outcomes(k, faces)
    sums = []
    acc = 0.0
    for _, p in outcomes:
        acc += p
        sums.append(acc)
    texts = tuple(a for a, _ in outcomes)
    return texts, tuple(sums), frozenset(texts)


def roll_handful(d: State) -> tuple[int, tuple[int, ...]]:
    """N0.13: the next handful of the side to roll, attacker first: its dice and the faces."""
    side = rolling_side(d)
    assert side is not None
    faces = tuple(d["opts"]["die_faces"])
    left = both_dice(d)[0 if side == "att" else 1] - len(d["battle"][f"{side}_faces"])
    distinct = len(set(faces))
    most = _HANDFUL.get(distinct)
    if most is None:
        most = _HANDFUL[distinct] = handful(distinct)
    return min(left, most), faces


_HANDFUL: Final[dict[int, int]] = {}
""":func:`handful` by distinct faces, read by :func:`roll_handful` (see :data:`_TABLES`)."""


def roll_outcomes(d: State) -> list[tuple[str, float]]:
    """N0.13: the outcomes of the next handful of the side to roll, attacker first."""
    return list(handful_outcomes(*roll_handful(d)))


_LAST_TABLE: Final[list[tuple[Any, ...]]] = [(None,) * 8]
"""The last :func:`roll_table` answer, one tuple stored at once: the battle, its two lists of
faces, the unit table, the seats' tiles and copies and the options it read, and the answer."""

_TABLES: Final[dict[tuple[int, tuple[int, ...]], Any]] = {}
""":func:`handful_table` by dice and faces, read by :func:`roll_table` (a plain dict: the
compiled build calls no ``functools`` cache on the decision path)."""


def roll_table(d: State) -> tuple[tuple[str, ...], tuple[float, ...], frozenset[str]]:
    """:func:`handful_table` of the roll due now.

    Asked three times a roll (is it forced, sample it, check it): a roll replaces the side's
    list of faces, and the unit tables, tiles and copies are replaced whole when they change,
    so the answer for the same battle, lists and tables is the one worked out last."""
    bt = d["battle"]
    units = d["triremes"] if bt["kind"] == "sea" else d["legions"]
    seen = _LAST_TABLE[0]
    if (
        seen[0] is bt
        and seen[1] is bt["att_faces"]
        and seen[2] is bt["def_faces"]
        and seen[3] is units
        and seen[4] is d["tiles"]
        and seen[5] is d["copy"]
        and seen[6] is d["opts"]
    ):
        found: tuple[tuple[str, ...], tuple[float, ...], frozenset[str]] = seen[7]
        return found
    key = roll_handful(d)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = handful_table(key[0], key[1])
    _LAST_TABLE[0] = (bt, bt["att_faces"], bt["def_faces"], units, d["tiles"], d["copy"], d["opts"], table)
    return table


def roll_effect(d: State, w: list[str]) -> None:
    bt = d["battle"]
    side = rolling_side(d)
    assert side is not None
    bt[f"{side}_faces"] = sorted(bt[f"{side}_faces"] + [int(f) for f in w[1].split(",")])
    if rolling_side(d) is None:
        _resolve(d)


def battle_totals(d: State) -> tuple[list[int], list[bool]]:
    """N4.7.3: each side's total (dice, fortress bonus, Nebuchadnezzar), and whose fortress
    fights (N4.7.5, N4.7.7)."""
    bt = d["battle"]
    opts = d["opts"]
    totals = [sum(bt["att_faces"]), sum(bt["def_faces"])]
    fort = [False, False]
    if bt["kind"] == "land":
        prov = bt["where"]
        for i, side in enumerate(SIDES):
            seat = int(bt[side])
            if d["fortresses"].get(prov) == seat:
                totals[i] += int(opts["fortress_bonus"])
                fort[i] = True
            if B.has(d, seat, "nebuchadnezzar") and d["markers"].get(prov) == seat:
                totals[i] += 5
    return totals, fort


def battle_hits(d: State) -> tuple[int, int]:
    """N4.7.4-N4.7.5: hits suffered by (attacker, defender) after fortress cancels."""
    opts = d["opts"]
    (att_total, def_total), (att_fort, def_fort) = battle_totals(d)
    div = int(opts["hit_divisor"])
    on_att = def_total // div
    on_def = att_total // div
    if att_fort:
        on_att = max(0, on_att - int(opts["fortress_cancels_hits"]))
    if def_fort:
        on_def = max(0, on_def - int(opts["fortress_cancels_hits"]))
    return on_att, on_def


def _resolve(d: State) -> None:
    """N4.7.6-N4.7.7, N4.9."""
    bt = d["battle"]
    on_att, on_def = battle_hits(d)
    totals, _ = battle_totals(d)
    d["last_battle"] = dict(bt, totals=totals, hits=[on_att, on_def])
    d["battle"] = None
    where = bt["where"]
    for seat, hits in ((int(bt["att"]), on_att), (int(bt["def"]), on_def)):
        if bt["kind"] == "sea":
            k = min(hits, B.triremes(d, where)[seat])
            B.move_unit(d, "triremes", where, seat, -k)
            continue
        have = B.legions(d, where)[seat]
        k = min(hits, have)
        if hits > have and d["opts"]["fortress_removed_by_hits"] and d["fortresses"].get(where) == seat:
            B.drop(d, "fortresses", where)
        if k == 0:
            continue
        if k == have or B.placed(d, where, seat) == 0:
            _remove_all_or_free(d, where, seat, k)
        else:
            d["queue"].append(["lose", seat, where, k])


def _remove_all_or_free(d: State, prov: str, seat: int, k: int) -> None:
    """Removal with no choice (R14 only matters when the units differ): free legions first,
    then, when every legion goes, the placed ones too."""
    for _ in range(k):
        if B.free_legions(d, prov, seat) > 0:
            conquest.remove_legion(d, prov, seat, "free")
        elif d["on_marker"].get(prov) == seat:
            conquest.remove_legion(d, prov, seat, "marker")
        else:
            slot = next(s for s, x in sorted(d["occupy"][prov].items()) if x == seat)
            conquest.remove_legion(d, prov, seat, slot)


# ---- hit removal chosen by the owner (D22)


def lose_legal(d: State, head: list[Any]) -> list[str]:
    """D22 / N4.7.6, R14: a free legion, the one on a building, or the one on the marker."""
    seat, prov = int(head[1]), head[2]
    out = []
    if B.free_legions(d, prov, seat) > 0:
        out.append("lose free")
    for slot, s in sorted(d["occupy"].get(prov, {}).items()):
        if s == seat:
            out.append(f"lose {slot}")
    if d["on_marker"].get(prov) == seat:
        out.append("lose marker")
    return out


def lose_effect(d: State, head: list[Any], w: list[str]) -> None:
    seat, prov, k = int(head[1]), head[2], int(head[3])
    conquest.remove_legion(d, prov, seat, w[1])
    if k > 1:
        d["queue"].insert(0, ["lose", seat, prov, k - 1])
