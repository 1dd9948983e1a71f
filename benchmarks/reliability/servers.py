"""Shared helpers of the reliability harnesses: real server processes and what they stored.

- :class:`ServerGroup`: ``N`` ``ziggurat serve`` processes (127.0.0.1, a free port each, bots
  without delay) on one database, started together, each killed and restarted on its own port;
- :func:`running_servers`: a group on a throw-away database (a SQLite file, or a PostgreSQL
  database created in ``$ZIGGURAT_TEST_POSTGRES_URL`` and dropped after), stopped at the end;
- :func:`read_stored` and :func:`replay_stored`: the tables and actions a run left in the
  database, and whether each game replays from its stored actions.

The processes themselves are ``ziggurat.cli.server_procs.ServerProcess`` (``bench-server``
runs the same ones). Run a harness from the repository root, e.g.
``python benchmarks/reliability/crash.py --help``.
"""

from __future__ import annotations

import contextlib
import random
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ziggurat.cli.server_procs import (
    POSTGRES_ENV,
    ServerFailed,
    ServerProcess,
    free_port,
    healthy,
    is_sqlite,
    scratch_database,
)

__all__ = [
    "POSTGRES_ENV",
    "ServerFailed",
    "ServerGroup",
    "ServerProcess",
    "StoredTable",
    "free_port",
    "healthy",
    "is_sqlite",
    "read_stored",
    "replay_stored",
    "running_servers",
    "scratch_database",
]


class ServerGroup:
    """``count`` server processes sharing the database ``url``; logs go to ``folder``."""

    def __init__(self, url: str, count: int, folder: Path, env: dict[str, str] | None = None) -> None:
        if count > 1 and is_sqlite(url):
            raise ValueError(f"SQLite stays a single process: {count} processes need PostgreSQL")
        self.url = url
        self.servers = [ServerProcess(url, folder / f"server-{i}.log", env=env) for i in range(count)]
        self.down: set[int] = set()  # processes being restarted: clients go to the others

    def start(self) -> None:
        """Start every process; the first alone, since it migrates the database."""
        self.servers[0].start()
        with ThreadPoolExecutor(max_workers=max(1, len(self.servers) - 1)) as pool:
            list(pool.map(ServerProcess.start, self.servers[1:]))

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def bases(self) -> list[str]:
        """The addresses of the processes believed up (all of them while every one is down)."""
        up = [s.base for i, s in enumerate(self.servers) if i not in self.down]
        return up or [s.base for s in self.servers]

    def pick(self, rng: random.Random) -> str:
        """The address of a process believed up, chosen at random."""
        return rng.choice(self.bases())

    def failed_tables(self) -> list[tuple[str, str, str]]:
        """``(process address, table, reason)`` of each table a process could not resume, as
        its ``/healthz`` lists them."""
        import json
        import urllib.request

        out = []
        for server in self.servers:
            try:
                with urllib.request.urlopen(server.base + "/healthz", timeout=10) as res:
                    health = json.loads(res.read())
            except OSError:
                continue
            for entry in health.get("tables", {}).get("failed", []):
                out.append((server.base, entry["table"], entry["reason"]))
        return out

    def copy_logs(self, folder: Path) -> None:
        """Copy every process's log (each of its starts) into ``folder``."""
        import shutil

        folder.mkdir(parents=True, exist_ok=True)
        for server in self.servers:
            if server.log_path.exists():
                shutil.copy(server.log_path, folder / server.log_path.name)

    def kill_and_restart(self, index: int) -> float:
        """SIGKILL process ``index``, start it again on its port; seconds until it answered
        ``/healthz``. Blocking: run it in a thread from an event loop."""
        self.down.add(index)
        try:
            return self.servers[index].restart()
        finally:
            self.down.discard(index)


