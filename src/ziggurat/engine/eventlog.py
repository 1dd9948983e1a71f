"""The event log shared by the games whose states keep it as a cons list.

Each applied action is one event ``(actor, text, auto, seat)``: ``actor`` is the seat that
chose (``CHANCE`` for chance), ``auto`` is true for a forced decision or a certain chance
outcome the engine applied itself, and ``seat`` is the seat the event concerns (whose turn it
was, the dealt seat, ...; each game says). The log is a cons list ``(previous, event)`` so a
clone shares it in O(1) and appending never copies.
"""

from __future__ import annotations

from typing import Any

Event = tuple[int, str, bool, int]
ConsLog = tuple[Any, Event] | None


class ConsLogged:
    """Mixin giving ``events()`` and ``history()`` over a ``log`` cons list."""

    __slots__ = ()
    log: ConsLog

    def events(self) -> list[Event]:
        """Every action in order as ``(actor, text, auto, seat)``."""
        out: list[Event] = []
        node = self.log
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out

    def history(self) -> list[str]:
        """The actions chosen by players or by chance, without the engine's own (auto) ones."""
        return [e[1] for e in self.events() if not e[2]]
