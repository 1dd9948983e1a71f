"""Synchronous database operations of the server, one short transaction each.

The table manager calls these through :meth:`Store.run`, which runs them in one database
thread: a slow database never blocks the event loop, and commits happen in the order they
were asked for. Every write is committed when its function returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from ziggurat.server.db import ActionRow, SeatRow, TableRow, TokenRow, UserRow

T = TypeVar("T")


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


def now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite forgets the zone


class Store:
    """The server's database; see the module docstring for the threading."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ziggurat-db")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the database thread and wait for its result."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
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

    def add_action(
        self,
        table_id: str,
        action: StoredAction,
        status: str,
        result: list[float] | None,
        outcome: dict[str, Any] | None = None,
    ) -> None:
        """Store one applied action, and the table's status (its result, how it was won and
        when it finished) once the game is over."""
        # Core statements: this runs once per action, and the ORM unit of work costs 3x more.
        with self.engine.begin() as conn:
            conn.execute(
                insert(ActionRow),
                {
                    "table_id": table_id,
                    "ply": action.ply,
                    "text": action.text,
                    "actor": action.actor,
                    "barrier": action.barrier,
                    "created": now(),
                },
            )
            if status != "playing":
                conn.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(status=status, result=result, outcome=outcome, finished=now())
                )

    def delete_action(self, table_id: str, ply: int) -> None:
        """Undo: remove the row of ``ply`` (the last one)."""
        with self.engine.begin() as conn:
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.ply == ply))

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        with self.sessions.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(rematch_id=rematch_id))

    # --- reads ----------------------------------------------------------------------------
    def table_exists(self, table_id: str) -> bool:
        with self.sessions() as s:
            return s.get(TableRow, table_id) is not None

    def load_table(self, table_id: str) -> StoredTable | None:
        with self.sessions() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._stored(s, row)

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
    def _stored(s: Session, row: TableRow) -> StoredTable:
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
        actions = [
            StoredAction(r.ply, r.text, r.actor, r.barrier)
            for r in s.scalars(select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.ply))
        ]
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
        )
