"""The table manager: creates, loads, resumes and closes live tables; issues tokens.

Live tables are kept in memory. At start every unfinished table is loaded from the database
and its actions replayed; finished tables are loaded when first asked for.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ziggurat.engine.registry import load
from ziggurat.server import gamekit, ratings
from ziggurat.server.db import SEAT_KINDS
from ziggurat.server.ids import is_table_id
from ziggurat.server.live import LiveTable
from ziggurat.server.store import SeatSpec, Store, StoredTable, now
from ziggurat.server.timecontrol import TimeControl

log = logging.getLogger(__name__)

MAX_SEED = 2**63
MAX_LOOKUP_TOKENS = 100


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

    def __init__(self, store: Store, bot_delay: float) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self.resumed = 0
        self.failed: dict[str, str] = {}  # table id -> why it could not be loaded
        self.last_alive: datetime | None = None  # the last heartbeat before this server (clocks.py)
        self.mover_listeners: list[Callable[[LiveTable, int | None], None]] = []
        """Given to every table (``LiveTable.mover_listeners``) before it starts."""
        self._load_lock = asyncio.Lock()
        self._rematch_lock = asyncio.Lock()

    async def start(self) -> None:
        """Resume every unfinished table (its bots and chance continue).

        A table that cannot be resumed is logged in one line naming it and the reason, and
        listed by :meth:`health`; every other table still resumes.
        """
        for table_id in await self.store.run(self.store.unfinished_ids):
            try:
                table = await self.get(table_id)
            except TableUnavailable:
                continue  # logged and listed by get
            if table is not None:
                self.resumed += 1

    def health(self) -> dict[str, Any]:
        """``{"resumed": n, "failed": [{"table": id, "reason": ...}]}`` for ``/healthz``."""
        failed = [{"table": table_id, "reason": reason} for table_id, reason in sorted(self.failed.items())]
        return {"resumed": self.resumed, "failed": failed}

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.close()

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, loading it from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not is_table_id(table_id):  # e.g. a NUL, which PostgreSQL refuses in a query
            return None
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.failed:
                raise TableUnavailable(table_id, self.failed[table_id])
            stored = await self.store.run(self.store.load_table, table_id)
            if stored is None:
                return None
            try:
                table = LiveTable(stored, self.store, self.bot_delay)
                await asyncio.to_thread(table.rebuild, stored.actions)  # replaying is CPU work
                if table.clocks is not None:
                    await table.clocks.resume(self.last_alive)
            except Exception as exc:  # a stored table that does not come back is reported, once
                reason = _reason(exc)
                self.failed[table_id] = reason
                log.error("table %s could not be resumed: %s", table_id, reason)
                raise TableUnavailable(table_id, reason) from exc
            table.on_end = self.game_over
            self.tables[table_id] = table
            table.mover_listeners.extend(self.mover_listeners)
            table.start()
        if table.state.is_terminal():
            await self._rate(table_id, False)  # the server may have stopped between the end and its rating
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
        table = LiveTable(stored, self.store, self.bot_delay)
        table.on_end = self.game_over
        table.rebuild([])
        try:
            await self.store.run(self.store.create_table, stored)
        except BaseException:
            await table.close()
            raise
        if table.clocks is not None:
            await table.clocks.resume(None)
        self.tables[table_id] = table
        table.mover_listeners.extend(self.mover_listeners)
        table.start()
        return Created(table, issued, spectator)

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
