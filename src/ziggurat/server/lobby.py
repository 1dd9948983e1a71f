"""The public lobby (docs/server.md, "Public lobby"): tables listed for anyone to join.

A public table is created with ``POST /api/tables`` and ``public: true``: its one human seat
is the host's (the creator: a signed-in account, or a guest with a name), its other seats are
bots or ``open`` seats. While a seat is open the table's status is ``open``: it is listed by
``GET /api/lobby`` (with its options and time control), nothing is played, and players take
the free seats with ``POST /api/tables/{id}/join`` (a guest gives a name; a signed-in player
sits as the account, with the CSRF token). The host starts it with ``POST
/api/tables/{id}/start`` and the host seat's token, filling any seat still free with bots of
one level. Private tables are never listed and have no open seats.

Taking a seat is one conditional update (``UPDATE seats ... WHERE kind = 'open'``) in a
transaction that first locks the table's row, run under the live table's lock: two players
racing for the last seat cannot both get it, even from two server processes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, status
from pydantic import BaseModel, Field
from sqlalchemy import insert, select, update

from ziggurat.server import gamekit
from ziggurat.server.accounts import name_key, require_csrf, signed_in
from ziggurat.server.db import SeatRow, TableRow, TokenRow, UserRow
from ziggurat.server.links import seat_link
from ziggurat.server.live import LiveTable
from ziggurat.server.manager import Host, TableManager, TableUnavailable, hash_token, new_token
from ziggurat.server.store import Store, now
from ziggurat.server.timecontrol import TimeControl

MAX_GUEST_NAME = 32
LOBBY_TABLES = 100
"""The lobby lists at most this many tables, newest first."""

router = APIRouter(tags=["lobby"])

TokenHeader = Annotated[str | None, Header(alias="X-Ziggurat-Token", description="the host seat's token")]


class LobbyRefusal(Exception):
    """A refused join or start; nothing was stored. ``code`` is the HTTP status to answer."""

    def __init__(self, code: int, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


# --- names ---------------------------------------------------------------------------------
def guest_name(raw: str | None) -> str:
    """The guest name ``raw`` as shown (spaces trimmed and runs of spaces made one).

    :raises LobbyRefusal: 400 for a missing or empty name, one longer than
        :data:`MAX_GUEST_NAME` characters, or one with control or invisible characters.
    """
    if raw is None:
        raise LobbyRefusal(400, "a guest gives a name to sit at a public table (or signs in)")
    name = " ".join(raw.split())
    if not name:
        raise LobbyRefusal(400, "the name is empty: a guest gives a name to sit at a public table")
    if len(name) > MAX_GUEST_NAME:
        raise LobbyRefusal(400, f"the name is too long: at most {MAX_GUEST_NAME} characters")
    if any(unicodedata.category(c) in {"Cc", "Cf", "Co", "Cs", "Zl", "Zp"} for c in name):
        raise LobbyRefusal(400, "the name has control or invisible characters")
    return name


def _account_named(s: Any, name: str) -> bool:
    return s.scalar(select(UserRow.id).where(UserRow.name_key == name_key(name))) is not None


def guest_name_free(store: Store, name: str) -> bool:
    """Whether ``name`` is no account's (a guest may not sit under an account's name)."""
    with store.sessions() as s:
        return not _account_named(s, name)


# --- storage (run in the database thread through Store.run) --------------------------------------
@dataclass(slots=True)
class LobbySeat:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    account: bool


@dataclass(slots=True)
class LobbyTable:
    table: str
    game: str
    players: int
    options: dict[str, Any]
    host_seat: int | None
    created: datetime
    seats: list[LobbySeat]
    time_control: TimeControl | None


def open_tables(store: Store, limit: int = LOBBY_TABLES) -> list[LobbyTable]:
    """The public tables waiting for players, newest first."""
    with store.sessions() as s:
        rows = list(
            s.scalars(
                select(TableRow)
                .where(TableRow.public.is_(True), TableRow.status == "open")
                .order_by(TableRow.created.desc(), TableRow.id)
                .limit(limit)
            )
        )
        seats: dict[str, list[LobbySeat]] = {r.id: [] for r in rows}
        if rows:
            query = (
                select(SeatRow, UserRow.name)
                .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
                .where(SeatRow.table_id.in_(list(seats)))
                .order_by(SeatRow.table_id, SeatRow.seat)
            )
            for seat, account in s.execute(query):
                seats[seat.table_id].append(
                    LobbySeat(
                        seat.seat,
                        seat.kind,
                        seat.bot,
                        account if account is not None else seat.name,
                        seat.user_id is not None,
                    )
                )
        return [
            LobbyTable(
                r.id,
                r.game,
                r.players,
                dict(r.options),
                r.host_seat,
                _aware(r.created),
                seats[r.id],
                TimeControl.from_json(r.time_control),
            )
            for r in rows
        ]


def take_seat(
    store: Store, table_id: str, wanted: int | None, user_id: int | None, name: str, token_hash: str
) -> int:
    """Seat the account ``user_id`` (or the guest ``name``) at the first free seat of the open
    public table ``table_id`` (or at ``wanted``), with the seat token ``token_hash``; the seat.

    :raises LobbyRefusal: 404 not a public table; 409 not open, no free seat, the seat is taken,
        the account already sits there or the name is taken at the table; 400 a seat out of
        range, or a guest name that is an account's. Nothing is stored then.
    """
    with store.engine.begin() as conn:
        # The table's row is locked first (PostgreSQL: FOR UPDATE; SQLite writes one at a time),
        # so a join and the host's start never interleave.
        table = conn.execute(
            select(TableRow.public, TableRow.status, TableRow.players)
            .where(TableRow.id == table_id)
            .with_for_update()
        ).first()
        if table is None or not table.public:
            raise LobbyRefusal(404, f"no public table {table_id!r}")
        if table.status != "open":
            raise LobbyRefusal(409, f"table {table_id} is not waiting for players: its game has started")
        rows = conn.execute(
            select(SeatRow.seat, SeatRow.kind, SeatRow.user_id, SeatRow.name, UserRow.name.label("account"))
            .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
            .where(SeatRow.table_id == table_id)
            .order_by(SeatRow.seat)
        ).all()
        if user_id is not None:
            mine = [r.seat for r in rows if r.user_id == user_id]
            if mine:
                raise LobbyRefusal(409, f"your account already holds seat {mine[0] + 1} of table {table_id}")
        else:
            if conn.execute(select(UserRow.id).where(UserRow.name_key == name_key(name))).first() is not None:
                raise LobbyRefusal(
                    400, f"the name {name!r} is an account's: sign in to use it, or choose another"
                )
            taken = {(r.account or r.name or "").casefold() for r in rows}
            if name.casefold() in taken:
                raise LobbyRefusal(409, f"the name {name!r} is taken at table {table_id}: choose another")
        free = [r.seat for r in rows if r.kind == "open"]
        if wanted is None:
            if not free:
                raise LobbyRefusal(409, f"table {table_id} has no free seat")
            seat = free[0]
        elif not 0 <= wanted < table.players:
            raise LobbyRefusal(400, f"table {table_id} has seats 1 to {table.players}, not {wanted + 1}")
        elif wanted not in free:
            raise LobbyRefusal(409, f"seat {wanted + 1} of table {table_id} is taken")
        else:
            seat = wanted
        done = conn.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
            .values(kind="human", user_id=user_id, name=None if user_id is not None else name)
        )
        if done.rowcount != 1:  # taken meanwhile (by another server process)
            raise LobbyRefusal(409, f"seat {seat + 1} of table {table_id} is taken")
        conn.execute(
            insert(TokenRow), {"hash": token_hash, "table_id": table_id, "seat": seat, "created": now()}
        )
        return seat


def start_table(store: Store, table_id: str, fill: str | None) -> None:
    """The host starts the open table ``table_id``: free seats become ``fill`` bots, status
    ``playing``. :raises LobbyRefusal: 409 if it is not open, or a seat is free and no ``fill``."""
    with store.engine.begin() as conn:
        current = conn.execute(
            select(TableRow.status).where(TableRow.id == table_id).with_for_update()
        ).scalar_one_or_none()
        if current != "open":
            raise LobbyRefusal(409, f"table {table_id} has already started")
        free = list(
            conn.scalars(select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.kind == "open"))
        )
        if free and fill is None:
            raise LobbyRefusal(409, _free_seats_text(free))
        if free:
            conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.kind == "open")
                .values(kind="bot", bot=fill)
            )
        done = conn.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.status == "open")
            .values(status="playing")
        )
        if done.rowcount != 1:
            raise LobbyRefusal(409, f"table {table_id} has already started")


def _free_seats_text(free: list[int]) -> str:
    seats = ", ".join(str(s + 1) for s in free)
    return f"seats {seats} are still free: wait for players, or fill them with bots (fill: a bot level)"


def _aware(when: datetime) -> datetime:
    from datetime import UTC

    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite forgets the zone


# --- request helpers -------------------------------------------------------------------------------
def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _http(exc: LobbyRefusal) -> HTTPException:
    return HTTPException(exc.code, exc.detail)


async def public_host(request: Request, host_name: str | None) -> Host:
    """Who creates a public table: the signed-in account (which then needs the CSRF token),
    else a guest by ``host_name``. :raises HTTPException: 403 without CSRF, 400 for a bad name."""
    who = await signed_in(request)
    if who is not None:
        require_csrf(request, who)
        return who.user_id, who.name
    try:
        name = guest_name(host_name)
    except LobbyRefusal as exc:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST, f"{exc.detail} (host_name: the name the lobby shows)"
        ) from exc
    store = _manager(request).store
    if not await store.run(guest_name_free, store, name):
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            f"the name {name!r} is an account's: sign in to use it, or choose another",
        )
    return None, name


async def _live(request: Request, table_id: str) -> LiveTable:
    try:
        table = await _manager(request).get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    if table is None or not table.public:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no public table {table_id!r}")
    return table


# --- routes ----------------------------------------------------------------------------------------
class LobbySeatOut(BaseModel):
    seat: int
    colour: str
    kind: str = Field(description="human, bot or open")
    bot: str | None = Field(description="a bot seat's level or kind")
    name: str | None = Field(description="the account or guest sitting there")
    account: bool = Field(description="true: an account sits there (false: a guest, a bot or nobody)")
    free: bool = Field(description="an open seat a player may take")


class LobbyTableOut(BaseModel):
    table: str
    game: str
    players: int
    options: dict[str, Any] = Field(
        description="the options the table was created with (any other is the game's default)"
    )
    time_control: dict[str, Any] | None = Field(
        default=None,
        description="the table's clock (docs/server.md, Time controls): kind realtime with budget and "
        "increment, or turn_based with per_turn (seconds), grace and takeover; null: no clock",
    )
    seats: list[LobbySeatOut]
    free: int = Field(description="open seats left")
    host: str | None = Field(description="the host's name")
    created: datetime


class JoinIn(BaseModel):
    """``POST /api/tables/{id}/join``: a guest's name (a signed-in player sits as the account)."""

    name: str | None = Field(default=None, max_length=200, examples=["Enheduanna"])
    seat: int | None = Field(default=None, description="a free seat (0-based); by default the first free one")


