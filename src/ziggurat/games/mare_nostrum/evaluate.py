"""Mare Nostrum's cut-off evaluation for search: each seat's chance to win, in [0, 1].

``points`` is a conditional-logit model fitted on heuristic self-play: each seat's points are
the log-odds of its winning, ``EMPIRE_PRIOR + sum(weight * feature)``, and the chances are
their softmax (``TEMPERATURE`` 1). The features (``progress``), read from the position only:

- **tiles** (N6.2): hero and wonder tiles counted;
- **winning tile now**: in the buy phase, one tile short of ``tiles_to_win``, a tile face up
  and resources in hand that pay its cost (2.8, R25: by round or by tiles owned, N0.8);
- **titles** (N6.4): 1 when the seat leads all three tracks (a tie counts for the title
  holder, who chooses, N5.2), else 0;
- **culture**: the Culture level (N0.7.2; its leader orders the buy phase, N3.1);
- **goods types**: distinct good types the seat's caravans produce per round (N1.2), what
  the Pyramids need twelve of;
- **pyramids**: how much of the Pyramids' cost the tokens in hand pay (N0.8, 2.9): the
  largest payment the engine's payment rules allow (``payable``: distinct good types or
  taxes, whichever is more; Hannibal and Cleopatra only where ``hero_payments_for_pyramids``
  lets them in, then by the readings in force, R28), offered and received trade tokens
  included, divided by ``pyramids_cost``. Holdings are discarded at the end of every buy
  turn (N3.13), so this counts in the trade and buy phases only, where a search cannot
  hoard them;
- **pyramids now**: in the buy phase, that payment reaches ``pyramids_cost`` (N6.1).

Heuristic self-play is unbalanced by empire (three players: Carthage wins nine games in ten;
docs/mare-nostrum.md, "Balance"), so the empire dealt is a feature too (``EMPIRE_PRIOR``,
log-odds against the first empire of the board); fitting the other weights with it keeps them
from standing in for the empire. Weights are fitted per player count with the constraint that
no feature weighs negatively; a fifth tile affordable now and the titles weigh most. Capitals
(N6.3), the Trade and Military levels, taxes produced, provinces and units were tried and got
little or no weight: they do not predict the winner of heuristic games once the rest is known.

Held-out log-likelihood of the eventual winner per position, at the first decision of each
phase (where search evaluates); 2,500 seeded heuristic games per player count, one game in
four held out, under the rules text's defaults (hero and wonder costs by round, Hannibal's and
Cleopatra's narrow readings, neither for the Pyramids, victory at once) and the heuristic that
plays the military game:

=======  =======  ==============  ===========  =============  ==========
players  uniform  previous model  empire only  features only  this model
=======  =======  ==============  ===========  =============  ==========
3        -1.099   -0.835          -0.655       -0.614         -0.526
4        -1.386   -1.464          -1.213       -1.041         -0.992
5        -1.609   -1.824          -1.579       -1.317         -1.314
=======  =======  ==============  ===========  =============  ==========

(The previous model summed tiles, capitals, titles and raw tokens / 12 with hand-set weights;
refitting its temperature gives -0.753, -1.128, -1.441. The weights fitted under the earlier
defaults scored -1.164, -1.299 and -2.397 on these games: worse than uniform.) Re-run the fit,
one player count per run (about 4, 6 and 8 minutes), with
``.venv/bin/python benchmarks/fit_mare_nostrum_evaluator.py --players 3`` (then ``4``, ``5``):
it prints these figures and the constants to paste here.
"""

from __future__ import annotations

from typing import Any

from ziggurat.bots.playout import win_chances
from ziggurat.engine.contract import State
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.buy_place import allowance, cost_tile
from ziggurat.games.mare_nostrum.payment import Allowance, can_finish

FEATURES = ("tiles", "winning_tile_now", "titles", "culture", "goods_types", "pyramids", "pyramids_now")
"""The order of each seat's row in ``progress``."""

