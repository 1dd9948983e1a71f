"""The table manager: creates, loads, resumes and closes live tables; issues tokens.

A table is loaded on first use, from its latest snapshot (only the actions after it are
replayed), and leaves memory once nobody watches it and it needs nothing from the server
(finished, or a person to move without a clock) for :data:`IDLE_SECONDS`.

Several processes may share one PostgreSQL database (docs/server.md, "Several processes"):
any of them loads any table; one of them, the table's *keeper*, runs its bots, chance and
clocks. A process keeps the tables it creates or loads first, renews its claim with every
heartbeat, and adopts the tables that need a keeper and have none or whose keeper's claim ran
out (a process that stopped). At start a process adopts such tables; on SQLite, the only
process adopts every unfinished table.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ziggurat.engine.registry import load
from ziggurat.server import gamekit, presence, ratings
from ziggurat.server.botpool import BotPool
from ziggurat.server.bus import Bus, Note
from ziggurat.server.clocks import HEARTBEAT_INTERVAL, live_processes, new_process_id
from ziggurat.server.db import SEAT_KINDS
from ziggurat.server.ids import is_table_id
from ziggurat.server.live import Forbidden, LiveTable
from ziggurat.server.presence import GONE_AFTER
from ziggurat.server.store import SeatSpec, Store, StoredTable, now
from ziggurat.server.timecontrol import TimeControl

log = logging.getLogger(__name__)

MAX_SEED = 2**63
MAX_LOOKUP_TOKENS = 100
KEEPER_LEASE = 3 * HEARTBEAT_INTERVAL
"""Seconds a keeper's claim on a table holds without being renewed (by its heartbeat)."""
IDLE_SECONDS = 60.0
"""A table nobody watches and that needs nothing from the server leaves memory after this."""
ADOPT_BATCH = 200
"""Tables adopted at most per heartbeat (and per query at start)."""
LOAD_CONCURRENCY = 4
LOAD_BATCH = 50
"""Tables read from the database in one go when many are resumed."""


def new_token() -> str:
    """32 url-safe random characters."""
    return secrets.token_urlsafe(24)


def hash_token(token: str | None) -> str | None:
    """The SHA-256 (hex) the database keeps instead of a token."""
    if not token:
        return None
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class TableUnavailable(LookupError):
    """A stored table that cannot be loaded (its options or actions no longer replay)."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id} cannot be resumed: {reason}")
        self.table_id = table_id
        self.reason = reason


MAX_REASON = 500
"""Characters of a failed table's reason kept for the log and ``/healthz``."""


def _reason(exc: BaseException) -> str:
    """One line saying why: the engine's own message, or the error's kind and message."""
    text = " ".join(str(exc).split())
    if not (isinstance(exc, ValueError) and text):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 3] + "..."


Host = tuple[int | None, str | None]
"""Who creates a public table and sits at its host seat: ``(account id or None, name)``."""


def _host_seat(seats: list[SeatSpec], public: bool) -> int | None:
    """The host's seat of a public table (its one human seat), ``None`` for a private table.

    :raises ValueError: for an open seat at a private table, or a public table without exactly
        one human seat.
    """
    for seat in seats:
        if seat.kind not in SEAT_KINDS:
            raise ValueError(
                f"seat {seat.seat + 1}: unknown kind {seat.kind!r}; kinds: {', '.join(SEAT_KINDS)}"
            )
    if not public:
        if any(s.kind == "open" for s in seats):
            raise ValueError(
                "a private table has no open seats: list it in the public lobby (public: true), "
                "or make every seat a human or a bot"
            )
        return None
    humans = [s.seat for s in seats if s.kind == "human"]
    if len(humans) != 1:
        raise ValueError(
            "a public table has exactly one human seat, the host's: make the others open seats "
            f"(players take them from the lobby) or bots ({len(humans)} human seats given)"
        )
    return humans[0]


@dataclass
class Created:
    """A new table with the tokens issued for it (shown once, never stored)."""

    table: LiveTable
    tokens: dict[int, str] = field(default_factory=dict)
    spectator_token: str = ""


