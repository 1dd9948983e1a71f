"""The contract every registered game must honour (docs/architecture.md).

Parametrised over games and player counts: seeded random play never raises and keeps the
game's declared invariants; every legal action's text parses back to itself; refused actions
change nothing; records replay to the same fingerprint; views are JSON and survive
determinization; positions round-trip.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import sample_chance
from ziggurat.engine.registry import game_class

CASES = [
    (game_id, n)
    for game_id in ziggurat.games()
    for n in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
]
IDS = [f"{g}-{n}p" for g, n in CASES]
PLIES = 600


def random_walk(game_id: str, n: int, seed: int, plies: int = PLIES):
    """Yield (state, action) along a seeded random playout, before each action."""
    game = ziggurat.load(game_id, players=n)
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


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_keeps_invariants(game_id: str, n: int, seed: int) -> None:
    for game, state, action in random_walk(game_id, n, seed):
        assert game.invariants(state) == []
        assert state.current_player() in (*range(n), ziggurat.CHANCE)
        legal = state.legal_actions()
        assert legal, "a non-terminal state must offer actions"
        assert len(set(legal)) == len(legal), "legal actions must be distinct"
        assert action in legal
        if state.current_player() == ziggurat.CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            assert abs(total - 1.0) < 1e-9
            assert all(p > 0 for _, p in state.chance_outcomes())


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_action_texts_round_trip(game_id: str, n: int) -> None:
    for game, state, _ in random_walk(game_id, n, seed=11, plies=300):
        for action in state.legal_actions():
            assert game.parse_action(action) == action
            assert str(game.parse_action(str(action))) == str(action)


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_refused_actions_change_nothing(game_id: str, n: int) -> None:
    rng = random.Random(5)
    seen: list[str] = []
    for _game, state, _ in random_walk(game_id, n, seed=5, plies=300):
        seen.extend(state.legal_actions()[:5])
        before = state.fingerprint()
        legal = set(state.legal_actions())
        for candidate in rng.sample(seen, min(5, len(seen))) + ["nonsense words", "move"]:
            if candidate in legal:
                continue
            with pytest.raises(ziggurat.ZigguratError) as info:
                state.apply(candidate)
            assert isinstance(info.value, ValueError)
            assert str(info.value)
            assert state.fingerprint() == before


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_wrong_seat_is_not_your_turn(game_id: str, n: int) -> None:
    for _game, state, action in random_walk(game_id, n, seed=8, plies=80):
        who = state.current_player()
        if who < 0:
            continue
        before = state.fingerprint()
        with pytest.raises(ziggurat.NotYourTurn):
            state.apply(action, seat=(who + 1) % n)
        assert state.fingerprint() == before


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [21, 22])
def test_replay_reproduces_fingerprint(game_id: str, n: int, seed: int) -> None:
    walk = list(random_walk(game_id, n, seed, plies=400))
    state = walk[-1][1]  # the walk applied each action after yielding it
    rec = ziggurat.record(state, seed=seed)
    json.dumps(rec)
    assert ziggurat.replay(json.loads(json.dumps(rec))).fingerprint() == state.fingerprint()


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_views_are_json_and_survive_sampling(game_id: str, n: int) -> None:
    rng = random.Random(3)
    for i, (game, state, _) in enumerate(random_walk(game_id, n, seed=13, plies=400)):
        if i % 7:
            continue
        json.dumps(state.view(None))
        for seat in range(n):
            view = state.view(seat)
            assert json.loads(json.dumps(view)) == view
            sampled = game.sample_state(view, seat, rng)
            assert sampled.view(seat) == view
            assert game.invariants(sampled) == []
            if seat == state.current_player():
                # the mover knows everything its own choices depend on
                assert list(sampled.legal_actions()) == list(state.legal_actions())


def _empty(value: Any) -> None:
    """Empty every list and dict inside ``value``, innermost first."""
    if isinstance(value, dict):
        for inner in value.values():
            _empty(inner)
        value.clear()
    elif isinstance(value, list):
        for inner in value:
            _empty(inner)
        value.clear()


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_a_view_is_the_callers_own(game_id: str, n: int) -> None:
    """Emptying every list and dict of a view changes nothing in the state: a view shares no
    container with the state it shows."""
    for i, (_game, state, _) in enumerate(random_walk(game_id, n, seed=23, plies=300)):
        if i % 3:
            continue
        before = state.fingerprint()
        for seat in [None, *range(n)]:
            again = json.dumps(state.view(seat), sort_keys=True)
            _empty(state.view(seat))
            assert json.dumps(state.view(seat), sort_keys=True) == again
        assert state.fingerprint() == before


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_positions_round_trip(game_id: str, n: int) -> None:
    for i, (game, state, _) in enumerate(random_walk(game_id, n, seed=17, plies=400)):
        if i % 5:
            continue
        pos = state.to_position()
        again = game.state_from_position(json.loads(json.dumps(pos)))
        assert again.to_position() == pos
        assert again.fingerprint() == state.fingerprint()
        assert list(again.legal_actions()) == list(state.legal_actions())


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=IDS)
def test_clone_is_independent(game_id: str, n: int) -> None:
    for _game, state, action in random_walk(game_id, n, seed=19, plies=200):
        copy = state.clone()
        before = state.fingerprint()
        copy.apply(action)
        assert state.fingerprint() == before


def test_load_rejects_unknown_option_and_bad_player_count() -> None:
    for game_id in ziggurat.games():
        cls = game_class(game_id)
        with pytest.raises(ValueError, match="noSuchOption"):
            ziggurat.load(game_id, players=cls.min_players, noSuchOption=1)
        with pytest.raises(ValueError, match="players"):
            ziggurat.load(game_id, players=cls.max_players + 1)
    with pytest.raises(ValueError, match="unknown game"):
        ziggurat.load("chess")


def _finished(game: Any) -> Any:
    """A seeded random game played to its end (positions are checked on load, so a finished
    position must come from a finished game)."""
    for seed in (2, 0, 1, 3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(20_000):
            if state.is_terminal():
                return state
            if state.current_player() == ziggurat.CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
    raise AssertionError(f"no seeded random {game.game_id} game ended")


def test_terminal_state_refuses_actions() -> None:
    # A finished game raises GameOver for any action, and changes nothing.
    for game_id in ziggurat.games():
        game = ziggurat.load(game_id, players=game_class(game_id).min_players)
        pos = _finished(game).to_position()
        done = game.state_from_position(pos)
        assert done.is_terminal()
        assert done.current_player() == ziggurat.TERMINAL
        with pytest.raises(ziggurat.GameOver):
            done.apply("end")
