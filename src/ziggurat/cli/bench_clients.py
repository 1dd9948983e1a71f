"""The clients of ``bench-server``: tables created over HTTP and played over WebSockets, all in
one asyncio loop (no thread per table), spread over the server processes.

Table ``i`` is created on process ``i mod N``, its human seats connect there, and one
spectator per table connects to the next process (``i + 1 mod N``), so that with several
processes what the spectator sees has crossed from one process to another. Once every table
is set up (its bots have played up to the first human decision), the human seats play random
legal actions from their ``legal``, as fast as the server answers or, with a rate, one action
per table every ``rate`` seconds (the tables' first actions spread over the first ``rate``
seconds), or, with a pace, each ``pace`` seconds after its decision came (the servers' bots
then wait as long before each move, so that every action of a table, a person's or a bot's,
comes ``pace`` seconds after the one before). A finished table is replaced by a new one,
which plays at once. The clients behave as browsers do: they answer the server's keep-alive
pings but send none of their own.

Latency is measured from sending an action to the first ``state`` whose ``version`` (the number
of stored actions) includes it: on the player's socket, and on the spectator's. The actions
applied and the tables finished are counted in the database, since bots and chance play inside
the servers where no client sees them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

SETUP_CONCURRENCY = 16
"""Tables created (and their sockets opened) at the same time while the benchmark sets up."""

ROUND_LIMIT_OPTION = {"mesopotamia": "round_limit", "mare-nostrum": "max_rounds"}
"""The option that ends each game after a number of rounds (Epochs has none: its games are
five epochs long)."""


def game_options(game: str, round_limit: int | None) -> dict[str, Any]:
    """The options of the benchmark's tables of ``game``."""
    name = ROUND_LIMIT_OPTION.get(game)
    return {} if name is None or round_limit is None else {name: round_limit}


@dataclass
class Workload:
    """What the clients play: ``tables`` tables of ``game`` at the same time, each with
    ``humans`` scripted human seats and ``bot`` bots in the other seats, for ``seconds``
    (after every table has started), as fast as possible, one human action per table every
    ``rate`` seconds, or every action of a table ``pace`` seconds after the one before."""

    game: str = "mesopotamia"
    players: int = 3
    humans: int = 1
    bot: str = "random"
    tables: int = 100
    seconds: float = 10.0
    rate: float | None = None
    pace: float | None = None
    round_limit: int | None = 10
    seed: int = 1

    def seats(self) -> list[dict[str, Any]]:
        humans = [{"kind": "human"}] * self.humans
        return humans + [{"kind": "bot", "bot": self.bot}] * (self.players - self.humans)


@dataclass
class Measured:
    """What the clients saw during the measured window."""

    seconds: float = 0.0
    human_actions: int = 0
    latencies: list[float] = field(default_factory=list)  # player's socket, seconds
    spectator_latencies: list[float] = field(default_factory=list)
    errors: int = 0  # refusals and dropped sockets
    tables_created: int = 0


class Window:
    """The measured window: opens once every table has started, closes ``seconds`` later."""

    def __init__(self) -> None:
        self.start: float | None = None
        self.end: float | None = None

    def holds(self, moment: float) -> bool:
        return self.start is not None and moment >= self.start and (self.end is None or moment <= self.end)


@dataclass
class _Table:
    """One table being played: its id, tokens and the actions sent and not yet seen by the spectator."""

    id: str
    seat_tokens: list[str]
    spectator_token: str
    sent: dict[int, float] = field(default_factory=dict)  # version that shows it -> send time
    offset: float = 0.0  # with a rate: when its first action goes, after every table has started
    next_send: float | None = None