class JoinOut(BaseModel):
    table: str
    seat: int
    colour: str
    token: str = Field(description="the seat's token (shown once)")
    link: str = Field(
        description="https://host/table/{id}#token=...: the server's public URL, else the address asked"
    )


class StartIn(BaseModel):
    """``POST /api/tables/{id}/start``: the bot level that fills the seats still free."""

    fill: str | None = Field(
        default=None, examples=["easy"], description="a bot of GET /api/games; null: no bots"
    )


class StartOut(BaseModel):
    table: str
    status: str
    seats: list[dict[str, Any]] = Field(description="who sits where now, as the state message has it")


@router.get("/api/lobby", response_model=list[LobbyTableOut])
async def lobby(request: Request) -> list[LobbyTableOut]:
    """The public tables waiting for players (status ``open``), newest first; never a token.
    Tables being played are not listed: their spectators come by the spectator link."""
    store = _manager(request).store
    out = []
    for t in await store.run(open_tables, store):
        colours = gamekit.colours_for(t.game, t.players)
        host = next((s.name for s in t.seats if s.seat == t.host_seat), None)
        out.append(
            LobbyTableOut(
                table=t.table,
                game=t.game,
                players=t.players,
                options=t.options,
                time_control=None if t.time_control is None else t.time_control.to_json(),
                seats=[
                    LobbySeatOut(
                        seat=s.seat,
                        colour=colours[s.seat],
                        kind=s.kind,
                        bot=s.bot,
                        name=s.name,
                        account=s.account,
                        free=s.kind == "open",
                    )
                    for s in t.seats
                ],
                free=sum(s.kind == "open" for s in t.seats),
                host=host,
                created=t.created,
            )
        )
    return out


