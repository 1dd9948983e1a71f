"""What a game offers beyond its states, declared in one place: :class:`GameHooks`.

Each ``Game`` subclass sets ``hooks = GameHooks(...)``, the way an OpenSpiel game declares its
``GameType``: its heuristic bot, its evaluator and search settings, how its log is redacted and
described, its renderers, its browser board data, its option defaults, declarations and rule
numbers, its interop codec and observer. Bots, the CLI, the server and the interop adapters read
``game.hooks`` and never look a game's parts up by module name.

Members are :class:`Lazy` references (``"package.module:attribute"``, or a whole module without
``:attribute``), imported on first :meth:`Lazy.get`, so loading a game (and ``ziggurat games``)
imports none of them. **A hook a game does not offer is ``None``**: each caller checks it and
says what it does without it (a neutral evaluator, no heuristic bot on offer, a usage error
naming the missing hook ...). A declared hook that does not import is a bug of the game and
raises ``ImportError`` or ``AttributeError`` (the conformance tests import every one).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ziggurat.engine.contract import Game, State
    from ziggurat.engine.eventlog import Event

T = TypeVar("T")


class Lazy(Generic[T]):
    """A member of a game package, imported on first use: ``"module:attribute"`` (or
    ``"module"`` for the module itself)."""

    __slots__ = ("target", "_module", "_attribute")

    def __init__(self, target: str) -> None:
        self.target = target
        module_name, _, self._attribute = target.partition(":")
        self._module: Any = module_name

    def get(self) -> T:
        """The object named. The module is imported once; the attribute is read at each call,
        so it is always the module's current one."""
        module = self._module
        if isinstance(module, str):
            module = self._module = importlib.import_module(module)
        found: T = getattr(module, self._attribute) if self._attribute else module
        return found

    def __repr__(self) -> str:
        return f"Lazy({self.target!r})"


BotFactory = Callable[["Game", int], Any]
"""Makes a bot (``name``, ``needs_view``, ``choose(view, legal, rng)``) for one seat of a game."""
Evaluator = Callable[["State"], list[float]]
"""One value per seat in [0, 1]: an estimate of each seat's chance to win."""
Redactor = Callable[[list["Event"], "int | None"], list[str]]
"""The texts of ``events`` as ``seat`` (``None``: a spectator) may read them."""
StepDescriber = Callable[[Sequence["Event"], dict[str, Any], dict[str, Any]], list[tuple[str, bool]]]
"""``(sentence, auto)`` for the events of one step, from the views before and after it."""


