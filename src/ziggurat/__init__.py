"""Ziggurat: ancient-world strategy board games played by their full rules.

>>> import ziggurat
>>> "mesopotamia" in ziggurat.games()
True
"""

from ziggurat.engine import (
    CHANCE,
    TERMINAL,
    Action,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidSeat,
    NotYourTurn,
    OptionError,
    ZigguratError,
    games,
    load,
    record,
    replay,
    sample_chance,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidSeat",
    "OptionError",
    "NotYourTurn",
    "ZigguratError",
    "games",
    "load",
    "record",
    "replay",
    "sample_chance",
]
