"""Benchmark: bot strength, measured with the arena; writes a markdown table to docs/strength.md.

Two sets of matches, each a seeded tournament with seat rotation (ziggurat.arena):

(a) heuristic against random, 2 players, in every game with a 2-player mode; Mare Nostrum is
    for 3 to 5 players, so there it is 1 heuristic against 2 random bots. Target: the heuristic
    bot wins at least 90% of the games.
(b) ISMCTS (``ismcts:1s`` by default) in one seat against heuristic bots in every other seat,
    in every game at two player counts. Target: at least twice the fair share (2/players);
    for 2 players, where that would be 100%, at least 65% (the issue's figure for 2-player
    Mesopotamia, used for every 2-player match).

The table gives the games played (finished), the win rate of the bot under test with its 95%
Wilson interval and its wins, for part (b) a control (the same tournament, seeds and seats
with a heuristic bot in the seat under test: what the seat wins without search), the target
and whether it is met ("yes, significant" when the whole interval is above the target), and
the ISMCTS bot's search speed from its ``last_stats`` (iterations per second of search and per
decision; racing may stop a search before its budget, docs/bots.md).

    .venv/bin/python benchmarks/strength.py [--games 60] [--jobs 1] [--budget 1s] [--parts a,b]
        [--only LABELS] [--seed 1] [--extend] [--output docs/strength.md] [--out DIR] [--quick]

Each match's row is also kept in a JSON file beside the markdown (``docs/strength.json``), and
the table is written from every row kept there, in match order: ``--only b-mare-nostrum-4p``
measures one match again (or for the first time) and leaves the other rows as they were, so
a long measurement can be done match by match. Each row says when and how it was measured.

``--extend`` adds games to a stored row instead: the match is played on from the seed after
the row's last (``--games`` more, whole rotations, so the seats go on rotating as in one
longer match) and the counts are summed, the interval worked out again.

``--quick`` checks that everything runs: one rotation per match (as many games as players)
and a budget of 50 ms per decision instead of 1 s, and writes the table only where
``--output`` says (by default it only prints it). Figures are printed, never checked:
timing depends on the machine, and a time budget makes ISMCTS results machine-dependent too.
With ``--jobs N`` the games of a match run in N processes; for a time budget, give each
process a core of its own (``--jobs`` at most the free cores). Part (b) costs about one
budget per ISMCTS decision, some 500 decisions per game summed over its six matches: with
the defaults (60 games, 1 s) expect 9 to 10 hours on one process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ziggurat.arena import (
    GameOutcome,
    LocalRunner,
    Tournament,
    TournamentResult,
    run_tournament,
    wilson,
    write_report,
)

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Match:
    part: str
    game: str
    players: tuple[str, ...]
    target: float
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.part}-{self.game}-{len(self.players)}p"


def matches(budget: str) -> list[Match]:
    ismcts = f"ismcts:{budget}"
    out = [
        Match("a", "mesopotamia", ("heuristic", "random"), 0.9),
        Match("a", "mesopotamia-epochs", ("heuristic", "random"), 0.9),
        Match("a", "mare-nostrum", ("heuristic", "random", "random"), 0.9, "3 players: no 2-player mode"),
    ]
    for game, counts in (("mesopotamia", (2, 3)), ("mesopotamia-epochs", (2, 4)), ("mare-nostrum", (3, 4))):
        for n in counts:
            target = 0.65 if n == 2 else 2 / n
            out.append(Match("b", game, (ismcts,) + ("heuristic",) * (n - 1), target))
    return out


def run_match(
    match: Match, games: int, seed: int, jobs: int, max_plies: int, out: Path | None
) -> TournamentResult:
    plan = Tournament.create(match.game, list(match.players), games, seed, max_plies=max_plies,
                             records=out is not None, balance=True)  # fmt: skip
    done = 0

    def tick(_outcome: GameOutcome) -> None:
        nonlocal done
        done += 1
        print(f"\r  {match.label}: {done}/{plan.games} games", end="", file=sys.stderr, flush=True)

    target = out / match.label if out is not None else None
    result = run_tournament(plan, LocalRunner(jobs), records_dir=target / "records" if target else None,
                            on_outcome=tick)  # fmt: skip
    print(file=sys.stderr)
    if target is not None:
        write_report(result, target)
    return result


def control(match: Match, games: int, seed: int, jobs: int, max_plies: int) -> str:
    """Part (b)'s control: the same tournament (seeds, seats) with a heuristic bot in the seat of
    the bot under test, so its wins are what that seat wins without search (``k / games``)."""
    if match.part != "b":
        return "-"
    heuristic = ["heuristic"] * len(match.players)
    plan = Tournament.create(
        match.game, heuristic, games, seed, max_plies=max_plies, records=False, balance=True
    )
    result = run_tournament(plan, LocalRunner(jobs))
    st = result.standings[0]
    return f"{st.wins:g} / {st.games}"


def row(match: Match, result: TournamentResult) -> list[str]:
    st = result.standings[0]  # the bot under test is the first entrant
    lo, hi = st.interval
    if not st.games:
        met = "-"
    elif lo >= match.target:
        met = "yes, significant"
    else:
        met = "yes" if st.win_rate >= match.target else "no"
    stats = st.bot_stats
    speed = "-"
    if stats.get("seconds") and stats.get("searched"):
        speed = f"{stats['iterations'] / stats['seconds']:,.0f} it/s, {stats['iterations'] / stats['searched']:,.0f} it/decision"
    others = ", ".join(f"`{e.name}`" for e in result.tournament.entrants[1:])
    played = f"{st.games}"
    missing = len(result.outcomes) - st.games
    if missing:
        played += f" (+{missing} unfinished or failed)"
    bots = f"`{st.entrant.name}` vs {others}"
    if match.note:
        bots += f" ({match.note})"
    return [
        match.part, match.game, str(result.tournament.num_players), bots, played,
        f"{100 * st.win_rate:.1f}% ({100 * lo:.1f} – {100 * hi:.1f})", f"{st.wins:g} / {st.games}",
        f"{100 * match.target:.0f}%", met, speed,
    ]  # fmt: skip


HEADER = ["part", "game", "players", "bots", "games played", "win rate (95% CI)", "wins",
          "heuristic in its seat", "target", "met", "ISMCTS search speed", "measured"]  # fmt: skip
CONTROL = HEADER.index("heuristic in its seat")


READING = "## Reading"
"""The heading from which the existing markdown file is kept when the table is rewritten."""


def measured(args: argparse.Namespace, seed: int, seconds: float) -> str:
    """When and how one match was measured (the table's last column)."""
    return f"{time.strftime('%Y-%m-%d')}, {args.jobs} process(es), seed {seed}, {seconds / 60:.0f} min"


def _count(cell: str) -> tuple[float, int] | None:
    """``"k / n"`` as ``(k, n)``; ``None`` for ``"-"``."""
    m = re.fullmatch(r"([\d.]+) / (\d+)", cell.strip())
    return (float(m.group(1)), int(m.group(2))) if m else None


def _seeds(cell: str) -> int:
    """The first seed named in a row's ``measured`` cell (``seed 1`` or ``seeds 1-24``)."""
    m = re.search(r"seeds? (\d+)", cell)
    if m is None:
        raise ValueError(f"no seed in {cell!r}")
    return int(m.group(1))


def _minutes(cell: str) -> int:
    m = re.search(r"(\d+) min", cell)
    return int(m.group(1)) if m else 0


def next_seed(old: list[str]) -> int:
    """The seed after the last game of a stored row."""
    played = _count(old[HEADER.index("wins")])
    if played is None or "+" in old[HEADER.index("games played")]:
        raise ValueError("only a row whose every game finished can be extended")
    return _seeds(old[HEADER.index("measured")]) + played[1]


def merged(
    match: Match, old: list[str], new: list[str], args: argparse.Namespace, seconds: float
) -> list[str]:
    """A stored row and the row of the games played after it, as one row: counts summed,
    the interval and ``met`` worked out again, search speeds averaged over the games."""
    col = HEADER.index
    out = list(new)
    w0, n0 = _count(old[col("wins")]) or (0.0, 0)
    w1, n1 = _count(new[col("wins")]) or (0.0, 0)
    wins, games = w0 + w1, n0 + n1
    lo, hi = wilson(wins, games)
    rate = wins / games if games else 0.0
    out[col("games played")] = str(games)
    out[col("win rate (95% CI)")] = f"{100 * rate:.1f}% ({100 * lo:.1f} – {100 * hi:.1f})"
    out[col("wins")] = f"{wins:g} / {games}"
    c0, c1 = _count(old[CONTROL]), _count(new[CONTROL])
    if c0 is not None and c1 is not None:
        out[CONTROL] = f"{c0[0] + c1[0]:g} / {c0[1] + c1[1]}"
    out[col("met")] = "yes, significant" if lo >= match.target else "yes" if rate >= match.target else "no"
    speeds = [
        re.findall(r"([\d,]+) it/", cell)
        for cell in (old[col("ISMCTS search speed")], new[col("ISMCTS search speed")])
    ]
    if all(len(sp) == 2 for sp in speeds):
        avg = [
            (float(speeds[0][i].replace(",", "")) * n0 + float(speeds[1][i].replace(",", "")) * n1) / games
            for i in range(2)
        ]
        out[col("ISMCTS search speed")] = f"{avg[0]:,.0f} it/s, {avg[1]:,.0f} it/decision"
    first = _seeds(old[col("measured")])
    before = re.search(r"(\d+(?: then \d+)*) process", old[col("measured")])
    jobs = str(args.jobs)
    if before is not None and before.group(1).split()[-1] != jobs:
        jobs = f"{before.group(1)} then {jobs}"
    out[col("measured")] = (
        f"{time.strftime('%Y-%m-%d')}, {jobs} process(es), seeds {first}–{first + games - 1}, "
        f"{_minutes(old[col('measured')]) + round(seconds / 60)} min in all"
    )
    return out


def load_rows(path: Path | None) -> dict[str, list[str]]:
    """The rows kept from earlier runs (``label -> row``); none if the file is missing."""
    if path is None or not path.exists():
        return {}
    kept = json.loads(path.read_text(encoding="utf-8"))
    return {label: list(r) for label, r in kept.items() if len(r) == len(HEADER)}


def markdown(rows: list[list[str]], args: argparse.Namespace, seconds: float, budget: str) -> str:
    lines = [
        "# Bot strength",
        "",
        "Written by `benchmarks/strength.py`"
        + (" in `--quick` mode (one rotation per match: too few games to judge)" if args.quick else "")
        + f" on {time.strftime('%Y-%m-%d')}: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs; this run took {seconds / 60:.1f} min. The last column says when and how each "
        "match was measured (a match can be measured again alone with `--only LABEL`).",
        "",
        "- (a) `heuristic` against `random`, 2 players (Mare Nostrum: 3, one heuristic against two random);"
        " target 90% wins.",
        f"- (b) `ismcts:{budget}` in one seat against `heuristic` in every other seat; target twice the fair share"
        " (2/players), and 65% for 2 players.",
        "- Seats rotate, so the bot under test plays every seat equally; win rate over finished games, "
        '95% Wilson score interval; "yes, significant": the whole interval is above the target.',
        "- wins: games won by the bot under test; heuristic in its seat (part b): the same games (seeds and "
        "seats) with a heuristic bot in that seat instead, that is what the seat wins without search.",
        "- ISMCTS search speed: iterations per second of search and per decision (decisions with a single "
        "legal action are not searched), from the bot's `last_stats`.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "---|" * len(HEADER),
        *("| " + " | ".join(r) + " |" for r in rows),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument(
        "--games", type=int, default=60, help="games per match, rounded up to whole rotations (60)"
    )
    ap.add_argument(
        "--games-a", type=int, default=0, help="games per part-(a) match, if not --games (cheap matches)"
    )
    ap.add_argument("--quick", action="store_true", help="one rotation per match, ismcts:50ms; print only")
    ap.add_argument(
        "--budget", default=None, help="ISMCTS budget: 1s, 250ms, 2000 (default 1s; --quick: 50ms)"
    )
    ap.add_argument("--parts", default="a,b", help="which parts to run: a, b or a,b (default)")
    ap.add_argument(
        "--only",
        default="",
        help="run only these matches (comma-separated labels such as b-mare-nostrum-4p); "
        "the other rows of the table are kept from earlier runs",
    )
    ap.add_argument("--jobs", type=int, default=1, help="processes per match (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="first seed of every match (default 1)")
    ap.add_argument(
        "--extend",
        action="store_true",
        help="add --games games to each stored row instead of measuring it again "
        "(played from the seed after the row's last)",
    )
    ap.add_argument("--max-plies", type=int, default=20_000, help="ply cap per game (default 20000)")
    ap.add_argument(
        "--output", type=Path, default=None, help="markdown file (default docs/strength.md; --quick: none)"
    )
    ap.add_argument(
        "--out", type=Path, default=None, help="also save each match's tournament output under DIR/"
    )
    args = ap.parse_args(argv)
    budget = args.budget or ("50ms" if args.quick else "1s")
    parts = {p.strip() for p in args.parts.split(",")}
    output = args.output or (None if args.quick else ROOT / "docs" / "strength.md")
    everything = matches(budget)
    only = {label.strip() for label in args.only.split(",") if label.strip()}
    unknown = only - {m.label for m in everything}
    if unknown:
        known = ", ".join(m.label for m in everything)
        ap.error(f"unknown match {', '.join(sorted(unknown))}; matches are {known}")
    store = output.with_suffix(".json") if output is not None else None
    kept = load_rows(store)
    start = time.perf_counter()
    for match in everything:
        if match.part not in parts or (only and match.label not in only):
            continue
        wanted = args.games_a if (match.part == "a" and args.games_a) else args.games
        games = len(match.players) if args.quick else wanted
        stored = load_rows(store).get(match.label) if args.extend else None
        seed = next_seed(stored) if stored is not None else args.seed
        t0 = time.perf_counter()
        result = run_match(match, games, seed, args.jobs, args.max_plies, args.out)
        cells = row(match, result)
        cells.insert(CONTROL, control(match, games, seed, args.jobs, args.max_plies))
        spent = time.perf_counter() - t0
        done = [*cells, measured(args, seed, spent)]
        if stored is not None:
            done = merged(match, stored, done, args, spent)
        print(" | ".join(done), flush=True)
        if store is not None:
            # after each match, so an interrupted run keeps what it measured; read again
            # first, so runs of other matches in parallel keep their rows too
            kept = load_rows(store)
            store.write_text(json.dumps(kept | {match.label: done}, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")  # fmt: skip
        kept[match.label] = done
        for o in result.errors[:1]:
            print(f"  error in game {o.index + 1} (seed {o.seed}):\n{o.error}", file=sys.stderr)
    kept = load_rows(store) | kept if store is not None else kept
    rows = [kept[m.label] for m in everything if m.label in kept]
    text = markdown(rows, args, time.perf_counter() - start, budget)
    print()
    print(text)
    if output is not None:
        if output.exists():  # keep the hand-written reading of the figures
            old = output.read_text(encoding="utf-8")
            if (at := old.find(READING)) >= 0:
                text = text.rstrip("\n") + "\n\n" + old[at:]
        output.write_text(text, encoding="utf-8")
        print(f"written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
