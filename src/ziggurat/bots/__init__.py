"""Bots: random, each game's heuristic bot, and the driver that plays them."""

from ziggurat.bots.base import BOT_KINDS, Bot, RandomBot, make_bot
from ziggurat.bots.driver import GameResult, play_game

__all__ = ["BOT_KINDS", "Bot", "GameResult", "RandomBot", "make_bot", "play_game"]
