"""Mesopotamia's cut-off evaluation for search: each seat's chance to win, in [0, 1].

Search (ISMCTS) stops its playouts after a few plies and asks how the game stands. The
heuristic bot already measures that for itself (:mod:`.bots_eval`): offerings delivered
(M16.1: the fourth wins), the Mana limit and Mana that pay for the deliveries (M6.4), huts
with their offerings (M9), holy places (M10), population (M11), and the potential of every
tribe on its way to a job, plus the worth the heuristic gives each card in hand (M15).
Here every seat is measured the same way, from its own side of the position, and the
points become chances with a softmax:

``p_seat = exp(points_seat / T) / sum over seats of exp(points / T)``

with ``T`` (:data:`TEMPERATURE`) fitted on heuristic self-play so that a lead of about one
delivery (400 points) is worth a win chance of about 0.8 between two players.

With three players the chances are a conditional logit fitted on heuristic self-play
(:data:`WEIGHTS`, ``benchmarks/fit_mesopotamia_evaluator.py``) over each seat's
:data:`FEATURES`: those points, the offerings delivered and who has the turn now and next,
with weights per stage of the race (the most offerings any seat has delivered). Search
evaluates when a turn has ended, and the fit says what such a position is worth once the
opponents have had their turns: a delivery counts for less than its 400 points beside the
potential of the tribes on their way (the weight of the deliveries themselves is negative),
and having the next turn for about a quarter of a delivery. On 400 held-out games it
predicts the winner with a mean log-likelihood of -0.857 against -0.917 for the softmax
(-1.099 for a coin). Two players keep the softmax their strength row was measured with;
four have no fit yet.

The position read is the full state of the (sampled) world the search plays in; each seat
is measured only on what a view of its own would show. Movement points left are ignored
(the position is valued as if Phase I ended now, as the heuristic does when it closes the
phase), so positions reached after different numbers of steps compare fairly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ziggurat.bots.playout import win_chances
from ziggurat.engine.contract import State
from ziggurat.games.mesopotamia.bots import Decisions, HeuristicBot
from ziggurat.games.mesopotamia.bots_eval import DEFAULT_WEIGHTS, Ctx
from ziggurat.games.mesopotamia.bots_eval import evaluate as points_of
from ziggurat.games.mesopotamia.bots_model import Board, Distances, Mine, WorldView
from ziggurat.games.mesopotamia.state import MesoState

TEMPERATURE = 200.0

POINT = 400.0
"""The unit of the first feature: the heuristic's points per delivery."""

FEATURES = ("points", "delivered", "moves_next", "moves_second")
"""What :meth:`Evaluator.features` measures per seat: the heuristic's points (cards in hand
included) in deliveries (:data:`POINT`), the offerings delivered, and whether the seat has
the turn now or the one after (M1.1)."""

WEIGHTS: dict[int, tuple[tuple[float, ...], ...]] = {
    3: (
        (1.98, 0, 0.468, 0.235),
        (2.13, -1.11, 0.528, 0.264),
        (2.7, -1.33, 0.547, 0.274),
        (2.85, -0.44, 0.625, 0.308),
    ),
}
"""Fitted weights of :data:`FEATURES` per player count, one row per *stage* (the most
offerings any seat has delivered, 0 to 3): the chances are the softmax over seats of the
weights times the features (a conditional logit, fitted on heuristic self-play by
``benchmarks/fit_mesopotamia_evaluator.py``). A player count without weights is valued
with the softmax of the points at :data:`TEMPERATURE`."""

SEARCH_DEFAULTS = {"root": "paired", "width": 4, "confidence": 1.0}
SEARCH_DEFAULTS_BY_PLAYERS = {3: {"depth": 1}, 4: {"depth": 1}}
"""Search settings (docs/bots.md, "Paired root"): four candidates compared in paired rounds,
and playouts go a few decisions and on to the end of the turn, then are evaluated. With two
players the UCT tree grows below each candidate as usual (the setting its strength row was
measured with); with three and four the search is flat (``depth=1``): a second of search
gives each candidate some fifteen rounds, too few for a tree, whose widening below a
candidate plays a *random* own move now and then, and that noise was most of the spread of
the paired differences (their variance was 6.5 times that of the flat search over 40
3-player positions, ``ismcts:60``), so the comparisons saw the tree's noise rather than the
candidates."""


POINTS_KEPT = 4096
"""Boards whose points an :class:`Evaluator` keeps at most (then it starts afresh)."""


class SharedDistances(Distances):
    """The heuristic's :class:`~.bots_model.Distances`, under the name the search's
    evaluation and playout bots have used: every instance reads the one table of layouts
    keyed by the exact tiles, so the worlds of a search, where two playouts may discover
    different land at the same count, each get their own maps."""


