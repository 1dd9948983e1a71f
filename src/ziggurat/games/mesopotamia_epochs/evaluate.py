"""Mesopotamia: Epochs' cut-off evaluation for search: each seat's chance to win, in [0, 1].

The game is won on VP (E15), and VP come only from scoring rounds (E14: each People scores
its areas at the end of its round). A seat's chances are a softmax over the seats of its
:func:`strengths`: log-odds, the :data:`WEIGHTS` times its :func:`features`, all in the
game's own terms: its VP; the round scores its Peoples on the map have still to come this
Epoch; the ``hold_value`` of their areas in later Epochs (:class:`~.bots_model.Picture`,
from the seat's own side: the Peoples around that may attack, E12, or enter, E7); the
initial tribes of its Peoples still to enter (E5.1); the tribes left in the pool of the
active People; the growth its Peoples raise at their next round (E6); and the
reinforcements still to come to them (the +n of the People table). The weights are given at
the start and at the end of each Epoch and move linearly with :func:`progress` (the share
of the Epoch's People rounds begun) in between. The state read is the sampled world the
search plays in.

The weights are a conditional logit (P(winner = seat) = softmax of the strengths) fitted on
heuristic self-play at every change of :func:`phase_of` (where search evaluates), 2, 3 and 4
players pooled, 1500 games each, every weight at least 0, and scored on a quarter of the
games held out: the mean log-likelihood of the eventual winner, by Epoch 1 to 5 (the
previous evaluator, a softmax of projected VP at :data:`TEMPERATURE`, frozen in the fitting
script, in brackets):

- 2 players (a coin: -0.69): -0.60 -0.51 -0.45 -0.24 -0.12 (-0.91 -0.77 -0.59 -0.32 -0.27);
- 3 players (-1.10): -0.93 -0.86 -0.79 -0.49 -0.26 (-1.44 -1.16 -0.94 -0.62 -0.53);
- 4 players (-1.39): -1.23 -1.15 -1.03 -0.71 -0.36 (-1.79 -1.42 -1.17 -0.88 -0.79);
- 5 players, not fitted (300 games, seed 7; -1.61): -1.55 -1.46 -1.39 -0.97 -0.46 (-1.86 -1.64
  -1.43 -1.16 -0.99).

The previous evaluator was worse than a coin in the first Epochs: it took early VP and the
initial tribes of a People still to enter at face value, missed the reinforcements still to
come, and its picture dropped the active People's own round score during placement; late it
was under-confident. What the fit found: a VP is worth little early (0 to 0.1 log-odds in
Epochs 1-3, 0.2 to 0.34 in Epoch 5, when the winner is all but known); the tribes still to
come (reinforcements, growth, Peoples to enter, the pool in hand) carry the early game; later
Epochs' holdings count from Epoch 3 on. The catch-up of the allocation (E3.2: the fewest VP
draw first) showed no measurable effect once the reinforcements were counted (the VP rank
added nothing). It reads a :class:`~.bots_model.Picture` per seat with Peoples on the map (the
first made from the position's facts, the others' sides from it: ``Picture.for_seat``). Re-run the fit with ``benchmarks/fit_epochs_evaluator.py --games
1500 --players 2 3 4 --seed 1`` (``--cache DIR`` to play one player count per run): it prints
this table and the weights to paste here.
"""

from __future__ import annotations

from ziggurat.bots.playout import win_chances
from ziggurat.engine.contract import State
from ziggurat.games.mesopotamia_epochs.bots_model import Picture, bits
from ziggurat.games.mesopotamia_epochs.bots_view import (
    Facts,
    PlayoutView,
    facts_of_state,
    remembered,
    rules_id,
)
from ziggurat.games.mesopotamia_epochs.rounds import round_score
from ziggurat.games.mesopotamia_epochs.state import EpochsState

TEMPERATURE = 18.0
"""VP per unit of log-odds in the softmax of :func:`chances` (and so of :func:`final`)."""

SEARCH_DEFAULTS = {
    "root": "paired",
    "width": 5,
    "depth": 1,
    "plies": 12,
    "confidence": 1.0,
    "chance": 4,
    "sync": False,
}
SEARCH_DEFAULTS_BY_PLAYERS = {2: {"plies": 100_000, "confidence": 0.5, "sync": True, "own": "successor"}}
"""Search settings (docs/bots.md, "Paired root"), chosen in seeded matches against heuristic
bots (docs/strength.md): with two players a whole game of heuristic playout costs some 30 ms
and playing to the end did best; with more, the playouts are dearer and noisier, and cutting
them off after 12 decisions (then the People round under way) with :func:`evaluate` did best.
With two players the search leaves the heuristic's move on half a standard error
(``confidence`` 0.5): it gained more on two sets of open positions (docs/bots.md, "Decision
quality").
``sync``: with two players a round's playouts draw the luck of each attack and each card draw
from a seed of its own (:func:`chance_key`), so the same attack rolls the same after every
candidate: the variance of the paired differences fell by 43% over 60 positions
(``ismcts:200``); more players keep one stream until their rows are measured with it.
``chance``: an attack (E8.5) is ranked as a root candidate after its dice (E12), the mean of 4
draws; before them it looks like a tribe lost from the pool for nothing, and attacks other
than the heuristic's own were never candidates.
``own``: with two players the search plays its own seat's playouts with the successor policy
(``bots.SuccessorBot``: also attacks the player's own older Peoples, and weighs the
opponent's losses more), which wins 55% of 2-player games against the heuristic; the other
seat keeps the heuristic (docs/bots.md, "Own-seat policy")."""

