"""Benchmark: fit the Mesopotamia cut-off evaluator on heuristic self-play.

Plays ``--games`` seeded games of heuristic bots per player count. At the start of every turn
(every change of ``evaluate.phase_of``: where search evaluates) it records each seat's
``evaluate.FEATURES`` (``Evaluator.features``, read from the full state: the sampled world
the search sees), the *stage* (the most offerings any seat has delivered, 0 to 3) and, at the
end, the winner. Then it fits conditional logits, P(winner = seat) = softmax over seats of
w . f, one per player count, and compares on held-out games (one in ``--holdout``):

- ``coin``: 1 / n;
- ``T=200``: the softmax of the heuristic's points at ``evaluate.TEMPERATURE`` (the
  evaluator before this fit);
- ``installed``: what ``evaluate.WEIGHTS`` gives for that player count (``T=200`` where it
  has none);
- ``T``: the points alone, their weight (one over a temperature) refitted;
- ``flat``: every feature, one weight each;
- ``staged``: every feature, one weight each per stage.

For each it prints the mean log-likelihood of the eventual winner, the share of positions
whose top-rated seat won, and the mean chance given to the winner, over all held-out
positions and per stage; then the ``staged`` weights, ready for ``evaluate.WEIGHTS``.

    .venv/bin/python benchmarks/fit_mesopotamia_evaluator.py [--games 800] [--players 3]
        [--seed 1] [--holdout 4] [--l2 1e-4] [--jobs 2] [--cache DIR]

A 3-player game of heuristic bots takes about a second with its features, so the games are
played by ``--jobs`` processes; with ``--cache DIR`` each player count's records are kept in
DIR and read back on the next run with the same games and seed. Needs numpy and scipy (the
evaluator itself needs neither).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from fit_epochs_evaluator import cached, scores, softmax
from phase_starts import phase_starts
from scipy.optimize import minimize

import ziggurat
from ziggurat.games.mesopotamia import evaluate

STAGES = 4
ROUND_LIMIT = 150


def play_one(players: int, seed: int, g: int) -> dict[str, list[Any]]:
    """One seeded game's records: features, stage, game index, returns."""
    # heuristic bots can still stall a game for hundreds of rounds, rarely (one 2-player game
    # in 340 of a test ran to round 504: two seats at their Mana limit, a wood carrier on a
    # hut site whose partner does not walk over, since no single step of it raises the
    # greedy evaluation): such a game ends at the round limit, unwon, and is left out of the fit
    game = ziggurat.load("mesopotamia", players=players, round_limit=ROUND_LIMIT)
    rng = random.Random(seed * 1_000_003 + players * 100_003 + g)
    ev = evaluate.make_evaluator()
    rows = []
    for state, _ in phase_starts(game, rng, evaluate.phase_of, evaluate.rollout_view):
        if state.is_terminal():
            break
        s: Any = state
        if s.phase != "setup" and s.turn_order:
            rows.append(ev.features(s))
    returns = state.returns()
    if max(returns) <= 0:
        rows = []
    return {
        "f": rows,
        "stage": [evaluate.stage(f) for f in rows],
        "game": [g] * len(rows),
        "r": [returns] * len(rows),
    }


def play(players: int, games: int, seed: int, jobs: int) -> dict[str, np.ndarray]:
    cols: dict[str, list[Any]] = {k: [] for k in ("f", "stage", "game", "r")}
    done = 0
    with ProcessPoolExecutor(jobs) as pool:
        for got in pool.map(play_one, [players] * games, [seed] * games, range(games), chunksize=4):
            for k, v in got.items():
                cols[k].extend(v)
            done += 1
            if done % 50 == 0 or done == games:
                print(f"  {players} players: {done}/{games} games", file=sys.stderr, flush=True)
    return {k: np.array(v, dtype=float) for k, v in cols.items()}


def records(players: int, games: int, seed: int, jobs: int, cache: Path | None) -> dict[str, np.ndarray]:
    return cached(cache, f"meso_{players}p_{games}g_seed{seed}.npz", lambda: play(players, games, seed, jobs))