# Fitted weights (log-odds per unit of each feature), per player count.
TILES = {3: 0.32, 4: 0.89, 5: 0.90}
WINNING_TILE_NOW = {3: 2.47, 4: 3.21, 5: 3.11}
TITLES = {3: 2.41, 4: 1.08, 5: 1.42}
CULTURE = {3: 0.12, 4: 0.10, 5: 0.12}
GOODS_TYPES = {3: 0.87, 4: 0.75, 5: 0.56}
PYRAMIDS = {3: 3.23, 4: 2.50, 5: 2.79}
PYRAMIDS_NOW = {3: 0.47, 4: 1.18, 5: 1.47}
EMPIRE_PRIOR: dict[int, dict[str, float]] = {
    3: {"rome": 0.0, "greece": 1.93, "carthage": 2.77},
    4: {"rome": 0.0, "greece": 0.72, "carthage": 0.11, "egypt": 1.90},
    5: {"rome": 0.0, "greece": 0.32, "carthage": 0.22, "egypt": 0.73, "babylon": 0.56},
}
TEMPERATURE = 1.0

SEARCH_DEFAULTS = {"root": "paired", "width": 4, "depth": 1, "plies": 100_000, "confidence": 1.0}
"""Search settings (docs/bots.md, "Paired root"): four candidates, ranked one ply on by
:func:`evaluate`, compared in paired rounds, each played out by the heuristic bots to the end
of the game. Playouts cut after 40 decisions and evaluated here ran three to four times as many
rounds, but at positions where the game is still open they left the heuristic's move for
worse ones (``benchmarks/decision_quality.py``: -0.83 +- 0.20 wins over 34 such 3-player
positions, none lost with whole games): this model predicts the winner of heuristic games, but
does not tell a good trade pick from a bad one."""


def _weights(n: int) -> tuple[float, ...]:
    k = n if n in TILES else max(TILES)
    return (
        TILES[k],
        WINNING_TILE_NOW[k],
        TITLES[k],
        CULTURE[k],
        GOODS_TYPES[k],
        PYRAMIDS[k],
        PYRAMIDS_NOW[k],
    )


def payable(d: dict[str, Any], seat: int, item: str = "") -> int:
    """The largest single payment for ``item`` (``"pyramids"``, or ``""`` for any other
    purchase) the tokens ``seat`` holds make, offered and received trade tokens included: by
    the engine's payment rules with the readings in force (N0.8.1-N0.8.3, R28), Hannibal and
    Cleopatra left out of a payment for the Pyramids unless ``hero_payments_for_pyramids``
    (2.9)."""
    tokens: dict[str, int] = dict(d["res"][seat] or {})
    trade = d.get("trade")
    if trade:
        for tok in [*(trade["offers"][seat] or []), *trade["received"][seat]]:
            tokens[tok] = tokens.get(tok, 0) + 1
    return largest_payment(tokens, allowance(d, seat, item))


def largest_payment(tokens: dict[str, int], allow: Allowance) -> int:
    """The most tokens of ``tokens`` (token -> count) one payment may hold under ``allow``:
    a bisection over ``payment.can_finish``, since a payment less one token is still one."""
    low, high = 0, sum(tokens.values())
    while low < high:
        mid = (low + high + 1) // 2
        if can_finish([], tokens, mid, "normal", allow):
            low = mid
        else:
            high = mid - 1
    return low