# Log-odds of winning per unit of each feature (see :func:`features`), for each Epoch as
# (at its start, at its end): in between they move linearly with :func:`progress`. The last
# row serves the last Epoch, the one before the one before it, and so on. Fitted by
# benchmarks/fit_epochs_evaluator.py (conditional logit over seats, 2-4 players pooled).
WEIGHTS: dict[str, tuple[tuple[float, float], ...]] = {
    "vp": ((0.0, 0.0966), (0.0568, 0.0555), (0.0155, 0.0794), (0.0978, 0.136), (0.204, 0.338)),
    "round_scores": ((0.409, 0.0), (0.0461, 0.141), (0.0572, 0.133), (0.0631, 0.183), (0.218, 0.377)),
    "holdings": ((0.022, 0.0), (0.0, 0.0174), (0.0205, 0.0477), (0.0996, 0.116), (0.0, 0.0)),
    "entering": ((0.151, 0.205), (0.059, 0.272), (0.194, 0.354), (0.649, 0.245), (0.212, 0.408)),
    "pool": ((0.086, 0.214), (0.178, 0.154), (0.158, 0.326), (0.402, 0.245), (0.157, 0.305)),
    "growth": ((0.0, 0.163), (0.205, 0.0858), (0.236, 0.355), (0.171, 0.0), (0.0, 0.0)),
    "reinforcements": ((0.194, 0.177), (0.146, 0.151), (0.0792, 0.0), (0.0, 0.0172), (0.0386, 0.11)),
}
FEATURES = tuple(WEIGHTS)
"""What :func:`features` gives for each seat, in this order."""

_ROWS = [
    (tuple(WEIGHTS[f][e][0] for f in FEATURES), tuple(WEIGHTS[f][e][1] for f in FEATURES))
    for e in range(len(WEIGHTS["vp"]))
]


def features(s: EpochsState, pos: Facts | None = None) -> list[list[float]]:
    """Each seat's :data:`FEATURES`, read from the full state (the sampled world of a search):

    - ``vp``: its VP (E14.4);
    - ``round_scores``: what its Peoples on the map score at their rounds still to come this
      Epoch, the active People's included (it scores when its round ends, E14.1);
    - ``holdings``: the ``hold_value`` of each of their areas (:class:`~.bots_model.Picture`,
      from the seat's own side): what the area should score in later Epochs;
    - ``entering``: the initial tribes (E5.1) of its Peoples of this Epoch still to enter;
    - ``pool``: the tribes left in the pool of the active People, if it is the seat's (E5, E6);
    - ``growth``: the growth (E6.2-E6.5) its other Peoples on the map raise at their next round;
    - ``reinforcements``: the reinforcements (+n in the People table) still to come to its
      Peoples on the map or still to enter.
    """
    rules = s.rules
    peoples = rules.peoples
    epoch = s.epoch
    strategy = s.phase == "strategy"
    active = s.active if strategy else -1
    out = [[float(v), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] for v in s.vp]
    if pos is None:
        pos = facts_of_state(s, None)  # what a Picture reads of the full position
    pics: dict[int, Picture] = {}
    for p, seat in enumerate(s.owner):
        if seat < 0:
            continue
        f = out[seat]
        comes = not strategy or p == active or peoples.order(p, epoch) > s.order  # E4.3
        held = s.held[p]
        if held:
            pic = pics.get(seat)
            if pic is None:  # the seat's side: whom it fears
                pic = pics[seat] = (
                    Picture(s.game, pos, seat) if not pics else next(iter(pics.values())).for_seat(seat)
                )
            if comes:
                f[1] += round_score(s, p)
            for a in bits(held):
                f[2] += pic.hold_value(p, a, s.cnt[a])
            if p != active:
                f[5] += rules.growth(p, held.bit_count())
        elif peoples.card_epoch[p] == epoch and comes:
            if p != active:
                f[3] += peoples.initial[p]
        else:
            continue  # no tribes on the map: no more rounds (E4.5)
        for e, n in peoples.reinforcements[p].items():
            if e > epoch or (e == epoch and comes and p != active):
                f[6] += n
    if active >= 0:
        out[s.owner[active]][4] += s.pool
    return out


