"""Benchmark: seeded Mesopotamia: Epochs games between heuristic bots (and against random).

Runs ``--games`` seeded games spread evenly over 2, 3, 4 and 5 players (default 500), on
``--workers`` processes (default 2), and prints per player count: games finished, errors,
truncated games, average plies (every action, chance included) and decisions, the winning
VP, wins per seat (seat 0 = brooch ... 4 = urn; shared victories count a fraction) so that
balance by turn position can be judged, and seconds per game (wall and CPU). With
``--vs-random N`` it also plays N two-player games of heuristic against random in each seat
order. The acceptance criterion is that every heuristic game finishes without error.

    .venv/bin/python benchmarks/epochs_heuristic.py [--games 500] [--workers 2]
        [--players 2,3,4,5] [--max-plies 100000] [--vs-random 0] [--seed 0]

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
from ziggurat.engine.contract import CHANCE

GAME = "mesopotamia-epochs"


@dataclass
class Outcome:
    players: int
    seed: int
    kinds: tuple[str, ...]
    returns: list[float] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    plies: int = 0
    decisions: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    truncated: bool = False
    error: str = ""


def run_one(job: tuple[int, int, tuple[str, ...], int]) -> Outcome:
    players, seed, kinds, max_plies = job
    out = Outcome(players, seed, kinds)
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        game = ziggurat.load(GAME, players=players)
        bots = [make_bot(kind, game, seat) for seat, kind in enumerate(kinds)]

        def count(_state: object, who: int, _action: str) -> None:
            if who != CHANCE:
                out.decisions += 1

        result = play_game(game, bots, seed, max_plies=max_plies, on_action=count)
        out.plies = result.plies
        out.truncated = result.truncated
        out.returns = list(result.state.returns())
        out.vp = [int(p["vp"]) for p in result.state.to_position()["players"]]
        invariants = game.invariants(result.state)
        if invariants:
            out.error = "invariants broken: " + "; ".join(invariants)
    except Exception:  # noqa: BLE001 - a benchmark reports every failure and goes on
        out.error = traceback.format_exc(limit=6)
    out.seconds = time.perf_counter() - start
    out.cpu = time.process_time() - cpu
    return out


def _finished(o: Outcome) -> bool:
    return not o.error and not o.truncated and bool(o.returns)


def _report(title: str, outcomes: list[Outcome]) -> bool:
    by_n: dict[int, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_n[o.players].append(o)
    all_ok = True
    print(title)
    for n in sorted(by_n):
        rows = by_n[n]
        done = [o for o in rows if _finished(o)]
        errors = [o for o in rows if o.error]
        stalled = [o for o in rows if o.truncated]
        wins = [sum(o.returns[seat] for o in done) for seat in range(n)]
        k = max(1, len(done))
        plies = sum(o.plies for o in done) / k
        decisions = sum(o.decisions for o in done) / k
        top = sum(max(o.vp) for o in done) / k
        secs = sum(o.seconds for o in rows) / max(1, len(rows))
        cpu = sum(o.cpu for o in rows) / max(1, len(rows))
        slowest = max((o.seconds for o in rows), default=0.0)
        seats = ", ".join(f"{w:g}" for w in wins)
        print(
            f"  {n} players: {len(rows)} games, {len(done)} finished, errors {len(errors)}, "
            f"truncated {len(stalled)}; avg plies {plies:.0f} ({decisions:.0f} decisions), "
            f"winner's VP {top:.1f}; wins by seat [{seats}]; "
            f"{secs:.3f} s/game ({cpu:.3f} s CPU, slowest {slowest:.3f} s)"
        )
        for o in errors[:3]:
            print(f"    error in seed {o.seed}:\n{o.error}")
        for o in stalled[:10]:
            print(f"    truncated: seed {o.seed} after {o.plies} plies")
        all_ok = all_ok and len(done) == len(rows)
    return all_ok


def _vs_random(outcomes: list[Outcome]) -> None:
    heur = sum(o.returns[o.kinds.index("heuristic")] for o in outcomes if _finished(o))
    margin = [o.vp[o.kinds.index("heuristic")] - o.vp[o.kinds.index("random")] for o in outcomes if o.vp]
    avg = sum(margin) / max(1, len(margin))
    print(f"  heuristic vs random: heuristic won {heur:g} of {len(outcomes)}, average VP margin {avg:+.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500, help="heuristic games in total (default 500)")
    ap.add_argument("--players", default="2,3,4,5", help="player counts (default 2,3,4,5)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--max-plies", type=int, default=100_000, help="ply cap per game (default 100000)")
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
        outcomes = pool.map(run_one, jobs, chunksize=4)
        rnd = pool.map(run_one, rnd_jobs, chunksize=4) if rnd_jobs else []
    wall = time.perf_counter() - start
    ok = _report(f"heuristic self-play, {len(jobs)} games:", outcomes)
    if rnd:
        _report(f"heuristic vs random, {len(rnd)} games:", rnd)
        _vs_random(rnd)
    print(f"wall time {wall:.1f} s on {args.workers} worker(s)")
    print("ALL FINISHED WITHOUT ERROR" if ok else "SOME GAMES DID NOT FINISH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
