"""The WebSocket half of the hostile-input harness (``hostile.py``).

Each session opens one socket to a table with one kind of token (the seat to move, another seat,
a spectator, or a wrong one) and sends a batch of hostile frames, a window of them at a time.
The server reads a socket's frames in order and answers each refused one with an ``error`` to
that socket only, so each frame's answer is known: an ``error`` (or ``pong``), a ``chat``
broadcast for a chat message the flood limit let through, and, for an action, a ``state`` only if
it was played. A ``state`` answering an action sent with a token that may not play it counts as
an action accepted with a wrong token; a close with 1011, or any close after a frame that must
not end the socket, is a fault. Frames that end a socket (over 64 KiB: 1009; invalid UTF-8 in a
text frame: 1007) are sent last in their session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from hostile_core import Fixture, Table, Tally, deep_json, junk_json, junk_text, junk_token, malformed_json
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State

SENTINEL = '{"type": "ping"}'
"""Sent after each window: its ``pong`` comes after every answer to the window's frames."""
WINDOW = 16
"""Frames sent before their answers are read (the server queues at most 512 per socket)."""
ANSWER_TIMEOUT = 60.0
"""Seconds to wait for one window's answers before calling the socket stuck."""
SESSION_FRAMES = 120

# a session's role: which token it connects with, and the kinds of frames it sends
MOVER, OTHER_SEAT, SPECTATOR, CHAT = "mover", "other_seat", "spectator", "chat"


@dataclass(frozen=True)
class Frame:
    """One frame to send: its kind (for the counts), the payload, whether it is binary, and
    what answers it: ``"error"`` (any refusal or a pong), ``"action"`` (an action or undo: a
    ``state`` answer means it was played), ``"chat"`` (an error or the chat broadcast) or
    ``"close"`` (the server ends the socket)."""

    kind: str
    payload: str | bytes
    answer: str
    text: bool = True


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _common_frame(rng: random.Random) -> Frame:
    """Junk any token gets the same answer for: bad JSON, wrong types, unknown types, too large,
    too deep, binary."""
    roll = rng.randrange(7)
    if roll == 0:
        return Frame("ws_malformed_json", malformed_json(rng), "error")
    if roll == 1:
        shapes: list[Any] = [
            {"type": "action", "action": _not_text(rng)},
            {"type": "chat", "text": rng.choice([None, 5, [], {}, True])},
            {"type": junk_json(rng)},
            {"type": "action"},
            {"type": "action", "action": " " * rng.randint(1, 50)},
            {"type": "action", "action": ""},
            junk_json(rng),
            [{"type": "ping"}],
            "ping",
        ]
        return Frame("ws_wrong_types", _dumps(rng.choice(shapes)), "error")
    if roll == 2:
        kind = rng.choice(
            ["Action", "ACTION", "pong", "state", "error", "rematch", "join", "", junk_text(rng)]
        )
        return Frame("ws_unknown_type", _dumps({"type": kind, "action": "pass"}), "error")
    if roll == 3:
        size = rng.choice((4097, 5000, 20_000, 65_000))
        body = _dumps({"type": "chat", "text": "x" * size})
        return Frame("ws_oversized", body, "error")
    if roll == 4:
        return Frame("ws_deep_nesting", deep_json(rng, rng.choice((9, 10, 50, 500, 2000))), "error")
    if roll == 5:
        data = bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 16, 1000))))
        if rng.random() < 0.3:
            data = b'{"type": "ping"}'
        return Frame("ws_binary", data, "error", text=False)
    return Frame("ws_take_back", _dumps({"type": "take_back"}), "error")


def _not_text(rng: random.Random) -> object:
    """A JSON value of any type but a string (a string could be a legal action)."""
    value = junk_json(rng)
    return [value] if isinstance(value, str) else value


def _action(kind: str, text: str, extra: dict[str, Any] | None = None) -> Frame:
    body: dict[str, Any] = {"type": "action", "action": text}
    if extra:
        body.update(extra)
    return Frame(kind, _dumps(body), "action")


