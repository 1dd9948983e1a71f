"""Benchmark: fit the Mesopotamia: Epochs cut-off evaluator on heuristic self-play.

Plays ``--games`` seeded games per player count between heuristic bots. Wherever the search
would evaluate (every change of ``evaluate.phase_of`` at a decision), it records each seat's
``evaluate.features`` (read from the full state: the sampled world the search sees), the
Epoch and its ``evaluate.progress``; at the end, the winner (a shared victory split evenly).
Then it fits a conditional logit, P(winner = seat) = softmax over seats of w . f, whose
weights are given at the start and at the end of each Epoch and move linearly with the
progress in between (the shape of ``evaluate.WEIGHTS``), all player counts pooled, every
weight at least 0 (more VP, areas or tribes is never worse). Games are split: one in
``--holdout`` is held out for the scores, the rest fit.

It prints, per player count and per Epoch (and per tenth of the game elapsed), the mean
log-likelihood of the eventual winner on held-out positions for: a coin (log 1/n), the old
evaluator (``chances(projected(s))``, a softmax of projected VP at ``TEMPERATURE``, frozen here), the
evaluator installed in ``evaluate.py`` (``WEIGHTS``) and the refit; with the share of
positions where the top-rated seat won and the mean chance given to the winner. Last, the
refit ``WEIGHTS`` ready to paste into ``src/ziggurat/games/mesopotamia_epochs/evaluate.py``.

    .venv/bin/python benchmarks/fit_epochs_evaluator.py [--games 1500] [--players 2 3 4]
        [--seed 1] [--holdout 4] [--l2 1e-5] [--cache DIR]

Playing is the slow part (some 0.03, 0.06 and 0.1 s a game with 2, 3 and 4 players, features
included): with ``--cache DIR`` each player count's records are kept in DIR and read back on
the next run with the same games and seed, so the counts can be played in separate runs.
Needs numpy and scipy (the evaluator itself needs neither).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from phase_starts import phase_starts
from scipy.optimize import minimize

import ziggurat
from ziggurat.games.mesopotamia_epochs import evaluate
from ziggurat.games.mesopotamia_epochs.bots_model import Picture, bits
from ziggurat.games.mesopotamia_epochs.position import to_position
from ziggurat.games.mesopotamia_epochs.rounds import round_score
from ziggurat.games.mesopotamia_epochs.state import EpochsState

EPOCHS = 5


# ---- the previous evaluator, frozen (evaluate.py before this fit), the baseline of the report

FUTURE_KEEP = 0.4
ENTRY_AREAS = 0.5


def projected(s: EpochsState) -> list[float]:
    """Each seat's VP plus what its Peoples should still score, valued as the heuristic bot
    values an area (the evaluator before the fitted one): this Epoch's round score once more
    for each People still to act, each area's ``hold_value``, and ``ENTRY_AREAS`` areas per
    initial tribe of a People still to enter, kept at ``FUTURE_KEEP`` per later Epoch."""
    peoples = s.rules.peoples
    epoch = s.epoch
    later = sum(FUTURE_KEEP**k for k in range(1, peoples.epochs - epoch + 1))
    pos = to_position(s)
    out = [float(v) for v in s.vp]
    for seat in range(s.n):
        pic = Picture(s.game, pos, seat)  # the seat's own side: whom it fears, what it may lose
        for p, owner in enumerate(s.owner):
            if owner != seat:
                continue
            comes = pic.acts_later(p)
            if s.held[p]:
                if comes:
                    out[seat] += round_score(s, p)
                for a in bits(s.held[p]):
                    out[seat] += pic.hold_value(p, a, s.cnt[a])
            elif comes and peoples.card_epoch[p] == epoch and p != s.active:
                out[seat] += ENTRY_AREAS * peoples.initial[p] * (1.0 + later)
    return out


def play(players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """Records of ``games`` seeded heuristic games: features, Epoch, progress, share of the
    game elapsed, game index, the old evaluator's chances and the returns."""
    game = ziggurat.load("mesopotamia-epochs", players=players)
    cols: dict[str, list[Any]] = {k: [] for k in ("f", "epoch", "t", "elapsed", "game", "old", "r")}
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + players * 100_003 + g)
        rows = []
        for state, decisions in phase_starts(game, rng, evaluate.phase_of):
            if state.is_terminal():
                break
            s: Any = state
            f = evaluate.features(s)
            if g == 0:  # the installed evaluator is what this script computes from features
                w = evaluate.weights(s)
                mine = softmax(np.array([[sum(a * b for a, b in zip(w, x, strict=True)) for x in f]]))[0]
                assert np.allclose(mine, evaluate.evaluate(state)), "evaluate() and features() disagree"
            rows.append((f, s.epoch, evaluate.progress(s), decisions, evaluate.chances(projected(s))))
        returns = state.returns()
        for f, epoch, t, at, old in rows:
            cols["f"].append(f)
            cols["epoch"].append(epoch)
            cols["t"].append(t)
            cols["elapsed"].append(at / decisions)
            cols["game"].append(g)
            cols["old"].append(old)
            cols["r"].append(returns)
    return {k: np.array(v, dtype=float) for k, v in cols.items()}


def records(players: int, games: int, seed: int, cache: Path | None) -> dict[str, np.ndarray]:
    return cached(cache, f"epochs_{players}p_{games}g_seed{seed}.npz", lambda: play(players, games, seed))


