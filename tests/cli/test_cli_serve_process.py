"""``ziggurat serve`` through the real CLI app, in a process of its own: it starts on the port
asked for (127.0.0.1 only) with the database given, answers the lobby and the API, and stops
cleanly on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from live_server import free_port, kill, stop, wait_healthy

# the console script's entry point, run by this interpreter so the tree under test is served
CLI = "import sys; from ziggurat.cli.main import app; sys.argv[0] = 'ziggurat'; app()"


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as res:
        return res.status, res.headers.get("content-type", ""), res.read()


def test_serve_starts_answers_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "games.sqlite"
    env = {k: v for k, v in os.environ.items() if k != "ZIGGURAT_DATABASE_URL"}
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{db}"]
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(proc, base, log_path)
            status, kind, body = _get(base + "/")
            assert status == 200 and kind.startswith("text/html")
            assert b"<html" in body.lower()
            status, kind, body = _get(base + "/api/games")
            assert status == 200 and kind.startswith("application/json")
            ids = {g["id"] for g in json.loads(body)}
            assert ids == {"mesopotamia", "mesopotamia-epochs", "mare-nostrum"}
            code = stop(proc)
        finally:
            kill(proc)
    out = log_path.read_text()
    # uvicorn shuts down gracefully on SIGTERM, then re-raises the signal (older ones exit 0)
    assert code in (0, -signal.SIGTERM), out
    assert "Application shutdown complete" in out and "Finished server process" in out
    assert f"Ziggurat server: open http://127.0.0.1:{port}/" in out
    assert f"Database: sqlite:///{db}" in out
    assert db.is_file()  # the games are stored where --db says
    assert "Traceback" not in out
