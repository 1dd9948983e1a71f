"""One ISMCTS tree: single-observer information-set MCTS over the engine contract.

Each iteration (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
2012; docs/bots.md):

1. **Determinize**: ``game.sample_state(view, seat, rng)`` draws a full state the searching
   seat cannot tell from the truth (one per :data:`BATCH` iterations). The search only ever
   sees the view.
2. **Select**: walk down the tree. At a decision node, the actions legal in *this* world are
   the candidates; each candidate's child counts one more *availability*. UCT picks
   ``q + c * sqrt(ln(availability) / visits)`` for the player to move, ``q`` being its mean
   reward normalised over the siblings, so an action that is rarely legal is not starved.
   Chance nodes are sampled with the engine's :func:`sample_chance`.
3. **Expand** one child under progressive widening (:data:`WIDEN`): the playout policy's own
   choice first (with a progressive bias, :data:`PRIOR_BIAS`), then at the root the best by
   the evaluator one ply on, elsewhere a random one.
4. **Play out** ``plies`` decisions with the playout policy and on to the end of the phase
   under way, then **evaluate**: the game's returns at the end, else the game's evaluator
   (one value in [0, 1] per seat).
5. **Back up** the reward vector: each edge adds the reward of the seat that chose it.

Edges are keyed by ``(mover, key)`` where ``key`` is what the searching seat would see of
the move (:mod:`.observe`): its own actions by their text, other seats' actions and chance
outcomes by their redacted log text, so a hidden choice of an opponent is one edge whose
members the opponent picks with the playout policy. The tree is therefore a tree of the
searcher's information sets, and no node depends on a sampled secret.

Everything random comes from one ``random.Random`` seeded by the caller, and nothing reads a
clock unless a deadline is given, so an iteration budget gives the same tree every time.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ziggurat.bots.compiled import mypyc_attr
from ziggurat.bots.draws import keyed_draw
from ziggurat.bots.luck import Luck
from ziggurat.bots.observe import Observer
from ziggurat.bots.playout import (
    Evaluator,
    HeuristicPlayout,
    Playout,
    find_chance_key,
    find_evaluator,
    find_final,
    find_phase,
    find_plans,
    has_evaluator,
    make_playout,
    search_defaults,
)
from ziggurat.bots.spec import DEFAULT_C, DEFAULT_PLIES, DEFAULT_WIDTH, ISMCTSConfig
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance
from ziggurat.engine.state import chance_at

PRIOR_BIAS = 1.0
"""Progressive bias (Chaslot et al., 2008) of the playout policy's own choice at a node, in
units of the siblings' normalised value range, fading as ``1 / (visits + 1)``: with little
evidence the search plays the heuristic's move, and only leaves it for a clearly better one."""

BATCH = 1
"""Iterations per sampled world (a game's ``SEARCH_DEFAULTS`` may raise it). Sharing a world,
and the chance outcomes drawn in it, between a few iterations is common random numbers:
sibling actions tried in the same batch are compared in the same world with the same luck,
so what the searcher cannot know (another seat's offering values, the next tile) stops
drowning the difference they make. Worlds are still drawn from the view, a batch at a time."""

WIDEN = 1.0
ALPHA = 0.5
"""Progressive widening (Coulom 2007; Chaslot et al. 2008): a node visited N times may hold
``ceil(WIDEN * N ** ALPHA)`` children. Children come in the order: the playout policy's own
choice, then (at the root) the best by the evaluator one ply on, then (elsewhere) at random.
With few iterations and many legal actions, the search compares a few plausible moves
instead of sampling every move once."""

CONFIDENCE = 0.0
MIN_VARIANCE = 0.01
"""The final choice keeps the heuristic's move unless the most visited action's mean reward
beats it by ``CONFIDENCE`` standard errors (reward variances floored at ``MIN_VARIANCE``)."""

MIN_PAIRED_VARIANCE = 1e-6
"""Floor of the variance of paired differences (identical outcomes in every round)."""

RACE_ROUNDS = 8
RACE_SE = 2.0
"""Racing at a paired root (successive elimination): once a candidate has :data:`RACE_ROUNDS`
paired differences, it leaves the race when its mean difference is more than :data:`RACE_SE`
standard errors below zero (it would not be chosen) or has been exactly zero in every round
(it plays out as the prior does). Its rounds go to the candidates still in the race, and a
search with no candidate left beside the prior stops at once: nothing can change its choice."""

