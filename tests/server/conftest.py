"""Fixtures for the server tests: each test gets its own database and ``bot_delay=0``.

The database is a fresh SQLite file, or, when ``ZIGGURAT_TEST_POSTGRES_URL`` names a PostgreSQL
server (``postgresql+psycopg://user:pw@host/postgres``, needs ``pip install -e '.[postgres]'``),
a fresh PostgreSQL database created for the test and dropped after it. Two tests read the
SQLite file itself (tokens stored only as hashes, rows committed before the broadcast) and
need the SQLite default; every other server test also runs on PostgreSQL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import TestClient, create_app


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    admin = os.environ.get("ZIGGURAT_TEST_POSTGRES_URL")
    if not admin:
        yield f"sqlite:///{tmp_path / 'ziggurat.db'}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"ziggurat_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.fixture
def client(db_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static")
    with TestClient(app) as c:
        yield c
