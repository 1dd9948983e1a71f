"""Bots: random, each game's heuristic bot, ISMCTS, and the driver that plays them."""

from ziggurat.bots.base import BOT_KINDS, SPEC_HELP, Bot, RandomBot, close_bot, make_bot
from ziggurat.bots.driver import GameResult, play_game
from ziggurat.bots.spec import ISMCTSConfig, check_spec, parse_ismcts

__all__ = [
    "BOT_KINDS",
    "SPEC_HELP",
    "Bot",
    "GameResult",
    "ISMCTSConfig",
    "RandomBot",
    "check_spec",
    "close_bot",
    "make_bot",
    "parse_ismcts",
    "play_game",
]
