"""Bots see ``(view, legal_actions)`` and an injected RNG, never the true state (DESIGN.md)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any, Protocol

from ziggurat.engine.contract import Game
from ziggurat.engine.registry import game_package


class Bot(Protocol):
    """A player program. ``needs_view`` False lets drivers skip building the view."""

    name: str
    needs_view: bool

    def choose(self, view: dict[str, Any] | None, legal: Sequence[str], rng: random.Random) -> str:
        """One of ``legal``."""
        ...


class RandomBot:
    """Uniformly random legal actions."""

    name = "random"
    needs_view = False

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat

    def choose(self, view: dict[str, Any] | None, legal: Sequence[str], rng: random.Random) -> str:
        return legal[rng.randrange(len(legal))]


BOT_KINDS = ("random", "heuristic")


def make_bot(kind: str, game: Game, seat: int) -> Bot:
    """A bot by name: ``random`` or ``heuristic`` (the game's own).

    :raises ValueError: for an unknown bot kind.
    """
    if kind == "random":
        return RandomBot(game, seat)
    if kind == "heuristic":
        module = importlib.import_module(game_package(game.game_id) + ".bots")
        bot: Bot = module.HeuristicBot(game, seat)
        return bot
    raise ValueError(f"unknown bot {kind!r}; choose from: {', '.join(BOT_KINDS)}")
