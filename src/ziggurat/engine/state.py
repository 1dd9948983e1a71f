"""The base of every game's positions: :class:`State` runs the pipeline every game shares
(validation, turn check, legal-list cache, forced decisions, event log) and the game fills in
its rules, so ``apply`` either changes the state or raises one of the engine errors leaving it
untouched. Chance is explicit: at a chance node ``current_player()`` is :data:`CHANCE` and
``chance_outcomes()`` lists ``(action, p)``.

:mod:`ziggurat.engine.contract` is where games and callers import these names from, beside
:class:`~ziggurat.engine.contract.Game`. They live in a module of their own, with no
class-level rewriting, because this module and the games' rules are what the compiled build
(docs/speed.md) turns into C, and a compiled class can only derive from a compiled base. For
the same reason :meth:`State.apply` and :meth:`State.view` take ``Any``: a compiled function
checks its arguments' declared types, and these two must refuse a wrong value with the
engine's own errors.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from bisect import bisect_right
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ziggurat.engine.errors import GameOver, IllegalAction, InvalidAction, NotYourTurn
from ziggurat.engine.eventlog import KEEP_EVERY, ConsLog, Event, Kept, keep, log_events, plies_of
from ziggurat.engine.messages import message

if TYPE_CHECKING:
    pass

CHANCE: Final = -1
"""``current_player()`` at a chance node."""

TERMINAL: Final = -4
"""``current_player()`` once the game is over."""


Action = str
"""An action is its canonical text: an immutable, hashable, cheap value.

