"""Games played to their end by the heuristic bots, for the tests of how a game ends (the
``outcome`` hook, the server's game-over message, the browser's game-over box).

:func:`endgame` plays a seeded game and keeps the state before its last decision by a player,
so a test can start a table one move before the end (``position``), play that move (``action``)
as ``seat``, and compare with the final state the bots reached (``final``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import ziggurat
from ziggurat.bots.base import make_bot
from ziggurat.engine.contract import State, sample_chance


@dataclass(frozen=True)
class Endgame:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    position: dict[str, Any]
    """The position before the last decision a player made."""
    seat: int
    """The seat that made it."""
    action: str
    """What it chose (the game is over after it and the chance events it sets off)."""
    final: State
    """The finished game."""


@cache
def endgame(game: str, players: int, seed: int, **options: Any) -> Endgame:
    """A seeded game of heuristic bots, played to its end (cached: the tests only read it)."""
    g = ziggurat.load(game, players=players, **options)
    state = g.new_initial_state()
    rng = random.Random(seed)
    bots = [make_bot("heuristic", g, seat) for seat in range(players)]
    last: tuple[dict[str, Any], int, str] | None = None
    while not state.is_terminal():
        who = state.current_player()
        if who < 0:
            state.apply(sample_chance(state, rng))
            continue
        bot = bots[who]
        action = bot.choose(state.view(who) if bot.needs_view else None, list(state.legal_actions()), rng)
        last = (state.to_position(), who, action)
        state.apply(action, seat=who)
    assert last is not None
    position, seat, action = last
    return Endgame(game, players, tuple(sorted(options.items())), position, seat, action, state)