RANK_WORLDS = 3
"""Sampled worlds over which a paired root ranks its candidates by the evaluator one ply on
(the mean value): one world's draw would change the candidates from seed to seed."""

TURN_CAP = 80
"""Decisions a playout may add after its ``plies`` while it waits for the phase to end."""

PAUSE_COLLECTOR = True
"""Pause Python's cyclic garbage collector while a search runs (it is enabled again at the
end, if it was on). A search allocates tuples, lists and states by the million but makes
next to no reference cycles (none in Epochs and Mare Nostrum, a few dozen objects in a
Mesopotamia search, collected once it ends): its garbage goes as soon as it is unreferenced,
and what the collector's passes do is walk the tree and the playouts' memories again and
again (an eighth of a compiled Mesopotamia search). Nothing a search returns depends on it."""


class Node:
    """One information set of the searcher, reached by the edge ``mover`` took."""

    __slots__ = ("mover", "children", "visits", "total", "squares", "avail", "prior")

    def __init__(self, mover: int, prior: bool = False) -> None:
        self.mover = mover
        self.children: dict[tuple[int, str], Node] = {}
        self.visits = 0
        self.total = 0.0  # summed reward of ``mover``
        self.squares = 0.0  # summed squared reward (for the confidence of the final choice)
        self.avail = 1  # iterations in which this edge was available at its parent
        self.prior = prior  # the playout policy's own choice at the parent


@dataclass
class RootStats:
    """What one search says about the root's actions: ``action -> (visits, reward sum,
    availability)``, the summed squared rewards, the playout policy's own choice (``prior``)
    and how much it searched."""

    actions: dict[str, tuple[int, float, int]] = field(default_factory=dict)
    squares: dict[str, float] = field(default_factory=dict)
    prior: str | None = None
    confidence: float = 1.0
    iterations: int = 0
    seconds: float = 0.0
    pairs: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    """A paired root: ``action -> (rounds, sum, sum of squares)`` of the action's reward minus
    the prior's, over the rounds in which both were played (empty for a UCT root)."""

    @property
    def moves(self) -> dict[str, str]:
        """A paired root's plan candidates (:func:`plan_key`): candidate key -> the action it
        plays now. Every other key is an action."""
        return {k: plan_move(k) for k in (*self.actions, *self.pairs) if PLAN_MARK in k}

    def add(self, other: RootStats) -> None:
        """Sum another tree's root statistics into these (root parallelism)."""
        for a, (n, w, av) in other.actions.items():
            n0, w0, av0 = self.actions.get(a, (0, 0.0, 0))
            self.actions[a] = (n0 + n, w0 + w, av0 + av)
            self.squares[a] = self.squares.get(a, 0.0) + other.squares.get(a, 0.0)
        for a, (n, d, d2) in other.pairs.items():
            n0, s0, q0 = self.pairs.get(a, (0, 0.0, 0.0))
            self.pairs[a] = (n0 + n, s0 + d, q0 + d2)
        if self.prior is None:
            self.prior = other.prior
        self.iterations += other.iterations
        self.seconds = max(self.seconds, other.seconds)

    def best(self, legal: Sequence[str]) -> str:
        """The most visited legal action (ties: the higher mean, then list order), unless
        the playout policy's own choice is among ``legal`` and the other's mean is not above
        it by ``confidence`` standard errors (:data:`CONFIDENCE`): then that choice. The search departs from
        the heuristic's move only on evidence.

        After a paired root (:attr:`pairs`), the choice is the candidate whose mean paired
        difference over the prior is highest and above ``confidence`` standard errors of
        those differences, else the prior; a plan candidate plays its action (:func:`plan_move`)."""
        prior = self.prior
        if self.pairs and prior is not None and prior in legal:
            choice, top = prior, 0.0
            for a, pair in self.pairs.items():
                move = plan_move(a)
                if move not in legal or pair[0] < 2:
                    continue
                mean, se = _paired_mean_se(pair)
                if mean > top and mean > self.confidence * se:
                    choice, top = move, mean
            return choice
        best, key = legal[0], (-1, -1.0)
        for a in legal:
            n, w, _ = self.actions.get(a, (0, 0.0, 0))
            k = (n, w / n if n else 0.0)
            if k > key:
                best, key = a, k
        if prior is None or prior == best or prior not in legal or prior not in self.actions:
            return best
        (nb, mb, vb), (np_, mp, vp) = self._moments(best), self._moments(prior)
        if mb - mp > self.confidence * math.sqrt(vb / nb + vp / np_):
            return best
        return prior

    def _moments(self, a: str) -> tuple[int, float, float]:
        n, w, _ = self.actions[a]
        mean = w / n
        var = max(self.squares.get(a, 0.0) / n - mean * mean, MIN_VARIANCE)
        return n, mean, var