class Clients:
    """The benchmark's clients against the servers at ``bases`` (``http://127.0.0.1:port``)."""

    def __init__(self, bases: list[str], work: Workload, table_ids: set[str]) -> None:
        self.bases = bases
        self.work = work
        self.table_ids = table_ids  # every table created, for counting in the database
        self.window = Window()
        self.measured = Measured()
        self.started = 0
        self.all_started = asyncio.Event()  # the humans play their first actions once it is set
        self.began = 0.0  # when it was set
        self.stop = asyncio.Event()
        self._http: list[Any] = []

    async def run(self, on_started: Callable[[int], None] | None = None) -> None:
        """Play until :attr:`stop` is set: set up every table, then keep them playing."""
        import httpx

        limits = httpx.Limits(
            max_connections=SETUP_CONCURRENCY * 2, max_keepalive_connections=SETUP_CONCURRENCY
        )
        self._http = [httpx.AsyncClient(base_url=b, timeout=120, limits=limits) for b in self.bases]
        setup = asyncio.Semaphore(SETUP_CONCURRENCY)
        slots = [asyncio.create_task(self._slot(i, setup, on_started)) for i in range(self.work.tables)]
        stopped = asyncio.create_task(self.stop.wait())
        try:
            # a slot ends only when it cannot set its table up: that stops the benchmark
            await asyncio.wait([stopped, *slots], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [stopped, *slots]:
                task.cancel()
            await asyncio.gather(stopped, *slots, return_exceptions=True)
            for client in self._http:
                await client.aclose()
        for task in slots:
            failure = None if task.cancelled() else task.exception()
            if failure is not None:
                raise failure

    async def _slot(
        self, index: int, setup: asyncio.Semaphore, on_started: Callable[[int], None] | None
    ) -> None:
        """Keep one table playing: create it, play it to the end, create the next."""
        rng = random.Random(f"{self.work.seed}/{index}")
        home = index % len(self.bases)
        watch = (index + 1) % len(self.bases)
        first = True
        while not self.stop.is_set():
            try:
                if first:
                    async with setup:
                        table = await self._create(home, rng)
                        sockets = await self._open(table, home, watch)
                    first = False
                    self.started += 1
                    if on_started is not None:
                        on_started(self.started)
                    if self.started == self.work.tables:
                        self.began = time.perf_counter()
                        self.all_started.set()
                else:
                    table = await self._create(home, rng)
                    sockets = await self._open(table, home, watch)
            except Exception as exc:  # a refused or dropped connection, a creation refused
                self.measured.errors += 1
                if first and self.measured.errors > self.work.tables:
                    raise RuntimeError(f"the benchmark's tables cannot be set up: {exc}") from exc
                await asyncio.sleep(0.5)
                continue
            await self._play(table, sockets, rng)

    async def _create(self, home: int, rng: random.Random) -> _Table:
        body = {
            "game": self.work.game,
            "players": self.work.players,
            "options": game_options(self.work.game, self.work.round_limit),
            "seats": self.work.seats(),
            "seed": rng.randrange(2**31),
        }
        answer = await self._http[home].post("/api/tables", json=body)
        if answer.status_code != 201:
            raise RuntimeError(f"POST /api/tables answered {answer.status_code}: {answer.text[:300]}")
        created = answer.json()
        self.table_ids.add(created["table"])
        self.measured.tables_created += 1
        tokens = [s["token"] for s in created["seats"] if s["kind"] == "human"]
        spread = self.work.rate or self.work.pace
        offset = rng.uniform(0, spread) if spread else 0.0
        return _Table(created["table"], tokens, created["spectator_token"], offset=offset)

    async def _open(self, table: _Table, home: int, watch: int) -> list[Any]:
        def url(process: int, token: str) -> str:
            ws = self.bases[process].replace("http://", "ws://", 1)
            return f"{ws}/ws/{table.id}?token={token}"

        sockets = []
        try:
            for token in table.seat_tokens:
                sockets.append(await _connect(url(home, token)))
            sockets.append(await _connect(url(watch, table.spectator_token)))
        except BaseException:
            for ws in sockets:
                await ws.close()
            raise
        return sockets

    async def _play(self, table: _Table, sockets: list[Any], rng: random.Random) -> None:
        """Play ``table`` to its end with its human sockets; its spectator watches."""
        *humans, spectator = sockets
        watcher = asyncio.create_task(self._spectate(table, spectator))
        try:
            played = await asyncio.gather(
                *(self._human(table, ws, rng) for ws in humans), return_exceptions=True
            )
            self.measured.errors += sum(1 for p in played if isinstance(p, BaseException))
            if not humans:
                await watcher
            else:  # the spectator may still be one state behind: let it see the last one
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(watcher), timeout=5)
        except Exception:  # a socket closed under the client: count it, go on with a new table
            self.measured.errors += 1
        finally:
            watcher.cancel()
            with contextlib.suppress(BaseException):
                await watcher
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def _human(self, table: _Table, ws: Any, rng: random.Random) -> None:
        """A scripted human: a random legal action whenever it has some, until the game is over."""
        rate = self.work.rate
        pace = self.work.pace
        pending: int | None = None  # the version that will show the action sent
        sent_at = 0.0
        legal: list[str] = []
        version = -1
        came = 0.0  # when the state of this version came
        while True:
            raw = await ws.recv()
            now = time.perf_counter()
            msg = orjson.loads(raw)
            kind = msg.get("type")
            if kind == "error":  # refused: nothing changed; choose again from the same state
                self.measured.errors += 1
                if pending is not None:
                    table.sent.pop(pending, None)
                pending = None
                await asyncio.sleep(0.05)
            elif kind == "state":
                if msg["version"] != version:
                    came = now
                version = msg["version"]
                legal = msg["legal"]
                if pending is not None and version >= pending:
                    if self.window.holds(now):
                        self.measured.latencies.append(now - sent_at)
                        self.measured.human_actions += 1
                    pending = None
                if msg["status"] == "over":
                    return
            else:
                continue
            if pending is not None or not legal:
                continue
            await self.all_started.wait()
            if rate:
                if table.next_send is None:
                    table.next_send = self.began + table.offset
                wait = table.next_send - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                table.next_send = max(time.perf_counter(), table.next_send) + rate
            elif pace:
                wait = max(came + pace, self.began + table.offset) - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
            action = legal[rng.randrange(len(legal))]
            pending = version + 1
            sent_at = time.perf_counter()
            table.sent[pending] = sent_at
            await ws.send(json.dumps({"type": "action", "action": action}))

    async def _spectate(self, table: _Table, ws: Any) -> None:
        """The table's spectator: when each human action reaches it, until the game is over."""
        while True:
            msg = orjson.loads(await ws.recv())
            if msg.get("type") != "state":
                continue
            now = time.perf_counter()
            version = msg["version"]
            for needed in [v for v in table.sent if v <= version]:
                sent_at = table.sent.pop(needed)
                if self.window.holds(sent_at) and self.window.holds(now):
                    self.measured.spectator_latencies.append(now - sent_at)
            if msg["status"] == "over":
                return


