"""The heuristic's picture of the map (bots_model.Board): the tiles, temple, unexplored spaces
and frontier come from a cache of layouts, and are exactly those of a plain reading of the
view (M7: unexplored hexes next to the map while tiles are left to draw)."""

from __future__ import annotations

from typing import Any

from meso_helpers import heuristic_decisions

from ziggurat.games.mesopotamia.bots_model import Board, Coord
from ziggurat.games.mesopotamia.data import DIRECTIONS, TEMPLE, VOLCANO


def _plain(view: dict[str, Any]) -> tuple[dict[Coord, str], set[Coord], set[Coord]]:
    """The map as read from the view alone: tiles, unexplored spaces next to them, and the
    tiles (not a volcano or the temple) next to a space; no spaces once no tile is left."""
    tiles = {(q, r): kind for q, r, kind in view["tiles"]}
    spaces: set[Coord] = set()
    frontier: set[Coord] = set()
    if any(p["size"] for p in view["piles"]):
        for (q, r), kind in tiles.items():
            out = {(q + dq, r + dr) for dq, dr in DIRECTIONS} - tiles.keys()
            spaces |= out
            if out and kind not in (VOLCANO, TEMPLE):
                frontier.add((q, r))
    return tiles, spaces, frontier


def test_board_map_facts_match_a_plain_reading_M7() -> None:
    seen = 0
    for players, seed in ((2, 3), (4, 5)):
        for ply, state, who, _ in heuristic_decisions(players, seed, 400):
            if ply % 7:
                continue
            view = state.view(who)
            b = Board(view, who)
            tiles, spaces, frontier = _plain(view)
            assert b.tiles == tiles
            assert list(b.tiles) == list(tiles)  # the view's order, which the distance maps follow
            assert b.temple == next(c for c, kind in tiles.items() if kind == TEMPLE)
            assert b.spaces == spaces
            assert b.frontier == frontier
            assert b.layout_key == (frozenset(tiles.items()), bool(spaces))
            seen += 1
    assert seen > 50


def test_boards_of_one_layout_share_its_facts_and_another_layout_gets_its_own() -> None:
    decisions = [(state.view(who), who) for ply, state, who, _ in heuristic_decisions(3, 2, 400)]
    first = Board(*decisions[0])
    same = [Board(v, w) for v, w in decisions if v["tiles"] == decisions[0][0]["tiles"]]
    assert all(b.spaces is first.spaces and b.tiles is first.tiles for b in same)
    other = next(Board(v, w) for v, w in decisions if v["tiles"] != decisions[0][0]["tiles"])
    assert other.tiles != first.tiles
    assert other.layout_key != first.layout_key
    assert other.tiles is not first.tiles
