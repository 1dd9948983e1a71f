"""Benchmark: Mare Nostrum's balance by empire and by victory condition, written into its docs.

Plays ``--games`` seeded games per player count (3, 4 and 5 by default) with one kind of bot,
records per row the wins by empire and by victory condition, and stores the row in a results
file (JSON, one row per label, bot and player count; a row measured again replaces the old one).
``--write-doc`` then rewrites the "Balance" section of ``docs/mare-nostrum.md`` from that file,
between its two marker comments, so the report is always what was measured, never typed by hand.

Bots: ``--bot heuristic`` plays every seat with the heuristic bot; ``--bot ismcts:N`` plays with
ISMCTS at the budget given. ``--ismcts-seats one`` (the default for ISMCTS) gives ISMCTS to one
seat per game, seat ``seed % players`` (so each seat and, the empires being dealt at random,
each empire gets it about equally often), the others playing the heuristic; ``all`` gives it to
every seat. The row then also shows how often the ISMCTS seat won with each empire.

A row's games are kept as they finish (``results/partial/``, one JSON line each, with the
commit that played them); a run stopped half way goes on from there when started again with
the same arguments and code, so a row too long for one sitting can be measured over several.
The file is opened for each game it gains, so it may be committed or restored while a row runs:
the next game goes to the file found then.

``--label`` names the code measured (``before`` / ``after`` a change of the rules or the bots):
run the script with ``PYTHONPATH`` pointing at the code to measure (another checkout's ``src``)
and the same ``--results`` file. Shared victories count a fraction to each winner. The figures
are printed and stored, never checked: this is a report, not a target.

    .venv/bin/python benchmarks/balance.py --label after --bot heuristic [--games 300]
        [--players 3,4,5] [--workers 2] [--seed 1] [--results benchmarks/results/mare-nostrum-balance.json]
    .venv/bin/python benchmarks/balance.py --write-doc
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import subprocess
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "mare-nostrum-balance.json"
DOC = ROOT / "docs" / "mare-nostrum.md"
BEGIN = "<!-- balance report: written by benchmarks/balance.py --write-doc; do not edit by hand -->"
END = "<!-- end of balance report -->"
EMPIRES = ("rome", "greece", "carthage", "egypt", "babylon")


@dataclass
class Game1:
    seed: int
    players: int
    empires: list[str] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    how: str = ""
    rounds: int = 0
    searcher: int | None = None
    cpu: float = 0.0
    error: str = ""


def _play(job: tuple[int, int, str, str]) -> Game1:
    players, seed, bot, seats = job
    out = Game1(seed, players)
    cpu = time.process_time()
    try:
        import ziggurat
        from ziggurat.bots import close_bot, make_bot, play_game
        from ziggurat.games.mare_nostrum.bots import victory_condition

        game = ziggurat.load("mare-nostrum", players=players)
        if bot == "heuristic":
            kinds = ["heuristic"] * players
        elif seats == "all":
            kinds = [bot] * players
        else:
            out.searcher = seed % players
            kinds = ["heuristic"] * players
            kinds[out.searcher] = bot
        bots = [make_bot(kind, game, seat) for seat, kind in enumerate(kinds)]
        try:
            result = play_game(game, bots, seed)
        finally:
            for b in bots:
                close_bot(b)
        if result.truncated:
            out.error = "truncated"
        else:
            pos = result.state.to_position()
            out.empires = list(pos["empires"])
            returns = result.state.returns()
            out.winners = [s for s, r in enumerate(returns) if r > 0]
            out.how = str(victory_condition(pos, game.opts))  # type: ignore[attr-defined]
            out.rounds = int(pos["round"])
    except Exception:  # noqa: BLE001 - a benchmark reports every failure and goes on
        out.error = traceback.format_exc(limit=6)
    out.cpu = time.process_time() - cpu
    return out


def _commit(src: Path) -> str:
    try:
        rev = subprocess.run(
            ["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(src), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return rev + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def summarise(games: list[Game1], label: str, bot: str, seats: str, players: int) -> dict[str, Any]:
    done = [g for g in games if not g.error]
    by_empire: dict[str, float] = {}
    by_how: Counter[str] = Counter()
    searcher_games: Counter[str] = Counter()
    searcher_wins: dict[str, float] = {}
    for g in done:
        share = 1.0 / len(g.winners) if g.winners else 0.0
        for w in g.winners:
            by_empire[g.empires[w]] = by_empire.get(g.empires[w], 0.0) + share
        by_how[g.how] += 1
        if g.searcher is not None:
            emp = g.empires[g.searcher]
            searcher_games[emp] += 1
            if g.searcher in g.winners:
                searcher_wins[emp] = searcher_wins.get(emp, 0.0) + 1.0 / len(g.winners)
    import ziggurat

    return {
        "label": label,
        "bot": bot,
        "ismcts_seats": seats if bot != "heuristic" else "",
        "players": players,
        "games": len(games),
        "finished": len(done),
        "errors": [f"seed {g.seed}: {g.error.splitlines()[-1] if g.error else ''}" for g in games if g.error],
        "wins_by_empire": {k: round(v, 3) for k, v in sorted(by_empire.items(), key=lambda kv: -kv[1])},
        "wins_by_condition": dict(by_how.most_common()),
        "searcher_games_by_empire": dict(searcher_games),
        "searcher_wins_by_empire": {k: round(v, 3) for k, v in searcher_wins.items()},
        "average_rounds": round(sum(g.rounds for g in done) / len(done), 2) if done else 0,
        "cpu_seconds_per_game": round(sum(g.cpu for g in games) / len(games), 3) if games else 0,
        "seeds": [min(g.seed for g in games), max(g.seed for g in games)] if games else [],
        "commit": _commit(Path(ziggurat.__file__).resolve().parent),
        "date": time.strftime("%Y-%m-%d"),
    }


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def _store(path: Path, row: dict[str, Any]) -> None:
    rows = [
        r
        for r in _load(path)
        if (r["label"], r["bot"], r["ismcts_seats"], r["players"])
        != (row["label"], row["bot"], row["ismcts_seats"], row["players"])
    ]
    rows.append(row)
    rows.sort(key=lambda r: (r["bot"] != "heuristic", r["bot"], r["players"], r["label"] != "before"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def _pct(part: float, whole: int) -> str:
    return f"{part:g} ({100 * part / whole:.0f}%)" if whole else "-"


def render(rows: list[dict[str, Any]]) -> str:
    """The Markdown of the balance section, from the stored rows."""
    lines = [
        "Seeded self-play, measured by `benchmarks/balance.py` and written here by its `--write-doc` "
        "(the rows are stored in `benchmarks/results/mare-nostrum-balance.json`). *before* is the code "
        "before Mare Nostrum followed its rules text (hero and wonder costs by tiles owned, broad "
        "Hannibal and Cleopatra, victory checked at the end of the Military phase, a heuristic that "
        "hardly fought); *after* is the code named in the row. Shared victories count a fraction to "
        "each winner. This is a report, not a target: the rules are not bent toward balance.",
        "",
        "| code | bot | players | games | wins by empire | wins by victory condition | rounds | "
        "CPU s/game | commit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        n = r["finished"]
        emp = ", ".join(f"{k} {_pct(v, n)}" for k, v in r["wins_by_empire"].items())
        how = ", ".join(f"{k} {_pct(v, n)}" for k, v in r["wins_by_condition"].items())
        bot = r["bot"] + (
            f" ({r['ismcts_seats']} seat{'s' if r['ismcts_seats'] == 'all' else ''})"
            if r["ismcts_seats"]
            else ""
        )
        games = f"{n}" if n == r["games"] else f"{n} of {r['games']}"
        lines.append(
            f"| {r['label']} | {bot} | {r['players']} | {games} | {emp} | {how} | {r['average_rounds']} | "
            f"{r['cpu_seconds_per_game']} | {r['commit']} |"
        )
    searched = [r for r in rows if r["searcher_games_by_empire"]]
    if searched:
        lines += [
            "",
            "With one ISMCTS seat per game, how often that seat won, by the empire it played:",
            "",
            "| code | bot | players | " + " | ".join(EMPIRES) + " |",
            "|---|---|---|" + "---|" * len(EMPIRES),
        ]
        for r in searched:
            cells = []
            for e in EMPIRES:
                g = r["searcher_games_by_empire"].get(e, 0)
                w = r["searcher_wins_by_empire"].get(e, 0)
                cells.append(f"{w:g} / {g}" if g else "-")
            lines.append(f"| {r['label']} | {r['bot']} | {r['players']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_doc(rows: list[dict[str, Any]], doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{render(rows)}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n## Balance\n\n" + block + "\n"
    doc.write_text(text, encoding="utf-8")


def partial_path(results: Path, label: str, bot: str, seats: str, players: int) -> Path:
    """Where the games of an unfinished row are kept, one JSON line per game, so that a long
    row (a search bot at a real budget) can be measured over several runs."""
    name = f"{label}-{bot}-{seats if bot != 'heuristic' else 'all'}-{players}p".replace(":", "_")
    return results.parent / "partial" / f"{name}.jsonl"


def load_partial(path: Path, commit: str) -> list[Game1]:
    """The games already played for a row; refused when they were played by other code."""
    if not path.exists():
        return []
    games = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data.pop("commit") != commit:
            raise SystemExit(f"{path}: its games were played by other code than {commit}; move it away first")
        games.append(Game1(**data))
    return games


def run(args: argparse.Namespace) -> None:
    import dataclasses

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    import ziggurat

    commit = _commit(Path(ziggurat.__file__).resolve().parent)
    seats = args.ismcts_seats
    for players in [int(p) for p in args.players.split(",")]:
        partial = partial_path(args.results, args.label, args.bot, seats, players)
        games = load_partial(partial, commit)
        played = {g.seed for g in games}
        jobs = [(players, seed, args.bot, seats) for seed in range(args.seed, args.seed + args.games)]
        jobs = [j for j in jobs if j[1] not in played]
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, disable=not sys.stderr.isatty()) as bar:
            task = bar.add_task(f"{args.label} {args.bot} {players}p", total=args.games, completed=len(games))
            partial.parent.mkdir(parents=True, exist_ok=True)
            # one worker plays in this process (no pool to start, nothing to pickle)
            pool = multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
            with pool or contextlib.nullcontext():
                for g in pool.imap_unordered(_play, jobs) if pool else map(_play, jobs):
                    games.append(g)
                    with partial.open("a", encoding="utf-8") as keep:
                        keep.write(json.dumps({**dataclasses.asdict(g), "commit": commit}) + "\n")
                    bar.advance(task)
        row = summarise(games, args.label, args.bot, seats, players)
        _store(args.results, row)
        partial.unlink()
        print(json.dumps(row), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--label", default="after", help="the code measured: before or after (default after)")
    ap.add_argument("--bot", default="heuristic", help="heuristic or an ISMCTS spec such as ismcts:8")
    ap.add_argument("--ismcts-seats", choices=("one", "all"), default="one", help="ISMCTS at one seat or all")
    ap.add_argument("--games", type=int, default=300, help="games per player count (default 300)")
    ap.add_argument("--players", default="3,4,5", help="player counts (default 3,4,5)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--results", type=Path, default=RESULTS, help="the results file (JSON)")
    ap.add_argument(
        "--write-doc", action="store_true", help="only rewrite the report in docs/mare-nostrum.md"
    )
    ap.add_argument("--doc", type=Path, default=DOC, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.write_doc:
        write_doc(_load(args.results), args.doc)
        print(f"wrote the balance report into {args.doc}")
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
