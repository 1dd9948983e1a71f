"""Request limits: HTTP bodies over :data:`MAX_BODY_BYTES` get ``413`` before any handler runs,
:class:`CreationLimit` bounds how many tables one client address creates in a sliding window,
:class:`AddressLimit` bounds the WebSocket connections and messages of one client address
(:class:`SocketLimits`), and :func:`too_many_requests` is every route's ``429`` answer.

The address is the one the app sees: behind a trusted reverse proxy, the client's that
``links.ForwardedHeaders`` took from ``X-Forwarded-For``. Every limit lives in the memory of
one server process: several processes each count for themselves (docs/server.md, "Limits").
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from fastapi import HTTPException, status
from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ziggurat.server import metrics

MAX_BODY_BYTES = 64 * 1024

TABLE_RATE_ENV = "ZIGGURAT_TABLE_RATE"
DEFAULT_TABLES = 30
DEFAULT_WINDOW = 60.0

WS_CONNECT_RATE_ENV = "ZIGGURAT_WS_CONNECT_RATE"
WS_MESSAGE_RATE_ENV = "ZIGGURAT_WS_MESSAGE_RATE"
DEFAULT_WS_CONNECTS = (30, 60)
"""WebSocket connections one address opens: at most 30 in any 60 seconds."""
DEFAULT_WS_MESSAGES = (20, 1)
"""WebSocket messages one address sends (all its sockets together): at most 20 in any second,
all 20 at once if it likes (a moving window: a burst of 20, then one more as each leaves it)."""


def retry_after(seconds: float) -> int:
    """The ``Retry-After`` value (whole seconds, at least 1) for a wait of ``seconds``."""
    return max(1, math.ceil(seconds))


def too_many_requests(request: HTTPConnection, what: str, rule: str, wait: float) -> HTTPException:
    """The ``429`` answer to a request over one of its limits (raise it): ``{"detail": "too many
    <what>: <rule>; try again in <n> s"}`` with ``Retry-After: <n>``, ``n`` the whole seconds of
    ``wait``. It is counted in the app's ``ziggurat_rate_limited_total{what="http"}``."""
    retry = retry_after(wait)
    metrics.rate_limited(request.app, "http")
    return HTTPException(
        status.HTTP_429_TOO_MANY_REQUESTS,
        f"too many {what}: {rule}; try again in {retry} s",
        headers={"Retry-After": str(retry)},
    )


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
        return retry_after(seconds)


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


class AddressLimit:
    """At most ``amount`` events per client address in any ``seconds`` seconds (whole seconds):
    a moving window of the ``limits`` library, kept in this process's memory."""

    def __init__(self, amount: int, seconds: int) -> None:
        if amount < 1 or seconds < 1:
            raise ValueError(f"a limit needs at least 1 event in at least 1 second, not {amount}/{seconds}")
        self.amount = amount
        self.seconds = seconds
        self._item = RateLimitItemPerSecond(amount, seconds)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, address: str) -> float | None:
        """Count one event of ``address`` and answer ``None``, or, when the address is at its
        limit, count nothing and answer the seconds until it may again."""
        if self._limiter.hit(self._item, address):
            return None
        reset, _ = self._limiter.get_window_stats(self._item, address)
        return max(0.0, reset - time.time())  # the library's windows are on the wall clock

    def describe(self) -> str:
        every = "second" if self.seconds == 1 else f"{self.seconds} seconds"
        return f"at most {self.amount} every {every}"


def from_this_machine(address: str) -> bool:
    """Whether ``address`` is this machine's: a loopback address, or none at all (a Unix
    socket, an in-process client). The WebSocket limits leave these alone: they are the
    operator's own (benchmarks, tests), or a reverse proxy the app does not trust, whose
    clients would otherwise all share one address's limits."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return True


@dataclass(frozen=True)
class SocketLimits:
    """The WebSocket limits per client address: ``connections`` opened and ``messages`` sent
    (``None``: no limit). Addresses of this machine are not limited (:func:`from_this_machine`)."""

    connections: AddressLimit | None
    messages: AddressLimit | None

    @classmethod
    def off(cls) -> SocketLimits:
        return cls(None, None)

    def for_address(self, address: str) -> SocketLimits:
        """The limits that apply to ``address``."""
        return SocketLimits.off() if from_this_machine(address) else self


def _rate(name: str, default: tuple[int, int], environ: Mapping[str, str]) -> AddressLimit | None:
    text = environ.get(name, "").strip()
    if not text:
        return AddressLimit(*default)
    if text.lower() == "off":
        return None
    amount, sep, seconds = text.partition("/")
    try:
        if not sep:
            raise ValueError(text)
        return AddressLimit(int(amount), int(seconds))
    except ValueError as exc:
        raise ValueError(
            f"{name}={text!r}: expected '<count>/<whole seconds>' (e.g. '{default[0]}/{default[1]}') or 'off'"
        ) from exc


def socket_limits_from_env(environ: dict[str, str] | None = None) -> SocketLimits:
    """The limits named by ``ZIGGURAT_WS_CONNECT_RATE`` and ``ZIGGURAT_WS_MESSAGE_RATE``, each
    ``"<count>/<whole seconds>"`` or ``off``; unset, 30 connections every 60 seconds and 20
    messages every second.

    :raises ValueError: for a value that is neither, naming the variable.
    """
    env = os.environ if environ is None else environ
    return SocketLimits(
        _rate(WS_CONNECT_RATE_ENV, DEFAULT_WS_CONNECTS, env),
        _rate(WS_MESSAGE_RATE_ENV, DEFAULT_WS_MESSAGES, env),
    )


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
