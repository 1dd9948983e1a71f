"""Crash harness: SIGKILL server processes under load, again and again, and lose nothing acknowledged.

Starts real ``ziggurat serve`` processes (SQLite: one; PostgreSQL: ``--processes``, 2 by
default), and keeps ``--tables`` tables with scripted human seats (random legal actions over a
WebSocket, as fast as the server answers) and ``--bot-tables`` tables of bots only playing.
A human client remembers every *acknowledged* action: one sent while its seat was to move at
version ``v`` (so stored as ply ``v + 1``) once it received a ``state`` whose version includes
it, on the same socket or after reconnecting. Meanwhile a killer SIGKILLs a random server
process at random moments (``--kills`` times, ``--gap-min`` to ``--gap-max`` seconds apart) and
restarts it on the same port, timing how long it takes to answer ``/healthz``; clients
reconnect to any live process and go on. A finished table is replaced by a new one until the
last kill (``--max-seconds`` or Ctrl-C end the killing early); then every table plays to its end.

At the end, with the servers stopped, the database is read: every acknowledged action must be
stored at its ply with its text (0 lost), every table must be over (the all-bot ones too: a
restarted process resumes them), and every game must replay from its stored actions to its
stored result. Prints kills, actions acknowledged, lost, tables finished / total, games
replayed and the restart times; exits 1 on any loss, unfinished table or game that does not
replay.

    python benchmarks/reliability/crash.py --kills 100                 # SQLite, one process
    python benchmarks/reliability/crash.py --db postgres --kills 100   # PostgreSQL, two processes
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servers import ServerGroup, read_stored, replay_stored, running_servers, to_move  # noqa: E402

GAMES = ("mesopotamia", "mesopotamia-epochs", "mare-nostrum")
ROUND_LIMIT_OPTION = {"mesopotamia": "round_limit", "mare-nostrum": "max_rounds"}
RECV_TIMEOUT = 60.0
"""A socket silent this long is dropped and opened again (a table must move within it)."""


@dataclass
class Tally:
    """What the clients and the killer counted."""

    acked: dict[tuple[str, int], str] = field(default_factory=dict)  # (table, ply) -> action text
    contradictions: list[str] = field(default_factory=list)  # a ply acknowledged with two texts
    tables: dict[str, str] = field(default_factory=dict)  # table id -> "human" or "bot"
    restarts: list[float] = field(default_factory=list)  # seconds to /healthz after each kill
    kills: int = 0
    reconnects: int = 0
    refusals: int = 0
    seen: dict[str, dict[str, Any]] = field(default_factory=dict)  # table -> its human client's last look


class Crash:
    """The run: clients, bot tables and the killer, against ``group``."""

    def __init__(self, group: ServerGroup, args: argparse.Namespace) -> None:
        self.group = group
        self.args = args
        self.games = GAMES if args.game == "all" else (args.game,)
        self.tally = Tally()
        self.no_new = asyncio.Event()  # set after the last kill: play the current tables out
        self.http: dict[str, Any] = {}

    def _client(self, base: str) -> Any:
        import httpx

        if base not in self.http:
            self.http[base] = httpx.AsyncClient(base_url=base, timeout=30)
        return self.http[base]

    async def run(self) -> None:
        rng = random.Random(self.args.seed)
        slots = [
            asyncio.create_task(self._human_slot(i, random.Random(rng.random())))
            for i in range(self.args.tables)
        ] + [
            asyncio.create_task(self._bot_slot(i, random.Random(rng.random())))
            for i in range(self.args.bot_tables)
        ]
        try:
            await self._killer(random.Random(rng.random()))
            self.no_new.set()
            done, pending = await asyncio.wait(slots, timeout=self.args.finish_timeout)
            for task in pending:
                task.cancel()
            for task in done:
                task.result()
        finally:
            for client in self.http.values():
                await client.aclose()

    async def _killer(self, rng: random.Random) -> None:
        enough = asyncio.Event()  # Ctrl-C: no more kills; the tables play out and are checked
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signal.SIGINT, enough.set)
        try:
            await self._kill(rng, enough)
        finally:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(signal.SIGINT)  # a second Ctrl-C stops the harness

    async def _kill(self, rng: random.Random, enough: asyncio.Event) -> None:
        while not self.tally.tables:  # under load: not before the first table exists
            await asyncio.sleep(0.05)
        began = time.monotonic()
        for _ in range(self.args.kills):
            if enough.is_set() or time.monotonic() - began > self.args.max_seconds:
                print(f"no more kills after {self.tally.kills}: the tables play to their end")
                break
            await asyncio.sleep(rng.uniform(self.args.gap_min, self.args.gap_max))
            index = rng.randrange(len(self.group.servers))
            seconds = await asyncio.to_thread(self.group.kill_and_restart, index)
            self.tally.kills += 1
            self.tally.restarts.append(seconds)
            if self.args.verbose:
                print(
                    f"kill {self.tally.kills}: process {index} answered /healthz {seconds:.2f} s after restarting"
                )

    def _body(self, index: int, rng: random.Random, humans: int) -> dict[str, Any]:
        game = self.games[index % len(self.games)]
        option = ROUND_LIMIT_OPTION.get(game)
        seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": self.args.bot}] * (
            self.args.players - humans
        )
        return {
            "game": game,
            "players": self.args.players,
            "options": {option: self.args.round_limit} if option and self.args.round_limit else {},
            "seats": seats,
            "seed": rng.randrange(2**31),
        }

    async def _create(self, body: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """Create a table on a live process, trying again while processes are down. A creation
        whose answer a kill lost leaves a table nobody knows; it is not counted."""
        while True:
            try:
                answer = await self._client(self.group.pick(rng)).post("/api/tables", json=body)
                if answer.status_code == 201:
                    created: dict[str, Any] = answer.json()
                    return created
                self.tally.refusals += 1
            except OSError:
                pass
            except Exception as exc:  # httpx's transport errors
                if not _transport_error(exc):
                    raise
            self.tally.reconnects += 1
            await asyncio.sleep(0.1)

    async def _human_slot(self, index: int, rng: random.Random) -> None:
        while True:
            created = await self._create(self._body(index, rng, self.args.humans), rng)
            table = created["table"]
            self.tally.tables[table] = "human"
            tokens = [s["token"] for s in created["seats"] if s["kind"] == "human"]
            await asyncio.gather(*(self._play_seat(table, token, rng) for token in tokens))
            if self.no_new.is_set():
                return

    async def _play_seat(self, table: str, token: str, rng: random.Random) -> None:
        """Play one human seat to the end of the game, reconnecting to any live process."""
        import websockets

        pending: tuple[int, str] | None = None  # (ply it will be stored at, text)
        while True:
            version, legal = 0, []  # what the last state of this socket said
            fresh = True  # no state received yet on this socket
            url = self.group.pick(rng).replace("http://", "ws://", 1) + f"/ws/{table}?token={token}"
            look = self.tally.seen[table] = {"url": url.split("/ws/")[0], "since": time.monotonic()}
            try:
                async with websockets.connect(url, max_size=None, open_timeout=30, close_timeout=2) as ws:
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                        look.update(since=time.monotonic(), last=msg.get("type"))
                        if msg.get("type") == "error":  # refused: nothing changed; choose again
                            self.tally.refusals += 1
                            pending = None
                            await asyncio.sleep(0.05)
                        elif msg.get("type") == "state":
                            version, legal = msg["version"], msg["legal"]
                            look.update(version=version, legal=len(legal), pending=pending)
                            if pending is not None and version >= pending[0]:
                                self._acknowledged(table, *pending)
                                pending = None
                            elif pending is not None and fresh:
                                pending = None  # sent on a dropped socket and not stored: choose again
                            fresh = False
                            if msg["status"] == "over":
                                return
                        else:
                            continue
                        if pending is None and legal:
                            text = rng.choice(legal)
                            pending = (version + 1, text)
                            await ws.send(json.dumps({"type": "action", "action": text}))
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                self.tally.reconnects += 1
                await asyncio.sleep(rng.uniform(0.1, 0.3))

    def _acknowledged(self, table: str, ply: int, text: str) -> None:
        known = self.tally.acked.setdefault((table, ply), text)
        if known != text:
            self.tally.contradictions.append(
                f"table {table} ply {ply}: acknowledged {known!r}, then {text!r}"
            )

    async def _bot_slot(self, index: int, rng: random.Random) -> None:
        """Keep one all-bot table playing; nobody connects: only the servers play it."""
        while True:
            created = await self._create(self._body(index, rng, 0), rng)
            table = created["table"]
            self.tally.tables[table] = "bot"
            headers = {"X-Ziggurat-Token": created["spectator_token"]}
            while True:
                await asyncio.sleep(0.3)
                try:
                    answer = await self._client(self.group.pick(rng)).get(
                        f"/api/tables/{table}", headers=headers
                    )
                except Exception as exc:
                    if not _transport_error(exc):
                        raise
                    continue
                if answer.status_code == 200 and answer.json()["status"] == "over":
                    break
            if self.no_new.is_set():
                return


def _transport_error(exc: BaseException) -> bool:
    import httpx

    return isinstance(exc, httpx.TransportError | OSError)


@dataclass
class Verdict:
    """What the database holds after the run."""

    acknowledged: int
    lost: list[str]
    tables: int
    finished: int
    unfinished: list[str]
    replay_failures: list[str]
    kills: int
    restarts: list[float]
    reconnects: int

    @property
    def ok(self) -> bool:
        return not self.lost and not self.unfinished and not self.replay_failures

    def to_json(self) -> dict[str, Any]:
        return {
            "kills": self.kills,
            "acknowledged": self.acknowledged,
            "lost": len(self.lost),
            "lost_actions": self.lost[:50],
            "tables": self.tables,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "replay_failures": self.replay_failures,
            "restart_seconds": self.restarts,
            "reconnects": self.reconnects,
            "ok": self.ok,
            "load_average": list(os.getloadavg()),
        }


def verify(url: str, tally: Tally) -> Verdict:
    stored = read_stored(url, sorted(tally.tables))
    lost = list(tally.contradictions)
    for (table, ply), text in sorted(tally.acked.items()):
        found = stored[table].actions.get(ply) if table in stored else None
        if found != text:
            lost.append(f"table {table} ply {ply}: acknowledged {text!r}, stored {found!r}")
    unfinished = [
        f"{t} ({kind} seats, {len(stored[t].actions) if t in stored else 0} actions stored)"
        + (_why_unfinished(stored[t], tally.seen.get(t)) if t in stored else "")
        for t, kind in tally.tables.items()
        if t not in stored or stored[t].status != "over"
    ]
    failures = [why for t in stored.values() if (why := replay_stored(t)) is not None]
    return Verdict(
        acknowledged=len(tally.acked),
        lost=lost,
        tables=len(tally.tables),
        finished=len(tally.tables) - len(unfinished),
        unfinished=unfinished,
        replay_failures=failures,
        kills=tally.kills,
        restarts=tally.restarts,
        reconnects=tally.reconnects,
    )


def _why_unfinished(table: Any, look: dict[str, Any] | None) -> str:
    """Where an unfinished table stands: who is to move, its keeper, and what its human
    client last saw (to tell a server that stopped driving it from a client that stopped)."""
    who = to_move(table)
    mover = "chance" if who == -1 else f"seat {who}"
    out = f"; to move: {mover}, keeper {table.keeper} until {table.keeper_until}, driven {table.driven}"
    out += f", revision {table.revision}"
    if look is not None:
        quiet = time.monotonic() - look["since"]
        out += (
            f"; its client on {look['url']}: version {look.get('version')}, {look.get('legal')} legal,"
            f" pending {look.get('pending')}, last {look.get('last')} {quiet:.0f} s ago"
        )
    return out


def print_verdict(v: Verdict) -> None:
    print(f"kills: {v.kills}")
    print(f"actions acknowledged: {v.acknowledged}")
    print(f"lost: {len(v.lost)}")
    for line in v.lost[:20]:
        print(f"  {line}")
    print(f"tables finished: {v.finished} / {v.tables}")
    for table in v.unfinished[:20]:
        print(f"  not finished: {table}")
    print(f"games replayed from their stored actions: {v.tables - len(v.replay_failures)} / {v.tables}")
    for line in v.replay_failures[:20]:
        print(f"  {line}")
    if v.restarts:
        r = v.restarts
        print(
            f"restart to /healthz: min {min(r):.2f} s, median {statistics.median(r):.2f} s, max {max(r):.2f} s"
        )
    print(f"reconnections: {v.reconnects}")
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="crash.py",
        description="SIGKILL server processes at random moments under load, restart them, and check that no "
        "acknowledged action is lost, every table finishes and every game replays.",
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a temporary file; one process), postgres (a throw-away database in the PostgreSQL "
        "server of --postgres-url or $ZIGGURAT_TEST_POSTGRES_URL), or a database URL",
    )
    parser.add_argument(
        "--postgres-url", default=None, help="PostgreSQL server (admin URL) for --db postgres"
    )
    parser.add_argument(
        "--processes", type=int, default=None, help="server processes (default: 1 on SQLite, 2 on PostgreSQL)"
    )
    parser.add_argument(
        "--kills", type=int, default=100, help="SIGKILLs, each followed by a restart (default 100)"
    )
    parser.add_argument(
        "--gap-min", type=float, default=0.1, help="least seconds between a restart and the next kill"
    )
    parser.add_argument(
        "--gap-max", type=float, default=1.0, help="most seconds between a restart and the next kill"
    )
    parser.add_argument(
        "--tables", type=int, default=8, help="tables with human seats played at once (default 8)"
    )
    parser.add_argument(
        "--bot-tables", type=int, default=4, help="tables of bots only played at once (default 4)"
    )
    parser.add_argument(
        "--game", default="all", choices=[*GAMES, "all"], help="game of the tables (all: in turn)"
    )
    parser.add_argument("--players", type=int, default=3, help="players per table (default 3)")
    parser.add_argument("--humans", type=int, default=1, help="human seats of a human table (default 1)")
    parser.add_argument("--bot", default="random", help="bot of the bot seats (default random)")
    parser.add_argument(
        "--round-limit",
        type=int,
        default=4,
        help="rounds per game: Mesopotamia's round_limit, Mare Nostrum's max_rounds (0: none; default 4)",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=float("inf"),
        help="stop killing after this many seconds, even short of --kills (Ctrl-C does the same)",
    )
    parser.add_argument(
        "--finish-timeout",
        type=float,
        default=600.0,
        help="seconds the tables have to finish after the last kill",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients, the killer and the tables")
    parser.add_argument("--json", type=Path, default=None, help="also write the verdict to this file (JSON)")
    parser.add_argument("--verbose", action="store_true", help="print each kill and restart")
    parser.add_argument("--logs", type=Path, default=None, help="copy the servers' logs into this folder")
    args = parser.parse_args(argv)
    if args.processes is None:
        args.processes = 1 if args.db == "sqlite" or args.db.startswith("sqlite") else 2
    if args.processes > 1 and (args.db == "sqlite" or args.db.startswith("sqlite")):
        parser.error(f"SQLite stays a single process: --processes {args.processes} needs PostgreSQL")
    if not 0 <= args.humans <= args.players or args.tables < 0 or args.bot_tables < 0 or args.kills < 0:
        parser.error("--humans must be 0 to --players; --tables, --bot-tables and --kills at least 0")
    if not 0 <= args.gap_min <= args.gap_max:
        parser.error("--gap-min must be 0 to --gap-max")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    began = time.monotonic()
    try:
        with running_servers(args.db, args.processes, args.postgres_url) as group:
            crash = Crash(group, args)
            try:
                asyncio.run(crash.run())
                failed = group.failed_tables()
            finally:
                group.stop()  # before reading: every process has written what it will write
                if args.logs is not None:
                    group.copy_logs(args.logs)
            verdict = verify(group.url, crash.tally)
    except ValueError as exc:
        print(f"crash.py: error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.processes} process(es), {args.db.split(':')[0]}, {time.monotonic() - began:.0f} s")
    print_verdict(verdict)
    for base, table, reason in failed:
        print(f"  {base} could not resume table {table}: {reason}")
    if args.json is not None:
        args.json.write_text(json.dumps(verdict.to_json(), indent=2) + "\n")
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
