"""HTTP endpoints of docs/server.md: health, the lobby, tables, records and rematches."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, status

from ziggurat.engine.errors import OptionError
from ziggurat.engine.messages import LANGS, catalogue
from ziggurat.server import gamekit, lobby, timecontrol
from ziggurat.server.limits import CreationLimit, too_many_requests
from ziggurat.server.links import seat_link
from ziggurat.server.live import Forbidden, LiveTable, NoRecord, Refused
from ziggurat.server.manager import Created, TableManager, TableUnavailable, hash_token
from ziggurat.server.schemas import (
    Access,
    ErrorOut,
    ExplainIn,
    ExplainOut,
    GameOut,
    Health,
    LookupIn,
    SeatCreated,
    SeatOut,
    TableCreated,
    TableIn,
    TableOut,
    TablesHealth,
)
from ziggurat.server.store import SeatSpec

router = APIRouter()

TokenHeader = Annotated[str | None, Header(alias="X-Ziggurat-Token", description="a seat or spectator token")]

_ERROR_TEXT = {
    400: "bad request",
    403: "missing or wrong token",
    404: "no such table",
    409: "the table has no game record: it was created from a position",
    413: "body too large",
    429: "too many requests from this client address; the Retry-After header says when to retry",
    422: "an option is unknown, or its value is outside the option's type and range",
    503: "the stored table cannot be resumed",
}


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error codes (all answer ``{"detail": reason}``)."""
    return {code: {"model": ErrorOut, "description": _ERROR_TEXT[code]} for code in codes}


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


async def _table_and_viewer(
    request: Request, table_id: str, token: str | None
) -> tuple[LiveTable, int | None]:
    try:
        table = await _manager(request).get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    try:
        return table, await _manager(request).viewer(table, hash_token(token))
    except Forbidden as exc:
        raise HTTPException(status.HTTP_403_FORBIDDEN, str(exc)) from exc


def _created_answer(request: Request, created: Created) -> TableCreated:
    table = created.table
    seats = []
    for spec in table.seats:
        token = created.tokens.get(spec.seat)
        seats.append(
            SeatCreated(
                seat=spec.seat,
                colour=table.colours[spec.seat],
                kind=spec.kind,
                bot=spec.bot,
                token=token,
                link=None if token is None else seat_link(request, table.id, token),
            )
        )
    return TableCreated(
        table=table.id,
        game=table.game.game_id,
        seats=seats,
        spectator_token=created.spectator_token,
        spectator_link=seat_link(request, table.id, created.spectator_token),
    )


@router.get("/healthz", response_model=Health, tags=["server"])
async def healthz(request: Request) -> Health:
    """Liveness check, with the tables resumed at start and those that could not be."""
    manager: TableManager | None = getattr(request.app.state, "manager", None)
    if manager is None:
        return Health(status="ok")
    return Health(status="ok", tables=TablesHealth.model_validate(manager.health()))


@router.get("/api/games", response_model=list[GameOut], tags=["lobby"])
async def list_games() -> list[GameOut]:
    """The games tables can be created for, with their options and bots."""
    return [
        GameOut(
            id=g.id,
            name=g.name,
            min_players=g.min_players,
            max_players=g.max_players,
            options=g.options,
            bots=g.bots,
            option_specs=g.option_specs,
        )
        for g in gamekit.game_infos()
    ]


@router.get(
    "/api/games/{game_id}/board-data",
    response_model=dict[str, Any],
    responses={404: {"model": ErrorOut, "description": "no such game"}},
    tags=["lobby"],
)
async def game_board_data(game_id: str) -> dict[str, Any]:
    """Static data the game's browser board draws with (e.g. its map layout); ``{}`` if none."""
    if game_id not in {g.id for g in gamekit.game_infos()}:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no game {game_id!r}")
    return gamekit.board_data(game_id)


@router.get(
    "/api/messages/{lang}",
    response_model=dict[str, str],
    responses={404: {"model": ErrorOut, "description": "no such language"}},
    tags=["lobby"],
)
async def messages(lang: str) -> dict[str, str]:
    """The message catalogue of ``lang`` (the engine's and every game's, merged): the patterns
    the browser renders log events, refusals and results with (ziggurat.engine.messages)."""
    if lang not in LANGS:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no language {lang!r}; languages: {', '.join(LANGS)}")
    return catalogue(lang)


@router.post(
    "/api/tables",
    response_model=TableCreated,
    status_code=status.HTTP_201_CREATED,
    responses=_errors(400, 403, 413, 422, 429),
    tags=["lobby"],
)
async def create_table(body: TableIn, request: Request) -> TableCreated:
    """Create a table; the answer holds every human seat's invite token and a spectator token
    (a public table: only the host's seat token; players take its open seats from the lobby).

    Each client address (as this server sees it) may create a limited number of tables in a
    sliding window (docs/server.md); over it the answer is 429 with ``Retry-After``."""
    limit: CreationLimit | None = getattr(request.app.state, "creation_limit", None)
    address = request.client.host if request.client is not None else "unknown"
    if limit is not None and (wait := limit.acquire(address)) is not None:
        raise too_many_requests(request, f"tables created from {address}", limit.describe(), wait)
    try:
        return await _create(body, request)
    except BaseException:
        if limit is not None:
            limit.release(address)  # only tables actually created count
        raise