def frames_for(
    role: str, table: Table, rng: random.Random, never_legal: Callable[[str], bool]
) -> list[Frame]:
    """A session's frames for ``role`` at ``table``; ``never_legal(text)`` says a text is none of
    the mover's legal actions (so that the mover's junk is never a real move)."""
    frames: list[Frame] = []
    for _ in range(SESSION_FRAMES):
        roll = rng.random()
        if role == CHAT:
            if roll < 0.7:
                text = rng.choice(["gg", "hello", junk_text(rng), "x" * 501, "", " \n\t ", "\x00\x01"])
                payload = _dumps({"type": "chat", "text": text})
                if rng.random() < 0.1:  # lone surrogates, which are not text
                    payload = '{"type": "chat", "text": "\\ud800\\udc00\\udbff a \\udfff"}'
                frames.append(Frame("ws_chat_flood", payload, "chat"))
            else:
                frames.append(_common_frame(rng))
            continue
        if roll < 0.45:
            frames.append(_common_frame(rng))
        elif role == MOVER:
            if roll < 0.8:
                text = junk_text(rng)
                if text.strip() and len(text) <= 200 and never_legal(text):
                    frames.append(_action("ws_garbage_action", text))
            elif roll < 0.9 and table.legal:
                # a legal action's text, mangled: another seat's piece, a far-off place, a typo
                text = rng.choice(table.legal)
                mangled = text[: rng.randint(0, len(text))] + rng.choice(["9", "@", "zz", " 99,99", "-", "!"])
                if never_legal(mangled):
                    frames.append(_action("ws_illegal_action", mangled))
            else:
                frames.append(Frame("ws_undo_not_allowed", _dumps({"type": "undo"}), "action"))
        elif table.legal:  # another seat or a spectator plays the mover's legal actions
            kind = "ws_out_of_turn" if role == OTHER_SEAT else "ws_spectator_action"
            if roll < 0.85:
                frames.append(_action(kind, rng.choice(table.legal)))
            else:
                frames.append(Frame("ws_undo_not_allowed", _dumps({"type": "undo"}), "action"))
        else:
            frames.append(Frame("ws_undo_not_allowed", _dumps({"type": "undo"}), "action"))
    if role != CHAT and rng.random() < 0.1:  # last: frames that end the socket
        if rng.random() < 0.5:
            frames.append(Frame("ws_oversized_frame", "x" * (64 * 1024 + rng.randint(1, 4096)), "close"))
        else:
            frames.append(
                Frame(
                    "ws_invalid_utf8",
                    rng.choice([b"\xff\xfe", b'{"type": "\xc3"}', b"\xed\xa0\x80"]),
                    "close",
                )
            )
    return frames


def _windows(frames: list[Frame]) -> list[list[Frame]]:
    """``frames`` in windows of :data:`WINDOW`; a frame that ends the socket goes alone, once
    every earlier frame is answered (the close would otherwise overtake their answers)."""
    windows: list[list[Frame]] = []
    for frame in frames:
        if (
            frame.answer == "close"
            or not windows
            or len(windows[-1]) >= WINDOW
            or windows[-1][-1].answer == "close"
        ):
            windows.append([frame])
        else:
            windows[-1].append(frame)
    return windows