@dataclass(frozen=True)
class GameHooks:
    """The parts a game offers beyond ``State``; each is ``None`` when the game has none.

    What callers do without one: no heuristic bot means no ``heuristic``/``easy`` bot and no
    heuristic playouts; no evaluator means ``1 / n`` for every seat; no redactor means every
    other seat's action text is hidden from a log; no describer means log sentences repeat
    the texts; no terminal renderers means ``ziggurat play``/``replay``/``render`` refuse the
    game; no board data means ``{}``; no codec or observer means no PettingZoo/OpenSpiel; no
    outcome means the server's game-over message and the lobby do not say how the game was won;
    no ``flags_from_state`` means the final flags are worked out on a sampled state; no option
    specs or rules means the lobby offers each option by its default's type alone, without
    rule numbers.
    """

    # --- bots (docs/bots.md) ---------------------------------------------------------------
    heuristic_bot: Lazy[BotFactory] | None = None
    """The game's own bot class (``HeuristicBot(game, seat)``)."""
    plans: Lazy[Mapping[str, BotFactory]] | None = None
    """Other heuristic bots, each playing to a plan, that a paired root may follow."""
    policies: Lazy[Mapping[str, BotFactory]] | None = None
    """Playout policies the searching seat may follow in every playout (``own=NAME``)."""
    evaluate: Lazy[Evaluator] | None = None
    """The evaluator ISMCTS applies where a playout stops."""
    make_evaluator: Lazy[Callable[[], Evaluator]] | None = None
    """A factory of the evaluator with caches that live as long as one searcher."""
    final: Lazy[Evaluator] | None = None
    """The reward of a finished playout (else ``state.returns()``)."""
    chance_key: Lazy[Callable[[State], Hashable]] | None = None
    """A chance event in the game's terms, so paired candidates draw the same luck."""
    phase_of: Lazy[Callable[[State], Hashable]] | None = None
    """A value that changes when a phase of play ends, where playouts stop to evaluate."""
    rollout_view: Lazy[Callable[[State, int], dict[str, Any]]] | None = None
    """A cheaper stand-in for ``state.view(seat)`` giving the heuristic bot what it reads."""
    make_playout_bots: Lazy[Callable[[Game], Callable[[int], Any]]] | None = None
    """A factory of heuristic bots sharing caches for one search."""
    search_defaults: Lazy[Mapping[str, Any]] | None = None
    """Tuned ISMCTS settings (``c``, ``plies``, ``root`` ...)."""
    search_defaults_by_players: Lazy[Mapping[int, Mapping[str, Any]]] | None = None
    """Settings that replace those of :attr:`search_defaults` for a player count."""

    # --- logs, sentences, drawings ------------------------------------------------------------
    redact_events: Lazy[Redactor] | None = None
    """A log as one seat saw it (the server's per-seat log, the searcher's tree keys)."""
    describe_step: Lazy[StepDescriber] | None = None
    """Player-readable sentences for one step."""
    result_facets: Lazy[Callable[[State], Mapping[str, str]]] | None = None
    """How a finished game was won (``ziggurat simulate`` counts them)."""
    outcome: Lazy[Callable[[State], Mapping[str, Any]]] | None = None
    """How a finished game was won, for players (the server's game-over box and lobby):
    ``{"condition": key, "rule": "M16.1", "winners": [seat, ...], "summary": Message,
    "scores": [[{"key": k, "value": v}, ...] per seat], "labels": {k: Message}}``, read from
    the final state (what it records, never re-derived)."""
    describe: Lazy[ModuleType] | None = None
    """The terminal's wording module: ``action_groups``, ``describe_step``, ``NOTATION_HELP``."""
    render_text: Lazy[ModuleType] | None = None
    """The terminal board (Rich): ``render_board`` and its helpers."""
    render_svg: Lazy[ModuleType] | None = None
    """The SVG board: ``render_svg(view, roles)``."""

    # --- the server, options, interop ------------------------------------------------------------
    board_data: Lazy[Callable[[], dict[str, Any]]] | None = None
    """Static data the browser board draws with (e.g. the map layout)."""
    option_defaults: Lazy[Mapping[str, Any]] | None = None
    """Every option with its default value, as the lobby offers them."""
    option_specs: Lazy[Mapping[str, Mapping[str, Any]]] | None = None
    """Every option's declaration (``ziggurat.engine.options``: type, ``values``, ``min`` and
    ``max`` ...), from which the lobby offers a closed set of texts as a choice and bounds a
    number."""
    option_rules: Lazy[Mapping[str, str]] | None = None
    """The rule numbers each option belongs to (``"M15.8, R55"``), shown next to its name."""
    codec: Lazy[Callable[[Game], Any]] | None = None
    """The action codec class (``ziggurat.interop.codec.ActionCodec``)."""
    observer: Lazy[Callable[[Game], Any]] | None = None
    """The view encoder class (``ziggurat.interop.observe.ViewEncoder``)."""
    flags_from_state: Lazy[bool] | None = None
    """``True`` when who decides after a seat's action, whether chance follows it and whether
    an undo can take it back never hang on what that seat cannot see (the game's rules say so,
    and a test plays it out): the server then works a seat's final flags out on the true
    state. Without it they are worked out on a state sampled from the seat's view, which
    costs a ``sample_state`` per decision (``ziggurat.server.gamekit.final_flags``)."""

    def declared(self) -> dict[str, Lazy[Any]]:
        """Every hook the game offers, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}


__all__ = ["BotFactory", "Evaluator", "GameHooks", "Lazy", "Redactor", "StepDescriber"]
