"""The FastAPI application: storage set-up, HTTP and WebSocket routes, and the static client."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel
from sqlalchemy import text
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Match, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

import ziggurat
from ziggurat.server import (
    accounts,
    api,
    chat,
    clocks,
    lobby,
    logfilter,
    mailprefs,
    metrics,
    ratings,
    replay,
    tutorial,
)
from ziggurat.server.db import default_url, hold_sqlite, make_engine, upgrade
from ziggurat.server.limits import (
    BodyLimit,
    CreationLimit,
    SocketLimits,
    creation_limit_from_env,
    socket_limits_from_env,
)
from ziggurat.server.links import ForwardedHeaders, check_public_url
from ziggurat.server.loopwatch import LoopWatch
from ziggurat.server.mail import Mailer, SeenAddress, SmtpSettings, smtp_from_env
from ziggurat.server.manager import TableManager
from ziggurat.server.mygames import router as mygames_router
from ziggurat.server.rules_pages import router as rules_router
from ziggurat.server.store import Store
from ziggurat.server.ws import table_socket

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).with_name("static")
EXPLAIN_QUESTIONS = 30
EXPLAIN_WINDOW = 10.0
"""A seat token may ask ``/explain`` at most 30 times every 10 seconds."""
READY_TIMEOUT = 2.0
"""Seconds ``/readyz`` waits for the database's answer (``app.state.ready_timeout``)."""


class Ready(BaseModel):
    ready: bool
    reason: str | None = None


