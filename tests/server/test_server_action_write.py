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

from ziggurat.server import actionwrites, db, metrics
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
    if not st.postgres:
        assert list(metrics.action_writes(st)) == []  # no group commit on SQLite: no such metrics


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


def _stored_plies(s: Store, ids: list[str]) -> dict[str, list[int]]:
    with s.engine.connect() as conn:
        rows = conn.execute(
            select(ActionRow.table_id, ActionRow.ply).where(ActionRow.table_id.in_(ids))
        ).all()
    got: dict[str, list[int]] = {t: [] for t in ids}
    for table_id, ply in rows:
        got[table_id].append(ply)
    return {t: sorted(p) for t, p in got.items()}


@pytest.mark.postgres_only
def test_writes_that_wait_are_committed_together_and_each_answered(st: Store, db_url: str) -> None:
    """One writing connection and twenty tables' writes asked for at once: they go in
    transactions of several writes (group commit), every one is stored with its notification,
    and each caller gets its own answer (the keeper)."""
    import psycopg

    assert st.loop_writers is not None
    st.loop_writers.size = 1
    ids = [f"g{i:02}" for i in range(20)]
    for table_id in ids:
        _new_table(st, table_id)
    _set_keeper_of(st, "g03", "other", datetime.now(UTC) + timedelta(minutes=5))
    url = make_url(db_url)
    listener = psycopg.connect(
        host=url.host, port=url.port, user=url.username, dbname=url.database, autocommit=True
    )
    try:
        listener.execute(f"LISTEN {CHANNEL}")
        until = datetime.now(UTC) + timedelta(minutes=5)

        async def write(table_id: str) -> bool:
            commit = Commit(revision=0, notify=f"{table_id}:1", keeper="me", keeper_until=until)
            return await st.add_action(
                table_id, StoredAction(1, "a", 0, False), "playing", None, None, commit
            )

        async def all_tables() -> list[bool]:
            return await asyncio.gather(*(write(t) for t in reversed(ids)))

        kept = on_loop(st, all_tables())
        notes = sorted(n.payload for n in listener.notifies(timeout=2.0, stop_after=len(ids)))
    finally:
        listener.close()
    assert kept == [t != "g03" for t in reversed(ids)]
    assert st.loop_writers.batches >= 1 and st.loop_writers.batched >= 10
    counted = {m.name: m.samples[0].value for m in metrics.action_writes(st)}
    assert counted == {
        "ziggurat_action_write_batches": st.loop_writers.batches,
        "ziggurat_action_writes_batched": st.loop_writers.batched,
        "ziggurat_action_write_batches_undone": 0,
    }
    assert _stored_plies(st, ids) == {t: [1] for t in ids}
    assert notes == sorted(f"{t}:1" for t in ids)


def _set_keeper_of(s: Store, table_id: str, keeper: str, until: datetime) -> None:
    with s.engine.begin() as conn:
        conn.execute(
            update(TableRow).where(TableRow.id == table_id).values(keeper=keeper, keeper_until=until)
        )


@pytest.mark.postgres_only
def test_a_refused_write_in_a_batch_refuses_only_itself(st: Store) -> None:
    """A batch in which one write is refused (its ply already stored, another stale): the
    transaction is undone and each write sent again alone, so those two raise ``Conflict`` and
    the others are stored, once each."""
    assert st.loop_writers is not None
    st.loop_writers.size = 1
    ids = [f"r{i:02}" for i in range(12)]
    for table_id in ids:
        _new_table(st, table_id)
    add(st, "r04", StoredAction(1, "first", 0, False), "playing", None, None, Commit())
    add(st, "r07", StoredAction(1, "first", 0, False), "playing", None, None, Commit(revision=0))

    async def write(table_id: str) -> str:
        try:
            await st.add_action(
                table_id, StoredAction(1, "again", 0, False), "playing", None, None, Commit(revision=0)
            )
        except Conflict:
            return "conflict"
        return "stored"

    async def all_tables() -> list[str]:
        blocker = asyncio.ensure_future(write("r00"))  # holds the one connection while the rest queue
        rest = await asyncio.gather(*(write(t) for t in ids[1:]))
        return [await blocker, *rest]

    before = st.loop_writers.batches
    got = dict(zip(ids, on_loop(st, all_tables()), strict=True))
    assert got == {t: "conflict" if t in ("r04", "r07") else "stored" for t in ids}
    assert st.loop_writers.undone == 1  # the eleven that waited went together, and were undone
    undone = [m for m in metrics.action_writes(st) if m.name == "ziggurat_action_write_batches_undone"]
    assert [m.samples[0].value for m in undone] == [1]
    assert st.loop_writers.batches == before  # the failed batch is not counted; its writes went alone
    with st.engine.connect() as conn:
        texts = dict(
            conn.execute(select(ActionRow.table_id, ActionRow.text).where(ActionRow.table_id.in_(ids))).all()
        )
        revisions = dict(
            conn.execute(select(TableRow.id, TableRow.revision).where(TableRow.id.in_(ids))).all()
        )
    assert texts == {t: "first" if t in ("r04", "r07") else "again" for t in ids}
    assert revisions == {t: 0 if t == "r04" else 1 for t in ids}


