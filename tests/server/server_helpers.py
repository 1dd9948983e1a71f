"""Helpers of the server tests: tables, sockets, waiting for bots, the log rule.

Nothing here waits with a clock: a socket that stays silent or bots that never stop are
caught by the suite's per-test timeout (``timeout`` in pyproject.toml).
"""

from __future__ import annotations

import time
import warnings
from typing import Any

with warnings.catch_warnings():  # Starlette warns that its TestClient will move to httpx2
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ziggurat.server import create_app


def open_client(db_url: str) -> TestClient:
    """A client on an app of its own (use as a context manager: that starts and stops it)."""
    return TestClient(create_app(db_url, bot_delay=0, static_dir="/nonexistent"))


def new_table(
    client: TestClient,
    seats: str = "hhh",
    options: dict[str, Any] | None = None,
    seed: int | None = 1,
    bot: str = "random",
) -> dict[str, Any]:
    """Create a table; ``seats`` has one letter per seat: ``h`` human, ``b`` bot."""
    body = {
        "game": "mesopotamia",
        "players": len(seats),
        "options": options or {},
        "seats": [{"kind": "human"} if s == "h" else {"kind": "bot", "bot": bot} for s in seats],
        "seed": seed,
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def token(table: dict[str, Any], seat: int) -> str:
    tok: str = table["seats"][seat]["token"]
    return tok


def ws_url(table: dict[str, Any], tok: str | None) -> str:
    return f"/ws/{table['table']}" + ("" if tok is None else f"?token={tok}")


def arrive(client: TestClient, table: dict[str, Any], seats: list[int] | None = None) -> None:
    """The players of ``seats`` (default: every seat with a token) come to the table: a socket
    of each opens, gets its first ``state``, and closes. A real-time table's clocks wait until
    every human seat's player has come."""
    for seat in range(len(table["seats"])) if seats is None else seats:
        tok = table["seats"][seat].get("token")
        if tok is None:
            continue
        with client.websocket_connect(ws_url(table, tok)) as ws:
            assert receive(ws)["type"] == "state"


def receive(ws: Any, thinking: bool = False) -> dict[str, Any]:
    """The next message of a test socket as JSON (a socket the server closed raises
    ``WebSocketDisconnect``); a bot's ``thinking`` notices are skipped unless ``thinking``, and
    ``presence`` notices (another seat's socket opening or closing) always."""
    while True:
        data: dict[str, Any] = ws.receive_json()
        kind = data.get("type")
        if kind != "presence" and (thinking or kind != "thinking"):
            return data


def receive_state(ws: Any) -> dict[str, Any]:
    msg = receive(ws)
    assert msg["type"] == "state", msg
    return msg


def waiting(client: TestClient, table_id: str) -> tuple[int, bool]:
    """``(version, waiting)``: the server table's version and whether it waits for a human.

    The server changes a table only while holding its lock, so a table seen unlocked before
    and after reading is consistent.
    """
    t = live_table(client, table_id)
    while True:
        free = not t.lock.locked()
        version, state = t.version, t.state
        if free and not t.lock.locked() and version == t.version:
            break
        time.sleep(0.001)
    who = state.current_player()
    return version, state.is_terminal() or (who >= 0 and who not in t.bots)


def settle(
    ws: Any,
    client: TestClient,
    table_id: str,
    last: dict[str, Any] | None = None,
    seen: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Read state messages until the game waits for a human (or is over); return the last one.

    Every message read is appended to ``seen`` if given.
    """
    while True:
        if last is not None:
            version, idle = waiting(client, table_id)
            if idle and last["version"] == version:
                return last
        last = receive_state(ws)
        if seen is not None:
            seen.append(last)


def apply_log(log: list[dict[str, Any]], msg: dict[str, Any]) -> list[dict[str, Any]]:
    """A client's log after ``msg`` (the protocol's ``log_start`` rule)."""
    assert 0 <= msg["log_start"] <= len(log)
    return log[: msg["log_start"]] + msg["log"]


def live_table(client: TestClient, table_id: str) -> Any:
    """The server's in-memory table (tests read it to know the truth)."""
    return client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]


def wait_idle(client: TestClient, table_id: str) -> int:
    """Wait until the table waits for a human (or is over); its version."""
    while True:
        version, idle = waiting(client, table_id)
        if idle:
            return version
        time.sleep(0.005)


def drain(ws: Any) -> list[dict[str, Any]]:
    """Every message queued for ``ws`` (call once the table is idle): reads up to a pong."""
    ws.send_json({"type": "ping"})
    out = []
    while (msg := receive(ws))["type"] != "pong":
        out.append(msg)
    return out
