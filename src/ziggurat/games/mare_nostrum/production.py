"""The round start and Production: Castor & Pollux (N0.12, D2), what every building yields
(N1.1-N1.10), legendary draws as chance nodes (N1.6, N1.10; pillage draws too, N4.11.2), the
legendary-city temple choice (D3) and the Colossus (N1.9, D4)."""

from __future__ import annotations

from typing import Any, Final

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import trade

State = dict[str, Any]


def start_round(d: State) -> None:
    """N0.1, N0.12."""
    d["round"] += 1
    d["copy"] = [None] * d["n"]
    q = [s for s in range(d["n"]) if B.owns(d, s, "castor_pollux")]
    if q:
        d["castor"] = q
        d["stage"] = "castor"
    else:
        production(d)


def castor_legal(d: State) -> list[str]:
    """D2: any tile another player owns, except Castor & Pollux itself."""
    seat = int(d["castor"][0])
    tiles = sorted({t for s in range(d["n"]) if s != seat for t in d["tiles"][s]} - {"castor_pollux"})
    return ["copy none"] + [f"copy {t}" for t in tiles]


def castor_effect(d: State, w: list[str]) -> None:
    seat = int(d["castor"].pop(0))
    B.put(d, "copy", seat, None if w[1] == "none" else w[1])
    if not d["castor"]:
        production(d)


_KINDS: Final[dict[str, str]] = {}
"""``data.building_kind`` of each slot name met, worked out once."""


def _kind(slot: str) -> str:
    kind = _KINDS.get(slot)
    if kind is None:
        kind = _KINDS[slot] = D.building_kind(slot)
    return kind


def production(d: State) -> None:
    """N1 (skipped in round 1, S9)."""
    d.pop("castor", None)
    d["stage"] = "production"
    if d["round"] == 1:
        trade.trade_start(d)
        return
    gains: list[dict[str, int]] = [{} for _ in range(d["n"])]
    queue: list[list[Any]] = []
    lc_items: list[list[Any]] = []
    occupy: dict[str, dict[str, int]] = d["occupy"]
    markers: dict[str, int] = d["markers"]
    buildings: dict[str, list[str]] = d["buildings"]
    for prov in sorted(buildings):
        slots = buildings[prov]
        owner = markers.get(prov)
        occ = occupy.get(prov)
        if not occ:
            if owner is None:
                continue  # N0.5: nobody controls a building here
            # the marker's owner controls every building here (N0.5): one seat, no lookups
            seat = int(owner)
            slot_kinds = [_kind(x) for x in slots]
            market = "market" in slot_kinds
            temple = "temple" in slot_kinds
            for slot, kind in zip(slots, slot_kinds, strict=True):
                if kind == "caravan":
                    _gain(gains, seat, slot.split(":")[1], 2 if market else 1)
                elif kind in ("city", "capital"):
                    _gain(gains, seat, "tax", 2 if temple else 1)
                elif kind == "legendary_city":
                    _gain(gains, seat, "tax")
                    lc_items.append([seat, temple])
            continue
        # N0.5 (board.control): the occupier, otherwise the marker's owner
        ctl: dict[str, int | None] = {}
        for x in slots:
            who = occ.get(x) if occ else None
            ctl[x] = int(who) if who is not None else None if owner is None else int(owner)
        kinds = [(x, _kind(x)) for x in slots]
        for slot, kind in kinds:
            who = ctl[slot]
            if who is None:
                continue
            if kind == "caravan":
                double = any(k == "market" and ctl[x] == who for x, k in kinds)
                _gain(gains, who, slot.split(":")[1], 2 if double else 1)
            elif kind in ("city", "capital"):
                double = any(k == "temple" and ctl[x] == who for x, k in kinds)
                _gain(gains, who, "tax", 2 if double else 1)
            elif kind == "legendary_city":
                _gain(gains, who, "tax")
                lc_items.append([who, any(k == "temple" and ctl[x] == who for x, k in kinds)])
    for s in range(d["n"]):
        if B.has(d, s, "temple_of_artemis"):
            _gain(gains, s, "tax")
        for tok, k in sorted(gains[s].items()):
            B.add_res(d, s, tok, k)
    for who, temple in sorted(lc_items, key=lambda x: int(x[0])):
        queue.append(["draw", who])
        if temple:
            queue.append(["lc", who])
    queue.extend(["colossus", s] for s in range(d["n"]) if B.has(d, s, "colossus"))
    d["queue"] = queue
    d["stage"] = "trade_start"


def _gain(gains: list[dict[str, int]], seat: int, tok: str, k: int = 1) -> None:
    """``seat`` gains ``k`` tokens ``tok`` in production (``gains``: every seat's, by token)."""
    mine = gains[seat]
    mine[tok] = mine.get(tok, 0) + k


# ---- legendary draws (chance) and the queued production choices


def draw_outcomes(d: State) -> list[tuple[str, float]]:
    """N1.10: a legendary draw is uniform over the tokens left in the pool."""
    total = sum(d["pool"].values())
    return [(f"draw {g}", c / total) for g, c in sorted(d["pool"].items()) if c]


def draw_effect(d: State, w: list[str]) -> None:
    seat = int(d["queue"].pop(0)[1])
    B.put(d, "pool", w[1], d["pool"][w[1]] - 1)
    B.add_res(d, seat, "leg:" + w[1])


def lc_legal() -> list[str]:
    """D3: the temple's extra, a tax or one more legendary draw (N1.6)."""
    return ["extra draw", "extra tax"]


def lc_effect(d: State, seat: int, w: list[str]) -> None:
    if w[1] == "draw":
        d["queue"].insert(0, ["draw", seat])
    else:
        B.add_res(d, seat, "tax")


def colossus_legal() -> list[str]:
    """D4: any good type (N1.9)."""
    return [f"colossus {g}" for g in D.GOODS]


def colossus_effect(d: State, seat: int, w: list[str]) -> None:
    B.add_res(d, seat, w[1])
