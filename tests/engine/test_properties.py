"""Property tests (hypothesis): any sequence of legal choices keeps every game consistent."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ziggurat
from ziggurat.engine.registry import game_class

GAME_CASES = [
    (g, n) for g in ziggurat.engine.registry.games()
    for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(GAME_CASES),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=250),
)
def test_any_legal_sequence_is_consistent(case: tuple[str, int], choices: list[int]) -> None:
    game_id, n = case
    game = ziggurat.load(game_id, players=n)
    state = game.new_initial_state()
    for choice in choices:
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[choice % len(legal)])
        assert game.invariants(state) == []
    # the end state survives a position round trip, a replay and a view per seat
    pos = json.loads(json.dumps(state.to_position()))
    assert game.state_from_position(pos).fingerprint() == state.fingerprint()
    assert ziggurat.replay(ziggurat.record(state)).fingerprint() == state.fingerprint()
    for seat in range(n):
        json.dumps(state.view(seat))


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=40))
@pytest.mark.slow
def test_arbitrary_text_never_crashes_apply(text: str) -> None:
    game = ziggurat.load("mesopotamia", players=2)
    state = game.new_initial_state()
    state.apply("first b")
    before = state.fingerprint()
    try:
        state.apply(text)
    except ziggurat.ZigguratError:
        assert state.fingerprint() == before
