"""An account's games: seat claims, "My games", seat links on any device, public profiles.

A seat played by its secret link can be saved to the signed-in account (``POST
/api/tables/{id}/claim`` with the seat token, the session cookie and the CSRF token): the
seat's ``seats.user_id`` becomes the account's. An account holds at most one seat of a table,
and a seat belongs to at most one account. ``GET /api/account/games`` lists the account's
tables (those where it is the account's turn first, then the others still going, then the
finished ones, newest first), and ``POST /api/tables/{id}/seat-link`` issues a fresh token for
the account's seat there, so the account's games open on any device once it signs in.
``GET /api/users/{name}`` is an account's public profile: its games with their results (no
token) and its rating in each game (the ``ratings`` table; shown as ``mu - 3 sigma``).

Live facts (who is to move, how the game names the seats now) come from the table manager's
tables in memory, as for ``POST /api/tables/lookup``; a finished table that is not loaded is
described from what is stored with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, status
from pydantic import BaseModel, Field
from sqlalchemy import select, update

from ziggurat.server import gamekit, links
from ziggurat.server.accounts import CSRF_HEADER, NAME_RE, name_key, require_user, require_user_csrf
from ziggurat.server.db import RatingRow, SeatRow, TableRow, UserRow
from ziggurat.server.limits import CreationLimit, too_many_requests
from ziggurat.server.live import Forbidden, LiveTable
from ziggurat.server.manager import TableManager, TableUnavailable, hash_token
from ziggurat.server.store import Store

router = APIRouter(tags=["accounts"])

MAX_GAMES = 200
"""The most games ``GET /api/account/games`` and a profile list (the newest ones)."""
SEAT_LINKS = 30
SEAT_LINK_WINDOW = 60.0
"""An account may ask for at most 30 seat links every 60 seconds (each one stores a token)."""

TokenHeader = Annotated[str | None, Header(alias="X-Ziggurat-Token", description="the seat's token")]
CsrfHeader = Annotated[str | None, Header(alias=CSRF_HEADER, description="the session's CSRF token")]


class ClaimRefused(Exception):
    """A claim the stored seats do not allow (nothing was changed); ``code`` is the HTTP status."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


# --- storage (run in the database thread through Store.run) -------------------------------------
@dataclass(slots=True)
class Sitter:
    """Who sits at one seat of a stored table."""

    seat: int
    kind: str
    bot: str | None
    name: str | None  # the account's name, else a guest's
    account: bool


@dataclass(slots=True)
class SeatGame:
    """One seat an account holds, with its table as stored."""

    table_id: str
    game: str
    players: int
    status: str
    seat: int
    created: datetime
    finished: datetime | None
    result: list[float] | None
    outcome: dict[str, Any] | None
    sitters: list[Sitter] = field(default_factory=list)


@dataclass(slots=True)
class Profile:
    name: str
    created: datetime
    games: list[SeatGame]
    ratings: list[tuple[str, float, float, int]]  # game, mu, sigma, rated games


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite forgets the zone


def claim_seat(store: Store, table_id: str, seat: int, user_id: int) -> bool:
    """Save ``seat`` of ``table_id`` to the account ``user_id``; ``False`` if it already was.

    :raises ClaimRefused: (409) if the seat is another account's, or the account holds another
        seat of the table; nothing is changed then.
    """
    with store.sessions.begin() as s:
        row = s.get(SeatRow, (table_id, seat))
        if row is None or row.kind != "human":
            raise ClaimRefused(status.HTTP_409_CONFLICT, f"seat {seat + 1} is not a player's seat")
        if row.user_id == user_id:
            return False
        if row.user_id is not None:
            raise ClaimRefused(status.HTTP_409_CONFLICT, "this seat is already saved to another account")
        other = s.scalar(
            select(SeatRow.seat).where(
                SeatRow.table_id == table_id, SeatRow.user_id == user_id, SeatRow.seat != seat
            )
        )
        if other is not None:
            raise ClaimRefused(
                status.HTTP_409_CONFLICT,
                f"your account already holds seat {other + 1} of this table (one seat per account)",
            )
        # conditional: a seat saved meanwhile by another server process is not taken over
        done = s.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.user_id.is_(None))
            .values(user_id=user_id)
        )
        if getattr(done, "rowcount", 1) != 1:
            raise ClaimRefused(status.HTTP_409_CONFLICT, "this seat is already saved to another account")
        return True