``str(action) == text`` and ``game.parse_action(text) == action`` hold for every action a
state lists; ``parse_action`` normalises loose input (spacing, ``(1, -1)``) to that text.
"""


RECENT: Final = 1 << 13
"""How many of the newest log nodes (of every game) :func:`logged` holds on to."""

_RECENT: Final[list[Any]] = [None] * (RECENT + 1)
"""The newest log nodes, in a ring, and (last item) the index of the next to replace."""


def logged(node: tuple[Any, ...]) -> tuple[Any, ...]:
    """``node``, a new log node, once held in the ring of recent nodes.

    A log node is a tuple of its previous node and four atoms, which the cyclic garbage
    collector stops tracking when it first looks at it, as long as the previous node is no
    longer tracked; but a node its successor alone refers to is seen after the successor in
    that pass, too late. Held here as well, each node is seen in the order it was made, so a
    game's log is untracked as it grows and no later pass walks it again (docs/speed.md).
    """
    ring = _RECENT
    at: int = ring[RECENT]
    ring[at] = node
    ring[RECENT] = (at + 1) & (RECENT - 1)
    return node


_RECENT[RECENT] = 0

SCAN_UP_TO: Final = 48
""":meth:`State.apply` checks an action against a legal list this long or shorter by scanning
it, and against a longer one through the set of :meth:`State._legal_lookup`."""


class State(ABC):
    """One position of a game in progress; the base does the work every game shares.

    Like OpenSpiel's base ``State``, this class runs the pipeline and the game fills in the
    rules. :meth:`apply` checks, in order: that the action is a text (``InvalidAction``), that
    the game is not over (``GameOver``), that ``seat``, when given, is one of the game's seats
    (``InvalidSeat``) and the one to move (``NotYourTurn``); then it canonicalises the text
    with ``game.parse_action`` (skipped for a text that is already a legal action: legal texts
    are canonical) and checks it against the cached legal list, so legality has one source of
    truth; a refusal is explained by :meth:`_refusal`, naming the rule. Only then does it play
    the action (:meth:`_apply_action`), log an :class:`Event` and apply every forced decision
    that follows (a decision or chance node with one alternative), logged with ``auto=True``,
    and every :data:`~ziggurat.engine.eventlog.KEEP_EVERY` chosen actions keeps a clone of the
    state beside its log (:class:`~ziggurat.engine.eventlog.Kept`), which records read.
    A refused action changes nothing.

    A game provides :meth:`current_player`, :meth:`_legal_actions`, :meth:`chance_outcomes`,
    :meth:`_apply_action`, :meth:`_refusal`, :meth:`is_terminal`, :meth:`returns`,
    :meth:`_view`, :meth:`clone` and :meth:`to_position`, and may refine :meth:`_concerned`,
    :meth:`_game_over`, :meth:`_seat_label` and :attr:`turn_rule`. Its ``clone`` copies the
    base's fields too: ``log`` (shared: it is never mutated), ``_legal`` and ``_legal_set``
    (shared until the next apply replaces them), and through :meth:`_carry_plies` ``_plies``
    and ``_kept`` when they are set.
    """

    __slots__ = ("game", "log", "_legal", "_legal_set", "_plies", "_kept")

    game: Any
    """The :class:`~ziggurat.engine.contract.Game` this state belongs to (typed loosely: each
    game's states use their own game's class, and a compiled class cannot narrow a field)."""
    log: ConsLog
    """The event log, a cons list (see :mod:`ziggurat.engine.eventlog`)."""
    _legal: list[Action] | None
    """The legal actions, computed on first use after each apply."""
    _legal_set: frozenset[Action] | None
    """The same as a set, for membership tests in :meth:`apply`."""
    _plies: int | None
    """The chosen actions in ``log``, for :meth:`apply` to keep a copy of the state every
    :data:`~ziggurat.engine.eventlog.KEEP_EVERY`: set by ``game.new_initial_state()``, carried on
    by ``clone``. ``None`` in a game line that started from a position (``state_from_position``,
    ``sample_state``: a search's determinized worlds), whose states keep nothing (no record
    starts there); unset in a state game code made otherwise, until its first apply counts it."""
    _kept: Kept | None
    """The newest copy of the state kept for records (the copies are a cons list, shared by
    clones as the log is; :mod:`ziggurat.engine.eventlog`), ``None`` before the first; set
    and unset with :attr:`_plies`."""

    turn_rule: ClassVar[str] = ""
    """The rule a ``NotYourTurn`` message cites (who decides when)."""

    # --- what a game provides -----------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat to move (0-based), :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions now (canonical texts), computed afresh; :meth:`legal_actions`
        caches them. Empty once the game is over."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(outcome, probability)`` pairs at a chance node; empty elsewhere."""

    @abstractmethod
    def _apply_action(self, action: Action) -> None:
        """Play ``action``, a canonical text known to be legal now."""

    @abstractmethod
    def _refusal(self, who: int, action: Action) -> str:
        """The message of the ``IllegalAction`` for ``action`` (canonical, not legal now):
        why not, in a player's words, naming the rule. It only explains: legality is the
        legal list's."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """One float per seat; all zeros until the game ends."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """:meth:`view` once ``seat`` is known to be valid."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def to_position(self) -> dict[str, Any]:
        """The full state as a JSON-serialisable position dict."""

    def _chance_cumulative(self) -> tuple[Sequence[Action], Sequence[float]] | None:
        """At a chance node, the outcomes' texts and their running sums of probabilities,
        added one by one in :meth:`chance_outcomes` order (so :func:`sample_chance` picks by
        bisection exactly what its linear scan picks); ``None`` (the default): scan instead.
        A game whose chance nodes have many outcomes builds these once and shares them."""
        return None

    def _concerned(self, who: int) -> int:
        """The seat the action about to be played by ``who`` concerns (an event's ``seat``)."""
        return who

    def _forced_by_secret(self) -> bool:
        """True when the decision now has one legal action only because of a secret (a card in
        hand, the tiles a peek showed, the tokens behind a screen): the engine then asks the seat
        (the only choice offered) instead of playing it itself, so whether a decision is asked
        never tells anyone else a secret. Games refine this; by default no forced decision
        depends on a secret."""
        return False

    def _game_over(self) -> str:
        """The message of the ``GameOver`` an action on a finished game raises."""
        return message("engine.gameOver")

    def _seat_label(self, seat: int) -> str:
        """How a message names ``seat`` (``CHANCE``: chance)."""
        return message("engine.chance") if seat == CHANCE else self.game.seat_names()[seat]

    def _carry_plies(self, other: State) -> None:
        """Give ``other``, this state's clone, the count of chosen actions (:attr:`_plies`), so
        that it does not count its log again on its first apply, and the copies kept for records
        (:attr:`_kept`); every game's ``clone`` calls it."""
        try:
            other._plies = self._plies
            other._kept = self._kept
        except AttributeError:  # never applied to: the clone counts its log on its first apply
            pass

    # --- the pipeline -------------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        """Actions of the player to move; at a chance node, the possible outcomes.

        The list is cached until the next apply and shared with clones: do not mutate it.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
            self._legal_set = None
        return legal

    def _legal_lookup(self) -> frozenset[Action]:
        """The legal actions as a set (cached); a game may build it faster than from the list."""
        found = self._legal_set
        if found is None:
            found = self._legal_set = frozenset(self.legal_actions())
        return found

    def apply(self, action: Any, seat: Any = None) -> None:
        """Validate and play ``action``; with ``seat``, refuse unless that seat is to move.

        :raises InvalidAction: ``action`` is not a text, or does not parse.
        :raises GameOver: the game is over.
        :raises InvalidSeat: ``seat`` is not one of the game's seats.
        :raises NotYourTurn: ``seat`` is not the one to move.
        :raises IllegalAction: the rules forbid it now; the message says which rule and why.
        """
        listed = self._legal
        if listed is not None and action.__class__ is str and len(listed) <= SCAN_UP_TO and action in listed:
            # the common case, a text of the cached legal list, needs only the seat's check: a
            # finished game lists nothing, and legal texts are canonical
            who = self.current_player()
            if seat is not None and (seat.__class__ is not int or seat != who):
                action, who = self._checked(action, seat)  # refuses it as the full checks do
        else:
            action, who = self._checked(action, seat)
        concerned = self._concerned(who)
        plies = self._plies_so_far()
        self._legal = None
        self._legal_set = None
        self._apply_action(action)
        self.log = logged((self.log, who, action, False, concerned))
        self._settle()
        self._count_chosen(plies)

    def _plies_so_far(self) -> int | None:
        """The chosen actions in the log (``_plies``), counted from the log once for a state
        game code made otherwise; ``None`` in a game line from a position."""
        try:
            return self._plies
        except AttributeError:  # a state game code made otherwise: count its log once
            plies = self._plies = None if self.log is None else plies_of(self.log)
            self._kept = None
            return plies

    def _count_chosen(self, plies: int | None) -> None:
        """One chosen action more than ``plies`` (from :meth:`_plies_so_far` before it was
        played); every :data:`~ziggurat.engine.eventlog.KEEP_EVERY` of them, a clone of the
        state is kept beside its log (:attr:`_kept`), which records read."""
        if plies is not None:  # None: a game line from a position, which no record starts from
            plies += 1
            self._plies = plies
            if not plies % KEEP_EVERY:
                self._kept = keep(self._kept, self.log, plies, self.clone())

    def _checked(self, action: object, seat: Any) -> tuple[Action, int]:
        """:meth:`apply`'s checks, in their documented order: the canonical legal text of
        ``action`` and the seat to move, or the error that refuses it."""
        if not isinstance(action, str):
            raise InvalidAction(
                message("engine.notAText", kind=type(action).__name__, value=f"{action!r:.60}")
            )
        if self.is_terminal():
            raise GameOver(self._game_over())
        who = self.current_player()
        if seat is not None and (seat.__class__ is not int or seat != who):
            seat = self.game.check_seat(seat)
            if seat != who:
                asked, mover = self._seat_label(seat), self._seat_label(who)
                raise NotYourTurn(
                    message("engine.notYourTurnRule", seat=asked, mover=mover, rule=self.turn_rule)
                    if self.turn_rule
                    else message("engine.notYourTurn", seat=asked, mover=mover)
                )
        legal: Collection[Action] | None = self._legal_set
        if legal is None:
            listed = self.legal_actions()
            # a short list is scanned (the chosen text is usually one of its own objects)
            # rather than hashed whole into a set; a long one is looked up in the game's set
            legal = listed if len(listed) <= SCAN_UP_TO and action in listed else self._legal_lookup()
        text: Action = action
        if text not in legal:  # legal texts are canonical: only other texts need parsing
            text = self.game.parse_action(text)
            if text not in legal:
                raise IllegalAction(self._refusal(who, text))
        return text, who

    def _settle(self) -> None:
        """Apply forced decisions and certain chance outcomes (one legal action) as auto events."""
        while not self.is_terminal():
            legal = self.legal_actions()
            if len(legal) != 1 or self._forced_by_secret():
                return
            only = legal[0]
            who = self.current_player()
            concerned = self._concerned(who)
            self._legal = None
            self._legal_set = None
            self._apply_action(only)
            self.log = logged((self.log, who, only, True, concerned))

    def view(self, seat: Any) -> dict[str, Any]:
        """JSON-serialisable dict of what ``seat`` may see (``None``: a spectator).

        :raises InvalidSeat: ``seat`` is neither ``None`` nor one of the game's seats.
        """
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < self.game.num_players):
            self.game.check_seat(seat, spectator=True)
        return self._view(seat)

    def events(self) -> list[Event]:
        """Every applied action in order, as :class:`Event` ``(actor, text, auto, seat)``,
        the engine's own (forced) ones included."""
        return log_events(self.log)

    def history(self) -> list[str]:
        """Canonical texts of the actions chosen by players or by chance, without the
        engine's own (auto) ones: replaying them reproduces the game."""
        texts: list[str] = []
        node = self.log
        while node is not None:
            if not node[3]:
                texts.append(node[2])
            node = node[0]
        texts.reverse()
        return texts

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def fingerprint(self) -> str:
        """Stable hash of the full state: equal states have equal fingerprints."""
        blob = json.dumps(self.to_position(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:32]


def sample_chance(state: State, rng: random.Random) -> Action:
    """Pick a chance outcome of ``state`` with the driver's seeded RNG (one draw of it)."""
    return chance_at(state, rng.random())


def chance_at(state: State, r: float) -> Action:
    """The chance outcome of ``state`` that :func:`sample_chance` picks when its RNG draws
    ``r`` (in [0, 1)): the first whose cumulative probability is above it."""
    table = state._chance_cumulative()
    if table is not None:
        texts, sums = table
        i = bisect_right(sums, r)
        return texts[i] if i < len(texts) else texts[-1]
    outcomes = state.chance_outcomes()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]
