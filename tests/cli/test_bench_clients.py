"""The benchmark's own clients take as little of the machine as they can: they send no
keep-alive pings of their own (browsers send none), and while measuring their process's
garbage collector leaves the set-up's sockets alone, then gives the caller its settings back."""

from __future__ import annotations

import gc

import websockets

from ziggurat.cli.bench_clients import _connect
from ziggurat.cli.bench_server import _ClientCollector, _run_in_own_loop
from ziggurat.server.loopwatch import GC_THRESHOLDS


def test_a_client_socket_sends_no_pings_and_takes_any_message_size() -> None:
    async def scenario() -> tuple[object, str]:
        big = "x" * 3_000_000  # over websockets' default limit of 1 MiB

        async def answer(ws: websockets.ServerConnection) -> None:
            async for _ in ws:
                await ws.send(big)

        async with websockets.serve(answer, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            conn = await _connect(f"ws://127.0.0.1:{port}/")
            try:
                await conn.send("state?")
                back = await conn.recv()
                return conn.ping_interval, "ok" if back == big else "changed"
            finally:
                await conn.close()

    # on a thread of its own, as the benchmark runs its clients: a test before may have left
    # an event loop running in this one (Playwright's does)
    ping_interval, received = _run_in_own_loop(scenario())
    assert ping_interval is None and received == "ok"


def test_the_clients_collector_is_quiet_while_measuring_then_restored() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    kept = [[i] for i in range(1000)]  # alive now, as the set-up's sockets are
    collector = _ClientCollector()
    collector.quiet()
    try:
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() >= len(kept)
    finally:
        collector.restore()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_clients_collector_restores_the_settings_when_measuring_fails() -> None:
    before = gc.get_threshold()
    try:
        with _ClientCollector():
            assert gc.get_threshold() == GC_THRESHOLDS
            raise RuntimeError("the clients stopped")
    except RuntimeError:
        pass
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_clients_collector_leaves_the_callers_frozen_objects_frozen() -> None:
    before = gc.get_threshold()
    gc.freeze()  # the caller's own
    try:
        frozen = gc.get_freeze_count()
        collector = _ClientCollector()
        collector.quiet()
        assert gc.get_threshold() == GC_THRESHOLDS
        collector.restore()
        assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
