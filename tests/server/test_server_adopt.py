"""Adopting tables (docs/server.md, "Several processes"): a process that starts, or finds
tables left without a keeper, claims them in batches and loads each batch with one round of
queries; a table another process changed after the batch was read catches up before it plays
on, found by one query for the batch's revisions rather than every table's actions read again.
On PostgreSQL only: with SQLite there is one process and nothing changes a table meanwhile."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, select, update

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


def _stored(table_id: str, actions: list[StoredAction]) -> StoredTable:
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
        actions=actions,
        revision=len(actions),
    )


async def _store_action(engine: object, table_id: str, action: StoredAction) -> None:
    """What another process's accepted action writes (its own connections)."""
    other = Store(engine)  # type: ignore[arg-type]
    try:
        await other.add_action(table_id, action, "playing", None, None, Commit(revision=action.ply - 1))
    finally:
        await other.close_loop_writers()


@pytest.mark.postgres_only
def test_an_adopted_table_changed_while_its_batch_loaded_catches_up(db_url: str) -> None:
    line = _line(PLIES + 1)
    engine = db.make_engine(db_url)
    db.upgrade(engine)

    class ChangedWhileLoading(Store):
        """Another process stores the next action of ``t-late`` right after the batch was read."""

        def load_tables(self, table_ids: list[str]) -> dict[str, StoredTable]:
            read = super().load_tables(table_ids)
            if "t-late" in table_ids:
                asyncio.run(_store_action(self.engine, "t-late", line[PLIES]))
            return read

    store = ChangedWhileLoading(engine)
    for table_id in ("t-late", "t-still"):
        store.create_table(_stored(table_id, []))
        with engine.begin() as conn:  # the actions of a game played before this process started
            for action in line[:PLIES]:
                conn.execute(
                    insert(db.ActionRow).values(
                        table_id=table_id, ply=action.ply, text=action.text, actor=action.actor,
                        barrier=action.barrier, created=datetime.now(UTC),
                    )
                )  # fmt: skip
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(revision=PLIES))

    async def adopt() -> tuple[TableManager, int]:
        manager = TableManager(store, bot_delay=0, bot_workers=0)
        adopted = await manager.adopt(starting=True)
        return manager, adopted

    async def close(manager: TableManager) -> None:
        await manager.close()
        await store.close_loop_writers()

    loop = asyncio.new_event_loop()
    try:
        manager, adopted = loop.run_until_complete(adopt())
        try:
            assert adopted == 2
            late, still = manager.tables["t-late"], manager.tables["t-still"]
            assert [r.text for r in late.rows] == [a.text for a in line]  # the action stored meanwhile
            assert late.revision == PLIES + 1
            assert late.state.history() == [a.text for a in line]
            assert [r.text for r in still.rows] == [a.text for a in line[:PLIES]]
            assert still.revision == PLIES
            assert late.keeper and still.keeper  # claimed in the batch, without a claim per table
            with engine.connect() as conn:
                keepers = set(conn.scalars(select(TableRow.keeper)))
            assert keepers == {manager.process}
        finally:
            loop.run_until_complete(close(manager))
    finally:
        loop.close()
        store.close()
