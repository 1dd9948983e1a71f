"""Tokens never reach the server's logs, in any spelling (docs/server.md, Guarantees).

A real uvicorn server (127.0.0.1, a free port, access log on, every logger writing to one
file through uvicorn's own formatters) is asked with the token in many spellings of the query
and in the ``X-Ziggurat-Token`` header; afterwards the log file holds no token, not even
percent-encoded, while every spelling the server accepts as ``token`` still opens the table.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from ziggurat.server import create_app
from ziggurat.server.logfilter import TokenFilter, redact


def _log_config(path: Path) -> dict[str, Any]:
    """uvicorn's logging set-up with every logger writing to ``path``."""
    config: dict[str, Any] = json.loads(json.dumps(uvicorn.config.LOGGING_CONFIG))
    for name in ("default", "access"):
        config["handlers"][name] = {
            "class": "logging.FileHandler",
            "filename": str(path),
            "formatter": name,
            "encoding": "utf-8",
        }
    config["loggers"]["uvicorn.access"]["level"] = "DEBUG"
    config["loggers"]["uvicorn.error"]["level"] = "DEBUG"
    config["loggers"]["websockets"] = {"handlers": ["default"], "level": "DEBUG", "propagate": False}
    config["loggers"]["ziggurat"] = {"handlers": ["default"], "level": "DEBUG", "propagate": False}
    return config


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The base URL of a running server and its log file (complete once the fixture ends)."""
    log_file = tmp_path / "server.log"
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", bot_delay=0, static_dir=tmp_path / "no-static")
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_config=_log_config(log_file), access_log=True, log_level="debug"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:  # no clock: the suite's per-test timeout catches a server that hangs
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"127.0.0.1:{port}", log_file
    finally:
        server.should_exit = True
        thread.join()
        for handler in logging.getLogger("uvicorn.access").handlers:
            handler.flush()


def _encoded(text: str) -> str:
    """Every character of ``text`` as a %XX escape."""
    return "".join(f"%{b:02X}" for b in text.encode())


def _query_spellings(tok: str) -> list[tuple[str, bool]]:
    """(query string, whether Starlette reads it as ``token=<tok>``)."""
    return [
        (f"token={tok}", True),
        (f"tok%65n={tok}", True),
        (f"{_encoded('token')}={tok}", True),
        (f"token={_encoded(tok)}", True),
        (f"{_encoded('token')}={_encoded(tok)}", True),
        (f"token=nothing&token={tok}", True),
        (f"x=1&token={tok}&y=2", True),
        (f"token={tok}&token={tok}", True),
        (f"TOKEN={tok}", False),
        (f"Tok%45N={tok}", False),
        (f"tok%2565n={tok}", False),
        (f"token%3D{tok}", False),
        (f"spectator_token={tok}", False),
        (f"token={tok[:10]}%3B{tok[10:]}", False),
        (f"token={tok};x=1", False),
    ]


def _create_table(http: httpx.Client) -> dict[str, Any]:
    body = {"game": "mesopotamia", "players": 2, "seats": [{"kind": "human"}] * 2, "seed": 3}
    r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


def _socket_opens(base: str, path: str) -> bool:
    """Whether the table socket at ``path`` sends a ``state`` (a wrong token closes it at once)."""
    with connect(f"ws://{base}{path}", open_timeout=30) as ws:
        try:
            message = json.loads(ws.recv(timeout=30))
        except Exception:  # closed by the server: bad token
            return False
        return bool(message.get("type") == "state")


def _raw_request(base: str, target: str) -> None:
    """Send ``GET <target>`` as typed (no client cleans it up) and read the answer."""
    host, port = base.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(f"GET {target} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n\r\n".encode())
        while conn.recv(4096):
            pass


def test_tokens_never_reach_the_uvicorn_log(served: tuple[str, Path]) -> None:
    base, log_file = served
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        table = _create_table(http)
        tid = table["table"]
        tokens = [table["seats"][0]["token"], table["spectator_token"]]
        for tok in tokens:
            for query, accepted in _query_spellings(tok):
                assert _socket_opens(base, f"/ws/{tid}?{query}") is accepted, query
                http.get(f"/api/tables/{tid}?{query}")
                http.get(f"/table/{tid}?{query}")
            for name in ("X-Ziggurat-Token", "x-ziggurat-token", "X-ZIGGURAT-TOKEN"):
                assert http.get(f"/api/tables/{tid}", headers={name: tok}).status_code == 200
                assert http.get(f"/api/tables/{tid}/record", headers={name: tok}).status_code == 200
            assert http.get(f"/api/tables/{tid}", headers={"X-Ziggurat-Token": tok + "x"}).status_code == 403
            _raw_request(base, f"/table/{tid}#token={tok}")
            _raw_request(base, f"/ws/{tid}?token={tok}#token={tok}")
            _raw_request(base, f"/table/{tid}%23token={tok}")
    text = log_file.read_text(encoding="utf-8")
    assert f"/ws/{tid}?token=***" in text  # the WebSocket paths were logged, redacted
    assert f"GET /api/tables/{tid}?tok%65n=***" in text  # and the HTTP request lines
    for tok in tokens:
        assert tok not in text
        assert tok not in unquote(unquote(text))
        assert tok[:16] not in text and tok[16:] not in text


def test_accepted_spelling_is_a_spelling_of_token() -> None:
    """The spellings above that the server accepts decode to ``token``; redaction does not
    depend on that, but the list would be meaningless if they did not."""
    tok = "A" * 32
    for query, accepted in _query_spellings(tok):
        if accepted:
            names = {unquote(pair.split("=", 1)[0]) for pair in query.split("&")}
            assert "token" in names, query


def _record(msg: str, args: Any = (), exc: BaseException | None = None) -> str:
    """``msg % args`` as a handler with the token filter writes it."""
    logger = logging.getLogger("ziggurat.server.test-log-tokens")
    logger.propagate = False
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Keep()
    handler.addFilter(TokenFilter())
    logger.addHandler(handler)
    try:
        exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
        logger.error(msg, *args, exc_info=exc_info)
    finally:
        logger.removeHandler(handler)
    return "\n".join(lines)


def test_messages_we_log_are_redacted() -> None:
    tok = "Zq3v_Kx9-" + "p" * 23
    assert tok not in _record("socket of table t1 failed: token=%s", (tok,))
    assert tok not in _record("request headers: %s", ({"x-ziggurat-token": tok},))
    assert tok not in _record("scope headers: %r", ([(b"host", b"h"), (b"x-ziggurat-token", tok.encode())],))
    assert tok not in _record("X-Ziggurat-Token: %s", (tok,))
    assert tok not in _record("%s", (f"/ws/t1?x=1&%54OKEN={quote(tok)}",))
    try:
        raise ValueError(f"bad link /table/t1?token={tok}")
    except ValueError as exc:
        assert tok not in _record("table t1: socket failed", exc=exc)
    kept = _record("table %s moved on to ply %d", ("t1", 12))
    assert kept.endswith("table t1 moved on to ply 12")


def test_redact_keeps_other_parameters() -> None:
    assert redact("/ws/t1?seat=2&tok%65n=abc&x=token") == "/ws/t1?seat=2&tok%65n=***&x=token"
    assert redact("GET /api/games HTTP/1.1") == "GET /api/games HTTP/1.1"
