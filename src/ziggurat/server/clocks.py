"""The clocks of a timed table, owned by the server (docs/server.md, "Time controls").

Each human seat of a table with a time control (``server/timecontrol.py``) has a clock:

- **real-time**: it starts with the budget; while the seat is to move it counts down, and
  after each of the seat's decisions the increment is added;
- **turn-based**: a seat's turn starts when it becomes the seat to move after another seat or
  chance moved; its clock is then set to the time per turn. Consecutive decisions of the same
  seat are one turn.

Only the seat to move (``state.current_player()``) counts, and nothing counts while the table
is ``open``, over, or at chance or a bot's seat. A real-time table's clocks wait for their
players: none counts until every human seat's player has come to the table once (a socket of
the seat's token opened, or the seat was taken in the lobby: :meth:`TableClocks.arrive`). A clock never goes below 0. When it reaches 0
the seat has timed out; ``grace`` seconds later, if its player still has not moved, a bot of
the table's ``takeover`` level plays the seat (it reads ``state.view(seat)`` only, like every
bot seat) and the log says so. While a bot plays the seat its clock does not count (real-time:
it stays at 0; turn-based: the bot plays each turn at once). The seat's player takes the seat
back with ``{"type": "take_back"}`` on the socket or ``POST /api/tables/{id}/take-back``:
a bot still deciding is stopped and its move dropped, so the player makes that decision; the
clock restarts with :data:`TAKE_BACK_ALLOWANCE` at least (real-time) or a fresh turn.

Clocks are written to ``seat_clocks`` right after each committed change, as of when they last
started counting (``running_since``, wall clock); counting itself uses the event loop's clock.
Every :data:`HEARTBEAT_INTERVAL` seconds the server writes a heartbeat. When a server starts,
a clock that was counting is charged only up to the last heartbeat of the server before it (or
nothing, if that is older than the clock's ``running_since``): the time the server was down is
not charged, and a player loses at most one heartbeat interval to a stop.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, status
from pydantic import BaseModel
from sqlalchemy import delete, func, insert, select, update

from ziggurat.bots.base import close_bot, make_bot
from ziggurat.engine.messages import LANGS, Message, message, render
from ziggurat.server import gamekit
from ziggurat.server.db import HeartbeatRow, SeatClockRow
from ziggurat.server.store import Store, _aware, now

if TYPE_CHECKING:
    from ziggurat.server.live import LiveTable

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 5.0
"""Seconds between two heartbeats: the most a player's clock can lose to a server stop."""
TAKE_BACK_ALLOWANCE = 30.0
"""Real-time: a player who takes their seat back has at least this many seconds (or the
increment, if larger), so they are not timed out again at once."""

CLOCK: Callable[[], float] | None = None
"""The clocks' time source in seconds (``None``: the event loop's clock); tests set a clock
they move by hand. Timers still wait on the event loop and check the time again when they fire."""


@dataclass(slots=True)
class SeatClock:
    """One seat's clock: ``remaining`` seconds as of ``since`` (loop time) while it counts."""

    seat: int
    remaining: float
    since: float | None = None  # the event loop's time it started counting (None: stopped)
    since_wall: datetime | None = None
    timed_out: datetime | None = None  # when it ran out (the grace period started)
    bot_since_ply: int | None = None  # a bot plays the seat from this ply on
    arrived: bool = True  # its player has come to the table (real-time clocks wait for it)


# --- storage (run in the database thread through Store.run) -------------------------------------
def load_clocks(store: Store, table_id: str) -> list[SeatClockRow]:
    with store.sessions() as s:
        rows = s.scalars(
            select(SeatClockRow).where(SeatClockRow.table_id == table_id).order_by(SeatClockRow.seat)
        )
        return list(rows)


def save_clocks(store: Store, table_id: str, rows: list[dict[str, Any]]) -> None:
    """Replace the table's clocks with ``rows`` (one transaction). An arrival already stored
    stays (a player who came never leaves: another process may have stored one meanwhile)."""
    with store.engine.begin() as conn:
        if not all(r["arrived"] for r in rows):  # once all have come (most saves), nothing to read
            came = set(
                conn.scalars(
                    select(SeatClockRow.seat).where(SeatClockRow.table_id == table_id, SeatClockRow.arrived)
                )
            )
            rows = [{**r, "arrived": r["arrived"] or r["seat"] in came} for r in rows]
        conn.execute(delete(SeatClockRow).where(SeatClockRow.table_id == table_id))
        if rows:
            conn.execute(insert(SeatClockRow), rows)


