"""The event log every state keeps: one :class:`Event` per applied action.

An event is ``(actor, text, auto, seat)``: ``actor`` is the seat that chose (``CHANCE`` for
chance), ``text`` the action's canonical text, ``auto`` is true for a forced decision or a
certain chance outcome the engine applied itself, and ``seat`` is the seat the event concerns
(whose turn it was, the dealt seat, the drawer of a card ...; each game says). The log is a
cons list ``(previous, event)``, newest first, so a clone shares it in O(1) and appending
never copies. :meth:`ziggurat.engine.contract.State.events` and ``history`` read it;
:func:`log_mark` and :func:`events_since` give the events of one step.

Every :data:`KEEP_EVERY` chosen actions the state also keeps a frozen copy of itself in its log
(a :class:`Kept` node, still a ``(previous, event)`` pair for every reader), so that a record's
fingerprints are read from the log instead of replaying the game (:mod:`ziggurat.engine.records`).
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


KEEP_EVERY = 50
"""A state keeps a copy of itself every this many chosen (non-auto) actions, counted from the
start of its log: the plies a record carries fingerprints at."""


class Kept(tuple[Any, Event]):
    """A log node ``(previous, event)`` after which the state had played ``ply`` chosen actions
    (the forced ones after the last included), with a frozen copy of the state then, until its
    fingerprint is worked out (then only the fingerprint is kept).

    A tuple, so it reads as any other node; being a subclass it carries attributes too, and only
    one node in :data:`KEEP_EVERY` chosen actions is one. Made by :func:`keep` only.
    """

    ply: int
    """Chosen actions in the log up to and with this node."""
    state: Any
    """A copy of the state at this node, never applied to (clone it to go on); ``None`` once
    :meth:`fingerprint` has been worked out (a fingerprint is all a record needs)."""
    fingerprint_cache: str | None = None

    def fingerprint(self) -> str:
        """The kept state's fingerprint, worked out on first use (the copy is then let go)."""
        found = self.fingerprint_cache
        if found is None:
            state = self.state
            if state is None:  # another thread has just worked it out
                return self.fingerprint_cache  # type: ignore[return-value]
            found = self.fingerprint_cache = state.fingerprint()
            self.state = None  # after the cache is set: a thread reading None finds it
        return found


def keep(node: tuple[Any, Event], ply: int, state: Any) -> Kept:
    """``node`` (a state's newest log node) as a :class:`Kept` node holding ``state``, a copy of
    that state made at ``ply`` chosen actions; the state's ``log`` is then set to it."""
    kept = Kept(node)
    kept.ply = ply
    kept.state = state
    return kept


def plies_of(log: ConsLog) -> int:
    """How many chosen (non-auto) events ``log`` holds: counted back to the newest
    :class:`Kept` node only (it knows its count), so a log that keeps copies costs at most
    :data:`KEEP_EVERY` steps."""
    count = 0
    node = log
    while node is not None:
        if node.__class__ is Kept:
            return count + node.ply  # type: ignore[union-attr]
        node, event = node
        if not event[2]:
            count += 1
    return count


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


__all__ = [
    "KEEP_EVERY",
    "ConsLog",
    "Event",
    "Kept",
    "events_since",
    "keep",
    "log_events",
    "log_mark",
    "plies_of",
]
