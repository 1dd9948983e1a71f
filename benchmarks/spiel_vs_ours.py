"""Benchmark: OpenSpiel's ISMCTSBot against Ziggurat's ISMCTS bot, at equal budgets.

For each game, one seat is OpenSpiel's Python ``ISMCTSBot``
(``open_spiel.python.algorithms.ismcts``) playing the OpenSpiel game of
``ziggurat.interop.openspiel``; every other seat is ``ziggurat.bots.make_bot("ismcts:BUDGET")``.
Game ``i`` uses seed ``SEED + i`` and puts the OpenSpiel bot in seat ``i mod players``, so seats
rotate. Both sides get the same budget per decision:

- an iteration count (``--budget 2000``): ``max_simulations`` for OpenSpiel, ``ismcts:2000`` ours;
- a time (``--budget 1s`` / ``500ms``): ``ismcts:1s`` ours; OpenSpiel's bot has no time budget,
  so a subclass runs its simulations until the deadline (:class:`TimedISMCTSBot`).

OpenSpiel's bot needs a leaf evaluator. ``--spiel-eval ziggurat`` (default) plays ``--plies``
random decisions, then scores the position with the game's own evaluation function (the one
that ends our bot's playouts, ``ziggurat.bots.playout.find_evaluator``), so both searches
share the same knowledge and differ in the search itself and in the playout policy (ours
plays the heuristic bot). ``--spiel-eval random`` is OpenSpiel's stock
``RandomRolloutEvaluator`` (random play to the end of the game: very slow on Mesopotamia,
where random games last thousands of decisions).

Printed per game: games played, finished by the rules (with no winner, for some), truncated
at ``max_game_length`` (not scored) and failed; the OpenSpiel bot's and our bots' win rates
over the finished games with 95% Wilson intervals (shared wins count as fractions; the fair
share of one seat is 1/players); each side's speed (decisions per second of thinking,
iterations per searched decision)::

    .venv/bin/python benchmarks/spiel_vs_ours.py [--games 12] [--budget 1s] [--jobs 1]
        [--game mesopotamia --game mare-nostrum ...] [--players 3] [--spiel-eval ziggurat|random]
        [--spiel-c 2.0] [--plies 6] [--seed 1] [--quick]

``--quick`` checks that everything runs: one rotation per game (as many games as players),
10 iterations, and Mesopotamia and Mare Nostrum games capped at 40 decisions
(``max_game_length``: they end truncated, unscored; Epochs games finish): too few to judge
anything. Figures are printed, never checked.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import ziggurat.interop.openspiel as zo
from ziggurat import CHANCE, sample_chance
from ziggurat.arena.stats import wilson, win_shares
from ziggurat.bots import close_bot, make_bot
from ziggurat.bots.playout import find_evaluator

DEFAULT_PLAYERS = {"mesopotamia": 2, "mesopotamia-epochs": 2, "mare-nostrum": 3}
QUICK_CAPS = {"mesopotamia": 40, "mesopotamia-epochs": None, "mare-nostrum": 40}
"""``--quick`` decision caps: Epochs games are short enough to finish."""


@dataclass(frozen=True)
class Task:
    game_id: str
    players: int
    seed: int
    spiel_seat: int
    budget: str
    spiel_eval: str
    spiel_c: float
    plies: int
    max_game_length: int | None


@dataclass
class Outcome:
    task: Task
    returns: list[float] = field(default_factory=list)
    finished: bool = False
    decisions: dict[str, int] = field(default_factory=lambda: {"spiel": 0, "ours": 0})
    searched: dict[str, int] = field(default_factory=lambda: {"spiel": 0, "ours": 0})
    seconds: dict[str, float] = field(default_factory=lambda: {"spiel": 0.0, "ours": 0.0})
    iterations: dict[str, int] = field(default_factory=lambda: {"spiel": 0, "ours": 0})
    error: str | None = None


def parse_budget(budget: str) -> tuple[int | None, float | None]:
    """``(iterations, seconds)``, exactly one set, from ``2000``, ``1s``, ``1.5s`` or ``250ms``."""
    text = budget.strip().lower()
    if text.endswith("ms"):
        return None, float(text[:-2]) / 1000
    if text.endswith("s"):
        return None, float(text[:-1])
    return int(text), None


class ZigguratEvaluator(mcts.Evaluator):
    """``plies`` random decisions, then the game's evaluation function (uniform priors)."""

    def __init__(self, game: zo.ZigguratGame, plies: int, rng: np.random.RandomState) -> None:
        self._evaluate = find_evaluator(game.ziggurat_game())
        self._plies = plies
        self._rng = rng

    def evaluate(self, state: zo.ZigguratState) -> np.ndarray:
        working = state.clone()
        left = self._plies
        while not working.is_terminal() and left > 0:
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(int(self._rng.choice(actions, p=probs)))
            else:
                legal = working.legal_actions()
                working.apply_action(legal[self._rng.randint(len(legal))])
                left -= 1
        if working.is_terminal():
            return np.array(working.returns())
        return np.array(self._evaluate(working.ziggurat_state()))

    def prior(self, state: zo.ZigguratState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class CountingISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's bot with an iteration budget, counting the simulations it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.iterations = 0
        self.searched = 0

    def run_search(self, state: zo.ZigguratState) -> Any:
        if len(state.legal_actions()) > 1:
            self.iterations += self._max_simulations
            self.searched += 1
        return super().run_search(state)


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's bot with a time budget: ``run_search`` with its simulation loop run until a
    deadline instead of ``max_simulations`` times (otherwise the same steps)."""

    def __init__(self, game: zo.ZigguratGame, evaluator: Any, uct_c: float, seconds: float, rng: Any) -> None:
        super().__init__(game, evaluator, uct_c, 1, random_state=rng)
        self._seconds = seconds
        self.iterations = 0
        self.searched = 0

    def run_search(self, state: zo.ZigguratState) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        deadline = time.perf_counter() + self._seconds
        self._root_node = self.create_new_node(state)
        done = 0
        while done == 0 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.iterations += done
        self.searched += 1
        return self.get_final_policy(state, self._root_node)


def make_spiel_bot(task: Task, game: zo.ZigguratGame, seat_seed: int) -> CountingISMCTSBot | TimedISMCTSBot:
    """OpenSpiel's ISMCTS bot with the task's evaluator and budget."""
    iterations, seconds = parse_budget(task.budget)
    rng = np.random.RandomState(seat_seed)
    if task.spiel_eval == "random":
        evaluator: mcts.Evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        evaluator = ZigguratEvaluator(game, task.plies, rng)
    if seconds is not None:
        return TimedISMCTSBot(game, evaluator, task.spiel_c, seconds, rng)
    return CountingISMCTSBot(game, evaluator, task.spiel_c, iterations, random_state=rng)


def play(task: Task) -> Outcome:
    """One seeded game: the OpenSpiel bot in ``task.spiel_seat``, ours elsewhere."""
    out = Outcome(task)
    params: dict[str, Any] = {}
    if task.max_game_length is not None:
        params["max_game_length"] = task.max_game_length
    game = zo.load(task.game_id, task.players, **params)
    zgame = game.ziggurat_game()
    codec = game.codec()
    ours = {
        s: make_bot(f"ismcts:{task.budget}", zgame, s) for s in range(task.players) if s != task.spiel_seat
    }
    spiel = make_spiel_bot(task, game, task.seed * 7919 + task.spiel_seat)
    chance_rng = random.Random(f"{task.seed}/chance")
    rngs = [random.Random(f"{task.seed}/seat{s}") for s in range(task.players)]
    try:
        state = game.new_initial_state()
        while not state.is_terminal():
            who = state.current_player()
            z = state.ziggurat_state()
            if who == CHANCE:
                state.apply_action(codec.encode_chance(sample_chance(z, chance_rng), z))
                continue
            side = "spiel" if who == task.spiel_seat else "ours"
            start = time.perf_counter()
            if side == "spiel":
                action = int(spiel.step(state))
            else:
                legal = list(z.legal_actions())
                text = ours[who].choose(z.view(who), legal, rngs[who])
                action = codec.encode(text, z)
                stats = getattr(ours[who], "last_stats", None)
                if stats is not None and stats.searched:
                    out.searched["ours"] += 1
                    out.iterations["ours"] += stats.iterations
            out.seconds[side] += time.perf_counter() - start
            out.decisions[side] += 1
            state.apply_action(action)
        out.returns = list(state.returns())
        out.finished = not state.is_truncated()
        out.searched["spiel"] = spiel.searched
        out.iterations["spiel"] = spiel.iterations
    except Exception:  # noqa: BLE001 - the benchmark reports every failure
        out.error = traceback.format_exc()
    finally:
        for bot in ours.values():
            close_bot(bot)
    return out


def report(game_id: str, players: int, outcomes: list[Outcome]) -> list[str]:
    ok = [o for o in outcomes if o.error is None]
    errors = [o for o in outcomes if o.error is not None]
    finished = [o for o in ok if o.finished]  # truncated games (max_game_length) are not scored
    spiel_wins = ours_wins = 0.0
    none = 0
    for o in finished:
        shares = win_shares(o.returns)
        if not any(shares):
            none += 1
        spiel_wins += shares[o.task.spiel_seat]
        ours_wins += sum(s for seat, s in enumerate(shares) if seat != o.task.spiel_seat)
    n = len(finished)

    def rate(wins: float) -> str:
        lo, hi = wilson(wins, n)
        return f"{100 * wins / n:5.1f}% ({100 * lo:.1f}-{100 * hi:.1f})" if n else "- (no finished game)"

    def speed(side: str) -> str:
        secs = sum(o.seconds[side] for o in ok)
        dec = sum(o.decisions[side] for o in ok)
        searched = sum(o.searched[side] for o in ok)
        its = sum(o.iterations[side] for o in ok)
        per = f", {its / searched:,.0f} it/decision" if searched else ""
        return f"{dec / secs:,.2f} decisions/s{per}" if secs > 0 else "-"

    lines = [
        f"{game_id}, {players} players: {len(outcomes)} games, {n} finished ({none} with no winner), "
        f"{len(ok) - n} truncated, {len(errors)} errors",
        f"  OpenSpiel ISMCTS (1 seat, fair share {100 / players:.1f}%): win rate {rate(spiel_wins)}",
        f"  Ziggurat ISMCTS ({players - 1} seat{'s' if players > 2 else ''}, fair share "
        f"{100 * (players - 1) / players:.1f}%): win rate {rate(ours_wins)}",
        f"  speed: OpenSpiel {speed('spiel')}; Ziggurat {speed('ours')}",
    ]
    for o in errors[:3]:
        lines.append(f"  error (seed {o.task.seed}, OpenSpiel seat {o.task.spiel_seat}):")
        lines.extend("    " + line for line in (o.error or "").strip().splitlines()[-6:])
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument(
        "--game", action="append", choices=sorted(DEFAULT_PLAYERS), help="repeatable; default all"
    )
    ap.add_argument("--players", type=int, default=None, help="default: 2 (Mare Nostrum: 3)")
    ap.add_argument("--games", type=int, default=12, help="games per game id (default 12)")
    ap.add_argument(
        "--budget", default=None, help="per decision: 1s, 250ms or an iteration count (default 1s)"
    )
    ap.add_argument("--spiel-eval", choices=("ziggurat", "random"), default="ziggurat")
    ap.add_argument("--spiel-c", type=float, default=2.0, help="OpenSpiel's UCT constant (default 2.0)")
    ap.add_argument("--plies", type=int, default=6, help="random plies before the evaluation (ziggurat eval)")
    ap.add_argument("--max-game-length", type=int, default=None, help="decision cap (default: the game's)")
    ap.add_argument("--jobs", type=int, default=1, help="games in parallel (processes)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="one rotation, 10 iterations, short games")
    args = ap.parse_args()

    budget = args.budget or ("10" if args.quick else "1s")
    parse_budget(budget)  # fail early on a bad budget
    tasks: dict[tuple[str, int], list[Task]] = {}
    for game_id in args.game or sorted(DEFAULT_PLAYERS):
        n = args.players or DEFAULT_PLAYERS[game_id]
        games = n if args.quick else args.games
        cap = args.max_game_length or (QUICK_CAPS[game_id] if args.quick else None)
        tasks[(game_id, n)] = [
            Task(game_id, n, args.seed + i, i % n, budget, args.spiel_eval, args.spiel_c, args.plies, cap)
            for i in range(games)
        ]
    print(
        f"OpenSpiel ISMCTS vs Ziggurat ISMCTS, budget {budget} per decision, OpenSpiel evaluator "
        f"{args.spiel_eval}"
        + (f" ({args.plies} random plies)" if args.spiel_eval == "ziggurat" else "")
        + f", OpenSpiel c={args.spiel_c:g}; {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {args.jobs} process(es)" + (", --quick" if args.quick else ""),
        flush=True,
    )
    start = time.perf_counter()
    all_tasks = [t for group in tasks.values() for t in group]
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            outcomes = pool.map(play, all_tasks, chunksize=1)
    else:
        outcomes = [play(t) for t in all_tasks]
    for (game_id, n), group in tasks.items():
        mine = [o for o in outcomes if o.task in group]
        print("\n".join(report(game_id, n, mine)), flush=True)
    print(f"wall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
