"""``ziggurat tournament``: the arena's command (see docs/arena.md and :mod:`ziggurat.arena`).

Everything the user can get wrong (game, player list, bot specs, counts, options, --out, Ray)
is checked before the first game and before anything is written: a one-line error, exit 2.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ziggurat.arena import (
    ArenaError,
    GameOutcome,
    LocalRunner,
    RayRunner,
    Tournament,
    TournamentResult,
    run_tournament,
    write_report,
)
from ziggurat.arena.report import COLUMNS, standing_cells
from ziggurat.cli.common import (
    GAME_HELP,
    OPTION_HELP,
    UsageError,
    console,
    handle_usage_errors,
    parse_options,
    progress_console,
)
from ziggurat.engine.registry import game_class

PLAYERS_HELP = (
    "Comma-separated bot specs, one per seat: random, heuristic, ismcts[:BUDGET] ... The count sets "
    "the player count. A spec given twice makes two entrants, e.g. heuristic#1 and heuristic#2."
)
RAY_HELP = (
    "Run the games as Ray tasks: 'local' starts a local Ray instance (--jobs CPUs), 'auto' joins "
    "this machine's running cluster, or a cluster address such as ray://head:10001. "
    "Needs: pip install 'ziggurat[cluster]'."
)


def default_out(game_id: str) -> Path:
    """``./tournament-<game>-<YYYYmmdd-HHMMSS>``, with a suffix if that exists already."""
    base = f"tournament-{game_id}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, k = Path(base), 1
    while path.exists():
        k += 1
        path = Path(f"{base}-{k}")
    return path


def check_out(out: Path) -> None:
    """``out`` must be a new or empty directory that can be written; nothing is created here."""
    if out.exists():
        if not out.is_dir():
            raise UsageError(f"--out {out} exists and is not a directory")
        if any(out.iterdir()):
            raise UsageError(f"--out {out} is not empty; choose a new directory")
        if not os.access(out, os.W_OK | os.X_OK):
            raise UsageError(f"--out {out} is not writable")
        return
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"--out {out} cannot be created: {parent} is not a writable directory")


def standings_table(result: TournamentResult) -> Table:
    t = result.tournament
    fair_place = (t.num_players + 1) / 2
    table = Table(
        title=f"Standings: {game_class(t.game_id).name}, {t.num_players} players",
        caption=(
            f"over {len(result.finished)} finished games; fair share {100 * result.fair_share:.1f}%, "
            f"fair place {fair_place:.2f}\n95% CI: Wilson score interval; place: tied seats share "
            "their places\nμ, σ: openskill Plackett-Luce rating, updated game by game in seed order"
        ),
    )
    for column in COLUMNS:
        table.add_column(column, justify="left" if column in ("entrant", "bot") else "right")
    for st in result.standings:
        table.add_row(*standing_cells(st))
    return table


def games_table(result: TournamentResult) -> Table:
    table = Table(title="Games", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    table.add_row("games", str(len(result.outcomes)))
    table.add_row("finished", str(len(result.finished)))
    table.add_row("not finished (hit --max-plies)", str(len(result.truncated)))
    table.add_row("errors", str(len(result.errors)))
    if result.finished:
        plies = sum(o.plies for o in result.finished) / len(result.finished)
        table.add_row("avg plies, finished games", f"{plies:.1f}")
    return table


@handle_usage_errors
def tournament(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[str, typer.Option("--players", "-p", help=PLAYERS_HELP)],
    games: Annotated[
        int,
        typer.Option("--games", "-n", help="Number of games, rounded up to a multiple of the player count."),
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", "-s", help="The first game is played with seed SEED, the next with SEED + 1, and so on."
        ),
    ] = 1,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Worker processes [default: 1; 0: one per CPU]; the results do not depend on it. "
            "With --ray local: the Ray instance's CPUs [default: all].",
            show_default=False,
        ),
    ] = None,
    ray: Annotated[str | None, typer.Option("--ray", metavar="ADDRESS", help=RAY_HELP)] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR",
            help="New or empty output directory [default: ./tournament-GAME-YYYYmmdd-HHMMSS].",
        ),
    ] = None,
    records: Annotated[
        bool, typer.Option("--records/--no-records", help="Save every game's record in DIR/records/.")
    ] = True,
    max_plies: Annotated[
        int,
        typer.Option("--max-plies", help="Stop a game after this many plies (not finished, not counted)."),
    ] = 100_000,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Play a seeded bot tournament with seat rotation; print win rates, places and ratings; save plots.

    **Entrants** are the --players specs in order; a spec given twice makes two entrants
    (heuristic#1, heuristic#2), each with its own statistics and rating.

    **Seats rotate** cyclically: in game k (counting from 0) seat s is played by entrant
    (s + k) mod players, and --games is rounded up to a multiple of the player count, so every
    entrant plays every seat equally often. Game k is played with seed SEED + k.
    --jobs is the number of local processes, or the CPUs of a '--ray local' instance.

    **Statistics** count finished games: win rate with its 95% Wilson interval (a shared victory
    is split), average place (tied seats share their places), and an openskill Plackett-Luce
    rating (mu, sigma) updated game by game in seed order. With bots that are deterministic for
    a seed (random, heuristic, iteration budgets) the results are the same for any --jobs and
    with --ray; time budgets (ismcts:1s) depend on the machine.

    **Outputs** in --out: results.json, results.csv (one row per game and seat), summary.md,
    winrate.png, ratings.png and records/game-00001.json ... (replay them with 'ziggurat replay').
    Exit code 1 if a game raised an error (it is reported and left out), 2 on bad input.

    Examples, one per game:

        ziggurat tournament mesopotamia -p heuristic,random,ismcts:2000 -n 60

        ziggurat tournament mesopotamia-epochs -p heuristic,heuristic,random -n 30 -j 0

        ziggurat tournament mare-nostrum -p heuristic,random,random -n 12 --no-records
    """
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    if jobs is not None and jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per CPU) or more, not {jobs}")
    if max_plies < 1:
        raise UsageError(f"--max-plies must be at least 1, not {max_plies}")
    options = parse_options(option)
    try:
        plan = Tournament.create(game_id, players, games, seed, options, max_plies, records, balance=True)
    except ArenaError as exc:
        raise UsageError(str(exc)) from exc
    out_dir = out if out is not None else default_out(game_id)
    check_out(out_dir)
    workers = (os.cpu_count() or 1) if jobs == 0 else (jobs or 1)
    runner: LocalRunner | RayRunner
    if ray is not None:
        if ray != "local" and jobs is not None:
            typer.echo("ziggurat: note: --jobs is ignored on a Ray cluster (the cluster schedules)", err=True)
        runner = RayRunner(ray, num_cpus=jobs or None)
        try:
            runner.connect()
        except ArenaError as exc:
            raise UsageError(str(exc)) from exc
    else:
        runner = LocalRunner(min(workers, plan.games))
    try:
        result = _play(plan, runner, out_dir, games)
    finally:
        if isinstance(runner, RayRunner):
            runner.close()
    if result.errors:
        raise typer.Exit(1)


