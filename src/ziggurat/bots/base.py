"""Bots see ``(view, legal_actions)`` and an injected RNG, never the true state (docs/architecture.md).

A bot is named by a *spec* (:mod:`.spec`): ``random``, ``heuristic`` (the game's own) or
``ismcts[:BUDGET][:OPTION=VALUE...]``; :func:`make_bot` turns a spec into a bot. Every bot
made here has ``close()``: ISMCTS bots with ``workers > 1`` stop their worker processes
there, the others do nothing. Whoever makes bots closes them when done.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ziggurat.bots.spec import SPEC_HELP, check_spec, parse_ismcts
from ziggurat.engine.contract import Game


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

    def close(self) -> None:
        """Nothing to release."""


BOT_KINDS = ("random", "heuristic", "ismcts")
"""The kinds of bot; ``ismcts`` takes a budget and options (see :mod:`ziggurat.bots.spec`)."""


def make_bot(kind: str, game: Game, seat: int) -> Bot:
    """A bot from its spec: ``random``, ``heuristic`` (the game's own) or ``ismcts[...]``.

    :raises ValueError: for an unknown kind, a malformed ``ismcts`` spec, or ``heuristic``
        for a game that declares no heuristic bot (``game.hooks.heuristic_bot``).
    """
    spec = check_spec(kind)
    if spec == "random":
        return RandomBot(game, seat)
    if spec == "heuristic":
        hook = game.hooks.heuristic_bot
        if hook is None:
            raise ValueError(f"{game.game_id} has no heuristic bot; choose random or ismcts")
        bot: Bot = hook.get()(game, seat)
        return bot
    from ziggurat.bots.ismcts import ISMCTSBot

    return ISMCTSBot(game, seat, parse_ismcts(spec))


def close_bot(bot: object) -> None:
    """Call ``bot.close()`` if the bot has one (heuristic bots of the games have none)."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()


__all__ = ["BOT_KINDS", "SPEC_HELP", "Bot", "RandomBot", "close_bot", "make_bot"]
