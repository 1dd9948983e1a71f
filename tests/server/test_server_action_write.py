"""An action's write (docs/server.md, "Several processes"): ``Store.add_action`` stores the
action, its snapshot and the table's changes, and on PostgreSQL its notification, all or
nothing: a stale revision or a ply already stored raises ``Conflict`` and leaves every row as
it was (one statement in autocommit sent from the event loop on PostgreSQL, a transaction in
the database thread on SQLite); the keeper is claimed only if free, expired or already this
process's. Each test runs on both databases, each store on an event loop of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine, select, text, update
from sqlalchemy.engine import make_url

from ziggurat.server import actionwrites, db
from ziggurat.server.db import ActionRow, SnapshotRow, TableRow
from ziggurat.server.store import CHANNEL, Commit, Conflict, SeatSpec, Store, StoredAction, StoredTable

CREATED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
POSITION = {"ply": 1, "board": [1, 2, 3]}


_LOOPS: dict[int, asyncio.AbstractEventLoop] = {}


def _open(engine: Any) -> Store:
    s = Store(engine)
    _LOOPS[id(s)] = asyncio.new_event_loop()
    return s


def _close(s: Store) -> None:
    loop = _LOOPS.pop(id(s))
    try:
        loop.run_until_complete(s.close_loop_writers())
    finally:
        loop.close()
        s.close()


def add(s: Store, *args: Any) -> bool:
    """``s.add_action(*args)`` on the store's event loop."""
    return _LOOPS[id(s)].run_until_complete(s.add_action(*args))


def on_loop(s: Store, coroutine: Any) -> Any:
    return _LOOPS[id(s)].run_until_complete(coroutine)


@pytest.fixture
def st(db_url: str) -> Iterator[Store]:
    engine = db.make_engine(db_url)
    db.upgrade(engine)
    s = _open(engine)
    s.create_table(
        StoredTable(
            id="t1",
            game="mesopotamia",
            players=3,
            options={},
            seed=7,
            status="playing",
            result=None,
            rematch_id=None,
            created=CREATED,
            seats=[SeatSpec(0, "human", None), SeatSpec(1, "bot", "random"), SeatSpec(2, "bot", "random")],
        )
    )
    yield s
    _close(s)


def _table(s: Store) -> dict[str, Any]:
    with s.engine.connect() as conn:
        row = conn.execute(select(TableRow.__table__).where(TableRow.id == "t1")).mappings().one()
        return dict(row)


def _actions(s: Store) -> list[tuple[int, str, int]]:
    with s.engine.connect() as conn:
        rows = conn.execute(
            select(ActionRow.ply, ActionRow.text, ActionRow.actor).where(ActionRow.table_id == "t1")
        )
        return sorted((r[0], r[1], r[2]) for r in rows)


def _snapshots(s: Store) -> list[int]:
    with s.engine.connect() as conn:
        return sorted(conn.scalars(select(SnapshotRow.ply).where(SnapshotRow.table_id == "t1")))


def _set_keeper(s: Store, keeper: str | None, until: datetime | None) -> None:
    with s.engine.begin() as conn:
        conn.execute(update(TableRow).where(TableRow.id == "t1").values(keeper=keeper, keeper_until=until))


def _aware(when: datetime | None) -> datetime | None:
    return None if when is None else (when if when.tzinfo else when.replace(tzinfo=UTC))


def test_an_action_is_stored_with_the_tables_changes(st: Store) -> None:
    until = datetime.now(UTC) + timedelta(minutes=5)
    kept = add(
        st,
        "t1",
        StoredAction(1, "pass", 0, True),
        "playing",
        None,
        None,
        Commit(revision=0, driven=True, snapshot=POSITION, keeper="me", keeper_until=until),
    )
    assert kept
    assert _actions(st) == [(1, "pass", 0)]
    assert _snapshots(st) == [1]
    row = _table(st)
    assert (row["revision"], row["driven"], row["status"], row["keeper"]) == (1, True, "playing", "me")
    assert _aware(row["keeper_until"]) == until
    assert _aware(row["created"]) == CREATED and row["finished"] is None  # nothing else changed


def test_the_last_action_stores_the_result_and_the_outcome(st: Store) -> None:
    outcome = {"winners": [1], "reason": "score"}
    kept = add(
        st,
        "t1",
        StoredAction(1, "end", 1, False),
        "over",
        [0.0, 1.0, 0.0],
        outcome,
        Commit(revision=0, driven=True),
    )
    assert not kept  # no keeper asked for
    row = _table(st)
    assert (row["status"], row["result"], row["outcome"], row["revision"]) == (
        "over",
        [0.0, 1.0, 0.0],
        outcome,
        1,
    )
    assert row["driven"] is False and row["finished"] is not None  # a finished table needs no keeper
    assert _actions(st) == [(1, "end", 1)]