def mark_arrived(store: Store, table_id: str, seat: int) -> None:
    """Store that ``seat``'s player has come to the table (that row only)."""
    with store.engine.begin() as conn:
        conn.execute(
            update(SeatClockRow)
            .where(SeatClockRow.table_id == table_id, SeatClockRow.seat == seat)
            .values(arrived=True)
        )


def last_heartbeat(store: Store) -> datetime | None:
    """When a server was last seen alive (the latest heartbeat of any process), or ``None``."""
    with store.sessions() as s:
        seen = s.scalar(select(func.max(HeartbeatRow.seen)))
        return None if seen is None else _aware(seen)


def write_heartbeat(store: Store, process: str, when: datetime, first: bool = False) -> None:
    """This process is alive at ``when``; its ``first`` heartbeat also drops those of
    processes gone for a day (only the latest heartbeat is ever read; other processes sharing
    the database keep theirs)."""
    with store.sessions.begin() as s:
        if first:
            s.execute(delete(HeartbeatRow).where(HeartbeatRow.seen < when - timedelta(days=1)))
        row = s.get(HeartbeatRow, process)
        if row is None:
            s.add(HeartbeatRow(process=process, seen=when))
        else:
            row.seen = when


def live_processes(store: Store, since: datetime) -> set[str]:
    """The processes whose last heartbeat is newer than ``since``."""
    with store.sessions() as s:
        return set(s.scalars(select(HeartbeatRow.process).where(HeartbeatRow.seen > since)))


def new_process_id() -> str:
    """A name for this server process, unique among the processes sharing a database."""
    return f"server-{uuid.uuid4().hex[:16]}"


