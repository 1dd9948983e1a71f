"""An action's write: the statements that store one action, and on PostgreSQL the event loop's
connections that send them (:class:`LoopWriters`).

On PostgreSQL an action's write is one statement sent in autocommit from the event loop: the
table's UPDATE (:func:`advance_statement`), the action's INSERT, the snapshot's and the
notification are data-modifying parts of one ``WITH`` query (:func:`write_statement`), so they
commit together or not at all, in one round trip. On SQLite, ``store.Store`` runs the UPDATE and
the INSERTs as a transaction in its database thread. ``store.Store.add_action`` is the one
caller; the store re-exports :data:`CHANNEL` and :func:`now`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, Update, bindparam, case, func, insert, or_, select, true, update

from ziggurat.server.db import ActionRow, SnapshotRow, TableRow

if TYPE_CHECKING:
    from ziggurat.server.store import Commit, StoredAction

CHANNEL = "ziggurat_tables"
"""The PostgreSQL ``NOTIFY`` channel of table changes (server/bus.py)."""


def now() -> datetime:
    return datetime.now(UTC)


INSERT_ACTION = insert(ActionRow)
INSERT_SNAPSHOT = insert(SnapshotRow)
_ADVANCE: dict[tuple[bool, bool, bool], Update] = {}


def advance_statement(checked: bool, finished: bool, keeper: bool) -> Update:
    """The UPDATE of a table's row that goes with a stored action (its bind parameters:
    ``table``, ``driven``; ``seen``/``revision`` when ``checked``; ``status``, ``result``,
    ``outcome``, ``finished`` when the game is ``finished``; ``keeper``/``keeper_until``
    when the process asks to keep the table), returning the table's keeper."""
    key = (checked, finished, keeper)
    found = _ADVANCE.get(key)
    if found is not None:
        return found
    values: dict[str, Any] = {"driven": bindparam("driven")}
    query = update(TableRow).where(TableRow.id == bindparam("table"))
    if checked:
        query = query.where(TableRow.revision == bindparam("seen"))
        values["revision"] = bindparam("revision")
    if finished:
        for name in ("status", "result", "outcome", "finished"):
            values[name] = bindparam(name, type_=TableRow.__table__.c[name].type)
    if keeper:
        free = or_(
            TableRow.keeper.is_(None),
            TableRow.keeper_until < bindparam("now_k", callable_=now),
            TableRow.keeper == bindparam("keeper"),
        )
        values["keeper"] = case((free, bindparam("keeper")), else_=TableRow.keeper)
        values["keeper_until"] = case(
            (free, bindparam("keeper_until", type_=TableRow.__table__.c.keeper_until.type)),
            else_=TableRow.keeper_until,
        )
    found = _ADVANCE[key] = query.values(**values).returning(TableRow.keeper)
    return found


_ACTION_COLUMNS = ("table_id", "ply", "text", "actor", "barrier", "created")
_SNAPSHOT_COLUMNS = ("table_id", "ply", "position", "created")
_WRITE: dict[tuple[bool, bool, bool, bool, bool], Select[Any]] = {}
ACTION_WRITERS = 4
"""PostgreSQL: the connections that write actions (:class:`LoopWriters`), so the writes of
different tables wait for the database side by side."""
BATCH_MOST = 32
"""PostgreSQL: the most writes one connection sends in one transaction (:class:`LoopWriters`)."""
PING_AFTER = 1.0
"""Seconds a connection for actions' writes may sit idle before an action's write checks it
is still alive (as the pool's ``pre_ping`` does at every checkout): a busy server pays no ping."""


def write_statement(checked: bool, finished: bool, keeper: bool, snapshot: bool, notify: bool) -> Select[Any]:
    """An action's whole write on PostgreSQL as one query (built once per shape): the
    UPDATE of :func:`advance_statement`, then the action's INSERT, which takes its row from
    the UPDATE's (none if the table's revision moved on), the snapshot's INSERT from the
    action's, and ``pg_notify`` in the final SELECT, which answers the table's keeper: no row
    means the revision moved on and nothing was written; a ply already stored fails the whole
    query on the actions' primary key. Bind parameters: those of :func:`advance_statement`,
    the action's columns as ``new_table_id``, ``new_ply``, ``new_text``, ``new_actor``,
    ``new_barrier``, ``new_created``, ``new_position`` with a snapshot, ``channel`` and
    ``payload`` with a notification."""
    key = (checked, finished, keeper, snapshot, notify)
    found = _WRITE.get(key)
    if found is not None:
        return found
    advanced = advance_statement(checked, finished, keeper).cte("advanced")
    stored = (
        insert(ActionRow)
        .from_select(list(_ACTION_COLUMNS), select(*_binds(ActionRow, _ACTION_COLUMNS)).select_from(advanced))
        .returning(ActionRow.ply)
        .cte("stored")
    )
    columns: list[Any] = [advanced.c.keeper]
    if notify:
        columns.append(func.pg_notify(bindparam("channel"), bindparam("payload")))
    query = select(*columns).select_from(advanced.join(stored, true()))
    if snapshot:
        snapped = insert(SnapshotRow).from_select(
            list(_SNAPSHOT_COLUMNS), select(*_binds(SnapshotRow, _SNAPSHOT_COLUMNS)).select_from(stored)
        )
        query = query.add_cte(snapped.cte("snapped"))
    found = _WRITE[key] = query
    return found


