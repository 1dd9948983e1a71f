"""Fixtures for the server tests: each test gets its own database and ``bot_delay=0``.

A test that takes ``db_url`` (or ``client``) runs on a fresh SQLite file (id ``sqlite``) and,
when ``ZIGGURAT_TEST_POSTGRES_URL`` names a PostgreSQL server
(``postgresql+psycopg://user:pw@host/postgres``, needs ``pip install -e '.[postgres]'``; `.ci/run`
starts one), once more on a fresh PostgreSQL database created for it and dropped after it (id
``postgres``). A test marked ``sqlite_only`` runs on SQLite only: it reads the SQLite file
itself (tokens stored only as hashes, rows committed before the broadcast), or the database
plays no part in what it checks (the 405 answers, which come before any route: 237 cases that
would each make a PostgreSQL database for nothing). A test marked ``postgres_only`` (several
server processes sharing one database) runs on PostgreSQL only.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import TestClient, create_app

POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses ``db_url`` runs on each database there is (see the module)."""
    if "db_url" not in metafunc.fixturenames:
        return
    kinds = ["sqlite"]
    if os.environ.get(POSTGRES_ENV) and metafunc.definition.get_closest_marker("sqlite_only") is None:
        kinds.append("postgres")
    if metafunc.definition.get_closest_marker("postgres_only") is not None:
        kinds = [k for k in kinds if k == "postgres"]  # none without a PostgreSQL server
    metafunc.parametrize("db_url", kinds, indirect=True, ids=kinds)


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ziggurat.db'}"
        return
    admin = os.environ[POSTGRES_ENV]
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