def progress(d: dict[str, Any]) -> list[list[float]]:
    """Per seat, the features of ``FEATURES`` (see the module docstring)."""
    n = d["n"]
    opts = d["opts"]
    levels = [{"trade": 0, "culture": 0, "military": 0} for _ in range(n)]
    types: list[set[str]] = [set() for _ in range(n)]
    for prov, slots in d["buildings"].items():
        for slot in slots:
            who = B.control(d, prov, slot)
            if who is None:
                continue
            kind = D.building_kind(slot)
            if kind == "caravan":
                types[who].add(slot[8:])
                levels[who]["trade"] += 1
            elif kind == "market":
                levels[who]["trade"] += 1
            else:
                levels[who]["culture"] += 1
    for row in d["legions"].values():
        for s, k in enumerate(row):
            levels[s]["military"] += k
    for row in d["triremes"].values():
        for s, k in enumerate(row):
            levels[s]["military"] += k
    for s in d["fortresses"].values():
        levels[s]["military"] += 1
    for s in range(n):
        for tile in d["tiles"][s]:
            for t, k in D.TILES[tile]["track_bonus"].items() if tile in D.TILES else ():
                levels[s][t] += k
    stage: str = d["stage"]
    holding = stage.startswith(("trade_", "buy_"))
    buying = stage.startswith("buy_")
    cost = int(opts["pyramids_cost"])
    to_win = int(opts["tiles_to_win"])
    face_up = any(t is not None for t in d["display"])
    out = []
    for s in range(n):
        tiles = B.tiles_counted(d, s)
        titles = 1.0
        for t in D.TRACKS:
            margin = levels[s][t] - max(levels[o][t] for o in range(n) if o != s)
            if margin < 0 or (margin == 0 and d["titles"].get(t) != s):
                titles = 0.0
                break
        pay = payable(d, s, "pyramids") if holding and d["pyramids"] is None else 0
        tile_now = buying and tiles == to_win - 1 and face_up and payable(d, s) >= cost_tile(d, s)
        out.append(
            [
                float(tiles),
                1.0 if tile_now else 0.0,
                titles,
                float(levels[s]["culture"]),
                float(len(types[s])),
                min(pay, cost) / cost,
                1.0 if buying and pay >= cost else 0.0,
            ]
        )
    return out


def points(d: dict[str, Any]) -> list[float]:
    """Per seat, the log-odds of its winning (before normalisation: see ``chances``)."""
    weights = _weights(d["n"])
    prior = EMPIRE_PRIOR.get(d["n"], {})
    out = []
    for s, row in enumerate(progress(d)):
        score = prior.get(d["empires"][s], 0.0)
        for w, x in zip(weights, row, strict=True):
            score += w * x
        out.append(score)
    return out


def chances(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's chance to win from its score (softmax at this game's temperature)."""
    return win_chances(scores, temperature)


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance to win (the returns once the game is over)."""
    if state.is_terminal():
        return state.returns()
    return chances(points(state.d))  # type: ignore[attr-defined]


def phase_of(state: State) -> tuple[int, str]:
    """The round and phase under way (production, trade, buy, military, claim: N1-N5):
    search evaluates at the end of a phase, when every seat has had its part of it."""
    d: dict[str, Any] = state.d  # type: ignore[attr-defined]
    stage: str = d["stage"]
    return (int(d["round"]), stage.split("_", 1)[0] if stage.startswith(_PHASED) else stage)


_PHASED = ("trade_", "buy_", "mil_", "claim_")


def rollout_view(state: State, seat: int) -> dict[str, Any]:
    """A cheap stand-in for ``state.view(seat)`` for the heuristic bot in playouts.

    ``view`` copies the whole position twice (JSON and deep copy); the heuristic bot reads
    the position without changing it. This shares the state's containers instead, so it is
    for sampled worlds only, where every secret is a sample. ``res_counts`` is left out: the
    bot counts the screens it reads, when a decision reads them (``bots.res_counts``).
    """
    d: dict[str, Any] = state.d  # type: ignore[attr-defined]
    v = dict(d)
    v["viewer"] = seat
    return v


__all__ = [
    "FEATURES",
    "TEMPERATURE",
    "chances",
    "evaluate",
    "largest_payment",
    "payable",
    "phase_of",
    "points",
    "progress",
    "rollout_view",
]