def _binds(model: type[ActionRow] | type[SnapshotRow], names: Iterable[str]) -> list[Any]:
    """A bind parameter ``new_<column>`` per column, typed as the column (JSON is encoded,
    times keep their zone). The prefix matters: SQLAlchemy would add a parameter named as a
    column of ``tables`` (``created``...) to the SET clause of the UPDATE."""
    return [bindparam(f"new_{name}", type_=model.__table__.c[name].type) for name in names]


def table_params(
    table_id: str,
    status: str,
    result: list[float] | None,
    outcome: dict[str, Any] | None,
    c: Commit,
    finished: bool,
) -> dict[str, Any]:
    """The bind parameters of :func:`advance_statement` for one action's write."""
    params: dict[str, Any] = {"table": table_id, "driven": c.driven and not finished}
    if c.revision is not None:
        params["seen"], params["revision"] = c.revision, c.revision + 1
    if finished:
        params.update(status=status, result=result, outcome=outcome, finished=now())
    if c.keeper is not None:
        params["keeper"], params["keeper_until"] = c.keeper, c.keeper_until
    return params


def write_params_of(
    params: dict[str, Any], table_id: str, action: StoredAction, stamp: datetime, c: Commit
) -> None:
    """Add to ``params`` the rest of :func:`write_statement`'s bind parameters."""
    params.update(
        new_table_id=table_id,
        new_ply=action.ply,
        new_text=action.text,
        new_actor=action.actor,
        new_barrier=action.barrier,
        new_created=stamp,
    )
    if c.snapshot is not None:
        params["new_position"] = c.snapshot
    if c.notify is not None:
        params["channel"], params["payload"] = CHANNEL, c.notify


def write_key(c: Commit, finished: bool) -> tuple[bool, bool, bool, bool, bool]:
    """The shape of :func:`write_statement` an action's write needs."""
    return (
        c.revision is not None,
        finished,
        c.keeper is not None,
        c.snapshot is not None,
        c.notify is not None,
    )


async def close_quietly(conn: Any) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


class _Write:
    """One action's write waiting for, or being sent on, a connection of :class:`LoopWriters`."""

    __slots__ = ("sql", "params", "order", "done")

    def __init__(self, sql: str, params: dict[str, Any], order: str, done: asyncio.Future[Any]) -> None:
        self.sql = sql
        self.params = params
        self.order = order
        self.done = done


