"""Heuristic self-play for the benchmarks: every decision of a game of heuristic bots
(``heuristic_decisions``), or the first decision of every phase (``phase_starts``: the positions
the fitting scripts ``fit_*_evaluator.py`` learn from, because that is where search evaluates)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance

MAX_DECISIONS = 20_000
"""Decisions after which a game stops unfinished (the strength matches' ply cap)."""


def heuristic_decisions(
    game: Game,
    state: State,
    rng: random.Random,
    view: Callable[[State, int], dict[str, Any]] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> Iterator[tuple[int, list[str], str]]:
    """Play ``state`` on to the end with heuristic bots (chance and tie-breaks from ``rng``),
    yielding ``(seat, legal actions, action)`` at each decision before the action is applied:
    ``state`` is then still the position of the decision. ``view(state, seat)`` stands in for
    ``state.view(seat)`` (a game's cheap ``rollout_view``). After ``max_decisions`` decisions
    it stops, the game unfinished: heuristic bots can stall a game of Mesopotamia for hundreds
    of rounds or for good (rarely: its rules have no other end than a fourth delivery, M16.2),
    and its returns then give nobody a win."""
    bots = [make_bot("heuristic", game, seat) for seat in range(game.num_players)]
    decisions = 0
    while not state.is_terminal() and decisions < max_decisions:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        shown = view(state, seat) if view is not None else state.view(seat)
        action = bots[seat].choose(shown, legal, rng)
        yield seat, legal, action
        state.apply(action)
        decisions += 1


def phase_starts(
    game: Game,
    rng: random.Random,
    phase_of: Callable[[State], Hashable],
    view: Callable[[State, int], dict[str, Any]] | None = None,
) -> Iterator[tuple[State, int]]:
    """Play one game of heuristic bots (:func:`heuristic_decisions`) and yield ``(state,
    decisions played so far)`` whenever ``phase_of`` changes at a decision, then once more with
    the finished game. The same state object is yielded each time: read it before the next
    step."""
    state = game.new_initial_state()
    mark: Hashable = None
    decisions = 0
    for _ in heuristic_decisions(game, state, rng, view):
        now = phase_of(state)
        if now != mark:
            mark = now
            yield state, decisions
        decisions += 1
    yield state, decisions
