"""How the searching seat sees a move: the keys of the ISMCTS tree.

Single-observer ISMCTS grows one tree for the seat that searches (the *observer*). A node of
that tree is an information set of the observer, so an edge must be labelled with what the
observer would see of the move, never with more:

- the observer's own decisions are keyed by their action text (it knows what it did);
- another seat's decision is keyed by the text the observer would read in its log, e.g.
  Mesopotamia's ``offer ?`` for a hidden offering value or Mare Nostrum's ``offer ?`` for a
  secret trade offer: every hidden alternative of that move is one edge (the "partially
  observable moves" refinement of Cowling, Powley and Whitehouse, 2012);
- a chance outcome is keyed the same way: another seat's card draw is ``card ?``, a public
  tile draw is its text.

The log texts come from the game's own redactor, ``game.hooks.redact_events(events, seat)``
(the function the server uses for each seat's log). A game without one is taken to have
public moves only, and every move is keyed by its text.
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import Game, State
from ziggurat.engine.eventlog import Event, event_of
from ziggurat.engine.hooks import Redactor


def find_redactor(game: Game) -> Redactor | None:
    """The game's redactor (``game.hooks.redact_events``), or ``None`` if it has none."""
    hook = game.hooks.redact_events
    return hook.get() if hook is not None else None


class Observer:
    """Tree keys for one observer seat; decision keys are cached per ``(actor, action)``."""

    __slots__ = ("seat", "_redact", "_cache")

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self._redact = find_redactor(game)
        self._cache: dict[tuple[int, str], str] = {}

    def decision_key(self, actor: int, action: str) -> str:
        """What the observer sees of ``actor`` choosing ``action``."""
        if actor == self.seat or self._redact is None:
            return action
        key = (actor, action)
        got = self._cache.get(key)
        if got is None:
            # the seat concerned by a decision is the one who takes it (all three games)
            got = self._cache[key] = self._redact([Event(actor, action, False, actor)], self.seat)[0]
        return got

    def mark(self, state: State) -> Any:
        """An opaque marker of the state's event log, for :meth:`chance_key`."""
        return state.log

    def chance_key(self, state: State, mark: Any, outcome: str) -> str:
        """What the observer sees of chance outcome ``outcome``, just applied to ``state``.

        The game's log says whom the outcome concerns (the drawer of a card, say), so the key
        is read from the first event logged since ``mark``.
        """
        if self._redact is None:
            return outcome
        event = _first_event_since(state, mark)
        if event is None:
            return outcome
        return self._redact([event], self.seat)[0]


def _first_event_since(state: State, mark: Any) -> Event | None:
    # the log is a cons list (previous, actor, text, auto, seat), newest first: walk back to
    # the mark
    first: Any = None
    node: Any = state.log
    while node is not None and node is not mark:
        first = node
        node = node[0]
    return None if first is None else event_of(first)


__all__ = ["Observer", "find_redactor"]
