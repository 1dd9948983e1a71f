"""Storage: the SQLAlchemy models, the database URL, and migrations run at start.

Four tables hold everything a server needs to resume: ``tables`` (game, options, seed,
status, rematch, whether it is listed in the public lobby), ``seats`` (kind, bot, the account
or guest name sitting there), ``tokens`` (the SHA-256 of each seat or spectator token; a seat
may hold several, e.g. one issued by a rematch request) and ``actions`` (one row per applied
action: ply, canonical text, actor seat, and whether it is an undo barrier).

Around the table: ``users`` (accounts, with an argon2 password hash), ``auth_sessions`` (the
SHA-256 of each sign-in cookie with its CSRF token), ``chat`` (a table's messages),
``ratings`` (an account's openskill rating per game) and ``rating_changes`` (what one finished
table did to each seat's rating).

At your own pace: ``tables.time_control`` (the table's clock: none, real-time or turn-based),
``seat_clocks`` (each seat's time left, since when it counts, and whether a bot has taken the
seat over), ``heartbeats`` (when each server process was last alive, so time the server was
down is not charged), ``outbox`` (mail waiting to be sent, kept until sent) and
``turn_notices`` (the "your turn" mail already sent to a player for a table).

Several processes: ``tables.revision`` (changes of the game line, checked and bumped by every
change so that only one process's change of a revision is stored), ``tables.keeper`` and
``keeper_until`` (the process running the table's bots and clocks, and until when),
``tables.driven`` (the table needs that process now: a bot or chance to move, a clock counting), and
``snapshots`` (a table's position every few plies, so it resumes without replaying its game).

Only portable column types are used, so the same models work on SQLite and PostgreSQL.
Tokens and session cookies are never stored, only their SHA-256.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    select,
    text,
    true,
)
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

ENV_VAR = "ZIGGURAT_DATABASE_URL"
MIGRATIONS_DIR = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


TABLE_STATUSES = ("open", "playing", "over")
"""``open``: a lobby table waiting for players (nothing is played yet); ``playing``; ``over``."""

SEAT_KINDS = ("human", "bot", "open")
"""``open``: a free seat of a lobby table, which a player takes (it becomes ``human``) or the
host fills with a bot when starting."""


class UserRow(Base):
    """An account: a user name (shown as typed, unique without regard to case) and the argon2
    hash of its password."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)  # the name case-folded
    password_hash: Mapped[str] = mapped_column(String(255))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    mail_turns: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    unsubscribe: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)  # SHA-256
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)  # the language of its mails


class SessionRow(Base):
    """One signed-in browser: the SHA-256 of its session cookie, and the CSRF token that every
    cookie-authenticated change must carry in ``X-CSRF-Token``."""

    __tablename__ = "auth_sessions"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    """One table: a game with its options, seed and status (:data:`TABLE_STATUSES`)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    start: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)  # who starts a lobby table
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # {"kind": "realtime", "budget": s, "increment": s} or {"kind": "turn_based", "per_turn": s},
    # with "grace" (s) and "takeover" (a bot level); None: no clock
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # changes of the game line (actions, undos, seats, the start): a change is stored only if
    # the revision is still the one its process saw (several processes share the database)
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    keeper: Mapped[str | None] = mapped_column(String(64), nullable=True)  # runs bots and clocks
    keeper_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the table needs its keeper now: a bot or chance to move, or a clock counting
    driven: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    """One seat of a table (:data:`SEAT_KINDS`): a human (with token hashes, and the account or
    guest name sitting there, if known), a bot, or a free seat of a lobby table."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    name: Mapped[str | None] = mapped_column(String(32), nullable=True)  # a guest's name


