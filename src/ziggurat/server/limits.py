"""Request limits: HTTP bodies over :data:`MAX_BODY_BYTES` get ``413`` before any handler runs,
and :class:`CreationLimit` bounds how many tables one client address creates in a sliding window."""

from __future__ import annotations

import json
import math
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024

TABLE_RATE_ENV = "ZIGGURAT_TABLE_RATE"
DEFAULT_TABLES = 30
DEFAULT_WINDOW = 60.0


@dataclass
class CreationLimit:
    """At most ``tables`` table creations per client address in any ``window`` seconds.

    A sliding window: the times of an address's recent creations are kept, and a creation is
    allowed while fewer than ``tables`` of them are younger than ``window`` seconds. ``clock``
    gives the time in seconds (monotonic by default).
    """

    tables: int = DEFAULT_TABLES
    window: float = DEFAULT_WINDOW
    clock: Callable[[], float] = time.monotonic
    _recent: dict[str, deque[float]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.tables < 1 or not self.window > 0:
            raise ValueError(
                f"a table creation limit needs at least 1 table and a window > 0 s, not {self.tables} tables every {self.window} s"
            )

    def acquire(self, address: str) -> float | None:
        """Count one creation for ``address`` and answer ``None``, or, when the address is at
        its limit, count nothing and answer the seconds until it may create again."""
        now = self.clock()
        recent = self._forget(address, now)
        self._recent[address] = recent
        if len(recent) >= self.tables:
            return max(0.0, recent[0] + self.window - now)
        recent.append(now)
        return None

    def release(self, address: str) -> None:
        """Take back the last creation counted for ``address`` (the table was not created)."""
        recent = self._recent.get(address)
        if recent:
            recent.pop()
            if not recent:
                del self._recent[address]

    def _forget(self, address: str, now: float) -> deque[float]:
        recent = self._recent.pop(address, deque())
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        if len(self._recent) > 10_000:  # many addresses: drop those with nothing left in the window
            for other in [a for a, times in self._recent.items() if times[-1] <= now - self.window]:
                del self._recent[other]
        return recent

    def describe(self) -> str:
        return f"at most {self.tables} tables every {self.window:g} seconds"

    @staticmethod
    def retry_after(seconds: float) -> int:
        """The ``Retry-After`` value (whole seconds, at least 1) for a wait of ``seconds``."""
        return max(1, math.ceil(seconds))


def creation_limit_from_env(environ: dict[str, str] | None = None) -> CreationLimit | None:
    """The limit named by ``ZIGGURAT_TABLE_RATE``: ``"<tables>/<seconds>"`` (e.g. ``30/60``),
    ``off`` for none; the default, 30 tables every 60 seconds, when it is not set."""
    text = (os.environ if environ is None else environ).get(TABLE_RATE_ENV, "").strip()
    if not text:
        return CreationLimit()
    if text.lower() == "off":
        return None
    tables, sep, window = text.partition("/")
    try:
        if not sep:
            raise ValueError(text)
        return CreationLimit(int(tables), float(window))
    except ValueError as exc:
        raise ValueError(
            f"{TABLE_RATE_ENV}={text!r}: expected '<tables>/<seconds>' (e.g. '30/60') or 'off'"
        ) from exc


class BodyLimit:
    """ASGI middleware: reads an HTTP request body (up to the limit) before the app sees it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(send, self.limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; let the app see it
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _too_large(send, self.limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"request body larger than {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
