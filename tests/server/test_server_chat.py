"""A table's chat (docs/server.md, "Chat"): seats write, every socket of the table reads, each
refusal answers its sender only and stores nothing, the flood limit, the history a socket gets
when it attaches, and the chat surviving a restart."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import (
    live_table,
    new_table,
    open_client,
    receive,
    receive_state,
    token,
    wait_idle,
    ws_url,
)
from sqlalchemy import select, update

from ziggurat.server import chat
from ziggurat.server.db import ChatRow, SeatRow, UserRow

STATIC = Path(chat.__file__).with_name("static")


def _next_chat(ws: Any) -> dict[str, Any]:
    """The next message that is not a ``state`` broadcast."""
    while True:
        msg = receive(ws)
        if msg["type"] != "state":
            return msg


def _assert_quiet(*sockets: Any) -> None:
    """Nothing was sent to these sockets: a ping is answered before any other message."""
    for ws in sockets:
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def _table(client: TestClient, seats: str = "hhh") -> dict[str, Any]:
    t = new_table(client, seats=seats, seed=5)
    wait_idle(client, t["table"])  # the set-up's chance events are played: no state comes unasked
    return t


def _history(client: TestClient, t: dict[str, Any], tok: str | None = None) -> list[dict[str, Any]]:
    r = client.get(
        f"/api/tables/{t['table']}/chat", headers={"X-Ziggurat-Token": tok or t["spectator_token"]}
    )
    assert r.status_code == 200, r.text
    messages: list[dict[str, Any]] = r.json()["messages"]
    return messages


def _stored(client: TestClient, table_id: str) -> list[tuple[int, str, str]]:
    """(seat, name, text) of every stored message of the table, in order."""
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.sessions() as s:
        rows = s.scalars(select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id))
        return [(r.seat, r.name, r.text) for r in rows]


def test_a_seat_writes_and_every_seat_and_spectator_reads(client: TestClient) -> None:
    t = _table(client)
    with (
        client.websocket_connect(ws_url(t, token(t, 0))) as a,
        client.websocket_connect(ws_url(t, token(t, 0))) as a2,  # the same seat in a second tab
        client.websocket_connect(ws_url(t, token(t, 1))) as b,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        for ws in (a, a2, b, s):
            receive_state(ws)
        before = datetime.now(UTC)
        a.send_json({"type": "chat", "text": "  Shall we trade wood?  "})
        got = [_next_chat(ws) for ws in (a, a2, b, s)]
        assert all(m == got[0] for m in got)
        msg = got[0]
        assert msg["type"] == "chat" and msg["seat"] == 0
        assert msg["text"] == "Shall we trade wood?"  # trimmed
        # a seat without an account or guest name is named by the game: its colour, as a message
        assert msg["name"] == "Blue" and msg["label"] == {"key": "colour.blue", "params": {}}
        assert isinstance(msg["id"], int)
        at = datetime.fromisoformat(msg["at"].replace("Z", "+00:00"))
        assert at.tzinfo is not None and at >= before.replace(microsecond=0)
        b.send_json({"type": "chat", "text": "Only if you give me two."})
        reply = [_next_chat(ws) for ws in (a, a2, b, s)]
        assert reply[0]["seat"] == 1 and reply[0]["name"] == "Yellow" and reply[0]["id"] > msg["id"]
        _assert_quiet(a, a2, b, s)
    assert [(m["seat"], m["text"]) for m in _history(client, t)] == [
        (0, "Shall we trade wood?"),
        (1, "Only if you give me two."),
    ]
    assert _stored(client, t["table"]) == [
        (0, '{"key":"colour.blue","params":{}}', "Shall we trade wood?"),
        (1, '{"key":"colour.yellow","params":{}}', "Only if you give me two."),
    ]


def test_every_refusal_answers_the_sender_only_and_stores_nothing(client: TestClient) -> None:
    t = _table(client)
    with (
        client.websocket_connect(ws_url(t, token(t, 0))) as a,
        client.websocket_connect(ws_url(t, token(t, 1))) as b,
        client.websocket_connect(ws_url(t, t["spectator_token"])) as s,
    ):
        for ws in (a, b, s):
            receive_state(ws)
        cases: list[tuple[Any, Any, str, str]] = [
            (s, {"type": "chat", "text": "hello players"}, "chat_spectator", "spectators read the chat"),
            (a, {"type": "chat", "text": ""}, "chat_empty", "empty"),
            (a, {"type": "chat", "text": " \n\t \r\n "}, "chat_empty", "empty"),
            (a, {"type": "chat", "text": "\x00\x07\x1b\x7f\u0085"}, "chat_empty", "empty"),  # control only
            (a, {"type": "chat", "text": "x" * 501}, "chat_too_long", "at most 500 characters, not 501"),
            (a, {"type": "chat", "text": "é" * 501}, "chat_too_long", "not 501"),  # characters, not bytes
            (a, {"type": "chat"}, "bad_message", "a chat message needs 'text'"),
            (a, {"type": "chat", "text": 7}, "bad_message", "text"),
            (a, {"type": "chat", "text": ["hi"]}, "bad_message", "text"),
            (a, {"type": "chat", "text": "x" * 5000}, "too_large", "4096 bytes"),
        ]
        for ws, payload, code, words in cases:
            ws.send_json(payload)
            err = receive(ws)
            assert err["type"] == "error" and err["code"] == code, (payload, err)
            assert words in err["message"], err
            assert "retry_after" not in err
            _assert_quiet(a, b, s)
        # 500 characters after trimming is the longest message, and spaces around do not count
        a.send_json({"type": "chat", "text": "   " + "y" * 500 + "\n\n"})
        assert _next_chat(b)["text"] == "y" * 500
    assert _stored(client, t["table"]) == [(0, '{"key":"colour.blue","params":{}}', "y" * 500)]


def test_control_characters_are_removed_and_markup_is_kept_as_text(client: TestClient) -> None:
    t = _table(client, seats="hh")
    with client.websocket_connect(ws_url(t, token(t, 1))) as b:
        receive_state(b)
        sent = "line one\r\nline\ttwo\x1b[31m red\x00\n\n\n\n  \nlast \u202e<b>bold</b> <script>window.pwned=1</script>"
        b.send_json({"type": "chat", "text": sent})
        got = _next_chat(b)
    # the carriage return, tab, escape and NUL go, the newline stays, blank lines become one;
    # markup is text like any other (the page shows it as text)
    want = "line one\nlinetwo[31m red\n\nlast \u202e<b>bold</b> <script>window.pwned=1</script>"
    assert got["text"] == want
    assert _history(client, t)[0]["text"] == want


def test_the_flood_limit_is_per_seat_and_says_how_long_to_wait(client: TestClient) -> None:
    t = _table(client)
    with (
        client.websocket_connect(ws_url(t, token(t, 0))) as a,
        client.websocket_connect(ws_url(t, token(t, 1))) as b,
    ):
        receive_state(a)
        receive_state(b)
        for i in range(chat.FLOOD_MESSAGES):
            a.send_json({"type": "chat", "text": f"message {i}"})
            assert _next_chat(a)["text"] == f"message {i}"
            assert _next_chat(b)["text"] == f"message {i}"
        a.send_json({"type": "chat", "text": "one too many"})
        err = receive(a)
        assert err["type"] == "error" and err["code"] == "chat_flood", err
        assert 1 <= err["retry_after"] <= chat.FLOOD_WINDOW
        assert "at most 5 every 10 seconds" in err["message"]
        assert f"wait {err['retry_after']} s" in err["message"]
        _assert_quiet(a, b)
        # a refused message is not counted, and another seat has its own limit
        b.send_json({"type": "chat", "text": "my turn to talk"})
        assert _next_chat(a)["seat"] == 1
        assert _next_chat(b)["text"] == "my turn to talk"
    texts = [text for _, _, text in _stored(client, t["table"])]
    assert texts == [f"message {i}" for i in range(5)] + ["my turn to talk"]


def test_the_flood_window_slides() -> None:
    """The limit's clock is the one thing a test controls: a message is allowed again as soon as
    the oldest counted one is 10 seconds old, and a refused one is not counted."""
    now = [100.0]
    limit = chat.FloodLimit(clock=lambda: now[0])
    for at in (100.0, 101.0, 102.0, 103.0, 104.0):
        now[0] = at
        limit.acquire(0)
    now[0] = 109.5
    with pytest.raises(chat.ChatRefused) as refused:
        limit.acquire(0)
    assert refused.value.code == "chat_flood" and refused.value.retry_after == 1  # 0.5 s, rounded up
    limit.acquire(1)  # another seat
    now[0] = 110.0  # the message of 100.0 leaves the window
    limit.acquire(0)
    with pytest.raises(chat.ChatRefused):
        limit.acquire(0)
    now[0] = 111.0
    limit.acquire(0)


def test_a_socket_that_attaches_gets_the_history_right_after_its_first_state(client: TestClient) -> None:
    t = _table(client)
    with client.websocket_connect(ws_url(t, t["spectator_token"])) as s:
        receive_state(s)
        _assert_quiet(s)  # no chat yet: no history message
    with client.websocket_connect(ws_url(t, token(t, 2))) as c:
        receive_state(c)
        for text in ("first", "second"):
            c.send_json({"type": "chat", "text": text})
            _next_chat(c)
    for tok in (t["spectator_token"], token(t, 0)):
        with client.websocket_connect(ws_url(t, tok)) as ws:
            first = receive_state(ws)
            assert first["log_start"] == 0
            history = receive(ws)
            assert history["type"] == "chat_history"
            assert [(m["seat"], m["name"], m["text"]) for m in history["messages"]] == [
                (2, "Red", "first"),
                (2, "Red", "second"),
            ]
            assert history["messages"] == _history(client, t, tok)
            _assert_quiet(ws)  # once


def test_the_history_is_the_last_200_messages(client: TestClient) -> None:
    t = _table(client, seats="hh")
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    label = live_table(client, t["table"]).seat_labels()[0]
    for i in range(chat.HISTORY + 5):  # written straight to the database: no flood limit here
        chat.add_message(store, t["table"], i % 2, label, f"n{i}")
    with client.websocket_connect(ws_url(t, token(t, 0))) as a:
        receive_state(a)
        history = receive(a)["messages"]
    assert len(history) == chat.HISTORY
    assert [m["text"] for m in history] == [f"n{i}" for i in range(5, chat.HISTORY + 5)]


def test_the_chat_survives_a_restart(db_url: str) -> None:
    with open_client(db_url) as first:
        t = _table(first)
        with first.websocket_connect(ws_url(t, token(t, 1))) as b:
            receive_state(b)
            b.send_json({"type": "chat", "text": "see you tomorrow"})
            before = _next_chat(b)
    assert before.pop("type") == "chat"  # the history has the same messages, without their type
    with open_client(db_url) as second:
        assert _history(second, t) == [before]
        with second.websocket_connect(ws_url(t, token(t, 0))) as a:
            receive_state(a)
            assert receive(a) == {"type": "chat_history", "messages": [before]}
            a.send_json({"type": "chat", "text": "good morning"})
            after = _next_chat(a)
        assert after["id"] > before["id"]
        assert [m["text"] for m in _history(second, t)] == ["see you tomorrow", "good morning"]


def test_a_seat_is_named_by_its_account_or_guest_name_when_it_writes(client: TestClient) -> None:
    t = _table(client)
    r = client.post("/api/account/signup", json={"name": "Gilgamesh", "password": "cedar forest 7"})
    assert r.status_code == 201, r.text
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with client.websocket_connect(ws_url(t, token(t, 0))) as a:
        receive_state(a)
        a.send_json({"type": "chat", "text": "before"})
        assert _next_chat(a)["name"] == "Blue"
        with store.sessions.begin() as s:  # the seat is taken by an account, another by a guest
            user_id = s.scalar(select(UserRow.id).where(UserRow.name == "Gilgamesh"))
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == t["table"], SeatRow.seat == 0)
                .values(user_id=user_id)
            )
            s.execute(
                update(SeatRow).where(SeatRow.table_id == t["table"], SeatRow.seat == 1).values(name="Enkidu")
            )
        a.send_json({"type": "chat", "text": "after"})
        mine = _next_chat(a)
        assert (mine["name"], mine["label"]) == ("Gilgamesh", None)
        with client.websocket_connect(ws_url(t, token(t, 1))) as b:
            receive_state(b)
            receive(b)  # the history
            b.send_json({"type": "chat", "text": "hello"})
            assert _next_chat(b)["name"] == "Enkidu"
    # each message keeps the name its seat had when it was written
    assert [(m["name"], m["text"]) for m in _history(client, t)] == [
        ("Blue", "before"),
        ("Gilgamesh", "after"),
        ("Enkidu", "hello"),
    ]


def test_the_chat_endpoint_needs_a_token_of_the_table(client: TestClient) -> None:
    t = _table(client, seats="hh")
    other = _table(client, seats="hh")
    url = f"/api/tables/{t['table']}/chat"
    assert client.get(url).status_code == 403
    assert client.get(url, headers={"X-Ziggurat-Token": "not-a-token-of-any-table"}).status_code == 403
    assert client.get(url, headers={"X-Ziggurat-Token": other["spectator_token"]}).status_code == 403
    missing = client.get("/api/tables/nosuchtable/chat", headers={"X-Ziggurat-Token": token(t, 0)})
    assert missing.status_code == 404
    for tok in (token(t, 0), token(t, 1), t["spectator_token"]):
        assert _history(client, t, tok) == []
    assert client.post(url, json={"text": "hi"}).status_code == 405


def test_the_browser_counts_to_the_same_limit() -> None:
    """static/chat.js counts characters against the server's limit."""
    text = (STATIC / "chat.js").read_text(encoding="utf-8")
    assert f"const MAX_CHARS = {chat.MAX_CHARS};" in text
