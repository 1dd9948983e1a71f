"""Benchmark: seeded games between heuristic bots (and against random), for any of the games.

Runs ``--games`` seeded games spread evenly over ``--players`` (default: every player count
the game allows) on ``--workers`` processes, and prints per player count: games finished,
errors (exceptions or broken invariants), truncated games, average plies (chance included)
and decisions, wins per seat (shared victories count a fraction) so that balance by seat can
be judged, and seconds per game (wall and CPU). Each game adds its own lines: Mesopotamia the
rounds played, Epochs the winner's VP, Mare Nostrum the wins by empire and by victory
condition, the legions and triremes each empire bought per game, and the battles (sea battles
chosen, land battles), conquests and completed conversions per game. With ``--vs-random N`` it also plays N games of one heuristic bot against random
bots in each seat order (2 players, or 3 for Mare Nostrum). The acceptance criterion of the
issues is that every heuristic game finishes without error.

    .venv/bin/python benchmarks/selfplay.py GAME [--games 500] [--workers 2]
        [--players 2,3,4] [--max-plies 100000] [--vs-random 0] [--seed 0]

GAME is mesopotamia, mesopotamia-epochs or mare-nostrum. The figures are printed, never
checked: timing depends on the machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ziggurat
from ziggurat.bots import make_bot, play_game
from ziggurat.engine.contract import CHANCE, Game, State
from ziggurat.engine.registry import game_class


@dataclass
class Outcome:
    players: int
    seed: int
    kinds: tuple[str, ...]
    returns: list[float] = field(default_factory=list)
    plies: int = 0
    decisions: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    truncated: bool = False
    error: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _meso_extra(game: Game, state: State) -> dict[str, Any]:
    pos = state.to_position()
    return {"rounds": pos["round"]}


def _epochs_extra(game: Game, state: State) -> dict[str, Any]:
    return {"vp": [int(p["vp"]) for p in state.to_position()["players"]]}


# What Mare Nostrum's military counts read in the event log: the first words of an action.
_NOSTRUM_COUNTED = {
    "legions": ("buy", "legion"),
    "triremes": ("buy", "trireme"),
    "sea_battles": ("seabattle",),
    "land_battles": ("fight",),
}
_NOSTRUM_CONQUESTS = ("pillage", "occupy", "convert")


def _nostrum_extra(game: Game, state: State) -> dict[str, Any]:
    """Winner, how he won, and the military counts of the game: legions and triremes bought
    per empire, battles fought (chosen sea battles, land battles), conquests (an option chosen
    at a conquest, N4.11) and conversions completed (N4.12)."""
    from ziggurat.games.mare_nostrum.bots import victory_condition

    pos = state.to_position()
    w = pos["winner"]
    bought: dict[str, Counter[str]] = {k: Counter() for k in ("legions", "triremes")}
    counts: Counter[str] = Counter()
    for ev in state.events():
        if ev.actor == CHANCE:
            continue
        words = ev.text.split()
        for key, head in _NOSTRUM_COUNTED.items():
            if tuple(words[: len(head)]) == head:
                if key in bought:
                    bought[key][pos["empires"][ev.actor]] += 1
                else:
                    counts[key] += 1
        if words[0] in _NOSTRUM_CONQUESTS and (words[0] != "convert" or len(words) == 1):
            counts["conquests"] += 1
        elif words[0] == "convert":
            counts["conversions"] += 1
    return {
        "rounds": pos["round"],
        "empire": pos["empires"][w] if w is not None else None,
        "how": victory_condition(pos, game.opts),  # type: ignore[attr-defined]
        "legions": dict(bought["legions"]),
        "triremes": dict(bought["triremes"]),
        "seated": list(pos["empires"]),
        **{k: counts[k] for k in ("sea_battles", "land_battles", "conquests", "conversions")},
    }


EXTRAS: dict[str, Callable[[Game, State], dict[str, Any]]] = {
    "mesopotamia": _meso_extra,
    "mesopotamia-epochs": _epochs_extra,
    "mare-nostrum": _nostrum_extra,
}


def run_one(job: tuple[str, int, int, tuple[str, ...], int]) -> Outcome:
    game_id, players, seed, kinds, max_plies = job
    out = Outcome(players, seed, kinds)
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        game = ziggurat.load(game_id, players=players)
        bots = [make_bot(kind, game, seat) for seat, kind in enumerate(kinds)]

        def count(_state: object, who: int, _action: str) -> None:
            if who != CHANCE:
                out.decisions += 1

        result = play_game(game, bots, seed, max_plies=max_plies, on_action=count)
        out.plies = result.plies
        out.truncated = result.truncated
        if not result.truncated:
            out.returns = list(result.state.returns())
        out.extra = EXTRAS[game_id](game, result.state)
        broken = game.invariants(result.state)
        if broken:
            out.error = "invariants broken: " + "; ".join(broken)
    except Exception:  # noqa: BLE001 - a benchmark reports every failure and goes on
        out.error = traceback.format_exc(limit=6)
    out.seconds = time.perf_counter() - start
    out.cpu = time.process_time() - cpu
    return out


def _finished(o: Outcome) -> bool:
    return not o.error and not o.truncated and bool(o.returns)


def _extra_lines(rows: list[Outcome]) -> list[str]:
    done = [o for o in rows if _finished(o)]
    lines = []
    if done and "rounds" in done[0].extra:
        lines.append(f"average rounds {sum(o.extra['rounds'] for o in done) / len(done):.1f}")
    if done and "vp" in done[0].extra:
        lines.append(f"winner's VP {sum(max(o.extra['vp']) for o in done) / len(done):.1f}")
    if done and "empire" in done[0].extra:
        lines.append(f"wins by empire {dict(Counter(o.extra['empire'] for o in done).most_common())}")
        lines.append(f"wins by victory condition {dict(Counter(o.extra['how'] for o in done).most_common())}")
    if done and "legions" in done[0].extra:
        lines.extend(_military_lines(done))
    return lines


def _military_lines(done: list[Outcome]) -> list[str]:
    """Mare Nostrum: units bought per game per empire (over the games it was seated in) and
    battles, conquests and conversions per game."""
    seated: Counter[str] = Counter(e for o in done for e in o.extra["seated"])
    lines = []
    for key in ("legions", "triremes"):
        total: Counter[str] = Counter()
        for o in done:
            total.update(o.extra[key])
        per = ", ".join(f"{e} {total[e] / seated[e]:.2f}" for e in sorted(seated))
        lines.append(f"{key} bought per game per empire: {per}")
    k = len(done)
    per_game = ", ".join(
        f"{key.replace('_', ' ')} {sum(o.extra[key] for o in done) / k:.2f}"
        for key in ("sea_battles", "land_battles", "conquests", "conversions")
    )
    lines.append(f"per game: {per_game}")
    return lines


def report(title: str, outcomes: list[Outcome]) -> bool:
    """Print the table; true when every game finished without error."""
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
        secs = sum(o.seconds for o in rows) / max(1, len(rows))
        cpu = sum(o.cpu for o in rows) / max(1, len(rows))
        slowest = max((o.seconds for o in rows), default=0.0)
        seats = ", ".join(f"{w:g}" for w in wins)
        print(
            f"  {n} players: {len(rows)} games, {len(done)} finished, errors {len(errors)}, "
            f"truncated {len(stalled)}; avg plies {plies:.0f} ({decisions:.0f} decisions); "
            f"wins by seat [{seats}]; {secs:.3f} s/game ({cpu:.3f} s CPU, slowest {slowest:.3f} s)"
        )
        for line in _extra_lines(rows):
            print(f"    {line}")
        for o in errors[:3]:
            print(f"    error in seed {o.seed}:\n{o.error}")
        for o in stalled[:10]:
            print(f"    truncated: seed {o.seed} after {o.plies} plies")
        all_ok = all_ok and len(done) == len(rows)
    if len(by_n) > 1:
        for line in _extra_lines(outcomes):
            print(f"  all player counts: {line}")
    return all_ok


def _vs_random(outcomes: list[Outcome]) -> None:
    done = [o for o in outcomes if _finished(o)]
    heur = sum(o.returns[o.kinds.index("heuristic")] for o in done)
    print(f"  heuristic vs random: heuristic won {heur:g} of {len(outcomes)} ({len(done)} finished)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("game", choices=sorted(EXTRAS), help="the game")
    ap.add_argument("--games", type=int, default=500, help="heuristic games in total (default 500)")
    ap.add_argument("--players", default="", help="player counts, e.g. 2,3,4 (default: all the game allows)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--max-plies", type=int, default=100_000, help="ply cap per game (default 100000)")
    ap.add_argument("--vs-random", type=int, default=0, help="games vs random per seat order")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = ap.parse_args(argv)
    cls = game_class(args.game)
    low, high = cls.min_players, cls.max_players
    counts = [int(x) for x in args.players.split(",")] if args.players else list(range(low, high + 1))
    jobs = []
    for k in range(args.games):
        n = counts[k % len(counts)]
        jobs.append((args.game, n, args.seed + k, ("heuristic",) * n, args.max_plies))
    rnd_jobs = []
    duel = max(2, low)
    for k in range(args.vs_random):
        seed = args.seed + 100_000 + k
        for seat in range(duel):
            kinds = tuple("heuristic" if s == seat else "random" for s in range(duel))
            rnd_jobs.append((args.game, duel, seed, kinds, args.max_plies))
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        outcomes = pool.map(run_one, jobs, chunksize=1)
        rnd = pool.map(run_one, rnd_jobs, chunksize=1) if rnd_jobs else []
    wall = time.perf_counter() - start
    ok = report(f"{args.game}: heuristic self-play, {len(jobs)} games:", outcomes)
    if rnd:
        report(f"{args.game}: heuristic vs random, {len(rnd)} games:", rnd)
        _vs_random(rnd)
    print(f"wall time {wall:.1f} s on {args.workers} worker(s)")
    print("ALL FINISHED WITHOUT ERROR" if ok else "SOME GAMES DID NOT FINISH WITHOUT ERROR")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
