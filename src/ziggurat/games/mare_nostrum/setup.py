"""Set-up (spec section 4): the empty position, empires dealt or chosen (S2, D1), pieces and
resources placed (S3-S4, 4.1) and the starting titles (S5, 4.2, R31)."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

State = dict[str, Any]


def new_position(n: int, opts: dict[str, Any]) -> State:
    """S1: the position before the empires are assigned."""
    b = D.board(n)
    d: State = {
        "n": n,
        "opts": opts,
        "limits": opts["unit_limits"],
        "round": 0,
        "stage": "assign",
        "empires": [None] * n,
        "res": [{} for _ in range(n)],
        "tiles": [[] for _ in range(n)],
        "copy": [None] * n,
        "pool": {g: 1 for g in D.GOODS},
        "legendary_out": {},
        "markers": {},
        "buildings": {},
        "legions": {},
        "triremes": {},
        "fortresses": {},
        "occupy": {},
        "on_marker": {},
        "pending": {},
        "conqueror": {},
        "titles": {"trade": None, "culture": None, "military": None},
        "tokens_used": [False, False, False],
        "display": [None] * int(opts["face_up_tiles"]),
        "facedown": sorted(t for t in b.tiles if D.TILES[t]["purchasable"]),
        "pyramids": None,
        "queue": [],
        "trade": None,
        "buy": None,
        "mil": None,
        "battle": None,
        "claim": None,
        "winner": None,
        "after_reveal": "round",
        "zeus": [],
    }
    return d


def setup_empires(d: State) -> None:
    """S3-S5: pieces, resources, starting heroes and titles (4.1, 4.2, R31)."""
    for seat, emp_id in enumerate(d["empires"]):
        emp = D.EMPIRES[emp_id]
        for prov in emp["influence_markers"]:
            B.put(d, "markers", prov, seat)
        for prov, slots in emp["buildings"].items():
            B.put(d, "buildings", prov, sorted(slots))
        for prov, k in emp["legions"].items():
            B.move_unit(d, "legions", prov, seat, int(k))
        for sea, k in emp["triremes"].items():
            B.move_unit(d, "triremes", sea, seat, int(k))
        for tok, k in emp["resources"].items():
            B.add_res(d, seat, tok, int(k))
        B.put(d, "tiles", seat, [emp["starting_hero"]])
    b = D.board(d["n"])
    by_lot: list[list[Any]] = []
    for track in D.TRACKS:
        holder = b.starting_titles.get(track)
        if holder in d["empires"]:
            B.put(d, "titles", track, d["empires"].index(holder))
            continue
        levels = [level[track] for level in B.all_tracks(d)]
        top = [s for s in range(d["n"]) if levels[s] == max(levels)]
        rule = d["opts"]["starting_title_tie_break"]
        if len(top) > 1 and rule == "random":
            by_lot.append([track, top])
        else:
            B.put(d, "titles", track, _tie_break(d, top, rule))
    d["stage"] = "reveal"
    if by_lot:
        d["start_titles"] = by_lot
        d["stage"] = "start_title"
    d["after_reveal"] = "round"


def _tie_break(d: State, top: list[int], rule: str) -> int:
    """4.2 / R31: a vacant starting title tied between ``top`` (option
    ``starting_title_tie_break``): ``youngest_player`` (the youngest, option
    ``youngest_player_seat``; if he is not tied, the first tied player after him in seat order)
    or ``seat_order`` (the first tied player in seat order)."""
    if rule == "youngest_player":
        young = int(d["opts"]["youngest_player_seat"])
        return next(s for s in ((young + i) % d["n"] for i in range(d["n"])) if s in top)
    return top[0]


def title_lot_outcomes(d: State) -> list[tuple[str, float]]:
    """4.2 with ``starting_title_tie_break: random``: each tied player equally likely (N0.13)."""
    track, top = d["start_titles"][0]
    return [(f"title {track} {s}", 1 / len(top)) for s in top]


def title_lot_effect(d: State, w: list[str]) -> None:
    d["start_titles"].pop(0)
    B.put(d, "titles", w[1], int(w[2]))
    if not d["start_titles"]:
        del d["start_titles"]
        d["stage"] = "reveal"


def assign_legal(d: State) -> list[str]:
    """D1: the empires nobody has chosen yet."""
    emps = D.board(d["n"]).empires
    return sorted(f"empire {e}" for e in emps if e not in d["empires"])


def assign_effect(d: State, w: list[str]) -> None:
    B.put(d, "empires", d["empires"].index(None), w[1])
    if None not in d["empires"]:
        setup_empires(d)