@router.post(
    "/api/tables/{table_id}/join",
    response_model=JoinOut,
    responses={
        400: {"description": "a bad or missing guest name, or a seat out of range"},
        403: {"description": "signed in without the CSRF token"},
        404: {"description": "no public table"},
        409: {"description": "not open, no free seat, the seat is taken, or already seated"},
    },
)
async def join(table_id: str, body: JoinIn, request: Request) -> JoinOut:
    """Take a free seat of an open public table: as the signed-in account (with the CSRF
    token), or as a guest by ``name``. Answers the seat's token and link; nothing changes on a
    refusal. Every socket of the table is sent the new seating."""
    table = await _live(request, table_id)
    who = await signed_in(request)
    try:
        if who is not None:
            require_csrf(request, who)
            user_id, name = who.user_id, who.name
        else:
            user_id, name = None, guest_name(body.name)
        if not table.open:
            raise LobbyRefusal(409, f"table {table_id} is not waiting for players: its game has started")
        token = new_token()
        token_hash = hash_token(token) or ""
        store = table.store
        async with table.lock:
            seat = await store.run(take_seat, store, table.id, body.seat, user_id, name, token_hash)
            table.seat_taken(seat, user_id, name, token_hash)
            await table.publish_meta()
    except LobbyRefusal as exc:
        raise _http(exc) from exc
    return JoinOut(
        table=table.id,
        seat=seat,
        colour=table.colours[seat],
        token=token,
        link=seat_link(request, table.id, token),
    )


