"""Mare Nostrum: Empires beyond the generic contract checks (tests/engine/test_conformance.py
runs those on every registered game): seeded random games reach a winner."""

from __future__ import annotations

import random

import pytest

import ziggurat
from ziggurat.engine.contract import sample_chance
from ziggurat.games.mare_nostrum import MareNostrumGame

CASES = [("mare-nostrum", n) for n in (3, 4, 5)]
IDS = [f"{g}-{n}p" for g, n in CASES]


def load(game_id: str, players: int, **options: object) -> MareNostrumGame:
    assert game_id == "mare-nostrum"
    return MareNostrumGame(players, dict(options))


PLIES = 600


def random_walk(game_id: str, n: int, seed: int, plies: int = PLIES):
    """Yield (state, action) along a seeded random playout, before each action."""
    game = load(game_id, n)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            return
        if state.current_player() == ziggurat.CHANCE:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(list(state.legal_actions()))
        yield game, state, action
        state.apply(action)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_reach_a_winner(n: int) -> None:
    """Seeded random play ends by a victory condition (N6) within a bounded number of plies."""
    for seed in range(4):
        game = load("mare-nostrum", n)
        state = game.new_initial_state()
        rng = random.Random(100 + seed)
        for _ in range(20000):
            if state.is_terminal():
                break
            if state.current_player() == ziggurat.CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
        assert state.is_terminal()
        assert sorted(state.returns()) == [0.0] * (n - 1) + [1.0]
