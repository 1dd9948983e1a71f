"""Benchmark: how long the server's event loop stalls while tables of bots play.

For each game, ``--tables`` tables whose every seat is a bot of ``--level`` play with no bot
delay in one server process (its table manager, storage and bot pool, as ``ziggurat serve``
runs them, without HTTP), each watched by a spectator connection that is sent every ``state``
message. A :class:`ziggurat.server.loopwatch.LoopWatch` measures the loop's stalls for
``--seconds`` seconds (or until every game is over). Printed per game: actions played, the
largest stall, stalls over 20 ms, the 99th percentile's bucket, and the largest CPU time the
loop's own thread spent between two wake-ups of the watch (its own work, where a stall much
longer was the loop waiting: for the interpreter lock held by another thread, or for a
processor on a loaded machine). ``--default-gc`` keeps Python's collector settings (the
server tunes them: ``loopwatch.tune_gc``). ``--bot-workers 0`` decides in threads, as the server
did before its bot pool; ``--profile`` prints where the loop's thread spent its time. Figures only: they
depend on the machine and on its load; nothing is checked.

    PYTHONPATH=src .venv/bin/python benchmarks/loop_stalls.py [--tables 20] [--level hard]
        [--seconds 60] [--games mesopotamia,...] [--bot-workers N] [--profile] [--default-gc]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import pstats
import tempfile
import time
from pathlib import Path

from ziggurat.server.db import make_engine, upgrade
from ziggurat.server.live import Connection
from ziggurat.server.loopwatch import LoopWatch, tune_gc
from ziggurat.server.manager import TableManager
from ziggurat.server.store import SeatSpec, Store

PLAYERS = {"mesopotamia": 4, "mesopotamia-epochs": 4, "mare-nostrum": 4}


async def _drain(conn: Connection) -> None:
    while await conn.queue.get() is not None:
        pass


async def measure(game: str, args: argparse.Namespace, db: Path) -> dict[str, float]:
    engine = make_engine(f"sqlite:///{db}")
    await asyncio.to_thread(upgrade, engine)
    store = Store(engine)
    workers = {} if args.bot_workers is None else {"bot_workers": args.bot_workers}
    manager = TableManager(store, 0.0, **workers)
    watch = LoopWatch()
    players = PLAYERS[game]
    seats = [SeatSpec(i, "bot", args.level) for i in range(players)]
    tables = []
    drains = []
    for i in range(args.tables):
        created = await manager.create(game, players, {}, seats, seed=1000 + i)
        conn = Connection(None)
        await created.table.attach(conn)
        tables.append(created.table)
        drains.append(asyncio.create_task(_drain(conn)))
    watch.start()
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()  # this thread only: the loop's
    start_versions = sum(t.version for t in tables)
    end = time.monotonic() + args.seconds
    while time.monotonic() < end and any(t.status != "over" for t in tables):
        await asyncio.sleep(0.25)
    actions = sum(t.version for t in tables) - start_versions
    if profile is not None:
        profile.disable()
    await watch.stop()
    await manager.close()
    for task in drains:
        task.cancel()
    await asyncio.to_thread(store.close)
    if profile is not None:
        print(f"--- {game}: the loop thread's time")
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(12)
        stats.sort_stats("cumulative").print_stats("server/(live|gamekit|botpool|store)", 25)
    p99 = next(bound for bound, seen in watch.histogram() if seen >= 0.99 * watch.samples)
    return {
        "actions": actions,
        "max_stall": watch.max_stall,
        "stalls": watch.stalls,
        "p99": p99,
        "max_busy": watch.max_busy,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--games", default=",".join(PLAYERS))
    parser.add_argument("--bot-workers", type=int, default=None, help="0: bots decide in threads")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--default-gc", action="store_true", help="keep Python's collector settings (the server tunes them)"
    )
    args = parser.parse_args()
    if not args.default_gc:
        tune_gc()  # as ziggurat serve does once its app is started
    print(f"load average {os.getloadavg()[0]:.2f}; {args.tables} tables of {args.level} bots; "
          f"bot workers {'default' if args.bot_workers is None else args.bot_workers}; "
          f"collector thresholds {gc.get_threshold()}")  # fmt: skip
    print(f"{'game':20} {'actions':>8} {'max stall':>10} {'>20 ms':>7} {'p99 <=':>7} {'max busy':>9}")
    for game in args.games.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            row = asyncio.run(measure(game, args, Path(tmp) / "bench.db"))
        print(
            f"{game:20} {row['actions']:8.0f} {row['max_stall'] * 1000:8.1f}ms {row['stalls']:7.0f} "
            f"{row['p99'] * 1000:5.0f}ms {row['max_busy'] * 1000:7.1f}ms"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
