"""Benchmark: how much of a game of Mesopotamia: Epochs does the Epoch-1 deal decide?

Plays seeded 2-player games of heuristic bots and prints, for every pair of Epoch-1 cards
(E1.5: one card each, dealt at random, the other three set aside), how often the first seat won, and
how well the pair alone predicts the winner: the mean log-likelihood of the winner with each
pair's own win rate (in sample, so a little optimistic), against a coin. A search bot playing
against heuristic bots cannot change the deal, only how each Peoples is played from it, so
where the deal decides much, a given gain in skill buys fewer wins (docs/strength.md, 2-player
Epochs).

    .venv/bin/python benchmarks/epochs_deal.py [--games 2000] [--jobs 2] [--seed 1]

Figures are printed, never checked.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from phase_starts import heuristic_decisions

import ziggurat

GAME = "mesopotamia-epochs"


def _one(seed: int) -> tuple[tuple[str, ...], float]:
    """Each seat's Epoch-1 People and the first seat's return in one 2-player game of heuristic
    bots."""
    game = ziggurat.load(GAME, players=2)
    state = game.new_initial_state()
    for _ in heuristic_decisions(game, state, random.Random(seed)):
        pass
    view = state.view(None)
    firsts = tuple(next(c["people"] for c in pl["cards"] if c["epoch"] == 1) for pl in view["players"])
    return firsts, float(state.returns()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(_one, seeds, chunksize=20))
    by_pair: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (first, second), result in games:
        by_pair[(first, second)].append(result)
    print(f"{GAME}, 2 players, {args.games} games of heuristic bots (seeds from {args.seed})")
    print(f"{'seat 1 card':14} {'seat 2 card':14} {'games':>6} {'seat 1 wins':>12}")
    log_lik = 0.0
    for (a, b), results in sorted(by_pair.items()):
        rate = sum(results) / len(results)
        print(f"{a:14} {b:14} {len(results):>6} {rate:>11.0%}")
        p = min(max(rate, 0.01), 0.99)
        log_lik += sum(math.log(p * r + (1 - p) * (1 - r)) for r in results)
    print(
        f"winner's mean log-likelihood from the pair: {log_lik / len(games):.3f} (coin {math.log(0.5):.3f})"
    )
    seat_one = sum(result for _, result in games) / len(games)
    print(f"the first seat wins {seat_one:.1%} ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
