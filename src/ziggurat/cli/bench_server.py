"""``ziggurat bench-server``: throughput and latency of the game server, measured end to end.

Starts ``--processes`` real ``ziggurat serve`` processes (127.0.0.1, free ports, bots without
delay unless ``--pace`` gives one, one database: a temporary SQLite file, a throw-away
PostgreSQL database, or a URL), creates ``--tables`` tables spread over them and plays them
with scripted WebSocket clients in one asyncio loop (``bench_clients``), then prints what it
measured: actions per second, the latency from a human action's send to the ``state`` showing
it on the player's socket and on a spectator's socket of another process, the CPU each server
process used, the largest event-loop stall each process reports in ``/metrics`` since it
started (set-up included) and, from its stall histogram, the bucket of the largest one while
measuring, the servers' own time from a human action's arrival to its broadcast (the buckets of
their ``ziggurat_action_seconds`` histograms holding its p50 and p99 while measuring: the
server's part of the latency, without the clients' or the network's), and the tables finished.
Figures only; nothing asserts on them. ``cli/main.py`` registers :func:`bench_server` as
``bench-server``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from ziggurat.cli.bench_clients import Clients, Measured, StoredCounts, Workload
from ziggurat.cli.common import console as board_console
from ziggurat.cli.common import fail, progress_console
from ziggurat.cli.server_procs import (
    ServerFailed,
    ServerProcess,
    bucket_quantile,
    is_sqlite,
    largest_stall_between,
    scratch_database,
)
from ziggurat.engine.registry import game_class, games
from ziggurat.server.loopwatch import BUCKETS, GC_THRESHOLDS

KEPT_UP_SHARE = 0.9
"""With ``--rate``, the server kept up if the human actions achieved are at least this share of
those offered and the player's p99 latency is under the rate's period; with ``--pace``, if the
actions achieved (everyone's) are at least this share of one per table every ``pace`` seconds
and the player's p99 latency is under the pace."""

SQLITE_ONE_PROCESS = (
    "SQLite stays a single process: --processes {n} needs PostgreSQL (--db postgres, or a "
    "postgresql+psycopg:// URL)"
)


def percentile(values: list[float], p: float) -> float | None:
    """The ``p``-th percentile of ``values`` (nearest rank), None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class RunResult:
    """What one run (one game, one database, N processes) measured."""

    game: str
    database: str  # sqlite or postgresql
    processes: int
    work: Workload
    measured: Measured
    actions: int = 0
    tables_finished: int = 0
    server_cpu: list[float | None] = field(default_factory=list)  # fraction of a core, per process
    loop_stalls: list[float | None] = field(default_factory=list)  # seconds, per process
    window_stalls: list[float | None] = field(default_factory=list)
    """Per process, the upper bound (seconds) of the histogram bucket of the largest stall during
    the measured window (``inf`` above the last bound; None if not reported)."""
    server_latency: tuple[float | None, float | None] = (None, None)
    """The upper bounds (seconds, ``inf`` above the last bound) of the buckets holding the p50
    and p99 of the servers' own time from a human action's arrival to its broadcast, all
    processes together, during the measured window (None: not reported)."""
    client_cpu: float = 0.0  # fraction of a core used by the benchmark's own clients
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the machine's load average at the end

    @property
    def seconds(self) -> float:
        return self.measured.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def human_actions_per_second(self) -> float:
        return self.measured.human_actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def offered(self) -> float | None:
        """Human actions per second offered with ``--rate`` (None: as fast as possible)."""
        return self.work.tables / self.work.rate if self.work.rate else None

    @property
    def offered_actions(self) -> float | None:
        """Actions per second (everyone's) offered with ``--pace`` (None without)."""
        return self.work.tables / self.work.pace if self.work.pace else None

    @property
    def kept_up(self) -> bool | None:
        """With ``--rate`` or ``--pace``: whether the server held the offered rate (see
        :data:`KEPT_UP_SHARE`)."""
        period = self.work.rate or self.work.pace
        if period is None:
            return None
        p99 = percentile(self.measured.latencies, 99)
        fast = p99 is not None and p99 < period
        if self.work.rate:  # the human actions against those offered
            achieved = self.human_actions_per_second
        else:  # everyone's actions against one per table every ``pace`` seconds
            achieved = self.actions_per_second
        return achieved >= KEPT_UP_SHARE * self.work.tables / period and fast

    def to_json(self) -> dict[str, Any]:
        lat = self.measured.latencies
        spec = self.measured.spectator_latencies
        return {
            "game": self.game,
            "database": self.database,
            "processes": self.processes,
            "workload": asdict(self.work),
            "seconds": self.seconds,
            "actions": self.actions,
            "actions_per_second": self.actions_per_second,
            "human_actions": self.measured.human_actions,
            "human_actions_per_second": self.human_actions_per_second,
            "offered_human_actions_per_second": self.offered,
            "offered_actions_per_second": self.offered_actions,
            "kept_up": self.kept_up,
            "latency_seconds": {f"p{p}": percentile(lat, p) for p in (50, 90, 99)}
            | {"max": max(lat) if lat else None, "count": len(lat)},
            "spectator_latency_seconds": {f"p{p}": percentile(spec, p) for p in (50, 99)}
            | {"count": len(spec), "other_process": self.processes > 1},
            "server_cpu_cores": self.server_cpu,
            "loop_stall_seconds": self.loop_stalls,
            "window_loop_stall_at_most_seconds": [
                None if s is None or math.isinf(s) else s for s in self.window_stalls
            ],
            "server_latency_at_most_seconds": {
                f"p{p}": None if b is None or math.isinf(b) else b
                for p, b in zip((50, 99), self.server_latency, strict=True)
            },
            "client_cpu_cores": self.client_cpu,
            "tables_finished": self.tables_finished,
            "tables_created": self.measured.tables_created,
            "errors": self.measured.errors,
            "load_average": list(self.load),
        }


def _client_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop for the clients when it is installed (as the servers' uvicorn uses
    it): the clients share the machine with the servers, and take less of it on uvloop."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def _run_in_own_loop(coro: Any) -> Any:
    """``asyncio.run`` on a fresh thread, so the benchmark works even when the caller already
    runs an event loop (a notebook, or a test process where Playwright's sync API has one)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            with asyncio.Runner(loop_factory=_client_loop_factory()) as runner:
                box["result"] = runner.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="bench-server-clients")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


class Bar:
    """The progress bar of a run: tables started, then the measured seconds."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.task: TaskID | None = None

    def begin(self, label: str, total: float) -> None:
        if self.progress is not None:
            if self.task is not None:
                self.progress.remove_task(self.task)
            self.task = self.progress.add_task(label, total=total)

    def update(self, done: float) -> None:
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, completed=done)


class _ClientCollector:
    """While measuring, the cyclic garbage collector of the clients' process leaves alone what
    setting the tables up made (``gc.freeze``: thousands of sockets, never garbage) and runs its
    young collections less often, as a server process's does (:data:`GC_THRESHOLDS`). With the
    defaults, collections walking those sockets took about two fifths of the clients' CPU at 1,000
    tables, on the cores the servers share. :meth:`restore` puts the caller's settings back."""

    def __init__(self) -> None:
        self.thresholds = gc.get_threshold()
        self.frozen = False

    def __enter__(self) -> _ClientCollector:
        self.quiet()
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def quiet(self) -> None:
        if gc.get_freeze_count() == 0:  # else the caller froze objects of its own: leave them be
            gc.collect()
            gc.freeze()
            self.frozen = True
        gc.set_threshold(*GC_THRESHOLDS)

    def restore(self) -> None:
        gc.set_threshold(*self.thresholds)
        if self.frozen:
            gc.unfreeze()
            self.frozen = False


@dataclass
class _Sample:
    """What the clients measured, and the counters read at the start and end of the window."""

    measured: Measured
    stored: tuple[tuple[int, int], tuple[int, int]]  # (actions, tables over) before and after
    cpu: tuple[list[float | None], list[float | None]]  # per server process, before and after
    stalls: list[float | None]  # per server process, the largest stall's bucket in the window
    server_latency: tuple[float | None, float | None]  # the buckets of the servers' own p50, p99
    client_cpu: float  # CPU seconds of this process during the window


async def _measure(servers: list[ServerProcess], work: Workload, counts: StoredCounts, bar: Bar) -> _Sample:
    """Set every table up, then measure for ``work.seconds``."""
    ids: set[str] = set()
    clients = Clients([s.base for s in servers], work, ids)
    bar.begin(f"{work.game}: starting {work.tables} tables", work.tables)
    runner = asyncio.create_task(clients.run(bar.update))
    started = asyncio.create_task(clients.all_started.wait())
    await asyncio.wait({runner, started}, return_when=asyncio.FIRST_COMPLETED)
    if runner.done():
        started.cancel()
        runner.result()  # raises what stopped the clients
        raise RuntimeError("the clients stopped before every table started")
    window = clients.window
    with _ClientCollector():
        cpu_before = [s.cpu_seconds() for s in servers]
        stalls_before = await asyncio.to_thread(lambda: [s.loop_stall_buckets() for s in servers])
        human_before = await asyncio.to_thread(lambda: [s.human_action_buckets() for s in servers])
        client_before = time.process_time()
        stored_before = await asyncio.to_thread(counts.count, sorted(ids))
        window.start = time.perf_counter()
        bar.begin(f"{work.game}: measuring", work.seconds)
        while (left := window.start + work.seconds - time.perf_counter()) > 0:
            await asyncio.sleep(min(0.25, left))
            bar.update(min(work.seconds, time.perf_counter() - window.start))
            if runner.done():
                runner.result()
        window.end = time.perf_counter()
        cpu_after = [s.cpu_seconds() for s in servers]
        client_after = time.process_time()
        stalls_after = await asyncio.to_thread(lambda: [s.loop_stall_buckets() for s in servers])
        human_after = await asyncio.to_thread(lambda: [s.human_action_buckets() for s in servers])
        stored_after = await asyncio.to_thread(counts.count, sorted(ids))
        clients.stop.set()
        await runner
    measured = clients.measured
    measured.seconds = window.end - window.start
    stalls = [largest_stall_between(a, b) for a, b in zip(stalls_before, stalls_after, strict=True)]
    before, after = _summed(human_before), _summed(human_after)
    return _Sample(
        measured,
        (stored_before, stored_after),
        (cpu_before, cpu_after),
        stalls,
        (bucket_quantile(before, after, 0.5), bucket_quantile(before, after, 0.99)),
        client_after - client_before,
    )


def _summed(readings: list[list[tuple[float, int]] | None]) -> list[tuple[float, int]] | None:
    """The processes' readings of one histogram added up, bucket by bucket; a process that
    reports none (it played no human action yet) adds nothing; None if the buckets differ or
    no process reports any."""
    present = [r for r in readings if r is not None]
    if not present or any([b for b, _ in r] != [b for b, _ in present[0]] for r in present):
        return None
    return [(bound, sum(r[i][1] for r in present)) for i, (bound, _) in enumerate(present[0])]


def _run_game(servers: list[ServerProcess], work: Workload, url: str, bar: Bar) -> RunResult:
    counts = StoredCounts(url)
    try:
        sample: _Sample = _run_in_own_loop(_measure(servers, work, counts, bar))
    finally:
        counts.close()
    measured = sample.measured
    (actions0, over0), (actions1, over1) = sample.stored
    cpu_before, cpu_after = sample.cpu
    client_cpu = sample.client_cpu
    seconds = measured.seconds
    server_cpu: list[float | None] = [
        None if a is None or b is None or seconds <= 0 else (b - a) / seconds
        for a, b in zip(cpu_before, cpu_after, strict=True)
    ]
    return RunResult(
        game=work.game,
        database="sqlite" if is_sqlite(url) else "postgresql",
        processes=len(servers),
        work=work,
        measured=measured,
        actions=actions1 - actions0,
        tables_finished=over1 - over0,
        server_cpu=server_cpu,
        loop_stalls=[s.loop_stall() for s in servers],
        window_stalls=sample.stalls,
        server_latency=sample.server_latency,
        client_cpu=client_cpu / seconds if seconds > 0 else 0.0,
        load=os.getloadavg(),
    )


def run_bench(
    game_ids: list[str],
    work: Workload,
    db: str = "sqlite",
    processes: int = 1,
    postgres_url: str | None = None,
    progress: Progress | None = None,
) -> list[RunResult]:
    """Start ``processes`` servers on the database ``db`` (``sqlite``, ``postgres`` or a URL:
    :func:`server_procs.scratch_database`), play ``work`` with each game of ``game_ids`` one
    after the other on them, stop them; one result per game.

    :raises ValueError: for SQLite with more than one process, or ``postgres`` without a server.
    :raises ServerFailed: if a server does not start.
    """
    if processes > 1 and (db == "sqlite" or is_sqlite(db)):
        raise ValueError(SQLITE_ONE_PROCESS.format(n=processes))
    bar = Bar(progress)
    with (
        tempfile.TemporaryDirectory(prefix="ziggurat-bench-") as tmp,
        scratch_database(db, Path(tmp), postgres_url) as url,
    ):
        servers = [
            ServerProcess(url, Path(tmp) / f"server-{i}.log", bot_delay=work.pace or 0.0)
            for i in range(processes)
        ]
        try:
            servers[0].start()  # the first one migrates the database; the others find it ready
            with ThreadPoolExecutor(max_workers=max(1, processes - 1)) as pool:
                list(pool.map(ServerProcess.start, servers[1:]))
            return [_run_game(servers, replace(work, game=g), url, bar) for g in game_ids]
        finally:
            for server in servers:
                server.stop()


def _buckets(bounds: Iterable[float | None], above: str) -> str:
    """Upper bounds of histogram buckets as figures: ``≤ 7.5 ms``; ``above`` for the bucket
    above every bound (``inf``); ``-`` where nothing was read."""
    out = []
    for bound in bounds:
        if bound is None:
            out.append("-")
        elif math.isinf(bound):
            out.append(above)
        else:
            out.append(f"≤ {bound * 1000:g} ms")
    return ", ".join(out)


def _stall_buckets(bounds: list[float | None]) -> str:
    """The largest stalls of a window as their histogram buckets: ``≤ 50 ms``, ``> 5000 ms``."""
    return _buckets(bounds, f"> {BUCKETS[-1] * 1000:g} ms")


def _latency_buckets(bounds: tuple[float | None, float | None]) -> str:
    """The buckets of the servers' own p50 and p99: ``≤ 10 ms, ≤ 50 ms``."""
    if any(b is not None and math.isinf(b) for b in bounds):
        from ziggurat.server.metrics import ACTION_BUCKETS  # prometheus-client: only here

        return _buckets(bounds, f"> {ACTION_BUCKETS[-1]:g} s")
    return _buckets(bounds, "")


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f} s" if value >= 1 else f"{value * 1000:.1f} ms"


