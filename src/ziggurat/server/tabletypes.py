"""What a live table shares with its driver and the server's routes: the refusals, a socket's
outgoing queue and what one step shows. ``server/live.py`` re-exports the names routes use."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from ziggurat.engine.errors import GameOver, IllegalAction, InvalidAction, NotYourTurn, ZigguratError
from ziggurat.engine.messages import Message, message
from ziggurat.server import jsontext

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


class Views(Mapping[int | None, dict[str, Any]]):
    """The current view of each viewer a table keeps (seat, or ``None`` for the spectators),
    held as its JSON text (``jsontext.dumps``).

    A view is a tree of about a hundred dicts and lists (Mesopotamia). Held as objects until
    the table's next step, the views of every table were about a third of what the cyclic
    garbage collector walked in a server holding many tables: each table's views were alive,
    and young, at every collection, which held the event loop for 120-170 ms with 1,000
    tables. As text they are a handful of strings the collector never looks at. Reading a
    view parses its text (a new dict each time: the next step's log entries read the views
    before it this way); :meth:`text` gives the text itself, which a ``state`` message embeds
    as it is (``jsontext.raw``). Views survive the round trip unchanged: their keys are texts
    and their lists are lists (checked for every game in the tests)."""

    __slots__ = ("_texts",)

    def __init__(self, views: Mapping[int | None, dict[str, Any]] | None = None) -> None:
        self._texts: dict[int | None, str] = {}
        for viewer, view in (views or {}).items():
            self._texts[viewer] = jsontext.dumps(view)

    def __getitem__(self, viewer: int | None) -> dict[str, Any]:
        found: dict[str, Any] = jsontext.loads(self._texts[viewer])
        return found

    def __contains__(self, viewer: object) -> bool:
        return viewer in self._texts

    def __iter__(self) -> Iterator[int | None]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def text(self, viewer: int | None) -> str:
        """The JSON text of ``viewer``'s view."""
        return self._texts[viewer]

    def copy_from(self, other: Views, viewer: int | None) -> None:
        """Hold ``other``'s view of ``viewer`` (its text, not parsed again)."""
        self._texts[viewer] = other._texts[viewer]

    def drop(self, viewer: int | None) -> None:
        """Forget ``viewer``'s view, if held."""
        self._texts.pop(viewer, None)
