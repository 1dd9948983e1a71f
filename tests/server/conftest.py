"""Fixtures for the server tests: each test gets its own SQLite file and ``bot_delay=0``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import TestClient, create_app


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ziggurat.db'}"


@pytest.fixture
def client(db_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static")
    with TestClient(app) as c:
        yield c
