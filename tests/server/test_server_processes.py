"""Several ``ziggurat serve`` processes on one database (docs/server.md, "Several processes").

Real processes, started through the CLI: on PostgreSQL two of them share a table (a move made
through one reaches the sockets of the other, so does the chat), two processes racing on the
same decision never both have it accepted, and a process that stops hands its tables to the
other. On SQLite a second process on the same file stops at once, saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import create_engine, text

import ziggurat
from live_server import free_port, kill, stop, wait_healthy
from ziggurat.engine.records import apply_recorded

CLI = "import sys; from ziggurat.cli.main import app; sys.argv[0] = 'ziggurat'; app()"
RACES = 1000
"""Decisions two processes race on (each process gets a different action of the same seat)."""


def run(coro: Coroutine[Any, Any, None], timeout: float) -> None:
    """Run ``coro`` in a thread of its own (a test before may have left an event loop running
    in this one: Playwright's does)."""
    failed: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(asyncio.wait_for(coro, timeout))
        except BaseException as exc:  # handed to the test
            failed.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, log_path: Path) -> None:
        self.proc, self.port, self.log_path = proc, port, log_path
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"content-type": "application/json"}
        if token:
            headers["X-Ziggurat-Token"] = token
        req = urllib.request.Request(self.base + path, json.dumps(body).encode(), headers, method="POST")
        with urllib.request.urlopen(req, timeout=30) as res:
            answer: dict[str, Any] = json.loads(res.read())
            return answer

    def get(self, path: str, token: str | None = None) -> Any:
        req = urllib.request.Request(self.base + path, headers={"X-Ziggurat-Token": token} if token else {})
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())


@contextmanager
def serving(db_url: str, tmp_path: Path, name: str) -> Iterator[Server]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "ZIGGURAT_DATABASE_URL"}
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", db_url, "--bot-delay", "0"]
    log_path = tmp_path / f"{name}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path
        )
        try:
            wait_healthy(proc, f"http://127.0.0.1:{port}", log_path)
            yield Server(proc, port, log_path)
            stop(proc)
        finally:
            kill(proc)
    assert "Traceback" not in log_path.read_text(), log_path.read_text()[-4000:]


def _table(server: Server, seats: str, game: str = "mesopotamia", seed: int = 1) -> dict[str, Any]:
    body = {
        "game": game,
        "players": len(seats),
        "seats": [{"kind": "human"} if s == "h" else {"kind": "bot", "bot": "random"} for s in seats],
        "seed": seed,
    }
    return server.post("/api/tables", body)


