"""The server's database operations, one short transaction each.

The table manager calls most of them through :meth:`Store.run`, which runs them in one
database thread: a slow database never blocks the event loop, and commits happen in the order
they were asked for. Every write is committed when its function returns.

An action's write (:meth:`Store.add_action`) is the exception, and is awaited directly. On
PostgreSQL it is one statement sent in autocommit from the event loop, on one of a few
asynchronous connections (``actionwrites.LoopWriters``): the table's UPDATE, the action's
INSERT, the snapshot's and the notification are data-modifying parts of one ``WITH`` query, so
they commit together or not at all, in one round trip instead of five (BEGIN, three
statements, COMMIT) and the pool's ping; several tables' writes wait for the database side by
side. On SQLite it is a transaction in the database thread. The statements and the connections
are in server/actionwrites.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    delete,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ziggurat.server.actionwrites import (
    CHANNEL,
    INSERT_ACTION,
    INSERT_SNAPSHOT,
    PING_AFTER,
    LoopWriters,
    advance_statement,
    now,
    table_params,
    write_key,
    write_params_of,
)
from ziggurat.server.db import ActionRow, SeatRow, SnapshotRow, TableRow, TokenRow, UserRow

T = TypeVar("T")

SNAPSHOT_EVERY = 32
"""A table's position is stored every this many plies, so it resumes without replaying its game."""
LIVE_STATUSES = ("open", "playing")


def conninfo(engine: Engine) -> str:
    """psycopg's connection string for the database of a SQLAlchemy ``engine``."""
    url = engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _primary_key_of_actions(exc: IntegrityError) -> bool:
    """Whether ``exc`` is the actions' primary key refusing a second action of a ply."""
    diag = getattr(exc.orig, "diag", None)
    return diag is not None and getattr(diag, "table_name", None) == ActionRow.__tablename__


class Conflict(Exception):
    """Another process changed the table first (its revision moved on): nothing was stored."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} was changed by another server process")
        self.table_id = table_id


@dataclass(slots=True)
class SeatSpec:
    """A seat as stored: ``kind`` is ``human``, ``bot`` (then ``bot`` names its kind) or ``open``
    (a free seat of a lobby table); ``user_id`` and ``name`` say who sits there, if known (an
    account, or a guest's name; loaded with the account's name)."""

    seat: int
    kind: str
    bot: str | None
    user_id: int | None = None
    name: str | None = None


@dataclass(slots=True)
class StoredAction:
    """One applied action; ``actor`` is -1 for a chance outcome."""

    ply: int
    text: str
    actor: int
    barrier: bool


@dataclass(slots=True)
class StoredTable:
    """Everything needed to rebuild a live table."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    result: list[float] | None
    rematch_id: str | None
    created: datetime
    seats: list[SeatSpec]
    tokens: dict[str, int | None] = field(default_factory=dict)  # token hash -> seat (None: spectator)
    actions: list[StoredAction] = field(default_factory=list)
    start: dict[str, Any] | None = None  # the position the game started from (None: the set-up)
    public: bool = False  # listed in the public lobby
    host_seat: int | None = None  # the seat that starts a lobby table
    time_control: dict[str, Any] | None = None  # timecontrol.TimeControl.to_json(); None: no clock
    revision: int = 0  # changes of the game line (actions, undos) stored so far
    snapshot: tuple[int, dict[str, Any]] | None = None  # (ply, position) of the latest snapshot


@dataclass(slots=True)
class Commit:
    """What :meth:`Store.add_action` stores besides the action: the table's ``revision`` the
    action was validated against (``None``: not checked), whether the table needs its keeper
    after it (``driven``), a snapshot of the position after it, and a notification."""

    revision: int | None = None
    driven: bool = False
    snapshot: dict[str, Any] | None = None
    notify: str | None = None
    keeper: str | None = None  # this process: it becomes the keeper if the table has none
    keeper_until: datetime | None = None


