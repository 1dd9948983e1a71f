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


class LoopWriters:
    """PostgreSQL: the connections on which the event loop itself writes actions.

    An action's write is one statement (:func:`write_statement`); sent from the event loop on
    one of these asynchronous connections, it needs no thread: a write from a worker thread
    had the two threads take the interpreter lock from each other for every action, and the
    thread often waited for the lock while the loop was busy. Up to :data:`ACTION_WRITERS`
    connections write side by side (different tables' actions); a write waits for a free one.
    A connection idle more than :data:`PING_AFTER` seconds is checked before use, and a broken
    one is closed and replaced by the next write."""

    def __init__(self, conninfo: str, size: int = ACTION_WRITERS) -> None:
        self.conninfo = conninfo
        self.size = size
        self._idle: list[tuple[Any, float]] = []  # (connection, monotonic time of its last use)
        self._open = 0  # connections made (or being made) and not closed, idle or writing
        self._waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._closed = False
        self._cursors: dict[int, Any] = {}  # id of a connection -> its cursor
        self._closing: set[asyncio.Task[None]] = set()  # broken connections being closed
        self._sql: dict[tuple[bool, bool, bool, bool, bool], tuple[str, Any]] = {}

    def compiled(self, dialect: Any, key: tuple[bool, bool, bool, bool, bool]) -> tuple[str, Any]:
        """The SQL text of :func:`write_statement` for ``key`` and its compiled form (which
        holds the parameters' conversions), made once per shape."""
        found = self._sql.get(key)
        if found is None:
            compiled = write_statement(*key).compile(dialect=dialect)
            found = self._sql[key] = (str(compiled), compiled)
        return found

    async def _take(self) -> Any:
        """A connection for one write: an idle one, a new one while fewer than :attr:`size`
        are open, else the next one given back (first come, first served)."""
        import psycopg

        if self._closed:
            raise RuntimeError("the store is closed")
        conn: Any = None
        used = 0.0
        if self._idle:
            conn, used = self._idle.pop()
        elif self._open < self.size:
            self._open += 1
        else:
            waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            try:
                conn, used = await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    self._give_back(waiter.result()[0])  # handed over just as the wait was cancelled
                elif waiter in self._waiting:
                    self._waiting.remove(waiter)
                raise
            if conn is None:  # a slot freed by a broken connection: make a new one
                used = 0.0
        try:
            if conn is not None:
                if time.monotonic() - used <= PING_AFTER and not conn.closed:
                    return conn
                try:
                    await conn.execute("SELECT 1")
                    return conn
                except psycopg.Error:
                    self._cursors.pop(id(conn), None)
                    await close_quietly(conn)
            return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        except BaseException:
            self._give_back(None)
            raise

    def _give_back(self, conn: Any) -> None:
        """A connection is free again (``None``: it was closed, its slot is free)."""
        if conn is not None and (conn.closed or conn.broken):
            self._cursors.pop(id(conn), None)
            closing = asyncio.get_running_loop().create_task(close_quietly(conn))
            self._closing.add(closing)  # held until done: the loop keeps only a weak reference
            closing.add_done_callback(self._closing.discard)
            conn = None
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result((conn, time.monotonic()))
                return
        if conn is None:
            self._open -= 1
        else:
            self._idle.append((conn, time.monotonic()))

    async def execute(self, sql: str, params: dict[str, Any]) -> Any:
        """Run ``sql`` in autocommit on a free connection and return its first row (``None``
        if there is none). Errors are psycopg's."""
        conn = await self._take()
        try:
            cursor = self._cursors.get(id(conn))
            if cursor is None or cursor.connection is not conn or cursor.closed:
                cursor = self._cursors[id(conn)] = conn.cursor()  # one per connection, kept
            await cursor.execute(sql, params)
            return await cursor.fetchone()
        finally:
            self._give_back(conn)

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        self._open -= len(idle)
        self._cursors.clear()
        for conn, _ in idle:
            await close_quietly(conn)
