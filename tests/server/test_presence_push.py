"""Presence (docs/server.md, "Presence"): when a seat's first socket opens or its last one
closes, every other socket of the table is sent a ``presence`` message saying which seats have
a socket open, the same as ``connected`` in ``GET /api/tables/{id}``; a second socket of a seat
and a spectator's socket change nothing, and a new socket's first messages stay its ``state``
and its ``chat_history``.

Each check reads a socket up to the answer of a ``ping``, once the server has registered or let
go of the socket that opened or closed: what was sent about it is queued before that answer."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import TestClient, arrive, live_table, token, wait_idle, ws_url


def message(ws: Any) -> dict[str, Any]:
    """The next message of ``ws``, a bot's ``thinking`` notices aside."""
    while True:
        data: dict[str, Any] = ws.receive_json()
        if data.get("type") != "thinking":
            return data


def queued(ws: Any) -> list[dict[str, Any]]:
    """Every message queued for ``ws`` before the answer to a ping sent now."""
    ws.send_json({"type": "ping"})
    out = []
    while (msg := message(ws))["type"] != "pong":
        out.append(msg)
    return out


def sockets_here(client: TestClient, table_id: str, n: int) -> None:
    """Wait until the table holds ``n`` sockets (a closed socket is let go a moment later)."""
    table = live_table(client, table_id)
    while len(table.connections) != n:
        time.sleep(0.002)


def connected(client: TestClient, t: dict[str, Any]) -> list[bool]:
    r = client.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)})
    assert r.status_code == 200, r.text
    return [s["connected"] for s in r.json()["seats"]]


def two_people(client: TestClient, **extra: Any) -> dict[str, Any]:
    """An Epochs table of two people and a bot, waiting for one of the people."""
    body = {
        "game": "mesopotamia-epochs",
        "players": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "seed": 3,
        **extra,
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    wait_idle(client, answer["table"])  # chance and the bot first: then nothing moves until a person does
    return answer


def presence(*seats: bool) -> dict[str, Any]:
    return {"type": "presence", "connected": list(seats)}


def test_a_seat_that_leaves_and_comes_back_is_told_to_the_other_sockets(client: TestClient) -> None:
    t = two_people(client, time_control={"kind": "realtime", "budget": 600, "increment": 10})
    table_id = t["table"]
    arrive(client, t)  # both have been here once: their clocks count, nothing else is sent
    with (
        client.websocket_connect(ws_url(t, token(t, 0))) as alice,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as watcher,
    ):
        assert message(alice)["type"] == "state"
        assert message(watcher)["type"] == "state"
        assert queued(alice) == []  # a spectator is nobody's presence
        assert connected(client, t) == [True, False, False]

        with client.websocket_connect(ws_url(t, token(t, 1))) as bob:
            first = message(bob)
            assert first["type"] == "state" and first["seat"] == 1
            for ws in (alice, watcher):
                assert queued(ws) == [presence(True, True, False)]
            assert connected(client, t) == [True, True, False]
            assert queued(bob) == []  # not told of itself

            # a second tab of the same seat, opened and closed, changes nothing
            with client.websocket_connect(ws_url(t, token(t, 1))) as bob_again:
                assert message(bob_again)["type"] == "state"
            sockets_here(client, table_id, 3)
            for ws in (alice, watcher, bob):
                assert queued(ws) == []

        # Bob closed his only page: the others are told at once, though nothing is played
        sockets_here(client, table_id, 2)
        for ws in (alice, watcher):
            assert queued(ws) == [presence(True, False, False)]
        assert connected(client, t) == [True, False, False]

        with client.websocket_connect(ws_url(t, token(t, 1))) as bob:
            assert message(bob)["type"] == "state"
            for ws in (alice, watcher):
                assert queued(ws) == [presence(True, True, False)]


def test_a_new_socket_gets_its_state_then_the_chat_and_no_presence(client: TestClient) -> None:
    t = two_people(client)
    with client.websocket_connect(ws_url(t, token(t, 0))) as alice:
        assert message(alice)["type"] == "state"
        alice.send_json({"type": "chat", "text": "hello"})
        assert message(alice)["type"] == "chat"
        with client.websocket_connect(ws_url(t, token(t, 1))) as bob:
            assert [m["type"] for m in [message(bob), *queued(bob)]] == ["state", "chat_history"]
            assert queued(alice) == [presence(True, True, False)]
