"""Benchmark: how fast a server resumes its tables, and whether finished tables stay in memory.

1. **Resume.** ``--tables`` unfinished tables (default 1,000: the three games in turn, human
   seats, each stopped somewhere between ply 40 and 300 of a seeded random game) are written to a
   fresh database the way the server writes them (one row per action, a snapshot every
   ``SNAPSHOT_EVERY`` plies). Then a table manager starts on it, as ``ziggurat serve`` does, and
   the time until every table is live (loaded, its state current, ready for the next action)
   is printed, wall and CPU, with the time of a first socket's full log for a few tables.
2. **Memory.** ``--finished`` finished tables (default 10,000; short games: Mesopotamia to
   3 rounds, Mare Nostrum to 2, Epochs whole) are each loaded as a visitor would load them
   (one in a hundred also has its replay built), and the server's idle eviction runs as its
   heartbeat would. The process's resident memory is printed every tenth of the way: it must
   stay flat.

Figures only: nothing asserts on them::

    .venv/bin/python benchmarks/server_resume.py [--tables 1000] [--finished 10000]
        [--db postgresql+psycopg://...]   # default: a temporary SQLite file
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.engine.records import apply_recorded
from ziggurat.server.db import ActionRow, SeatRow, SnapshotRow, TableRow, TokenRow, make_engine, upgrade
from ziggurat.server.loopwatch import tune_gc
from ziggurat.server.manager import TableManager
from ziggurat.server.store import SNAPSHOT_EVERY, Store

GAMES = (("mesopotamia", 3), ("mesopotamia-epochs", 4), ("mare-nostrum", 4))
FINISHED_OPTIONS = {"mesopotamia": {"round_limit": 3}, "mare-nostrum": {"max_rounds": 2}}
"""Finished games are kept short (random play to the natural end runs 10,000+ plies)."""


def random_game(
    game_id: str, players: int, seed: int, plies: int | None, options: dict[str, Any]
) -> list[tuple[str, int]]:
    """The stored rows ``(text, actor)`` of a seeded random game, ``plies`` long or to its end."""
    state = ziggurat.load(game_id, players=players, **options).new_initial_state()
    rng = random.Random(seed)
    rows: list[tuple[str, int]] = []
    while not state.is_terminal() and (plies is None or len(rows) < plies):
        who = state.current_player()
        if who == CHANCE:
            text = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            text = legal[rng.randrange(len(legal))]
        mark = len(state.history())
        state.apply(text)
        chosen = state.history()[mark:]
        rows.append((chosen[0] if chosen else text, who))
    return rows


def snapshots(
    game_id: str, players: int, rows: list[tuple[str, int]], options: dict[str, Any]
) -> dict[int, dict[str, Any]]:
    state = ziggurat.load(game_id, players=players, **options).new_initial_state()
    out = {}
    for ply, (text, _) in enumerate(rows, start=1):
        apply_recorded(state, text)
        if ply % SNAPSHOT_EVERY == 0 and not state.is_terminal():
            out[ply] = state.to_position()
    return out


def write_tables(store: Store, count: int, finished: bool, offset: int) -> list[str]:
    """Write ``count`` tables (finished or not) the way the server stores them."""
    now = datetime.now(UTC)
    games: list[tuple[str, int, dict[str, Any], list[tuple[str, int]], dict[int, dict[str, Any]]]] = []
    for i, (game_id, players) in enumerate(GAMES):
        options = FINISHED_OPTIONS.get(game_id, {}) if finished else {}
        for variant in range(4):
            plies = None if finished else 40 + 65 * variant
            rows = random_game(game_id, players, 100 * i + variant, plies, options)
            games.append((game_id, players, options, rows, snapshots(game_id, players, rows, options)))
    ids = []
    with store.engine.begin() as conn:
        for n in range(count):
            game_id, players, options, rows, snaps = games[n % len(games)]
            tid = f"b{offset + n:07d}"
            ids.append(tid)
            over = finished
            conn.execute(
                insert(TableRow),
                {
                    "id": tid,
                    "game": game_id,
                    "players": players,
                    "options": dict(ziggurat.load(game_id, players=players, **options).options),
                    "seed": n,
                    "status": "over" if over else "playing",
                    "created": now,
                    "revision": len(rows),
                },
            )
            conn.execute(
                insert(SeatRow), [{"table_id": tid, "seat": s, "kind": "human"} for s in range(players)]
            )
            conn.execute(
                insert(TokenRow), {"hash": f"{tid:0>64}"[-64:], "table_id": tid, "seat": None, "created": now}
            )
            conn.execute(
                insert(ActionRow),
                [
                    {"table_id": tid, "ply": p, "text": t, "actor": a, "barrier": False, "created": now}
                    for p, (t, a) in enumerate(rows, start=1)
                ],
            )
            if snaps:
                conn.execute(
                    insert(SnapshotRow),
                    [
                        {"table_id": tid, "ply": p, "position": pos, "created": now}
                        for p, pos in snaps.items()
                    ],
                )
    return ids


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


async def resume(url: str, tables: int) -> None:
    engine = make_engine(url)
    upgrade(engine)
    store = Store(engine)
    t0 = time.perf_counter()
    ids = write_tables(store, tables, finished=False, offset=0)
    print(f"wrote {len(ids)} unfinished tables in {time.perf_counter() - t0:.1f} s")
    tune_gc()  # as ziggurat serve does once its app is started
    manager = TableManager(store, bot_delay=0)
    wall, cpu = time.perf_counter(), time.process_time()
    await manager.start()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"resume: {manager.resumed} tables live in {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({1000 * wall / max(1, manager.resumed):.2f} ms a table), RSS {rss_mb():.0f} MB")  # fmt: skip
    firsts = []
    for tid in ids[:12]:
        table = manager.tables[tid]
        start = time.perf_counter()
        await table.ensure_history()
        firsts.append(time.perf_counter() - start)
    print(f"first socket of a resumed table (its log built): median {1000 * sorted(firsts)[len(firsts) // 2]:.1f} ms, "
          f"max {1000 * max(firsts):.1f} ms (over {len(firsts)} tables)")  # fmt: skip
    await manager.close()
    await asyncio.to_thread(store.close)


async def memory(url: str, finished: int) -> None:
    engine = make_engine(url)
    upgrade(engine)
    store = Store(engine)
    t0 = time.perf_counter()
    ids = write_tables(store, finished, finished=True, offset=5_000_000)
    print(f"wrote {len(ids)} finished tables in {time.perf_counter() - t0:.1f} s")
    tune_gc()
    manager = TableManager(store, bot_delay=0, idle_seconds=0.0)
    await manager.start()
    step = max(1, finished // 10)
    start = time.perf_counter()
    for n, tid in enumerate(ids, start=1):
        table = await manager.get(tid)
        assert table is not None and table.status == "over"
        if n % 100 == 0:
            await table.ensure_history()  # one visitor in a hundred reads its replay
        if n % 50 == 0:
            await manager.evict()  # what the heartbeat does every few seconds
        if n % step == 0:
            print(f"  {n:>6} finished tables visited: {len(manager.tables):>4} in memory, RSS {rss_mb():.0f} MB, "
                  f"{(time.perf_counter() - start) / n * 1000:.1f} ms a table")  # fmt: skip
    await manager.close()
    await asyncio.to_thread(store.close)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000, help="unfinished tables to resume")
    parser.add_argument("--finished", type=int, default=10_000, help="finished tables to visit")
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file per part)")
    args = parser.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average: {' '.join(f.read().split()[:3])}")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'resume.db'}"
        if args.tables:
            asyncio.run(resume(url, args.tables))
        url = args.db or f"sqlite:///{Path(tmp) / 'memory.db'}"
        if args.finished:
            asyncio.run(memory(url, args.finished))


if __name__ == "__main__":
    main()
