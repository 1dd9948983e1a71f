"""The legal-action listing kept in memos agrees with a listing computed from scratch.

Mesopotamia lists legal actions from memos kept across decisions: what the placed tiles
decide for each tribe (the tiles' memo, shared by clones until a tile is placed) and what
each seat's tribes decide (kept while they are unchanged). These tests play seeded random
games at every player count, and with options that change the listing, and check at every
top-level decision that the list is the one ``meso_reference_listing`` computes afresh from
the position with the rules' own site and target checks (M2-M6, M8-M15), same order included;
that a state loaded from the position (no memo yet) lists the same actions; and that clones
going separate ways (one placing a tile) leave each other's tiles and listings alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from meso_helpers import Board
from meso_reference_listing import top_level_legal

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance

# options under which the listing takes other branches: resources on the tile, drops and
# donations on the temple, a full temple, repeated steals, no hand-offs, growth on any hut
OTHER_RULES = {
    "build_resource_must_be_carried": False,
    "hand_off_between_own_tribes": False,
    "drop_on_temple_allowed": True,
    "stone_donated_on_temple_entry": False,
    "temple_tribe_limit": 2,
    "tribe_steals_once_per_turn": False,
    "wood_carrier_may_enter_temple": True,
    "growth_requires_own_hut": False,
    "neutral_hut_allows_growth": True,
    "phase_two_may_be_passed": False,
    "expulsion_target_huts": "own",
}
# Teleport only onto the temple: whether a tribe may be teleported depends on the temple rules
TELEPORT_TO_TEMPLE = {
    "teleport_forbidden_destination_types": ["volcano", "forest", "quarry", "plains"],
    "temple_tribe_limit": 3,
}

CASES = [
    pytest.param(2, {}, 1, id="2p"),
    pytest.param(3, {}, 2, id="3p"),
    pytest.param(4, {}, 3, id="4p"),
    pytest.param(3, OTHER_RULES, 4, id="3p-other-rules"),
    pytest.param(4, OTHER_RULES, 5, id="4p-other-rules"),
    pytest.param(2, TELEPORT_TO_TEMPLE, 6, id="2p-teleport-to-temple"),
]


def random_states(game: Any, seed: int, decisions: int) -> Iterator[Any]:
    """The states before each of ``decisions`` seeded random decisions (new games as needed)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(decisions):
        if state.is_terminal():
            state = game.new_initial_state()
        yield state
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_listing_matches_a_from_scratch_listing(players: int, options: dict[str, Any], seed: int) -> None:
    game = ziggurat.load("mesopotamia", players=players, **options)
    checked = reloaded = 0
    for ply, state in enumerate(random_states(game, seed, 6000)):
        if state.current_player() == CHANCE or state.pending is not None:
            continue
        legal = list(state.legal_actions())
        assert legal == top_level_legal(state), f"ply {ply}, {state.phase} phase"
        checked += 1
        if ply % 40 == 0:
            # no memo yet: the position alone decides (steals at several tiles come in the
            # order of the tribes' lists, which a position does not keep: compare as sets)
            fresh = game.state_from_position(state.to_position())
            assert sorted(fresh.legal_actions()) == sorted(legal), f"ply {ply}"
            reloaded += 1
    assert checked > 3000
    assert reloaded > 50


def test_listing_covers_every_kind_of_top_level_action() -> None:
    """The random games above list every kind of Phase I, II, III and card action."""
    kinds: set[str] = set()
    for players, options, seed in ((4, {}, 3), (3, OTHER_RULES, 4)):
        game = ziggurat.load("mesopotamia", players=players, **options)
        for state in random_states(game, seed, 6000):
            if state.current_player() != CHANCE and state.pending is None:
                kinds.update(
                    " ".join(a.split(" ")[:2]) if a.startswith("play") else a.split(" ")[0]
                    for a in state.legal_actions()
                )
    expected = {
        "move", "pickup", "drop", "exchange", "handoff", "steal", "offering", "donate", "end",
        "hut", "holy", "grow", "draw", "pass", "stop", "income",
        "play endurance", "play priest", "play holy_stone", "play land", "play mana_theft",
        "play teleport", "play expulsion",
    }  # fmt: skip
    assert expected <= kinds, sorted(expected - kinds)


def _before_a_discovery(game: Any, seed: int) -> tuple[Any, str]:
    """A state of a seeded random game where a tribe may step onto an empty space (M7)."""
    for state in random_states(game, seed, 20_000):
        if state.current_player() == CHANCE or state.pending is not None or state.phase != "movement":
            continue
        for action in state.legal_actions():
            if action.startswith("move "):
                q, r = (int(x) for x in action.rsplit(" ", 1)[1].split(","))
                if (q, r) not in state.tiles:
                    return state, action
    raise AssertionError("no discovery in the seeded game")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_tile_placed_in_a_clone_leaves_the_original_alone_M7(players: int) -> None:
    game = ziggurat.load("mesopotamia", players=players)
    state, discovery = _before_a_discovery(game, players)
    tiles = dict(state.tiles)
    legal = list(state.legal_actions())
    fingerprint = state.fingerprint()
    other = state.clone()
    other.apply(discovery)
    rng = random.Random(7)
    while other.pending is not None and not other.is_terminal():  # pile, tile, volcano, shares
        if other.current_player() == CHANCE:
            other.apply(sample_chance(other, rng))
        else:
            other.apply(other.legal_actions()[0])
    assert len(other.tiles) == len(tiles) + 1
    assert state.tiles == tiles
    assert state.fingerprint() == fingerprint
    assert list(state.legal_actions()) == legal == top_level_legal(state)
    if other.current_player() != CHANCE and other.pending is None and not other.is_terminal():
        assert list(other.legal_actions()) == top_level_legal(other)


def test_clones_list_alike_after_separate_moves() -> None:
    """Clones share the memos; each lists its own position after moving its own way."""
    game = ziggurat.load("mesopotamia", players=4)
    rng = random.Random(11)
    for state in random_states(game, 11, 3000):
        if state.current_player() == CHANCE or state.pending is not None:
            continue
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        first, second = state.clone(), state.clone()
        first.apply(legal[0])
        second.apply(legal[rng.randrange(1, len(legal))])
        for clone in (first, second):
            if clone.current_player() != CHANCE and clone.pending is None and not clone.is_terminal():
                assert list(clone.legal_actions()) == top_level_legal(clone)


def test_steals_come_tile_by_tile_in_the_order_the_loot_is_found_M4() -> None:
    """Steals at two tiles: the tile whose loot comes first in the victim's tribes first, the
    order the listing has always had (a seat's tribes keep the order play gave them)."""
    board = Board().clear_tribes().turn("r")
    board.tribes("r@1,0", "r@1,0", "r@1,-1", "r@1,-1", "gw@1,0", "gs@1,-1")
    state = board.state()
    steals = [a for a in state.legal_actions() if a.startswith("steal")]
    assert steals == ["steal gs@1,-1 r@1,-1", "steal gw@1,0 r@1,0"]
    assert list(state.legal_actions()) == top_level_legal(state)
    reordered = board.state()
    reordered.tribes[3].reverse()  # the same tribes in another order: the loot at 1,0 comes first
    steals = [a for a in reordered.legal_actions() if a.startswith("steal")]
    assert steals == ["steal gw@1,0 r@1,0", "steal gs@1,-1 r@1,-1"]
    assert list(reordered.legal_actions()) == top_level_legal(reordered)