def seat_holder(store: Store, table_id: str, seat: int) -> int | None:
    """The account id ``seat`` of ``table_id`` is saved to, or ``None``."""
    with store.sessions() as s:
        row = s.get(SeatRow, (table_id, seat))
        return None if row is None else row.user_id


def seat_of(store: Store, table_id: str, user_id: int) -> int | None:
    """The seat the account holds at ``table_id`` (the first, if several), or ``None``."""
    with store.sessions() as s:
        query = (
            select(SeatRow.seat)
            .where(SeatRow.table_id == table_id, SeatRow.user_id == user_id)
            .order_by(SeatRow.seat)
        )
        found = s.scalar(query)
        return None if found is None else int(found)


def games_of(store: Store, user_id: int, limit: int = MAX_GAMES) -> list[SeatGame]:
    """The seats the account holds, newest table first, with who sits at each table."""
    with store.sessions() as s:
        query = (
            select(SeatRow.seat, TableRow)
            .join(TableRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.user_id == user_id)
            .order_by(TableRow.created.desc(), SeatRow.seat)
            .limit(limit)
        )
        out = [
            SeatGame(
                table_id=t.id,
                game=t.game,
                players=t.players,
                status=t.status,
                seat=int(seat),
                created=_aware(t.created),
                finished=None if t.finished is None else _aware(t.finished),
                result=t.result,
                outcome=t.outcome,
            )
            for seat, t in s.execute(query)
        ]
        ids = sorted({g.table_id for g in out})
        sitters: dict[str, list[Sitter]] = {}
        if ids:
            seats = (
                select(SeatRow, UserRow.name)
                .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
                .where(SeatRow.table_id.in_(ids))
                .order_by(SeatRow.table_id, SeatRow.seat)
            )
            for row, account in s.execute(seats):
                sitters.setdefault(row.table_id, []).append(
                    Sitter(row.seat, row.kind, row.bot, account or row.name, account is not None)
                )
        for g in out:
            g.sitters = sitters.get(g.table_id, [])
        return out


def profile_of(store: Store, name: str) -> Profile | None:
    """The public facts of the account called ``name`` (any case), or ``None`` (at once for a
    name no account can have, e.g. with a NUL, which PostgreSQL refuses in a query)."""
    if NAME_RE.fullmatch(name) is None:
        return None
    with store.sessions() as s:
        user = s.scalar(select(UserRow).where(UserRow.name_key == name_key(name)))
        if user is None:
            return None
        ratings = [
            (r.game, r.mu, r.sigma, r.games)
            for r in s.scalars(select(RatingRow).where(RatingRow.user_id == user.id).order_by(RatingRow.game))
        ]
        user_id, shown, created = int(user.id), user.name, _aware(user.created)
    return Profile(shown, created, games_of(store, user_id), ratings)


# --- answers -----------------------------------------------------------------------------------
class PlayerOut(BaseModel):
    """Who sits at one seat of a table (never a token)."""

    seat: int
    colour: str
    kind: str = Field(description="human, bot, or open (a free seat of a lobby table)")
    bot: str | None
    name: str | None = Field(description="the account's name, else a guest's name, if known")
    account: bool = Field(description="name is an account's (its profile is /profile/{name})")
    label: Any = Field(default=None, description="how the game names the seat now (a message)")
    result: float | None = Field(default=None, description="the seat's final return (finished games)")


class GameEntry(BaseModel):
    """One table an account plays or played."""

    table: str
    game: str
    players: int
    seat: int = Field(description="the account's seat")
    colour: str
    seat_label: Any = Field(default=None, description="how the game names the account's seat now")
    status: str = Field(description="open, playing or over")
    to_move: str | None = Field(description="colour of the seat to move")
    to_move_label: Any = None
    seat_to_move: bool = Field(description="the account's seat is the one to move")
    result: float | None = Field(default=None, description="the account's final return")
    rank: int | None = Field(default=None, description="1 for the best return (ties share a rank)")
    won: bool | None = Field(default=None, description="the account's seat is one of the winners")
    outcome: dict[str, Any] | None = Field(default=None, description="how a finished game was won")
    created: datetime
    finished: datetime | None
    seats: list[PlayerOut]
    clock: dict[str, Any] | None = Field(
        default=None,
        description="a timed table's clock of the account's seat (server/clocks.py) and its time control",
    )


class ClaimOut(BaseModel):
    table: str
    seat: int
    colour: str
    saved: bool = Field(description="the seat is saved to the signed-in account")
    taken: bool = Field(description="the seat is saved to another account")


