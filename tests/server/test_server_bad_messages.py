"""The table WebSocket refuses bad messages cleanly (docs/server.md, server/client_messages.py).

Whatever a client sends (not JSON, nested 10,000 deep, not an object, wrong types, missing
fields, huge strings, binary frames) it gets an ``error`` to itself and its socket stays open:
the next valid message works, nothing is logged with a traceback, the socket is never closed
with 1011. Sockets are driven through Starlette's TestClient public API only.
"""

from __future__ import annotations

import json
import logging
import random
import string
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_table, token, wait_idle, ws_url

from ziggurat.server.client_messages import MAX_DEPTH, nesting_depth

BIG = 4096  # the protocol's largest message, in bytes


def _next_reply(ws: Any) -> dict[str, Any]:
    """The next message that is not a ``state`` broadcast."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "state":
            return msg


def _open(client: TestClient) -> tuple[dict[str, Any], Any]:
    """A 2-human table and a socket for the seat to move."""
    t = new_table(client, seats="hh", seed=3)
    wait_idle(client, t["table"])  # the set-up's chance events are played: nothing else comes
    info = client.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
    seat = next(s["seat"] for s in info["seats"] if s["colour"] == info["to_move"])
    return t, client.websocket_connect(ws_url(t, token(t, seat)))


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("[" * 10_000, "too_large", "at most 4096 bytes"),
        ("[" * 4000, "bad_message", f"at most {MAX_DEPTH} levels deep"),
        ('{"type": "ping", "x": ' + "[" * 9 + "]" * 9 + "}", "bad_message", "levels deep"),
        ("{", "bad_message", "not JSON"),
        ("not json", "bad_message", "not JSON"),
        ('{"type": "ping", "x": NaN}', "bad_message", "not JSON"),
        ("[1, 2]", "bad_message", "a message is a JSON object, not list"),
        ("5", "bad_message", "not int"),
        ('"ping"', "bad_message", "not str"),
        ("null", "bad_message", "not NoneType"),
        ("{}", "bad_message", "unknown message type None"),
        ('{"type": 5}', "bad_message", "unknown message type 5"),
        ('{"type": ["ping"]}', "bad_message", "unknown message type ['ping']"),
        ('{"type": "dance"}', "bad_message", "expected action, undo, ping"),
        ('{"type": "action", "action": true}', "bad_message", "needs an 'action' string"),
        ('{"type": "action", "action": 7}', "bad_message", "needs an 'action' string"),
        ('{"type": "action", "action": ["end"]}', "bad_message", "needs an 'action' string"),
        ('{"type": "action"}', "bad_message", "a action message needs 'action'"),
        ('{"type": "action", "action": "   "}', "bad_message", "not only spaces"),
        ('{"type": "action", "action": "' + "x" * 300 + '"}', "bad_message", "1 to 200 characters"),
        ('{"type": "action", "action": "' + "x" * 5000 + '"}', "too_large", "4096 bytes"),
        (b'{"type": "ping"}', "bad_message", "JSON text frames"),
        ('{"type": "action", "action": "fly to the moon"}', "invalid", ""),
    ],
)
def test_a_bad_message_gets_an_error_and_the_socket_stays_open(
    client: TestClient, caplog: pytest.LogCaptureFixture, frame: str | bytes, code: str, words: str
) -> None:
    caplog.set_level(logging.INFO)
    _, socket = _open(client)
    with socket as ws:
        ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
        reply = _next_reply(ws)
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert words in reply["message"], reply
        ws.send_json({"type": "ping"})
        assert _next_reply(ws) == {"type": "pong"}  # the same socket still answers
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_the_next_valid_action_after_bad_messages_is_played(client: TestClient) -> None:
    t, socket = _open(client)
    with socket as ws:
        state = ws.receive_json()
        assert state["type"] == "state"
        for frame in ("[" * 4000, '{"type": "action", "action": true}', "{"):
            ws.send_text(frame)
            assert _next_reply(ws)["type"] == "error"
        ws.send_json({"type": "action", "action": state["legal"][0]})
        after = ws.receive_json()
        assert after["type"] == "state" and after["version"] > state["version"], after


def test_nesting_depth_ignores_brackets_inside_strings() -> None:
    assert nesting_depth('{"a": "[[[[[[[[[[[[", "b": [[1]]}') == 3
    assert nesting_depth(r'{"a": "\"[[[[[[[[[[[["}') == 1
    assert nesting_depth("[" * 10_000) == 10_000


# --- fuzz: a few thousand seeded random and malformed messages -------------------------------
FUZZ_MESSAGES = 3000


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.randint(-(10**30), 10**30)
    if pick == 2:
        return rng.choice([0.5, -1e308, 1e-300, 3.0])
    if pick in (3, 4, 5):
        return "".join(rng.choice(string.printable + "éß\u2603\U0001f600") for _ in range(rng.randrange(12)))
    if pick in (6, 7):
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "action", "x", ""] + ["".join(rng.choices(string.ascii_letters, k=3))]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _fuzz_frame(rng: random.Random) -> str | bytes:
    """One random or malformed client frame."""
    kind = rng.randrange(12)
    if kind == 0:  # printable garbage
        return "".join(rng.choices(string.printable, k=rng.randrange(1, 80)))
    if kind == 1:  # a valid-looking message cut short
        text = json.dumps({"type": "action", "action": "move b@1,0 2,0"})
        return text[: rng.randrange(len(text))]
    if kind == 2:  # deep nesting, sometimes inside an object
        depth = rng.choice([MAX_DEPTH, MAX_DEPTH + 1, 50, 1000, 3000])
        opener = rng.choice(["[", '{"a":'])
        return opener * depth + "1" + ("]" if opener == "[" else "}") * depth
    if kind == 3:  # any JSON value at the top
        return json.dumps(_random_json(rng))
    if kind == 4:  # the right envelope, a wrong type of action
        return json.dumps({"type": "action", "action": _random_json(rng)})
    if kind == 5:  # a wrong type of type
        return json.dumps({"type": _random_json(rng), "action": "end"})
    if kind == 6:  # huge strings, under and over the size limit
        size = rng.choice([199, 200, 201, 1000, BIG - 40, BIG, BIG * 3])
        return json.dumps({"type": "action", "action": rng.choice("xé ") * size})
    if kind == 7:  # action texts that parse badly or are not legal now
        words = [
            "move",
            "end",
            "draw",
            "pass",
            "hut",
            "grow",
            "b@",
            "1,0",
            "(",
            ")",
            "-",
            "99",
            "*",
            "\u2603",
        ]
        text = " ".join(rng.choices(words, k=rng.randrange(1, 7)))
        return json.dumps({"type": "action", "action": text})
    if kind == 8:  # NaN, Infinity, duplicate keys, trailing garbage
        return rng.choice(
            [
                '{"type": "ping", "n": NaN}',
                '{"type": "ping", "n": -Infinity}',
                '{"type": "ping", "type": "action"}',
                '{"type": "ping"} trailing',
                '{"type": "ping",}',
                "\ufeff" + '{"type": "ping"}',
            ]
        )
    if kind == 9:  # binary frames
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    if kind == 10:  # missing or extra fields
        return json.dumps(rng.choice([{"type": "action"}, {"action": "end"}, {"type": "undo", "x": [1]}]))
    return json.dumps({"type": "ping", **({"x": _random_json(rng)} if rng.random() < 0.5 else {})})


def test_fuzzed_messages_get_an_error_or_a_normal_reply_and_never_close_the_socket(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(20240611)
    replies: dict[str, int] = {}
    sent = 0
    _, socket = _open(client)
    with socket as ws:
        for _ in range(FUZZ_MESSAGES):
            frame = _fuzz_frame(rng)
            ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
            sent += 1
            ping = frame_is_ping(frame)
            ws.send_json({"type": "ping"})  # a marker: what comes before its pong answers the frame
            pongs, seen = (2 if ping else 1), []
            while True:
                msg = ws.receive_json()  # a closed socket raises WebSocketDisconnect here
                if msg["type"] == "pong":
                    pongs -= 1
                    if pongs == 0:
                        break
                    continue
                assert msg["type"] in ("error", "state"), (frame, msg)
                seen.append(msg["type"])
            errors = seen.count("error")
            if ping:
                assert errors == 0, (frame, seen)
                outcome = "pong"
            else:  # one error, or (a legal action or undo) a new state
                assert errors == 1 or (errors == 0 and "state" in seen), (frame, seen)
                outcome = "error" if errors else "state"
            replies[outcome] = replies.get(outcome, 0) + 1
    closes = 0  # a close of the socket would have raised WebSocketDisconnect in receive_json
    print(f"\nfuzz: {sent} messages sent, replies {dict(sorted(replies.items()))}, closes {closes}")
    assert sent == FUZZ_MESSAGES
    assert replies.get("error", 0) > FUZZ_MESSAGES * 0.8
    assert set(replies) <= {"error", "pong", "state"}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text


def frame_is_ping(frame: str | bytes) -> bool:
    """Whether ``frame`` is a valid ping (answered by a pong, not an error)."""
    if isinstance(frame, bytes) or nesting_depth(frame) > MAX_DEPTH:
        return False

    def refuse(name: str) -> Any:
        raise ValueError(name)

    try:
        data = json.loads(frame, parse_constant=refuse)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("type") == "ping"
