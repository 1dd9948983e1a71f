"""Loading tables (docs/server.md, "Several processes"): a process that starts, or finds
tables left without a keeper, claims them in batches and loads each batch with one round of
queries, and a socket's first look loads one table; a table another process changed after it
was read catches up, found by one query for the tables' revisions rather than every table's
actions read again. On PostgreSQL only: with SQLite there is one process and nothing changes a
table meanwhile."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, insert, select, update

import ziggurat
from ziggurat.engine.positions import play_random
from ziggurat.server import db
from ziggurat.server.db import TableRow
from ziggurat.server.manager import TableManager
from ziggurat.server.store import Commit, SeatSpec, Store, StoredAction, StoredTable

GAME, PLAYERS, PLIES = "mesopotamia", 2, 12


def _line(plies: int) -> list[StoredAction]:
    """A seeded random game line of ``plies`` actions, as the server stores them (what was
    chosen and what chance drew, not what the engine played itself)."""
    state = ziggurat.load(GAME, PLAYERS).new_initial_state()
    play_random(state, plies, random.Random(5))
    chosen = [e for e in state.events() if not e.auto]
    return [StoredAction(ply, e.text, e.actor, False) for ply, e in enumerate(chosen, start=1)]


def _stored(table_id: str) -> StoredTable:
    """A table of two human seats, its actions stored apart."""
    return StoredTable(
        id=table_id,
        game=GAME,
        players=PLAYERS,
        options={},
        seed=3,
        status="playing",
        result=None,
        rematch_id=None,
        created=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        seats=[SeatSpec(s, "human", None) for s in range(PLAYERS)],
    )


async def _store_action(engine: Engine, table_id: str, action: StoredAction) -> None:
    """What another process's accepted action writes (its own connections)."""
    other = Store(engine)
    try:
        await other.add_action(table_id, action, "playing", None, None, Commit(revision=action.ply - 1))
    finally:
        await other.close_loop_writers()


class ChangedWhileLoading(Store):
    """A store on which another process stores the next action of ``t-late`` right after
    this process read it (a batch of tables, or one)."""

    late: StoredAction

    def load_tables(self, table_ids: list[str]) -> dict[str, StoredTable]:
        read = super().load_tables(table_ids)
        if "t-late" in table_ids:
            asyncio.run(_store_action(self.engine, "t-late", self.late))
        return read

    def load_table(self, table_id: str) -> StoredTable | None:
        read = super().load_table(table_id)
        if table_id == "t-late":
            asyncio.run(_store_action(self.engine, "t-late", self.late))
        return read


def _stored_games(db_url: str, line: list[StoredAction]) -> ChangedWhileLoading:
    """``t-late`` and ``t-still``, each a game of ``line``'s first PLIES actions played before
    this process started, kept by nobody."""
    engine = db.make_engine(db_url)
    db.upgrade(engine)
    store = ChangedWhileLoading(engine)
    store.late = line[PLIES]
    for table_id in ("t-late", "t-still"):
        store.create_table(_stored(table_id))
        with engine.begin() as conn:
            for action in line[:PLIES]:
                conn.execute(
                    insert(db.ActionRow).values(
                        table_id=table_id, ply=action.ply, text=action.text, actor=action.actor,
                        barrier=action.barrier, created=datetime.now(UTC),
                    )
                )  # fmt: skip
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(revision=PLIES))
    return store


def _with_manager(store: Store, check: Callable[[TableManager], Awaitable[None]]) -> None:
    """``check`` a table manager of this process on ``store``, on an event loop of its own."""

    async def run() -> None:
        manager = TableManager(store, bot_delay=0, bot_workers=0)
        try:
            await check(manager)
        finally:
            await manager.close()
            await store.close_loop_writers()

    try:
        asyncio.run(run())
    finally:
        store.close()


def _assert_lines(manager: TableManager, line: list[StoredAction], *table_ids: str) -> None:
    late = manager.tables["t-late"]
    assert [r.text for r in late.rows] == [a.text for a in line]  # the action stored meanwhile
    assert late.revision == PLIES + 1
    assert late.state.history() == [a.text for a in line]
    if "t-still" in table_ids:
        still = manager.tables["t-still"]
        assert [r.text for r in still.rows] == [a.text for a in line[:PLIES]]
        assert still.revision == PLIES


@pytest.mark.postgres_only
def test_an_adopted_table_changed_while_its_batch_loaded_catches_up(db_url: str) -> None:
    line = _line(PLIES + 1)
    store = _stored_games(db_url, line)

    async def check(manager: TableManager) -> None:
        assert await manager.adopt(starting=True) == 2
        _assert_lines(manager, line, "t-late", "t-still")
        late, still = manager.tables["t-late"], manager.tables["t-still"]
        assert late.keeper and still.keeper  # claimed in the batch, without a claim per table
        with store.engine.connect() as conn:
            keepers = set(conn.scalars(select(TableRow.keeper)))
        assert keepers == {manager.process}

    _with_manager(store, check)


@pytest.mark.postgres_only
def test_a_table_loaded_on_first_use_and_changed_while_it_loaded_catches_up(db_url: str) -> None:
    """A socket's first look loads one table: a change stored meanwhile is found by its revision."""
    line = _line(PLIES + 1)
    store = _stored_games(db_url, line)

    async def check(manager: TableManager) -> None:
        assert await manager.get("t-late") is not None
        _assert_lines(manager, line, "t-late")

    _with_manager(store, check)