class SeatLinkOut(BaseModel):
    table: str
    seat: int
    colour: str
    token: str = Field(description="a new token for the account's seat (earlier ones stay valid)")
    link: str


class RatingOut(BaseModel):
    game: str
    rating: float = Field(description="the shown rating: mu - 3 sigma, one decimal")
    mu: float
    sigma: float
    games: int


class ProfileOut(BaseModel):
    name: str
    member_since: datetime
    games: list[GameEntry]
    ratings: list[RatingOut]


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _entry(g: SeatGame, live: LiveTable | None) -> GameEntry:
    """A stored seat's game with the live table's facts when it is in memory."""
    colours = gamekit.colours_for(g.game, g.players)
    labels = live.seat_labels() if live is not None else None
    mover = live.state.current_player() if live is not None else -1
    table_status = g.status
    if live is not None and table_status != "open":
        table_status = live.status
    result = live.result if live is not None and live.result is not None else g.result
    outcome = live.outcome() if live is not None and table_status == "over" else g.outcome
    mine = result[g.seat] if result is not None and g.seat < len(result) else None
    winners = outcome.get("winners") if outcome else None
    return GameEntry(
        table=g.table_id,
        game=g.game,
        players=g.players,
        seat=g.seat,
        colour=colours[g.seat],
        seat_label=None if labels is None else labels[g.seat],
        status=table_status,
        to_move=live.to_move() if live is not None and table_status == "playing" else None,
        to_move_label=labels[mover]
        if labels is not None and mover >= 0 and table_status == "playing"
        else None,
        seat_to_move=table_status == "playing" and mover == g.seat,
        result=mine,
        rank=None if mine is None or result is None else 1 + sum(1 for r in result if r > mine),
        won=None if table_status != "over" or not isinstance(winners, list) else g.seat in winners,
        outcome=outcome if table_status == "over" else None,
        created=g.created,
        finished=g.finished,
        seats=[
            PlayerOut(
                seat=p.seat,
                colour=colours[p.seat],
                kind=p.kind,
                bot=p.bot,
                name=p.name,
                account=p.account,
                label=None if labels is None else labels[p.seat],
                result=result[p.seat] if result is not None and p.seat < len(result) else None,
            )
            for p in g.sitters
        ],
        clock=_clock(live, g.seat) if table_status == "playing" else None,
    )


def _clock(live: LiveTable | None, seat: int) -> dict[str, Any] | None:
    """``{"remaining", "running", "timed_out", "bot", ..., "time_control"}`` of the seat at a
    timed table in memory, else ``None``."""
    if live is None or live.clocks is None or live.time_control is None:
        return None
    clock = live.clocks.seat_payload(seat)
    return None if clock is None else {**clock, "time_control": live.time_control.to_json()}


def _ordered(entries: list[GameEntry], turn_first: bool) -> list[GameEntry]:
    """Games still going first (with ``turn_first``, those where the seat is to move before
    them), then finished ones; newest first in each group (finished ones by when they ended)."""

    def key(e: GameEntry) -> tuple[int, float]:
        if e.status == "over":
            return 2, -(e.finished or e.created).timestamp()
        return (0 if turn_first and e.seat_to_move else 1), -e.created.timestamp()

    return sorted(entries, key=key)


async def _live_table(request: Request, table_id: str) -> LiveTable:
    try:
        table = await _manager(request).get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return table


async def _token_seat(request: Request, table_id: str, token: str | None) -> tuple[LiveTable, int]:
    """The table and the seat ``token`` opens: 403 for a wrong or a spectator token."""
    table = await _live_table(request, table_id)
    try:
        seat = table.viewer_of(hash_token(token))
    except Forbidden as exc:
        raise HTTPException(status.HTTP_403_FORBIDDEN, str(exc)) from exc
    if seat is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "a spectator token has no seat to save")
    return table, seat


def _seat_link_limit(request: Request) -> CreationLimit:
    limit: CreationLimit | None = getattr(request.app.state, "seat_link_limit", None)
    if limit is None:
        limit = request.app.state.seat_link_limit = CreationLimit(SEAT_LINKS, SEAT_LINK_WINDOW)
    return limit


# --- routes ------------------------------------------------------------------------------------
_CLAIM_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "nobody is signed in"},
    403: {"description": "no CSRF token, or a wrong or spectator seat token"},
    404: {"description": "no such table"},
    409: {"description": "the seat is another account's, or the account holds another seat here"},
    503: {"description": "the stored table cannot be resumed"},
}


