"""Which seats of a table have a socket open, across server processes (docs/server.md,
"Presence").

Each process knows its own sockets. With several processes on one PostgreSQL database
(docs/server.md, "Several processes"), a process tells the others which seats of a table have a
socket open *here* whenever that set changes, with a ``presence`` note on the bus
(``server/bus.py``): ``{"s": [seats], "ask": bool}``. The others keep what each process last
said (:class:`Elsewhere`) and count a seat connected if a socket of it is open in any process.

- A process that starts serving a table (its first socket there) asks (``ask``): every process
  holding sockets of that table answers with its own set, so the newcomer learns who is there.
- A process that stops cleanly says it holds nobody; one that dies is forgotten once its
  heartbeat is older than :data:`GONE_AFTER` seconds (the table manager checks every heartbeat).

SQLite serves one process: nothing is sent, and :class:`Elsewhere` stays empty.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ziggurat.server.bus import Note

if TYPE_CHECKING:
    from ziggurat.server.live import LiveTable

GONE_AFTER = 15.0
"""Seconds without a heartbeat after which another process's sockets no longer count."""


class Elsewhere:
    """The seats each other process last said it has a socket of, for one table."""

    def __init__(self) -> None:
        self.by_process: dict[str, frozenset[int]] = {}
        self.sending: set[asyncio.Task[None]] = set()  # this table's notes being sent

    def seats(self) -> set[int]:
        out: set[int] = set()
        for seats in self.by_process.values():
            out |= seats
        return out

    def heard(self, process: str, data: Any, players: int) -> bool:
        """Take in a ``presence`` note's ``data`` from ``process``; answer whether it asks
        for this process's own set. A malformed note changes nothing."""
        if not isinstance(data, dict):
            return False
        raw = data.get("s")
        if not isinstance(raw, list):
            return False
        seats = frozenset(s for s in raw if isinstance(s, int) and 0 <= s < players)
        if seats:
            self.by_process[process] = seats
        else:
            self.by_process.pop(process, None)
        return data.get("ask") is True

    def forget(self, alive: Iterable[str]) -> bool:
        """Forget the processes not in ``alive``; answer whether anything was forgotten."""
        keep = set(alive)
        gone = [p for p in self.by_process if p not in keep]
        for p in gone:
            del self.by_process[p]
        return bool(gone)


def note_data(seats: Iterable[int], ask: bool) -> dict[str, Any]:
    """A ``presence`` note's data: the seats with a socket open in this process."""
    return {"s": sorted(seats), "ask": ask}


def share(table: LiveTable, ask: bool = False, seats: set[int] | None = None) -> None:
    """Tell the other processes which seats of ``table`` have a socket here (``seats``,
    default ``table.here()``), without waiting; ``ask``: they answer with theirs (PostgreSQL
    only)."""
    if not table.store.postgres:
        return
    data = note_data(table.here() if seats is None else seats, ask)
    note = Note(table.origin, table.id, "presence", table.revision, data=data).encode()
    task = asyncio.get_running_loop().create_task(table.store.run(table.store.publish, note))
    table.elsewhere.sending.add(task)
    task.add_done_callback(table.elsewhere.sending.discard)


def heard(table: LiveTable, note: Note) -> None:
    """Another process told which seats of ``table`` have a socket there: the sockets here
    are told if a seat's presence changed, and a question is answered."""
    before = table.presence()
    if table.elsewhere.heard(note.origin, note.data, table.game.num_players) and table.here():
        share(table)
    if table.presence() != before:
        table._tell_presence()


def forget(table: LiveTable, alive: set[str]) -> None:
    """The processes not in ``alive`` stopped: their sockets no longer count at ``table``."""
    before = table.presence()
    if table.elsewhere.forget(alive) and table.presence() != before:
        table._tell_presence()


async def settle(table: LiveTable) -> None:
    """Wait until ``table``'s presence notes under way are sent (before it closes)."""
    if table.elsewhere.sending:
        await asyncio.gather(*table.elsewhere.sending, return_exceptions=True)
