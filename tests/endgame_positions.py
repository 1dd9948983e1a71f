"""Games played to their end by the heuristic bots, for the tests of how a game ends (the
``outcome`` hook, the server's game-over message, the browser's game-over box).

:func:`endgame` plays a seeded game and keeps the state before its last decision by a player,
so a test can start a table one move before the end (``position``), play that move (``action``)
as ``seat``, and compare with the final state the bots reached (``final``); :func:`epochs_attack`
finds a position where an Epochs attack (dice) is one move away.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import ziggurat
from ziggurat.bots.base import make_bot
from ziggurat.engine.contract import CHANCE, State, sample_chance


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


@cache
def epochs_attack() -> tuple[dict[str, Any], int, str]:
    """A position of a seeded Epochs game where the seat to move may attack (E12.1: the attack
    rolls dice, a chance node), with that seat and the attack."""
    game = ziggurat.load("mesopotamia-epochs", players=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    bots = [make_bot("heuristic", game, s) for s in range(3)]
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action, seat=who)
            if after.current_player() == CHANCE and after.chance_outcomes()[0][0].startswith("roll"):
                return state.to_position(), who, action
        bot = bots[who]
        state.apply(bot.choose(state.view(who) if bot.needs_view else None, list(state.legal_actions()), rng))
    raise AssertionError("no attack in the seeded game")
