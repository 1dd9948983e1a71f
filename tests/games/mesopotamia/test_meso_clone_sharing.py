"""Clones share what rarely changes and stay independent.

A clone shares the containers the rules replace instead of changing in place (hands, the
deck and discard pile, offerings placed, unplaced and delivered, Mana limits, holy places,
tile piles and their Land-peeked tops, tiles left): these tests play seeded random games at
every player count and, along the way, let clones play on by themselves (card draws and
plays, offerings, deliveries, discoveries, M7-M15) and check that the original's position
and legal actions are untouched, and that the clone's position is the one a state rebuilt
from the original's position reaches by the same actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance


def _step(state: Any, rng: random.Random) -> None:
    if state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    else:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def _play_on(state: Any, rng: random.Random, plies: int) -> list[str]:
    """Play up to ``plies`` seeded random decisions; the texts played, chance included."""
    played: list[str] = []
    for _ in range(plies):
        if state.is_terminal():
            break
        before = len(state.history())
        _step(state, rng)
        played += state.history()[before:]
    return played


@pytest.mark.parametrize("players", [2, 3, 4])
def test_clones_playing_on_leave_the_original_alone(players: int) -> None:
    game = ziggurat.load("mesopotamia", players=players)
    rng = random.Random(100 + players)
    state = game.new_initial_state()
    kinds: set[str] = set()
    checked = 0
    for ply in range(4000):
        if state.is_terminal():
            state = game.new_initial_state()
        if ply % 20 == 0:
            position = state.to_position()
            legal = list(state.legal_actions())
            clone = state.clone()
            played = _play_on(clone, random.Random(ply), 50)
            kinds.update(a.split(" ")[0] if not a.startswith("play") else a for a in played)
            assert state.to_position() == position, f"ply {ply}"
            assert list(state.legal_actions()) == legal, f"ply {ply}"
            rebuilt = game.state_from_position(position)
            for action in played:
                rebuilt.apply(action)
            assert rebuilt.to_position() == clone.to_position(), f"ply {ply}"
            checked += 1
        _step(state, rng)
    assert checked >= 150
    # the clones drew and played cards, placed and delivered offerings and drew tiles
    assert {"card", "offer", "tile", "income"} <= kinds
    assert any(k.startswith("play ") for k in kinds)


def test_a_clone_and_its_original_draw_different_cards_M12() -> None:
    """Two clones of one state each draw a card: each hand and the deck follow its own draw."""
    game = ziggurat.load("mesopotamia", players=3)
    rng = random.Random(5)
    state = game.new_initial_state()
    while not (state.pending is not None and state.pending[0] == "card_draw"):
        if state.is_terminal():
            state = game.new_initial_state()
        _step(state, rng)
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert len(outcomes) >= 2
    p = state.active
    deck, hand = list(state.deck), list(state.hand[p])
    first, second = state.clone(), state.clone()
    first.apply(outcomes[0])
    second.apply(outcomes[1])
    assert state.deck == deck and state.hand[p] == hand
    assert sum(first.deck) == sum(second.deck) == sum(deck) - 1
    assert first.hand[p] != second.hand[p]
    assert sum(first.hand[p]) == sum(second.hand[p]) == sum(hand) + 1
