"""Bad input through the public contract (docs/architecture.md).

Every game shares the engine's ``State`` pipeline, so the same bad input gets the same answer
in each: an action that is not a text is ``InvalidAction``, a seat that is not one of the
game's (wrong type, out of range, ``bool``) is ``InvalidSeat`` naming the range, another
valid seat is ``NotYourTurn``; each is a ``ZigguratError`` (a ``ValueError``) with a readable
reason, never a Python ``TypeError``/``AttributeError``/``IndexError``, and a refused call
changes nothing. A hypothesis test feeds arbitrary JSON-like values to ``apply`` and ``view``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ziggurat
from ziggurat.engine.contract import State, sample_chance
from ziggurat.engine.errors import InvalidSeat

PLAYERS = 3  # every game has a 3-player configuration
GAMES = ziggurat.games()


def decision_state(game_id: str, plies: int = 12, seed: int = 3) -> State:
    """A seeded position some plies in where a seat (not chance) is to move."""
    state = ziggurat.load(game_id, players=PLAYERS).new_initial_state()
    rng = random.Random(seed)
    done = 0
    while done < plies or state.current_player() < 0:
        if state.current_player() == ziggurat.CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
            done += 1
    assert not state.is_terminal()
    return state


_STATES = {game_id: decision_state(game_id) for game_id in GAMES}


def fresh(game_id: str) -> State:
    return _STATES[game_id].clone()


NOT_TEXT: list[Any] = [None, 5, 1.5, ["end"], ("end",), b"end", {"action": "end"}, True]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("action", NOT_TEXT, ids=repr)
def test_an_action_that_is_not_a_text_is_invalid(game_id: str, action: Any) -> None:
    state = fresh(game_id)
    before = state.fingerprint()
    with pytest.raises(ziggurat.InvalidAction, match="an action is a text"):
        state.apply(action)
    assert state.fingerprint() == before


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seat", [7, 3, -1, "0", True, False, 1.0, [0]], ids=repr)
def test_view_of_a_seat_the_game_does_not_have_names_the_range(game_id: str, seat: Any) -> None:
    state = fresh(game_id)
    with pytest.raises(InvalidSeat, match="from 0 to 2") as info:
        state.view(seat)
    assert isinstance(info.value, ValueError) and isinstance(info.value, ziggurat.ZigguratError)
    assert "None (a spectator)" in str(info.value)


@pytest.mark.parametrize("game_id", GAMES)
def test_view_of_every_seat_and_of_a_spectator_is_served(game_id: str) -> None:
    state = fresh(game_id)
    for seat in (None, 0, 1, 2):
        assert isinstance(state.view(seat), dict)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seat", [9, 3, -1, "0", 1.0, [1]], ids=repr)
def test_apply_for_a_seat_the_game_does_not_have_is_refused(game_id: str, seat: Any) -> None:
    state = fresh(game_id)
    before = state.fingerprint()
    action = state.legal_actions()[0]
    with pytest.raises(InvalidSeat, match="from 0 to 2"):
        state.apply(action, seat=seat)
    assert state.fingerprint() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_a_bool_seat_is_refused_even_where_it_equals_the_mover(game_id: str) -> None:
    """``True == 1`` in Python, but a seat is an ``int``: a flag passed by mistake is refused."""
    state = fresh(game_id)
    mover = state.current_player()
    before = state.fingerprint()
    with pytest.raises(InvalidSeat):
        state.apply(state.legal_actions()[0], seat=bool(mover) if mover in (0, 1) else True)
    assert state.fingerprint() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_another_valid_seat_is_not_your_turn_naming_both(game_id: str) -> None:
    state = fresh(game_id)
    mover = state.current_player()
    other = (mover + 1) % PLAYERS
    names = state.game.seat_names()
    empires = state.view(None).get("empires")
    if empires and all(empires):  # Mare Nostrum names a seat by its empire once they are dealt
        names = [str(e) for e in empires]
    before = state.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn) as info:
        state.apply(state.legal_actions()[0], seat=other)
    message = str(info.value).lower()
    assert names[other].lower() in message and names[mover].lower() in message
    assert state.fingerprint() == before
    state.apply(state.legal_actions()[0], seat=mover)  # the mover's own seat is accepted


@pytest.mark.parametrize("game_id", GAMES)
def test_loose_text_is_canonicalised_before_the_legality_check(game_id: str) -> None:
    """``apply`` parses a text that is not a legal canonical one (``game.parse_action``), then
    checks the canonical text: surrounding blanks change nothing."""
    state = fresh(game_id)
    twin = state.clone()
    action = state.legal_actions()[0]
    state.apply(f"  {action}  ")
    twin.apply(action)
    assert state.fingerprint() == twin.fingerprint()
    assert state.history() == twin.history()
    assert state.history()[-1] == action


@pytest.mark.parametrize("game_id", GAMES)
def test_an_unparsable_text_is_invalid_and_changes_nothing(game_id: str) -> None:
    state = fresh(game_id)
    before = state.fingerprint()
    with pytest.raises(ziggurat.InvalidAction) as info:
        state.apply("frobnicate the ziggurat")
    assert str(info.value)
    assert state.fingerprint() == before


# --- arbitrary JSON-like input ---------------------------------------------------------------
_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=6)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["end", "stop", "pass", "0", "1", "first b", "keep", "income", ""])
)
JSON_LIKE = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), value=JSON_LIKE, seat=JSON_LIKE)
def test_arbitrary_json_like_input_raises_only_the_engines_errors(
    game_id: str, value: Any, seat: Any
) -> None:
    state = fresh(game_id)
    before = state.fingerprint()
    legal = set(state.legal_actions())
    try:
        state.apply(value)
    except ziggurat.ZigguratError as exc:
        assert str(exc)
        assert state.fingerprint() == before
    else:  # only a legal action (up to blanks) can have been played
        assert isinstance(value, str) and state.history()[-1] in legal
        state = fresh(game_id)
    try:
        state.apply(state.legal_actions()[0], seat=seat)
    except ziggurat.ZigguratError as exc:
        assert str(exc)
        assert state.fingerprint() == before
    else:
        assert seat is None or (type(seat) is int and seat == _STATES[game_id].current_player())
    try:
        view = state.view(value)
    except ziggurat.ZigguratError as exc:
        assert isinstance(exc, ValueError) and str(exc)
    else:
        assert value is None or (type(value) is int and 0 <= value < PLAYERS)
        assert isinstance(view, dict)
