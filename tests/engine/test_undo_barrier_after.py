"""``game.undo_barrier(state, action, after)``: the state the caller already made by playing
the action gives the same savepoints as the game playing it again."""

from __future__ import annotations

import random

import pytest

import ziggurat
from ziggurat.engine.contract import sample_chance


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        ("mesopotamia", 2),
        ("mesopotamia", 4),
        ("mesopotamia-epochs", 3),
        ("mare-nostrum", 3),
        ("mare-nostrum", 5),
    ],
)
def test_the_state_after_gives_the_same_savepoints(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    rng = random.Random(11)
    state = game.new_initial_state()
    barriers = 0
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
            continue
        fingerprint = state.fingerprint()
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            expected = game.undo_barrier(state, action)
            assert game.undo_barrier(state, action, after) is expected, action
            barriers += expected
        assert state.fingerprint() == fingerprint  # asking changed nothing
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert barriers > 0  # the games met savepoints, not only free moves
