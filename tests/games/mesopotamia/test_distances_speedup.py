"""The heuristic's distance maps (bots_model.Distances): the integer-indexed search and the
multi-source frontier map give exactly the maps of a plain Dijkstra over coordinates
(M5.3: carriers never cross the temple; M7: unexplored hexes are passable at a higher cost)."""

from __future__ import annotations

import heapq

import pytest
from meso_helpers import heuristic_decisions

from ziggurat.games.mesopotamia.bots_eval import Ctx
from ziggurat.games.mesopotamia.bots_model import (
    FAR,
    STEP,
    UNKNOWN_STEP,
    Board,
    Coord,
    Distances,
)
from ziggurat.games.mesopotamia.data import DIRECTIONS, VOLCANO
from ziggurat.games.mesopotamia.evaluate import SharedDistances


def _plain_costs(b: Board) -> dict[Coord, int]:
    cost = {c: STEP for c, kind in b.tiles.items() if kind != VOLCANO}
    for c in b.spaces:
        cost[c] = UNKNOWN_STEP
    for c in b.spaces:
        for dq, dr in DIRECTIONS:
            n = (c[0] + dq, c[1] + dr)
            if n not in cost and n not in b.tiles:
                cost[n] = UNKNOWN_STEP + 1
    return cost


def _plain_to(cost: dict[Coord, int], temple: Coord, target: Coord, carrier: bool) -> dict[Coord, int]:
    """The textbook search the fast one replaces."""
    dist = {target: 0}
    heap = [(0, target)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u] or u not in cost:
            continue
        for dq, dr in DIRECTIONS:
            w = (u[0] + dq, u[1] + dr)
            if w not in cost or (carrier and w == temple):
                continue
            if d + cost[u] < dist.get(w, FAR):
                dist[w] = d + cost[u]
                heapq.heappush(heap, (d + cost[u], w))
    return dist


def _boards(players: int, seed: int, every: int) -> list[Board]:
    return [
        Board(state.view(who), who)
        for ply, state, who, _ in heuristic_decisions(players, seed, 600)
        if ply % every == 0
    ]


@pytest.mark.slow
def test_distance_maps_equal_a_plain_dijkstra_M5_3() -> None:
    checked = 0
    for b in _boards(3, seed=11, every=40):
        cost = _plain_costs(b)
        for dist in (Distances(), SharedDistances()):
            dist.update(b)
            targets = [*b.tiles, *sorted(b.spaces)[:5], (99, 99)]
            for target in targets:
                for carrier in (False, True):
                    assert dist.to(target, carrier) == _plain_to(cost, b.temple, target, carrier)
                    checked += 1
    assert checked > 500


def test_frontier_map_is_the_nearest_frontier_tile_M7() -> None:
    checked = 0
    for b in _boards(2, seed=3, every=30):
        dist = Distances()
        dist.update(b)
        cost = _plain_costs(b)
        want: dict[Coord, int] = {}
        for c in b.frontier:
            for pos, d in _plain_to(cost, b.temple, c, False).items():
                want[pos] = min(d, want.get(pos, FAR))
        assert Ctx(b, dist).frontier_map == want
        checked += bool(want)
    assert checked > 3
