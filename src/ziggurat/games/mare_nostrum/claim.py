"""The Claim phase (N5.1-N5.4, R30): titles to the highest level, ties chosen by the previous
holder (D25), Trade tokens reset for a new Trade leader, the three-titles victory (N6.4), then
the next round (or the ``max_rounds`` stop)."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import production, victory

State = dict[str, Any]


def claim_start(d: State) -> None:
    d["claim"] = {"track": "trade", "tied": []}
    _run(d)


def _run(d: State) -> None:
    cl = d["claim"]
    order = list(D.TRACKS)
    every = B.all_tracks(d)  # the titles given below change no level
    while True:
        track = cl["track"]
        levels = [every[s][track] for s in range(d["n"])]
        top = [s for s in range(d["n"]) if levels[s] == max(levels)]
        if len(top) == 1 or d["titles"][track] is None:
            _give_title(d, track, top[0])
        else:
            cl["tied"] = top
            d["stage"] = "claim_tie"
            return
        i = order.index(track)
        if i == len(order) - 1:
            break
        cl["track"] = order[i + 1]
    _end(d)


def _give_title(d: State, track: str, seat: int) -> None:
    if track == "trade" and d["titles"]["trade"] != seat:
        d["tokens_used"] = [False, False, False]  # N5.3
    B.put(d, "titles", track, seat)


def tie_legal(d: State) -> list[str]:
    """D25 / N5.2: the previous holder chooses among the tied players."""
    return [f"title {d['claim']['track']} {s}" for s in d["claim"]["tied"]]


def tie_effect(d: State, w: list[str]) -> None:
    cl = d["claim"]
    _give_title(d, w[1], int(w[2]))
    order = list(D.TRACKS)
    i = order.index(w[1])
    if i == len(order) - 1:
        _end(d)
        return
    cl["track"] = order[i + 1]
    cl["tied"] = []
    _run(d)


def _end(d: State) -> None:
    """N5.4 / N6.4, then the next round (or ``max_rounds``)."""
    d["claim"] = None
    holders = set(d["titles"].values())
    if len(holders) == 1 and None not in holders:
        victory.win(d, int(next(iter(holders))))
        return
    cap = d["opts"]["max_rounds"]
    if cap is not None and d["round"] >= int(cap):
        d["stage"] = "over"
        return
    production.start_round(d)
