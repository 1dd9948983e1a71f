"""The game contract shared by every game (see DESIGN.md, "The game contract").

A game is a :class:`Game` (static rules + options) that creates :class:`State` objects.
States are mutable; ``apply`` validates and either changes the state or raises one of the
engine errors leaving the state untouched. Chance is explicit: at a chance node
``current_player()`` is :data:`CHANCE` and ``chance_outcomes()`` lists ``(action, p)``.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

CHANCE = -1
"""``current_player()`` at a chance node."""

TERMINAL = -4
"""``current_player()`` once the game is over."""


Action = str
"""An action is its canonical text: an immutable, hashable, cheap value.

``str(action) == text`` and ``game.parse_action(text) == action`` hold for every action a
state lists; ``parse_action`` normalises loose input (spacing, ``(1, -1)``) to that text.
"""


class Game(ABC):
    """Static description of one game with its options and player count."""

    game_id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.num_players = players
        self.options = options

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first decision (often a chance node)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Canonical action for ``text``; raises :class:`InvalidAction` if it does not parse."""

    @abstractmethod
    def state_from_position(self, position: dict[str, Any]) -> State:
        """Build a state from a position dict (see the game's docs for the schema)."""

    @abstractmethod
    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        """A full state consistent with what ``seat`` sees in ``view``."""

    def seat_names(self) -> list[str]:
        """How seats are called in this game (colours, for most)."""
        return [f"seat {i}" for i in range(self.num_players)]

    def undo_barrier(self, state: State, action: str) -> bool:
        """True if playing ``action`` in ``state`` may not be taken back by an undo.

        That is the case when it is a chance outcome, reveals something hidden, or ends the
        actor's turn (the Board Game Arena notion of a savepoint). Games refine this.
        """
        return state.current_player() == CHANCE

    def invariants(self, state: State) -> list[str]:
        """Conservation checks the game declares; returns a list of violations."""
        return []

    def redact_record(self, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A record with every hidden detail replaced as ``seat`` would see it."""
        return record


class State(ABC):
    """One position of a game in progress."""

    game: Game

    @abstractmethod
    def current_player(self) -> int:
        """Seat to move (0-based), :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Actions of the player to move; at a chance node, the possible outcomes."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(outcome, probability)`` pairs at a chance node; empty elsewhere."""

    @abstractmethod
    def apply(self, action: str, seat: int | None = None) -> None:
        """Validate and play ``action``; with ``seat``, refuse (``NotYourTurn``) unless that
        seat is the one to move."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """One float per seat; all zeros until the game ends."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-serialisable dict of what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def history(self) -> list[str]:
        """Canonical texts of every applied action, chance outcomes included."""

    @abstractmethod
    def to_position(self) -> dict[str, Any]:
        """The full state as a JSON-serialisable position dict."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def fingerprint(self) -> str:
        """Stable hash of the full state: equal states have equal fingerprints."""
        blob = json.dumps(self.to_position(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:32]


def sample_chance(state: State, rng: random.Random) -> Action:
    """Pick a chance outcome of ``state`` with the driver's seeded RNG."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]