class TableManager:
    """All live tables of one server process."""

    def __init__(
        self,
        store: Store,
        bot_delay: float,
        bot_workers: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        """``bot_workers``: the worker processes where thinking bots decide (``None``: the
        bot pool's default, ``0``: no pool, they decide in worker threads)."""
        self.store = store
        self.bot_delay = bot_delay
        self.bot_pool = BotPool(bot_workers) if bot_workers != 0 else None
        """Given to every table; its workers start with the first decision of a thinking bot."""
        self.idle_seconds = idle_seconds
        self.process = new_process_id()
        self.bus = Bus(store.engine, self.process, self.on_note, self.resync)
        self.note_handlers: dict[str, Callable[[LiveTable, Note], Awaitable[None]]] = {
            "presence": _heard_presence
        }
        """Kinds of notes other modules read (chat, presence): ``(table, note)``, awaited."""
        self.evicted = 0
        self.tables: dict[str, LiveTable] = {}
        self.resumed = 0
        self.failed: dict[str, str] = {}  # table id -> why it could not be loaded
        self.last_alive: datetime | None = None  # the last heartbeat before this server (clocks.py)
        self.mover_listeners: list[Callable[[LiveTable, int | None], None]] = []
        """Given to every table (``LiveTable.mover_listeners``) before it starts."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._rematch_lock = asyncio.Lock()

    def _until(self) -> datetime:
        return now() + timedelta(seconds=KEEPER_LEASE)

    async def start(self) -> None:
        """Listen to the other processes, and resume the unfinished tables no other process
        keeps (on SQLite: every unfinished table); their bots, chance and clocks continue.

        A table that cannot be resumed is logged in one line naming it and the reason, and
        listed by :meth:`health`; every other table still resumes.
        """
        await self.bus.start()
        await self.adopt(starting=True)

    async def adopt(self, starting: bool = False) -> int:
        """Keep and load the tables that need a keeper and have none; ``starting``: every
        unfinished table without a keeper (on SQLite, where this is the only process: every
        unfinished table). Answer how many."""
        adopted = 0
        seen: set[str] = set()
        while True:
            ids = await self.store.run(
                self.store.claim_orphans,
                self.process,
                self._until(),
                ADOPT_BATCH,
                not starting,
                starting and not self.store.postgres,
            )
            ids = [i for i in ids if i not in self.failed and i not in seen]
            seen.update(ids)
            for table_id in ids:
                if table_id in self.tables:
                    await self._became_keeper(self.tables[table_id])
            fresh = [i for i in ids if i not in self.tables]
            gate = asyncio.Semaphore(LOAD_CONCURRENCY)
            for start in range(0, len(fresh), LOAD_BATCH):
                batch = fresh[start : start + LOAD_BATCH]
                stored = await self.store.run(self.store.load_tables, batch)
                await asyncio.gather(*(self._resume(i, gate, stored.get(i)) for i in batch))
                if self.store.postgres:
                    await self._catch_up_changed(batch)
            adopted += len(ids)
            if not ids:
                return adopted

    async def _resume(
        self, table_id: str, gate: asyncio.Semaphore, stored: StoredTable | None = None
    ) -> None:
        async with gate:
            try:
                if await self.get(table_id, stored, adopted=True) is not None:
                    self.resumed += 1
            except TableUnavailable:
                pass  # logged and listed by get

    async def _catch_up_changed(self, table_ids: list[str]) -> None:
        """After tables were loaded (a batch of adopted ones, or one): those another process
        changed since they were read catch up (one query for their revisions instead of every
        table's actions read again)."""
        revisions = await self.store.run(self.store.revisions, table_ids)
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is not None and revisions.get(table_id, table.revision) != table.revision:
                async with table.lock:
                    await table.catch_up()

    async def _became_keeper(self, table: LiveTable) -> None:
        async with table.lock:
            if table.keeper:
                return
            table.keeper = True
            if table.clocks is not None:
                await table.clocks.reload()
            table._schedule()

    async def tick(self) -> None:
        """Every heartbeat: renew this process's claims, adopt tables left without a keeper,
        and let idle tables leave memory."""
        if self.store.postgres:
            await self.store.run(self.store.renew_keeps, self.process, self._until())
            await self.adopt()
            await self.forget_stopped()
        await self.evict()

    async def forget_stopped(self) -> None:
        """The sockets of a process whose heartbeat stopped no longer count as present
        (server/presence.py): read only when a table here counts another process's sockets."""
        held = [t for t in self.tables.values() if t.elsewhere.by_process]
        if not held:
            return
        alive = await self.store.run(live_processes, self.store, now() - timedelta(seconds=GONE_AFTER))
        for table in held:
            presence.forget(table, alive | {self.process})

    async def evict(self, idle_seconds: float | None = None) -> int:
        """Close the tables nobody watches that need nothing from the server (finished, open,
        or a person to move without a clock) and were not used for ``idle_seconds``."""
        limit = self.idle_seconds if idle_seconds is None else idle_seconds
        cutoff = time.monotonic() - limit
        gone = [
            t
            for t in self.tables.values()
            if not t.connections and t.last_used <= cutoff and not t.driven() and not t.lock.locked()
        ]
        for table in gone:
            del self.tables[table.id]
            await table.close()
        released = [t.id for t in gone if t.keeper and t.status != "over"]
        if released and self.store.postgres:
            await self.store.run(self.store.release, self.process, released)
        self.evicted += len(gone)
        return len(gone)

    async def on_note(self, note: Note) -> None:
        """A change another process stored (server/bus.py): the copy held here follows."""
        table = self.tables.get(note.table)
        if table is None:
            return
        handler = self.note_handlers.get(note.kind)
        if handler is not None:
            await handler(table, note)
        else:
            await table.on_note(note)

    async def resync(self) -> None:
        """After notes may have been missed: bring every table held here up to date."""
        for table in list(self.tables.values()):
            async with table.lock:
                await table.catch_up()
                await table.refresh_meta()
                table._broadcast()
                table._schedule()

    def health(self) -> dict[str, Any]:
        """``{"resumed": n, "failed": [{"table": id, "reason": ...}]}`` for ``/healthz``."""
        failed = [{"table": table_id, "reason": reason} for table_id, reason in sorted(self.failed.items())]
        return {"resumed": self.resumed, "failed": failed}

    async def close(self) -> None:
        await self.bus.stop()
        for table in list(self.tables.values()):
            if table.here():  # the other processes stop counting this one's sockets at once
                presence.share(table, seats=set())
        for table in list(self.tables.values()):
            await table.close()
        if self.store.postgres:  # the other processes adopt these tables at once
            try:
                await self.store.run(self.store.release, self.process, None)
            except Exception:
                log.exception("the tables kept here could not be released")
        if self.bot_pool is not None:
            await asyncio.to_thread(self.bot_pool.close)

    def _setup(self, table: LiveTable) -> None:
        table.origin = self.process
        table.keeper_until = self._until
        table.on_end = self.game_over

    async def get(
        self, table_id: str, stored: StoredTable | None = None, adopted: bool = False
    ) -> LiveTable | None:
        """The live table ``table_id``, loading it from the database if needed (``stored``:
        already read from it; ``adopted``: claimed by this process just now, and checked for
        changes stored meanwhile by the caller, :meth:`adopt`)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        if not is_table_id(table_id):  # e.g. a NUL, which PostgreSQL refuses in a query
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())  # one load per table at a time
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is not None:
                    return table
                table = await self._load(table_id, stored, adopted)
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]
        if table is not None and table.state.is_terminal():
            await self._rate(table_id, False)  # the server may have stopped between the end and its rating
        return table

    async def _load(
        self, table_id: str, stored: StoredTable | None = None, adopted: bool = False
    ) -> LiveTable | None:
        if table_id in self.failed:
            raise TableUnavailable(table_id, self.failed[table_id])
        if stored is None:
            stored = await self.store.run(self.store.load_table, table_id)
        if stored is None:
            return None
        try:
            table = LiveTable(stored, self.store, self.bot_delay, self.bot_pool)
            self._setup(table)
            # replaying is CPU work; from the latest snapshot, only the actions after it
            await asyncio.to_thread(table.rebuild, stored.actions, stored.snapshot, table.watched)
            if self.store.postgres and table.status != "over":
                # an adopted table was claimed by claim_orphans in this process just now
                table.keeper = adopted or await self.store.run(
                    self.store.keep, table_id, self.process, self._until()
                )
            if table.clocks is not None:
                if table.keeper:
                    await table.clocks.resume(self.last_alive)
                else:
                    await table.clocks.reload()
        except Exception as exc:  # a stored table that does not come back is reported, once
            reason = _reason(exc)
            self.failed[table_id] = reason
            log.error("table %s could not be resumed: %s", table_id, reason)
            raise TableUnavailable(table_id, reason) from exc
        self.tables[table_id] = table
        if self.store.postgres and not adopted:
            # a change stored while it loaded: its note found no table here
            await self._catch_up_changed([table_id])
        table.mover_listeners.extend(self.mover_listeners)
        table.start()
        return table

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[SeatSpec] | None,
        seed: int | None,
        issue: set[int] | None = None,
        position: dict[str, Any] | None = None,
        public: bool = False,
        host: Host | None = None,
        time_control: TimeControl | None = None,
    ) -> Created:
        """Create and store a table; tokens are issued for human seats (those in ``issue`` if given).

        With ``position`` the game starts there instead of at its set-up (the players are the
        position's). Everything is checked, and the table built, before anything is stored.

        A ``public`` table is listed in the lobby: its one human seat is the host's (``host``
        sits there, and only its token is issued); the others are bots or ``open`` seats, which
        players take from the lobby. While a seat is open the table's status is ``open`` and
        nothing is played until the host starts it; with no open seat it starts at once. A
        private table has no open seat.

        :raises OptionError: for an unknown option, or a value outside its type and range.
        :raises ValueError: for an unknown game, a bad player count, seat or seed.
        """
        if game_id not in {g.id for g in gamekit.game_infos()}:
            known = ", ".join(g.id for g in gamekit.game_infos())
            raise ValueError(f"unknown game {game_id!r}; known games: {known}")
        if position is not None:
            count = position.get("num_players")
            if not isinstance(count, int) or isinstance(count, bool):
                raise ValueError("the position has no num_players")
            if players is not None and players != count:
                raise ValueError(f"the position is for {count} players, not {players}")
            players = count
        if players is None:
            players = len(seats) if seats else load(game_id).num_players
        game = load(game_id, players=players, **options)
        if position is not None:
            game.state_from_position(position)  # InvalidPosition (a ValueError) names the fault
        if seats is None:
            seats = [SeatSpec(i, "human" if i == 0 or not public else "open", None) for i in range(players)]
        if len(seats) != players:
            raise ValueError(f"{len(seats)} seats given for {players} players")
        host_seat = _host_seat(seats, public)
        if host_seat is not None:
            user_id, name = host or (None, None)
            seats = list(seats)
            seats[host_seat] = SeatSpec(host_seat, "human", None, user_id, name)
            issue = {host_seat}
        bots = gamekit.available_bots(game_id)
        for seat in seats:
            if seat.kind == "bot" and seat.bot not in bots:
                raise ValueError(
                    f"seat {seat.seat + 1}: unknown bot {seat.bot!r}; available: {', '.join(bots)}"
                )
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        elif not 0 <= seed < MAX_SEED:
            raise ValueError(f"seed must be between 0 and {MAX_SEED - 1}")
        table_id = await self._new_id()
        issued: dict[int, str] = {}
        tokens: dict[str, int | None] = {}
        for seat in seats:
            if seat.kind == "human" and (issue is None or seat.seat in issue):
                issued[seat.seat] = new_token()
                tokens[hash_token(issued[seat.seat]) or ""] = seat.seat
        spectator = new_token()
        tokens[hash_token(spectator) or ""] = None
        stored = StoredTable(
            id=table_id,
            game=game_id,
            players=players,
            options=dict(game.options),
            seed=seed,
            status="open" if any(s.kind == "open" for s in seats) else "playing",
            result=None,
            rematch_id=None,
            created=now(),
            seats=seats,
            tokens=tokens,
            start=position,
            public=public,
            host_seat=host_seat,
            time_control=None if time_control is None else time_control.to_json(),
        )
        table = LiveTable(stored, self.store, self.bot_delay, self.bot_pool)
        self._setup(table)
        table.rebuild([], viewers=table.watched)
        try:
            await self.store.run(self.store.create_table, stored)
            if self.store.postgres:
                await self.store.run(self.store.keep, table_id, self.process, self._until(), True)
            if table.driven():
                await self.store.run(self.store.set_driven, table_id, True)
        except BaseException:
            await table.close()
            raise
        if table.clocks is not None:
            await table.clocks.resume(None)
        self.tables[table_id] = table
        table.mover_listeners.extend(self.mover_listeners)
        table.start()
        return Created(table, issued, spectator)

    async def viewer(self, table: LiveTable, token_hash: str | None) -> int | None:
        """The seat a token opens at ``table`` (``None``: a spectator); a token another process
        issued a moment ago is read from the database.

        :raises Forbidden: if the token does not open this table."""
        try:
            return table.viewer_of(token_hash)
        except Forbidden:
            if not self.store.postgres or token_hash is None:
                raise
            async with table.lock:
                await table.refresh_meta()
            return table.viewer_of(token_hash)

    async def game_over(self, table_id: str) -> None:
        """A table's game has just ended: note when, and rate it."""
        await self._rate(table_id, True)

    async def _rate(self, table_id: str, ended: bool) -> None:
        """Rate a finished table (``ratings.rate_table``: once, however often asked)."""
        try:
            await self.store.run(ratings.rate_table, self.store, table_id, ended)
        except Exception:  # the game is stored and goes on being shown: only its rating is missing
            log.exception("table %s: the ratings could not be updated", table_id)

    async def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and not await self.store.run(self.store.table_exists, table_id):
                return table_id

    async def issue_token(self, table: LiveTable, seat: int | None) -> str:
        """A fresh token for ``seat`` of ``table`` (``None``: spectator); earlier ones stay valid."""
        token = new_token()
        token_hash = hash_token(token) or ""
        await self.store.run(self.store.add_token, table.id, token_hash, seat)
        table.tokens[token_hash] = seat
        await table.publish_meta()
        return token

    async def rematch(self, old: LiveTable, seat: int) -> Created:
        """The rematch of ``old`` (created on the first request), with a token for ``seat``.

        On creation, every connected seat of ``old`` is sent a ``rematch`` message with its
        own new token, and connected spectators one with a spectator token.
        """
        async with self._rematch_lock:
            if old.rematch_id is not None:
                table = await self.get(old.rematch_id)
                if table is None:
                    raise LookupError(f"rematch table {old.rematch_id} is missing")
                return Created(
                    table, {seat: await self.issue_token(table, seat)}, await self.issue_token(table, None)
                )
            watching = {c.viewer for c in old.connections}
            humans = {s.seat for s in old.seats if s.kind == "human"}
            created = await self.create(
                old.game.game_id,
                old.game.num_players,
                dict(old.game.options),
                [SeatSpec(s.seat, s.kind, s.bot) for s in old.seats],
                None,
                issue=({seat} | {v for v in watching if v is not None}) & humans,
                position=old.start_position,
                time_control=old.time_control,
            )
            new = created.table
            await self.store.run(self.store.set_rematch, old.id, new.id)
            old.rematch_id = new.id
            await old.publish_meta()
            for viewer in watching:
                token = created.spectator_token if viewer is None else created.tokens.get(viewer)
                if token is not None:
                    old.notify(viewer, {"type": "rematch", "table": new.id, "token": token})
            return Created(new, {seat: created.tokens[seat]}, created.spectator_token)

    async def lookup(self, tokens: list[str]) -> list[dict[str, Any]]:
        """What each token opens: ``{"table", "game", "status", "seat", "colour", "to_move",
        "created", "seat_label", "to_move_label", "seat_labels", "outcome"}`` (the labels and a
        finished game's outcome as the table page gets them)."""
        hashes = [h for h in (hash_token(t) for t in tokens[:MAX_LOOKUP_TOKENS]) if h]
        out = []
        for access in await self.store.run(self.store.lookup, hashes):
            live = self.tables.get(access.table_id)
            players = live.game.num_players if live is not None else access.players
            colours = gamekit.colours_for(access.game, players)
            labels = live.seat_labels() if live is not None else None
            mover = live.state.current_player() if live is not None else -1
            out.append(
                {
                    "table": access.table_id,
                    "game": access.game,
                    "status": live.status if live is not None else access.status,
                    "seat": access.seat,
                    "colour": None if access.seat is None else colours[access.seat],
                    "to_move": live.to_move() if live is not None else None,
                    "created": access.created,
                    "seat_label": None if labels is None or access.seat is None else labels[access.seat],
                    "to_move_label": labels[mover] if labels is not None and mover >= 0 else None,
                    "seat_labels": labels,
                    "outcome": live.outcome() if live is not None else access.outcome,
                }
            )
        return out


async def _heard_presence(table: LiveTable, note: Note) -> None:
    presence.heard(table, note)