def _each(values: list[float | None], fmt: str) -> str:
    return ", ".join("n/a" if v is None else format(v, fmt) for v in values)


def report(results: list[RunResult], console: Console | None = None) -> None:
    """Print the runs side by side as a Rich table, and the machine's load."""
    if console is None:
        console = board_console()
        if not console.is_terminal:  # piped: wide enough for every run's column
            console = Console(highlight=False, width=max(100, 36 + 16 * len(results)))
    table = Table(title="ziggurat bench-server", show_header=True)
    table.add_column("figure", no_wrap=True)
    for r in results:
        table.add_column(f"{r.game}\n{r.database} x{r.processes}", justify="right")

    def row(name: str, cell: Any) -> None:
        table.add_row(name, *(cell(r) for r in results))

    row("tables (at once)", lambda r: str(r.work.tables))
    row("players (human seats)", lambda r: f"{r.work.players} ({r.work.humans})")
    row(
        "human actions offered / s",
        lambda r: f"{r.offered:,.0f}" if r.offered is not None else "paced" if r.work.pace else "no limit",
    )
    if any(r.offered_actions is not None for r in results):
        row(
            "actions offered / s (everyone's)",
            lambda r: "-" if r.offered_actions is None else f"{r.offered_actions:,.0f}",
        )
    row("seconds measured", lambda r: f"{r.seconds:.2f}")
    row("actions / s", lambda r: f"{r.actions_per_second:,.0f}")
    row("human actions / s", lambda r: f"{r.human_actions_per_second:,.1f}")
    for p in (50, 90, 99):
        row(f"latency p{p}", lambda r, p=p: _ms(percentile(r.measured.latencies, p)))
    row("latency max", lambda r: _ms(max(r.measured.latencies, default=None)))
    for p in (50, 99):
        row(f"spectator latency p{p}", lambda r, p=p: _ms(percentile(r.measured.spectator_latencies, p)))
    row("spectator on", lambda r: "other process" if r.processes > 1 else "same process")
    row("server latency p50, p99 (arrival to broadcast)", lambda r: _latency_buckets(r.server_latency))
    row("server CPU (cores, per process)", lambda r: _each(r.server_cpu, ".2f"))
    row(
        "largest loop stall (per process)",
        lambda r: (
            _each([None if s is None else s * 1000 for s in r.loop_stalls], ".1f")
            + (" ms" if any(s is not None for s in r.loop_stalls) else "")
        ),
    )
    row("largest loop stall measuring (per process)", lambda r: _stall_buckets(r.window_stalls))
    row("tables finished / created", lambda r: f"{r.tables_finished} / {r.measured.tables_created}")
    row("client CPU (cores)", lambda r: f"{r.client_cpu:.2f}")
    row("errors", lambda r: str(r.measured.errors))
    if any(r.kept_up is not None for r in results):
        row("kept up", lambda r: "-" if r.kept_up is None else ("yes" if r.kept_up else "no"))
    console.print(table)
    load = results[-1].load if results else os.getloadavg()
    console.print(
        f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)"
    )


