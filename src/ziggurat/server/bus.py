"""Table changes between server processes: PostgreSQL ``LISTEN``/``NOTIFY``.

Several ``ziggurat serve`` processes may share one PostgreSQL database, and any of them may
hold any table (docs/server.md, "Several processes"). A process that stores a change of a
table sends a notification on :data:`~ziggurat.server.store.CHANNEL` in the same transaction
(an action) or right after it (seats, chat, clocks): PostgreSQL delivers it when the change is
committed, to every process listening. Each process listens on one connection of its own and
hands every notification about a table it holds to the table manager, which brings its copy up
to date and tells its sockets.

A notification is one JSON object (:class:`Note`): the process that sent it, the table, the
kind of change, the table's revision after it and, for an action, the action itself, so that
the other processes apply it without reading the database. A payload too long for ``NOTIFY``
(8000 bytes) leaves the action out; the others then read it from the database.

SQLite has no notifications: one process holds every table, and :class:`Bus` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from ziggurat.server.store import CHANNEL, conninfo

log = logging.getLogger(__name__)

MAX_PAYLOAD = 7900
"""Bytes of a notification's payload; PostgreSQL refuses 8000 and more."""
RECONNECT_DELAY = 1.0

KINDS = ("action", "undo", "meta", "chat", "thinking", "presence")
"""``action``: one action was stored (``ply``, ``text``, ``actor``, ``barrier``); ``undo``:
the last one was taken back; ``meta``: seats, tokens, the start, the clocks or the rematch
changed (read them again); ``chat``: a message (``data``); ``thinking``: a bot started or
stopped deciding (``data``: the seat or ``None``); ``presence``: the seats with a socket open
in the sending process (``data``: ``{"s": [seats], "ask": bool}``, server/presence.py)."""


@dataclass(slots=True)
class Note:
    """One notification about a table."""

    origin: str
    table: str
    kind: str
    revision: int = 0
    ply: int = 0
    text: str | None = None
    actor: int = 0
    barrier: bool = False
    data: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def origin_prefix(origin: str) -> str:
        """How the payload of every note ``origin`` sends begins (and no other's): a process
        skips its own notes by it, without reading them."""
        return '{"o":' + json.dumps(origin) + ","

    def encode(self) -> str:
        body: dict[str, Any] = {"o": self.origin, "t": self.table, "k": self.kind, "r": self.revision}
        if self.kind == "action":
            body.update(p=self.ply, a=self.text, x=self.actor, b=self.barrier)
        if self.data is not None:
            body["d"] = self.data
        text = json.dumps(body, separators=(",", ":"))
        if len(text.encode()) > MAX_PAYLOAD:
            body.pop("a", None)
            body.pop("d", None)
            text = json.dumps(body, separators=(",", ":"))
        return text

    @classmethod
    def decode(cls, payload: str) -> Note | None:
        """The note of a payload, ``None`` for one this version does not read."""
        try:
            body = json.loads(payload)
            return cls(
                origin=str(body["o"]),
                table=str(body["t"]),
                kind=str(body["k"]),
                revision=int(body.get("r", 0)),
                ply=int(body.get("p", 0)),
                text=body.get("a"),
                actor=int(body.get("x", 0)),
                barrier=bool(body.get("b", False)),
                data=body.get("d"),
            )
        except (ValueError, KeyError, TypeError):
            return None


Handler = Callable[[Note], Awaitable[None]]


class Bus:
    """This process's listening connection (PostgreSQL only).

    ``handler`` is awaited for every note sent by another process, in the order PostgreSQL
    delivers them; ``resync`` after the connection was lost and made again (notes may have
    been missed meanwhile), so that the manager reads again what it holds.
    """

    def __init__(
        self, engine: Engine, process: str, handler: Handler, resync: Callable[[], Awaitable[None]]
    ) -> None:
        self.enabled = engine.dialect.name == "postgresql"
        self.engine = engine
        self.process = process
        self.handler = handler
        self.resync = resync
        self.received = 0
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Listen (returns once the first ``LISTEN`` is in place)."""
        if not self.enabled:
            return
        self._task = asyncio.get_running_loop().create_task(self._listen(), name="ziggurat-bus")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo(self.engine), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    if not first:
                        await self.resync()
                    first = False
                    own = Note.origin_prefix(self.process)
                    async for notify in conn.notifies():
                        if notify.payload.startswith(own):
                            continue  # this process's own note: not even read
                        note = Note.decode(notify.payload)
                        if note is None or note.origin == self.process:
                            continue
                        self.received += 1
                        try:
                            await self.handler(note)
                        except Exception:  # one table's trouble never stops the others' news
                            log.exception(
                                "table %s: a change from another process was not applied", note.table
                            )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the database's notifications (%s); listening again", exc)
                await asyncio.sleep(RECONNECT_DELAY)

    async def stop(self) -> None:
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
