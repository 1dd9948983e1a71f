"""Speed of the research adapters, for ``ziggurat bench``: seeded random play through the
OpenSpiel game and the PettingZoo environment, and the cost of an observation.

Every figure is CPU time (``time.process_time``), the clock read once per batch of steps so
that its own cost stays out of the figures. Nothing here asserts on a figure.

- OpenSpiel steps/s: the loop a pyspiel user writes. A step is ``legal_actions()`` and a
  seeded choice among them, or at a chance node ``chance_outcomes()`` and one seeded draw
  (the first outcome whose running sum of probabilities exceeds it, as ``sample_chance``
  scans), then ``apply_action``. Chance outcomes are steps, as they are decisions in the
  engine's own figure.
- PettingZoo steps/s: ``last(observe=False)``, the agent's ``action_mask()``, a seeded choice
  among its ones, ``step``. The environment resolves chance and single-choice decisions inside
  a step, so the engine decisions it plays (chance included: the games' histories) are counted
  too, as decisions/s.
- Observation cost: µs per ``observation_tensor``, ``information_state_string`` and
  ``observation_string`` of an OpenSpiel state, for each seat, over states of seeded random
  play (the same view encoder gives PettingZoo's observations).

These need the ``spiel`` extra (OpenSpiel) and the ``rl`` extra (PettingZoo); each function
raises ``ImportError`` without its own.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

BATCH = 256
"""Steps between two looks at the clock; states kept to time observations."""


@dataclass
class ObservationCost:
    """µs per call for one seat, averaged over the states measured."""

    seat: int
    tensor: float
    information_state_string: float
    observation_string: float
    states: int


def spiel_steps_per_second(
    game_id: str, players: int, options: dict[str, Any], seconds: float, seed: int
) -> tuple[float, int, int]:
    """Seeded random play through the OpenSpiel game for about ``seconds`` of CPU:
    (steps/s, steps, games started)."""
    from ziggurat.interop.openspiel import load

    game = load(game_id, players, options=options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    games = 1
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(BATCH):
            if state.is_terminal():
                state = game.new_initial_state()
                games += 1
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                draw = rng.random()
                total = 0.0
                action = outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if draw < total:
                        action = outcome
                        break
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        steps += BATCH
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed, steps, games


def pettingzoo_steps_per_second(
    game_id: str, players: int, options: dict[str, Any], seconds: float, seed: int
) -> tuple[float, float, int, int]:
    """Seeded random play through the PettingZoo environment for about ``seconds`` of CPU:
    (steps/s, engine decisions/s inside those steps, steps, games started)."""
    import numpy as np

    from ziggurat.interop.pettingzoo import env as make_env

    env = make_env(game_id, players=players, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    games = 1
    steps = 0
    decisions = 0
    start = time.process_time()
    while True:
        for _ in range(BATCH):
            _, _, terminated, truncated, _ = env.last(observe=False)
            if terminated or truncated:
                decisions += len(env.state.history())
                env.reset()  # the chance stream goes on
                games += 1
            legal = np.flatnonzero(env.action_mask().view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
        steps += BATCH
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            decisions += len(env.state.history())
            return steps / elapsed, decisions / elapsed, steps, games


def observation_costs(
    game_id: str, players: int, options: dict[str, Any], seconds: float, seed: int
) -> list[ObservationCost]:
    """µs per observation of each seat over up to :data:`BATCH` states of seeded random play
    through the OpenSpiel game (about ``seconds`` of CPU to collect them), each state and seat
    observed once per kind, timed as a whole batch."""
    from ziggurat.interop.openspiel import load

    game = load(game_id, players, options=options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[Any] = []
    start = time.process_time()
    while len(states) < BATCH and (not states or time.process_time() - start < seconds):
        if state.is_terminal():
            state = game.new_initial_state()
        states.append(state.clone())
        if state.is_chance_node():
            state.apply_action(_draw(state.chance_outcomes(), rng.random()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    for s in states:
        s.current_player()  # looked at: no state is a pristine initial state (its tensor is kept)
    kinds = ("observation_tensor", "information_state_string", "observation_string")
    for kind in kinds:  # the first call of a kind makes the game's observer: not timed
        getattr(states[0].clone(), kind)(0)
    costs = []
    for seat in range(players):
        timed = []
        for kind in kinds:
            # bound methods of fresh clones, made outside the timing: nothing computed for one
            # kind or seat is at hand for the next
            calls = [getattr(s.clone(), kind) for s in states]
            before = time.process_time()
            for call in calls:
                call(seat)
            timed.append((time.process_time() - before) / len(states) * 1e6)
        costs.append(ObservationCost(seat, timed[0], timed[1], timed[2], len(states)))
    return costs


def _draw(outcomes: list[tuple[int, float]], draw: float) -> int:
    """The first outcome whose running sum of probabilities exceeds ``draw`` (the last if
    rounding leaves none)."""
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if draw < total:
            return outcome
    return outcomes[-1][0]


__all__ = [
    "BATCH",
    "ObservationCost",
    "observation_costs",
    "pettingzoo_steps_per_second",
    "spiel_steps_per_second",
]
