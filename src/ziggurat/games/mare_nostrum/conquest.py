"""Conquerors and conquests (N4.10-N4.12, R15-R18, R38): the checkpoint, the conqueror mark and
how it is lost, the conquest options Pillage / Occupy / Convert (D23) and the completion of a
conversion (N4.3 conditions, N4.12 effects)."""

from __future__ import annotations

import itertools
from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

State = dict[str, Any]


# ---- the conqueror mark (N4.10)


def checkpoint(d: State, active: int | None) -> None:
    """N4.10.2: conquests, the active player's first, then seat order."""
    n: int = d["n"]
    legions: dict[str, list[int]] = d["legions"]
    markers: dict[str, int] = d["markers"]
    # the provinces where one seat alone has legions, in name order (province_ids' order), and
    # another seat's marker: the conquests that may be due (most checkpoints find none)
    alone: list[tuple[str, int]] = []
    for prov in sorted(legions):
        row = legions[prov]
        if row.count(0) != n - 1:  # not one seat alone (counts are never negative)
            continue
        owner = markers.get(prov)
        if owner is None:
            continue
        who = 0
        while not row[who]:
            who += 1
        if owner != who:
            alone.append((prov, who))
    if not alone:
        return
    seats = list(range(n))
    if active is not None:
        seats = [active] + [s for s in seats if s != active]
    for s in seats:
        for prov, who in alone:
            if who != s:
                continue
            conqueror: dict[str, int] = d["conqueror"]
            if conqueror.get(prov) == s:
                continue
            B.put(d, "conqueror", prov, s)
            d["queue"].append(["conquest", s, prov])


def remove_legion(d: State, prov: str, seat: int, which: str) -> None:
    """A hit removes one legion of ``seat``: a free one, the one on ``which`` or on the marker."""
    if which == "marker":
        B.drop(d, "on_marker", prov)
        B.drop(d, "pending", prov)
    elif which != "free":
        B.unoccupy(d, prov, which)
    B.move_unit(d, "legions", prov, seat, -1)
    after_leave(d, prov, seat)


def after_leave(d: State, prov: str, seat: int) -> None:
    """N4.10.3: the conqueror with no legion left loses the mark."""
    if d["conqueror"].get(prov) == seat and B.legions(d, prov)[seat] == 0:
        _lose_mark(d, prov)


def _lose_mark(d: State, prov: str) -> None:
    """N4.10.4: the pending conversion ends and the legion steps off the marker."""
    B.drop(d, "conqueror", prov)
    B.drop(d, "pending", prov)
    B.drop(d, "on_marker", prov)


def enter(d: State, prov: str, seat: int) -> None:
    """N4.10.3: another player's legion entering or placed ends the mark."""
    con = d["conqueror"].get(prov)
    if con is not None and con != seat:
        _lose_mark(d, prov)


# ---- conquest options (N4.11, D23)


def conquest_legal(d: State, seat: int, prov: str, used: list[str] | None = None) -> list[str]:
    """N4.11: Pillage, Occupy or Convert (D23); with ``conquest_options_per_conquest`` above 1,
    further different options may follow, or ``pass``."""
    used = used or []
    out = [a for a in _options(d, seat, prov) if a.split()[0] not in used]
    if used:
        out.append("pass")
    return out or ["pass"]


def _options(d: State, seat: int, prov: str) -> list[str]:
    out: list[str] = []
    double = B.has(d, seat, "hamilcar")
    for slot in B.built(d, prov):
        if D.building_kind(slot) == "legendary_city":
            picks = ["tax", "draw"]
            combos = (
                sorted({",".join(sorted(c)) for c in itertools.product(picks, repeat=2)}) if double else picks
            )
            out.extend(f"pillage {slot} {c}" for c in combos)
        else:
            out.append(f"pillage {slot}")
    free = B.free_legions(d, prov, seat)
    slots = [s for s in B.built(d, prov) if s not in d["occupy"].get(prov, {})]
    for k in range(1, min(free, len(slots)) + 1):
        out.extend("occupy " + "+".join(c) for c in itertools.combinations(slots, k))
    if free > 0 and d["on_marker"].get(prov) is None:
        out.append("convert")
    return out


def conquest_step(d: State, head: list[Any], w: list[str]) -> None:
    """One chosen option; another may follow under ``conquest_options_per_conquest``."""
    seat, prov = int(head[1]), head[2]
    _effect(d, seat, prov, w)
    used = (head[3] if len(head) > 3 else []) + [w[0]]
    limit = int(d["opts"]["conquest_options_per_conquest"])
    if w[0] != "pass" and len(used) < limit and d["conqueror"].get(prov) == seat:
        d["queue"].insert(0, ["conquest", seat, prov, used])


def _effect(d: State, seat: int, prov: str, w: list[str]) -> None:
    if w[0] == "pillage":
        slot = w[1]
        row = d["buildings"][prov].copy()
        row.remove(slot)
        if row:
            B.put(d, "buildings", prov, row)
        else:
            B.drop(d, "buildings", prov)
        if slot in d["occupy"].get(prov, ()):
            B.unoccupy(d, prov, slot)
        times = 2 if B.has(d, seat, "hamilcar") else 1
        kind = D.building_kind(slot)
        if kind == "caravan":
            B.add_res(d, seat, slot.split(":")[1], times)
        elif kind in ("city", "capital"):
            B.add_res(d, seat, "tax", times)
        elif kind == "legendary_city":
            for pick in w[2].split(","):  # one pick, two with Hamilcar (legal list)
                if pick == "tax":
                    B.add_res(d, seat, "tax")
                else:
                    d["queue"].insert(0, ["draw", seat])
    elif w[0] == "occupy":
        for slot in w[1].split("+"):
            B.put(d, "occupy", prov, {**d["occupy"].get(prov, {}), slot: seat})
    elif w[0] == "convert":
        B.put(d, "on_marker", prov, seat)
        B.put(d, "pending", prov, [seat, d["round"]])
        if (
            B.has(d, seat, "queen_of_sheba")
            and B.connected(d, seat, prov, bool(d["opts"]["conversion_connection_by_trireme_chain"]))
            and B.supply(d, seat, "influence_marker") > 0
        ):
            convert(d, seat, prov)


# ---- conversion (N4.3, N4.12)


def conversion_ok(d: State, seat: int, prov: str) -> bool:
    """N4.3 (1)-(4), and the Convert was chosen in an earlier Military phase."""
    pend = d["pending"].get(prov)
    if pend is None or pend[0] != seat or pend[1] >= d["round"]:
        return False
    return (
        d["on_marker"].get(prov) == seat
        and d["conqueror"].get(prov) == seat
        and B.connected(d, seat, prov, bool(d["opts"]["conversion_connection_by_trireme_chain"]))
        and B.supply(d, seat, "influence_marker") > 0
    )


def convert(d: State, seat: int, prov: str) -> None:
    """N4.12."""
    old = d["markers"][prov]
    B.put(d, "markers", prov, seat)
    B.drop(d, "occupy", prov)
    if d["fortresses"].get(prov) == old:
        B.drop(d, "fortresses", prov)
    B.drop(d, "conqueror", prov)
    B.drop(d, "pending", prov)
    B.drop(d, "on_marker", prov)
