"""Benchmark: the database write of one applied action (``Store.add_action``), per database.

``--tables`` tables (default 100) are created in a fresh database, then ``--plies`` actions
(default 20) are stored at each of them in turn, as a server stores them: each checked against
the table's revision, with the table still needing its keeper; on PostgreSQL each with its
notification, a keeper claim with the first one, and a snapshot every ``SNAPSHOT_EVERY`` plies.
On PostgreSQL the server's write is sent from the event loop, so the first row is the loop's
writes awaited one at a time. The CPU time (``time.process_time``: this process, so the
database server's work is not in it) and the wall time per write are printed for each database
side by side.

On PostgreSQL a second row writes the same actions as separate statements in one transaction
(BEGIN, the table's UPDATE, the action's INSERT, the snapshot's, ``pg_notify``, COMMIT: the way
SQLite's path writes), so both ways are compared in one run on the same machine load.

Figures only: nothing asserts on them::

    .venv/bin/python benchmarks/store_write.py [--tables 100] [--plies 20]
        [--db sqlite --db postgres]   # default: sqlite, and postgres when a server is named
        [--postgres-url postgresql+psycopg://...]   # default: $ZIGGURAT_TEST_POSTGRES_URL
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ziggurat.cli.server_procs import scratch_database
from ziggurat.server import db
from ziggurat.server.store import (
    SNAPSHOT_EVERY,
    Commit,
    SeatSpec,
    Store,
    StoredAction,
    StoredTable,
)

POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"
POSITION = {"game": "mesopotamia", "ply": 0, "board": [[0] * 12 for _ in range(12)]}
"""A stand-in for a snapshot's position (its size, not its meaning, is what the write sees)."""

Write = Callable[[Store, str, StoredAction, Commit], bool]


_LOOP = asyncio.new_event_loop()
"""The event loop of the server's own writes (on PostgreSQL they are sent from the loop)."""


def store_write(store: Store, table_id: str, action: StoredAction, commit: Commit) -> bool:
    """The server's own write, awaited on an event loop as the server does."""
    return _LOOP.run_until_complete(store.add_action(table_id, action, "playing", None, None, commit))


def transaction_write(store: Store, table_id: str, action: StoredAction, commit: Commit) -> bool:
    """The same write as separate statements in one transaction (SQLite's path)."""
    params: dict[str, Any] = {"table": table_id, "driven": commit.driven}
    if commit.revision is not None:
        params["seen"], params["revision"] = commit.revision, commit.revision + 1
    if commit.keeper is not None:
        params["keeper"], params["keeper_until"] = commit.keeper, commit.keeper_until
    return store._write_in_transaction(table_id, action, datetime.now(UTC), params, commit, False)


def measure(url: str, tables: int, plies: int, write: Write) -> tuple[float, float]:
    """Microseconds of CPU and of wall time per write of ``write`` on a fresh database ``url``."""
    engine = db.make_engine(url)
    db.upgrade(engine)
    store = Store(engine)
    try:
        ids = [f"bench{i}" for i in range(tables)]
        for table_id in ids:
            store.create_table(
                StoredTable(
                    id=table_id,
                    game="mesopotamia",
                    players=3,
                    options={},
                    seed=1,
                    status="playing",
                    result=None,
                    rematch_id=None,
                    created=datetime.now(UTC),
                    seats=[
                        SeatSpec(0, "human", None),
                        SeatSpec(1, "bot", "random"),
                        SeatSpec(2, "bot", "random"),
                    ],
                )
            )
        until = datetime.now(UTC) + timedelta(minutes=10)
        cpu, wall = time.process_time(), time.perf_counter()
        for ply in range(1, plies + 1):
            for table_id in ids:
                commit = Commit(revision=ply - 1, driven=True)
                if store.postgres:
                    commit.notify = f'{{"table":"{table_id}","kind":"action","revision":{ply},"text":"pass"}}'
                    if ply == 1:
                        commit.keeper, commit.keeper_until = "bench", until
                if ply % SNAPSHOT_EVERY == 0:
                    commit.snapshot = POSITION
                write(store, table_id, StoredAction(ply, "pass", 0, False), commit)
        writes = tables * plies
        return (
            1e6 * (time.process_time() - cpu) / writes,
            1e6 * (time.perf_counter() - wall) / writes,
        )
    finally:
        _LOOP.run_until_complete(store.close_loop_writers())
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--db", action="append", choices=("sqlite", "postgres"), help="repeatable")
    parser.add_argument("--postgres-url", default=os.environ.get(POSTGRES_ENV))
    args = parser.parse_args()
    kinds = args.db or (["sqlite", "postgres"] if args.postgres_url else ["sqlite"])
    rows: list[tuple[str, str, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="ziggurat-store-write-") as tmp:
        for kind in kinds:
            ways: list[tuple[str, Write]] = [("add_action", store_write)]
            if kind == "postgres":
                ways.append(("one transaction", transaction_write))
            for name, write in ways:
                with scratch_database(kind, Path(tmp), args.postgres_url) as url:
                    cpu, wall = measure(url, args.tables, args.plies, write)
                rows.append((kind, name, cpu, wall))
    print(f"{args.tables} tables x {args.plies} plies = {args.tables * args.plies} writes per row")
    print(f"{'database':<10} {'write':<16} {'CPU us/write':>13} {'wall us/write':>14}")
    for kind, name, cpu, wall in rows:
        print(f"{kind:<10} {name:<16} {cpu:>13.0f} {wall:>14.0f}")
    print("load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
