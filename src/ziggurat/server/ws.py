"""The table WebSocket ``/ws/{table_id}?token=...`` (docs/server.md).

Life cycle of one socket: accept; close with :data:`CLOSE_POLICY` if its client address
opened too many sockets lately (``limits.SocketLimits``), with :data:`CLOSE_NO_TABLE` or
:data:`CLOSE_BAD_TOKEN` if the table or token is wrong; otherwise start a sender task that
drains the connection's queue, register with the table (which queues the first ``state``),
then read messages until the client leaves; finally unregister and stop the sender.
Refused messages are answered with an ``error`` to this socket only, and the socket stays
open: a message that is not JSON, is nested too deeply, or does not have the shape of one of
the protocol's messages (``server/client_messages.py``) is refused like an illegal action,
and so is any message past its address's message limit (``rate_limited``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ziggurat.server import chat, metrics
from ziggurat.server.client_messages import ActionIn, ChatIn, PingIn, TakeBackIn, parse_message
from ziggurat.server.limits import AddressLimit, SocketLimits, retry_after
from ziggurat.server.live import Connection, Forbidden, LiveTable, Refused
from ziggurat.server.manager import TableManager, TableUnavailable, hash_token

log = logging.getLogger(__name__)

CLOSE_GOING_AWAY = 1001
"""The server is shutting down."""
CLOSE_POLICY = 1008
"""The client's address opened too many sockets lately; the reason says when to try again."""
CLOSE_INTERNAL_ERROR = 1011
CLOSE_TOO_SLOW = 1013
"""The client did not read its messages; reconnecting gets the current state."""
CLOSE_BAD_TOKEN = 4403
CLOSE_NO_TABLE = 4404

MAX_MESSAGE_BYTES = 4096


def _error(code: str, message: str, event: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if event is not None:
        body["event"] = event
    return json.dumps(body)


def _address(websocket: WebSocket) -> str:
    """The client's address (a trusted proxy's ``X-Forwarded-For``: ``links.ForwardedHeaders``)."""
    return websocket.client.host if websocket.client is not None else "unknown"


def _rate_limited(limit: AddressLimit, wait: float) -> str:
    """The ``rate_limited`` error: nothing was done; ``retry_after`` is the whole seconds to wait."""
    retry = retry_after(wait)
    text = f"too many messages from this address: {limit.describe()}; wait {retry} s"
    return json.dumps({"type": "error", "code": "rate_limited", "message": text, "retry_after": retry})


async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
    """One seat's or spectator's connection to a table."""
    await websocket.accept()  # accepted first, so the client sees the named close codes
    address = _address(websocket)
    limits: SocketLimits = websocket.app.state.socket_limits.for_address(address)
    if limits.connections is not None and (wait := limits.connections.hit(address)) is not None:
        metrics.rate_limited(websocket.app, "connection")
        reason = f"too many connections: {limits.connections.describe()}; try again in {retry_after(wait)} s"
        await websocket.close(CLOSE_POLICY, reason)
        return
    sockets = metrics.of(websocket.app).sockets
    sockets.inc()
    try:
        await _open(websocket, table_id, token, limits.messages)
    finally:
        sockets.dec()


async def _open(websocket: WebSocket, table_id: str, token: str | None, limit: AddressLimit | None) -> None:
    manager: TableManager = websocket.app.state.manager
    try:
        table = await manager.get(table_id)
    except TableUnavailable as exc:  # logged once, with the reason, when it failed to load
        await websocket.close(CLOSE_INTERNAL_ERROR, exc.reason[:120])
        return
    except Exception:
        log.exception("table %s could not be loaded", table_id)
        await websocket.close(CLOSE_INTERNAL_ERROR)
        return
    if table is None:
        await websocket.close(CLOSE_NO_TABLE, "no such table")
        return
    try:
        viewer = await manager.viewer(table, hash_token(token))
    except Forbidden:
        await websocket.close(CLOSE_BAD_TOKEN, "bad token")
        return
    conn = Connection(viewer)
    sender = asyncio.create_task(_send_loop(websocket, conn))
    try:
        await chat.attach(table, conn)  # the first state, then the stored chat
        await _receive_loop(websocket, table, conn, limit)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("table %s: socket failed", table_id)
        with contextlib.suppress(Exception):
            await websocket.close(CLOSE_INTERNAL_ERROR)
    finally:
        table.detach(conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    try:
        while (text := await conn.queue.get()) is not None:
            await websocket.send_text(text)
        await websocket.close(CLOSE_TOO_SLOW if conn.overflowed else CLOSE_GOING_AWAY)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client left; the receive loop ends the socket


async def _receive_loop(
    websocket: WebSocket, table: LiveTable, conn: Connection, limit: AddressLimit | None
) -> None:
    address = _address(websocket)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        metrics.arrived()
        if limit is not None and (wait := limit.hit(address)) is not None:
            metrics.rate_limited(websocket.app, "message")
            conn.send(_rate_limited(limit, wait))
            continue
        text = message.get("text")
        if text is None:
            conn.send(_error("bad_message", "messages are JSON text frames"))
            continue
        if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            conn.send(_error("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes"))
            continue
        await _handle(text, table, conn)


async def _handle(text: str, table: LiveTable, conn: Connection) -> None:
    try:
        message = parse_message(text)
    except Refused as exc:
        conn.send(_error(exc.code, exc.message))
        return
    try:
        if isinstance(message, PingIn):
            conn.send('{"type":"pong"}')
        elif isinstance(message, ActionIn):
            await table.act(conn.viewer, message.action)
        elif isinstance(message, ChatIn):
            await chat.post(table, conn, message.text)
        elif isinstance(message, TakeBackIn):
            if table.clocks is None:
                raise Refused("no_takeover", "this table has no clock: no bot takes a seat over")
            await table.clocks.take_back(conn.viewer)
        else:
            await table.undo(conn.viewer)
    except Refused as exc:
        conn.send(_error(exc.code, exc.message, exc.event))
