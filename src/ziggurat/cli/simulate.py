"""``ziggurat simulate``: many seeded bot games, a win table with confidence intervals.

Game ``i`` is played with seed ``seed + i`` by :func:`ziggurat.bots.play_game`, in this process
(``--jobs 1``) or in worker processes; outcomes are gathered by index, so the table is the
same for any number of jobs. A game that raises is counted as an error, not a crash.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ziggurat.arena.runner import fallback_record, play_guarded
from ziggurat.arena.stats import wilson
from ziggurat.bots import make_bot
from ziggurat.cli.common import (
    GAME_HELP,
    OPTION_HELP,
    PLAYERS_HELP,
    SEAT_ORDER_HELP,
    UsageError,
    close_bots,
    console,
    fixed_seat_names,
    handle_usage_errors,
    load_game,
    make_bots,
    parse_options,
    parse_players,
    progress_console,
)
from ziggurat.engine.contract import State
from ziggurat.engine.registry import game_class


@dataclass(frozen=True)
class Job:
    game_id: str
    num_players: int
    options: dict[str, Any]
    kinds: tuple[str, ...]
    index: int
    seed: int
    max_plies: int
    out_dir: str | None


@dataclass
class Outcome:
    index: int
    seed: int
    returns: list[float] | None = None
    plies: int = 0
    rounds: int | None = None
    finished: bool = False
    error: str | None = None
    facets: dict[str, str] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        """The seat with the single best return, if the game ended with one."""
        if not self.finished or not self.returns:
            return None
        best = max(self.returns)
        tops = [s for s, r in enumerate(self.returns) if r == best]
        return tops[0] if best > 0 and len(tops) == 1 else None


def result_facets(game_id: str, state: State) -> dict[str, str]:
    """How a finished game was won, from the game's ``hooks.result_facets(state)`` if it has
    one (Mare Nostrum: the winning empire and victory condition); else nothing."""
    hook = game_class(game_id).hooks.result_facets
    return dict(hook.get()(state)) if hook is not None else {}


def facets_table(outcomes: list[Outcome]) -> Table | None:
    """Counts of each facet value over the finished games (e.g. wins by empire and by victory
    condition), so that balance can be judged; None when the game reports no facets."""
    counts: dict[str, dict[str, int]] = {}
    for o in outcomes:
        for key, value in o.facets.items():
            by_value = counts.setdefault(key, {})
            by_value[value] = by_value.get(value, 0) + 1
    if not counts:
        return None
    table = Table(title="How the games were won")
    for col, just in (("facet", "left"), ("value", "left"), ("games", "right"), ("%", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for key, by_value in counts.items():
        total = sum(by_value.values())
        for value, k in sorted(by_value.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(key, value, str(k), f"{100 * k / total:.1f}")
    return table


def record_path(out_dir: str, index: int) -> Path:
    return Path(out_dir) / f"game-{index + 1:05d}.json"


def run_one(job: Job) -> Outcome:
    """Play game ``job.index``; never raises (errors are returned with their traceback)."""
    out = Outcome(job.index, job.seed)
    # a failing close must not lose the outcome: close errors are left out
    played = play_guarded(job.game_id, job.kinds, job.options, job.seed, job.max_plies, make=make_bot)
    state = played.state
    out.plies = played.plies
    out.finished = played.finished
    out.returns = played.returns
    out.error = played.error
    if out.error is None and state is not None:
        try:
            rnd = state.view(None).get("round")
            out.rounds = int(rnd) if isinstance(rnd, int) else None
            if out.finished:
                out.facets = result_facets(job.game_id, state)
        except Exception:  # noqa: BLE001 - a rules bug must not stop the other games
            out.error = traceback.format_exc()
    if job.out_dir is not None and state is not None:
        rec = fallback_record(state, job.game_id, job.options, job.kinds, job.seed)
        if out.error is not None:
            rec["error"] = out.error
        record_path(job.out_dir, job.index).write_text(json.dumps(rec), encoding="utf-8")
    return out


def run_all(jobs: list[Job], workers: int) -> Iterator[Outcome]:
    """Outcomes in completion order (callers sort by index)."""
    if workers <= 1:
        for job in jobs:
            yield run_one(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_one, job) for job in jobs]
        for fut in as_completed(futures):
            yield fut.result()


def results_tables(outcomes: list[Outcome], kinds: list[str], names: list[str]) -> tuple[Table, Table]:
    """The wins table (per seat) and the summary table; both depend only on the outcomes.

    A seat across many games is ``seat 1``, ``seat 2`` ... (counted from 1); ``names`` are the
    players' names when they stay the same from game to game (Mesopotamia's colours, Epochs'
    symbols), else empty (Mare Nostrum's empires are chosen in each game) and not shown."""
    played = [o for o in outcomes if o.error is None]
    n = len(played)
    wins = [0] * len(kinds)
    for o in played:
        if o.winner is not None:
            wins[o.winner] += 1
    table = Table(title="Wins per seat", caption=f"{n} games without error; CI: 95% Wilson score interval")
    columns = [("seat", "left"), ("player", "left"), ("bot", "left"), ("wins", "right"),
               ("win %", "right"), ("95% CI", "right")]  # fmt: skip
    if not names:
        del columns[1]
    for col, just in columns:
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for seat, kind in enumerate(kinds):
        lo, hi = wilson(wins[seat], n)
        pct = f"{100 * wins[seat] / n:.1f}" if n else "-"
        cells = [f"seat {seat + 1}", *names[seat : seat + 1], kind, str(wins[seat]), pct]
        table.add_row(*cells, f"{100 * lo:.1f} – {100 * hi:.1f}")
    finished = [o for o in played if o.finished]
    summary = Table(title="Games", show_header=False)
    summary.add_column("what")
    summary.add_column("value", justify="right")
    summary.add_row("games", str(len(outcomes)))
    summary.add_row("finished", str(len(finished)))
    summary.add_row("no winner (finished)", str(sum(1 for o in finished if o.winner is None)))
    summary.add_row("not finished (hit --max-plies)", str(sum(1 for o in played if not o.finished)))
    summary.add_row("errors", str(len(outcomes) - n))
    if finished:
        plies = sum(o.plies for o in finished) / len(finished)
        rounds = [o.rounds for o in finished if o.rounds is not None]
        summary.add_row("avg length, finished games (plies)", f"{plies:.1f}")
        if rounds:
            summary.add_row("avg length, finished games (rounds)", f"{sum(rounds) / len(rounds):.1f}")
    if played:
        summary.add_row("avg plies, all games without error", f"{sum(o.plies for o in played) / n:.1f}")
    return table, summary


@handle_usage_errors
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 100,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="Comma-separated bot specs in seat order (random, heuristic, ismcts[...]); the count "
            "sets the player count. " + SEAT_ORDER_HELP + " " + PLAYERS_HELP,
        ),
    ] = "heuristic,heuristic,random",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Game i is played with seed SEED + i.")] = 1,
    out: Annotated[
        Path | None, typer.Option("--out", help="Directory for the records, DIR/game-00001.json ...")
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=0, help="Worker processes (0: one per CPU); results do not depend on it."
        ),
    ] = 1,
    max_plies: Annotated[
        int,
        typer.Option(
            "--max-plies", min=1, help="Stop a game after this many plies (counted as not finished)."
        ),
    ] = 100_000,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Play many seeded bot games and print wins per seat with 95% confidence intervals.

    Also prints the average game length, the games that hit --max-plies and the games that
    raised an error (with the first error's traceback). With --out, every game's record is
    saved as JSON for 'ziggurat replay' and 'ziggurat render'.

    Examples, one per game:

        ziggurat simulate mesopotamia -n 200 -p heuristic,heuristic,random

        ziggurat simulate mesopotamia-epochs -n 50 -p heuristic,random,random,random --out runs/

        ziggurat simulate mare-nostrum -n 20 -p heuristic,heuristic,heuristic -j 0
    """
    kinds = parse_players(players, allow_human=False)
    options = parse_options(option)
    game = load_game(game_id, len(kinds), options)
    close_bots(make_bots(game, kinds))  # fail early, in this process, on a bot that cannot be made
    out_dir = None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot create {out}: {exc}") from exc
        out_dir = str(out)
    workers = jobs or os.cpu_count() or 1
    job_list = [
        Job(game_id, len(kinds), options, tuple(kinds), i, seed + i, max_plies, out_dir) for i in range(games)
    ]
    con = console()
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    progress = Progress(
        TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=progress_console(), transient=True,
    )  # fmt: skip
    with progress:
        task = progress.add_task("games", total=games)
        for outcome in run_all(job_list, min(workers, games)):
            outcomes.append(outcome)
            progress.advance(task)
    elapsed = time.perf_counter() - start
    outcomes.sort(key=lambda o: o.index)
    names = fixed_seat_names(game)
    con.print(
        Text(
            f"{game.name}: {games} game{'' if games == 1 else 's'}, players {', '.join(kinds)}, seeds {seed} to {seed + games - 1}"
        )
    )
    table, summary = results_tables(outcomes, kinds, names)
    con.print(table)
    facets = facets_table(outcomes)
    if facets is not None:
        con.print(facets)
    con.print(summary)
    errors = [o for o in outcomes if o.error is not None]
    if errors:
        first = errors[0]
        con.print(Text(f"First error: game {first.index + 1} (seed {first.seed})", style="bold red"))
        con.print(Text(first.error or ""), markup=False)
    if out_dir is not None:
        con.print(f"Records written to {out_dir}/game-00001.json ...")
    sys.stdout.flush()
    print(
        f"{games} games in {elapsed:.1f} s ({games / max(elapsed, 1e-9):.1f} games/s, {workers} job(s))",
        file=sys.stderr,
    )
    if errors:
        raise typer.Exit(1)
