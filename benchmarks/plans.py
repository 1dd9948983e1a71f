"""Benchmark: each of a game's plans (``bots.PLANS``, docs/bots.md "Plans") and other playout
policies (``bots.POLICIES``, "Own-seat policy") on its own, in one seat against heuristic bots,
beside the heuristic bot in that seat on the same seeds.

For every plan and every side, ``--games`` seeded games (seeds ``--seed`` on) are played twice:
once with the plan's bot on that side, once with heuristic bots only (the control). A side is
a seat, or in Mare Nostrum, whose empires are dealt at random (S2), an empire: the plan's bot
takes whichever seat holds it. Printed per side: the games the side won with the plan and
without, and the winners by side with the plan. The figures are printed, never checked.

    .venv/bin/python benchmarks/plans.py GAME [--players 3] [--games 100] [--seed 0] [--jobs 1]

Example: ``benchmarks/plans.py mesopotamia-epochs --players 2 --games 2000 --seed 1 --jobs 2``
(2-player Epochs' successor policy, some 40 s on two cores).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.bots.playout import find_policies
from ziggurat.engine.contract import CHANCE, Game, sample_chance
from ziggurat.games.mare_nostrum import data as nostrum_data


def sides(game: Game) -> list[str]:
    """The sides a plan is tried on: the empires in play (4.2), else the seats."""
    if game.game_id == "mare-nostrum":
        return list(nostrum_data.board(game.num_players).empires)
    return [f"seat {s}" for s in range(game.num_players)]


def side_of(game: Game, position: dict[str, Any], seat: int) -> str:
    empires = position.get("empires")
    if game.game_id == "mare-nostrum" and empires:
        return str(empires[seat])
    return f"seat {seat}"


def play(game: Game, seed: int, side: str | None, plan: Callable[[Game, int], Any] | None) -> str:
    """One seeded game; the plan's bot (if any) plays ``side``. Returns the winning side."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    bots: list[Any] | None = None
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if bots is None:  # after set-up's chance nodes (Mare Nostrum's empires)
            position = state.to_position()  # type: ignore[attr-defined]
            bots = [
                plan(game, s)
                if plan is not None and side_of(game, position, s) == side
                else make_bot("heuristic", game, s)
                for s in range(game.num_players)
            ]
        state.apply(bots[who].choose(state.view(who), state.legal_actions(), rng))
    returns = state.returns()
    best = max(returns)
    winner = returns.index(best)
    return side_of(game, state.to_position(), winner)  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("game", help="game id (mare-nostrum has plans)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=100, help="games per plan and side (100)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (0)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (1)")
    args = ap.parse_args(argv)
    game = ziggurat.load(args.game, players=args.players)
    plans = find_policies(game)
    if not plans:
        print(f"{args.game} has no plans or playout policies (bots.PLANS, bots.POLICIES)")
        return 0
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:

        def winners(side: str | None, plan: Callable[[Game, int], Any] | None) -> Counter[str]:
            n = len(seeds)
            return Counter(pool.map(play, [game] * n, seeds, [side] * n, [plan] * n, chunksize=20))

        control = winners(None, None)
        print(f"{args.game}, {args.players} players, seeds {args.seed} to {args.seed + args.games - 1}")
        print(f"heuristic bots only: wins by side {dict(control.most_common())}")
        for name, plan in plans.items():
            for side in sides(game):
                won = winners(side, plan)
                print(
                    f"{name!r} on {side}: {won[side]} / {args.games} (heuristic there: "
                    f"{control[side]}); winners {dict(won.most_common())}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