class Heartbeat:
    """This process's heartbeat: written at start, every :data:`HEARTBEAT_INTERVAL` seconds
    and at a clean stop."""

    def __init__(
        self,
        store: Store,
        interval: float = HEARTBEAT_INTERVAL,
        process: str | None = None,
        on_beat: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.interval = interval
        self.process = process or new_process_id()
        self.on_beat = on_beat
        """Awaited after each heartbeat (the table manager renews and adopts its tables)."""
        self._task: asyncio.Task[None] | None = None

    async def begin(self) -> datetime | None:
        """Start beating; return the last heartbeat written before this process started."""
        before = await self.store.run(last_heartbeat, self.store)
        await self.store.run(write_heartbeat, self.store, self.process, now(), True)
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="heartbeat")
        return before

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.store.run(write_heartbeat, self.store, self.process, now())
            except Exception:  # a database hiccup must not stop the heartbeat for good
                log.exception("heartbeat not written")
            if self.on_beat is not None:
                try:
                    await self.on_beat()
                except Exception:
                    log.exception("the tables' upkeep failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            await self.store.run(write_heartbeat, self.store, self.process, now())


# --- the clocks of one table ----------------------------------------------------------------------
class TableClocks:
    """The clocks of one live table; every method that changes them runs under the table's lock
    (the timers take it themselves)."""

    def __init__(self, table: LiveTable) -> None:
        tc = table.time_control
        if tc is None:
            raise ValueError(f"table {table.id} has no time control")
        self.table = table
        self.tc = tc
        start = tc.per_turn if tc.turn_based else tc.budget
        # a real-time table's clocks wait until every player has come to the table
        self.seats = [SeatClock(i, start, arrived=tc.turn_based) for i in range(table.game.num_players)]
        self.running: int | None = None  # the seat whose clock counts
        self.grace: tuple[int, float] | None = None  # (seat, loop time the grace ends)
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._storing: set[asyncio.Task[None]] = set()  # arrivals being stored
        self._closed = False

    # --- facts ------------------------------------------------------------------------------
    def _now(self) -> float:
        if CLOCK is not None:
            return CLOCK()
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:  # read outside the loop: the same monotonic clock asyncio's loop reads
            return time.monotonic()

    def clocked(self, seat: int) -> bool:
        """The seat has a clock: its player is a person (a bot seat has none)."""
        return self.table.seats[seat].kind != "bot"

    def waiting_for(self) -> list[int]:
        """The human seats whose players have not come to the table yet: while there is one,
        no clock counts (real-time; a turn-based table never waits)."""
        return [c.seat for c in self.seats if not c.arrived and self.clocked(c.seat)]

    def mover(self) -> int | None:
        """The seat with a decision now (``None``: open, over, or chance to move)."""
        t = self.table
        if t.open or t.state.is_terminal():
            return None
        who = t.state.current_player()
        return who if who >= 0 else None

    def left(self, seat: int, at: float | None = None) -> float:
        """Seconds left on the seat's clock now (never below 0)."""
        c = self.seats[seat]
        if c.since is None:
            return max(0.0, c.remaining)
        return max(0.0, c.remaining - ((self._now() if at is None else at) - c.since))

    def seat_payload(self, seat: int) -> dict[str, Any] | None:
        """``{"remaining", "running", "timed_out", "bot", "bot_since_ply", "grace", "arrived"}``
        of one seat (``None`` for a bot seat); ``grace``: seconds before a bot takes over, while
        timed out; ``arrived``: its player has come to the table (no real-time clock counts
        until every player has)."""
        if not self.clocked(seat):
            return None
        c = self.seats[seat]
        grace = None
        if self.grace is not None and self.grace[0] == seat:
            grace = round(max(0.0, self.grace[1] - self._now()), 3)
        return {
            "remaining": round(self.left(seat), 3),
            "running": c.since is not None,
            "timed_out": c.timed_out is not None,
            "bot": self.tc.takeover if c.bot_since_ply is not None else None,
            "bot_since_ply": c.bot_since_ply,
            "grace": grace,
            "arrived": c.arrived,
        }

    def payload(self) -> list[dict[str, Any] | None]:
        return [self.seat_payload(s) for s in range(len(self.seats))]

    # --- changes ----------------------------------------------------------------------------
    def _stop(self, at: float) -> int | None:
        seat = self.running
        if seat is not None:
            c = self.seats[seat]
            c.remaining = self.left(seat, at)
            c.since = c.since_wall = None
            self.running = None
        return seat

    def _start(self, seat: int, at: float, fresh_turn: bool) -> None:
        c = self.seats[seat]
        if self.tc.turn_based and fresh_turn:
            c.remaining = self.tc.per_turn
        c.since, c.since_wall = at, now()
        self.running = seat

    def _counts(self, seat: int) -> bool:
        c = self.seats[seat]
        return (
            self.clocked(seat) and c.bot_since_ply is None and c.timed_out is None and not self.waiting_for()
        )

    def changed(self, actor: int | None) -> None:
        """The game changed (``actor`` played, or ``None``: an undo, the start of the game):
        stop the clock that counted, add the increment, start the seat to move's."""
        at = self._now()
        mover = self.mover()
        before = self._stop(at)
        in_grace = self.grace is not None and self.grace[0] == actor
        if actor is not None and (actor == before or in_grace) and not self.tc.turn_based:
            self.seats[actor].remaining += self.tc.increment
        if actor is not None and actor >= 0:
            self.seats[actor].timed_out = None  # it moved in its grace period
        if self.grace is not None and self.grace[0] != mover:
            self.seats[self.grace[0]].timed_out = None  # no longer to move: the grace is moot
            self.grace = None
        if self.grace is not None and actor == self.grace[0]:
            self.grace = None
        if mover is not None and self._counts(mover):
            same_turn = before == mover and actor in (mover, None)
            self._start(mover, at, fresh_turn=not same_turn)
        elif mover is not None and self.clocked(mover) and self.grace is None:
            c = self.seats[mover]
            if c.timed_out is not None and c.bot_since_ply is None:  # timed out, to move: the grace runs
                self.grace = (mover, at + self.tc.grace)
        self._arm()

    def arrive(self, seat: int) -> bool:
        """The seat's player has come to the table (the table's lock is held); answer whether
        it is the first time. The first time, it is stored and every process told, without
        waiting (a socket that closes at once must not leave it half done). When it was the
        last player awaited, the seat to move's clock starts now, a fresh turn: here if this
        process keeps the table, else in the keeper once it reads the arrival (:meth:`reload`)."""
        c = self.seats[seat]
        if c.arrived or not self.clocked(seat):
            return False
        c.arrived = True
        rows = None
        if self.table.keeper:
            self._start_if_due()
            rows = self.rows()
        task = asyncio.get_running_loop().create_task(self._store_arrival(seat, rows))
        self._storing.add(task)  # not cancelled by close(): settle() waits for it
        task.add_done_callback(self._storing.discard)
        return True

    def _start_if_due(self) -> bool:
        """Start the seat to move's clock if it should count and nothing counts (the last
        player awaited has come); answer whether it started."""
        mover = self.mover()
        if mover is None or self.running is not None or not self._counts(mover):
            return False
        self._start(mover, self._now(), fresh_turn=True)
        self._arm()
        return True

    async def _store_arrival(self, seat: int, rows: list[dict[str, Any]] | None) -> None:
        """Store an arrival (that row alone, so that two arrivals stored by two processes at
        once both stay), and the keeper's clocks with it; then tell every process."""
        store = self.table.store
        await store.run(mark_arrived, store, self.table.id, seat)
        if rows is not None:
            await store.run(save_clocks, store, self.table.id, rows)
        await self.table.publish_meta()

    def _arm(self) -> None:
        """One timer per table: for the clock that counts, or the grace period running."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._closed or not self.table.keeper:  # only the table's keeper runs its timers
            return
        loop = asyncio.get_running_loop()
        if self.running is not None:
            seat = self.running
            self._timer = loop.call_later(self.left(seat), self._spawn, self._ran_out, seat)
        elif self.grace is not None:
            seat, until = self.grace
            self._timer = loop.call_later(max(0.0, until - self._now()), self._spawn, self._take_over, seat)

    def _spawn(self, fn: Callable[[int], Any], seat: int) -> None:
        task = asyncio.get_running_loop().create_task(fn(seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ran_out(self, seat: int) -> None:
        t = self.table
        async with t.lock:
            if self._closed or self.running != seat:
                return
            if self.left(seat) > 0:  # woken early: wait for the rest
                self._arm()
                return
            self._stop(self._now())
            c = self.seats[seat]
            c.remaining = 0.0
            c.timed_out = now()
            self.grace = (seat, self._now() + self.tc.grace)
            await self.save()
            await t.publish_meta()
            t._broadcast()
            self._arm()

    async def _take_over(self, seat: int) -> None:
        t = self.table
        async with t.lock:
            if self._closed or self.grace is None or self.grace[0] != seat or self.mover() != seat:
                return
            self.grace = None
            c = self.seats[seat]
            c.bot_since_ply = len(t.rows) + 1
            t.bots[seat] = make_bot(gamekit.bot_spec(self.tc.takeover), t.game, seat)
            t.changes += 1
            self._announce(
                c.bot_since_ply,
                seat,
                message("clock.takeover", seat=self._label(seat), level=self.tc.takeover),
            )
            await self.save()
            await t.publish_meta()
            t._broadcast()
            t._schedule()  # the bot plays the seat now

    async def take_back(self, seat: int | None) -> None:
        """The seat's player plays it again from its next decision (a bot deciding now is
        stopped: its move is dropped). :raises Refused: if no bot plays the seat."""
        from ziggurat.server.live import Refused

        t = self.table
        if seat is None:
            raise Refused("forbidden", "a spectator token can only watch")
        async with t.lock:
            c = self.seats[seat]
            if c.bot_since_ply is None:
                raise Refused("no_takeover", message("clock.noTakeover"))
            bot = t.bots.pop(seat)
            close_bot(bot)
            c.bot_since_ply = None
            c.timed_out = None
            if self.tc.turn_based:
                c.remaining = self.tc.per_turn
            else:
                c.remaining = max(c.remaining, self.tc.increment, TAKE_BACK_ALLOWANCE)
            t.changes += 1  # a bot's decision under way is dropped (the driver sees the change)
            said = message("clock.takeBack", seat=self._label(seat, subject=True))
            self._announce(len(t.rows) + 1, seat, said)
            if self.mover() == seat:
                self._start(seat, self._now(), fresh_turn=False)
            await self.save()
            await t.publish_meta()
            self._arm()
            t._broadcast()

    def _label(self, seat: int, subject: bool = False) -> Any:
        """How the log names ``seat`` at the start of its sentences. The engine contract's name
        of a seat inside a message (``State._seat_label``) may be lowercase (Epochs' "head", as
        its notation writes it): when it is the game's name of the seat but for case, in every
        language, the game's capitalised name (``Game.seat_label``: "Head", "Red") is used; a
        name that changed in play (Mare Nostrum's empire, once dealt) is kept as it is, but
        where a sentence starts with it in every language (``subject``) a state that names
        its seats as subjects (``_seat_subject``: Mare Nostrum's French "La Grèce") says it so."""
        t = self.table
        as_subject = getattr(t.state, "_seat_subject", None) if subject else None
        if as_subject is not None:
            return as_subject(seat)
        inside = t.state._seat_label(seat)
        named = t.game.seat_label(seat)
        if all(render(inside, lang).casefold() == render(named, lang).casefold() for lang in LANGS):
            return named
        return inside

    def _announce(
        self, ply: int, seat: int, sentence: Message, viewers: Iterable[int | None] | None = None
    ) -> None:
        """A log entry for everybody (a server's sentence, not a game event): in the log of
        ``viewers`` (default: every watched viewer's)."""
        t = self.table
        if not t.history_ready:
            return  # the log is built later (LiveTable.ensure_history), with the takeovers
        entry = {
            "ply": ply,
            "colour": t.colours[seat],
            "text": "",
            "sentence": str(sentence),
            "event": sentence.to_json(),
        }
        text = json.dumps(entry, separators=(",", ":"))
        for v in t.watched if viewers is None else viewers:
            at = bisect.bisect_left(t.log_plies[v], ply)
            t.logs[v].insert(at, text)
            t.log_plies[v].insert(at, ply)
            if at < t.synced[v]:  # an entry before what sockets hold: send the log from there
                t.synced[v] = at

    # --- storage ----------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        out = []
        for c in self.seats:
            out.append(
                {
                    "table_id": self.table.id,
                    "seat": c.seat,
                    "remaining_ms": round(max(0.0, c.remaining) * 1000),
                    "running_since": c.since_wall if c.since is not None else None,
                    "timed_out": c.timed_out,
                    "bot_since_ply": c.bot_since_ply,
                    "arrived": c.arrived,
                }
            )
        return out

    async def save(self) -> None:
        await self.table.store.run(save_clocks, self.table.store, self.table.id, self.rows())

    def save_soon(self) -> None:
        """Store the clocks as they are now, without waiting (for a caller that cannot await)."""
        rows = self.rows()
        task = asyncio.get_running_loop().create_task(
            self.table.store.run(save_clocks, self.table.store, self.table.id, rows)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def resume(self, last_alive: datetime | None) -> None:
        """Load the stored clocks (a new table: start them). A clock that was counting is
        charged up to ``last_alive`` (the last heartbeat before this server started), never
        for the time the server was down; a seat in its grace period gets a full one again."""
        t = self.table
        stored = await t.store.run(load_clocks, t.store, t.id)
        at = self._now()
        mover = self.mover()
        running = None
        for row in stored:
            if not 0 <= row.seat < len(self.seats):
                continue
            c = self.seats[row.seat]
            c.remaining = row.remaining_ms / 1000
            c.timed_out = None if row.timed_out is None else _aware(row.timed_out)
            c.bot_since_ply = row.bot_since_ply
            c.arrived = row.arrived
            if row.running_since is not None:
                since = _aware(row.running_since)
                if last_alive is not None and last_alive > since:
                    c.remaining = max(0.0, c.remaining - (last_alive - since).total_seconds())
                running = row.seat
            if c.bot_since_ply is not None:
                t.bots[row.seat] = make_bot(gamekit.bot_spec(self.tc.takeover), t.game, row.seat)
                label = self._label(row.seat)
                level = self.tc.takeover
                self._announce(c.bot_since_ply, row.seat, message("clock.takeover", seat=label, level=level))
        if (
            mover is not None
            and self.seats[mover].timed_out is not None
            and self.seats[mover].bot_since_ply is None
        ):
            self.grace = (mover, at + self.tc.grace)
        if mover is not None and self._counts(mover):
            self._start(mover, at, fresh_turn=not stored or running != mover)
        if t.keeper:
            await self.save()
        self._arm()

    async def reload(self) -> None:
        """Read the clocks as another process stored them (a copy of a table kept elsewhere,
        or one this process starts keeping): a clock that counts was started at its stored
        ``running_since``, and the bots that took seats over play them here too."""
        t = self.table
        stored = await t.store.run(load_clocks, t.store, t.id)
        at, wall = self._now(), now()
        self.running = None
        self.grace = None
        for row in stored:
            if not 0 <= row.seat < len(self.seats):
                continue
            c = self.seats[row.seat]
            c.remaining = row.remaining_ms / 1000
            c.since = c.since_wall = None
            c.timed_out = None if row.timed_out is None else _aware(row.timed_out)
            c.bot_since_ply = row.bot_since_ply
            c.arrived = row.arrived
            if row.running_since is not None:
                since = _aware(row.running_since)
                c.since = at - max(0.0, (wall - since).total_seconds())
                c.since_wall = since
                self.running = row.seat
            if c.bot_since_ply is not None and row.seat not in t.bots:
                t.bots[row.seat] = make_bot(gamekit.bot_spec(self.tc.takeover), t.game, row.seat)
            elif c.bot_since_ply is None and row.seat in t.bots and t.seats[row.seat].kind != "bot":
                close_bot(t.bots.pop(row.seat))
        mover = self.mover()
        if (
            mover is not None
            and self.seats[mover].timed_out is not None
            and self.seats[mover].bot_since_ply is None
        ):
            self.grace = (mover, at + self.tc.grace)
        self._arm()
        if t.keeper and self._start_if_due():  # another process stored the last arrival
            await self.save()
            await t.publish_meta()

    def announce_takeovers(self, viewers: Iterable[int | None] | None = None) -> None:
        """Log entries for the seats bots took over (after the log of ``viewers``, default
        every watched viewer's, was built again)."""
        for c in self.seats:
            if c.bot_since_ply is not None:
                self._announce(
                    c.bot_since_ply,
                    c.seat,
                    message("clock.takeover", seat=self._label(c.seat), level=self.tc.takeover),
                    viewers,
                )

    async def settle(self) -> None:
        """Wait until the arrivals under way are stored (before the table leaves memory)."""
        if self._storing:
            await asyncio.gather(*self._storing, return_exceptions=True)

    def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()


# --- HTTP ----------------------------------------------------------------------------------------
router = APIRouter(tags=["tables"])
TokenHeader = Annotated[str | None, Header(alias="X-Ziggurat-Token", description="the seat's token")]


class TakeBackOut(BaseModel):
    table: str
    seat: int
    clock: dict[str, Any] | None


@router.post(
    "/api/tables/{table_id}/take-back",
    response_model=TakeBackOut,
    responses={
        403: {"description": "a wrong or a spectator token"},
        404: {"description": "no such table"},
        409: {"description": "no bot plays the seat"},
        503: {"description": "the stored table cannot be resumed"},
    },
)
async def take_back(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> TakeBackOut:
    """The seat's player takes their seat back from the bot that took it over when their clock
    ran out; the bot stops from the seat's next decision on."""
    from ziggurat.server.live import Forbidden, Refused
    from ziggurat.server.manager import TableUnavailable, hash_token

    try:
        table = await request.app.state.manager.get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    try:
        seat = table.viewer_of(hash_token(x_ziggurat_token))
    except Forbidden as exc:
        raise HTTPException(status.HTTP_403_FORBIDDEN, str(exc)) from exc
    if seat is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "a spectator token has no seat to take back")
    if table.clocks is None:
        raise HTTPException(status.HTTP_409_CONFLICT, "this table has no clock: no bot takes a seat over")
    try:
        await table.clocks.take_back(seat)
    except Refused as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, exc.message) from exc
    return TakeBackOut(table=table.id, seat=seat, clock=table.clocks.seat_payload(seat))
