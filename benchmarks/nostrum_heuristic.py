"""Benchmark the Mare Nostrum: Empires heuristic bot: N seeded all-heuristic games.

Usage: ``python benchmarks/nostrum_heuristic.py [--games 300] [--procs 2]``. Games cycle over
3, 4 and 5 players; prints finished/errors/average length, wins by empire and by victory
condition (read from the final position), and seconds per game.
"""

from __future__ import annotations

import argparse
import time
import traceback
from collections import Counter
from multiprocessing import Pool
from typing import Any

from ziggurat.bots import make_bot, play_game
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum.bots import victory_condition


def one(args: tuple[int, int]) -> dict[str, Any]:
    seed, n = args
    t0 = time.perf_counter()
    try:
        game = MareNostrumGame(n, {})
        bots = [make_bot("heuristic", game, s) for s in range(n)]
        res = play_game(game, bots, seed=seed)
        pos = res.state.to_position()
        w = pos["winner"]
        return {
            "n": n,
            "ok": not res.truncated,
            "plies": res.plies,
            "rounds": pos["round"],
            "empire": pos["empires"][w] if w is not None else None,
            "how": victory_condition(pos, game.opts),
            "secs": time.perf_counter() - t0,
            "error": None,
        }
    except Exception:  # noqa: BLE001 - the benchmark reports every failure
        return {"n": n, "ok": False, "error": traceback.format_exc(), "secs": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    jobs = [(args.seed + i, 3 + i % 3) for i in range(args.games)]
    t0 = time.perf_counter()
    with Pool(args.procs) as pool:
        out = pool.map(one, jobs, chunksize=1)
    wall = time.perf_counter() - t0
    errors = [r for r in out if r["error"]]
    done = [r for r in out if r["ok"]]
    print(
        f"games {len(out)}  finished {len(done)}  errors {len(errors)}  truncated {len(out) - len(done) - len(errors)}"
    )
    if done:
        print(
            f"average plies {sum(r['plies'] for r in done) / len(done):.0f}  "
            f"average rounds {sum(r['rounds'] for r in done) / len(done):.1f}"
        )
    for n in (3, 4, 5):
        sub = [r for r in done if r["n"] == n]
        if sub:
            print(
                f"  {n} players: {len(sub)} games, rounds {sum(r['rounds'] for r in sub) / len(sub):.1f}, "
                f"empires {dict(Counter(r['empire'] for r in sub).most_common())}"
            )
    print("wins by empire:", dict(Counter(r["empire"] for r in done).most_common()))
    print("wins by victory condition:", dict(Counter(r["how"] for r in done).most_common()))
    cpu = sum(r["secs"] for r in out)
    print(
        f"seconds per game: {cpu / max(1, len(out)):.2f} (cpu), wall {wall:.1f}s with {args.procs} processes"
    )
    for r in errors[:3]:
        print(r["error"])


if __name__ == "__main__":
    main()
