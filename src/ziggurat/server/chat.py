"""A table's chat (docs/server.md, "Chat"): seats write, seats and spectators read.

A message is cleaned before anything is checked: control characters other than a newline are
removed (a carriage return, a tab, an escape sequence; and lone surrogates, which are no text),
runs of blank lines are cut to one, and the ends are trimmed. Then it is refused, with a reason and nothing stored, when it comes
from a spectator (``chat_spectator``), is empty (``chat_empty``), has more than
:data:`MAX_CHARS` characters (``chat_too_long``), or when its seat already wrote
:data:`FLOOD_MESSAGES` messages in the last :data:`FLOOD_WINDOW` seconds (``chat_flood``, a
sliding window, with the whole seconds to wait). Otherwise it is stored, then sent to every
socket of the table.

Each message keeps the name its seat had at that table when it was written: the account's name
(``seats.user_id``), else the guest's (``seats.name``), else the game's seat label (a colour, a
symbol, an empire), stored as the label's message JSON so that each reader sees it in their own
language. A table's last :data:`HISTORY` messages are held in memory with the live table
(:class:`ChatRoom`), loaded from the database the first time they are needed, so a socket that
attaches gets them right after its first ``state`` without waiting for the database.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import unicodedata
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field
from sqlalchemy import select

from ziggurat.engine.messages import from_json
from ziggurat.server.api import _table_and_viewer
from ziggurat.server.bus import Note
from ziggurat.server.db import ChatRow, SeatRow, UserRow
from ziggurat.server.limits import CreationLimit
from ziggurat.server.live import Connection, LiveTable, Refused
from ziggurat.server.schemas import ErrorOut
from ziggurat.server.store import Store, now

MAX_CHARS = 500
"""Longest message, in characters (code points) after cleaning."""
HISTORY = 200
"""Messages a socket gets when it attaches (the newest ones); older ones stay stored."""
FLOOD_MESSAGES = 5
FLOOD_WINDOW = 10.0
"""A seat writes at most :data:`FLOOD_MESSAGES` messages in any :data:`FLOOD_WINDOW` seconds."""
NAME_CHARS = 64
"""The ``chat.name`` column's size."""

_BLANK_LINES = re.compile(r"\n(?:[^\S\n]*\n){2,}")  # no nested quantifier over the same characters


class ChatRefused(Refused):
    """A chat message was refused; nothing was stored or sent to anyone else.

    ``retry_after`` (``chat_flood`` only) is the whole seconds until the seat may write again.
    """

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        """The ``error`` message the sender's socket gets."""
        body: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body


# --- the limits -------------------------------------------------------------------------------
def clean(text: str) -> str:
    """``text`` as it would be stored: control characters other than a newline (and lone
    surrogates) removed, three or more line breaks in a row (with only spaces between) made one
    blank line, ends trimmed."""
    kept = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cs"))
    return _BLANK_LINES.sub("\n\n", kept).strip()


def spectator_refusal() -> ChatRefused:
    return ChatRefused("chat_spectator", "spectators read the chat: only the players write in it")


def check(text: str) -> str:
    """The cleaned ``text`` if a seat may write it (the flood limit aside).

    :raises ChatRefused: ``chat_empty`` or ``chat_too_long``.
    """
    cleaned = clean(text)
    if not cleaned:
        raise ChatRefused("chat_empty", "the message is empty")
    if len(cleaned) > MAX_CHARS:
        raise ChatRefused(
            "chat_too_long", f"a chat message has at most {MAX_CHARS} characters, not {len(cleaned)}"
        )
    return cleaned


