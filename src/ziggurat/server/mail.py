""" "Your turn" by e-mail for turn-based tables, through an outbox (docs/server.md, "Mail").

Queueing: when the seat to move at a turn-based table becomes a seat held by an account with
an e-mail address and ``mail_turns`` on, and the account has no ``turn_notices`` row for the
table, the mail (``outbox``) and the notice are inserted in one transaction; once the player
has acted at the table, the notice is deleted, so the next turn mails again. Bot seats, guest
seats, real-time and untimed tables never get mail. Without SMTP settings nothing is queued.

Sending: :class:`Mailer` runs one background task per server process that claims due rows
with a conditional update (``next_try`` pushed :data:`LEASE` seconds ahead, so another
process skips them), hands each one to the SMTP server (smtplib, in a thread) and marks it
``sent`` right after the server accepted it. A failure is retried with a doubling delay
(``attempts``, ``next_try``, ``last_error``). Unsent rows survive a restart: the next process
sends them. Only a crash between the SMTP server's acceptance and the ``sent`` mark can send
a row twice.

Links: the mail's link opens the seat: a fresh seat token is issued when the mail is sent
(never stored in the outbox, whose body holds the table's link without it) and added as the
page's ``#token=``. The unsubscribe token is derived from the account's password hash (an
HMAC), so it stays the same for every mail of the account (``users.unsubscribe`` holds its
SHA-256 to look it up; the mail bodies in the outbox hold the token, which can only turn the
mail off). Links start with the server's public URL
(``--public-url``), else the last address a request came to.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import re
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import TYPE_CHECKING, Literal

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from ziggurat.engine.messages import LANGS, message, noun
from ziggurat.server.db import OutboxRow, TurnNoticeRow, UserRow
from ziggurat.server.store import Store, now

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from ziggurat.server.live import LiveTable
    from ziggurat.server.manager import TableManager

log = logging.getLogger(__name__)

TLS_MODES = ("starttls", "ssl", "none")
DEFAULT_PORTS = {"starttls": 587, "ssl": 465, "none": 25}
ENV = {
    "host": "ZIGGURAT_SMTP_HOST",
    "port": "ZIGGURAT_SMTP_PORT",
    "user": "ZIGGURAT_SMTP_USER",
    "password": "ZIGGURAT_SMTP_PASSWORD",
    "tls": "ZIGGURAT_SMTP_TLS",
    "sender": "ZIGGURAT_MAIL_FROM",
}
LEASE = 300.0
"""Seconds a claimed row is left to its sender before another one may try it."""
BATCH = 50
"""Rows claimed at once."""
MAX_RETRY = 3600.0
"""The longest wait between two tries of a failing row."""
TURN = "turn"
"""The outbox ``kind`` of a "your turn" mail."""
_ADDRESS = re.compile(
    r"^[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    """Where mail goes: the SMTP server, its login, its TLS mode (:data:`TLS_MODES`) and the
    sender address. ``poll`` (seconds) is how often the outbox is read for rows queued by
    another process or due again; ``retry`` is the first wait after a failure (it doubles)."""

    host: str
    port: int = 0  # 0: the TLS mode's usual port (587, 465, 25)
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: Literal["starttls", "ssl", "none"] = "starttls"
    sender: str = "ziggurat@localhost"
    poll: float = 30.0
    retry: float = 60.0

    def __post_init__(self) -> None:
        if not self.host:
            raise ValueError("SMTP host is empty")
        if self.tls not in TLS_MODES:
            raise ValueError(f"SMTP TLS mode {self.tls!r}: one of {', '.join(TLS_MODES)}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"SMTP port {self.port}: from 1 to 65535")
        local, at, domain = self.sender.rpartition("@")
        if not (local and at and domain) or any(c.isspace() or c in "<>," for c in self.sender):
            raise ValueError(f"sender address {self.sender!r} is not an e-mail address")
        if self.port == 0:
            object.__setattr__(self, "port", DEFAULT_PORTS[self.tls])


def smtp_from_env(env: Mapping[str, str] | None = None) -> SmtpSettings | None:
    """The settings from ``ZIGGURAT_SMTP_HOST``, ``_PORT``, ``_USER``, ``_PASSWORD``, ``_TLS``
    and ``ZIGGURAT_MAIL_FROM``; ``None`` (no mail) without a host.

    :raises ValueError: for a port that is not a number, or a value :class:`SmtpSettings` refuses.
    """
    env = os.environ if env is None else env
    host = env.get(ENV["host"], "").strip()
    if not host:
        return None
    port = env.get(ENV["port"], "").strip()
    if port and not port.isdigit():
        raise ValueError(f"{ENV['port']}={port!r} is not a port number")
    tls = env.get(ENV["tls"], "").strip().lower() or "starttls"
    if tls not in TLS_MODES:
        raise ValueError(f"{ENV['tls']}={tls!r}: one of {', '.join(TLS_MODES)}")
    return SmtpSettings(
        host=host,
        port=int(port or 0),
        user=env.get(ENV["user"]) or None,
        password=env.get(ENV["password"]) or None,
        tls=tls,  # type: ignore[arg-type]
        sender=env.get(ENV["sender"], "").strip() or "ziggurat@localhost",
    )


def valid_address(text: str) -> bool:
    """Whether ``text`` looks like a deliverable address: one ``@``, a local part without
    spaces or specials, a domain of dotted labels (no IP literals, no display names)."""
    return len(text) <= 254 and _ADDRESS.match(text) is not None


def unsubscribe_token(user_id: int, password_hash: str) -> str:
    """The account's unsubscribe token: ``<id>.<HMAC of the id keyed by the password hash>``.
    It is the same for every mail and changes with the password; no table column holds it."""
    digest = hmac.new(password_hash.encode(), f"unsubscribe:{user_id}".encode(), hashlib.sha256)
    return f"{user_id}.{digest.hexdigest()[:32]}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def turn_mail(
    lang: str, name: str, game: str, table_id: str, link: str, unsubscribe: str, preferences: str
) -> tuple[str, str]:
    """The subject and plain-text body of a "your turn" mail in ``lang`` (English if unknown)."""
    lang = lang if lang in LANGS else "en"
    title = noun("game", game).render(lang)
    subject = message("mail.turn.subject", game=title, table=table_id).render(lang)
    body = message(
        "mail.turn.body",
        name=name,
        game=title,
        table=table_id,
        link=link,
        unsubscribe=unsubscribe,
        preferences=preferences,
    ).render(lang)
    return subject, body


# --- storage (run in the database thread through Store.run) -------------------------------------
@dataclass(slots=True)
class Preferences:
    email: str | None
    mail_turns: bool


def preferences_of(store: Store, user_id: int) -> Preferences:
    with store.sessions() as s:
        row = s.get(UserRow, user_id)
        if row is None:
            raise LookupError(f"no account {user_id}")
        return Preferences(row.email, bool(row.mail_turns))


def set_preferences(
    store: Store, user_id: int, email: str | None, mail_turns: bool, lang: str | None = None
) -> Preferences:
    """Set the account's address and mail choice, and the language of its mails (``None``:
    unchanged)."""
    with store.sessions.begin() as s:
        row = s.get(UserRow, user_id)
        if row is None:
            raise LookupError(f"no account {user_id}")
        row.email = email
        row.mail_turns = mail_turns
        if lang is not None:
            row.lang = lang
        row.unsubscribe = token_hash(unsubscribe_token(row.id, row.password_hash))
        return Preferences(row.email, bool(row.mail_turns))


def unsubscriber(store: Store, token: str) -> str | None:
    """The name of the account ``token`` unsubscribes, or ``None``."""
    with store.sessions() as s:
        row = s.scalars(select(UserRow).where(UserRow.unsubscribe == token_hash(token))).first()
        return None if row is None else row.name


def unsubscribe(store: Store, token: str) -> str | None:
    """Turn ``mail_turns`` off for the account of ``token``; its name, or ``None`` (unknown
    token: nothing changes)."""
    with store.sessions.begin() as s:
        row = s.scalars(select(UserRow).where(UserRow.unsubscribe == token_hash(token))).first()
        if row is None:
            return None
        row.mail_turns = False
        return row.name


@dataclass(slots=True)
class TurnMail:
    """What the table knows when it queues a "your turn" mail."""

    table_id: str
    game: str
    user_id: int
    ply: int
    base: str


def queue_turn(store: Store, turn: TurnMail) -> bool:
    """Queue the mail (in the account's language, English if unknown) and the turn notice in
    one transaction; ``False`` (nothing queued) when the account has no address, has mail off,
    or already has a notice for the table."""
    try:
        with store.sessions.begin() as s:
            user = s.get(UserRow, turn.user_id)
            if user is None or not user.email or not user.mail_turns:
                return False
            if s.get(TurnNoticeRow, (turn.table_id, turn.user_id)) is not None:
                return False
            token = unsubscribe_token(user.id, user.password_hash)
            if user.unsubscribe != token_hash(token):
                user.unsubscribe = token_hash(token)
            subject, body = turn_mail(
                user.lang or "en",
                user.name,
                turn.game,
                turn.table_id,
                f"{turn.base}/table/{turn.table_id}",
                f"{turn.base}/unsubscribe/{token}",
                f"{turn.base}/account/preferences",
            )
            when = now()
            s.add(TurnNoticeRow(table_id=turn.table_id, user_id=turn.user_id, ply=turn.ply, created=when))
            s.add(
                OutboxRow(
                    user_id=user.id,
                    table_id=turn.table_id,
                    kind=TURN,
                    to_addr=user.email,
                    subject=subject,
                    body=body,
                    created=when,
                    attempts=0,
                )
            )
            s.flush()  # a notice another process inserted meanwhile fails here
    except IntegrityError:
        return False
    return True


def clear_notices(store: Store, table_id: str, user_ids: list[int]) -> None:
    """These accounts have acted at the table: their next turn there mails again."""
    with store.sessions.begin() as s:
        s.execute(
            delete(TurnNoticeRow).where(
                TurnNoticeRow.table_id == table_id, TurnNoticeRow.user_id.in_(user_ids)
            )
        )


def record_turn(store: Store, table_id: str, played: list[int], turn: TurnMail | None) -> bool:
    """The accounts in ``played`` have acted at the table (their notices go), and ``turn`` (if
    any) is queued; whether a mail was queued."""
    if played:
        clear_notices(store, table_id, played)
    return turn is not None and queue_turn(store, turn)


@dataclass(slots=True)
class Claimed:
    """One outbox row this process claimed for sending."""

    id: int
    kind: str
    user_id: int | None
    table_id: str | None
    to_addr: str
    subject: str
    body: str
    attempts: int
    wanted: bool  # False: a turn mail whose player has played since, or turned the mail off


def claim_due(store: Store, limit: int = BATCH) -> list[Claimed]:
    """Claim unsent rows that are due: each by a conditional update (still unsent and still
    due), so of two processes only one gets a row."""
    when = now()
    due = and_(OutboxRow.sent.is_(None), or_(OutboxRow.next_try.is_(None), OutboxRow.next_try <= when))
    out: list[Claimed] = []
    with store.sessions() as s:
        ids = list(s.scalars(select(OutboxRow.id).where(due).order_by(OutboxRow.id).limit(limit)))
    for row_id in ids:
        with store.sessions.begin() as s:
            done = s.execute(
                update(OutboxRow)
                .where(OutboxRow.id == row_id, due)
                .values(next_try=when + timedelta(seconds=LEASE), attempts=OutboxRow.attempts + 1)
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                continue  # another process took it
            row = s.get(OutboxRow, row_id)
            if row is None:
                continue
            wanted = True
            if row.kind == TURN and row.table_id is not None and row.user_id is not None:
                # not once the player has played meanwhile, or has turned the mail off
                user = s.get(UserRow, row.user_id)
                notice = s.get(TurnNoticeRow, (row.table_id, row.user_id))
                wanted = notice is not None and user is not None and bool(user.mail_turns)
            out.append(
                Claimed(
                    row.id,
                    row.kind,
                    row.user_id,
                    row.table_id,
                    row.to_addr,
                    row.subject,
                    row.body,
                    row.attempts,
                    wanted,
                )
            )
    return out


def release(store: Store, row_ids: list[int]) -> None:
    """Rows claimed but not tried (the server is stopping): due again at once, for any process."""
    with store.sessions.begin() as s:
        s.execute(
            update(OutboxRow)
            .where(OutboxRow.id.in_(row_ids), OutboxRow.sent.is_(None))
            .values(next_try=None, attempts=OutboxRow.attempts - 1)
        )


def mark_sent(store: Store, row_id: int) -> None:
    with store.sessions.begin() as s:
        s.execute(update(OutboxRow).where(OutboxRow.id == row_id).values(sent=now(), last_error=None))


def mark_failed(store: Store, row_id: int, error: str, retry: datetime) -> None:
    with store.sessions.begin() as s:
        s.execute(
            update(OutboxRow).where(OutboxRow.id == row_id).values(next_try=retry, last_error=error[:2000])
        )


def drop(store: Store, row_id: int) -> None:
    """A turn mail whose player has played meanwhile is not sent: it is deleted."""
    with store.sessions.begin() as s:
        s.execute(delete(OutboxRow).where(OutboxRow.id == row_id, OutboxRow.sent.is_(None)))


# --- SMTP ----------------------------------------------------------------------------------------
def deliver(settings: SmtpSettings, msg: EmailMessage) -> None:
    """Hand ``msg`` to the SMTP server (blocking). :raises OSError: or an ``smtplib`` error."""
    context = ssl.create_default_context()
    smtp: smtplib.SMTP
    if settings.tls == "ssl":
        smtp = smtplib.SMTP_SSL(settings.host, settings.port, timeout=30, context=context)
    else:
        smtp = smtplib.SMTP(settings.host, settings.port, timeout=30)
    with smtp:
        if settings.tls == "starttls":
            smtp.starttls(context=context)
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(msg)


def build_message(
    settings: SmtpSettings, row: Claimed, body: str, unsubscribe_url: str | None
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = settings.sender
    msg["To"] = row.to_addr
    msg["Subject"] = row.subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2])
    msg["Auto-Submitted"] = "auto-generated"
    if unsubscribe_url is not None:  # RFC 8058 one-click unsubscribe
        msg["List-Unsubscribe"] = f"<{unsubscribe_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(body)
    return msg


# --- the mailer: queueing hook and sender task ------------------------------------------------------
class Mailer:
    """Queues "your turn" mails for the tables of ``manager`` and sends the outbox."""

    def __init__(self, settings: SmtpSettings, manager: TableManager, public_url: str | None) -> None:
        self.settings = settings
        self.manager = manager
        self.public_url = public_url
        self.seen_url: str | None = None  # the last address a request came to
        self._seen_ply: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def base_url(self) -> str | None:
        return self.public_url or self.seen_url

    # queueing
    def mover_changed(self, table: LiveTable, mover: int | None) -> None:
        """The seat to move at ``table`` changed (a ``LiveTable`` mover listener)."""
        seen = self._seen_ply.get(table.id)
        self._seen_ply[table.id] = len(table.rows)
        tc = table.time_control
        if tc is None or not tc.turn_based:
            return
        acted = {r.actor for r in table.rows[seen:]} if seen is not None else set()
        players = [table.seats[a].user_id for a in acted if 0 <= a < len(table.seats)]
        played = sorted({u for u in players if u is not None})
        turn = None
        if mover is not None and mover not in table.bots:
            spec = table.seats[mover]
            base = self.base_url
            if spec.kind == "human" and spec.user_id is not None and base is not None:
                turn = TurnMail(table.id, table.game.game_id, spec.user_id, len(table.rows), base)
            elif spec.kind == "human" and spec.user_id is not None:
                log.warning("table %s: no public URL and no request seen yet: no turn mail", table.id)
        if played or turn is not None:
            task = asyncio.get_running_loop().create_task(self._queue(table.id, played, turn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _queue(self, table_id: str, played: list[int], turn: TurnMail | None) -> None:
        store = self.manager.store
        try:  # one job of the database thread: a request made after the change sees its result
            if await store.run(record_turn, store, table_id, played, turn):
                self._wake.set()
        except Exception:
            log.exception("table %s: the turn mail could not be queued", table_id)

    # sending
    def start(self) -> None:
        self._sender = asyncio.get_running_loop().create_task(self._run(), name="mail-sender")

    async def stop(self) -> None:
        """Wait for the queueing still under way, and for the mail being handed to the SMTP
        server now (never cut off in the middle, which could send it twice); rows claimed
        but not tried are released."""
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
        self._stopping = True
        self._wake.set()
        if self._sender is not None:
            await self._sender

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                await self.send_due()
            except Exception:
                log.exception("the mail sender failed; it tries again")
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.settings.poll)

    async def send_due(self) -> int:
        """Send every due outbox row this process can claim; how many the SMTP server took."""
        store = self.manager.store
        sent = 0
        rows = await store.run(claim_due, store)
        for i, row in enumerate(rows):
            if self._stopping:
                await store.run(release, store, [r.id for r in rows[i:]])
                break
            if not row.wanted:
                await store.run(drop, store, row.id)
                continue
            try:
                msg = await self._message(row)
                await asyncio.to_thread(deliver, self.settings, msg)
            except Exception as exc:
                wait = min(self.settings.retry * 2 ** (row.attempts - 1), MAX_RETRY)
                log.warning("mail %s to %s failed (try %s): %s", row.id, row.to_addr, row.attempts, exc)
                error = f"{type(exc).__name__}: {exc}"
                await store.run(mark_failed, store, row.id, error, now() + timedelta(seconds=wait))
                continue
            await store.run(mark_sent, store, row.id)
            sent += 1
        return sent

    async def _message(self, row: Claimed) -> EmailMessage:
        body = row.body
        unsubscribe_url = None
        if row.kind == TURN and row.table_id is not None:
            link = re.search(rf"(\S+)/table/{re.escape(row.table_id)}(?=\s)", body)
            if link is not None:
                base = link.group(1)
                table = await self.manager.get(row.table_id)
                seat = (
                    next((s.seat for s in table.seats if s.user_id == row.user_id), None) if table else None
                )
                if table is not None and seat is not None:
                    token = await self.manager.issue_token(table, seat)
                    body = body.replace(link.group(0), f"{link.group(0)}#token={token}", 1)
                found = re.search(rf"{re.escape(base)}/unsubscribe/\S+", body)
                unsubscribe_url = found.group(0) if found else None
        return build_message(self.settings, row, body, unsubscribe_url)


class SeenAddress:
    """ASGI middleware: remembers the address requests come to, for mail links when the
    server has no public URL."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            mailer: Mailer | None = getattr(scope["app"].state, "mailer", None) if "app" in scope else None
            if mailer is not None and mailer.public_url is None:
                from starlette.requests import HTTPConnection

                from ziggurat.server.links import public_url

                mailer.seen_url = public_url(HTTPConnection(scope))
        await self.app(scope, receive, send)
