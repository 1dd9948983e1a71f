"""Benchmark: seeded Mesopotamia games between heuristic bots (and against random).

Runs ``--games`` seeded games spread over 2, 3 and 4 players (default 500), on ``--workers``
processes (default 2), and prints per player count: games finished with a winner, wins per
seat, errors, truncated games, average plies and rounds, and seconds per game. With
``--vs-random N`` it also plays N two-player games of heuristic against random in each seat
order. The project's acceptance criterion is that all the heuristic games finish with a
winner and no error.

    .venv/bin/python benchmarks/mesopotamia_heuristic.py [--games 500] [--workers 2]
        [--players 2,3,4] [--max-plies 20000] [--vs-random 0] [--seed 0]

The figures are printed, never checked: timing depends on the machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field

import ziggurat
from ziggurat.bots import make_bot, play_game


@dataclass
class Outcome:
    players: int
    seed: int
    kinds: tuple[str, ...]
    winner: int | None = None
    plies: int = 0
    rounds: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    truncated: bool = False
    error: str = ""
    delivered: list[int] = field(default_factory=list)


def run_one(job: tuple[int, int, tuple[str, ...], int]) -> Outcome:
    players, seed, kinds, max_plies = job
    out = Outcome(players, seed, kinds)
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        game = ziggurat.load("mesopotamia", players=players)
        bots = [make_bot(kind, game, seat) for seat, kind in enumerate(kinds)]
        result = play_game(game, bots, seed, max_plies=max_plies)
        state = result.state
        out.plies = result.plies
        out.truncated = result.truncated
        pos = state.to_position()
        out.rounds = pos["round"]
        out.delivered = [len(p["offerings"]["delivered"]) for p in pos["players"]]
        returns = state.returns()
        if 1.0 in returns:
            out.winner = returns.index(1.0)
    except Exception:  # noqa: BLE001 - a benchmark reports every failure and goes on
        out.error = traceback.format_exc(limit=4)
    out.seconds = time.perf_counter() - start
    out.cpu = time.process_time() - cpu
    return out


def _report(title: str, outcomes: list[Outcome]) -> bool:
    by_n: dict[int, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_n[o.players].append(o)
    all_ok = True
    print(title)
    for n in sorted(by_n):
        rows = by_n[n]
        done = [o for o in rows if o.winner is not None]
        errors = [o for o in rows if o.error]
        stalled = [o for o in rows if o.truncated]
        wins = [sum(1 for o in done if o.winner == seat) for seat in range(n)]
        plies = sum(o.plies for o in done) / max(1, len(done))
        rounds = sum(o.rounds for o in done) / max(1, len(done))
        secs = sum(o.seconds for o in rows) / max(1, len(rows))
        cpu = sum(o.cpu for o in rows) / max(1, len(rows))
        print(
            f"  {n} players: {len(rows)} games, {len(done)} with a winner, wins by seat {wins}, "
            f"errors {len(errors)}, truncated {len(stalled)}, "
            f"avg plies {plies:.0f}, avg rounds {rounds:.1f}, {secs:.2f} s/game ({cpu:.2f} s CPU)"
        )
        for o in errors[:3]:
            print(f"    error in seed {o.seed}:\n{o.error}")
        for o in stalled[:10]:
            print(f"    truncated: seed {o.seed}, delivered {o.delivered}, rounds {o.rounds}")
        all_ok = all_ok and len(done) == len(rows)
    return all_ok


def _vs_random(outcomes: list[Outcome]) -> None:
    heur = sum(1 for o in outcomes if o.winner is not None and o.kinds[o.winner] == "heuristic")
    rand = sum(1 for o in outcomes if o.winner is not None and o.kinds[o.winner] == "random")
    print(f"  heuristic vs random: heuristic won {heur} of {len(outcomes)}, random won {rand}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500, help="heuristic games in total (default 500)")
    ap.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--max-plies", type=int, default=20_000, help="ply cap per game (default 20000)")
    ap.add_argument("--vs-random", type=int, default=0, help="2-player games vs random per seat order")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    jobs = []
    for k in range(args.games):
        n = counts[k % len(counts)]
        jobs.append((n, args.seed + k, ("heuristic",) * n, args.max_plies))
    rnd_jobs = []
    for k in range(args.vs_random):
        seed = args.seed + 100_000 + k
        rnd_jobs.append((2, seed, ("heuristic", "random"), args.max_plies))
        rnd_jobs.append((2, seed, ("random", "heuristic"), args.max_plies))
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        outcomes = pool.map(run_one, jobs, chunksize=1)
        rnd = pool.map(run_one, rnd_jobs, chunksize=1) if rnd_jobs else []
    wall = time.perf_counter() - start
    ok = _report(f"heuristic self-play, {len(jobs)} games:", outcomes)
    if rnd:
        _report(f"heuristic vs random, {len(rnd)} games:", rnd)
        _vs_random(rnd)
    print(f"wall time {wall:.1f} s on {args.workers} worker(s)")
    print("ALL FINISHED WITH A WINNER" if ok else "SOME GAMES DID NOT FINISH WITH A WINNER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
