"""Benchmark: how good are a search bot's decisions, measured against whole-game playouts?

A match between bots answers "does the search win more?" with one bit per game, and a dozen
games cannot tell two settings apart. This measures decisions instead:

1. **Positions**: seeded games of heuristic bots; at about one decision in 25 with two or more
   legal actions, the true state and the heuristic's move there are kept (at most three per
   game, so the positions come from many games).
2. **Truth**: from each position, the heuristic's move is played and then the whole game by
   heuristic bots, ``--truth`` times with seeds 1000, 1001, ...; the mover's mean return is
   its chance to win under heuristic continuation. Positions where that chance is below 2% or
   above 98% are dropped: no move changes much there ("live" positions are kept).
3. **Each spec** decides once at every live position, from the mover's view, as in a game.
   Where it leaves the heuristic's move, its move is played out the same way with the same
   seeds (common random numbers), and its **gain** is the mean paired difference of the
   mover's returns. A spec that keeps the heuristic's move gains 0 there.

The total gain over the positions (with its standard error from the paired differences) is
the expected number of extra wins per that many decisions against heuristic opponents, as
far as heuristic continuation is the truth: opponents in the strength matches are heuristic
bots, so it is close to what a match measures, for far fewer CPU seconds. It favours
settings that estimate the same thing (whole-game playouts): read it beside the matches.

    .venv/bin/python benchmarks/decision_quality.py GAME --players N [--positions 60]
        [--truth 40] [--jobs 2] [--seed 500] [--cache FILE] [--headroom] [--clairvoyant] [SPEC ...]

4. **Headroom** (``--headroom``): every other legal action at every live position is played
   out the same way, to see how much any choice of one move could gain with heuristic play
   after it (the ceiling of a search that compares moves by heuristic playouts, as a paired
   root does). The best action by all the playouts overstates it (the largest of many noisy
   means), so the move is also chosen on the first half of the seeds and its gain measured on
   the other half, which does not: that *split* figure is a lower bound of the ceiling (half
   the playouts choose less well). The count of positions with a move 2 standard errors above
   the heuristic's has the same fault (many moves are compared at each). Where moves differ by
   less than ``--truth`` playouts can see, none of the three bounds much (2-player Epochs at 40
   playouts: docs/bots.md, "Decision quality"). Dear: every legal action costs ``--truth``
   playouts.

5. **Clairvoyance** (``--clairvoyant``): every spec searches the true state instead of
   worlds sampled from the view (the other seats' cards, offering values or hands shown;
   chance still to come, such as dice and draws, stays chance). Not a bot anyone may play:
   it bounds what better sampling of the hidden present could gain, such as inferring an
   opponent's card from its keep or pass (2-player Epochs: about one standard error,
   docs/bots.md, "Decision quality").

Example: ``benchmarks/decision_quality.py mare-nostrum --players 4 ismcts:1s
ismcts:1s:plies=100000``. With a time budget, give each job a core of its own. Figures
are printed, never checked. ``--cache FILE`` keeps the live positions and their truth
(pickled) for the next run with the same game, players, positions, truth and seed, so more
specs can be measured on the same positions without paying for the truth again.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from phase_starts import heuristic_decisions

import ziggurat
from ziggurat.bots import close_bot, make_bot, parse_ismcts
from ziggurat.bots.spec import bot_kind
from ziggurat.engine.contract import State

PICK = 0.04
"""Chance that a decision with two or more legal actions becomes a position."""
PER_GAME = 3
LIVE = (0.02, 0.98)


@dataclass
class Position:
    state: State
    seat: int
    heuristic: str
    returns: list[float]  # the seat's return in each truth playout after the heuristic's move


def _play_out(game_id: str, players: int, state: State, seat: int, action: str, runs: int) -> list[float]:
    """The seat's return in ``runs`` whole games of heuristic bots after ``action``."""
    game = ziggurat.load(game_id, players=players)
    out = []
    for k in range(runs):
        s = state.clone()
        s.apply(action)
        for _ in heuristic_decisions(game, s, random.Random(1000 + k)):
            pass
        out.append(float(s.returns()[seat]))
    return out


def _positions(game_id: str, players: int, count: int, seed: int) -> list[tuple[State, int, str]]:
    game = ziggurat.load(game_id, players=players)
    out: list[tuple[State, int, str]] = []
    g = 0
    while len(out) < count:
        g += 1
        rng, pick = random.Random(seed + g), random.Random(seed * 7 + g)
        state = game.new_initial_state()
        taken = 0
        for who, legal, action in heuristic_decisions(game, state, rng):
            if len(legal) > 1 and pick.random() < PICK:
                out.append((state.clone(), who, action))
                taken += 1
                if taken >= PER_GAME or len(out) >= count:
                    break
    return out


def _decide(
    game_id: str, players: int, state: State, seat: int, spec: str, seed: int, clairvoyant: bool = False
) -> str:
    game = ziggurat.load(game_id, players=players)
    if clairvoyant:  # every world the search samples is the true state (item 5)
        game.sample_state = lambda view, who, rng: state.clone()  # type: ignore[method-assign]
    bot = make_bot(spec, game, seat)
    try:
        return bot.choose(state.view(seat), state.legal_actions(), random.Random(seed))
    finally:
        close_bot(bot)