class Evaluator:
    """:func:`evaluate` with the distance maps of :class:`SharedDistances` and the points
    of the boards it has valued (bounded, :data:`POINTS_KEPT`), for one search."""

    def __init__(self, dist: SharedDistances | None = None) -> None:
        self.dist = dist if dist is not None else SharedDistances()
        # a seat's points by its board (Board.key): the worlds of a search differ in the
        # other seats' secrets only, so the searching seat's own board comes back again and
        # again (and another seat's, when its secrets were drawn alike)
        self._points: dict[tuple[object, ...], float] = {}
        # the positions valued per context (bots_eval.Ctx.key): the boards of one seat that
        # differ in what a position holds share their context
        self._values: dict[tuple[object, ...], dict[tuple[object, ...], float]] = {}

    def __call__(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        s: MesoState = state  # type: ignore[assignment]
        if s.phase == "setup" or not s.turn_order:
            return [1.0 / s.n] * s.n
        weights = WEIGHTS.get(s.n)
        if weights is None:
            return chances(self.points(s))
        rows = self.features(s)
        w = weights[min(stage(rows), len(weights) - 1)]
        return win_chances([sum(a * b for a, b in zip(w, row, strict=True)) for row in rows], 1.0)

    def points(self, state: MesoState) -> list[float]:
        """The heuristic's evaluation of the position for every seat (points, not chances)."""
        return [row[0] * POINT for row in self.features(state)]

    def features(self, state: MesoState) -> list[list[float]]:
        """Every seat's :data:`FEATURES`, each measured from its own side."""
        # measured as the phase stands at its end (no Movement points): comparable at any ply
        world = WorldView(state, mp=0)
        n = state.n
        # turns until each seat's next one (0: it has the turn); none before setup ends
        order = {seat: (i - state.turn_idx) % n for i, seat in enumerate(state.turn_order)}
        out = []
        known = self._points
        for seat in range(n):
            b = Board(world, seat)
            key = b.key()
            value = known.get(key)
            if value is None:
                self.dist.update(b)
                cards = sum(k * v for k, v in zip(b.hand, DEFAULT_WEIGHTS.card_value, strict=True))
                value = points_of(Ctx(b, self.dist, DEFAULT_WEIGHTS, self._values), Mine(b)) + cards
                if len(known) >= POINTS_KEPT:
                    known.clear()
                known[key] = value
            k = order.get(seat, n - 1)
            out.append([value / POINT, float(b.delivered[seat]), float(k == 0), float(k == 1)])
        return out


def stage(rows: list[list[float]]) -> int:
    """The stage of the race (:data:`WEIGHTS`) from every seat's :data:`FEATURES`: the most
    offerings any seat has delivered."""
    return max(int(row[1]) for row in rows)


def points(state: MesoState) -> list[float]:
    """The heuristic's evaluation of the position for every seat (points, not chances)."""
    return Evaluator().points(state)


def chances(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's chance to win from its score (softmax at this game's temperature)."""
    return win_chances(scores, temperature)


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance to win (the returns once the game is over)."""
    return Evaluator()(state)


def phase_of(state: State) -> tuple[int, int]:
    """The turn under way (M1): search evaluates when a turn has ended."""
    s: MesoState = state  # type: ignore[assignment]
    return (s.round, s.turn_idx)


def make_evaluator() -> Evaluator:
    """An evaluator for one search, with its caches (what ISMCTS uses)."""
    return Evaluator()


def rollout_view(state: State, seat: int) -> dict[str, Any]:
    """A cheap stand-in for ``state.view(seat)`` for the heuristic bot in playouts: a
    :class:`~.bots_model.WorldView`, from which the bot's board reads the state itself,
    without the position written out or the opponents' secrets redacted, which the bot
    does not read (:class:`~.bots_model.Board` takes only its own offerings and hand, the
    opponents' deliveries and pieces, and the pile tops it knows). So it is for sampled
    worlds only, where every secret is a sample."""
    s: MesoState = state  # type: ignore[assignment]
    return WorldView(s)


def make_playout_bots(game: Any) -> Callable[[int], HeuristicBot]:
    """Fresh heuristic bots for playouts (one per seat per playout), all sharing one
    :class:`SharedDistances` (the bot's own cache would be rebuilt for every playout) and
    one memory of the decisions taken (:class:`~.bots.Decisions`: the playouts of a search
    meet the same decisions in world after world)."""
    dist = SharedDistances()
    decisions = Decisions()

    def make(seat: int) -> HeuristicBot:
        bot = HeuristicBot(game, seat, decisions=decisions)
        bot.dist = dist
        return bot

    return make


__all__ = [
    "TEMPERATURE",
    "Evaluator",
    "SharedDistances",
    "chances",
    "evaluate",
    "make_evaluator",
    "make_playout_bots",
    "phase_of",
    "points",
    "rollout_view",
    "stage",
]
