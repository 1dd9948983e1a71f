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


def _extensions_answered(tmp_path: Path, *flags: str) -> str | None:
    """The ``Sec-WebSocket-Extensions`` a served table's socket answers to a client that offers
    permessage-deflate, with ``serve`` given ``flags``; and the socket's first state arrives."""
    from websockets.sync.client import connect

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZIGGURAT_")}
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'g.sqlite'}"]
    log_path = tmp_path / f"serve{len(flags)}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", CLI, *args, *flags],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=tmp_path,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(proc, base, log_path)
            body = {"game": "mesopotamia", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            request = urllib.request.Request(
                base + "/api/tables",
                data=json.dumps(body).encode(),
                headers={"content-type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=10) as res:
                table = json.loads(res.read())
            url = f"ws://127.0.0.1:{port}/ws/{table['table']}?token={table['seats'][0]['token']}"
            with connect(url, compression="deflate", open_timeout=30) as ws:
                answered = ws.response.headers.get("Sec-WebSocket-Extensions")
                assert json.loads(ws.recv(timeout=30))["type"] == "state"
            stop(proc)
        finally:
            kill(proc)
    return answered


def test_websocket_messages_are_compressed_only_when_asked(tmp_path: Path) -> None:
    assert _extensions_answered(tmp_path) is None  # the default: plain frames, less CPU per message
    answered = _extensions_answered(tmp_path, "--ws-compression")
    assert answered is not None and answered.startswith("permessage-deflate")