def _token(table: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        tok: str = table["spectator_token"]
        return tok
    tok = table["seats"][seat]["token"]
    return tok


async def _state(ws: Any, version: int | None = None) -> dict[str, Any]:
    """The next ``state`` message (with ``version`` at least, if given)."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "state" and (version is None or msg["version"] >= version):
            return msg


async def _until_pong(ws: Any) -> list[dict[str, Any]]:
    """The messages before the next ``pong``."""
    out = []
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "pong":
            return out
        out.append(msg)


def test_a_second_process_on_one_sqlite_file_stops_and_says_why(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    with serving(url, tmp_path, "first"):
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "ZIGGURAT_DATABASE_URL"}
        second = subprocess.run(
            [sys.executable, "-c", CLI, "serve", "--port", str(port), "--db", url],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
        )
    assert second.returncode != 0
    assert "SQLite serves one process" in second.stdout + second.stderr


def test_workers_need_postgresql(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    done = subprocess.run(
        [sys.executable, "-c", CLI, "serve", "--workers", "2", "--db", url],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2
    said = " ".join((done.stdout + done.stderr).replace("│", " ").split())  # Rich's error box
    assert "SQLite serves one process: several workers need PostgreSQL" in said


@pytest.fixture
def pg_url(db_url: str) -> str:
    return db_url


@pytest.mark.postgres_only
def test_a_move_through_one_process_reaches_the_sockets_of_the_other(pg_url: str, tmp_path: Path) -> None:
    with serving(pg_url, tmp_path, "a") as a, serving(pg_url, tmp_path, "b") as b:
        table = _table(a, "hh")
        tid = table["table"]

        async def play() -> None:
            async with (
                websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 0)}") as seat0,
                websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}") as seat1,
                websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, None)}") as watcher,
            ):
                first = await _state(seat0)
                await _state(seat1)
                await _state(watcher)
                rng = random.Random(3)
                assert first["seat"] == 0
                sockets = {0: seat0, 1: seat1}
                for _ in range(12):
                    states = {}
                    for seat, ws in sockets.items():
                        await ws.send(json.dumps({"type": "ping"}))
                        msgs = await _until_pong(ws)
                        got = [m for m in msgs if m.get("type") == "state"]
                        if got:
                            states[seat] = got[-1]
                    mover = next((s for s, m in states.items() if m["legal"]), None)
                    if mover is None:
                        continue
                    action = rng.choice(states[mover]["legal"])
                    await sockets[mover].send(json.dumps({"type": "action", "action": action}))
                    mine = await _state(sockets[mover], states[mover]["version"] + 1)
                    other = await _state(sockets[1 - mover], mine["version"])
                    watched = await _state(watcher, mine["version"])
                    assert other["version"] == watched["version"] == mine["version"]
                    assert watched["view"] == (await _fetch_view(b, tid, table))
                await seat1.send(json.dumps({"type": "chat", "text": "hello from b"}))
                while True:
                    msg = json.loads(await seat0.recv())
                    if msg.get("type") == "chat":
                        assert msg["text"] == "hello from b"
                        break

        run(play(), 300)


async def _fetch_view(server: Server, tid: str, table: dict[str, Any]) -> dict[str, Any]:
    answer = await asyncio.to_thread(server.get, f"/api/tables/{tid}", _token(table, None))
    view: dict[str, Any] = answer["view"]
    return view


@pytest.mark.postgres_only
@pytest.mark.slow
def test_two_processes_racing_on_one_decision_never_both_win(pg_url: str, tmp_path: Path) -> None:
    """Each race: the seat to move sends one action through each process at the same moment.
    An action is accepted (no ``error`` before the socket's ``pong``) or refused; the stored
    human actions of the race are exactly the accepted ones, never both a refusal and a row."""
    accepted_total = refused_total = races = 0
    with serving(pg_url, tmp_path, "a") as a, serving(pg_url, tmp_path, "b") as b:
        engine = create_engine(pg_url)

        def stored(tid: str) -> list[tuple[int, str, int]]:
            with engine.connect() as conn:
                rows = conn.execute(
                    text("SELECT ply, text, actor FROM actions WHERE table_id = :t ORDER BY ply"), {"t": tid}
                )
                return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]

        async def race_table(seed: int) -> tuple[int, int, int]:
            table = await asyncio.to_thread(_table, a, "hh", "mesopotamia", seed)
            tid = table["table"]
            rng = random.Random(seed)
            accepted = refused = count = 0
            async with (
                websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 0)}") as a0,
                websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 0)}") as b0,
                websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 1)}") as a1,
                websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}") as b1,
            ):
                pairs = {0: (a0, b0), 1: (a1, b1)}
                latest: dict[Any, dict[str, Any]] = {}
                while count < RACES // 4:
                    for ws in (a0, b0, a1, b1):
                        await ws.send(json.dumps({"type": "ping"}))
                        for m in await _until_pong(ws):
                            if m.get("type") == "state":
                                latest[ws] = m
                    if any(m["status"] == "over" for m in latest.values()):
                        break
                    mover = next((s for s, (x, y) in pairs.items() if latest[x]["legal"]), None)
                    if mover is None:
                        continue
                    x, y = pairs[mover]
                    if (
                        latest[x]["version"] != latest[y]["version"]
                        or latest[x]["legal"] != latest[y]["legal"]
                    ):
                        continue  # the other process has not heard of the last move yet
                    legal = latest[x]["legal"]
                    first, second = rng.choice(legal), rng.choice(legal)
                    before = await asyncio.to_thread(stored, tid)
                    await asyncio.gather(
                        x.send(json.dumps({"type": "action", "action": first})),
                        y.send(json.dumps({"type": "action", "action": second})),
                    )
                    await asyncio.gather(x.send('{"type":"ping"}'), y.send('{"type":"ping"}'))
                    outcome = {}
                    for ws, sent in ((x, first), (y, second)):
                        msgs = await _until_pong(ws)
                        errors = [m for m in msgs if m.get("type") == "error"]
                        outcome[ws] = (sent, not errors)
                        states = [m for m in msgs if m.get("type") == "state"]
                        if states:
                            latest[ws] = states[-1]
                    after = await asyncio.to_thread(stored, tid)
                    new_human = [t for p, t, actor in after[len(before) :] if actor >= 0]
                    wins = sorted(sent for sent, ok in outcome.values() if ok)
                    # a refused action is never stored; an accepted one always is
                    assert sorted(new_human) == wins, (new_human, outcome)
                    assert [p for p, _, _ in after] == list(range(1, len(after) + 1))
                    accepted += len(wins)
                    refused += 2 - len(wins)
                    count += 1
            record = await asyncio.to_thread(b.get, f"/api/tables/{tid}/record", _token(table, 0))
            del record
            return accepted, refused, count

        async def main() -> None:
            nonlocal accepted_total, refused_total, races
            seed = 0
            while races < RACES:
                seed += 1
                results = await asyncio.gather(*(race_table(seed * 10 + i) for i in range(4)))
                for acc, ref, cnt in results:
                    accepted_total += acc
                    refused_total += ref
                    races += cnt

        run(main(), 800)
        engine.dispose()
    assert races >= RACES
    assert accepted_total + refused_total == 2 * races
    assert refused_total > 0  # the races were real: the second action came too late at least once


@pytest.mark.postgres_only
def test_the_other_process_takes_over_the_tables_of_one_that_stopped(pg_url: str, tmp_path: Path) -> None:
    """Bots of a table kept by a process that stops go on playing in the other process."""
    with serving(pg_url, tmp_path, "b") as b:
        with serving(pg_url, tmp_path, "a") as a:
            table = _table(a, "bb", "mesopotamia", seed=5)
            tid = table["table"]
            a.get(f"/api/tables/{tid}", _token(table, None))
            kill(a.proc)  # no clean stop: its claim on the table runs out
        # the table is finished by the bots in b, which adopts it
        while True:
            answer = b.get(f"/api/tables/{tid}", _token(table, None))
            if answer["status"] == "over":
                break
            time.sleep(0.5)
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        texts = [
            r[0]
            for r in conn.execute(
                text("SELECT text FROM actions WHERE table_id = :t ORDER BY ply"), {"t": tid}
            )
        ]
    engine.dispose()
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    for action in texts:  # the stored game replays, one action per ply, to its end
        apply_recorded(state, action)
    assert state.is_terminal()


@pytest.mark.postgres_only
def test_workers_share_one_port_and_one_database(pg_url: str, tmp_path: Path) -> None:
    """``serve --workers 2``: two processes answer on one port; a table made through one is
    played through whichever answers next."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "ZIGGURAT_DATABASE_URL"}
    args = ["serve", "--port", str(port), "--db", pg_url, "--bot-delay", "0", "--workers", "2"]
    log_path = tmp_path / "workers.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path
        )
        try:
            wait_healthy(proc, f"http://127.0.0.1:{port}", log_path)
            server = Server(proc, port, log_path)
            table = _table(server, "hb", "mesopotamia-epochs", seed=4)
            tid = table["table"]

            async def play() -> None:
                for _ in range(3):  # new connections land on either worker
                    async with websockets.connect(f"{server.ws}/ws/{tid}?token={_token(table, 0)}") as ws:
                        state = await _state(ws)
                        while not state["legal"] and state["status"] == "playing":
                            state = await _state(ws, state["version"] + 1)
                        if state["status"] != "playing":
                            return
                        await ws.send(json.dumps({"type": "action", "action": state["legal"][0]}))
                        await _state(ws, state["version"] + 1)

            run(play(), 240)
            stop(proc)
        finally:
            kill(proc)
    out = log_path.read_text()
    assert "Workers: 2 processes share the port and the database" in out
    assert out.count("Started server process") == 2  # uvicorn names each worker process
    assert "Traceback" not in out, out[-4000:]


async def _presence(ws: Any, connected: list[bool]) -> None:
    """Read ``ws`` until a ``presence`` message says ``connected``."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == "presence" and msg["connected"] == connected:
            return


def _connected(server: Server, tid: str, table: dict[str, Any]) -> list[bool]:
    return [s["connected"] for s in server.get(f"/api/tables/{tid}", _token(table, None))["seats"]]


@pytest.mark.postgres_only
def test_a_seat_connected_to_one_process_shows_as_connected_in_the_other(pg_url: str, tmp_path: Path) -> None:
    """Presence crosses processes: a seat whose socket is on the other process is connected in
    both; when it leaves, or its process stops, the sockets of the first are told at once."""
    with serving(pg_url, tmp_path, "a") as a, serving(pg_url, tmp_path, "b") as b:
        table = _table(a, "hh")
        tid = table["table"]

        async def meet() -> None:
            async with websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 0)}") as seat0:
                await _state(seat0)
                async with (
                    websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}") as seat1,
                    websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, None)}") as watcher_b,
                ):
                    await _state(seat1)
                    await _state(watcher_b)
                    await _presence(seat0, [True, True])  # told by b
                    await _presence(watcher_b, [True, True])  # b asked a who sits there
                    assert await asyncio.to_thread(_connected, a, tid, table) == [True, True]
                    assert await asyncio.to_thread(_connected, b, tid, table) == [True, True]
                await _presence(seat0, [True, False])  # seat 1 closed its page, on b
                assert await asyncio.to_thread(_connected, a, tid, table) == [True, False]

                # seat 1 comes back on b, then b stops: a stops counting it at once
                seat1 = await websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}")
                await _state(seat1)
                await _presence(seat0, [True, True])
                await asyncio.to_thread(stop, b.proc)
                await _presence(seat0, [True, False])
                with contextlib.suppress(Exception):
                    await seat1.close()

        run(meet(), 120)


@pytest.mark.postgres_only
@pytest.mark.slow
def test_the_sockets_of_a_process_that_died_stop_counting(pg_url: str, tmp_path: Path) -> None:
    """A process killed with a seat's socket open says nothing; once its heartbeat is older
    than ``presence.GONE_AFTER``, the other process counts that seat as not connected."""
    with serving(pg_url, tmp_path, "a") as a, serving(pg_url, tmp_path, "b") as b:
        table = _table(a, "hh")
        tid = table["table"]

        async def die() -> None:
            async with websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 0)}") as seat0:
                await _state(seat0)
                seat1 = await websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}")
                await _state(seat1)
                await _presence(seat0, [True, True])
                kill(b.proc)
                await _presence(seat0, [True, False])  # after GONE_AFTER and a heartbeat
                assert await asyncio.to_thread(_connected, a, tid, table) == [True, False]

        run(die(), 120)


@pytest.mark.postgres_only
def test_players_arriving_on_two_processes_start_the_real_time_clock(pg_url: str, tmp_path: Path) -> None:
    """Each player of a real-time table opens their link on another process at the same
    moment: both arrivals are stored, and the seat to move's clock starts."""
    with serving(pg_url, tmp_path, "a") as a, serving(pg_url, tmp_path, "b") as b:
        body = {
            "game": "mesopotamia",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 1,
            "time_control": {"kind": "realtime", "budget": 600, "increment": 5},
        }
        table = a.post("/api/tables", body)
        tid = table["table"]

        async def arrive() -> None:
            async with (
                websockets.connect(f"{a.ws}/ws/{tid}?token={_token(table, 0)}") as seat0,
                websockets.connect(f"{b.ws}/ws/{tid}?token={_token(table, 1)}") as seat1,
            ):
                for ws in (seat0, seat1):
                    state = await _state(ws)
                    while not any(c and c["running"] for c in state["clocks"]):
                        state = await _state(ws)  # the clocks start once both have come
                    assert [c["arrived"] for c in state["clocks"]] == [True, True]

        run(arrive(), 120)