async def _connect(url: str) -> Any:
    """A client socket as a browser opens one: no message size limit, no keep-alive pings of
    its own (a browser sends none; the server's pings are answered)."""
    import websockets

    return await websockets.connect(url, max_size=None, open_timeout=120, ping_interval=None)


class StoredCounts:
    """Counts in the database of the tables the clients created: actions stored, tables over."""

    CHUNK = 500

    def __init__(self, url: str) -> None:
        from ziggurat.server.db import make_engine

        self.engine = make_engine(url)

    def count(self, ids: list[str]) -> tuple[int, int]:
        """``(actions, finished tables)`` of the tables ``ids``."""
        from sqlalchemy import func, select

        from ziggurat.server.db import ActionRow, TableRow

        actions = finished = 0
        with self.engine.connect() as conn:
            for i in range(0, len(ids), self.CHUNK):
                chunk = ids[i : i + self.CHUNK]
                actions += conn.execute(
                    select(func.count()).select_from(ActionRow).where(ActionRow.table_id.in_(chunk))
                ).scalar_one()
                finished += conn.execute(
                    select(func.count())
                    .select_from(TableRow)
                    .where(TableRow.id.in_(chunk), TableRow.status == "over")
                ).scalar_one()
        return actions, finished

    def close(self) -> None:
        self.engine.dispose()