GAME_HELP = "Game to play: mesopotamia, mesopotamia-epochs, mare-nostrum, or all (one after the other)."


def bench_server(
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "mesopotamia",
    tables: Annotated[
        int, typer.Option(help="Tables played at the same time (a finished one is replaced).", min=1)
    ] = 100,
    seconds: Annotated[
        float, typer.Option(help="Seconds measured, once every table has started.", min=0.1)
    ] = 10.0,
    players: Annotated[
        int, typer.Option(help="Players per table (within the game's range).", min=2, max=5)
    ] = 3,
    humans: Annotated[
        int,
        typer.Option(
            help="Human seats per table, each played by a scripted WebSocket client (random legal actions); "
            "0: bots only.",
            min=0,
        ),
    ] = 1,
    bot: Annotated[
        str, typer.Option(help="Bot of the other seats: random measures the server, not the bots.")
    ] = "random",
    rate: Annotated[
        float | None,
        typer.Option(
            help="Seconds between two human actions of a table (e.g. 1: each table plays one action a second), "
            "instead of as fast as possible; the report says whether the server kept up.",
            min=0.001,
        ),
    ] = None,
    pace: Annotated[
        float | None,
        typer.Option(
            help="Seconds between two actions of a table, whoever plays them (e.g. 1: each table plays one "
            "action a second): the bots wait that long before each move (the servers' --bot-delay) and "
            "a scripted human acts that long after its decision came. Instead of --rate; the report says "
            "whether the server kept up.",
            min=0.001,
        ),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            help="Server processes sharing the database (PostgreSQL only above 1): tables and clients are "
            "spread over them, and each table's spectator watches from another process than its players.",
            min=1,
        ),
    ] = 1,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="sqlite (a temporary file), postgres (a throw-away database in the PostgreSQL server of "
            "--postgres-url or $ZIGGURAT_TEST_POSTGRES_URL, dropped at the end), or a database URL.",
        ),
    ] = "sqlite",
    postgres_url: Annotated[
        str | None,
        typer.Option(help="PostgreSQL server for --db postgres and --compare (an admin URL)."),
    ] = None,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Run the same workload on SQLite (1 process) and on PostgreSQL (--processes) and print them "
            "side by side.",
        ),
    ] = False,
    round_limit: Annotated[
        int,
        typer.Option(
            help="Rounds per game (Mesopotamia's round_limit, Mare Nostrum's max_rounds; Epochs plays its "
            "five epochs); 0: no limit.",
            min=0,
        ),
    ] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the clients' choices and of the tables.")] = 1,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the figures to this file (JSON).")
    ] = None,
) -> None:
    """Measure the server end to end: real `ziggurat serve` processes on one database, tables played
    by scripted WebSocket clients; prints actions per second, latencies (player, spectator and the
    servers' own), CPU per process, event-loop stalls and tables finished. Figures only: nothing is
    asserted on them."""
    known = games()
    chosen = known if game == "all" else [game]
    if game != "all" and game not in known:
        fail(f"unknown game {game!r}: choose one of {', '.join(known)} or all")
    for g in chosen:
        cls = game_class(g)
        if not cls.min_players <= players <= cls.max_players:
            fail(f"{g} is played by {cls.min_players} to {cls.max_players} players, not {players}")
    if humans > players:
        fail(f"--humans {humans} is more than the {players} players of a table")
    if rate is not None and pace is not None:
        fail("--rate paces the human actions only, --pace every action: give one of them")
    if compare and db not in ("sqlite", "postgres"):
        fail("--compare runs SQLite and PostgreSQL itself: leave --db out")
    if not compare and processes > 1 and (db == "sqlite" or is_sqlite(db)):
        fail(SQLITE_ONE_PROCESS.format(n=processes))
    work = Workload(
        players=players,
        humans=humans,
        bot=bot,
        tables=tables,
        seconds=seconds,
        rate=rate,
        pace=pace,
        round_limit=round_limit or None,
        seed=seed,
    )
    plan = [("sqlite", 1), ("postgres", processes)] if compare else [(db, processes)]
    results: list[RunResult] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeElapsedColumn(),
    )
    try:
        with Progress(*columns, console=progress_console(), transient=True) as progress:
            for kind, count in plan:
                results += run_bench(chosen, work, kind, count, postgres_url, progress)
    except (ValueError, ServerFailed) as exc:
        fail(str(exc))
    if compare:  # side by side: each game's SQLite run beside its PostgreSQL run
        results.sort(key=lambda r: chosen.index(r.game))
    report(results)
    if json_out is not None:
        json_out.write_text(json.dumps({"runs": [r.to_json() for r in results]}, indent=2) + "\n")