@dataclass(slots=True)
class Access:
    """What one token opens, for ``POST /api/tables/lookup``."""

    table_id: str
    game: str
    players: int
    status: str
    seat: int | None
    created: datetime
    outcome: dict[str, Any] | None = None


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite forgets the zone


class Store:
    """The server's database; see the module docstring for the threading."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        """Several processes may share this database (LISTEN/NOTIFY, keepers); SQLite: one."""
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ziggurat-db")
        self.loop_writers: LoopWriters | None = LoopWriters(conninfo(engine)) if self.postgres else None
        """PostgreSQL: the event loop's connections for actions' writes (:meth:`add_action`)."""
        self._own = threading.local()  # SQLite: the database thread's connection for actions' writes
        self._owned: list[Connection] = []
        self._owned_lock = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the database thread and wait for its result."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def add_action(
        self,
        table_id: str,
        action: StoredAction,
        status: str,
        result: list[float] | None,
        outcome: dict[str, Any] | None = None,
        commit: Commit | None = None,
    ) -> bool:
        """Store one applied action, and the table's status (its result, how it was won and
        when it finished) once the game is over; answer whether this process keeps the table.

        With ``commit.revision`` the action is stored only if the table's revision is still that
        one (it is then bumped): :raises Conflict: if another process changed the table first,
        or stored an action of this ply (the actions' primary key), and then nothing is stored.

        On PostgreSQL it is one statement sent from the event loop (:class:`LoopWriters`); on
        SQLite a transaction in the database thread. One table's actions keep their order:
        each is written with the table's lock held until it is committed (``LiveTable._play``),
        and the row of the table, locked by the UPDATE until the write commits, orders it with
        any other change of that table (the revision refuses a change made against an older
        one)."""
        c = commit or Commit()
        finished = status != "playing"
        params = table_params(table_id, status, result, outcome, c, finished)
        if self.loop_writers is None:
            return await self.run(self._write_in_transaction, table_id, action, now(), params, c, finished)
        return await self._write_on_loop(self.loop_writers, table_id, action, params, c, finished)

    async def _write_on_loop(
        self,
        writers: LoopWriters,
        table_id: str,
        action: StoredAction,
        params: dict[str, Any],
        c: Commit,
        finished: bool,
    ) -> bool:
        """:meth:`add_action` on PostgreSQL: one statement (``actionwrites.write_statement``) in
        autocommit, so PostgreSQL runs it as its own transaction: it is committed whole when it
        answers, or not at all (a notification is then never sent)."""
        import psycopg

        write_params_of(params, table_id, action, now(), c)
        sql, compiled = writers.compiled(self.engine.dialect, write_key(c, finished))
        bound = compiled.construct_params(params)
        for name, convert in compiled._bind_processors.items():  # JSON encoded, as SQLAlchemy does
            if name in bound:
                bound[name] = convert(bound[name])
        try:
            row = await writers.execute(sql, bound, table_id)
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.table_name == ActionRow.__tablename__:
                raise Conflict(table_id) from exc
            raise
        if row is None:
            raise Conflict(table_id)
        return c.keeper is not None and row[0] == c.keeper

    async def close_loop_writers(self) -> None:
        """Close the event loop's connections (before :meth:`close`, on the loop)."""
        if self.loop_writers is not None:
            await self.loop_writers.close()

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        with self._owned_lock:
            owned, self._owned = self._owned, []
        for conn in owned:
            conn.close()
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------------
    def create_table(self, table: StoredTable) -> None:
        with self.sessions.begin() as s:
            s.add(
                TableRow(
                    id=table.id,
                    game=table.game,
                    players=table.players,
                    options=table.options,
                    seed=table.seed,
                    status=table.status,
                    result=None,
                    rematch_id=None,
                    created=table.created,
                    start=table.start,
                    public=table.public,
                    host_seat=table.host_seat,
                    time_control=table.time_control,
                )
            )
            s.flush()
            for seat in table.seats:
                s.add(
                    SeatRow(
                        table_id=table.id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        user_id=seat.user_id,
                        name=None if seat.user_id is not None else seat.name,  # an account's name is its own
                    )
                )
            for token_hash, seat_no in table.tokens.items():
                s.add(TokenRow(hash=token_hash, table_id=table.id, seat=seat_no, created=table.created))

    def add_token(self, table_id: str, token_hash: str, seat: int | None) -> None:
        with self.sessions.begin() as s:
            s.add(TokenRow(hash=token_hash, table_id=table_id, seat=seat, created=now()))

    def _write_in_transaction(
        self,
        table_id: str,
        action: StoredAction,
        stamp: datetime,
        params: dict[str, Any],
        c: Commit,
        finished: bool,
    ) -> bool:
        """:meth:`add_action` as separate statements in one transaction (SQLite's path), on the
        thread's own connection (no checkout from the pool, and no reset on its return)."""
        # Core statements built once per shape: this runs once per action, and building a
        # statement costs more than running it (the ORM unit of work, 3x more again).
        conn = self._own_connection()
        try:
            with conn.begin():  # committed on leaving, rolled back on an exception
                advance = advance_statement(c.revision is not None, finished, c.keeper is not None)
                row = conn.execute(advance, params).first()
                if row is None:
                    raise Conflict(table_id)
                try:
                    conn.execute(
                        INSERT_ACTION,
                        {
                            "table_id": table_id,
                            "ply": action.ply,
                            "text": action.text,
                            "actor": action.actor,
                            "barrier": action.barrier,
                            "created": stamp,
                        },
                    )
                except IntegrityError as exc:
                    raise Conflict(table_id) from exc
                if c.snapshot is not None:
                    conn.execute(
                        INSERT_SNAPSHOT,
                        {"table_id": table_id, "ply": action.ply, "position": c.snapshot, "created": stamp},
                    )
                if c.notify is not None:
                    self.notify_in(conn, c.notify)
                return c.keeper is not None and row[0] == c.keeper
        except BaseException:
            if conn.invalidated or conn.closed:
                self._drop_own(conn)
            raise

    def _own_connection(self) -> Connection:
        """This thread's connection for actions' writes (SQLite), kept between them (no
        checkout and no ping per write); checked with a ping once it sat idle
        :data:`PING_AFTER` seconds, and replaced if that fails. Each write begins and commits
        its own transaction."""
        own = self._own
        conn: Connection | None = getattr(own, "tx_conn", None)
        if conn is not None and (conn.invalidated or conn.closed):
            self._drop_own(conn)
            conn = None
        if conn is not None and time.monotonic() - own.tx_conn_used > PING_AFTER:
            try:
                conn.exec_driver_sql("SELECT 1")
                conn.commit()
            except DBAPIError:
                self._drop_own(conn)
                conn = None
        if conn is None:
            conn = self.engine.connect()
            own.tx_conn = conn
            with self._owned_lock:
                self._owned.append(conn)
        own.tx_conn_used = time.monotonic()
        return conn

    def _drop_own(self, conn: Connection) -> None:
        if getattr(self._own, "tx_conn", None) is conn:
            self._own.tx_conn = None
        with self._owned_lock:
            if conn in self._owned:
                self._owned.remove(conn)
        with contextlib.suppress(DBAPIError):  # a connection already broken: the pool forgets it
            conn.close()

    def delete_action(
        self, table_id: str, ply: int, revision: int | None = None, notify: str | None = None
    ) -> None:
        """Undo: remove the row of ``ply`` (the last one) and the snapshots from it on.

        :raises Conflict: if ``revision`` is given and the table's revision is no longer it."""
        with self.engine.begin() as conn:
            if revision is not None:
                bumped = conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id, TableRow.revision == revision)
                    .values(revision=revision + 1)
                )
                if bumped.rowcount != 1:
                    raise Conflict(table_id)
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.ply == ply))
            conn.execute(delete(SnapshotRow).where(SnapshotRow.table_id == table_id, SnapshotRow.ply >= ply))
            if notify is not None:
                self.notify_in(conn, notify)

    def notify_in(self, conn: Connection, payload: str) -> None:
        """Send ``payload`` on :data:`CHANNEL` when the transaction of ``conn`` commits
        (PostgreSQL; nothing on SQLite, where one process holds every table)."""
        if self.postgres:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload}
            )

    def publish(self, payload: str) -> None:
        """Send ``payload`` on :data:`CHANNEL` now (a change already committed)."""
        if self.postgres:
            with self.engine.begin() as conn:
                self.notify_in(conn, payload)

    # --- keepers: the process that runs a table's bots and clocks ----------------------------
    def keep(self, table_id: str, process: str, until: datetime, force: bool = False) -> bool:
        """Make ``process`` the table's keeper if it has none, or its keeper's claim ran out
        (``force``: in any case); answer whether ``process`` keeps it now."""
        with self.engine.begin() as conn:
            query = update(TableRow).where(TableRow.id == table_id)
            if not force:
                query = query.where(
                    or_(TableRow.keeper.is_(None), TableRow.keeper_until < now(), TableRow.keeper == process)
                )
            return conn.execute(query.values(keeper=process, keeper_until=until)).rowcount == 1

    def renew_keeps(self, process: str, until: datetime) -> None:
        """Extend the claims of ``process`` on the tables it keeps."""
        with self.engine.begin() as conn:
            conditions = [TableRow.keeper == process, TableRow.status.in_(LIVE_STATUSES)]
            if self.postgres:
                ids = self._lock_in_order(conn, *conditions)
                if not ids:
                    return
                conditions.append(TableRow.id.in_(ids))
            conn.execute(update(TableRow).where(*conditions).values(keeper_until=until))

    def release(self, process: str, table_ids: Iterable[str] | None = None) -> None:
        """``process`` stops keeping these tables (``None``: all of its tables)."""
        with self.engine.begin() as conn:
            conditions = [TableRow.keeper == process]
            if table_ids is not None:
                conditions.append(TableRow.id.in_(list(table_ids)))
            if self.postgres:
                ids = self._lock_in_order(conn, *conditions)
                if not ids:
                    return
                conditions.append(TableRow.id.in_(ids))
            conn.execute(update(TableRow).where(*conditions).values(keeper=None, keeper_until=None))

    @staticmethod
    def _lock_in_order(conn: Connection, *conditions: Any) -> list[str]:
        """PostgreSQL: lock the rows of the tables that meet ``conditions`` one after the
        other in the order of their ids (byte order, as Python sorts them), and answer their
        ids. A statement that changes several tables' rows takes their locks this way first:
        so do batches of actions' writes (``actionwrites.LoopWriters``), so the two never
        wait for each other in a circle (a deadlock, which PostgreSQL breaks only after a
        second)."""
        query = (
            select(TableRow.id)
            .where(*conditions)
            .order_by(TableRow.id.collate("C"))
            .with_for_update(key_share=True)
        )
        return list(conn.scalars(query))

    def claim_orphans(
        self, process: str, until: datetime, limit: int, driven_only: bool = True, force: bool = False
    ) -> list[str]:
        """Keep unfinished tables that have no keeper (or whose keeper's claim ran out), at most
        ``limit``, oldest first, and answer their ids: with ``driven_only``, only those that
        need a keeper now; with ``force``, whoever keeps them (a single process that just
        started: the claims of the process before it are void)."""
        with self.engine.begin() as conn:
            query = select(TableRow.id).where(TableRow.status.in_(LIVE_STATUSES))
            if force:  # every table not kept here yet
                free = or_(TableRow.keeper.is_(None), TableRow.keeper != process)
            else:
                free = or_(TableRow.keeper.is_(None), TableRow.keeper_until < now())
            if driven_only:
                query = query.where(TableRow.driven.is_(True))
            query = query.where(free)
            oldest_first = list(conn.scalars(query.order_by(TableRow.created).limit(limit)))
            ids = oldest_first
            if ids and self.postgres:
                ids = self._lock_in_order(conn, TableRow.id.in_(ids), free)
            if not ids:
                return []
            claim = update(TableRow).where(TableRow.id.in_(ids), free)
            got = conn.execute(claim.values(keeper=process, keeper_until=until).returning(TableRow.id))
            return sorted({r[0] for r in got}, key=oldest_first.index)

    def set_driven(self, table_id: str, driven: bool, notify: str | None = None) -> None:
        """Whether the table needs its keeper now; ``notify`` the other processes with it."""
        with self.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(driven=driven))
            if notify is not None:
                self.notify_in(conn, notify)

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        with self.sessions.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(rematch_id=rematch_id))

    # --- reads ----------------------------------------------------------------------------
    def table_exists(self, table_id: str) -> bool:
        with self.sessions() as s:
            return s.get(TableRow, table_id) is not None

    def load_table(self, table_id: str) -> StoredTable | None:
        """The table with all its actions and its latest snapshot, ``None`` if there is none."""
        with self.sessions() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._stored(s, row)

    def load_tables(self, table_ids: list[str]) -> dict[str, StoredTable]:
        """Several tables at once, as :meth:`load_table` gives each (five queries in all: a
        server resuming many tables does not pay a round of queries per table)."""
        if not table_ids:
            return {}
        wanted = list(dict.fromkeys(table_ids))
        with self.sessions() as s:
            rows = {r.id: r for r in s.scalars(select(TableRow).where(TableRow.id.in_(wanted)))}
            seats: dict[str, list[SeatSpec]] = {i: [] for i in rows}
            for r, account in s.execute(
                select(SeatRow, UserRow.name)
                .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
                .where(SeatRow.table_id.in_(list(rows)))
                .order_by(SeatRow.table_id, SeatRow.seat)
            ):
                seats[r.table_id].append(
                    SeatSpec(r.seat, r.kind, r.bot, r.user_id, account if account is not None else r.name)
                )
            tokens: dict[str, dict[str, int | None]] = {i: {} for i in rows}
            for token_hash, table_id, seat in s.execute(
                select(TokenRow.hash, TokenRow.table_id, TokenRow.seat).where(
                    TokenRow.table_id.in_(list(rows))
                )
            ):
                tokens[table_id][token_hash] = seat
            actions: dict[str, list[StoredAction]] = {i: [] for i in rows}
            for table_id, ply, action_text, actor, barrier in s.execute(
                select(ActionRow.table_id, ActionRow.ply, ActionRow.text, ActionRow.actor, ActionRow.barrier)
                .where(ActionRow.table_id.in_(list(rows)))
                .order_by(ActionRow.table_id, ActionRow.ply)
            ):
                actions[table_id].append(StoredAction(ply, action_text, actor, bool(barrier)))
            latest: dict[str, int] = {}
            for table_id, ply in s.execute(
                select(SnapshotRow.table_id, SnapshotRow.ply).where(SnapshotRow.table_id.in_(list(rows)))
            ):
                known = actions[table_id]
                if 0 < ply <= len(known) and known[ply - 1].ply == ply and ply > latest.get(table_id, 0):
                    latest[table_id] = ply
            positions: dict[str, dict[str, Any]] = {}
            if latest:
                for table_id, _ply, position in s.execute(
                    select(SnapshotRow.table_id, SnapshotRow.ply, SnapshotRow.position).where(
                        tuple_(SnapshotRow.table_id, SnapshotRow.ply).in_(list(latest.items()))
                    )
                ):
                    positions[table_id] = position
            out = {}
            for table_id, row in rows.items():
                snap = (latest[table_id], positions[table_id]) if table_id in positions else None
                out[table_id] = self._from_row(
                    row, seats[table_id], tokens[table_id], actions[table_id], snap
                )
            return out

    def load_actions(self, table_id: str) -> tuple[int, list[StoredAction]]:
        """The table's revision and every stored action (one consistent read)."""
        with self.sessions() as s, s.begin():
            revision = s.scalar(select(TableRow.revision).where(TableRow.id == table_id))
            actions = [
                StoredAction(r.ply, r.text, r.actor, r.barrier)
                for r in s.scalars(
                    select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.ply)
                )
            ]
            return int(revision or 0), actions

    def revisions(self, table_ids: list[str]) -> dict[str, int]:
        """The revision of each of these tables (one query; a table that does not exist is
        left out): whether a copy loaded earlier still holds every change stored."""
        if not table_ids:
            return {}
        with self.sessions() as s:
            query = select(TableRow.id, TableRow.revision).where(TableRow.id.in_(list(table_ids)))
            return {table_id: int(revision or 0) for table_id, revision in s.execute(query)}

    def load_meta(self, table_id: str) -> StoredTable | None:
        """The table without its actions and snapshot: seats, tokens, status (a table another
        process changed around its game: a seat taken, the start, a claim, a rematch)."""
        with self.sessions() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._stored(s, row, actions=False)

    def unfinished_ids(self) -> list[str]:
        with self.sessions() as s:
            query = (
                select(TableRow.id).where(TableRow.status.in_(("open", "playing"))).order_by(TableRow.created)
            )
            return list(s.scalars(query))

    def lookup(self, hashes: Iterable[str]) -> list[Access]:
        """What these token hashes open, newest table first."""
        wanted = sorted(set(hashes))
        if not wanted:
            return []
        with self.sessions() as s:
            query = (
                select(TokenRow, TableRow)
                .join(TableRow, TokenRow.table_id == TableRow.id)
                .where(TokenRow.hash.in_(wanted))
            )
            out = [
                Access(t.id, t.game, t.players, t.status, tok.seat, _aware(t.created), t.outcome)
                for tok, t in s.execute(query)
            ]
        out.sort(key=lambda a: a.created, reverse=True)
        return out

    @staticmethod
    def _stored(s: Session, row: TableRow, actions: bool = True) -> StoredTable:
        seats = [
            SeatSpec(r.seat, r.kind, r.bot, r.user_id, account if account is not None else r.name)
            for r, account in s.execute(
                select(SeatRow, UserRow.name)
                .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
                .where(SeatRow.table_id == row.id)
                .order_by(SeatRow.seat)
            )
        ]
        tokens = {r.hash: r.seat for r in s.scalars(select(TokenRow).where(TokenRow.table_id == row.id))}
        stored: list[StoredAction] = []
        snapshot = None
        if actions:
            stored = [
                StoredAction(r.ply, r.text, r.actor, r.barrier)
                for r in s.scalars(
                    select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.ply)
                )
            ]
            snap = s.scalars(
                select(SnapshotRow)
                .where(SnapshotRow.table_id == row.id, SnapshotRow.ply <= len(stored))
                .order_by(SnapshotRow.ply.desc())
                .limit(1)
            ).first()
            if snap is not None and 0 < snap.ply <= len(stored) and stored[snap.ply - 1].ply == snap.ply:
                snapshot = (snap.ply, snap.position)
        return Store._from_row(row, seats, tokens, stored, snapshot)

    @staticmethod
    def _from_row(
        row: TableRow,
        seats: list[SeatSpec],
        tokens: dict[str, int | None],
        actions: list[StoredAction],
        snapshot: tuple[int, dict[str, Any]] | None,
    ) -> StoredTable:
        return StoredTable(
            id=row.id,
            game=row.game,
            players=row.players,
            options=dict(row.options),
            seed=int(row.seed),
            status=row.status,
            result=row.result,
            rematch_id=row.rematch_id,
            created=_aware(row.created),
            seats=seats,
            tokens=tokens,
            actions=actions,
            start=row.start,
            public=bool(row.public),
            host_seat=row.host_seat,
            time_control=row.time_control,
            revision=int(row.revision or 0),
            snapshot=snapshot,
        )