def design(d: dict[str, np.ndarray]) -> np.ndarray:
    """(positions, seats, weights): the features times a one-hot stage (in the order stage,
    feature), the shape of ``evaluate.WEIGHTS``."""
    f = d["f"]
    n, seats, k = f.shape
    onehot = np.zeros((n, STAGES))
    onehot[np.arange(n), np.minimum(d["stage"].astype(int), STAGES - 1)] = 1
    return np.einsum("nb,nsk->nsbk", onehot, f).reshape(n, seats, STAGES * k)


def fit(x: np.ndarray, r: np.ndarray, l2: float) -> np.ndarray:
    """Maximum likelihood of the winner, L2-regularised on the standardised weights."""
    k = x.shape[2]
    scale = np.sqrt(np.mean(x.reshape(-1, k) ** 2, axis=0)) + 1e-9
    xs = x / scale
    total = len(x)

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        p = softmax(xs @ v)
        value = l2 * float(v @ v) - float((r * np.log(np.maximum(p, 1e-300))).sum()) / total
        grad = 2 * l2 * v - np.einsum("ns,nsk->k", r - p, xs) / total
        return value, grad

    res = minimize(loss, np.zeros(k), jac=True, method="L-BFGS-B")
    out: np.ndarray = res.x / scale
    return out


def report(players: int, d: dict[str, np.ndarray], test: np.ndarray, l2: float) -> np.ndarray:
    train = ~test
    r = d["r"]
    staged_x = design(d)
    fits = {
        name: (x, fit(x[train], r[train], l2))
        for name, x in (("T", d["f"][:, :, :1]), ("flat", d["f"]), ("staged", staged_x))
    }
    softmax_t = softmax(d["f"][:, :, 0] * evaluate.POINT / evaluate.TEMPERATURE)
    w_installed = evaluate.WEIGHTS.get(players)
    models = {
        "coin": np.full(r.shape, 1 / players),
        "T=200": softmax_t,
        "installed": softmax_t if w_installed is None else softmax(staged_x @ np.ravel(w_installed)),
    }
    for name, (x, w) in fits.items():
        models[name] = softmax(x @ w)
    print(
        f"\n{players} players: {int(test.sum())} held-out positions from "
        f"{len(set(d['game'][test]))} games, coin {math.log(1 / players):.3f}; "
        f"refitted T = {evaluate.POINT / fits['T'][1][0]:.0f}"
    )
    print(f"{'':>8} {'positions':>9} " + " ".join(f"{m:>22}" for m in models))
    print(f"{'':>8} {'':>9} " + " ".join(f"{'LL / top won / p(win)':>22}" for _ in models))
    groups = [(f"stage {s}", d["stage"][test] == s) for s in range(STAGES)]
    groups.append(("all", np.ones(int(test.sum()), bool)))
    for name, sel in groups:
        if not sel.any():
            continue
        line = f"{name:>8} {int(sel.sum()):>9} "
        for p in models.values():
            ll, top, pw = scores(p[test][sel], r[test][sel])
            line += f"{ll:>10.3f} {top:>5.2f} {pw:>5.2f}"
        print(line)
    print(f"flat weights ({', '.join(evaluate.FEATURES)}): " + ", ".join(f"{v:.3g}" for v in fits["flat"][1]))
    staged: np.ndarray = fits["staged"][1]
    return staged


def weights_text(players: int, w: np.ndarray) -> str:
    k = len(evaluate.FEATURES)
    rows = w.reshape(STAGES, k)
    inner = ", ".join("(" + ", ".join(f"{v:.3g}" for v in row) + ")" for row in rows)
    return f"    {players}: ({inner}),"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=800, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[3])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--holdout", type=int, default=4, help="hold out one game in this many")
    parser.add_argument("--l2", type=float, default=1e-4, help="penalty on the standardised weights")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing the games")
    parser.add_argument("--cache", type=Path, default=None, help="directory to keep the records in")
    args = parser.parse_args(argv)
    print(
        f"held-out log-likelihood of the winner ({args.games} games per count, seed {args.seed}, "
        f"1 in {args.holdout} held out)"
    )
    lines = []
    for n in args.players:
        d = records(n, args.games, args.seed, args.jobs, args.cache)
        test = d["game"].astype(int) % args.holdout == 0
        lines.append(weights_text(n, report(n, d, test, args.l2)))
    print("\nstaged weights, for WEIGHTS in src/ziggurat/games/mesopotamia/evaluate.py:\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