def _gain(base: list[float], other: list[float]) -> tuple[float, float]:
    """Mean paired difference and its variance (of the mean)."""
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    k = len(diffs)
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1) / k if k > 1 else 0.0
    return mean, var


def _play_all(
    game_id: str, players: int, state: State, seat: int, skip: str, runs: int
) -> dict[str, list[float]]:
    """:func:`_play_out` for every legal action but ``skip``."""
    return {a: _play_out(game_id, players, state, seat, a, runs) for a in state.legal_actions() if a != skip}


def _headroom(pool: ProcessPoolExecutor, gid: str, n: int, live: list[Position], truth: int) -> None:
    """Print what the best single move at each live position gains over the heuristic's (see
    the module docstring, item 4)."""
    tables = pool.map(
        _play_all, *zip(*[(gid, n, p.state, p.seat, p.heuristic, truth) for p in live], strict=True)
    )
    half = truth // 2
    best_total = split_total = 0.0
    actions = clear = 0
    for p, table in zip(live, tables, strict=True):
        actions += len(table) + 1
        gains = {a: _gain(p.returns, r) for a, r in table.items()}
        best = max(gains.values(), default=(0.0, 0.0))
        best_total += max(0.0, best[0])
        clear += best[0] > 2 * math.sqrt(best[1])
        first = {a: sum(r[:half]) - sum(p.returns[:half]) for a, r in table.items()}
        pick = max(first, key=lambda a: first[a], default=None)
        if pick is not None and first[pick] > 0:
            split_total += _gain(p.returns[half:], table[pick][half:])[0]
    print(
        f"{'headroom':44} {actions} actions: best move {best_total:+.2f} (overstated), chosen on half "
        f"the seeds and measured on the rest {split_total:+.2f}; {clear} positions with a move "
        "2 standard errors above the heuristic's",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("specs", nargs="*", help="bot specs to measure, e.g. ismcts:1s")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--truth", type=int, default=40, help="whole-game playouts per move")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--cache", type=Path, default=None, help="keep positions and truth in this file")
    parser.add_argument(
        "--clairvoyant",
        action="store_true",
        help="search the true state, not sampled worlds (a bound, see item 5)",
    )
    parser.add_argument(
        "--headroom",
        action="store_true",
        help="also play out every legal action: the best any one move could gain",
    )
    args = parser.parse_intermixed_args(argv)
    if not args.specs and not args.headroom:
        parser.error("give a spec to measure, or --headroom")
    # worker processes sample their own worlds, so a clairvoyant search must be one process
    if args.clairvoyant and any(bot_kind(s) == "ismcts" and parse_ismcts(s).workers > 1 for s in args.specs):
        parser.error("--clairvoyant measures one process's search: drop workers= from the spec")
    gid, n = args.game, args.players
    start = time.perf_counter()
    key = (gid, n, args.positions, args.truth, args.seed)
    with ProcessPoolExecutor(args.jobs) as pool:
        kept = (
            pickle.loads(args.cache.read_bytes()) if args.cache is not None and args.cache.exists() else None
        )
        if kept is not None and kept[0] == key:
            live: list[Position] = kept[1]
            found_count = kept[2]
        else:
            found = _positions(gid, n, args.positions, args.seed)
            found_count = len(found)
            truth = list(
                pool.map(
                    _play_out,
                    *zip(*[(gid, n, st, seat, a, args.truth) for st, seat, a in found], strict=True),
                )
            )
            live = [
                Position(st, seat, a, r)
                for (st, seat, a), r in zip(found, truth, strict=True)
                if LIVE[0] < sum(r) / len(r) < LIVE[1]
            ]
            if args.cache is not None:
                args.cache.write_bytes(pickle.dumps((key, live, found_count)))
        print(
            f"{gid}, {n} players: {found_count} positions, {len(live)} live, truth {args.truth} playouts "
            f"per move ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        print(f"{'spec':44} {'left the heuristic':>18} {'total gain':>16} {'worst':>7} {'best':>6}")
        for spec in args.specs:
            label = f"{spec} (clairvoyant)" if args.clairvoyant else spec
            choices = list(
                pool.map(
                    _decide,
                    *zip(
                        *[(gid, n, p.state, p.seat, spec, i, args.clairvoyant) for i, p in enumerate(live)],
                        strict=True,
                    ),
                )
            )
            moved = [(p, c) for p, c in zip(live, choices, strict=True) if c != p.heuristic]
            others = (
                list(
                    pool.map(
                        _play_out,
                        *zip(*[(gid, n, p.state, p.seat, c, args.truth) for p, c in moved], strict=True),
                    )
                )
                if moved
                else []
            )
            gains = [_gain(p.returns, r) for (p, _), r in zip(moved, others, strict=True)]
            total = sum(g for g, _ in gains)
            se = math.sqrt(sum(v for _, v in gains))
            worst = min((g for g, _ in gains), default=0.0)
            best = max((g for g, _ in gains), default=0.0)
            print(
                f"{label:44} {len(moved):>8} of {len(live):<7} {total:+7.2f} ± {se:5.2f}  {worst:+6.2f} {best:+6.2f}",
                flush=True,
            )
        if args.headroom:
            _headroom(pool, gid, n, live, args.truth)
    print(f"({time.perf_counter() - start:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
