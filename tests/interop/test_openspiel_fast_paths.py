"""The OpenSpiel state answers ``legal_actions``, ``is_chance_node`` and ``is_player_node``
from Python (and keeps the player to move between actions): every answer is pyspiel's own,
at chance, player, terminal and truncated states alike."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ziggurat.interop import openspiel as zo  # noqa: E402

GAMES = [("mesopotamia", 2), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]


def answer(method, *args):
    """What ``method`` returns, or the error it raises."""
    try:
        return method(*args)
    except pyspiel.SpielError as exc:
        return ("SpielError", str(exc))


def check(state: zo.ZigguratState, players: int) -> None:
    base = pyspiel.State  # its methods: the answers of OpenSpiel's C++ State
    assert state.legal_actions() == answer(base.legal_actions, state)
    for player in range(-4, players + 1):
        assert answer(state.legal_actions, player) == answer(base.legal_actions, state, player), player
    assert state.is_chance_node() == base.is_chance_node(state)
    assert state.is_player_node() == base.is_player_node(state)
    assert state.is_terminal() == (state.current_player() == pyspiel.PlayerId.TERMINAL)


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_python_answers_are_pyspiels(game_id: str, players: int) -> None:
    game = zo.load(game_id, players, max_game_length=150)
    rng = random.Random(2)
    state = game.new_initial_state()
    kinds = set()
    while True:
        check(state, players)
        check(state.clone(), players)  # a clone keeps the player it was told
        kinds.add(state.current_player() if state.current_player() < 0 else "player")
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert kinds == {"player", int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)}
    assert state.is_truncated() or state.ziggurat_state().is_terminal()


def test_a_refused_action_leaves_the_player_to_move() -> None:
    game = zo.load("mesopotamia-epochs", 3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player, legal = state.current_player(), state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(Exception):  # noqa: B017 - pyspiel wraps the engine's IllegalAction
        state.apply_action(illegal)
    assert state.current_player() == player and state.legal_actions() == legal
    state.apply_action(legal[0])
    assert state.history()[-1] == legal[0]
