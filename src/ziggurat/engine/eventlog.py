"""The event log every state keeps: one :class:`Event` per applied action.

An event is ``(actor, text, auto, seat)``: ``actor`` is the seat that chose (``CHANCE`` for
chance), ``text`` the action's canonical text, ``auto`` is true for a forced decision or a
certain chance outcome the engine applied itself, and ``seat`` is the seat the event concerns
(whose turn it was, the dealt seat, the drawer of a card ...; each game says). The log is a
cons list of nodes ``(previous, actor, text, auto, seat)``, newest first, so a clone shares it
in O(1) and appending never copies. :meth:`ziggurat.engine.contract.State.events` and
``history`` read it; :func:`log_mark` and :func:`events_since` give the events of one step.

A node is a plain tuple of its previous node and four atoms (ints, a text, a bool), made in
one allocation: Python's cyclic garbage collector stops tracking such a tuple the first time it
looks at it, so a long game's log is not walked again and again by its passes. Readers use
:func:`event_of` (or the node's items 1 to 4), never the node's shape.

Every :data:`KEEP_EVERY` chosen actions the state also keeps a frozen copy of itself, so that a
record's fingerprints are read instead of replaying the game (:mod:`ziggurat.engine.records`):
a :class:`Kept` naming the log node it was made at, in a short list of its own that the state
carries beside its log (:func:`kept_of`), so that no log node refers to a state.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple


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


ConsLog = tuple[Any, ...] | None
"""``None`` (nothing applied yet) or a node ``(previous log, actor, text, auto, seat)``: the
newest event's four fields after the log before it."""


KEEP_EVERY: Final = 50
"""A state keeps a copy of itself every this many chosen (non-auto) actions, counted from the
start of its log: the plies a record carries fingerprints at."""

_event = tuple.__new__
"""Makes an :class:`Event` from its four fields without the named tuple's own ``__new__``."""


def event_of(node: tuple[Any, ...]) -> Event:
    """The :class:`Event` a log node (not ``None``) holds."""
    return _event(Event, node[1:])  # type: ignore[no-any-return]


class Kept:
    """A copy of a state kept for records: made after ``ply`` chosen actions (and the forced
    ones after the last of them), when the state's log was ``node``, until its fingerprint is
    worked out (then only the fingerprint is kept). ``previous`` is the copy kept before it:
    a state's copies are a cons list too, newest first, shared by its clones as its log is.
    Made by :func:`keep` only.
    """

    __slots__ = ("fingerprint_cache", "node", "ply", "previous", "state")

    def __init__(self, previous: Kept | None, node: ConsLog, ply: int, state: Any) -> None:
        self.previous = previous
        self.node = node
        """The log node the copy was made at: a record finds its copies by these nodes."""
        self.ply = ply
        """Chosen actions in the log up to and with :attr:`node`."""
        self.state = state
        """A copy of the state at :attr:`node`, never applied to (clone it to go on); ``None``
        once :meth:`fingerprint` has been worked out (a fingerprint is all a record needs)."""
        self.fingerprint_cache: str | None = None

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


def keep(previous: Kept | None, node: ConsLog, ply: int, state: Any) -> Kept:
    """A :class:`Kept` holding ``state``, a copy made at log ``node`` after ``ply`` chosen
    actions, newer than ``previous``; the state's list of copies is then set to it."""
    return Kept(previous, node, ply, state)


def kept_of(state: Any) -> Kept | None:
    """The newest copy ``state`` keeps for records (``None``: none, or a state that keeps
    none)."""
    found: Kept | None = getattr(state, "_kept", None)
    return found


def plies_of(log: ConsLog, kept: Kept | None = None) -> int:
    """How many chosen (non-auto) events ``log`` holds: counted back to the node of ``kept``
    (a copy the state kept, which knows its count) when the log goes through it, so a log
    that keeps copies costs at most :data:`KEEP_EVERY` steps."""
    count = 0
    stop = None if kept is None else kept.node
    node = log
    while node is not None:
        if node is stop:
            return count + kept.ply  # type: ignore[union-attr]
        if not node[3]:
            count += 1
        node = node[0]
    return count


def log_events(log: ConsLog, stop: ConsLog = None) -> list[Event]:
    """The events of ``log`` after ``stop`` (one of its earlier nodes), oldest first."""
    out: list[Event] = []
    node = log
    while node is not None and node is not stop:
        out.append(_event(Event, node[1:]))
        node = node[0]
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
    "event_of",
    "events_since",
    "keep",
    "kept_of",
    "log_events",
    "log_mark",
    "plies_of",
]
