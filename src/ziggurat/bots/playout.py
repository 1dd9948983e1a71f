"""What ISMCTS does below its tree: a playout policy for a few plies, then an evaluation.

Playouts happen in determinized worlds (states sampled from the searcher's view), never in
the real game, so a policy may read any seat's view of such a world.

- :class:`RandomPlayout`: uniformly random legal actions.
- :class:`HeuristicPlayout`: the game's own heuristic bot (``game.hooks.heuristic_bot``) for
  every seat, fresh for each playout. The bots decide from views of the sampled world; a
  game may offer ``hooks.rollout_view(state, seat)``, a cheaper stand-in for
  ``state.view(seat)`` that gives its heuristic what it reads (Mare Nostrum's view copies the
  whole position twice, its heuristic needs a fraction), and ``hooks.make_playout_bots(game)``,
  a factory of such bots sharing caches for one search (Mesopotamia's distance maps).
  ``start(plan=(seat, name))`` has one seat follow one of the game's plans instead
  (:func:`find_plans`) for that playout, and ``follow(seat, name)`` has the searching seat
  follow one of its policies (:func:`find_policies`) in every playout (``own=NAME``).
  A bot that declares ``repeatable = True`` (its choice depends on the view and the legal
  list alone, and on the rng only through the calls it makes) has its choices remembered for
  the search: the playouts of one search meet the same decisions again and again (the
  candidates of a paired round play out one world with one luck), and a decision that drew
  nothing from the rng is answered from memory the next time, with the same choice and the
  rng untouched, so the playouts are the same as without the memory. A decision is known by
  a digest of its pickled inputs, or, when the view offers ``memo_key()`` (a hashable value,
  equal for two views exactly when their pickles are: Epochs' ``PlayoutView``, its facts), by
  that value itself, which costs a fraction of the pickling.

The evaluation is the game's ``hooks.evaluate(state) -> list[float]`` (one value in [0, 1]
per seat, an estimate of each seat's chance to win), declared with the game's other hooks
(:class:`ziggurat.engine.hooks.GameHooks`); ``hooks.make_evaluator()``, when declared, gives
the same function with caches that live as long as one searcher. A game without an evaluator
gets ``1 / n`` for every seat, so search then relies on the playouts that reach the end.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from ziggurat.engine.contract import Game, State
from ziggurat.engine.hooks import Evaluator


def win_chances(scores: Sequence[float], temperature: float) -> list[float]:
    """Softmax of ``scores / temperature``: values in [0, 1] that sum to 1. The games'
    evaluators turn their per-seat scores into chances to win with it."""
    top = max(scores)
    exps = [math.exp((x - top) / temperature) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]


def find_evaluator(game: Game) -> Evaluator:
    """The game's evaluator: ``hooks.make_evaluator()`` (one with caches for a search) if
    declared, else ``hooks.evaluate``; a neutral ``1 / n`` for every seat when the game has
    no evaluator."""
    hooks = game.hooks
    if hooks.make_evaluator is not None:
        return hooks.make_evaluator.get()()
    if hooks.evaluate is not None:
        return hooks.evaluate.get()
    n = game.num_players

    def neutral(state: State) -> list[float]:
        return [1.0 / n] * n

    return neutral


def find_final(game: Game) -> Evaluator:
    """The reward of a finished playout: the game's ``hooks.final(state)`` if it has one
    (the returns blended with the winning margin: less noise for a paired root to compare),
    else ``state.returns()``."""
    hook = game.hooks.final
    if hook is not None:
        return hook.get()

    def returns(state: State) -> list[float]:
        return state.returns()

    return returns


def find_chance_key(game: Game) -> Callable[[State], Hashable] | None:
    """The game's ``hooks.chance_key(state)``: at a chance node, what the event is in the
    game's terms (an attack on an area by a People in an Epoch, the next card drawn in an
    Epoch), so that the n-th such event of a paired round draws the same luck after every
    candidate (see :class:`ziggurat.bots.search.Luck`); ``None`` for an event without a
    key, or if the game has no such function."""
    hook = game.hooks.chance_key
    return hook.get() if hook is not None else None


def find_phase(game: Game) -> Callable[[State], Hashable] | None:
    """The game's ``hooks.phase_of(state)``: a value that changes when a phase of play ends
    (a turn, a round, a buy phase), where playouts stop to evaluate; ``None`` if it has none."""
    hook = game.hooks.phase_of
    return hook.get() if hook is not None else None


def has_evaluator(game: Game) -> bool:
    """True if the game declares an evaluator (else :func:`find_evaluator` is neutral)."""
    return game.hooks.evaluate is not None or game.hooks.make_evaluator is not None


def search_defaults(game: Game) -> dict[str, Any]:
    """The game's tuned search settings (``hooks.search_defaults``: ``c``, ``plies``, ``batch``,
    ``confidence``, ``root``, ``width``, ``depth``, ``chance``), updated with those for the game's
    player count (``hooks.search_defaults_by_players[n]``), or ``{}``."""
    hooks = game.hooks
    out = dict(hooks.search_defaults.get()) if hooks.search_defaults is not None else {}
    if hooks.search_defaults_by_players is not None:
        out.update(hooks.search_defaults_by_players.get().get(game.num_players, {}))
    return out


Plan = Callable[[Game, int], Any]
"""A plan: makes a bot (``choose(view, legal, rng)``) for one seat of a game."""


def find_plans(game: Game) -> dict[str, Plan]:
    """The game's plans, ``hooks.plans``: other heuristic bots, each playing to a different
    plan (Mare Nostrum's raider), that a paired root may follow for the searching seat in a
    candidate's playouts (policy switching: docs/bots.md, "Plans"). ``{}`` if it has none."""
    hook = game.hooks.plans
    return dict(hook.get()) if hook is not None else {}


def find_policies(game: Game) -> dict[str, Plan]:
    """The game's playout policies that the searching seat may follow in every playout
    (``own=NAME``): its plans (:func:`find_plans`) and ``hooks.policies`` (2-player Epochs'
    successor: docs/bots.md, "Own-seat policy"). ``{}`` if it has none."""
    hook = game.hooks.policies
    return {**find_plans(game), **(hook.get() if hook is not None else {})}


class Playout(Protocol):
    """A playout policy; :meth:`start` is called before each playout, with ``plan`` (a seat
    and the name of one of the game's plans) when that seat follows the plan in it."""

    name: str

    def start(self, plan: tuple[int, str] | None = None) -> None: ...

    def choose(self, state: State, who: int, legal: Sequence[str], rng: random.Random) -> str: ...


class RandomPlayout:
    name = "random"

    def start(self, plan: tuple[int, str] | None = None) -> None:
        return None

    def choose(self, state: State, who: int, legal: Sequence[str], rng: random.Random) -> str:
        return legal[rng.randrange(len(legal))]


MEMORY = 50_000
"""Choices a :class:`HeuristicPlayout` remembers (see the module docstring); when full, it
starts afresh; a search forgets them when it ends (:meth:`HeuristicPlayout.forget`)."""

PROBE = 512
RESTS = 8
MIN_HITS = 0.15
"""Digesting a decision costs a little: the memory is consulted for :data:`PROBE` decisions,
and if fewer than :data:`MIN_HITS` of them were found there, left aside for ``RESTS`` times
as many (where the searches meet few decisions twice: Mare Nostrum's many small ones, 2-player
Epochs); then it is tried again."""


class _Watched:
    """An rng that notes whether anything drew from it (a choice that did is not remembered)."""

    __slots__ = ("rng", "drawn")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.drawn = False

    def __getattr__(self, name: str) -> Any:
        self.drawn = True
        return getattr(self.rng, name)


class HeuristicPlayout:
    """The game's heuristic bot plays every seat of the sampled world, but the seat that
    :meth:`follow` names, which plays its own policy."""

    name = "heuristic"

    def __init__(self, game: Game, memory: int = MEMORY) -> None:
        """``memory``: how many choices to remember at most (0: none; module docstring)."""
        hooks = game.hooks
        if hooks.heuristic_bot is None:
            raise ValueError(f"{game.game_id} has no heuristic bot for playouts; use rollout=random")
        self._cls: Any = hooks.heuristic_bot.get()
        self.game = game
        self._view: Callable[[State, int], dict[str, Any]] | None = (
            hooks.rollout_view.get() if hooks.rollout_view is not None else None
        )
        factory = hooks.make_playout_bots
        self._new: Callable[[int], Any] = factory.get()(game) if factory is not None else self._plain
        self._bots: list[Any] = [None] * game.num_players
        self._labels: list[str] = [""] * game.num_players  # the policy each seat plays
        self._policies = find_policies(game)
        self._own: tuple[int, str] | None = None
        self._memory: dict[Hashable, str] = {}  # a decision's key or digest -> the choice
        self._capacity = memory
        self.remembered = 0
        """Choices answered from memory so far."""
        self._asked = self._found = self._resting = 0  # see PROBE

    def follow(self, seat: int, name: str | None) -> None:
        """From the next :meth:`start` on, ``seat`` plays the game's policy ``name`` (one of
        :func:`find_policies`) in every playout, unless a plan is given there; ``None``: the
        heuristic.

        :raises ValueError: for a name the game does not have, listing those it has."""
        if name is not None and name not in self._policies:
            names = ", ".join(["heuristic", *sorted(self._policies)])
            raise ValueError(f"{self.game.game_id} has no playout policy {name!r} for own=; choose {names}")
        self._own = (seat, name) if name is not None else None

    def _plain(self, seat: int) -> Any:
        return self._cls(self.game, seat)

    def start(self, plan: tuple[int, str] | None = None) -> None:
        # Fresh bots for each playout: a heuristic bot's memory (Mesopotamia's "phase is
        # closing", its distance cache keyed by the tile count) belongs to one world.
        self._bots = [None] * self.game.num_players
        self._labels = [""] * self.game.num_players
        for chosen in (self._own, plan):
            if chosen is not None:
                seat, name = chosen
                self._bots[seat] = self._policies[name](self.game, seat)
                self._labels[seat] = name

    def choose(self, state: State, who: int, legal: Sequence[str], rng: random.Random) -> str:
        bot = self._bots[who]
        if bot is None:
            bot = self._bots[who] = self._new(who)
        view = None
        if bot.needs_view:
            view = self._view(state, who) if self._view is not None else state.view(who)
        if len(legal) < 2 or not self._capacity or not getattr(bot, "repeatable", False) or self._rest():
            choice: str = bot.choose(view, legal, rng)
            return choice
        # the policy, the seat, the view and the legal list: all the choice depends on
        key: Hashable
        memo_key = getattr(view, "memo_key", None)
        if memo_key is not None:
            key = (self._labels[who], who, memo_key(), tuple(legal))
        else:
            blob = pickle.dumps((self._labels[who], who, view, list(legal)), pickle.HIGHEST_PROTOCOL)
            key = hashlib.blake2b(blob, digest_size=16).digest()
        got = self._memory.get(key)
        if got is not None:
            self._found += 1
            self.remembered += 1
            return got
        watched = _Watched(rng)
        choice = bot.choose(view, legal, watched)
        if not watched.drawn:
            if len(self._memory) >= self._capacity:
                self._memory.clear()
            self._memory[key] = choice
        return choice

    def __len__(self) -> int:
        """How many choices are remembered now."""
        return len(self._memory)

    def forget(self) -> None:
        """Forget the remembered choices (a search has ended: the next one meets decisions
        of its own, and a bot kept between decisions holds no memory meanwhile)."""
        self._memory.clear()

    def _rest(self) -> bool:
        """True while the memory is left aside (:data:`PROBE`); counts this decision."""
        if self._resting:
            self._resting -= 1
            return True
        self._asked += 1
        if self._asked >= PROBE:
            if self._found < MIN_HITS * self._asked:
                self._resting = RESTS * PROBE
            self._asked = self._found = 0
        return False


def make_playout(kind: str, game: Game) -> Playout:
    """``heuristic`` (the game's bot) or ``random``.

    :raises ValueError: for another kind, or ``heuristic`` for a game without such a bot.
    """
    if kind == "random":
        return RandomPlayout()
    if kind == "heuristic":
        return HeuristicPlayout(game)
    raise ValueError(f"unknown playout policy {kind!r}; choose heuristic or random")


__all__ = [
    "Evaluator",
    "HeuristicPlayout",
    "Plan",
    "Playout",
    "RandomPlayout",
    "find_chance_key",
    "find_evaluator",
    "find_final",
    "find_phase",
    "find_plans",
    "find_policies",
    "has_evaluator",
    "make_playout",
    "search_defaults",
]
