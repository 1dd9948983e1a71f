"""Heuristic self-play seen at the first decision of every phase: the positions the fitting
scripts (``fit_*_evaluator.py``) learn from, because that is where search evaluates."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance


def phase_starts(
    game: Game,
    rng: random.Random,
    phase_of: Callable[[State], Hashable],
    view: Callable[[State, int], dict[str, Any]] | None = None,
) -> Iterator[tuple[State, int]]:
    """Play one game of heuristic bots (chance and tie-breaks from ``rng``) and yield
    ``(state, decisions played so far)`` whenever ``phase_of`` changes at a decision, then once
    more with the finished game. The same state object is yielded each time: read it before
    the next step. ``view(state, seat)`` stands in for ``state.view(seat)`` (a game's cheap
    ``rollout_view``)."""
    bots = [make_bot("heuristic", game, seat) for seat in range(game.num_players)]
    state = game.new_initial_state()
    mark: Hashable = None
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        now = phase_of(state)
        if now != mark:
            mark = now
            yield state, decisions
        decisions += 1
        shown = view(state, seat) if view is not None else state.view(seat)
        state.apply(bots[seat].choose(shown, state.legal_actions(), rng))
    yield state, decisions