@router.post(
    "/api/tables/{table_id}/start",
    response_model=StartOut,
    responses={
        400: {"description": "an unknown bot level"},
        403: {"description": "not the host seat's token"},
        404: {"description": "no public table"},
        409: {"description": "already started, or seats are free and no fill is given"},
    },
)
async def start(
    table_id: str, request: Request, body: StartIn | None = None, x_ziggurat_token: TokenHeader = None
) -> StartOut:
    """The host starts an open public table (with the host seat's token): seats still free are
    filled with ``fill`` bots (refused while seats are free and no ``fill`` is given), and
    the game begins. Every socket of the table is sent the new state."""
    table = await _live(request, table_id)
    seat = table.tokens.get(hash_token(x_ziggurat_token) or "", -1)
    if seat == -1:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "missing or wrong token for this table")
    if seat is None or seat != table.host_seat:
        host = "" if table.host_seat is None else f" (seat {table.host_seat + 1})"
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"only the host{host} starts the table")
    fill = None if body is None else body.fill
    bots = gamekit.available_bots(table.game.game_id)
    if fill is not None and fill not in bots:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            f"unknown bot {fill!r} to fill the free seats; available: {', '.join(bots)}",
        )
    store = table.store
    try:
        async with table.lock:
            if not table.open:
                raise LobbyRefusal(409, f"table {table_id} has already started")
            free = table.free_seats()
            if free and fill is None:
                raise LobbyRefusal(409, _free_seats_text(free))
            await store.run(start_table, store, table.id, fill)
            table.begin(fill)
            await table.publish_meta()
    except LobbyRefusal as exc:
        raise _http(exc) from exc
    return StartOut(table=table.id, status=table.status, seats=table.seats_payload())