class Attack:
    """Runs WebSocket sessions against ``base`` (``ws://host:port``) until ``budget`` frames
    and connection attempts are spent, counting into ``tally``."""

    def __init__(
        self,
        base: str,
        fixture: Fixture,
        tally: Tally,
        seed: int,
        never_legal: dict[str, Callable[[str], bool]],
    ):
        self.base = base
        self.fixture = fixture
        self.tally = tally
        self.seed = seed
        self.never_legal = never_legal
        self.rng = random.Random(seed)
        self.chat_lock = asyncio.Lock()  # one chat session at a time: its broadcasts are its answers
        self.budget = 0

    async def run(self, budget: int, workers: int) -> None:
        self.budget = budget
        await asyncio.gather(*(self._worker(random.Random(self.seed * 1000 + i)) for i in range(workers)))

    def _take(self, n: int) -> int:
        n = min(n, self.budget)
        self.budget -= n
        return n

    async def _worker(self, rng: random.Random) -> None:
        while self.budget > 0:
            roll = rng.random()
            if roll < 0.3:
                await self._bad_connect(rng)
                continue
            table = rng.choice([self.fixture.play, self.fixture.other])
            if roll < 0.4:
                async with self.chat_lock:
                    chat = self.fixture.chat
                    token = chat.spectator if rng.random() < 0.3 else chat.seat_tokens[0]
                    await self._session(chat, token, frames_for(CHAT, chat, rng, self.never_legal[chat.id]))
                continue
            if roll < 0.65:
                role, token = MOVER, table.seat_tokens[table.mover if table.mover is not None else 0]
            elif roll < 0.85 and table.others():
                role, token = OTHER_SEAT, table.seat_tokens[rng.choice(table.others())]
            else:
                role, token = SPECTATOR, table.spectator
            await self._session(
                table, token, frames_for(role, table, rng, self.never_legal[table.id]), wrong=role != MOVER
            )

    async def _bad_connect(self, rng: random.Random) -> None:
        """A connection that must be refused: a junk token, another table's token, no token, a
        table that does not exist, a table id with odd characters."""
        if not self._take(1):
            return
        play, other = self.fixture.play, self.fixture.other
        roll = rng.randrange(5)
        if roll == 0:
            kind, table_id, token, expect = "ws_junk_token", play.id, junk_token(rng), 4403
        elif roll == 1:
            kind, table_id, token, expect = (
                "ws_other_table_token",
                play.id,
                rng.choice(list(other.seat_tokens.values())),
                4403,
            )
        elif roll == 2:
            kind, table_id, token, expect = "ws_no_token", other.id, None, 4403
        elif roll == 3:
            kind, table_id, token, expect = (
                "ws_no_table",
                junk_token(rng)[:40],
                rng.choice(list(play.seat_tokens.values())),
                4404,
            )
        else:
            odd = rng.choice(
                ["%00", "%ff", "%ed%a0%80", "..", "%2e%2e%2f", "a%20b", "%e2%80%ae", "x" * 300, "%25"]
            )
            kind, table_id, token, expect = "ws_odd_table_id", odd, play.spectator, 4404
        self.tally.count(kind)
        path = f"/ws/{table_id if kind == 'ws_odd_table_id' else quote(table_id, safe='')}"
        if token is not None:
            path += f"?token={quote(token, safe='')}"
        try:
            async with connect(self.base + path, open_timeout=30, close_timeout=5, max_size=2**22) as ws:
                try:
                    message = await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
                    self.tally.fault("ws_wrong_token_answered", f"{kind}: {str(message)[:120]}")
                except ConnectionClosed as exc:
                    self._closed(exc, f"{kind} {path[:80]}", expect)
        except InvalidStatus as exc:  # refused before the upgrade (e.g. a path no route takes)
            if exc.response.status_code >= 500:
                self.tally.fault("http_5xx", f"{kind}: handshake answered {exc.response.status_code}")
            self.tally.statuses[exc.response.status_code] += 1
        except (TimeoutError, OSError) as exc:
            self.tally.fault("ws_connect_failed", f"{kind}: {exc!r}")

    def _closed(self, exc: ConnectionClosed, what: str, expect: int | None) -> None:
        code = exc.rcvd.code if exc.rcvd is not None else 1006
        self.tally.close_codes[code] += 1
        if code == 1011:
            self.tally.fault("ws_close_1011", what)
        elif expect is not None and code != expect:
            self.tally.fault("ws_unexpected_close", f"{what}: closed {code}, expected {expect}")

    async def _session(self, table: Table, token: str, frames: list[Frame], wrong: bool = False) -> None:
        """One socket: the first ``state``, then ``frames`` a window at a time."""
        if not self._take(1):
            return
        self.tally.count("ws_connection")
        url = f"{self.base}/ws/{table.id}?token={token}"
        ws = await self._open(url)
        if ws is None:
            return
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT))
            if first.get("type") != "state":
                self.tally.fault("ws_no_first_state", str(first)[:200])
                return
            for window in _windows(frames):
                window = window[: self._take(len(window))]
                if not window or not await self._exchange(ws, table, window, wrong):
                    return
        except ConnectionClosed as exc:
            self._closed(exc, f"session on {table.id}", None)
            self.tally.fault(
                "ws_unexpected_close", f"closed {exc.rcvd.code if exc.rcvd else 1006} during a session"
            )
        except TimeoutError:
            self.tally.fault("ws_no_answer", f"no first state on {table.id}")
        finally:
            if ws.state is not State.CLOSED:
                with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
                    await ws.close()

    async def _open(self, url: str) -> ClientConnection | None:
        try:
            return await connect(url, open_timeout=30, close_timeout=5, max_size=2**22)
        except (TimeoutError, OSError, InvalidStatus) as exc:
            self.tally.fault("ws_connect_failed", repr(exc))
            return None

    async def _exchange(self, ws: ClientConnection, table: Table, window: list[Frame], wrong: bool) -> bool:
        """Send a window of frames, then :data:`SENTINEL`, and read until its ``pong``: every frame
        must have had its ``error`` (or, in a chat session, its ``chat``) by then; one that did not
        was played. ``state`` messages are not counted as answers: another socket's move (which
        the stored tables show) is broadcast to every socket of the table. False once the socket
        ended. Now and then the client hangs up without a close frame once the window is sent,
        while the server is still answering it."""
        for frame in window:
            self.tally.count(frame.kind)
            if frame.text:
                await ws.send(frame.payload, text=True)
            else:
                await ws.send(frame.payload if isinstance(frame.payload, bytes) else frame.payload.encode())
        if self.rng.random() < 0.02 and window[-1].answer != "close":
            self.tally.count("ws_abrupt_disconnect")
            ws.transport.abort()  # no close frame: the TCP connection is cut
            return False
        if window[-1].answer == "close":  # alone in its window (see _windows)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
            except ConnectionClosed as exc:
                self._closed(exc, window[-1].kind, None)
            except TimeoutError:
                self.tally.fault("ws_no_answer", f"{window[-1].kind}: the socket stayed open")
            return False
        await ws.send(SENTINEL)  # its pong ends the window's answers
        answers, states = 0, 0
        try:
            while True:
                message = await self._answer(ws)
                kind = message.get("type")
                if kind == "pong":
                    break
                if kind == "error":
                    answers += 1
                elif kind == "chat" and table is self.fixture.chat:  # a chat session is alone at its table
                    answers += 1
                    self.tally.chat_stored += 1
                elif kind == "state":
                    states += 1  # this socket's action played, or a broadcast of another socket's
                else:
                    self.tally.fault("ws_unexpected_answer", f"{kind} in answer to {window[0].kind}")
        except ConnectionClosed as exc:
            self._closed(exc, window[-1].kind, None)
            self.tally.fault("ws_unexpected_close", f"after {[f.kind for f in window]}")
            return False
        except TimeoutError:
            self.tally.fault("ws_no_answer", f"no pong after {[f.kind for f in window]}")
            return False
        if answers < len(window):  # a frame without an error: an action or undo of this socket was played
            played = [f for f in window if f.answer == "action"] or window
            example = " or ".join(repr(str(f.payload)[:80]) for f in played[:3])
            for _ in range(len(window) - answers):
                self.tally.fault("accepted_wrong_token" if wrong else "state_changed", f"one of {example}")
        return True

    async def _answer(self, ws: ClientConnection) -> dict[str, Any]:
        """The next message that answers a frame (``thinking``, ``chat_history`` and ``presence``
        are not)."""
        while True:
            raw = await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
            message: dict[str, Any] = json.loads(raw)
            if message.get("type") not in ("thinking", "chat_history", "presence"):
                return message