class ClientFiles(StaticFiles):
    """Static files that answer 404 while the client directory does not exist yet."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.directory is None or not Path(self.directory).is_dir():
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class WrongMethod:
    """ASGI middleware: a request whose path is a route's but whose method is none of the
    methods of the routes of that path answers ``405`` with ``Allow``, before the static
    client (mounted at ``/``, which takes every path) can answer ``404``."""

    def __init__(self, app: ASGIApp, routes: list[Route]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            allowed: set[str] = set()
            for route in self.routes:
                match, _ = route.matches(scope)
                if match is Match.FULL:
                    allowed.clear()
                    break
                if match is Match.PARTIAL:
                    allowed |= route.methods or set()
            if allowed:
                allow = ", ".join(sorted(allowed))
                detail = f"method {scope['method']} is not allowed on {scope['path']}; allowed: {allow}"
                response = JSONResponse({"detail": detail}, status_code=405, headers={"Allow": allow})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    database_url: str | None = None,
    bot_delay: float = 0.6,
    static_dir: str | Path | None = None,
    creation_limit: CreationLimit | None | Literal["env"] = "env",
    allow_positions: bool = False,
    public_url: str | None = None,
    forwarded_allow_ips: str | None = None,
    smtp: SmtpSettings | None | Literal["env"] = "env",
    sole_sqlite_server: bool = False,
    bot_workers: int | None = None,
    socket_limits: SocketLimits | Literal["env"] = "env",
    metrics_enabled: bool | Literal["env"] = "env",
) -> FastAPI:
    """The server app: ``database_url`` defaults to ``ZIGGURAT_DATABASE_URL`` or a SQLite file
    in the user data directory; bots wait ``bot_delay`` seconds before each move.
    ``creation_limit`` bounds the tables one client address creates (``None``: no bound);
    by default it is read from ``ZIGGURAT_TABLE_RATE`` (30 tables every 60 seconds if unset).
    ``allow_positions`` lets ``POST /api/tables`` start a table from a position (off: whoever
    writes the position knows every secret of the game, so it is for tests and prepared
    situations, not for a public server).
    ``public_url`` (``https://games.example.org``) starts every invite, spectator and mail link
    (``links.public_link``); without it links start with the address the request came to.
    ``forwarded_allow_ips`` (``127.0.0.1``, a list of addresses or networks, or ``*``) names the
    reverse proxies whose ``X-Forwarded-Host``, ``X-Forwarded-Proto`` and ``X-Forwarded-For``
    are honoured (``links.ForwardedHeaders``; ``None``: the app reads no forwarded header).
    Both raise ``ValueError`` for a value they cannot take.
    ``smtp`` is where "your turn" mails of turn-based tables go (``mail.SmtpSettings``); by
    default it is read from ``ZIGGURAT_SMTP_HOST`` and the other ``ZIGGURAT_SMTP_*`` variables
    (``mail.smtp_from_env``); ``None``: no mail is queued or sent.
    ``bot_workers`` is how many worker processes thinking bots decide in (``botpool.BotPool``;
    ``None``: its default, ``0``: no process, they decide in worker threads).
    ``socket_limits`` bounds the WebSocket connections and messages of one client address
    (``limits.SocketLimits``; ``SocketLimits.off()``: no bound); by default it is read from
    ``ZIGGURAT_WS_CONNECT_RATE`` and ``ZIGGURAT_WS_MESSAGE_RATE``. ``metrics_enabled`` serves
    ``GET /metrics`` (Prometheus; ``False``: 404); by default unless ``ZIGGURAT_METRICS=off``.

    ``sole_sqlite_server`` (``ziggurat serve``): on a SQLite file, stop at start if another
    server process uses it (``db.hold_sqlite``).

    The database is migrated (``alembic upgrade head``) and unfinished tables are resumed when
    the app starts (its lifespan), and everything is closed when it stops.
    """
    url = database_url or default_url()
    logfilter.install()  # WebSocket URLs carry tokens; uvicorn logs them with the query string
    limit = creation_limit_from_env() if creation_limit == "env" else creation_limit
    client_dir = Path(static_dir) if static_dir is not None else STATIC_DIR
    public = check_public_url(public_url) if public_url else None
    mail_settings = smtp_from_env() if smtp == "env" else smtp
    if bot_workers is not None and bot_workers < 0:
        raise ValueError(f"bot_workers must be 0 (worker threads) or more, not {bot_workers}")
    watch = LoopWatch()
    sockets_limits = socket_limits_from_env() if socket_limits == "env" else socket_limits
    exposed = metrics.metrics_enabled_from_env() if metrics_enabled == "env" else metrics_enabled

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logfilter.install()  # again: uvicorn has configured its log handlers by now
        engine = make_engine(url)
        held = hold_sqlite(engine) if sole_sqlite_server else None  # SqliteInUse: a second process
        await asyncio.to_thread(upgrade, engine)
        store = Store(engine)
        manager = TableManager(store, bot_delay, bot_workers)
        app.state.manager = manager
        manager.note_handlers["chat"] = chat.on_note
        app.state.metrics.start(manager)
        heartbeat = clocks.Heartbeat(store, process=manager.process, on_beat=manager.tick)
        manager.last_alive = await heartbeat.begin()  # before tables resume: their clocks need it
        if mail_settings is not None:
            app.state.mailer = Mailer(mail_settings, manager, public)
            manager.mover_listeners.append(app.state.mailer.mover_changed)
        await manager.start()
        if mail_settings is not None:
            app.state.mailer.start()
        watch.start()
        try:
            yield
        finally:
            app.state.metrics.stop()
            await manager.close()
            try:
                await heartbeat.stop()
            except Exception:  # a database gone away must not keep the rest from closing
                log.exception("the server's last heartbeat could not be stored")
            if mail_settings is not None:
                await app.state.mailer.stop()
            try:
                await store.close_loop_writers()
            except Exception:
                log.exception("the database's connections for actions could not be closed")
            await asyncio.to_thread(store.close)
            if held is not None:
                held.close()
            await watch.stop()

    app = FastAPI(
        title="Ziggurat",
        version=ziggurat.__version__,
        description="Tables of ancient-world board games, played over HTTP and WebSockets (docs/server.md).",
        lifespan=lifespan,
    )
    app.state.creation_limit = limit
    app.state.allow_positions = allow_positions
    app.state.public_url = public
    app.state.mailer = None  # a mail.Mailer while the app runs with SMTP settings
    app.state.loopwatch = watch  # the event loop's stalls, measured while the app runs
    app.state.explain_limit = CreationLimit(EXPLAIN_QUESTIONS, EXPLAIN_WINDOW)
    app.state.socket_limits = sockets_limits
    app.state.metrics = metrics.Metrics(app.state)
    app.state.ready_timeout = READY_TIMEOUT
    app.state.ready_failing = False  # the last /readyz failed (its reason is logged once)
    app.add_middleware(BodyLimit)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.include_router(api.router)
    app.include_router(accounts.router)
    app.include_router(lobby.router)  # /api/lobby, joining and starting public tables
    app.include_router(tutorial.router)
    app.include_router(replay.router)  # /api/tables/{id}/replay
    app.include_router(chat.router)
    app.include_router(clocks.router)  # taking a seat back from the bot that took it over
    app.include_router(ratings.router)
    app.include_router(mailprefs.router)  # mail preferences and unsubscribing
    app.add_api_websocket_route("/ws/{table_id}", table_socket)

    @app.get(
        "/readyz",
        response_model=Ready,
        responses={503: {"model": Ready, "description": "the database does not answer"}},
        tags=["server"],
    )
    async def readyz() -> Response:
        """Readiness: 200 ``{"ready": true}`` once the app runs and its database answers a
        trivial query in time, 503 ``{"ready": false, "reason": ...}`` otherwise."""
        reason = await _not_ready(app)
        if reason is None:
            return JSONResponse({"ready": True})
        return JSONResponse({"ready": False, "reason": reason}, status_code=503)

    if exposed:

        @app.get("/metrics", response_class=PlainTextResponse, tags=["server"])
        async def metrics_page() -> Response:
            """The server's metrics in the Prometheus text format (docs/server.md, "Operations")."""
            return Response(metrics.of(app).exposition(), media_type=CONTENT_TYPE_LATEST)

    app.include_router(rules_router)  # /rules/{game} and /api/rules (the rules specs)
    app.include_router(mygames_router)  # seat claims, "My games", seat links, profiles

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return _page(client_dir / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return _page(client_dir / "table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return _page(client_dir / "replay.html")

    @app.get("/leaderboard/{game_id}", include_in_schema=False)
    async def leaderboard_page(game_id: str) -> Response:
        return _page(client_dir / "leaderboard.html")

    @app.get("/tutorial/{game_id}", include_in_schema=False)
    async def tutorial_page(game_id: str) -> Response:
        return _page(client_dir / "tutorial.html")

    @app.get("/profile/{name}", include_in_schema=False)
    async def profile_page(name: str) -> Response:
        return _page(client_dir / "profile.html")

    @app.get("/account/preferences", include_in_schema=False)
    async def preferences_page() -> Response:
        return _page(client_dir / "preferences.html")

    @app.get("/unsubscribe/{token}", include_in_schema=False)
    async def unsubscribe_page(token: str) -> Response:
        return _page(client_dir / "unsubscribe.html")

    app.mount("/static", ClientFiles(directory=client_dir, check_dir=False), name="static")
    app.mount("/", ClientFiles(directory=client_dir, check_dir=False), name="client")
    # the app's own routes (OpenAPI, docs, pages) and the API router's, which FastAPI includes lazily
    routes = [
        r
        for r in (
            *app.routes,
            *api.router.routes,
            *accounts.router.routes,
            *lobby.router.routes,
            *tutorial.router.routes,
            *replay.router.routes,
            *chat.router.routes,
            *clocks.router.routes,
            *ratings.router.routes,
            *mailprefs.router.routes,
            *rules_router.routes,
            *mygames_router.routes,
        )
        if isinstance(r, Route)
    ]
    app.add_middleware(WrongMethod, routes=routes)
    app.add_middleware(SeenAddress)  # mail links without a public URL start with the last address seen
    if forwarded_allow_ips is not None:  # outermost: it must see the proxy's own address
        app.add_middleware(ForwardedHeaders, trusted=forwarded_allow_ips)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _without_422(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _without_422(schema: dict[str, Any]) -> dict[str, Any]:
    """Validation errors answer 400 here (see :func:`_validation_error`), not FastAPI's 422;
    a 422 an endpoint declares itself (an option outside its range) stays."""
    for methods in schema.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.get("responses", {})
            if "HTTPValidationError" not in json.dumps(responses.get("422", {})):
                continue
            if responses.pop("422", None) is not None and "400" not in responses:
                responses["400"] = {
                    "description": "bad request",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                }
    schemas = schema.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return schema


def _database_answers(store: Store) -> None:
    with store.engine.connect() as conn:
        conn.execute(text("SELECT version_num FROM alembic_version")).all()  # reads the file, not only SQL


async def _not_ready(app: FastAPI) -> str | None:
    """Why the app is not ready (``None``: it is): it is not started, or its database gave an
    error or no answer within ``app.state.ready_timeout`` seconds (in the database thread,
    behind whatever it is doing). A failure's details are logged when readiness is lost."""
    manager: TableManager | None = getattr(app.state, "manager", None)
    if manager is None:
        return "the server is starting"
    timeout: float = app.state.ready_timeout
    try:
        await asyncio.wait_for(manager.store.run(_database_answers, manager.store), timeout)
    except TimeoutError:
        reason = f"the database did not answer within {timeout:g} s"
        detail = reason
    except Exception as exc:  # any failure of the database is the answer
        cause = getattr(exc, "orig", None) or exc  # SQLAlchemy's wrapper: the driver's own error
        reason = f"the database answered with an error ({type(cause).__name__})"
        detail = f"{reason}: {' '.join(str(cause).split())[:300]}"
    else:
        if app.state.ready_failing:
            log.warning("ready again: the database answers")
        app.state.ready_failing = False
        return None
    if not app.state.ready_failing:
        log.warning("not ready: %s", detail)
    app.state.ready_failing = True
    return reason


def _page(path: Path) -> Response:
    if not path.is_file():
        return PlainTextResponse("the browser client is not installed", status_code=404)
    return FileResponse(path, media_type="text/html")


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    errors: Any = exc.errors() if isinstance(exc, RequestValidationError) else []
    parts = []
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return JSONResponse({"detail": "; ".join(parts) or "bad request"}, status_code=400)