def test_a_stale_revision_stores_nothing(st: Store) -> None:
    add(st, "t1", StoredAction(1, "first", 0, False), "playing", None, None, Commit(revision=0))
    before = _table(st)
    with pytest.raises(Conflict):
        add(
            st,
            "t1",
            StoredAction(2, "late", 1, False),
            "over",
            [1.0, 0.0, 0.0],
            {"winners": [0]},
            Commit(revision=0, driven=True, snapshot=POSITION, keeper="me", keeper_until=CREATED),
        )
    assert _actions(st) == [(1, "first", 0)]
    assert _snapshots(st) == []
    assert _table(st) == before


def test_a_ply_already_stored_stores_nothing(st: Store) -> None:
    """The revision matches (a table changed without its revision checked) but the ply is
    taken: the actions' primary key refuses it, and the UPDATE of the table is undone too."""
    add(st, "t1", StoredAction(1, "first", 0, False), "playing", None, None, Commit())
    before = _table(st)
    assert before["revision"] == 0  # not checked, not bumped
    until = datetime.now(UTC) + timedelta(minutes=5)
    with pytest.raises(Conflict):
        add(
            st,
            "t1",
            StoredAction(1, "second", 1, False),
            "over",
            [1.0, 0.0, 0.0],
            {"winners": [0]},
            Commit(revision=0, driven=True, snapshot=POSITION, keeper="me", keeper_until=until),
        )
    assert _actions(st) == [(1, "first", 0)]
    assert _snapshots(st) == []
    assert _table(st) == before
    # the store goes on: the next ply is stored
    assert add(
        st,
        "t1",
        StoredAction(2, "next", 1, False),
        "playing",
        None,
        None,
        Commit(revision=0, keeper="me", keeper_until=until),
    )
    assert _actions(st) == [(1, "first", 0), (2, "next", 1)]


@pytest.mark.parametrize(
    ("holder", "expired", "claimed"),
    [(None, False, True), ("other", False, False), ("other", True, True), ("me", False, True)],
    ids=["free", "held-by-another", "expired", "ours"],
)
def test_the_keeper_is_claimed_only_if_free_expired_or_ours(
    st: Store, holder: str | None, expired: bool, claimed: bool
) -> None:
    now = datetime.now(UTC)
    held_until = (
        None if holder is None else now + (timedelta(minutes=-1) if expired else timedelta(minutes=5))
    )
    _set_keeper(st, holder, held_until)
    until = now + timedelta(minutes=10)
    kept = add(
        st,
        "t1",
        StoredAction(1, "pass", 0, False),
        "playing",
        None,
        None,
        Commit(revision=0, driven=True, keeper="me", keeper_until=until),
    )
    row = _table(st)
    assert kept is claimed
    assert _actions(st) == [(1, "pass", 0)]  # the action is stored whoever keeps the table
    assert row["revision"] == 1
    if claimed:
        assert (row["keeper"], _aware(row["keeper_until"])) == ("me", until)
    else:
        assert (row["keeper"], _aware(row["keeper_until"])) == (holder, held_until)


@pytest.mark.postgres_only
def test_the_notification_is_sent_only_when_the_action_is_stored(st: Store, db_url: str) -> None:
    import psycopg

    url = make_url(db_url)
    listener = psycopg.connect(
        host=url.host,
        port=url.port,
        user=url.username,
        password=url.password,
        dbname=url.database,
        autocommit=True,
    )
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        add(st, "t1", StoredAction(1, "a", 0, False), "playing", None, None, Commit(revision=0, notify="one"))
        with pytest.raises(Conflict):  # stale revision
            add(
                st,
                "t1",
                StoredAction(2, "b", 0, False),
                "playing",
                None,
                None,
                Commit(revision=0, notify="stale"),
            )
        add(st, "t1", StoredAction(2, "c", 0, False), "playing", None, None, Commit(notify="unchecked"))
        with pytest.raises(Conflict):  # ply taken
            add(
                st,
                "t1",
                StoredAction(2, "d", 0, False),
                "playing",
                None,
                None,
                Commit(revision=1, notify="taken"),
            )
        add(
            st,
            "t1",
            StoredAction(3, "e", 0, False),
            "playing",
            None,
            None,
            Commit(revision=1, notify="three"),
        )
        # delivered in commit order: the third stored one arriving means none came between
        got = [n.payload for n in listener.notifies(timeout=60, stop_after=3)]
    finally:
        listener.close()
    assert got == ["one", "unchecked", "three"]
    assert _actions(st) == [(1, "a", 0), (2, "c", 0), (3, "e", 0)]


