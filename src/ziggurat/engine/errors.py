"""The engine's error family: every refused action raises one of these.

All are ``ValueError`` subclasses so callers that only know Python's built-ins can
still catch them. Messages are written for players and name the rule (e.g. "M4.6").
"""

from __future__ import annotations


class ZigguratError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidAction(ZigguratError):
    """The text does not parse as an action of this game."""


class IllegalAction(ZigguratError):
    """The action parses, but the rules forbid it now; the message says which rule and why."""


class NotYourTurn(ZigguratError):
    """An action was sent for a seat that is not the one to move."""


class GameOver(ZigguratError):
    """An action was sent to a finished game."""


class OptionError(ZigguratError):
    """A game option is unknown, or its value is not of its declared type and range."""


class InvalidSeat(ZigguratError):
    """A seat that is not one of the game's (an ``int`` from 0 to players - 1)."""


class InvalidPosition(ZigguratError):
    """A position (``game.state_from_position``) that the schema or the rules make impossible;
    the message names the field and, where there is one, the rule."""
