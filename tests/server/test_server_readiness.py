"""``GET /readyz`` (docs/server.md, "Operations"): 200 ``{"ready": true}`` while the database
answers, 503 ``{"ready": false, "reason": ...}`` before the app has started, when the database
thread does not answer in time, and once the database is gone; ``/healthz`` (liveness) answers
200 all along."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from server_helpers import TestClient, create_app
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ziggurat.server.app import READY_TIMEOUT

POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"


def _app_client(db_url: str, tmp_path: Path) -> TestClient:
    return TestClient(create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static"))


def _ready(client: TestClient) -> tuple[int, dict[str, object]]:
    r = client.get("/readyz")
    return r.status_code, r.json()


def test_readyz_is_200_while_the_database_answers(db_url: str, tmp_path: Path) -> None:
    with _app_client(db_url, tmp_path) as client:
        assert _ready(client) == (200, {"ready": True})
        assert client.get("/healthz").json()["status"] == "ok"


def test_readyz_is_503_before_the_app_has_started(tmp_path: Path) -> None:
    client = _app_client(f"sqlite:///{tmp_path / 'never.db'}", tmp_path)  # no lifespan: not started
    assert _ready(client) == (503, {"ready": False, "reason": "the server is starting"})
    assert client.get("/healthz").status_code == 200


def test_readyz_is_503_while_the_database_thread_does_not_answer_then_200_again(
    db_url: str, tmp_path: Path
) -> None:
    """The database thread is held by a long task (as by a slow transaction): the readiness
    query waits behind it, past the app's timeout. Once it is let go, the server is ready."""
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static")
    with TestClient(app) as client:
        app.state.ready_timeout = 0.2
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:
            holding.set()
            release.wait()

        store = app.state.manager.store
        assert client.portal is not None
        held = client.portal.start_task_soon(store.run, hold)
        holding.wait()
        try:
            assert _ready(client) == (
                503,
                {"ready": False, "reason": "the database did not answer within 0.2 s"},
            )
            assert client.get("/healthz").status_code == 200  # alive all the same
        finally:
            release.set()
        held.result()
        app.state.ready_timeout = READY_TIMEOUT
        assert _ready(client) == (200, {"ready": True})


def _take_the_database_away(db_url: str) -> None:
    """SQLite: the database's files are overwritten (its open connections then read garbage);
    PostgreSQL: the database is dropped, its connections terminated."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        base = Path(str(url.database))
        for path in (base, Path(f"{base}-wal"), Path(f"{base}-shm")):
            if path.exists():
                with open(path, "r+b") as f:
                    f.write(b"\xff" * max(path.stat().st_size, 4096))
        return
    admin = create_engine(os.environ[POSTGRES_ENV], isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{url.database}" WITH (FORCE)'))
    finally:
        admin.dispose()


def test_readyz_is_503_once_the_database_is_gone(db_url: str, tmp_path: Path) -> None:
    with _app_client(db_url, tmp_path) as client:
        assert _ready(client)[0] == 200
        _take_the_database_away(db_url)
        for _ in range(2):  # and stays so (a pool's reconnection does not bring it back)
            status, body = _ready(client)
            assert status == 503 and body["ready"] is False, body
            assert isinstance(body["reason"], str)
            assert body["reason"].startswith("the database answered with an error (")
            assert "postgres" not in body["reason"] and "127.0.0.1" not in body["reason"]  # no address
        assert client.get("/healthz").status_code == 200
