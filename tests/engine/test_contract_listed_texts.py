"""``apply`` of a text from the cached legal list (docs/architecture.md, the pipeline).

The engine's ``State.apply`` plays a text that is one of the cached legal list's own entries
with only the seat's check, since a finished game lists nothing and legal texts are canonical.
These tests check, in every game, that such a text and an equal text made apart (another
object), or a ``str`` subclass equal to it, play the same game with the same log, and that the
checks keep their documented order (a seat that is not the mover's, a finished game).
"""

from __future__ import annotations

import random

import pytest

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance

GAMES = ziggurat.games()


class Loose(str):
    """A text that is not a ``str`` itself (a subclass), equal to a legal one."""


def apart(text: str) -> str:
    """An equal text that is another object than ``text``."""
    copy = "".join([text[:1], text[1:], ""])
    assert copy == text
    return copy


@pytest.mark.parametrize("game_id", GAMES)
def test_listed_texts_and_equal_texts_made_apart_play_the_same_game(game_id: str) -> None:
    game = ziggurat.load(game_id, players=3)
    listed, made_apart, subclassed = (game.new_initial_state() for _ in range(3))
    rng = random.Random(5)
    for ply in range(600):
        if listed.is_terminal():
            break
        if listed.current_player() == CHANCE:
            action = sample_chance(listed, rng)
        else:
            legal = listed.legal_actions()
            action = legal[rng.randrange(len(legal))]
        mover = listed.current_player()
        listed.apply(action)
        made_apart.apply(apart(action), seat=None if mover == CHANCE else mover)
        subclassed.apply(Loose(action))
        if ply % 50 == 0:
            assert made_apart.fingerprint() == listed.fingerprint()
            assert subclassed.fingerprint() == listed.fingerprint()
    assert made_apart.events() == listed.events()
    assert subclassed.history() == listed.history()
    assert made_apart.fingerprint() == subclassed.fingerprint() == listed.fingerprint()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_listed_text_for_another_seat_is_not_your_turn_and_changes_nothing(game_id: str) -> None:
    state = ziggurat.load(game_id, players=3).new_initial_state()
    rng = random.Random(8)
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    mover = state.current_player()
    action = state.legal_actions()[0]
    before = state.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn):
        state.apply(action, seat=(mover + 1) % 3)
    with pytest.raises(ziggurat.InvalidSeat):
        state.apply(action, seat=str(mover))  # type: ignore[arg-type]
    assert state.fingerprint() == before
    assert state.legal_actions()[0] is action
    state.apply(action, seat=mover)
    assert state.history()[-1] == action


def test_a_text_listed_before_the_end_is_refused_as_game_over() -> None:
    """Mesopotamia with a one-round limit: the last action's list is gone once the game ends."""
    game = ziggurat.load("mesopotamia", players=2, round_limit=1)
    state = game.new_initial_state()
    rng = random.Random(2)
    last = None
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        last = legal[rng.randrange(len(legal))]
        state.apply(last)
    assert last is not None
    assert list(state.legal_actions()) == []
    with pytest.raises(ziggurat.GameOver):
        state.apply(last)
