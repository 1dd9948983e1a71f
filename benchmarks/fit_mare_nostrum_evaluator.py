"""Fit Mare Nostrum's cut-off evaluator (``ziggurat.games.mare_nostrum.evaluate``) on self-play.

Plays ``--games`` seeded games of heuristic bots per player count (the bots read
``evaluate.rollout_view``, as in search playouts). At the first decision of every phase (each
change of ``evaluate.phase_of``: where search evaluates) it records each seat's features
(``evaluate.progress``), its empire and the points of the previous evaluator; at the end, the
winner. Then it fits a conditional-logit model, P(winner = s) = softmax_s(w . f_s), on the
training games (all but every ``--holdout``-th game) and prints the held-out mean
log-likelihood of the winner per position for:

- ``uniform``: 1 / n for every seat;
- ``previous``: the evaluator before this fit (frozen below), as shipped and with its
  temperature refitted;
- ``empire only``: the empire dealt, fitted;
- ``features only``: ``evaluate.FEATURES`` alone, fitted;
- ``fitted``: the features plus the empire dealt (the model of ``evaluate.py``), fitted;
- ``shipped``: ``evaluate.points`` with the constants in the module now (it matches
  ``fitted`` once the printed constants are pasted there).

Feature weights are constrained to be non-negative (a seat is never worse for having more of
anything the features count); empire terms are free, against the board's first empire.
Needs scipy (a benchmark dependency only).

    .venv/bin/python benchmarks/fit_mare_nostrum_evaluator.py [--games 2500] [--players 3 4]
        [--seed 0] [--holdout 4] [--l2 1e-4]

About 25 ms per game at 3 players, 40 at 4 (one process).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from phase_starts import phase_starts
from scipy.optimize import minimize

import ziggurat
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import evaluate as E

PHASES = ("trade", "buy", "mil", "claim", "other")


# ---- the previous evaluator, frozen (evaluate.py before this fit)


def _previous_points(d: dict[str, Any]) -> list[float]:
    """``NEAREST * max(progress) + SUM * sum(progress) + ECONOMY * economy`` over tiles,
    capitals, titles and raw tokens / 12; its softmax temperature was 0.2."""
    n, opts = d["n"], d["opts"]
    levels = [B.tracks(d, s) for s in range(n)]
    out = []
    for s in range(n):
        tiles = B.tiles_counted(d, s) / max(1, int(opts["tiles_to_win"]))
        caps = B.victory_cities(d, s) / max(1, int(opts["capitals_to_win"]))
        lead = 0.0
        for t in D.TRACKS:
            margin: float = levels[s][t] - max(levels[o][t] for o in range(n) if o != s)
            if margin == 0 and d["titles"].get(t) == s:
                margin = 0.5
            lead += 1.0 / (1.0 + math.exp(-margin / 1.5))
        titles = (lead / len(D.TRACKS)) ** 8.0
        pyramids = (
            0.0 if d["pyramids"] is not None else min(1.0, B.n_tokens(d, s) / int(opts["pyramids_cost"]))
        )
        economy = float(levels[s]["trade"] + levels[s]["culture"])
        near = (tiles, caps, titles, pyramids)
        out.append(0.5 * max(near) + 1.0 * sum(near) + 0.1 * economy)
    return out


PREVIOUS_TEMPERATURE = 0.2


# ---- self-play


def play(n: int, seed: int) -> tuple[list[dict[str, Any]], int | None]:
    """One seeded heuristic game: a record at the first decision of every phase, and the winner."""
    game = ziggurat.load("mare-nostrum", players=n)
    records = []
    for state, _ in phase_starts(game, random.Random(seed), E.phase_of, E.rollout_view):
        if state.is_terminal():
            break
        d: dict[str, Any] = state.d  # type: ignore[attr-defined]
        stage = E.phase_of(state)[1]
        records.append(
            {
                "phase": PHASES.index(stage) if stage in PHASES else PHASES.index("other"),
                "features": E.progress(d),
                "empires": list(d["empires"]),
                "previous": _previous_points(d),
                "shipped": E.points(d),
            }
        )
    returns = state.returns()
    return records, (returns.index(max(returns)) if max(returns) > 0 else None)


# ---- conditional logit


def _nll(w: np.ndarray, f: np.ndarray, y: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """Negative log-likelihood of the winners ``y`` (positions x seats x features) and its
    gradient, with an L2 penalty of ``l2`` per position."""
    z = f @ w
    z = z - z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1))
    rows = np.arange(len(y))
    p = np.exp(z - lse[:, None])
    grad = -(f[rows, y] - np.einsum("ns,nsk->nk", p, f)).sum(axis=0) + 2 * l2 * len(y) * w
    return float(-(z[rows, y] - lse).sum() + l2 * len(y) * (w @ w)), grad


def fit(f: np.ndarray, y: np.ndarray, lower: list[float | None], l2: float) -> np.ndarray:
    bounds = [(lo, None) for lo in lower]
    res = minimize(_nll, np.zeros(f.shape[2]), args=(f, y, l2), jac=True, method="L-BFGS-B", bounds=bounds)
    return np.asarray(res.x)


def mean_ll(scores: np.ndarray, y: np.ndarray) -> float:
    """Mean log-likelihood of the winners under softmax(scores) (positions x seats)."""
    z = scores - scores.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=1))
    return float((z[np.arange(len(y)), y] - lse).mean()) if len(y) else float("nan")


# ---- one player count


def run(n: int, games: int, seed: int, holdout: int, l2: float) -> None:
    start = time.time()
    feats, emps, prev, shipped, phase, winner, test = [], [], [], [], [], [], []
    finished = 0
    for i in range(games):
        records, w = play(n, seed + i)
        if w is None:
            continue
        finished += 1
        for r in records:
            if None in r["empires"]:
                continue  # before the empires are dealt
            feats.append(r["features"])
            emps.append(r["empires"])
            prev.append(r["previous"])
            shipped.append(r["shipped"])
            phase.append(r["phase"])
            winner.append(w)
            test.append(i % holdout == 0)
    played = time.time() - start
    f = np.array(feats, dtype=float)
    y = np.array(winner)
    ph = np.array(phase)
    te = np.array(test)
    tr = ~te
    order = D.board(n).empires
    dummies = np.stack([(np.array(emps) == e).astype(float) for e in order[1:]], axis=2)
    full = np.concatenate([dummies, f], axis=2)
    k_emp = dummies.shape[2]
    w_full = fit(full[tr], y[tr], [None] * k_emp + [0.0] * f.shape[2], l2)
    w_feat = fit(f[tr], y[tr], [0.0] * f.shape[2], l2)
    w_emp = fit(dummies[tr], y[tr], [None] * k_emp, l2)
    prev_a = np.array(prev)
    w_prev = fit(prev_a[tr][:, :, None], y[tr], [0.0], l2)
    models: list[tuple[str, Callable[[np.ndarray], np.ndarray]]] = [
        ("uniform", lambda m: np.zeros((int(m.sum()), n))),
        ("previous (T=0.2)", lambda m: prev_a[m] / PREVIOUS_TEMPERATURE),
        ("previous, T refit", lambda m: prev_a[m] * w_prev[0]),
        ("empire only", lambda m: dummies[m] @ w_emp),
        ("features only", lambda m: f[m] @ w_feat),
        ("fitted (+ empire)", lambda m: full[m] @ w_full),
        ("shipped evaluate.py", lambda m: np.array(shipped)[m] / E.TEMPERATURE),
    ]
    print(
        f"\n== {n} players: {finished} games ({games - finished} without a winner), "
        f"{len(y)} positions ({int(te.sum())} held out), {played:.0f} s of play"
    )
    head = f"{'model':22s} {'held-out':>9s} {'train':>8s} " + " ".join(f"{p:>7s}" for p in PHASES)
    print(head)
    print("-" * len(head))
    for name, score in models:
        per = [mean_ll(score(te & (ph == p)), y[te & (ph == p)]) for p in range(len(PHASES))]
        print(
            f"{name:22s} {mean_ll(score(te), y[te]):9.4f} {mean_ll(score(tr), y[tr]):8.4f} "
            + " ".join(f"{x:7.3f}" for x in per)
        )
    print("(log-likelihood of the winner per position; columns by phase are held out)")
    print(f"\nfitted weights, {n} players (paste into evaluate.py):")
    for name, w in zip(E.FEATURES, w_full[k_emp:], strict=True):
        print(f"  {name.upper():18s} {n}: {w:.2f}   (features only: {w_feat[E.FEATURES.index(name)]:.2f})")
    prior = {order[0]: 0.0} | {e: round(float(w), 2) for e, w in zip(order[1:], w_full[:k_emp], strict=True)}
    print(f"  EMPIRE_PRIOR       {n}: {prior}")
    print(f"  previous model, temperature refit: {1 / w_prev[0]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2500, help="games per player count")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--holdout", type=int, default=4, help="hold out every HOLDOUT-th game")
    ap.add_argument("--l2", type=float, default=1e-4, help="L2 penalty per position")
    args = ap.parse_args()
    for n in args.players:
        run(n, args.games, args.seed, args.holdout, args.l2)


if __name__ == "__main__":
    main()
