"""What a live table shares with its driver and the server's routes: the refusals, a socket's
outgoing queue and what one step shows. ``server/live.py`` re-exports the names routes use."""

from __future__ import annotations

import asyncio
from typing import Any, NamedTuple

from ziggurat.engine.errors import GameOver, IllegalAction, InvalidAction, NotYourTurn, ZigguratError
from ziggurat.engine.messages import Message, message

MAX_PENDING_MESSAGES = 512
"""A socket with this many unsent messages is closed (the client reconnects and catches up)."""

_ERROR_CODES: tuple[tuple[type[ZigguratError], str], ...] = (
    (InvalidAction, "invalid"),
    (NotYourTurn, "not_your_turn"),
    (GameOver, "game_over"),
    (IllegalAction, "illegal"),
)


class Refused(Exception):
    """A message was refused; ``code`` is the protocol's error code. Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)
        # a refusal the game worded as a Message also goes as its key and parameters
        self.event = message.to_json() if isinstance(message, Message) else None


def refused(exc: ZigguratError) -> Refused:
    """The protocol's refusal of an action the engine refused with ``exc``."""
    code = next((c for cls, c in _ERROR_CODES if isinstance(exc, cls)), "illegal")
    return Refused(code, exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc))


UNDO_BLOCKS: dict[str, str] = {
    "spectator": "spectators cannot undo",
    "over": "the game is over",
    "nothing": "nothing to undo",
    "chance": "a chance event (dice, a draw) followed your last action",
    "bot": "a bot has moved since your last action",
    "other": "another player has moved since your last action",
    "barrier": "the last action cannot be taken back: it ended the turn, revealed something or was a chance event",
}
"""Why an undo is refused (``undo_block`` in the ``state`` message; the browser words each key)."""


NOT_STARTED = "the game has not started: the host starts it once the seats are taken"
"""Why an action or an undo is refused at a lobby table that is still open."""

BOT_PLAYS = message("clock.botPlays")
"""Why an action of a seat that a bot took over is refused (server/clocks.py)."""


class NoRecord(LookupError):
    """The table has no game record (it was created from a position)."""


class Forbidden(Exception):
    """A token does not open this table."""


class Connection:
    """One socket's outgoing queue; the socket's sender task drains it in order."""

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.overflowed = False

    def send(self, text: str) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= MAX_PENDING_MESSAGES:
            self.overflowed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def stop(self) -> None:
        """Ask the sender to finish after what is queued."""
        self.queue.put_nowait(None)


class Shown(NamedTuple):
    """What one step shows, worked out off the event loop (``LiveTable._shown``)."""

    views: dict[int | None, dict[str, Any]]
    """Every watched viewer's view."""
    entries: dict[int | None, list[str]]
    """Every watched viewer's new log entries (JSON text)."""
    final: dict[str, str] | None
    """The final flags of the person to move next (``None``: not worked out)."""
    outcome: dict[str, Any] | None
    """How the game was won, once it is over."""
    labels: list[Any] | None
    """How the game names each seat (``gamekit.seat_labels``; ``None``: no socket to tell)."""
