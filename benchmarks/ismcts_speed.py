"""Benchmark: ISMCTS search speed (iterations per second) per game and player count.

For every game and player count, a few positions are reached by seeded heuristic self-play
(at several depths of the game), and the bot under test searches each for a fixed time, or a
fixed number of iterations (``--iterations``: the same work from one version of the code to
another), from the view of the seat to move. Printed per row: positions searched, legal actions
on average, iterations per second of wall time (summed over workers) and of this process's CPU
time (one worker only: the others' CPU is not counted), the CPU time one iteration takes, and a
digest of the positions searched (the same digest: the same positions, so two versions of the
code compare the same work) and one of the actions chosen (with an iteration budget, a change
there means the search decides differently). Figures only: they depend on the machine and on its load; nothing
is checked.

    .venv/bin/python benchmarks/ismcts_speed.py [--seconds 1 | --iterations 200] [--positions 4]
        [--specs ismcts,ismcts:rollout=random] [--games mesopotamia,...] [--players 2,3]
        [--workers 1]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import time

from phase_starts import heuristic_decisions

import ziggurat
from ziggurat.bots import close_bot, make_bot
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.bots.spec import parse_ismcts
from ziggurat.engine.contract import Game, State

PLAYER_COUNTS = {"mesopotamia": (2, 3, 4), "mesopotamia-epochs": (2, 3, 5), "mare-nostrum": (3, 4, 5)}


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` decisions (two or more legal actions) spread over a heuristic self-play game."""
    state = game.new_initial_state()
    found: list[State] = []
    for _, legal, _ in heuristic_decisions(game, state, random.Random(seed)):
        if len(legal) > 1:
            found.append(state.clone())
    if not found:
        return []
    step = max(1, len(found) // (count + 1))
    return [found[step * (i + 1)] for i in range(count) if step * (i + 1) < len(found)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="search time per position")
    ap.add_argument(
        "--iterations", type=int, default=None, help="iterations per position (instead of a time)"
    )
    ap.add_argument("--players", default=None, help="comma-separated player counts (default: each game's)")
    ap.add_argument("--positions", type=int, default=4, help="positions per game and player count")
    ap.add_argument("--specs", default="ismcts,ismcts:rollout=random", help="comma-separated ismcts specs")
    ap.add_argument("--games", default=",".join(PLAYER_COUNTS), help="comma-separated game ids")
    ap.add_argument("--workers", type=int, default=1, help="root-parallel worker processes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    budget = str(args.iterations) if args.iterations is not None else f"{args.seconds:g}s"
    print(
        f"ISMCTS speed: {budget} per position, {args.workers} worker(s), Python {platform.python_version()}"
    )
    print(
        f"{'game':20} {'players':>7} {'spec':34} {'positions':>9} {'legal':>6} {'it/s':>8} "
        f"{'cpu it/s':>8} {'cpu ms/it':>9} {'digest':>8} {'choices':>8}"
    )
    wanted = {int(n) for n in args.players.split(",")} if args.players else None
    for game_id in args.games.split(","):
        for players in PLAYER_COUNTS[game_id]:
            if wanted is not None and players not in wanted:
                continue
            game = ziggurat.load(game_id, players=players)
            spots = positions(game, args.positions, args.seed)
            digest = _digest(spots)
            for base in args.specs.split(","):
                spec = f"{base}:{budget}" + (f":workers={args.workers}" if args.workers > 1 else "")
                iterations, seconds, cpu, legal = 0, 0.0, 0.0, 0
                chosen: list[str] = []
                bots: dict[int, ISMCTSBot] = {}
                for k, state in enumerate(spots):
                    seat = state.current_player()
                    bot = bots.get(seat)
                    if bot is None:
                        made = make_bot(spec, game, seat)
                        assert isinstance(made, ISMCTSBot)
                        bot = bots[seat] = made
                    view = state.view(seat)
                    start, start_cpu = time.perf_counter(), time.process_time()
                    chosen.append(bot.choose(view, state.legal_actions(), random.Random(k)))
                    seconds += time.perf_counter() - start
                    cpu += time.process_time() - start_cpu
                    assert bot.last_stats is not None
                    iterations += bot.last_stats.iterations
                    legal += len(state.legal_actions())
                for bot in bots.values():
                    close_bot(bot)
                n = max(1, len(spots))
                ips = iterations / seconds if seconds else 0.0
                cpu_ips = iterations / cpu if cpu else 0.0
                label = parse_ismcts(spec).spec()  # canonical: the budget first
                print(
                    f"{game_id:20} {players:>7} {label:34} {len(spots):>9} {legal / n:>6.1f} "
                    f"{ips:>8.0f} {cpu_ips:>8.0f} {1000 / cpu_ips if cpu_ips else 0.0:>9.2f} {digest:>8} {_digest(chosen):>8}",
                    flush=True,
                )


def _digest(items: list[State] | list[str]) -> str:
    """A short digest of positions (their ``to_position`` documents) or of chosen actions."""
    blob = json.dumps(
        [s if isinstance(s, str) else s.to_position() for s in items], sort_keys=True, default=str
    )
    return hashlib.blake2b(blob.encode(), digest_size=4).hexdigest()


if __name__ == "__main__":
    main()