class LoopWriters:
    """PostgreSQL: the connections on which the event loop itself writes actions.

    An action's write is one statement (:func:`write_statement`); sent from the event loop on
    one of these asynchronous connections, it needs no thread: a write from a worker thread
    had the two threads take the interpreter lock from each other for every action, and the
    thread often waited for the lock while the loop was busy. Up to :data:`ACTION_WRITERS`
    connections write side by side (different tables' actions), first come, first served.

    Group commit: a write that finds a connection free (or room to open one) goes alone at
    once; a connection that comes free while writes wait for one takes up to
    :data:`BATCH_MOST` of them and sends them pipelined with a single Sync at the end, so
    PostgreSQL runs them as one implicit transaction, committed at the Sync or undone whole if
    one fails: one round trip and one commit (one flush of the write-ahead log and one turn of
    the lock that PostgreSQL holds while a transaction that sent NOTIFY commits) instead of one
    per action. A lone write is sent alone. The statements of a batch go in the order of their
    tables' ids, so two processes' batches lock the tables' rows in the same order. If a
    statement of a batch fails (a ply already stored, a deadlock), the batch is undone whole and
    each write of it is sent again alone, so each gets its own answer; if the connection is
    lost, every write of the batch fails with that error (committed or not, as a lone write
    whose connection is lost). A connection idle more than :data:`PING_AFTER` seconds is
    checked before use, and a broken one is closed and replaced by the next write.

    The writes are sent by tasks of their own: a caller that stops waiting (cancelled) does not
    stop a write already sent; one still waiting is dropped."""

    def __init__(self, conninfo: str, size: int = ACTION_WRITERS) -> None:
        self.conninfo = conninfo
        self.size = size
        self._idle: list[tuple[Any, float]] = []  # (connection, monotonic time of its last use)
        self._pending: collections.deque[_Write] = collections.deque()
        self._senders = 0  # tasks sending writes, each on a connection of its own
        self._tasks: set[asyncio.Task[None]] = set()  # held until done: the loop keeps weak references
        self._closed = False
        self._sql: dict[tuple[bool, bool, bool, bool, bool], tuple[str, Any]] = {}
        self.batches = 0
        """Transactions of more than one write committed so far (``batched`` writes in them)."""
        self.batched = 0
        self.undone = 0
        """Batches undone because a write of theirs failed (their writes then sent alone)."""

    def compiled(self, dialect: Any, key: tuple[bool, bool, bool, bool, bool]) -> tuple[str, Any]:
        """The SQL text of :func:`write_statement` for ``key`` and its compiled form (which
        holds the parameters' conversions), made once per shape."""
        found = self._sql.get(key)
        if found is None:
            compiled = write_statement(*key).compile(dialect=dialect)
            found = self._sql[key] = (str(compiled), compiled)
        return found

    async def execute(self, sql: str, params: dict[str, Any], order: str = "") -> Any:
        """Run ``sql`` (one action's write; ``order``: its table's id) and return its first row
        (``None`` if there is none), once committed. Errors are psycopg's."""
        if self._closed:
            raise RuntimeError("the store is closed")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        write = _Write(sql, params, order, done)
        self._pending.append(write)
        self._start_senders()
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            if not done.done():
                with contextlib.suppress(ValueError):
                    self._pending.remove(write)  # not sent yet: dropped
            raise

    def _start_senders(self) -> None:
        while self._pending and self._senders < self.size and not self._closed:
            self._senders += 1
            task = asyncio.get_running_loop().create_task(self._send())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _send(self) -> None:
        """Send waiting writes on one connection until none waits."""
        conn: Any = None
        most = 1  # a sender started for a write sends it alone, on a connection of its own
        try:
            while self._pending and not self._closed:
                batch = [self._pending.popleft() for _ in range(min(most, len(self._pending)))]
                most = BATCH_MOST  # the writes that came meanwhile waited for a connection
                if conn is None:
                    try:
                        conn = await self._connection()
                    except BaseException as exc:
                        _fail(batch, exc)
                        if not isinstance(exc, Exception):
                            raise
                        return
                try:
                    if len(batch) == 1:
                        await self._alone(conn, batch[0])
                    else:
                        await self._together(conn, batch)
                except BaseException as exc:  # cancelled: no write is left unanswered
                    _fail(batch, exc)
                    raise
                if conn.closed or conn.broken:
                    await close_quietly(conn)
                    conn = None
        finally:
            self._senders -= 1
            if conn is not None:
                if self._closed:
                    await close_quietly(conn)
                else:
                    self._idle.append((conn, time.monotonic()))
            if self._pending and not self._closed:
                self._start_senders()

    async def _connection(self) -> Any:
        """An idle connection (checked first if idle more than :data:`PING_AFTER` seconds) or a
        new one."""
        import psycopg

        while self._idle:
            conn, used = self._idle.pop()
            if conn.closed or conn.broken:
                await close_quietly(conn)
                continue
            if time.monotonic() - used <= PING_AFTER:
                return conn
            try:
                await conn.execute("SELECT 1")
                return conn
            except psycopg.Error:
                await close_quietly(conn)
        return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)

    async def _alone(self, conn: Any, write: _Write) -> None:
        """Send one write in autocommit (its own transaction) and answer it."""
        try:
            cursor = await conn.execute(write.sql, write.params)
            row = await cursor.fetchone()
        except Exception as exc:
            _fail([write], exc)
        else:
            if not write.done.done():
                write.done.set_result(row)

    async def _together(self, conn: Any, batch: list[_Write]) -> None:
        """Send a batch of writes in one pipelined transaction and answer each; see the class."""
        import psycopg

        batch.sort(key=lambda w: w.order)
        cursors = [conn.cursor() for _ in batch]
        try:
            async with conn.pipeline():  # one Sync at the end: one implicit transaction
                for cursor, write in zip(cursors, batch, strict=True):
                    await cursor.execute(write.sql, write.params)
            rows = [await cursor.fetchone() for cursor in cursors]
        except psycopg.Error as exc:
            if conn.closed or conn.broken:
                _fail(batch, exc)
                return
            self.undone += 1
            for write in batch:  # rolled back whole: each again, alone
                await self._alone(conn, write)
            return
        except Exception as exc:
            _fail(batch, exc)
            return
        self.batches += 1
        self.batched += len(batch)
        for write, row in zip(batch, rows, strict=True):
            if not write.done.done():
                write.done.set_result(row)

    async def close(self) -> None:
        """Refuse new writes, let the writes already sent finish (those still waiting fail),
        and close every connection."""
        self._closed = True
        _fail(list(self._pending), RuntimeError("the store is closed"))
        self._pending.clear()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        idle, self._idle = self._idle, []
        for conn, _ in idle:
            await close_quietly(conn)


def _fail(writes: list[_Write], exc: BaseException) -> None:
    for write in writes:
        if not write.done.done():
            write.done.set_exception(exc)
