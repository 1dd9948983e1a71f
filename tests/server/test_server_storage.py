"""Storage: migrations match the models, render for PostgreSQL, and the database URL is chosen right."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext

from ziggurat.cli.serve import display_url
from ziggurat.server.db import ENV_VAR, MIGRATIONS_DIR, Base, default_url, make_engine, upgrade


def test_migrations_create_exactly_the_models(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(engine)
    upgrade(engine)  # running it again at the next start changes nothing
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    engine.dispose()


def test_migrations_render_for_postgresql() -> None:
    """Only portable types: the DDL renders for PostgreSQL (offline, no server needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", "postgresql+psycopg://user@localhost/ziggurat")
    out = io.StringIO()
    config.stdout = out
    with redirect_stdout(out):
        command.upgrade(config, "head", sql=True)
    sql = out.getvalue()
    for table in ("tables", "seats", "tokens", "actions"):
        assert f"CREATE TABLE {table}" in sql
    assert "TIMESTAMP WITH TIME ZONE" in sql and "BIGINT" in sql


def test_database_url_comes_from_the_environment_or_user_data(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV_VAR, "postgresql+psycopg://u@h/db")
    assert default_url() == "postgresql+psycopg://u@h/db"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_url()
    assert url.startswith("sqlite:///") and url.endswith("ziggurat.db")


def test_serve_prints_an_address_to_open() -> None:
    assert display_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert display_url("0.0.0.0", 9000) == "http://127.0.0.1:9000/"
    assert display_url("::1", 80) == "http://[::1]:80/"


def test_tokens_are_redacted_from_uvicorn_logs() -> None:
    import logging

    from ziggurat.server.logfilter import TokenFilter

    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("1.2.3.4", "/ws/t?token=SECRET"),
        None,
    )
    TokenFilter().filter(record)
    assert "SECRET" not in record.getMessage() and "token=***" in record.getMessage()
