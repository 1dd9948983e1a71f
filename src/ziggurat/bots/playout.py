"""What ISMCTS does below its tree: a playout policy for a few plies, then an evaluation.

Playouts happen in determinized worlds (states sampled from the searcher's view), never in
the real game, so a policy may read any seat's view of such a world.

- :class:`RandomPlayout`: uniformly random legal actions.
- :class:`HeuristicPlayout`: the game's own ``bots.HeuristicBot`` for every seat, fresh for
  each playout. The bots decide from views of the sampled world; a game may offer
  ``evaluate.rollout_view(state, seat)``, a cheaper stand-in for ``state.view(seat)`` that
  gives its heuristic what it reads (Mare Nostrum's view copies the whole position twice,
  its heuristic needs a fraction), and ``evaluate.make_playout_bots(game)``, a factory of
  such bots sharing caches for one search (Mesopotamia's distance maps).
  ``start(plan=(seat, name))`` has one seat follow one of the game's plans instead
  (:func:`find_plans`) for that playout, and ``follow(seat, name)`` has the searching seat
  follow one of its policies (:func:`find_policies`) in every playout (``own=NAME``).

The evaluation is the game's ``evaluate.evaluate(state) -> list[float]`` (one value in [0, 1]
per seat, an estimate of each seat's chance to win), found by convention through the
registry like the heuristic bot; ``evaluate.make_evaluator()``, when present, gives the same
function with caches that live as long as one searcher. A game without an ``evaluate``
module gets ``1 / n`` for every seat, so search then relies on the playouts that reach the
end.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType
from typing import Any, Protocol

from ziggurat.engine.contract import Game, State
from ziggurat.engine.registry import game_package

Evaluator = Callable[[State], list[float]]


def win_chances(scores: Sequence[float], temperature: float) -> list[float]:
    """Softmax of ``scores / temperature``: values in [0, 1] that sum to 1. The games'
    evaluators turn their per-seat scores into chances to win with it."""
    top = max(scores)
    exps = [math.exp((x - top) / temperature) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _game_module(game: Game, name: str) -> ModuleType | None:
    full = f"{game_package(game.game_id)}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as exc:
        if exc.name != full:
            raise
        return None


def find_evaluator(game: Game) -> Evaluator:
    """The game's evaluator: ``evaluate.make_evaluator()`` (one with caches for a search)
    if the module has it, else ``evaluate.evaluate``; a neutral ``1 / n`` for every seat
    when the game has no ``evaluate`` module."""
    module = _game_module(game, "evaluate")
    if module is not None:
        factory = getattr(module, "make_evaluator", None)
        if factory is not None:
            made: Evaluator = factory()
            return made
        found: Evaluator | None = getattr(module, "evaluate", None)
        if found is not None:
            return found
    n = game.num_players

    def neutral(state: State) -> list[float]:
        return [1.0 / n] * n

    return neutral


def find_final(game: Game) -> Evaluator:
    """The reward of a finished playout: the game's ``evaluate.final(state)`` if it has one
    (the returns blended with the winning margin: less noise for a paired root to compare),
    else ``state.returns()``."""
    module = _game_module(game, "evaluate")
    found: Evaluator | None = getattr(module, "final", None) if module else None
    if found is not None:
        return found

    def returns(state: State) -> list[float]:
        return state.returns()

    return returns


def find_chance_key(game: Game) -> Callable[[State], Hashable] | None:
    """The game's ``evaluate.chance_key(state)``: at a chance node, what the event is in the
    game's terms (an attack on an area by a People in an Epoch, the next card drawn in an
    Epoch), so that the n-th such event of a paired round draws the same luck after every
    candidate (see :class:`ziggurat.bots.search.Luck`); ``None`` for an event without a
    key, or if the game has no such function."""
    module = _game_module(game, "evaluate")
    found: Callable[[State], Hashable] | None = getattr(module, "chance_key", None) if module else None
    return found


def find_phase(game: Game) -> Callable[[State], Hashable] | None:
    """The game's ``evaluate.phase_of(state)``: a value that changes when a phase of play ends
    (a turn, a round, a buy phase), where playouts stop to evaluate; ``None`` if it has none."""
    module = _game_module(game, "evaluate")
    found: Callable[[State], Hashable] | None = getattr(module, "phase_of", None) if module else None
    return found


def has_evaluator(game: Game) -> bool:
    """True if the game has an ``evaluate`` module (else :func:`find_evaluator` is neutral)."""
    return _game_module(game, "evaluate") is not None


def search_defaults(game: Game) -> dict[str, Any]:
    """The game's tuned search settings (``evaluate.SEARCH_DEFAULTS``: ``c``, ``plies``, ``batch``,
    ``confidence``, ``root``, ``width``, ``depth``, ``chance``), updated with those for the game's player
    count (``evaluate.SEARCH_DEFAULTS_BY_PLAYERS[n]``), or ``{}``."""
    module = _game_module(game, "evaluate")
    if module is None:
        return {}
    found = getattr(module, "SEARCH_DEFAULTS", None)
    out = dict(found) if isinstance(found, dict) else {}
    by_players = getattr(module, "SEARCH_DEFAULTS_BY_PLAYERS", None)
    if isinstance(by_players, dict):
        out.update(by_players.get(game.num_players, {}))
    return out


Plan = Callable[[Game, int], Any]
"""A plan: makes a bot (``choose(view, legal, rng)``) for one seat of a game."""


def find_plans(game: Game) -> dict[str, Plan]:
    """The game's plans, ``bots.PLANS``: other heuristic bots, each playing to a different
    plan (Mare Nostrum's raider), that a paired root may follow for the searching seat in a
    candidate's playouts (policy switching: docs/bots.md, "Plans"). ``{}`` if it has none."""
    module = _game_module(game, "bots")
    found = getattr(module, "PLANS", None) if module is not None else None
    return dict(found) if isinstance(found, dict) else {}


def find_policies(game: Game) -> dict[str, Plan]:
    """The game's playout policies that the searching seat may follow in every playout
    (``own=NAME``): its plans (:func:`find_plans`) and ``bots.POLICIES`` (2-player Epochs'
    successor: docs/bots.md, "Own-seat policy"). ``{}`` if it has none."""
    module = _game_module(game, "bots")
    found = getattr(module, "POLICIES", None) if module is not None else None
    return {**find_plans(game), **(found if isinstance(found, dict) else {})}


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


class HeuristicPlayout:
    """The game's heuristic bot plays every seat of the sampled world, but the seat that
    :meth:`follow` names, which plays its own policy."""

    name = "heuristic"

    def __init__(self, game: Game) -> None:
        module = _game_module(game, "bots")
        if module is None or not hasattr(module, "HeuristicBot"):
            raise ValueError(f"{game.game_id} has no heuristic bot for playouts; use rollout=random")
        self._cls: Any = module.HeuristicBot
        self.game = game
        ev = _game_module(game, "evaluate")
        self._view: Callable[[State, int], dict[str, Any]] | None = (
            getattr(ev, "rollout_view", None) if ev is not None else None
        )
        factory = getattr(ev, "make_playout_bots", None) if ev is not None else None
        self._new: Callable[[int], Any] = factory(game) if factory is not None else self._plain
        self._bots: list[Any] = [None] * game.num_players
        self._policies = find_policies(game)
        self._own: tuple[int, str] | None = None

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
        for chosen in (self._own, plan):
            if chosen is not None:
                seat, name = chosen
                self._bots[seat] = self._policies[name](self.game, seat)

    def choose(self, state: State, who: int, legal: Sequence[str], rng: random.Random) -> str:
        bot = self._bots[who]
        if bot is None:
            bot = self._bots[who] = self._new(who)
        view = None
        if bot.needs_view:
            view = self._view(state, who) if self._view is not None else state.view(who)
        choice: str = bot.choose(view, legal, rng)
        return choice


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