def progress(s: EpochsState) -> float:
    """The share of this Epoch's People rounds (of the Peoples in play) already begun before
    the current one: 0 in the allocation and at the first round, near 1 at the last."""
    if s.phase != "strategy":
        return 0.0
    done = total = 0
    for order, p in s.rules.peoples.schedule[s.epoch]:
        if s.owner[p] >= 0:
            total += 1
            done += order < s.order
    return done / total if total else 0.0


def weights(s: EpochsState) -> tuple[float, ...]:
    """The :data:`WEIGHTS` for this moment of the game (the Epochs left, then :func:`progress`)."""
    row = max(0, len(_ROWS) - 1 - (s.rules.peoples.epochs - s.epoch))
    start, end = _ROWS[row]
    t = progress(s)
    return tuple(a + (b - a) * t for a, b in zip(start, end, strict=True))


def strengths(s: EpochsState, pos: Facts | None = None) -> list[float]:
    """Each seat's log-odds of winning (up to a constant): :func:`weights` times :func:`features`
    (``pos``: the position's facts, if the caller has them)."""
    w = weights(s)
    return [sum(wi * fi for wi, fi in zip(w, f, strict=True)) for f in features(s, pos)]


def chances(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's chance to win from its score (softmax at this game's temperature)."""
    return win_chances(scores, temperature)


def phase_of(state: State) -> tuple[int, str, int]:
    """The Epoch, its segment and the People whose round it is (E2, E4): search evaluates
    when a People's round (with its scoring, E14) or the card allocation has ended."""
    s: EpochsState = state  # type: ignore[assignment]
    return (s.epoch, s.phase, s.active)


def chance_key(state: State) -> tuple[object, ...] | None:
    """The chance event pending, in the game's terms, for common luck in a search's round
    (``ziggurat.bots.search.Luck``): an attack's roll is named by the Epoch, the attacking
    People and the area (E12), a draw by its Epoch (C2: uniform over the Epoch's undrawn
    cards, the same after every candidate), a deal by its seat (C1). The search counts the
    events of each name, so a second attack on the same area has luck of its own."""
    s: EpochsState = state  # type: ignore[assignment]
    pend = s.pending
    if pend is None:
        return None
    kind = pend[0]
    if kind == "combat":
        return ("combat", s.epoch, s.active, pend[1])
    if kind == "draw":
        return ("draw", s.epoch)
    if kind == "deal":
        return ("deal", pend[1])
    return None


MARGIN = 0.5
"""Share of the winning margin in the reward of a finished playout (:func:`final`)."""


def final(state: State) -> list[float]:
    """The reward of a finished playout for search: the returns, blended (:data:`MARGIN`)
    with chances from the final VP, so a search comparing moves also sees by how much."""
    s: EpochsState = state  # type: ignore[assignment]
    soft = chances([float(v) for v in s.vp])
    return [(1 - MARGIN) * r + MARGIN * c for r, c in zip(state.returns(), soft, strict=True)]


def rollout_view(state: State, seat: int) -> PlayoutView:
    """A cheap stand-in for ``state.view(seat)`` for the heuristic bot in playouts: the
    fields of the view it reads, equal to the view's (:func:`~.view.bot_view`), as a mapping
    whose facts the bot reads without the dict (:class:`~.bots_view.PlayoutView`)."""
    s: EpochsState = state  # type: ignore[assignment]
    return PlayoutView.of(s, seat)


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance to win (the returns once the game is over): the softmax
    of :func:`strengths`."""
    if state.is_terminal():
        return state.returns()
    s: EpochsState = state  # type: ignore[assignment]
    # the evaluation reads the rules and the position's facts alone (features, progress):
    # search evaluates the same position again and again (the draws of an attack's dice
    # when it ranks the root's actions, E12), so each answer is remembered
    pos = facts_of_state(s, None)
    key = (rules_id(s.rules), pos)
    hit = _EVALUATIONS.get(key)
    if hit is None:
        if len(_EVALUATIONS) >= _EVALUATION_LIMIT:
            _EVALUATIONS.clear()
        hit = _EVALUATIONS[key] = tuple(win_chances(strengths(s, pos), 1.0))
    return list(hit)


_EVALUATION_LIMIT = 2_000
_EVALUATIONS: dict[tuple[int, Facts], tuple[float, ...]] = remembered({})
"""Answers of :func:`evaluate` per rules (:func:`~.bots_view.rules_id`) and position's facts."""


__all__ = [
    "FEATURES",
    "MARGIN",
    "TEMPERATURE",
    "WEIGHTS",
    "chance_key",
    "chances",
    "evaluate",
    "features",
    "final",
    "phase_of",
    "progress",
    "rollout_view",
    "strengths",
    "weights",
]