class FloodLimit:
    """At most :data:`FLOOD_MESSAGES` messages per seat in any :data:`FLOOD_WINDOW` seconds
    (a sliding window, as :class:`~ziggurat.server.limits.CreationLimit`); ``clock`` gives
    the time in seconds (monotonic by default)."""

    def __init__(
        self,
        messages: int = FLOOD_MESSAGES,
        window: float = FLOOD_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._limit = CreationLimit(messages, window, clock)

    def acquire(self, seat: int) -> None:
        """Count one message of ``seat``.

        :raises ChatRefused: ``chat_flood`` (and nothing is counted) when the seat is at its limit.
        """
        wait = self._limit.acquire(str(seat))
        if wait is not None:
            retry = CreationLimit.retry_after(wait)
            raise ChatRefused(
                "chat_flood",
                f"too many messages: at most {self._limit.tables} every {self._limit.window:g} seconds; "
                f"wait {retry} s",
                retry_after=retry,
            )

    def release(self, seat: int) -> None:
        """Take back the last message counted for ``seat`` (it was not stored)."""
        self._limit.release(str(seat))


# --- messages and the database ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One stored message. ``name`` is the writer as stored: an account's or guest's name, or
    the game's seat label as message JSON (see :func:`stored_name`)."""

    id: int
    seat: int
    name: str
    text: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """``{"id", "seat", "name", "label", "text", "at"}``: ``name`` is plain text (a seat
        label in English), ``label`` the seat label as a message (``None`` for a named seat)."""
        label = label_of(self.name)
        name = self.name if label is None else _label_text(label)
        at = self.at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return {"id": self.id, "seat": self.seat, "name": name, "label": label, "text": self.text, "at": at}


def stored_name(label: Any) -> str:
    """How a seat without an account or guest name is stored: its label's message JSON (or the
    label's text when that does not fit the column)."""
    if isinstance(label, dict):
        encoded = json.dumps(label, separators=(",", ":"), ensure_ascii=False)
        if len(encoded) <= NAME_CHARS and label_of(encoded) is not None:
            return encoded
        label = _label_text(label)
    return str(label)[:NAME_CHARS]


def label_of(name: str) -> dict[str, Any] | None:
    """The seat label a stored name holds, or ``None`` for a plain name."""
    if not name.startswith("{"):
        return None
    try:
        data = json.loads(name)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        return None
    return data


def _label_text(label: dict[str, Any]) -> str:
    """A seat label in English, a one-word label capitalised (as the table page names seats)."""
    try:
        text = str(from_json(label))
    except (KeyError, TypeError, ValueError):
        return str(label.get("key", "?"))
    return text[:1].upper() + text[1:] if text and " " not in text else text


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite forgets the zone


def _message(row: ChatRow) -> ChatMessage:
    return ChatMessage(row.id, row.seat, row.name, row.text, _aware(row.created))


def add_message(store: Store, table_id: str, seat: int, label: Any, text: str) -> ChatMessage:
    """Store one message of ``seat``, named by the account or guest sitting there, else by
    ``label`` (the game's seat label now); database thread."""
    with store.sessions.begin() as s:
        query = (
            select(UserRow.name, SeatRow.name)
            .select_from(SeatRow)
            .outerjoin(UserRow, UserRow.id == SeatRow.user_id)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
        )
        found = s.execute(query).first()
        account, guest = (found[0], found[1]) if found is not None else (None, None)
        name = (account or guest or stored_name(label))[:NAME_CHARS]
        row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, created=now())
        s.add(row)
        s.flush()
        return _message(row)


def load_messages(store: Store, table_id: str, limit: int = HISTORY) -> list[ChatMessage]:
    """The last ``limit`` messages of a table, oldest first; database thread."""
    with store.sessions() as s:
        query = select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit)
        return [_message(row) for row in reversed(list(s.scalars(query)))]


# --- a live table's chat ----------------------------------------------------------------------
class ChatRoom:
    """The chat of one live table: its last messages, its flood limit, and a lock that keeps
    the order of stored and sent messages the same."""

    def __init__(self, table: LiveTable) -> None:
        self.table_id = table.id
        self.store = table.store
        self.messages: deque[ChatMessage] = deque(maxlen=HISTORY)
        self.flood = FloodLimit()
        self.lock = asyncio.Lock()
        self.loaded = False

    async def load(self) -> None:
        """Read the stored messages once."""
        async with self.lock:
            if not self.loaded:
                self.messages.extend(await self.store.run(load_messages, self.store, self.table_id))
                self.loaded = True

    def history(self) -> list[dict[str, Any]]:
        return [m.to_json() for m in self.messages]