@pytest.mark.postgres_only
@pytest.mark.parametrize("ping_after", [0.0, 3600.0], ids=["pinged", "not-pinged"])
def test_a_write_after_the_connection_was_lost_is_whole_or_absent(
    st: Store, db_url: str, monkeypatch: pytest.MonkeyPatch, ping_after: float
) -> None:
    """The database ends every connection of the store: pinged (idle long enough), the write
    reconnects and succeeds; not pinged, it fails and stores nothing, and the next one succeeds."""
    monkeypatch.setattr(actionwrites, "PING_AFTER", ping_after)
    add(st, "t1", StoredAction(1, "a", 0, False), "playing", None, None, Commit(revision=0))
    admin = create_engine(db_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            ended = conn.execute(
                text(
                    # the second argument waits (ms) until each has ended (PostgreSQL 14+)
                    "SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).all()
    finally:
        admin.dispose()
    assert ended and all(r[0] for r in ended)
    action, commit = StoredAction(2, "b", 0, False), Commit(revision=1)
    if ping_after:
        import psycopg

        with pytest.raises(psycopg.OperationalError):
            add(st, "t1", action, "playing", None, None, commit)
        assert _actions(st) == [(1, "a", 0)] and _table(st)["revision"] == 1
    add(st, "t1", action, "playing", None, None, commit)
    assert _actions(st) == [(1, "a", 0), (2, "b", 0)] and _table(st)["revision"] == 2


def _new_table(s: Store, table_id: str) -> None:
    s.create_table(
        StoredTable(
            id=table_id,
            game="mesopotamia",
            players=2,
            options={},
            seed=1,
            status="playing",
            result=None,
            rematch_id=None,
            created=CREATED,
            seats=[SeatSpec(0, "human", None), SeatSpec(1, "bot", "random")],
        )
    )


def test_tables_written_side_by_side_keep_each_tables_order(st: Store) -> None:
    """Many tables' actions asked for at once through ``Store.run`` (as the tables of a server
    do): each table's chain, one action after the other, is stored whole and in order."""
    ids = [f"s{i}" for i in range(12)]
    for table_id in ids:
        _new_table(st, table_id)

    async def play(table_id: str) -> list[bool]:
        kept = []
        for ply in range(1, 9):
            commit = Commit(
                revision=ply - 1, driven=True, notify=f"{table_id}:{ply}" if st.postgres else None
            )
            action = StoredAction(ply, f"{table_id}-{ply}", ply % 2, False)
            kept.append(await st.add_action(table_id, action, "playing", None, None, commit))
        return kept

    async def all_tables() -> list[list[bool]]:
        return await asyncio.gather(*(play(t) for t in ids))

    assert on_loop(st, all_tables()) == [[False] * 8] * len(ids)
    with st.engine.connect() as conn:
        stored = conn.execute(
            select(ActionRow.table_id, ActionRow.ply, ActionRow.text).where(ActionRow.table_id.in_(ids))
        ).all()
        revisions = dict(
            conn.execute(select(TableRow.id, TableRow.revision).where(TableRow.id.in_(ids))).all()
        )
    assert sorted(stored) == sorted((t, p, f"{t}-{p}") for t in ids for p in range(1, 9))
    assert revisions == dict.fromkeys(ids, 8)


def test_two_stores_racing_for_each_ply_store_one_action_each(db_url: str, st: Store) -> None:
    """Two stores on one database (two processes' worth) ask to store a different action for
    the same ply against the same revision at once, ply after ply: exactly one of each pair is
    stored, the other raises ``Conflict``."""
    other = Store(db.make_engine(db_url))  # on the same event loop, as another process would be

    async def one(s: Store, name: str, ply: int) -> str | None:
        action = StoredAction(ply, name, 0, False)
        try:
            await s.add_action("t1", action, "playing", None, None, Commit(revision=ply - 1))
        except Conflict:
            return None
        return name

    async def race() -> list[list[str]]:
        winners: list[list[str]] = []
        for ply in range(1, 31):
            got = await asyncio.gather(one(st, "a", ply), one(other, "b", ply))
            winners.append([g for g in got if g is not None])
        return winners

    try:
        winners = on_loop(st, race())
    finally:
        on_loop(st, other.close_loop_writers())
        other.close()
    assert all(len(w) == 1 for w in winners)
    assert [t for _, t, _ in _actions(st)] == [w[0] for w in winners]
    assert _table(st)["revision"] == 30
