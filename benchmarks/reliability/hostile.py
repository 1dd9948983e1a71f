"""Reliability harness: hostile input against a real server (docs/server.md, "Reliability
harness").

Starts ``ziggurat serve`` on 127.0.0.1 (a free port, a temporary SQLite database or
``--database-url``, ``--bot-delay 0``, its log captured), or attacks the server at ``--url``
(then ``--database-url`` names its database, read for the state check, and ``--server-log`` its
log, if at hand). It makes four tables of human seats (to play on, another, one for chat floods,
and a public table waiting for players), notes every stored table's actions, seats and status,
then sends ``--messages`` hostile WebSocket frames and HTTP requests (hostile_ws.py,
hostile_http.py) and schemathesis' generated requests from ``/openapi.json``. No legitimate move
is made during the run.

Checks (exit status 1 if one fails): no HTTP 5xx, no WebSocket close 1011, no ``Traceback`` or
``ERROR`` line in the server's log; no stored table changed; no action accepted with a wrong
token; and afterwards a new client still creates a table and plays a move.

    python benchmarks/reliability/hostile.py --messages 100000
    python benchmarks/reliability/hostile.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/scratch
    python benchmarks/reliability/hostile.py --url http://127.0.0.1:8000 --database-url sqlite:///path/to/ziggurat.db
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the harness's sibling modules

import httpx  # noqa: E402
from hostile_core import Fixture, Table, Tally  # noqa: E402
from hostile_http import HttpAttack, run_schemathesis  # noqa: E402
from hostile_ws import Attack  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

import ziggurat  # noqa: E402

LOG_FAULT = re.compile(r"Traceback|^ERROR|\bERROR:")
"""Log lines that mean the server failed on something (uvicorn writes ``ERROR:``, the logging
module's default format ``ERROR:name:``)."""
WS_SHARE = 0.8
"""Share of ``--messages`` sent over WebSocket (the rest are hand-made HTTP requests)."""


@dataclass
class Options:
    messages: int = 100_000
    examples: int = 20
    url: str | None = None
    database_url: str | None = None
    server_log: Path | None = None
    workers: int = 8
    seed: int = 1
    quiet: bool = False


@dataclass
class Outcome:
    """What a run found: the tally, the state check, the log check and the final liveness check."""

    tally: Tally
    tables_checked: int = 0
    tables_changed: list[str] = field(default_factory=list)
    tables_created: int = 0
    log_faults: list[str] | None = None  # None: no log to read
    alive: bool = False
    alive_detail: str = ""
    seconds: float = 0.0
    harness_cpu: float = 0.0
    server_cpu: float | None = None  # None: a server the harness did not start

    def checks(self) -> list[tuple[str, int | str, bool]]:
        """(what, value, passed) per check, in the order printed."""
        t = self.tally
        log_count: int | str = "not read" if self.log_faults is None else len(self.log_faults)
        return [
            ("server errors: HTTP 5xx", t.faults["http_5xx"], t.faults["http_5xx"] == 0),
            (
                "server errors: WebSocket close 1011",
                t.faults["ws_close_1011"],
                t.faults["ws_close_1011"] == 0,
            ),
            ("server errors: log lines (Traceback, ERROR)", log_count, not self.log_faults),
            ("state changes (stored tables changed)", len(self.tables_changed), not self.tables_changed),
            (
                "state changes (a state answered a refused frame)",
                t.faults["state_changed"],
                t.faults["state_changed"] == 0,
            ),
            (
                "actions accepted with a wrong token",
                t.faults["accepted_wrong_token"],
                t.faults["accepted_wrong_token"] == 0,
            ),
            (
                "protocol faults (socket closed or stuck, wrong answer)",
                sum(
                    t.faults[k]
                    for k in (
                        "ws_unexpected_close",
                        "ws_no_answer",
                        "ws_unexpected_answer",
                        "ws_no_first_state",
                        "ws_wrong_token_answered",
                        "ws_connect_failed",
                        "http_no_answer",
                    )
                ),
                not any(
                    t.faults[k]
                    for k in (
                        "ws_unexpected_close",
                        "ws_no_answer",
                        "ws_unexpected_answer",
                        "ws_no_first_state",
                        "ws_wrong_token_answered",
                        "ws_connect_failed",
                        "http_no_answer",
                    )
                ),
            ),
            (
                "OpenAPI: undocumented status codes",
                t.faults["schema_status_code"],
                t.faults["schema_status_code"] == 0,
            ),
            (
                "OpenAPI: answers off their declared schema",
                t.faults["schema_response"],
                t.faults["schema_response"] == 0,
            ),
            ("server answers normally afterwards", "yes" if self.alive else "no", self.alive),
        ]

    @property
    def ok(self) -> bool:
        return all(passed for _, _, passed in self.checks())


# --- the server -------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def started_server(database_url: str | None, log_path: Path) -> Iterator[tuple[str, str]]:
    """``ziggurat serve`` on a free port of 127.0.0.1 with ``--bot-delay 0``, its output in
    ``log_path``; yields its base URL and database URL, and stops it (SIGTERM) afterwards."""
    port = free_port()
    db = database_url or f"sqlite:///{log_path.parent / 'hostile.db'}"
    command = [
        sys.executable,
        "-m",
        "ziggurat.cli.main",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        "0",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log_path.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(proc, base, log_path)
        yield base, db
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_healthy(proc: subprocess.Popen[bytes], base: str, log_path: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the server exited at start ({proc.returncode}):\n{log_path.read_text()[-3000:]}"
            )
        try:
            if httpx.get(base + "/healthz", timeout=2).json().get("status") == "ok":
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server at {base} did not answer /healthz in 120 s")


# --- the tables under attack -------------------------------------------------------------------
def create_table(client: httpx.Client, body: dict[str, Any]) -> Table:
    """A new table (waiting out the creation limit if the address is at it)."""
    for _ in range(10):
        res = client.post("/api/tables", json=body)
        if res.status_code == 429:
            time.sleep(float(res.headers.get("Retry-After", "5")))
            continue
        res.raise_for_status()
        data = res.json()
        tokens = {s["seat"]: s["token"] for s in data["seats"] if s.get("token")}
        return Table(data["table"], data["game"], len(data["seats"]), tokens, data["spectator_token"])
    raise RuntimeError("the server kept answering 429 to a table creation")


async def first_state(ws_base: str, table: Table, token: str) -> dict[str, Any]:
    async with connect(f"{ws_base}/ws/{table.id}?token={token}", open_timeout=60) as ws:
        state: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
        return state


async def find_mover(ws_base: str, table: Table) -> None:
    """Note the seat to move and its legal actions (the seat whose first ``state`` lists some)."""
    for seat, token in table.seat_tokens.items():
        state = await first_state(ws_base, table, token)
        table.version = int(state.get("version", 0))
        if state.get("legal"):
            table.mover, table.legal = seat, list(state["legal"])
            return


def make_fixture(base: str, ws_base: str) -> Fixture:
    with httpx.Client(base_url=base, timeout=60) as client:
        play = create_table(client, {"game": "mesopotamia", "players": 2, "seed": 11})
        other = create_table(client, {"game": "mesopotamia-epochs", "players": 3, "seed": 12})
        chat = create_table(client, {"game": "mesopotamia", "players": 2, "seed": 13})
        lobby = create_table(
            client,
            {
                "game": "mesopotamia",
                "players": 3,
                "public": True,
                "host_name": "Harness host",
                "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}],
            },
        )
    fixture = Fixture(play, other, chat, lobby)
    for table in (play, other):
        asyncio.run(find_mover(ws_base, table))
    return fixture


def never_legal_for(table: Table) -> Callable[[str], bool]:
    """``text -> True`` when ``text`` is surely none of the mover's legal actions: neither one
    of them nor, read by the game's notation, the same as one."""
    game = ziggurat.load(table.game, table.players)
    legal = set(table.legal)
    if not legal:  # nobody may move (the chat and lobby tables): no text is legal
        return lambda text: True

    def never_legal(text: str) -> bool:
        if text in legal or text.strip() in legal:
            return False
        try:
            return game.parse_action(text) not in legal
        except Exception:  # the notation refuses it: it is no action at all
            return True

    return never_legal


# --- the state check -------------------------------------------------------------------------
def snapshot(database_url: str) -> dict[str, Any]:
    """Every stored table's status, seats and actions (what no hostile message may change)."""
    from sqlalchemy import select

    from ziggurat.server.db import ActionRow, SeatRow, TableRow, make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            tables = {
                r.id: {
                    "status": r.status,
                    "public": r.public,
                    "host_seat": r.host_seat,
                    "rematch": r.rematch_id,
                    "seats": [],
                    "actions": [],
                }
                for r in conn.execute(
                    select(
                        TableRow.id, TableRow.status, TableRow.public, TableRow.host_seat, TableRow.rematch_id
                    )
                )
            }
            for r in conn.execute(
                select(
                    SeatRow.table_id, SeatRow.seat, SeatRow.kind, SeatRow.bot, SeatRow.user_id, SeatRow.name
                ).order_by(SeatRow.table_id, SeatRow.seat)
            ):
                tables[r.table_id]["seats"].append([r.seat, r.kind, r.bot, r.user_id, r.name])
            for r in conn.execute(
                select(
                    ActionRow.table_id, ActionRow.ply, ActionRow.text, ActionRow.actor, ActionRow.barrier
                ).order_by(ActionRow.table_id, ActionRow.ply)
            ):
                tables[r.table_id]["actions"].append([r.ply, r.text, r.actor, bool(r.barrier)])
    finally:
        engine.dispose()
    return tables


# --- the run ---------------------------------------------------------------------------------
async def attack(base: str, fixture: Fixture, tally: Tally, options: Options) -> None:
    ws_base = "ws" + base[len("http") :]
    ws_budget = int(options.messages * WS_SHARE)
    ws = Attack(
        ws_base,
        fixture,
        tally,
        options.seed,
        {t.id: never_legal_for(t) for t in fixture.tables()},
    )
    http = HttpAttack(base, fixture, tally, options.seed)
    await asyncio.gather(
        ws.run(ws_budget, options.workers),
        http.run(options.messages - ws_budget, max(1, options.workers // 2)),
    )


async def still_alive(base: str) -> str:
    """A legitimate client creates a table and plays a move; '' if it did, else what failed."""
    ws_base = "ws" + base[len("http") :]
    with httpx.Client(base_url=base, timeout=60) as client:
        table = create_table(client, {"game": "mesopotamia", "players": 2})
    await find_mover(ws_base, table)
    if table.mover is None:
        return "no seat of the new table has a legal action"
    async with connect(
        f"{ws_base}/ws/{table.id}?token={table.seat_tokens[table.mover]}", open_timeout=60
    ) as ws:
        state = json.loads(await asyncio.wait_for(ws.recv(), 60))
        await ws.send(json.dumps({"type": "action", "action": state["legal"][0]}))
        while True:
            answer = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if answer.get("type") == "state" and answer.get("version", 0) > state.get("version", 0):
                return ""
            if answer.get("type") == "error":
                return f"the move {state['legal'][0]!r} was refused: {answer.get('message')}"


def run(options: Options) -> Outcome:
    """One run of the harness (see the module); prints progress unless ``options.quiet``."""
    say = (lambda _: None) if options.quiet else (lambda text: print(text, file=sys.stderr, flush=True))
    with tempfile.TemporaryDirectory(prefix="ziggurat-hostile-") as tmp:
        log_path = Path(tmp) / "server.log"
        if options.url is None:
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            with started_server(options.database_url, log_path) as (base, db):
                say(f"server {base}, database {db}, log {log_path}")
                outcome = _run_against(base, db, options, say)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the server has stopped: its CPU is counted
            outcome.server_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
            log_text = log_path.read_text("utf-8", "replace")  # with what it logged while stopping
        else:
            base, db = options.url.rstrip("/"), options.database_url
            outcome = _run_against(base, db, options, say)
            log_text = options.server_log.read_text("utf-8", "replace") if options.server_log else None
    if log_text is not None:
        outcome.log_faults = [line for line in log_text.splitlines() if LOG_FAULT.search(line)]
    return outcome


def _run_against(base: str, db: str | None, options: Options, say: Callable[[str], None]) -> Outcome:
    tally = Tally()
    outcome = Outcome(tally)
    started, cpu = time.monotonic(), time.process_time()
    fixture = make_fixture(base, "ws" + base[len("http") :])
    say(
        f"tables: play {fixture.play.id} (seat {fixture.play.mover} to move), other {fixture.other.id}, chat {fixture.chat.id}, lobby {fixture.lobby.id}"
    )
    before = snapshot(db) if db else None
    say(f"sending {options.messages} hostile messages ...")
    clock = time.monotonic()
    asyncio.run(attack(base, fixture, tally, options))
    say(f"  sent in {time.monotonic() - clock:.0f} s")
    if options.examples > 0:
        say(f"schemathesis, {options.examples} examples per operation and mode ...")
        clock = time.monotonic()
        run_schemathesis(base, tally, options.examples, options.seed, lambda text: None)
        say(f"  sent in {time.monotonic() - clock:.0f} s")
    if before is not None and db:
        after = snapshot(db)
        outcome.tables_checked = len(before)
        outcome.tables_changed = sorted(t for t in before if after.get(t) != before[t])
        outcome.tables_created = len(set(after) - set(before))
    try:
        outcome.alive_detail = asyncio.run(still_alive(base))
        outcome.alive = outcome.alive_detail == ""
    except Exception as exc:  # any failure of a plain client is what this check reports
        outcome.alive_detail = repr(exc)
    outcome.seconds = time.monotonic() - started
    outcome.harness_cpu = time.process_time() - cpu
    return outcome


def report(outcome: Outcome) -> str:
    t = outcome.tally
    lines = [f"{'messages by kind':<52} {'sent':>9}"]
    for kind, n in sorted(t.sent.items()):
        lines.append(f"  {kind:<50} {n:>9,}")
    lines.append(f"  {'total':<50} {t.total:>9,}")
    lines.append("")
    lines.append(f"{'check':<52} {'count':>9}  result")
    for what, value, passed in outcome.checks():
        shown = f"{value:,}" if isinstance(value, int) else value
        lines.append(f"  {what:<50} {shown:>9}  {'ok' if passed else 'FAIL'}")
    lines.append("")
    lines.append(
        f"stored tables checked: {outcome.tables_checked}; tables created by generated requests: {outcome.tables_created}"
    )
    lines.append(f"chat messages the flood limit let through: {t.chat_stored}")
    lines.append("HTTP statuses: " + ", ".join(f"{code}: {n:,}" for code, n in sorted(t.statuses.items())))
    lines.append(
        "WebSocket close codes: " + ", ".join(f"{code}: {n:,}" for code, n in sorted(t.close_codes.items()))
    )
    server_cpu = "" if outcome.server_cpu is None else f", server {outcome.server_cpu:.0f} s"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines.append(
        f"time: {outcome.seconds:.0f} s; CPU time: harness {outcome.harness_cpu:.0f} s{server_cpu}; load average now {load}"
    )
    if not outcome.alive:
        lines.append(f"after the run: {outcome.alive_detail}")
    for kind, examples in sorted(t.examples.items()):
        lines.append(f"{kind} ({t.faults[kind]}):")
        lines.extend(f"  {e}" for e in examples)
    if outcome.tables_changed:
        lines.append("tables changed: " + ", ".join(outcome.tables_changed[:20]))
    if outcome.log_faults:
        lines.append("server log:")
        lines.extend(f"  {line[:200]}" for line in outcome.log_faults[:20])
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Send hostile input to a Ziggurat server and check that it neither fails nor changes any table.",
        epilog="Exit status 1 when a check fails. docs/server.md, 'Reliability harness', explains each count.",
    )
    parser.add_argument(
        "--messages",
        type=int,
        default=100_000,
        help="hostile WebSocket frames, connection attempts and HTTP requests to send (default 100000; schemathesis' requests come on top)",
    )
    parser.add_argument(
        "--examples",
        type=int,
        default=20,
        help="schemathesis examples per operation and mode (schema-conforming, schema-violating); 0: no schemathesis run (default 20)",
    )
    parser.add_argument(
        "--url", help="attack the server at this URL instead of starting one (http://host:port)"
    )
    parser.add_argument(
        "--database-url",
        help="the database: of the started server (default: a temporary SQLite file), or, with --url, the one that server uses (read for the state check; without it the check is skipped)",
    )
    parser.add_argument(
        "--server-log", type=Path, help="with --url: that server's log, read for Traceback and ERROR lines"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=8,
        help="concurrent WebSocket sessions (HTTP clients: half as many; default 8)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the hostile messages (default 1)")
    parser.add_argument("--quiet", action="store_true", help="print only the report")
    args = parser.parse_args(argv)
    options = Options(
        args.messages,
        args.examples,
        args.url,
        args.database_url,
        args.server_log,
        args.workers,
        args.seed,
        args.quiet,
    )
    outcome = run(options)
    print(report(outcome))
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