@router.post("/api/tables/{table_id}/claim", response_model=ClaimOut, responses=_CLAIM_ERRORS)
async def claim(
    table_id: str, request: Request, x_ziggurat_token: TokenHeader = None, x_csrf_token: CsrfHeader = None
) -> ClaimOut:
    """Save the token's seat to the signed-in account (needs the CSRF token). Saving a seat
    that is already the account's again answers the same; nothing changes on a refusal."""
    who = await require_user_csrf(request)
    table, seat = await _token_seat(request, table_id, x_ziggurat_token)
    store = _manager(request).store
    try:
        await store.run(claim_seat, store, table.id, seat, who.user_id)
    except ClaimRefused as exc:
        raise HTTPException(exc.code, exc.reason) from exc
    async with table.lock:
        table.seat_claimed(seat, who.user_id, who.name)
        await table.publish_meta()
    return ClaimOut(table=table.id, seat=seat, colour=table.colours[seat], saved=True, taken=False)


@router.get("/api/tables/{table_id}/claim", response_model=ClaimOut, responses=_CLAIM_ERRORS)
async def claim_state(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> ClaimOut:
    """Whether the token's seat is saved to the signed-in account, to another one, or to none."""
    who = await require_user(request)
    table, seat = await _token_seat(request, table_id, x_ziggurat_token)
    store = _manager(request).store
    holder = await store.run(seat_holder, store, table.id, seat)
    return ClaimOut(
        table=table.id,
        seat=seat,
        colour=table.colours[seat],
        saved=holder == who.user_id,
        taken=holder is not None and holder != who.user_id,
    )


@router.get(
    "/api/account/games",
    response_model=list[GameEntry],
    responses={401: {"description": "nobody is signed in"}},
)
async def account_games(request: Request) -> list[GameEntry]:
    """The signed-in account's tables: those where it is the account's turn, then the others
    still going, then the finished ones (newest first in each; at most 200)."""
    who = await require_user(request)
    manager = _manager(request)
    stored = await manager.store.run(games_of, manager.store, who.user_id)
    return _ordered([_entry(g, manager.tables.get(g.table_id)) for g in stored], turn_first=True)


@router.post(
    "/api/tables/{table_id}/seat-link",
    response_model=SeatLinkOut,
    responses={
        401: {"description": "nobody is signed in"},
        403: {"description": "no CSRF token, or the account holds no seat at this table"},
        404: {"description": "no such table"},
        429: {"description": "too many seat links asked for; Retry-After says when to retry"},
        503: {"description": "the stored table cannot be resumed"},
    },
)
async def seat_link(table_id: str, request: Request, x_csrf_token: CsrfHeader = None) -> SeatLinkOut:
    """A fresh token and link for the signed-in account's seat at this table (needs the CSRF
    token), so the account opens its game on any device; earlier tokens stay valid."""
    who = await require_user_csrf(request)
    manager = _manager(request)
    table = await _live_table(request, table_id)
    seat = await manager.store.run(seat_of, manager.store, table.id, who.user_id)
    if seat is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "your account holds no seat at this table")
    limit = _seat_link_limit(request)
    if (wait := limit.acquire(f"user:{who.user_id}")) is not None:
        rule = f"at most {SEAT_LINKS} every {SEAT_LINK_WINDOW:g} seconds"
        raise too_many_requests(request, "seat links", rule, wait)
    token = await manager.issue_token(table, seat)
    return SeatLinkOut(
        table=table.id,
        seat=seat,
        colour=table.colours[seat],
        token=token,
        link=links.seat_link(request, table.id, token),
    )


@router.get(
    "/api/users/{name}",
    response_model=ProfileOut,
    responses={404: {"description": "no account has this name"}},
)
async def profile(name: str, request: Request) -> ProfileOut:
    """An account's public profile: its games (still going first, newest first; at most 200)
    with their results, and its rating in each game it was rated in."""
    manager = _manager(request)
    found = await manager.store.run(profile_of, manager.store, name)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no account is called {name!r}")
    games = [_entry(g, manager.tables.get(g.table_id)) for g in found.games]
    return ProfileOut(
        name=found.name,
        member_since=found.created,
        games=_ordered(games, turn_first=False),
        ratings=[
            RatingOut(game=game, rating=round(mu - 3 * sigma, 1), mu=mu, sigma=sigma, games=count)
            for game, mu, sigma, count in found.ratings
        ],
    )