def _play(plan: Tournament, runner: LocalRunner | RayRunner, out_dir: Path, asked: int) -> TournamentResult:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create --out {out_dir}: {exc}") from exc
    con = console()
    names = ", ".join(e.name for e in plan.entrants)
    con.print(
        Text(
            f"{plan.game_id}: {plan.games} games, entrants {names}, seeds {plan.seed} to {plan.seed + plan.games - 1}"
        )
    )
    if plan.games != asked:
        con.print(
            Text(f"(--games {asked} rounded up to {plan.games}: every entrant plays every seat equally)")
        )
    progress = Progress(
        TextColumn("[bold]tournament"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[errors]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=progress_console(),
        transient=True,
    )
    errors = 0

    def advance(outcome: GameOutcome) -> None:
        nonlocal errors
        errors += outcome.error is not None
        progress.update(task, advance=1, errors=f"[red]{errors} errors" if errors else "")

    with progress:
        task = progress.add_task("games", total=plan.games, errors="")
        result = run_tournament(
            plan, runner, records_dir=out_dir / "records" if plan.records else None, on_outcome=advance
        )
    written = write_report(result, out_dir)
    con.print(standings_table(result))
    con.print(games_table(result))
    for st in result.standings:
        stats = st.bot_stats
        if stats.get("iterations") and stats.get("seconds") and stats.get("searched"):
            con.print(
                Text(
                    f"{st.entrant.name}: {stats['iterations'] / stats['seconds']:,.0f} search iterations/s, "
                    f"{stats['iterations'] / stats['searched']:,.0f} per searched decision "
                    f"({stats['searched']:.0f} of {stats['decisions']:.0f} decisions searched)"
                )
            )
    if result.errors:
        first = result.errors[0]
        con.print(Text(f"First error: game {first.index + 1} (seed {first.seed})", style="bold red"))
        con.print(Text(first.error or ""), markup=False)
    files = ", ".join(p.name for p in written)
    saved = (
        f" and records/ ({sum(1 for o in result.outcomes if o.record_file)} games)" if plan.records else ""
    )
    con.print(Text(f"Written to {out_dir}/: {files}{saved}"))
    sys.stdout.flush()
    rate = len(result.outcomes) / max(result.seconds, 1e-9)
    print(
        f"{len(result.outcomes)} games in {result.seconds:.1f} s ({rate:.1f} games/s, {result.runner})",
        file=sys.stderr,
    )
    return result
