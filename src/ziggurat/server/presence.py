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

from collections.abc import Iterable
from typing import Any

GONE_AFTER = 15.0
"""Seconds without a heartbeat after which another process's sockets no longer count."""


class Elsewhere:
    """The seats each other process last said it has a socket of, for one table."""

    def __init__(self) -> None:
        self.by_process: dict[str, frozenset[int]] = {}

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
