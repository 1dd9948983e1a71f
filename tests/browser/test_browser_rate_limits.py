"""The table page under the WebSocket limits per client address (docs/server.md, "Limits"): a
message refused with ``rate_limited`` is shown like any refusal, worded by the page with the
seconds to wait; a socket closed with 1008 (too many connections) says so while the page keeps
reconnecting, in English and French. The server does not limit its own machine's addresses,
so the browser comes through a proxy of this test that the server trusts: it adds
``X-Forwarded-For`` to the first request of each connection (every WebSocket opens its own),
as a reverse proxy in front of the server would (the browser's own extra headers are not sent
with WebSocket handshakes)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_helpers import HUMAN, open_table
from playwright.sync_api import expect

from live_server import free_port

LIMITS = (
    "forwarded_allow_ips='127.0.0.1', socket_limits=__import__('ziggurat.server.limits', fromlist=['L'])"
    ".SocketLimits(__import__('ziggurat.server.limits', fromlist=['L']).AddressLimit(1, 600), "
    "__import__('ziggurat.server.limits', fromlist=['L']).AddressLimit(1, 600))"
)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    """A server allowing one socket and one message per address every ten minutes."""
    with start_server(tmp_path_factory.mktemp("limited"), f"bot_delay=0.05, {LIMITS}") as srv:
        yield srv


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@contextmanager
def proxy(target: str, client: str) -> Iterator[str]:
    """A proxy on a free 127.0.0.1 port to the server at ``target`` that says every connection
    comes from ``client``; yields its base URL."""
    host, port = urlsplit(target).hostname, urlsplit(target).port
    listen = free_port()
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream = await asyncio.open_connection(host, port)
        first = await reader.readline()  # the request line
        upstream.write(first + f"X-Forwarded-For: {client}\r\n".encode())
        await asyncio.gather(_pipe(reader, upstream), _pipe(upstream_reader, writer))

    async def main() -> None:
        stopping.append(asyncio.Event())
        server = await asyncio.start_server(handle, "127.0.0.1", listen)
        ready.set()
        async with server:
            await stopping[0].wait()
            connections = asyncio.all_tasks() - {asyncio.current_task()}
            for task in connections:
                task.cancel()
            await asyncio.gather(*connections, return_exceptions=True)

    stopping: list[asyncio.Event] = []
    thread = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    thread.start()
    ready.wait()
    try:
        yield f"http://127.0.0.1:{listen}"
    finally:
        loop.call_soon_threadsafe(stopping[0].set)
        thread.join()
        loop.close()


def _through(base: str, link: str) -> str:
    """``link`` (the server's) opened through the proxy at ``base``."""
    parts = urlsplit(link)
    return base + parts.path + (f"#{parts.fragment}" if parts.fragment else "")


def test_a_refused_message_is_shown_with_the_wait(limited: Any, new_page: Any) -> None:
    answer = limited.create_table([HUMAN, HUMAN], seed=3)
    with proxy(limited.base, "198.51.100.21") as base:
        page = new_page()
        open_table(page, _through(base, answer["seats"][0]["link"]))
        for _ in range(2):
            page.evaluate("window.__ziggurat.socket.send({type: 'ping'})")
        error = page.locator("#error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("(too many messages)")
        expect(error).to_contain_text("too many messages from your address at once: wait ")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "Too many connections from your address, reconnecting in a moment…"),
        ("fr-FR", "Trop de connexions depuis votre adresse, reconnexion dans un instant…"),
    ],
)
def test_a_connection_refused_for_its_address_says_so(
    limited: Any, new_page: Any, locale: str, words: str
) -> None:
    answer = limited.create_table([HUMAN, HUMAN], seed=4)
    address = "198.51.100.31" if locale == "en-US" else "198.51.100.32"
    with proxy(limited.base, address) as base:
        first = new_page(locale=locale)
        open_table(first, _through(base, answer["seats"][0]["link"]))
        second = new_page(locale=locale)
        second.goto(_through(base, answer["seats"][1]["link"]))
        expect(second.locator("#conn")).to_have_attribute("data-state", "limited")
        expect(second.locator("#conn")).to_have_text(words)
        expect(first.locator("#conn")).to_have_attribute("data-state", "open")
