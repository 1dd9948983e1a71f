"""The event log every state keeps: one :class:`Event` per applied action.

An event is ``(actor, text, auto, seat)``: ``actor`` is the seat that chose (``CHANCE`` for
chance), ``text`` the action's canonical text, ``auto`` is true for a forced decision or a
certain chance outcome the engine applied itself, and ``seat`` is the seat the event concerns
(whose turn it was, the dealt seat, the drawer of a card ...; each game says). The log is a
cons list ``(previous, event)``, newest first, so a clone shares it in O(1) and appending
never copies. :meth:`ziggurat.engine.contract.State.events` and ``history`` read it;
:func:`log_mark` and :func:`events_since` give the events of one step.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """One applied action. A tuple, so ``actor, text, auto, seat = event`` works."""

    actor: int
    """The seat that chose, or ``CHANCE``."""
    text: str
    """The action's canonical text."""
    auto: bool
    """True if the engine applied it itself (a forced decision, a certain chance outcome)."""
    seat: int
    """The seat the event concerns (each game says which: whose turn it is, the drawer ...)."""


ConsLog = tuple[Any, Event] | None
"""``None`` (nothing applied yet) or ``(previous log, newest event)``."""


def log_events(log: ConsLog, stop: ConsLog = None) -> list[Event]:
    """The events of ``log`` after ``stop`` (one of its earlier nodes), oldest first."""
    out: list[Event] = []
    node = log
    while node is not None and node is not stop:
        node, item = node
        out.append(item)
    out.reverse()
    return out


def log_mark(state: Any) -> ConsLog:
    """An opaque marker of how far ``state``'s event log goes (for :func:`events_since`)."""
    log: ConsLog = state.log
    return log


def events_since(state: Any, mark: ConsLog) -> list[Event]:
    """Events applied to ``state`` (or to a clone it grew from) after :func:`log_mark` gave
    ``mark``, oldest first. Walks back to the mark only, so a long game costs nothing extra
    per step."""
    return log_events(state.log, mark)


__all__ = ["ConsLog", "Event", "events_since", "log_events", "log_mark"]
