"""The table WebSocket: joining, acting, refusals, reconnecting, undo and rematch (docs/server.md)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    apply_log,
    drain,
    live_table,
    new_table,
    receive,
    receive_state,
    settle,
    token,
    wait_idle,
    ws_url,
)
from starlette.websockets import WebSocketDisconnect

from ziggurat.server.live import MAX_PENDING_MESSAGES, Connection


def _mover(client: TestClient, table_id: str) -> int:
    wait_idle(client, table_id)
    seat: int = live_table(client, table_id).state.current_player()
    assert seat >= 0
    return seat


def _assert_quiet(*sockets: Any) -> None:
    """Nothing was broadcast: a ping is answered before any other message."""
    for ws in sockets:
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_seat_and_spectator_join_and_see_their_own_view(client: TestClient) -> None:
    t = new_table(client, seats="hhh", seed=3)
    with (
        client.websocket_connect(ws_url(t, token(t, 1))) as a,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        ma = settle(a, client, t["table"])
        ms = settle(s, client, t["table"])
        assert (ma["seat"], ma["colour"], ma["view"]["viewer"]) == (1, "yellow", "yellow")
        assert (ms["seat"], ms["colour"], ms["view"]["viewer"]) == (None, None, None)
        assert ms["legal"] == [] and ms["can_undo"] is False
        assert ma["version"] == ms["version"] >= 1
        assert ma["status"] == "playing" and ma["result"] is None
        mover = live_table(client, t["table"]).state.current_player()
        assert bool(ma["legal"]) == (mover == 1)
        first = ma["log"][0]
        assert set(first) == {"ply", "colour", "text", "sentence", "event"}
        assert first["event"]["key"] == "meso.log.first"  # the sentence as a message, for any language
        assert first["text"].startswith("first ") and first["colour"] is None
        info = client.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
        assert [s["connected"] for s in info["seats"]] == [False, True, False]


def _stored_plies(db_url: str, table_id: str) -> int:
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return int(con.execute("select count(*) from actions where table_id = ?", (table_id,)).fetchone()[0])
    finally:
        con.close()


@pytest.mark.sqlite_only
def test_action_is_broadcast_to_every_connection(client: TestClient, db_url: str) -> None:
    t = new_table(client, seats="hhh", seed=5)
    mover = _mover(client, t["table"])
    other = (mover + 1) % 3
    with (
        client.websocket_connect(ws_url(t, token(t, mover))) as m,
        client.websocket_connect(ws_url(t, token(t, other))) as o,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        first = {name: receive_state(ws) for name, ws in (("m", m), ("o", o), ("s", s))}
        action = first["m"]["legal"][0]
        assert first["o"]["legal"] == []
        m.send_json({"type": "action", "action": action})
        for name, ws in (("m", m), ("o", o), ("s", s)):
            msg = receive_state(ws)
            assert _stored_plies(db_url, t["table"]) >= msg["version"]  # committed before told
            assert msg["version"] == first[name]["version"] + 1
            assert msg["log_start"] == len(first[name]["log"])
            texts = [e["text"] for e in msg["log"]]
            assert texts[0] == action
            assert msg["log"][0]["colour"] == first["m"]["colour"]


def test_bad_tokens_and_unknown_tables_close_with_named_codes(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    for url, code in (
        (ws_url(t, "not-a-token"), 4403),
        (ws_url(t, None), 4403),
        (f"/ws/nosuchtable?token={token(t, 0)}", 4404),
    ):
        with client.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as exc:
            receive(ws)
        assert exc.value.code == code


def test_refused_messages_answer_the_sender_only_and_change_nothing(client: TestClient) -> None:
    t = new_table(client, seats="hhh", seed=11)
    table_id = t["table"]
    mover = _mover(client, table_id)
    other = (mover + 1) % 3
    version = live_table(client, table_id).version
    fingerprint = live_table(client, table_id).state.fingerprint()
    with (
        client.websocket_connect(ws_url(t, token(t, mover))) as m,
        client.websocket_connect(ws_url(t, token(t, other))) as o,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        legal = receive_state(m)["legal"]
        receive_state(o)
        receive_state(s)
        cases: list[tuple[Any, Any, str]] = [
            (m, {"type": "action", "action": "income"}, "illegal"),  # Phase III in Phase I
            (m, {"type": "action", "action": "frobnicate 7"}, "invalid"),
            (o, {"type": "action", "action": legal[0]}, "not_your_turn"),
            (s, {"type": "action", "action": legal[0]}, "forbidden"),
            (s, {"type": "undo"}, "forbidden"),
            (m, "{not json", "bad_message"),
            (m, "[1, 2]", "bad_message"),
            (m, {"type": "dance"}, "bad_message"),
            (m, {"type": "action"}, "bad_message"),
            (m, {"type": "action", "action": 7}, "bad_message"),
            (m, {"type": "action", "action": "x" * 5000}, "too_large"),
            (o, {"type": "undo"}, "cannot_undo"),
        ]
        for ws, payload, code in cases:
            if isinstance(payload, str):
                ws.send_text(payload)
            else:
                ws.send_json(payload)
            err = receive(ws)
            assert err["type"] == "error" and err["code"] == code, (payload, err)
            assert isinstance(err["message"], str) and err["message"]
            _assert_quiet(m, o, s)
        m.send_bytes(b'{"type": "ping"}')
        assert receive(m)["code"] == "bad_message"
        m.send_text("é" * 2100)  # 2100 characters but 4200 bytes
        assert receive(m)["code"] == "too_large"
        _assert_quiet(m, o, s)
    table = live_table(client, table_id)
    assert table.version == version and table.state.fingerprint() == fingerprint


def test_reconnect_gets_the_current_state_and_the_same_log(client: TestClient) -> None:
    t = new_table(client, seats="hbb", options={"round_limit": 2}, seed=8)
    table_id = t["table"]
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = receive_state(ws)
        log = apply_log([], msg)
        for _ in range(6):
            seen: list[dict[str, Any]] = []
            msg = settle(ws, client, table_id, msg, seen)
            for m in seen:
                log = apply_log(log, m)
            if msg["status"] == "over":
                break
            ws.send_json({"type": "action", "action": msg["legal"][-1]})
            msg = receive_state(ws)
            log = apply_log(log, msg)
        seen = []
        msg = settle(ws, client, table_id, msg, seen)
        for m in seen:
            log = apply_log(log, m)
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        again = receive_state(ws)
    assert again["version"] == msg["version"] == live_table(client, table_id).version
    assert again["view"] == msg["view"] and again["legal"] == msg["legal"]
    assert again["log_start"] == 0 and again["log"] == log


def _non_barrier(table: Any) -> str | None:
    for action in table.state.legal_actions():
        if not table.game.undo_barrier(table.state, action):
            return str(action)
    return None


def test_undo_takes_back_own_actions_until_a_barrier(client: TestClient) -> None:
    t = new_table(client, seats="hhh", seed=21)
    table_id = t["table"]
    mover = _mover(client, table_id)
    table = live_table(client, table_id)
    before = (table.version, table.state.fingerprint())
    action = _non_barrier(table)
    assert action is not None, "a first move of the game is not an undo barrier"
    other = (mover + 1) % 3
    with (
        client.websocket_connect(ws_url(t, token(t, mover))) as m,
        client.websocket_connect(ws_url(t, token(t, other))) as o,
    ):
        log = apply_log([], receive_state(m))
        assert receive_state(o)["can_undo"] is False
        m.send_json({"type": "undo"})
        assert receive(m)["code"] == "cannot_undo"  # nothing of this turn to take back yet
        m.send_json({"type": "action", "action": action})
        msg = receive_state(m)
        log = apply_log(log, msg)
        assert msg["can_undo"] is True and receive_state(o)["can_undo"] is False
        o.send_json({"type": "undo"})
        assert receive(o)["code"] == "cannot_undo"
        m.send_json({"type": "undo"})
        msg = receive_state(m)
        log = apply_log(log, msg)
        receive_state(o)
        assert msg["version"] == before[0] and msg["can_undo"] is False
        assert (table.version, table.state.fingerprint()) == before
        # play on until an action that is an undo barrier, then undo is refused
        while True:
            barrier = any(table.game.undo_barrier(table.state, a) for a in msg["legal"][:1])
            m.send_json({"type": "action", "action": msg["legal"][0]})
            msg = receive_state(m)
            log = apply_log(log, msg)
            receive_state(o)
            if barrier:
                break
            assert msg["can_undo"] is True
        assert msg["can_undo"] is False and table.rows[msg["version"] - 1].barrier
        wait_idle(client, table_id)  # chance may follow the barrier
        drain(o)
        for later in drain(m):
            log = apply_log(log, later)
        m.send_json({"type": "undo"})
        assert receive(m)["code"] == "cannot_undo"
        _assert_quiet(m, o)
    with client.websocket_connect(ws_url(t, token(t, mover))) as m:
        assert receive_state(m)["log"] == log  # the log after an undo matches a fresh one


def test_undo_survives_a_restart(client: TestClient, db_url: str) -> None:
    """The undo barrier flag is stored, so undo works on a resumed table too."""
    from server_helpers import open_client

    t = new_table(client, seats="hhh", seed=21)
    table_id = t["table"]
    mover = _mover(client, table_id)
    table = live_table(client, table_id)
    before = table.state.fingerprint()
    action = _non_barrier(table)
    with client.websocket_connect(ws_url(t, token(t, mover))) as m:
        receive_state(m)
        m.send_json({"type": "action", "action": action})
        receive_state(m)
    with open_client(db_url) as other:
        with other.websocket_connect(ws_url(t, token(t, mover))) as m:
            assert receive_state(m)["can_undo"] is True
            m.send_json({"type": "undo"})
            assert receive_state(m)["can_undo"] is False
        assert live_table(other, table_id).state.fingerprint() == before


def test_rematch_gives_each_seat_its_own_token(client: TestClient) -> None:
    t = new_table(client, seats="hbh", options={"round_limit": 3}, seed=4)
    table_id = t["table"]
    url = f"/api/tables/{table_id}/rematch"
    wait_idle(client, table_id)
    with (
        client.websocket_connect(ws_url(t, token(t, 0))) as a,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        receive_state(a)
        receive_state(s)
        assert client.post(url, headers={"X-Ziggurat-Token": t["spectator_token"]}).status_code == 403
        assert client.post(url).status_code == 403
        r = client.post(url, headers={"X-Ziggurat-Token": token(t, 2)})
        assert r.status_code == 201
        new = r.json()
        assert new["table"] != table_id and new["game"] == "mesopotamia"
        assert [s["kind"] for s in new["seats"]] == ["human", "bot", "human"]
        assert new["seats"][0]["token"] is None and new["seats"][1]["token"] is None
        assert new["seats"][2]["token"] and new["seats"][2]["link"].endswith(new["seats"][2]["token"])
        msg_a = receive(a)
        msg_s = receive(s)
    assert msg_a["type"] == "rematch" and msg_a["table"] == new["table"]
    assert msg_s["type"] == "rematch" and msg_s["table"] == new["table"]
    new_url = f"/api/tables/{new['table']}"
    info = client.get(new_url, headers={"X-Ziggurat-Token": msg_a["token"]}).json()
    assert info["options"] == {"round_limit": 3} and [s["bot"] for s in info["seats"]] == [
        None,
        "random",
        None,
    ]
    assert client.get(new_url, headers={"X-Ziggurat-Token": msg_s["token"]}).status_code == 200
    found = client.post(
        "/api/tables/lookup", json={"tokens": [msg_a["token"], new["seats"][2]["token"]]}
    ).json()
    assert {(f["table"], f["seat"]) for f in found} == {(new["table"], 0), (new["table"], 2)}
    # asking again returns the same rematch, with a token for the asking seat
    again = client.post(url, headers={"X-Ziggurat-Token": token(t, 0)})
    assert again.status_code == 201 and again.json()["table"] == new["table"]
    tok0 = again.json()["seats"][0]["token"]
    assert tok0 and tok0 != msg_a["token"]
    lookup = client.post("/api/tables/lookup", json={"tokens": [tok0]}).json()
    assert [(f["table"], f["seat"]) for f in lookup] == [(new["table"], 0)]
    old = client.get(f"/api/tables/{table_id}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
    assert old["rematch"] == new["table"]


def test_a_socket_that_does_not_read_is_cut_off() -> None:
    conn = Connection(0)
    for _ in range(MAX_PENDING_MESSAGES + 10):
        conn.send("{}")
    assert conn.overflowed
    assert conn.queue.qsize() == MAX_PENDING_MESSAGES + 1  # the messages, then the stop marker