@contextlib.contextmanager
def running_servers(
    db: str = "sqlite", processes: int = 1, postgres_url: str | None = None, env: dict[str, str] | None = None
) -> Iterator[ServerGroup]:
    """``processes`` servers on a database for this run (``sqlite``, ``postgres`` or a URL, as
    ``server_procs.scratch_database``), started, and stopped at the end (a throw-away database
    is dropped)."""
    with (
        tempfile.TemporaryDirectory(prefix="ziggurat-reliability-") as tmp,
        scratch_database(db, Path(tmp), postgres_url) as url,
    ):
        group = ServerGroup(url, processes, Path(tmp), env)
        try:
            group.start()
            yield group
        finally:
            group.stop()


@dataclass
class StoredTable:
    """A table as the database holds it: its row and its actions (``ply -> text``)."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    result: list[float] | None
    actions: dict[int, str] = field(default_factory=dict)
    keeper: str | None = None  # the process that runs its bots, chance and clocks
    keeper_until: Any = None
    driven: bool = False  # it needs its keeper (a bot or chance to move)
    revision: int = 0


def read_stored(url: str, ids: list[str]) -> dict[str, StoredTable]:
    """The tables ``ids`` and their actions, read from the database at ``url``."""
    from sqlalchemy import select

    from ziggurat.server.db import ActionRow, TableRow, make_engine

    engine = make_engine(url)
    out: dict[str, StoredTable] = {}
    try:
        with engine.connect() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                columns = (TableRow.id, TableRow.game, TableRow.players, TableRow.options)
                kept = (TableRow.keeper, TableRow.keeper_until, TableRow.driven, TableRow.revision)
                query = select(*columns, TableRow.status, TableRow.result, *kept).where(
                    TableRow.id.in_(chunk)
                )
                for table_id, game, players, options, status, result, *keeping in conn.execute(query):
                    out[table_id] = StoredTable(table_id, game, players, dict(options), status, result)
                    out[table_id].keeper, out[table_id].keeper_until = keeping[0], keeping[1]
                    out[table_id].driven, out[table_id].revision = bool(keeping[2]), int(keeping[3] or 0)
                query = select(ActionRow.table_id, ActionRow.ply, ActionRow.text).where(
                    ActionRow.table_id.in_(chunk)
                )
                for table_id, ply, text in conn.execute(query):
                    out[table_id].actions[ply] = text
    finally:
        engine.dispose()
    return out


def to_move(table: StoredTable) -> int | None:
    """The seat to move after ``table``'s stored actions (-1: chance), None if over or if they
    do not replay."""
    from ziggurat.engine.errors import ZigguratError
    from ziggurat.engine.records import apply_recorded
    from ziggurat.engine.registry import game_class, load

    options = game_class(table.game).recorded_options(table.options)
    state = load(table.game, players=table.players, **options).new_initial_state()
    try:
        for ply in sorted(table.actions):
            apply_recorded(state, table.actions[ply])
    except ZigguratError:
        return None
    return None if state.is_terminal() else state.current_player()


def replay_stored(table: StoredTable) -> str | None:
    """Replay ``table``'s stored actions with the engine; None if they replay to the stored
    status and result, else what went wrong."""
    from ziggurat.engine.errors import ZigguratError
    from ziggurat.engine.records import apply_recorded
    from ziggurat.engine.registry import game_class, load

    plies = sorted(table.actions)
    if plies != list(range(1, len(plies) + 1)):
        return f"table {table.id}: stored plies are not 1 to {len(plies)}"
    options = game_class(table.game).recorded_options(table.options)
    state = load(table.game, players=table.players, **options).new_initial_state()
    for ply in plies:
        try:
            apply_recorded(state, table.actions[ply])
        except ZigguratError as exc:
            return f"table {table.id}: stored action {ply} ({table.actions[ply]!r}) refused: {exc}"
    if state.is_terminal() != (table.status == "over"):
        return f"table {table.id}: stored status {table.status}, replayed game over: {state.is_terminal()}"
    if table.status == "over" and table.result is not None:
        returns = state.returns()
        if any(abs(a - b) > 1e-9 for a, b in zip(returns, table.result, strict=True)):
            return f"table {table.id}: stored result {table.result}, replayed {returns}"
    return None
