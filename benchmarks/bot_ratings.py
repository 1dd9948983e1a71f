"""Benchmark: the bot levels' ratings on the players' scale; writes src/ziggurat/server/bot_ratings.json.

The server rates finished games between accounts with openskill's Plackett-Luce model, and a
bot seat enters such a game at its level's fixed rating (``ziggurat.server.ratings``). This
measures those fixed ratings with the arena: per game, one seeded tournament (seat rotation,
``ziggurat.arena``) of one bot of each kind a seat may have, the lobby levels (easy, medium,
hard: ``gamekit.DIFFICULTIES``) and ``random``, rated game by game from openskill's defaults
(mu 25, sigma 25/3), as new accounts start. ``heuristic`` is the bot of ``easy`` and shares its
rating.

    .venv/bin/python benchmarks/bot_ratings.py [--only GAME[,GAME]] [--games N] [--seed 1]
        [--output src/ziggurat/server/bot_ratings.json]

``--games`` may be a single count for every game or ``game=count`` pairs; counts below a whole
rotation leave some entrant off some seats (the file says how many games each level played).
``--only`` measures those games again and keeps the other games' entries as they are, so the
measurement can be made game by game. Each entry keeps the command, the date, the games played
(each game's seed, the level at each seat and the returns) and the seconds it took. The searching levels think a fixed time per decision, so their
results depend on the machine and its load; the entry says where they were measured.

Cost: a hard bot thinks 1.5 s and a medium one 0.3 s on every decision with a choice (some 120
a seat in a 4-player Mesopotamia or Mare Nostrum game, some 45 in Epochs), so one game costs
about 4 minutes in Mesopotamia and Mare Nostrum, 1.5 in Epochs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from ziggurat.arena import LocalRunner, Tournament, run_tournament
from ziggurat.server.gamekit import DIFFICULTIES, available_bots

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "src" / "ziggurat" / "server" / "bot_ratings.json"
FORMAT = "ziggurat-bot-ratings/1"
GAMES = ("mesopotamia", "mesopotamia-epochs", "mare-nostrum")
PLAYERS = 4
SCALE = (
    "openskill Plackett-Luce ratings, from openskill's defaults (mu 25, sigma 25/3) as a new "
    "account; the shown rating is mu - 3 sigma"
)


def levels_of(game_id: str) -> dict[str, str]:
    """The bot kinds a seat of ``game_id`` may have that need a rating of their own, with the
    spec each plays (``heuristic`` is ``easy``'s bot)."""
    kinds = available_bots(game_id)
    out = {level: spec for level, spec in DIFFICULTIES.items() if level in kinds}
    if "random" in kinds:
        out["random"] = "random"
    return out


def measure(game_id: str, games: int, seed: int, command: str) -> dict[str, object]:
    levels = levels_of(game_id)
    plan = Tournament.create(game_id, list(levels.values()), games, seed, records=False)
    result = run_tournament(plan, LocalRunner(1))
    by_spec = {st.entrant.spec: st for st in result.standings}
    names = [next(level for level, spec in levels.items() if spec == e.spec) for e in plan.entrants]
    return {
        "players": plan.num_players,
        "played": len(result.outcomes),
        "finished": len(result.finished),
        "seed": seed,
        "seats": "cyclic rotation: in game k (from 0) seat s is played by entrant (s + k) mod players",
        "levels": {
            level: {
                "spec": spec,
                "mu": round(by_spec[spec].mu, 4),
                "sigma": round(by_spec[spec].sigma, 4),
                "games": by_spec[spec].games,
            }
            for level, spec in levels.items()
        },
        "results": [
            {"seed": o.seed, "seats": [names[e] for e in o.seating], "returns": o.returns}
            for o in result.outcomes
            if o.finished and o.error is None
        ],
        "command": command,
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seconds": round(result.seconds, 1),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs shared with other work, one process",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated games to measure")
    parser.add_argument("--games", default="4", help="games per tournament: N, or game=N,game=N")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--note", default="", help="a remark kept with each measured game's entry")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    only = [g.strip() for g in args.only.split(",") if g.strip()]
    unknown = [g for g in only if g not in GAMES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(GAMES)}")
    counts: dict[str, int] = {}
    for part in args.games.split(","):
        game, _, count = part.rpartition("=")
        for g in [game] if game else only:
            counts[g] = int(count)
    data = json.loads(args.output.read_text("utf-8")) if args.output.exists() else {}
    data["format"] = FORMAT
    data["scale"] = SCALE
    data.setdefault("games", {})
    command = "benchmarks/bot_ratings.py " + " ".join(argv if argv is not None else sys.argv[1:])
    for game_id in only:
        start = time.perf_counter()
        entry = measure(game_id, counts[game_id], args.seed, command.strip())
        if args.note:
            entry["note"] = args.note
        data["games"][game_id] = entry
        data["games"] = {g: data["games"][g] for g in GAMES if g in data["games"]}
        args.output.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
        print(f"{game_id}: {entry['finished']} games in {time.perf_counter() - start:.0f} s", flush=True)
        for level, rating in entry["levels"].items():  # type: ignore[attr-defined]
            shown = rating["mu"] - 3 * rating["sigma"]
            print(f"  {level:7} mu {rating['mu']:6.2f} sigma {rating['sigma']:5.2f} shown {shown:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
