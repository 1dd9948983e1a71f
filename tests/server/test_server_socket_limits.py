"""WebSocket limits per client address (docs/server.md, "Limits"): past the connection limit a
socket is closed with 1008 and a reason; past the message limit a message is answered with a
``rate_limited`` error saying how long to wait, and nothing changes; once the window has
passed both are allowed again. The address is the one the trusted proxy's ``X-Forwarded-For``
names; this machine's own addresses are not limited. The windows are the ``limits`` library's
(whole seconds on the wall clock, which it offers no way to replace), so the tests use windows
of one or two seconds and wait for them to pass."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    TestClient,
    create_app,
    live_table,
    new_table,
    receive,
    receive_state,
    token,
    ws_url,
)
from starlette.requests import Request
from starlette.websockets import WebSocketDisconnect
from test_server_metrics import scrape, value

from ziggurat.server.limits import (
    AddressLimit,
    SocketLimits,
    from_this_machine,
    socket_limits_from_env,
    too_many_requests,
)

PROXY = ("127.0.0.1", 40000)


@contextmanager
def behind_proxy(db_url: str, tmp_path: Path, limits: SocketLimits) -> Iterator[TestClient]:
    """A server that trusts the proxy at 127.0.0.1 (this test client's address)."""
    app = create_app(
        db_url,
        bot_delay=0,
        static_dir=tmp_path / "no-static",
        forwarded_allow_ips="127.0.0.1",
        socket_limits=limits,
    )
    with TestClient(app, client=PROXY) as client:
        yield client


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _refused_connection(client: TestClient, url: str, address: str) -> WebSocketDisconnect:
    with (
        client.websocket_connect(url, headers=_from(address)) as ws,
        pytest.raises(WebSocketDisconnect) as exc,
    ):
        receive(ws)
    return exc.value


def test_connections_past_the_limit_are_closed_with_1008_then_allowed_again(
    db_url: str, tmp_path: Path
) -> None:
    with behind_proxy(db_url, tmp_path, SocketLimits(AddressLimit(2, 1), None)) as client:
        t = new_table(client, seats="hh")
        url = ws_url(t, token(t, 0))
        with (
            client.websocket_connect(url, headers=_from("198.51.100.7")) as one,
            client.websocket_connect(url, headers=_from("198.51.100.7")) as two,
        ):
            receive_state(one)
            receive_state(two)
            closed = _refused_connection(client, url, "198.51.100.7")
            assert closed.code == 1008
            assert closed.reason.startswith("too many connections: at most 2 every second; try again in ")
            with client.websocket_connect(url, headers=_from("198.51.100.8")) as other:  # its own count
                receive_state(other)
            with client.websocket_connect(url) as local:  # the proxy's own address: not limited
                receive_state(local)
            assert value(scrape(client), "ziggurat_sockets") == 2
        assert value(scrape(client), "ziggurat_rate_limited_total", what="connection") == 1
        while True:  # the window passes (a refusal counts nothing, so it does not push it back)
            try:
                with client.websocket_connect(url, headers=_from("198.51.100.7")) as again:
                    assert receive_state(again)["seat"] == 0
                    break
            except WebSocketDisconnect as refused:
                assert refused.code == 1008
                time.sleep(0.2)


def _send(ws: Any, payload: dict[str, Any]) -> None:
    ws.send_json(payload)


def test_messages_past_the_limit_are_refused_and_change_nothing_then_allowed_again(
    db_url: str, tmp_path: Path
) -> None:
    with behind_proxy(db_url, tmp_path, SocketLimits(None, AddressLimit(3, 2))) as client:
        t = new_table(client, seats="hh")
        table = live_table(client, t["table"])
        with (
            client.websocket_connect(ws_url(t, token(t, 0)), headers=_from("198.51.100.7")) as a,
            client.websocket_connect(ws_url(t, token(t, 1)), headers=_from("198.51.100.7")) as b,
        ):
            state = receive_state(a)
            receive_state(b)
            mover, idle = (a, b) if state["legal"] else (b, a)
            action = (state if state["legal"] else receive_state(b))["legal"][0]
            version = table.version
            for ws in (idle, idle, mover):  # the address's sockets share its count: 3, then the action
                _send(ws, {"type": "ping"})
            _send(mover, {"type": "action", "action": action})
            assert [receive(idle), receive(idle), receive(mover)] == [{"type": "pong"}] * 3
            err = receive(mover)
            assert err["type"] == "error" and err["code"] == "rate_limited", err
            assert (
                err["message"]
                == f"too many messages from this address: at most 3 every 2 seconds; wait {err['retry_after']} s"
            )
            assert err["retry_after"] in (1, 2)
            assert table.version == version  # nothing was played
            while True:  # allowed again once the window has passed
                _send(mover, {"type": "action", "action": action})
                answer = receive(mover)
                if answer["type"] == "state":
                    break
                assert answer["code"] == "rate_limited"
                time.sleep(0.2)
            assert table.version == version + 1 and table.rows[-1].text == action
        assert value(scrape(client), "ziggurat_rate_limited_total", what="message") >= 1


def test_this_machines_addresses_are_not_limited(db_url: str, tmp_path: Path) -> None:
    app = create_app(
        db_url,
        bot_delay=0,
        static_dir=tmp_path / "no-static",
        socket_limits=SocketLimits(AddressLimit(1, 60), AddressLimit(1, 60)),
    )
    with TestClient(app, client=("127.0.0.1", 40000)) as client:
        t = new_table(client, seats="hh")
        for _ in range(3):
            with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
                receive_state(ws)
                for _ in range(3):
                    ws.send_json({"type": "ping"})
                    assert receive(ws) == {"type": "pong"}


@pytest.mark.parametrize(
    ("address", "local"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("testclient", True),
        ("unknown", True),
        ("198.51.100.7", False),
        ("2001:db8::1", False),
    ],
)
def test_from_this_machine(address: str, local: bool) -> None:
    assert from_this_machine(address) is local


def test_the_socket_limits_are_read_from_the_environment() -> None:
    default = socket_limits_from_env({})
    assert default.connections is not None and default.messages is not None
    assert (default.connections.amount, default.connections.seconds) == (30, 60)
    assert (default.messages.amount, default.messages.seconds) == (20, 1)
    custom = socket_limits_from_env({"ZIGGURAT_WS_CONNECT_RATE": "5/10", "ZIGGURAT_WS_MESSAGE_RATE": "off"})
    assert custom.connections is not None and custom.connections.describe() == "at most 5 every 10 seconds"
    assert custom.messages is None
    for bad in ("5", "5/0.5", "0/10", "x/10"):
        with pytest.raises(ValueError, match=f"ZIGGURAT_WS_MESSAGE_RATE='{bad}': expected"):
            socket_limits_from_env({"ZIGGURAT_WS_MESSAGE_RATE": bad})


def test_an_address_limit_counts_nothing_it_refuses() -> None:
    limit = AddressLimit(2, 60)
    assert limit.hit("198.51.100.7") is None and limit.hit("198.51.100.7") is None
    wait = limit.hit("198.51.100.7")
    assert wait is not None and 0 < wait <= 60
    assert limit.hit("198.51.100.8") is None


def test_the_429_helper_says_what_the_limit_is_and_when_to_retry_and_counts_it(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'z.db'}", bot_delay=0, static_dir=tmp_path / "no-static")
    request = Request({"type": "http", "app": app, "headers": []})
    exc = too_many_requests(request, "seat links", "at most 30 every 60 seconds", 12.2)
    assert exc.status_code == 429
    assert exc.detail == "too many seat links: at most 30 every 60 seconds; try again in 13 s"
    assert exc.headers == {"Retry-After": "13"}
    assert too_many_requests(request, "x", "y", 0.0).headers == {"Retry-After": "1"}
    assert value(scrape(TestClient(app)), "ziggurat_rate_limited_total", what="http") == 2
