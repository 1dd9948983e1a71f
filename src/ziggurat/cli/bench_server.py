"""``ziggurat bench-server``: throughput and latency of the game server, measured end to end.

Starts the server in-process (uvicorn in a thread, bound to 127.0.0.1 on a free port, bots
without delay, a temporary SQLite database unless ``--db`` is given), creates tables and plays
them, then prints actions per second and the latency a human client sees, from sending an
action to receiving the ``state`` that shows it (p50/p90/p99). Figures only; nothing asserts
on them. ``cli/main.py`` registers :func:`bench_server` as the ``bench-server`` command.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ziggurat.cli.serve import WS_MAX_SIZE


@dataclass
class BenchResult:
    """What one bench run measured."""

    tables: int
    seconds: float
    actions: int
    human_actions: int
    games_finished: int
    latencies: list[float] = field(default_factory=list)  # seconds, one per human action

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, p: float) -> float | None:
        """The ``p``-th percentile latency in seconds (None without human actions)."""
        if not self.latencies:
            return None
        if len(self.latencies) == 1:
            return self.latencies[0]
        cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
        return cuts[min(98, max(0, round(p) - 1))]


class ServerThread:
    """uvicorn serving ``app`` on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=WS_MAX_SIZE)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="ziggurat-bench-server", daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    @property
    def port(self) -> int:
        sockets = self.server.servers[0].sockets
        port: int = sockets[0].getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def run_bench(
    tables: int = 4,
    seconds: float = 10.0,
    humans: bool = True,
    bot: str = "random",
    players: int = 3,
    round_limit: int | None = 10,
    db: str | None = None,
    seed: int = 1,
) -> BenchResult:
    """Run the server, play for ``seconds`` on ``tables`` tables, stop the server; the figures.

    With ``humans``, each table has one scripted human seat (random legal actions, sent over a
    WebSocket with the ``websockets`` library) and bot seats; a finished table is replaced by a
    new one. Without, every seat is a bot and the server plays alone.
    """
    from ziggurat.server import create_app

    with tempfile.TemporaryDirectory(prefix="ziggurat-bench-") as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        app = create_app(url, bot_delay=0.0, static_dir=Path(tmp) / "no-client", creation_limit=None)
        with ServerThread(app) as server:
            manager = app.state.manager
            before = sum(t.version for t in list(manager.tables.values()))
            result = _run_in_own_loop(
                _drive(server.port, tables, seconds, humans, bot, players, round_limit, seed)
            )
            result.actions = sum(t.version for t in list(manager.tables.values())) - before
            result.games_finished = sum(1 for t in list(manager.tables.values()) if t.status == "over")
        return result


def _run_in_own_loop(coro: Any) -> Any:
    """``asyncio.run`` on a fresh thread, so the benchmark works even when the caller already
    runs an event loop (a notebook, or a test process where Playwright's sync API has one)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="bench-server-client")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


async def _drive(
    port: int,
    tables: int,
    seconds: float,
    humans: bool,
    bot: str,
    players: int,
    round_limit: int | None,
    seed: int,
) -> BenchResult:
    import httpx

    base = f"http://127.0.0.1:{port}"
    options = {} if round_limit is None else {"round_limit": round_limit}
    result = BenchResult(tables=tables, seconds=0.0, actions=0, human_actions=0, games_finished=0)
    start = time.perf_counter()
    deadline = start + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        if humans:
            await asyncio.gather(
                *(
                    _human_client(
                        http, port, deadline, bot, players, options, random.Random(f"{seed}/{i}"), result
                    )
                    for i in range(tables)
                )
            )
        else:
            await asyncio.gather(
                *(_bot_slot(http, deadline, bot, players, options, seed + i) for i in range(tables))
            )
    result.seconds = time.perf_counter() - start
    return result


async def _bot_slot(
    http: Any, deadline: float, bot: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Keep one all-bot table playing until the deadline (a finished one is replaced)."""
    seats = [{"kind": "bot", "bot": bot}] * players
    while time.perf_counter() < deadline:
        body = {"game": "mesopotamia", "players": players, "options": options, "seats": seats, "seed": seed}
        answer = (await http.post("/api/tables", json=body)).raise_for_status().json()
        headers = {"X-Ziggurat-Token": answer["spectator_token"]}
        seed += 1000
        while time.perf_counter() < deadline:
            await asyncio.sleep(min(0.05, max(0.0, deadline - time.perf_counter())))
            info = (await http.get(f"/api/tables/{answer['table']}", headers=headers)).json()
            if info["status"] == "over":
                break


async def _human_client(
    http: Any,
    port: int,
    deadline: float,
    bot: str,
    players: int,
    options: dict[str, Any],
    rng: random.Random,
    result: BenchResult,
) -> None:
    """One scripted human: plays random legal actions, table after table, until the deadline."""
    import websockets

    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    while time.perf_counter() < deadline:
        body = {
            "game": "mesopotamia",
            "players": players,
            "options": options,
            "seats": seats,
            "seed": rng.randrange(2**31),
        }
        answer = (await http.post("/api/tables", json=body)).raise_for_status().json()
        url = f"ws://127.0.0.1:{port}/ws/{answer['table']}?token={answer['seats'][0]['token']}"
        async with websockets.connect(url, max_size=None) as ws:
            sent: float | None = None
            while True:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=left)
                except TimeoutError:
                    return
                msg = json.loads(raw)
                if msg.get("type") != "state":
                    continue
                if sent is not None:  # the first state after an action is the one that shows it
                    result.latencies.append(time.perf_counter() - sent)
                    result.human_actions += 1
                    sent = None
                if msg["status"] == "over":
                    break
                if msg["legal"]:
                    action = msg["legal"][rng.randrange(len(msg["legal"]))]
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": action}))


def report(result: BenchResult, console: Console | None = None) -> None:
    """Print the figures as a Rich table."""
    console = console or Console()
    table = Table(title="ziggurat bench-server", show_header=True)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("tables", str(result.tables))
    table.add_row("seconds", f"{result.seconds:.2f}")
    table.add_row("actions applied", str(result.actions))
    table.add_row("actions / s", f"{result.actions_per_second:,.0f}")
    table.add_row("games finished", str(result.games_finished))
    table.add_row("human actions", str(result.human_actions))
    for p in (50, 90, 99):
        value = result.percentile(p)
        table.add_row(f"latency p{p}", "-" if value is None else f"{value * 1000:.1f} ms")
    if result.latencies:
        table.add_row("latency max", f"{max(result.latencies) * 1000:.1f} ms")
    console.print(table)


def bench_server(
    tables: Annotated[int, typer.Option(help="Tables played at the same time.", min=1)] = 4,
    seconds: Annotated[float, typer.Option(help="How long to play.", min=0.1)] = 10.0,
    humans: Annotated[
        bool,
        typer.Option(
            "--humans/--bots-only",
            help="One scripted human client per table over a WebSocket (latency), or bots only.",
        ),
    ] = True,
    bot: Annotated[str, typer.Option(help="Bot kind of the bot seats: random or heuristic.")] = "random",
    players: Annotated[int, typer.Option(help="Players per Mesopotamia table.", min=2, max=4)] = 3,
    round_limit: Annotated[
        int, typer.Option(help="Round limit of each Mesopotamia game (0: none).", min=0)
    ] = 10,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL (default: a temporary SQLite file).")
    ] = None,
) -> None:
    """Measure the server on Mesopotamia tables: actions per second and the latency a human client sees."""
    result = run_bench(tables, seconds, humans, bot, players, round_limit or None, db)
    report(result)