@pytest.mark.postgres_only
def test_a_caller_that_stops_waiting_before_its_write_is_sent_stores_nothing(st: Store) -> None:
    """Writes queued behind a connection whose write waits for a row lock: one whose caller is
    cancelled before it is sent is dropped; the others are stored."""
    writers = st.loop_writers
    assert writers is not None
    writers.size = 1
    ids = ["c0", "c1", "c2"]
    for table_id in ids:
        _new_table(st, table_id)

    def write(table_id: str) -> asyncio.Future[bool]:
        return asyncio.ensure_future(
            st.add_action(table_id, StoredAction(1, "a", 0, False), "playing", None, None, Commit(revision=0))
        )

    with st.engine.connect() as locker:
        locker.execute(select(TableRow.id).where(TableRow.id == "c0").with_for_update())

        async def scenario() -> list[Any]:
            first = write("c0")
            while writers._pending or not writers._senders:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # the first write is sent and waits for the row's lock
            rest = [write("c1"), write("c2")]
            await asyncio.sleep(0)  # both queued
            assert len(writers._pending) == 2
            rest[0].cancel()
            await asyncio.sleep(0)
            locker.commit()  # the first write goes on, then the batch that is left
            return list(await asyncio.gather(first, *rest, return_exceptions=True))

        got = on_loop(st, scenario())
    assert got[0] is False and isinstance(got[1], asyncio.CancelledError) and got[2] is False
    assert _stored_plies(st, ids) == {"c0": [1], "c1": [], "c2": [1]}


@pytest.mark.postgres_only
def test_two_stores_batching_many_tables_at_once_neither_deadlock_nor_double_store(
    db_url: str, st: Store
) -> None:
    """Two stores (two processes' worth), one writing connection each, race for the same ply of
    the same thirty tables, asked for in opposite orders, ply after ply: each store's writes go
    in batches, yet exactly one action is stored per table and ply, and no batch waits on the
    other's locks for long (the rows are locked in the tables' order)."""
    assert st.loop_writers is not None
    st.loop_writers.size = 1
    other = Store(db.make_engine(db_url))
    assert other.loop_writers is not None
    other.loop_writers.size = 1
    ids = [f"d{i:02}" for i in range(30)]
    for table_id in ids:
        _new_table(st, table_id)

    async def one(s: Store, name: str, table_id: str, ply: int) -> str | None:
        try:
            await s.add_action(
                table_id, StoredAction(ply, name, 0, False), "playing", None, None, Commit(revision=ply - 1)
            )
        except Conflict:
            return None
        return name

    async def race() -> list[list[str]]:
        winners = []
        for ply in range(1, 6):
            mine = [one(st, "a", t, ply) for t in ids]
            theirs = [one(other, "b", t, ply) for t in reversed(ids)]
            got = await asyncio.wait_for(asyncio.gather(*mine, *theirs), timeout=60)
            n = len(ids)
            winners += [[g for g in (got[i], got[2 * n - 1 - i]) if g is not None] for i in range(n)]
        return winners

    try:
        winners = on_loop(st, race())
        batched = st.loop_writers.batched + other.loop_writers.batched
    finally:
        on_loop(st, other.close_loop_writers())
        other.close()
    assert all(len(w) == 1 for w in winners)
    assert batched > 0
    assert _stored_plies(st, ids) == {t: [1, 2, 3, 4, 5] for t in ids}


@pytest.mark.postgres_only
def test_batches_and_the_keepers_renewals_never_deadlock(st: Store) -> None:
    """Batches of actions' writes while another connection renews, claims and releases the
    keepers of the same tables over and over: both lock the tables' rows in the order of their
    ids, so no batch is undone by a deadlock (PostgreSQL would break one only after a second)
    and every write is stored."""
    import threading

    assert st.loop_writers is not None
    st.loop_writers.size = 1
    ids = [f"k{i:02}" for i in range(40)]
    for table_id in ids:
        _new_table(st, table_id)
    until = datetime.now(UTC) + timedelta(minutes=5)
    for table_id in ids:
        st.keep(table_id, "me", until)
    deadlocks_before = _deadlocks(st)
    stop = threading.Event()
    failed: list[Exception] = []

    def keepers() -> None:
        while not stop.is_set():
            try:
                st.renew_keeps("me", datetime.now(UTC) + timedelta(minutes=5))
                st.release("me", ids[::3])
                st.claim_orphans("me", until, 100, driven_only=False)
            except Exception as exc:  # a deadlock's victim may be this side
                failed.append(exc)

    async def rounds() -> None:
        for ply in range(1, 21):
            order = ids if ply % 2 else list(reversed(ids))
            await asyncio.gather(
                *(
                    st.add_action(
                        t, StoredAction(ply, "a", 0, False), "playing", None, None, Commit(revision=ply - 1)
                    )
                    for t in order
                )
            )

    renewer = threading.Thread(target=keepers)
    renewer.start()
    try:
        on_loop(st, rounds())
    finally:
        stop.set()
        renewer.join()
    assert failed == []
    assert st.loop_writers.batches > 0
    assert st.loop_writers.undone == 0
    assert _deadlocks(st) == deadlocks_before
    assert _stored_plies(st, ids) == {t: list(range(1, 21)) for t in ids}


def _deadlocks(s: Store) -> int:
    with s.engine.connect() as conn:
        return int(
            conn.scalar(text("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"))
        )
