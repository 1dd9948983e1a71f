"""Engine: the game contract, errors, chance, records and the game registry."""

from ziggurat.engine.contract import CHANCE, TERMINAL, Action, Game, State, sample_chance
from ziggurat.engine.errors import (
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidSeat,
    NotYourTurn,
    OptionError,
    ZigguratError,
)
from ziggurat.engine.eventlog import Event
from ziggurat.engine.hooks import GameHooks
from ziggurat.engine.records import record, replay
from ziggurat.engine.registry import games, load

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Event",
    "Game",
    "GameHooks",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidSeat",
    "OptionError",
    "NotYourTurn",
    "State",
    "ZigguratError",
    "games",
    "load",
    "record",
    "replay",
    "sample_chance",
]