@dataclass(frozen=True)
class Budget:
    """When a search stops: after ``iterations``, or once ``deadline`` (a reading of ``clock``)
    has passed, whichever is set (both: whichever comes first)."""

    iterations: int | None
    deadline: float | None
    clock: Callable[[], float] = time.monotonic

    def spent(self, done: int) -> bool:
        """True once ``done`` iterations use the budget up."""
        if self.iterations is not None and done >= self.iterations:
            return True
        return self.deadline is not None and self.clock() >= self.deadline


@mypyc_attr(allow_interpreted_subclasses=True)
class Searcher:
    """Builds trees for one seat of one game; reusable from decision to decision."""

    def __init__(
        self, game: Game, seat: int, config: ISMCTSConfig, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.game = game
        self.seat = seat
        self.config = config
        self.clock = clock  # what deadlines are readings of; timed in seconds
        self.observer = Observer(game, seat)
        rollout = config.rollout
        try:
            self.playout: Playout = make_playout(rollout, game)
        except ValueError:
            if rollout != "heuristic":
                raise
            self.playout = make_playout("random", game)
        self.evaluate: Evaluator = find_evaluator(game)
        self.final: Evaluator = find_final(game)
        self.has_evaluator = has_evaluator(game)
        self.phase_of = find_phase(game)
        defaults = search_defaults(game)
        self.c = config.c if config.c is not None else float(defaults.get("c", DEFAULT_C))
        self.plies = config.plies if config.plies is not None else int(defaults.get("plies", DEFAULT_PLIES))
        self.batch = max(1, int(defaults.get("batch", BATCH)))
        confidence = config.confidence if config.confidence is not None else defaults.get("confidence")
        self.confidence = float(confidence) if confidence is not None else CONFIDENCE
        self.root_mode = config.root if config.root is not None else str(defaults.get("root", "uct"))
        self.width = config.width if config.width is not None else int(defaults.get("width", DEFAULT_WIDTH))
        depth = config.depth if config.depth is not None else defaults.get("depth")
        self.depth = int(depth) if depth is not None else 1 << 30
        chance = config.chance if config.chance is not None else defaults.get("chance")
        self.rank_chance = int(chance) if chance is not None else 0
        # the game's names for its chance events, for common luck in a round (Luck)
        sync = config.sync if config.sync is not None else bool(defaults.get("sync", True))
        self.chance_key = find_chance_key(game) if sync else None
        # the searching seat's own playout policy (heuristic playouts only)
        own = config.own if config.own is not None else defaults.get("own")
        self.own: str | None = None
        if own not in (None, "heuristic") and isinstance(self.playout, HeuristicPlayout):
            self.playout.follow(seat, str(own))  # refuses a name the game does not have
            self.own = str(own)
        # plans for the searching seat's playouts at a paired root (heuristic playouts only);
        # the own policy is the prior's follow-up already, so it is no plan candidate
        plans = find_plans(game) if config.plans and self.playout.name == "heuristic" else {}
        self.plans = {k: v for k, v in plans.items() if k != self.own}
        # progressive bias towards the heuristic's move (none for a random policy)
        self.bias = PRIOR_BIAS if self.playout.name == "heuristic" else 0.0

    def search(
        self,
        view: dict[str, Any],
        seed: int | str,
        iterations: int | None,
        deadline: float | None,
    ) -> RootStats:
        """Search from ``view`` until ``iterations`` are done or ``deadline`` (a reading of the
        searcher's clock, ``time.monotonic`` unless one was given) has passed; at least one
        iteration is always run.

        The garbage collector is paused meanwhile (:data:`PAUSE_COLLECTOR`)."""
        rng = random.Random(seed)
        root = Node(CHANCE)
        start = self.clock()
        stats = RootStats(confidence=self.confidence)
        budget = Budget(iterations, deadline, self.clock)
        paused = PAUSE_COLLECTOR and gc.isenabled()
        if paused:
            gc.collect(0)  # the game's newest log nodes are untracked before playouts' replace them
            gc.disable()
        try:
            if self.root_mode == "paired":
                done = self._search_paired(root, view, rng, budget, stats)
            else:
                done = self._search_uct(root, view, rng, budget)
        finally:
            if paused:
                gc.enable()
            # the choices its playouts remembered belong to this search: a bot kept between
            # decisions (a server's, for a whole game) holds none of them
            if isinstance(self.playout, HeuristicPlayout):
                self.playout.forget()
        stats.iterations = done
        stats.seconds = self.clock() - start
        for (mover, key), child in root.children.items():
            if mover == self.seat:
                stats.actions[key] = (child.visits, child.total, child.avail)
                stats.squares[key] = child.squares
                if child.prior and self.bias > 0:
                    stats.prior = key
        return stats

    def _search_uct(self, root: Node, view: dict[str, Any], rng: random.Random, budget: Budget) -> int:
        """Iterations with UCT at the root as everywhere; returns how many were run."""
        done = 0
        batch = self.batch
        world: State | None = None
        world_seed = 0
        rank: dict[str, float] | None = None
        while True:
            if world is None or done % batch == 0:
                world = self.game.sample_state(view, self.seat, rng)
                world_seed = rng.getrandbits(64)
            if rank is None:
                rank = self._rank(world)
            # the batch's iterations share the world and its chance outcomes (see BATCH)
            state = world.clone() if batch > 1 else world
            self._iterate(root, state, rng, Luck(world_seed), rank)
            done += 1
            if budget.spent(done):
                return done

    def _search_paired(
        self, root: Node, view: dict[str, Any], rng: random.Random, budget: Budget, stats: RootStats
    ) -> int:
        """Rounds of one iteration per candidate, all in one sampled world with one seed for
        its luck (common random numbers); ``stats.pairs`` gathers each candidate's reward
        minus the prior's. Returns the iterations run."""
        done = 0
        candidates: list[str] = []
        prior = ""
        seat = self.seat
        while True:
            world = self.game.sample_state(view, seat, rng)
            world_seed = rng.getrandbits(64)
            if not candidates:
                prior, candidates = self._candidates(world, random.Random(world_seed), view, rng)
                stats.prior = prior
            legal = set(world.legal_actions())
            got: dict[str, float] = {}
            for a in candidates:
                if plan_move(a) not in legal:  # cannot happen for the searcher's own decision
                    continue
                got[a] = self._iterate(root, world.clone(), rng, Luck(world_seed), {}, forced=a)
                done += 1
                if budget.spent(done):
                    break
            if not got:
                return done  # no candidate legal in this world (a sampling fault): stop, never spin
            base = got.get(prior)
            if base is not None:
                for a, v in got.items():
                    if a != prior:
                        n, d, d2 = stats.pairs.get(a, (0, 0.0, 0.0))
                        stats.pairs[a] = (n + 1, d + (v - base), d2 + (v - base) ** 2)
            if budget.spent(done):
                return done
            candidates = [a for a in candidates if a == prior or not _out_of_race(stats.pairs.get(a))]
            if len(candidates) <= 1:
                return done  # only the prior is left: more rounds cannot change the choice

    def _candidates(
        self, world: State, luck: random.Random, view: dict[str, Any], rng: random.Random
    ) -> tuple[str, list[str]]:
        """A paired root's candidates: the playout policy's own move (the prior) first, then
        the best others by the evaluator one ply on (the mean over :data:`RANK_WORLDS`
        sampled worlds, ``world`` the first), ``width`` in all; then one per plan of the game
        (:attr:`plans`): the plan's move from ``view``, played out with the searching seat
        following the plan (:func:`plan_key`)."""
        legal = world.legal_actions()
        self.playout.start()
        prior = self.playout.choose(world, self.seat, legal, luck)
        plans: list[str] = []
        for name, make in self.plans.items():
            plans.append(plan_key(make(self.game, self.seat).choose(view, legal, luck), name))
        others = [a for a in legal if a != prior]
        if len(others) < self.width:
            return prior, [prior, *others, *plans]  # every legal action is a candidate: no ranking
        total = self._rank(world)
        if total:
            for _ in range(RANK_WORLDS - 1):
                for a, v in self._rank(self.game.sample_state(view, self.seat, rng)).items():
                    total[a] = total.get(a, 0.0) + v
            others.sort(key=lambda a: -total.get(a, -1.0))
        return prior, [prior, *others[: self.width - 1], *plans]

    def _rank(self, world: State) -> dict[str, float]:
        """The searcher's value of each root action one ply on, in one sampled world: the
        order in which widening adds the root's children (after the policy's own choice)."""
        legal = world.legal_actions()
        if len(legal) <= 2 or not self.has_evaluator:
            return {}
        out = {}
        draws = self.rank_chance
        for a in legal:
            after = world.clone()
            after.apply(a)
            if draws and after.is_chance_node():
                out[a] = sum(self._after_chance(after, a, k) for k in range(draws)) / draws
            else:
                out[a] = self.evaluate(after)[self.seat]
        return out

    def _after_chance(self, state: State, action: str, draw: int) -> float:
        """The searcher's value of ``state`` (just after ``action``, at a chance node) once
        the chance events it set off have happened: the ``draw``-th draw of them, from a seed
        of its own (the action and the draw), so the search's random streams are untouched."""
        s = state.clone()
        luck = random.Random(f"rank/{draw}/{action}")
        while s.is_chance_node() and not s.is_terminal():
            s.apply(sample_chance(s, luck))
        return self.evaluate(s)[self.seat]

    # --- one iteration ----------------------------------------------------------------
    def _iterate(
        self,
        root: Node,
        state: State,
        rng: random.Random,
        luck: Luck,
        rank: dict[str, float],
        forced: str | None = None,
    ) -> float:
        """One iteration in the sampled world ``state``: ``rng`` drives the tree policy,
        ``luck`` the chance outcomes and the playout policy's tie-breaks; ``rank`` orders the
        root's actions for widening; ``forced`` is the root action to play (a paired root).
        Returns the searcher's reward."""
        observer = self.observer
        seat = self.seat
        c = self.c
        bias = self.bias
        playout = self.playout
        # a plan candidate's key (plan_key) is its action and the plan its playout follows
        action, _, name = forced.partition(PLAN_MARK) if forced is not None else ("", "", "")
        playout.start((seat, name) if name else None)
        node = root
        path: list[Node] = []
        depth = self.depth
        decisions = 0
        if forced is not None:
            child = root.children.get((seat, forced))
            if child is None:  # the first candidate of the first round is the prior
                child = root.children[(seat, forced)] = Node(seat, prior=not root.children)
            else:
                child.avail += 1
            state.apply(action)
            path.append(child)
            node = child
            decisions = 1
        while not state.is_terminal():
            who = state.current_player()
            if who == CHANCE:
                outcome = self._chance(state, luck)
                mark = observer.mark(state)
                state.apply(outcome)
                key = (CHANCE, observer.chance_key(state, mark, outcome))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node(CHANCE)
                path.append(child)
                node = child
                continue
            if decisions >= depth:
                break  # below the tree's depth, the playout policy plays
            decisions += 1
            legal = state.legal_actions()
            # candidates: key -> the actions of this determinization behind it
            groups: dict[str, list[str]] = {}
            if who == seat:
                for a in legal:
                    groups[a] = [a]
            else:
                for a in legal:
                    k = observer.decision_key(who, a)
                    got = groups.get(k)
                    if got is None:
                        groups[k] = [a]
                    else:
                        got.append(a)
            children = node.children
            untried: list[str] = []
            for k in groups:
                child = children.get((who, k))
                if child is None:
                    untried.append(k)
                else:
                    child.avail += 1
            # progressive widening: a node seen N times may have ceil(WIDEN * N ** ALPHA)
            # children available here before another is added
            if untried and len(groups) - len(untried) < math.ceil(WIDEN * (node.visits + 1) ** ALPHA):
                if not children:
                    # first expansion here: the policy's own choice, so the tree starts
                    # from the move the playout would have made anyway (and favours it)
                    action = playout.choose(state, who, legal, luck)
                    k = action if who == seat else observer.decision_key(who, action)
                    child = children[(who, k)] = Node(who, prior=True)
                else:
                    if node is root and rank:
                        k = max(untried, key=lambda u: rank.get(u, -1.0))
                    else:
                        k = untried[rng.randrange(len(untried))]
                    action = self._member(state, who, groups[k], luck)
                    child = children[(who, k)] = Node(who)
                state.apply(action)
                path.append(child)
                break
            # UCT on means normalised to [0, 1] over the siblings (min-max): evaluations
            # that differ by little still rank, and ``c`` means the same in every game
            lo, hi = 2.0, -1.0
            tried = [k for k in groups if (who, k) in children]
            for k in tried:
                child = children[(who, k)]
                q = child.total / child.visits
                if q < lo:
                    lo = q
                if q > hi:
                    hi = q
            span = hi - lo
            scale = 1.0 / span if span > 1e-9 else 0.0
            best: Node | None = None
            best_k = ""
            best_v = -1.0
            for k in tried:
                child = children[(who, k)]
                n = child.visits
                v = (child.total / n - lo) * scale + c * math.sqrt(math.log(child.avail) / n)
                if child.prior:
                    v += bias / (n + 1)
                if v > best_v:
                    best, best_k, best_v = child, k, v
            assert best is not None
            state.apply(self._member(state, who, groups[best_k], luck))
            path.append(best)
            node = best
        rewards = self._playout(state, luck)
        root.visits += 1
        for step in path:
            step.visits += 1
            if step.mover >= 0:
                r = rewards[step.mover]
                step.total += r
                step.squares += r * r
        return rewards[seat]

    def _chance(self, state: State, luck: Luck) -> str:
        """A chance outcome of ``state``: from the event's own stream when the game names the
        event (and ``sync`` is on), else from ``luck`` itself."""
        key = self.chance_key(state) if self.chance_key is not None else None
        if key is None:
            return sample_chance(state, luck)
        # Luck.keyed_random(key): what sample_chance draws of luck.keyed(key)
        return chance_at(state, keyed_draw(luck.counts, luck.base, key))

    def _member(self, state: State, who: int, actions: list[str], rng: random.Random) -> str:
        """The action behind an edge: itself, or for a hidden choice of another seat, the
        one the playout policy picks among the alternatives the searcher cannot tell apart."""
        if len(actions) == 1:
            return actions[0]
        return self.playout.choose(state, who, actions, rng)

    def _playout(self, state: State, luck: Luck) -> list[float]:
        """Play ``plies`` decisions, then on to the end of the phase under way (the game's
        ``evaluate.phase_of``; by default, until the seat to move changes), at most
        :data:`TURN_CAP` decisions more; evaluate, or the returns if the game ended.

        Evaluating at the end of a phase compares positions at like moments: cut in the middle
        of a buy turn or a movement phase, a seat that has acted looks better or worse than
        one about to act, and the search would learn that instead of the game."""
        playout = self.playout
        phase_of = self.phase_of
        left = self.plies
        mark: Hashable = None  # the phase to finish once the plies are played
        waiting = False
        extra = TURN_CAP
        while not state.is_terminal():
            who = state.current_player()
            if who == CHANCE:
                state.apply(self._chance(state, luck))
                continue
            if left <= 0:
                now = phase_of(state) if phase_of is not None else who
                if not waiting:
                    mark, waiting = now, True
                elif now != mark or extra <= 0:
                    return self.evaluate(state)
                extra -= 1
            left -= 1
            state.apply(playout.choose(state, who, state.legal_actions(), luck))
        return self.final(state)


PLAN_MARK = "\tplan="
"""Joins an action and a plan's name in a plan candidate's key (no action text has a tab)."""


def plan_move(key: str) -> str:
    """The action a paired-root candidate key plays now (the key itself unless a plan's)."""
    return key.partition(PLAN_MARK)[0]


def plan_key(action: str, plan: str) -> str:
    """The key of the paired-root candidate that plays ``action`` now and follows ``plan``
    for the searching seat in its playouts (policy switching, docs/bots.md "Plans")."""
    return f"{action}{PLAN_MARK}{plan}"


def _out_of_race(pair: tuple[int, float, float] | None) -> bool:
    """True when a paired-root candidate leaves the race (:data:`RACE_ROUNDS`, :data:`RACE_SE`)."""
    if pair is None:
        return False
    n, d, d2 = pair
    if n < RACE_ROUNDS:
        return False
    if d == 0.0 and d2 == 0.0:
        return True  # the same outcome as the prior in every round
    mean, se = _paired_mean_se(pair)
    return mean + RACE_SE * se < 0.0


def _paired_mean_se(pair: tuple[int, float, float]) -> tuple[float, float]:
    """Mean and standard error of ``n >= 2`` paired differences from ``(n, sum, sum of
    squares)``, the variance floored at :data:`MIN_PAIRED_VARIANCE`."""
    n, d, d2 = pair
    mean = d / n
    var = max((d2 - n * mean * mean) / (n - 1), MIN_PAIRED_VARIANCE)
    return mean, math.sqrt(var / n)


__all__ = ["PLAN_MARK", "Luck", "Node", "RootStats", "Searcher", "plan_key", "plan_move"]
