"""The game contract shared by every game (docs/architecture.md).

A game is a :class:`Game` (static rules + options, its metadata and its declared
:class:`~ziggurat.engine.hooks.GameHooks`) that creates :class:`State` objects. States are
mutable; the base :class:`State` runs the pipeline every game shares (validation, turn check,
legal-list cache, forced decisions, event log) and the game fills in its rules, so ``apply``
either changes the state or raises one of the engine errors leaving it untouched. Chance is
explicit: at a chance node ``current_player()`` is :data:`CHANCE` and ``chance_outcomes()``
lists ``(action, p)``.
"""

from __future__ import annotations

import functools
import numbers
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from ziggurat.engine.errors import InvalidSeat
from ziggurat.engine.eventlog import plies_of
from ziggurat.engine.hooks import GameHooks
from ziggurat.engine.messages import DEFAULT_LANG, catalogue, message, noun
from ziggurat.engine.state import CHANCE, SCAN_UP_TO, TERMINAL, Action, State, sample_chance

__all__ = ["CHANCE", "SCAN_UP_TO", "TERMINAL", "Action", "Game", "State", "sample_chance"]


class Game(ABC):
    """Static description of one game with its options and player count.

    A game declares what it is (the class attributes below, OpenSpiel's ``GameType`` and
    ``GameInfo``) and what it offers beyond its states (:attr:`hooks`) in one place, its
    ``Game`` subclass; nothing finds a game's parts by module name.
    """

    game_id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    constant_sum: ClassVar[bool] = False
    """True if every end pays the seats the same total (their returns sum to 1.0)."""
    max_game_length: ClassVar[int] = 10_000
    """A cap on player decisions (chance outcomes and forced moves not counted) for drivers
    that need a finite bound (OpenSpiel); the rules themselves may not bound the game."""
    utility_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    """The least and the most one seat's return can be."""
    hooks: ClassVar[GameHooks] = GameHooks()
    """What the game offers beyond its states (bots, renderers, codecs ...), imported on
    first use; a hook the game does not offer is ``None``."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.num_players = players
        self.options = options

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap the state makers a game defines so that their states know whether they keep
        copies for records (:attr:`State._plies`): a game from its set-up does, one from a
        position does not."""
        super().__init_subclass__(**kwargs)
        for name, plies in _PLIES_OF_MADE.items():
            own = cls.__dict__.get(name)
            if own is not None:
                setattr(cls, name, _marking(own, plies))

    @classmethod
    def recorded_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The options to load a game stored with ``options`` (a record's, a stored table's).

        A game whose defaults changed fills in, for options stored before the change, the
        defaults they were played under, so that old records still replay; by default the
        stored options are used as they are.
        """
        return dict(options)

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

    def seat_label(self, seat: int) -> str:
        """How a sentence names ``seat`` before anything of the game is known (the terminal's
        headers and prompts): its name from :meth:`seat_names`, capitalised. A game may return a
        :class:`~ziggurat.engine.messages.Message` so that it reads in every language."""
        return self.seat_names()[seat].capitalize()

    def title(self) -> str:
        """The game's name as a message (``game.<id>`` in the engine's catalogue), or :attr:`name`."""
        key = f"game.{self.game_id}"
        return noun("game", self.game_id) if key in catalogue(DEFAULT_LANG) else self.name

    def check_seat(self, seat: object, spectator: bool = False) -> int:
        """``seat`` as an ``int`` if it is one of the game's seats (0 to n-1).

        :raises InvalidSeat: for anything else (``bool`` and ``str`` included), naming the
            range; ``spectator`` adds that ``None`` (a spectator) is allowed where it is.
        """
        if not isinstance(seat, bool) and isinstance(seat, numbers.Integral):
            index = int(seat)
            if 0 <= index < self.num_players:
                return index
        shown, game, players, last = f"{seat!r:.40}", self.game_id, self.num_players, self.num_players - 1
        if spectator:
            raise InvalidSeat(
                message("engine.badSeatOrSpectator", seat=shown, game=game, players=players, last=last)
            )
        raise InvalidSeat(message("engine.badSeat", seat=shown, game=game, players=players, last=last))

    def undo_barrier(self, state: State, action: str, after: State | None = None) -> bool:
        """True if playing ``action`` in ``state`` may not be taken back by an undo.

        That is the case when it is a chance outcome, reveals something hidden, or ends the
        actor's turn (the Board Game Arena notion of a savepoint). Games refine this. ``after``,
        when the caller has it, is ``state`` with ``action`` played (on a clone: ``state`` is
        unchanged), so that a game that looks at the outcome need not play it again.
        """
        return state.current_player() == CHANCE

    def invariants(self, state: State) -> list[str]:
        """Conservation checks the game declares; returns a list of violations."""
        return []

    def redact_record(self, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A record with every hidden detail replaced as ``seat`` would see it.

        By default its chosen actions go through the game's ``hooks.redact_events`` (the
        record itself for a game without one); a game whose secrets a later action reveals
        again (Mare Nostrum's trade offers) refines this.
        """
        hook = self.hooks.redact_events
        if hook is None:
            return record
        from ziggurat.engine.records import redacted_copy, replay

        chosen = [e for e in replay(record).events() if not e.auto]
        viewer = None if seat is None else self.seat_names()[self.check_seat(seat)]
        return redacted_copy(record, hook.get()(chosen, seat), viewer)


_PLIES_OF_MADE: dict[str, Callable[[State], int | None]] = {
    "new_initial_state": lambda state: plies_of(state.log),
    "state_from_position": lambda state: None,
    "sample_state": lambda state: None,
}
"""The count of chosen actions (:attr:`State._plies`) of a state each :class:`Game` method makes."""


def _marking(make: Callable[..., State], plies: Callable[[State], int | None]) -> Callable[..., State]:
    """``make`` (a :class:`Game` method), then ``plies`` of the state made set on it."""

    @functools.wraps(make)
    def marking(self: Game, *args: Any, **kwargs: Any) -> State:
        state = make(self, *args, **kwargs)
        state._plies = plies(state)
        state._kept = None
        return state

    return marking