class TokenRow(Base):
    """The SHA-256 of one access token: a seat's (``seat`` set) or a spectator's (``None``)."""

    __tablename__ = "tokens"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ActionRow(Base):
    """One applied action (chance outcomes included); ``actor`` is -1 for chance."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    actor: Mapped[int] = mapped_column(Integer)
    barrier: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SnapshotRow(Base):
    """The table's position after ``ply`` (``State.to_position``): a table resumes from its
    latest snapshot and replays only the actions after it."""

    __tablename__ = "snapshots"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message of a table, written by a seat (spectators read)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))  # the writer as shown when it was written
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's openskill rating in one game."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """What one finished table did to one seat's rating (an account's, or a bot level's fixed one)."""

    __tablename__ = "rating_changes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game: Mapped[str] = mapped_column(String(64))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatClockRow(Base):
    """One seat's clock at a timed table: the time it has left (real-time: its budget; turn-based:
    what is left of the current turn), since when it counts (``None``: not counting, the seat has
    no decision), when it ran out, since which ply a bot plays the seat (``None``: its player),
    and whether the seat's player has come to the table (a real-time table's clocks wait for
    every player)."""

    __tablename__ = "seat_clocks"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    remaining_ms: Mapped[int] = mapped_column(BigInteger)
    running_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    timed_out: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    bot_since_ply: Mapped[int | None] = mapped_column(Integer, nullable=True)
    arrived: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class HeartbeatRow(Base):
    """When a server process was last alive (written every few seconds)."""

    __tablename__ = "heartbeats"

    process: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OutboxRow(Base):
    """One mail to send; kept (``sent`` set) once the SMTP server took it."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True
    )
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), nullable=True, index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class TurnNoticeRow(Base):
    """A "your turn" mail was queued for this player at this table (at ``ply``); no other is
    sent for the table until the player has played (the row is then deleted)."""

    __tablename__ = "turn_notices"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def default_url() -> str:
    """``ZIGGURAT_DATABASE_URL`` if set, else a SQLite file in the user data directory."""
    url = os.environ.get(ENV_VAR)
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("ziggurat"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ziggurat.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL journalling and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL lets readers run while an action is committed; NORMAL still survives a
            # crash of the server process (only an OS crash can lose the last commits).
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class SqliteInUse(RuntimeError):
    """Another server process already serves this SQLite database."""


def hold_sqlite(engine: Engine) -> Any:
    """For a SQLite file: hold an exclusive lock on ``<file>-server.lock`` while the server
    runs, so a second server process on the same file stops at once with a clear message
    (SQLite serves one process: several share a PostgreSQL database). The operating system
    drops the lock when the process ends, however it ends. Answers the open lock file (close
    it to let go), or ``None`` for PostgreSQL or an in-memory database.

    :raises SqliteInUse: if another process holds it."""
    path = engine.url.database
    if engine.dialect.name != "sqlite" or not path or path == ":memory:":
        return None
    import fcntl

    handle = open(f"{path}-server.lock", "a+")  # noqa: SIM115  # held open while the server runs
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SqliteInUse(
            f"another ziggurat server uses {path}: SQLite serves one process; several processes "
            "share a PostgreSQL database (--db postgresql+psycopg://user:pw@host/db)"
        ) from None
    return handle


def upgrade(engine: Engine) -> None:
    """Bring the database schema to the newest migration (``alembic upgrade head``).

    Start-up stays cheap: a database already at the newest migration is left as it is, and an
    empty SQLite database gets the models' tables at once, stamped with the newest migration
    (there the migrations make exactly the models' schema, constraint names included), without
    importing Alembic. Any other database runs the migrations it lacks (on PostgreSQL the
    migrations name some constraints their own way, which later migrations may rely on).
    """
    head = migration_head()
    with engine.begin() as conn:
        tables = set(sa_inspect(conn).get_table_names())
        current = None
        if ALEMBIC_VERSION.name in tables:
            current = conn.execute(select(ALEMBIC_VERSION.c.version_num)).scalar()
        if head is not None and current == head:
            return
        if head is not None and not tables and engine.dialect.name == "sqlite":
            Base.metadata.create_all(conn)
            ALEMBIC_VERSION.create(conn)
            conn.execute(ALEMBIC_VERSION.insert().values(version_num=head))
            return
    migrate(engine)


def migration_head() -> str | None:
    """The newest migration's revision, read from the scripts' ``revision`` and
    ``down_revision`` lines without importing Alembic; ``None`` unless exactly one script is
    no other's ``down_revision``."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS_DIR / "versions").glob("*.py"):
        text_ = script.read_text(encoding="utf-8")
        for name, found in (("revision", revisions), ("down_revision", parents)):
            match = re.search(rf"^{name}\s*(?::[^=\n]*)?=\s*[\"']([^\"']+)[\"']", text_, re.MULTILINE)
            if match:
                found.add(match.group(1))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


ALEMBIC_VERSION = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)
"""Alembic's own table, as ``alembic stamp`` makes it."""


MIGRATION_LOCK = 0x5A1660
"""The PostgreSQL advisory lock a process holds while it migrates (``serve --workers`` starts
several processes on one database at once)."""


def migrate(engine: Engine) -> None:
    """Run the migrations the database lacks, through Alembic."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # processes starting together migrate one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