@router.post(
    "/api/tables/{table_id}/explain",
    response_model=ExplainOut,
    responses=_errors(400, 403, 404, 413, 429, 503),
    tags=["tables"],
)
async def explain(
    table_id: str, body: ExplainIn, request: Request, x_ziggurat_token: TokenHeader = None
) -> ExplainOut:
    """Why this seat may not play ``action`` now: the engine's refusal (its reason names the rule),
    or ``legal: true``. The action is tried on a copy of the game: nothing changes, nobody is
    told. A seat token is needed (spectators have no moves to ask about); each token may ask a
    limited number of times in a sliding window (docs/server.md), then 429 with ``Retry-After``."""
    table, viewer = await _table_and_viewer(request, table_id, x_ziggurat_token)
    if viewer is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "a spectator token can only watch")
    limit: CreationLimit = request.app.state.explain_limit
    key = hash_token(x_ziggurat_token) or ""
    if (wait := limit.acquire(key)) is not None:
        rule = f"at most {limit.tables} every {limit.window:g} seconds"
        raise too_many_requests(request, "questions from this seat", rule, wait)
    refusal = await asyncio.to_thread(_explain_now, table, viewer, body.action)
    if refusal is None:
        return ExplainOut(action=body.action, legal=True)
    return ExplainOut(
        action=body.action, legal=False, code=refusal.code, message=refusal.message, event=refusal.event
    )


def _explain_now(table: LiveTable, seat: int, text: str) -> Refused | None:
    """``table.explain`` in a worker thread (it only reads the current state, never replaced in place)."""
    return table.explain(seat, text)


async def _create(body: TableIn, request: Request) -> TableCreated:
    seats = None
    if body.seats is not None:
        bots = gamekit.available_bots(body.game) if body.game in {g.id for g in gamekit.game_infos()} else []
        default_bot = "heuristic" if "heuristic" in bots else "random"
        seats = [
            SeatSpec(i, s.kind, (s.bot or default_bot) if s.kind == "bot" else None)
            for i, s in enumerate(body.seats)
        ]
    if body.position is not None and not request.app.state.allow_positions:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "this server does not create tables from positions (create_app allow_positions)",
        )
    host = await lobby.public_host(request, body.host_name) if body.public else None
    try:
        known = body.game in {g.id for g in gamekit.game_infos()}
        clock = timecontrol.parse(body.time_control, gamekit.available_bots(body.game)) if known else None
        created = await _manager(request).create(
            body.game,
            body.players,
            body.options,
            seats,
            body.seed,
            position=body.position,
            public=body.public,
            host=host,
            time_control=clock,
        )
    except OptionError as exc:  # well-formed, but an option is unknown or outside its type and range
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from exc
    except (ValueError, TypeError) as exc:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    return _created_answer(request, created)


@router.post("/api/tables/lookup", response_model=list[Access], responses=_errors(400, 413), tags=["lobby"])
async def lookup_tables(body: LookupIn, request: Request) -> list[dict[str, Any]]:
    """The tables these tokens open (a browser keeps its tokens and asks what they are)."""
    return await _manager(request).lookup(body.tokens)


@router.get(
    "/api/tables/{table_id}", response_model=TableOut, responses=_errors(403, 404, 503), tags=["tables"]
)
async def get_table(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> TableOut:
    """A table's public facts: seats, status, who is to move, its rematch."""
    table, _ = await _table_and_viewer(request, table_id, x_ziggurat_token)
    return TableOut(
        table=table.id,
        game=table.game.game_id,
        players=table.game.num_players,
        options=dict(table.game.options),
        status=table.status,
        public=table.public,
        host_seat=table.host_seat,
        time_control=None if table.time_control is None else table.time_control.to_json(),
        seats=[
            SeatOut(
                seat=s.seat,
                colour=table.colours[s.seat],
                kind=s.kind,
                bot=s.bot,
                connected=table.connected(s.seat),
                name=s.name,
            )
            for s in table.seats
        ],
        to_move=table.to_move(),
        rematch=table.rematch_id,
    )


@router.get(
    "/api/tables/{table_id}/record",
    response_model=dict[str, Any],
    responses=_errors(403, 404, 409, 503),
    tags=["tables"],
)
async def get_record(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> dict[str, Any]:
    """The game record as the token's seat saw it (spectators: what everybody saw)."""
    table, viewer = await _table_and_viewer(request, table_id, x_ziggurat_token)
    await table.ensure_history()
    try:
        return await asyncio.to_thread(table.record_for, viewer)
    except NoRecord as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from exc


@router.post(
    "/api/tables/{table_id}/rematch",
    response_model=TableCreated,
    status_code=status.HTTP_201_CREATED,
    responses=_errors(403, 404, 503),
    tags=["tables"],
)
async def rematch(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> TableCreated:
    """Create (or find) the rematch: same game, options and seat kinds; a token for the asking seat."""
    table, viewer = await _table_and_viewer(request, table_id, x_ziggurat_token)
    if viewer is None:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "a spectator token cannot ask for a rematch")
    try:
        created = await _manager(request).rematch(table, viewer)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    except ValueError as exc:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    return _created_answer(request, created)
