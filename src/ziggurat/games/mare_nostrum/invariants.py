"""Declared invariants: conservation of legendary goods, piece limits, board consistency."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D


def check(d: dict[str, Any]) -> list[str]:
    out: list[str] = []
    n = d["n"]
    if d["empires"][0] is None:
        return out
    # 2.3: exactly one legendary token per good, in the pool, a holding, a trade area or out.
    count = {g: d["pool"].get(g, 0) + d["legendary_out"].get(g, 0) for g in D.GOODS}
    for s in range(n):
        toks = [t for t, c in d["res"][s].items() for _ in range(c)]
        if d["trade"]:
            toks += d["trade"]["offers"][s] + d["trade"]["received"][s]
        if d["buy"] and d["buy"]["paying"] and d["buy"]["active"] == s:
            toks += d["buy"]["paying"]["paid"]
        for t in toks:
            if t.startswith("leg:"):
                count[t[4:]] += 1
        if any(c <= 0 for c in d["res"][s].values()):
            out.append(f"seat {s} holds a non-positive count")
    out.extend(f"legendary {g}: {c} tokens" for g, c in count.items() if c != 1)
    # 2.5 / N0.9: limits
    for s in range(n):
        for piece in ("legion", "trireme", "fortress", "influence_marker"):
            if B.supply(d, s, piece) < 0:
                out.append(f"seat {s} has too many {piece}s on the board")
    for kind in D.BUILDING_KINDS:  # 2.4 / N0.9 with option building_supply_limit
        left = B.building_supply(d, kind)
        if left is not None and left < 0:
            out.append(f"{-left} {kind} more on the board than the building supply holds")
    for prov in d["legions"]:
        for s in range(n):
            if B.placed(d, prov, s) > B.legions(d, prov)[s]:
                out.append(f"{prov}: seat {s} has more placed legions than legions")
    # N0.4.2 / R33: neutral provinces hold no buildings or fortresses
    for prov in list(d["buildings"]) + list(d["fortresses"]):
        if prov not in d["markers"]:
            out.append(f"neutral {prov} holds a building or fortress")
    # N4.10.1: the conqueror is alone in another player's province
    for prov, c in d["conqueror"].items():
        if d["markers"].get(prov) in (None, c) or B.present(d, prov) != [c]:
            out.append(f"{prov}: conqueror mark of seat {c} is not valid (N4.10.1)")
    for prov, (c, _) in d["pending"].items():
        if d["conqueror"].get(prov) != c or d["on_marker"].get(prov) != c:
            out.append(f"{prov}: pending conversion without conqueror on the marker (N4.10.4)")
    # N4.11.3: a building is occupied only while it exists
    for prov, occ in d["occupy"].items():
        for slot in occ:
            if slot not in d["buildings"].get(prov, []):
                out.append(f"{prov}: occupied {slot} is not built")
    return out
