"""Benchmark: ``ziggurat.record(state)`` and ``ziggurat.replay(record)`` of 20,000-ply games.

For every game, seeded random play (chance through ``sample_chance``) makes games of 20,000
chosen actions (plies) in all: one game stopped at 20,000 plies where the game runs that long
(Mesopotamia), else as many whole games one after another as it takes (Epochs and Mare Nostrum
end after a few hundred or thousand plies; the last game is stopped where the total reaches
20,000). Printed per game, CPU time (``time.process_time``) and wall time, summed over its games,
from the round (of ``--repeat``, each playing the games afresh) with the least CPU time:

- record: the first ``record()`` of each game as played (nothing recorded or replayed before,
  :data:`~ziggurat.engine.records.CHECKPOINTS` emptied) and a second one;
- replay: ``replay()`` of those records (fingerprints checked), its plies per second of CPU time
  beside the engine's apply/s, the same actions applied to a new game through ``state.apply``
  (the public contract, no fingerprint), and ``record()`` of the replayed game.

Figures only, nothing is checked (a record that differs from the first is reported). They depend
on the machine and its load, printed beside them.

    PYTHONPATH=src python benchmarks/record_speed.py [--plies 20000] [--players 3] [--seed 1]
        [--repeat 3] [--games mesopotamia,...]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import ziggurat
from ziggurat.engine.contract import State
from ziggurat.engine.records import CHECKPOINTS

T = TypeVar("T")


def timed(run: Callable[[], T]) -> tuple[T, float, float]:
    """``run()``, its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def play(game_id: str, players: int, plies: int, seed: int) -> list[State]:
    """Seeded random games of ``plies`` chosen actions in all (the last one stopped there)."""
    game = ziggurat.load(game_id, players=players)
    rng = random.Random(seed)
    games: list[State] = []
    left = plies
    while left > 0:
        state = game.new_initial_state()
        while left > 0 and not state.is_terminal():
            if state.current_player() == ziggurat.CHANCE:
                state.apply(ziggurat.sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            left -= 1
        games.append(state)
    return games


def apply_all(rec: dict[str, Any]) -> State:
    """The record's actions applied to a new game through ``state.apply`` (no fingerprint)."""
    game = ziggurat.load(rec["game"], players=rec["num_players"], **rec["options"])
    state = game.new_initial_state()
    apply = state.apply
    for text in rec["actions"]:
        apply(text)
    return state


def load_average() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=20_000, help="chosen actions per game, in all")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="rounds per game: each figure is the least CPU")
    ap.add_argument("--games", default=",".join(ziggurat.games()), help="comma-separated game ids")
    args = ap.parse_args()
    print(
        f"record/replay speed: {args.plies} plies per game, seed {args.seed}, Python {platform.python_version()}"
    )
    print("times: CPU ms / wall ms, summed over the games played to reach the plies")
    print(
        f"{'game':20} {'games':>5} {'plies':>6} {'record 1st':>15} {'record 2nd':>13} {'replay':>15} "
        f"{'replay/s':>9} {'apply/s':>9} {'ratio':>5} {'record after replay':>19}"
    )
    for game_id in args.games.split(","):
        print(f"  ({load_average()})", flush=True)
        rounds = [measure(game_id, args.players, args.plies, args.seed) for _ in range(args.repeat)]
        best = {phase: min((r[phase] for r in rounds), key=lambda t: t[0]) for phase in PHASES}
        games, plies = rounds[0]["games"][0], rounds[0]["plies"][0]
        same = all(r["same"][0] for r in rounds)

        def ms(phase: str, best: dict[str, tuple[float, float]] = best) -> str:
            return f"{best[phase][0] * 1000:.0f} / {best[phase][1] * 1000:.0f}"

        replay_rate, apply_rate = plies / best["replay"][0], plies / best["apply"][0]
        print(
            f"{game_id:20} {games:>5.0f} {plies:>6.0f} {ms('record 1st'):>15} {ms('record 2nd'):>13} "
            f"{ms('replay'):>15} {replay_rate:>9.0f} {apply_rate:>9.0f} {replay_rate / apply_rate:>5.2f} "
            f"{ms('record after replay'):>19}" + ("" if same else "  (records differ!)"),
            flush=True,
        )
    print(f"  ({load_average()})")


PHASES = ("record 1st", "record 2nd", "replay", "record after replay", "apply")


def measure(game_id: str, players: int, plies: int, seed: int) -> dict[str, tuple[float, float]]:
    """One round: CPU and wall seconds of each phase, summed over the games (and, as pairs too,
    the number of games and plies, and whether every record came out the same)."""
    states = play(game_id, players, plies, seed)
    CHECKPOINTS.clear()
    firsts = [timed(functools.partial(ziggurat.record, s)) for s in states]
    seconds = [timed(functools.partial(ziggurat.record, s)) for s in states]
    recs = [rec for rec, _, _ in firsts]
    # replay and apply twice each, in turn, for the least of each: what one of them leaves
    # warm (a game's caches) must not count for or against the other
    applied = [timed(functools.partial(apply_all, r)) for r in recs]
    CHECKPOINTS.clear()
    replays = [timed(functools.partial(ziggurat.replay, r)) for r in recs]
    again = [timed(functools.partial(ziggurat.record, s)) for s, _, _ in replays]
    applied_again = [timed(functools.partial(apply_all, r)) for r in recs]
    CHECKPOINTS.clear()
    replays_again = [timed(functools.partial(ziggurat.replay, r)) for r in recs]
    same = all(
        json.dumps(a) == json.dumps(b) == json.dumps(c)
        for a, (b, _, _), (c, _, _) in zip(recs, seconds, again, strict=True)
    )

    def total(rows: list[tuple[Any, float, float]]) -> tuple[float, float]:
        return sum(r[1] for r in rows), sum(r[2] for r in rows)

    return {
        "record 1st": total(firsts),
        "record 2nd": total(seconds),
        "replay": min(total(replays), total(replays_again)),
        "record after replay": total(again),
        "apply": min(total(applied), total(applied_again)),
        "games": (len(states), 0.0),
        "plies": (sum(len(r["actions"]) for r in recs), 0.0),
        "same": (float(same), 0.0),
    }


if __name__ == "__main__":
    main()