_rooms: weakref.WeakKeyDictionary[LiveTable, ChatRoom] = weakref.WeakKeyDictionary()


def room(table: LiveTable) -> ChatRoom:
    """The chat of ``table`` (made on first use; it goes with the live table)."""
    found = _rooms.get(table)
    if found is None:
        found = _rooms[table] = ChatRoom(table)
    return found


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


async def attach(table: LiveTable, conn: Connection) -> None:
    """Register a socket with ``table`` (its first ``state``), then queue the stored chat as one
    ``chat_history`` message if there is any. Nothing runs between the two: the chat is read
    before, so no message is missed or sent twice."""
    chat = room(table)
    await chat.load()
    await table.attach(conn)
    if chat.messages:
        conn.send(_dumps({"type": "chat_history", "messages": chat.history()}))


async def post(table: LiveTable, conn: Connection, text: str) -> None:
    """Store a message of the socket's seat and send it to every socket of the table; a refusal
    is answered to this socket only."""
    try:
        await _post(table, conn.viewer, text)
    except ChatRefused as exc:
        conn.send(_dumps(exc.payload()))


async def _post(table: LiveTable, seat: int | None, text: str) -> ChatMessage:
    if seat is None:
        raise spectator_refusal()
    cleaned = check(text)
    chat = room(table)
    await chat.load()
    async with chat.lock:
        chat.flood.acquire(seat)
        try:
            message = await chat.store.run(
                add_message, chat.store, table.id, seat, table.seat_labels()[seat], cleaned
            )
        except BaseException:
            chat.flood.release(seat)
            raise
        chat.messages.append(message)
        out = _dumps({"type": "chat", **message.to_json()})
        for c in table.connections:
            c.send(out)
    if chat.store.postgres:  # the sockets of this table on the other processes
        note = Note(table.origin, table.id, "chat", table.revision, data=message.id).encode()
        await chat.store.run(chat.store.publish, note)
    return message


def load_message(store: Store, message_id: int) -> ChatMessage | None:
    with store.sessions() as s:
        row = s.get(ChatRow, message_id)
        return None if row is None else _message(row)


async def on_note(table: LiveTable, note: Note) -> None:
    """A message another process stored (server/bus.py): sent to this table's sockets here."""
    if not isinstance(note.data, int):
        return
    chat = room(table)
    message = await chat.store.run(load_message, chat.store, note.data)
    if message is None:
        return
    async with chat.lock:
        if chat.loaded:
            if any(m.id == message.id for m in chat.messages):
                return
            chat.messages.append(message)
        out = _dumps({"type": "chat", **message.to_json()})
        for c in table.connections:
            c.send(out)


# --- HTTP -------------------------------------------------------------------------------------
router = APIRouter(tags=["tables"])

TokenHeader = Annotated[str | None, Header(alias="X-Ziggurat-Token", description="a seat or spectator token")]


class ChatMessageOut(BaseModel):
    id: int
    seat: int
    name: str = Field(description="the writer's account or guest name, else the seat's label in English")
    label: dict[str, Any] | None = Field(
        description="the seat's label as a message, for a seat without a name"
    )
    text: str
    at: str = Field(description="when it was written (ISO 8601, UTC)")


class ChatOut(BaseModel):
    messages: list[ChatMessageOut]


@router.get(
    "/api/tables/{table_id}/chat",
    response_model=ChatOut,
    responses={
        403: {"model": ErrorOut, "description": "missing or wrong token"},
        404: {"model": ErrorOut, "description": "no such table"},
        503: {"model": ErrorOut, "description": "the stored table cannot be resumed"},
    },
)
async def get_chat(table_id: str, request: Request, x_ziggurat_token: TokenHeader = None) -> dict[str, Any]:
    """The table's last 200 chat messages, oldest first (a seat or spectator token)."""
    table, _ = await _table_and_viewer(request, table_id, x_ziggurat_token)
    chat = room(table)
    await chat.load()
    return {"messages": chat.history()}