def cached(cache: Path | None, name: str, play: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The records ``play()`` makes, kept in ``cache/name`` (read back from there if it is
    there); how many positions and how long it took are printed."""
    path = cache / name if cache else None
    if path is not None and path.exists():
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    start = time.time()
    out = play()
    print(f"{name}: {len(out['r'])} positions, {time.time() - start:.0f} s", file=sys.stderr)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **out)
    return out


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def design(d: dict[str, np.ndarray]) -> np.ndarray:
    """Features times the hat basis of ``WEIGHTS``: (positions, seats, Epochs * 2 * features),
    in the order epoch, start/end, feature."""
    n, seats, k = d["f"].shape
    basis = np.zeros((n, EPOCHS, 2))
    rows = np.arange(n)
    e = d["epoch"].astype(int) - 1
    basis[rows, e, 0] = 1 - d["t"]
    basis[rows, e, 1] = d["t"]
    return np.einsum("nb,nsk->nsbk", basis.reshape(n, -1), d["f"]).reshape(n, seats, -1)


def installed() -> np.ndarray:
    return np.array(
        [[[evaluate.WEIGHTS[f][e][i] for f in evaluate.FEATURES] for i in (0, 1)] for e in range(EPOCHS)]
    ).ravel()


def fit(sets: list[tuple[np.ndarray, np.ndarray]], l2: float) -> np.ndarray:
    """Maximum likelihood (L2-regularised, weights >= 0) over every player count's (design, returns)."""
    k = sets[0][0].shape[2]
    scale = np.sqrt(np.mean(np.concatenate([x.reshape(-1, k) for x, _ in sets]) ** 2, axis=0)) + 1e-9
    total = sum(len(x) for x, _ in sets)

    def loss(v: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = l2 * float(v @ v), 2 * l2 * v
        for x, r in sets:
            z = (x / scale) @ v
            p = softmax(z)
            value -= float((r * np.log(np.maximum(p, 1e-300))).sum()) / total
            grad -= np.einsum("ns,nsk->k", r - p, x / scale) / total
        return value, grad

    res = minimize(loss, np.zeros(k), jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * k)
    out: np.ndarray = res.x / scale
    return out


def scores(p: np.ndarray, r: np.ndarray) -> tuple[float, float, float]:
    """Mean log-likelihood of the winner, share of top-rated winners, mean chance of the winner."""
    ll = (r * np.log(np.maximum(p, 1e-300))).sum(axis=1)
    top = r[np.arange(len(r)), p.argmax(axis=1)]
    return float(ll.mean()), float(top.mean()), float((r * p).sum(axis=1).mean())


def report(
    players: int, d: dict[str, np.ndarray], w_old: np.ndarray, w_new: np.ndarray, test: np.ndarray
) -> None:
    x = design(d)[test]
    r = d["r"][test]
    models = {"old": d["old"][test], "installed": softmax(x @ w_old), "refit": softmax(x @ w_new)}
    coin = math.log(1 / players)
    print(
        f"\n{players} players: {int(test.sum())} held-out positions from {len(set(d['game'][test]))} games, coin {coin:.3f}"
    )
    head = f"{'':>10} {'positions':>9} " + " ".join(f"{m + ' LL':>12}" for m in models)
    head += "   top-rated won (old/inst/refit)   p(winner) (old/inst/refit)"
    print(head)
    groups = [(f"Epoch {e}", d["epoch"][test] == e) for e in range(1, EPOCHS + 1)]
    groups.append(("all", np.ones(len(r), bool)))
    elapsed = d["elapsed"][test]
    groups += [
        (f"{10 * i}-{10 * i + 10}%", (elapsed >= i / 10) & (elapsed < (i + 1) / 10)) for i in range(10)
    ]
    for name, sel in groups:
        if not sel.any():
            continue
        got = {m: scores(p[sel], r[sel]) for m, p in models.items()}
        line = f"{name:>10} {int(sel.sum()):>9} " + " ".join(f"{got[m][0]:>12.3f}" for m in models)
        line += "   " + " / ".join(f"{got[m][1]:.2f}" for m in models)
        line += "               " + " / ".join(f"{got[m][2]:.2f}" for m in models)
        print(line)


def _num(x: float) -> str:
    text = f"{x:.3g}"
    return text if "." in text or "e" in text else text + ".0"


def weights_text(w: np.ndarray) -> str:
    k = len(evaluate.FEATURES)
    cube = w.reshape(EPOCHS, 2, k)
    lines = ["WEIGHTS: dict[str, tuple[tuple[float, float], ...]] = {"]
    for i, name in enumerate(evaluate.FEATURES):
        pairs = ", ".join(f"({_num(cube[e, 0, i])}, {_num(cube[e, 1, i])})" for e in range(EPOCHS))
        lines.append(f'    "{name}": ({pairs}),')
    lines.append("}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--holdout", type=int, default=4, help="hold out one game in this many")
    parser.add_argument("--l2", type=float, default=1e-5, help="penalty on the standardised weights")
    parser.add_argument("--cache", type=Path, default=None, help="directory to keep the records in")
    args = parser.parse_args(argv)
    data = {n: records(n, args.games, args.seed, args.cache) for n in args.players}
    tests = {n: d["game"].astype(int) % args.holdout == 0 for n, d in data.items()}
    w_new = fit([(design(d)[~tests[n]], d["r"][~tests[n]]) for n, d in data.items()], args.l2)
    w_old = installed()
    print(
        f"held-out log-likelihood of the winner ({args.games} games per count, seed {args.seed}, 1 in {args.holdout} held out)"
    )
    for n, d in data.items():
        report(n, d, w_old, w_new, tests[n])
    print("\nrefit, for src/ziggurat/games/mesopotamia_epochs/evaluate.py:\n")
    print(weights_text(w_new))


if __name__ == "__main__":
    main()
