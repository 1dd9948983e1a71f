"""Helpers of the bot tests (a plain module, so test files can import it)."""

from __future__ import annotations

import random
from collections.abc import Callable

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance

GAMES = [("mesopotamia", 2), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]


def mid_game(
    game_id: str, players: int, plies: int, seed: int = 1, where: Callable[[State], bool] | None = None
) -> tuple[Game, State]:
    """A seeded game of heuristic bots, played ``plies`` plies and then on to the next decision
    with at least two legal actions (and, given ``where``, for which ``where(state)`` holds)."""
    game = ziggurat.load(game_id, players=players)
    bots = [make_bot("heuristic", game, s) for s in range(players)]
    state = game.new_initial_state()
    rng = random.Random(seed)
    ply = 0
    while True:
        who = state.current_player()
        if ply >= plies and who >= 0 and len(state.legal_actions()) > 1:
            if where is None or where(state):
                return game, state
        if who == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = bots[who].choose(state.view(who), state.legal_actions(), rng)
        state.apply(action)
        ply += 1
        assert not state.is_terminal(), "the game ended before the position was reached"
