"""Play a game with bots: the driver owns the seeded RNG for chance and for each bot."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ziggurat.bots.base import Bot
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance


@dataclass
class GameResult:
    state: State
    plies: int
    truncated: bool


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    max_plies: int = 100_000,
    on_action: Callable[[State, int, str], None] | None = None,
) -> GameResult:
    """Play one seeded game to the end (or ``max_plies``); ``on_action(state, actor, action)``
    is called before each action is applied."""
    state = game.new_initial_state()
    chance_rng = random.Random(f"{seed}/chance")
    bot_rngs = [random.Random(f"{seed}/seat{i}") for i in range(len(bots))]
    plies = 0
    while not state.is_terminal() and plies < max_plies:
        who = state.current_player()
        if who == CHANCE:
            action = sample_chance(state, chance_rng)
        else:
            bot = bots[who]
            view = state.view(who) if bot.needs_view else None
            action = bot.choose(view, state.legal_actions(), bot_rngs[who])
        if on_action is not None:
            on_action(state, who, action)
        state.apply(action)
        plies += 1
    return GameResult(state, plies, not state.is_terminal())
