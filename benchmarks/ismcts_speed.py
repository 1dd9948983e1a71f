"""Benchmark: ISMCTS search speed (iterations per second) per game and player count.

For every game and player count, a few positions are reached by seeded heuristic self-play
(at several depths of the game), and the bot under test searches each for a fixed time from
the view of the seat to move. Printed per row: positions searched, legal actions on average,
iterations per second (summed over workers), and the time one iteration takes. Figures only:
they depend on the machine and on its load; nothing is checked.

    .venv/bin/python benchmarks/ismcts_speed.py [--seconds 1] [--positions 4]
        [--specs ismcts,ismcts:rollout=random] [--games mesopotamia,...] [--workers 1]
"""

from __future__ import annotations

import argparse
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
    ap.add_argument("--positions", type=int, default=4, help="positions per game and player count")
    ap.add_argument("--specs", default="ismcts,ismcts:rollout=random", help="comma-separated ismcts specs")
    ap.add_argument("--games", default=",".join(PLAYER_COUNTS), help="comma-separated game ids")
    ap.add_argument("--workers", type=int, default=1, help="root-parallel worker processes")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    budget = f"{args.seconds:g}s"
    print(
        f"ISMCTS speed: {budget} per position, {args.workers} worker(s), Python {platform.python_version()}"
    )
    print(f"{'game':20} {'players':>7} {'spec':34} {'positions':>9} {'legal':>6} {'it/s':>8} {'ms/it':>7}")
    for game_id in args.games.split(","):
        for players in PLAYER_COUNTS[game_id]:
            game = ziggurat.load(game_id, players=players)
            spots = positions(game, args.positions, args.seed)
            for base in args.specs.split(","):
                spec = f"{base}:{budget}" + (f":workers={args.workers}" if args.workers > 1 else "")
                iterations, seconds, legal = 0, 0.0, 0
                bots: dict[int, ISMCTSBot] = {}
                for k, state in enumerate(spots):
                    seat = state.current_player()
                    bot = bots.get(seat)
                    if bot is None:
                        made = make_bot(spec, game, seat)
                        assert isinstance(made, ISMCTSBot)
                        bot = bots[seat] = made
                    start = time.perf_counter()
                    bot.choose(state.view(seat), state.legal_actions(), random.Random(k))
                    seconds += time.perf_counter() - start
                    assert bot.last_stats is not None
                    iterations += bot.last_stats.iterations
                    legal += len(state.legal_actions())
                for bot in bots.values():
                    close_bot(bot)
                n = max(1, len(spots))
                ips = iterations / seconds if seconds else 0.0
                label = parse_ismcts(spec).spec()  # canonical: the budget first
                print(
                    f"{game_id:20} {players:>7} {label:34} {len(spots):>9} {legal / n:>6.1f} "
                    f"{ips:>8.0f} {1000 / ips if ips else 0.0:>7.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
