"""Thinking bots decide in worker processes (server/botpool.py), and the loop watch
(server/loopwatch.py) measures how long the event loop stalls.

A pooled bot makes the very choices the bot would make in the server's own process with the
same seeds; a worker that dies is replaced and the game goes on; a pool starts no process
for tables without a thinking bot, and closes without waiting for a search to end.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import time
from pathlib import Path

import pytest
from server_helpers import TestClient, create_app, live_table, new_table, receive_state, settle, token, ws_url

import ziggurat
from ziggurat.engine.contract import sample_chance
from ziggurat.server import gamekit
from ziggurat.server.botpool import WORKER_NICENESS, BotPool, Decision, bot_key
from ziggurat.server.loopwatch import BUCKETS, LoopWatch

SEARCH = "ismcts:4:rollout=random:plies=0"
"""A search with an iteration budget: its choice depends on the seed only (a time budget's
depends on the machine's speed)."""


def _play_through(db_url: str, tmp_path: Path, bot_workers: int) -> tuple[list[tuple[int, str]], int | None]:
    """A two-seat Mesopotamia table of an easy bot and a (searching) medium bot, played to
    the end by a server with ``bot_workers``: its actions, and the workers its bot pool
    started (``None``: no pool)."""
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "none", bot_workers=bot_workers)
    with TestClient(app) as client:
        body = {
            "game": "mesopotamia",
            "players": 2,
            "options": {"round_limit": 3},
            "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}],
            "seed": 77,
        }
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table = live_table(client, r.json()["table"])
        while table.status != "over":
            time.sleep(0.01)
        pool = client.app.state.manager.bot_pool  # type: ignore[attr-defined]
        assert pool is None or pool.replaced == 0
        return [(row.actor, row.text) for row in table.rows], None if pool is None else pool.started


def test_pooled_bots_play_the_game_the_bots_play_in_threads(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(gamekit.DIFFICULTIES, "medium", SEARCH)
    pooled, started = _play_through(db_url, tmp_path, bot_workers=2)
    threaded, no_pool = _play_through(db_url, tmp_path, bot_workers=0)
    assert started == 2 and no_pool is None  # a lane per bot: each bot in a worker of its own
    assert {actor for actor, _ in pooled} >= {0, 1}  # both bots chose actions
    assert pooled == threaded


def test_a_table_without_thinking_bots_starts_no_worker(client: TestClient) -> None:
    table = new_table(client, "bb", options={"round_limit": 2}, bot="random")
    live = live_table(client, table["table"])
    while live.status != "over":
        time.sleep(0.01)
    pool = client.app.state.manager.bot_pool  # type: ignore[attr-defined]
    assert pool.started == 0 and pool.worker_pids() == []


def test_a_killed_worker_is_replaced_and_the_game_goes_on(db_url: str, tmp_path: Path) -> None:
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "none", bot_workers=1)
    with TestClient(app) as client:
        pool = client.app.state.manager.bot_pool  # type: ignore[attr-defined]
        t = new_table(client, "hb", options={"round_limit": 3}, bot="easy")
        live = live_table(client, t["table"])
        with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
            last = settle(ws, client, t["table"], receive_state(ws))
            while not pool.worker_pids():  # the human plays until the bot has decided once
                ws.send_json({"type": "action", "action": last["legal"][0]})
                last = settle(ws, client, t["table"], receive_state(ws))
            assert last["status"] == "playing"
            [first] = pool.worker_pids()
            os.kill(first, signal.SIGKILL)
            bot_moves = sum(1 for row in live.rows if row.actor == 1)
            while sum(1 for row in live.rows if row.actor == 1) == bot_moves:
                assert last["status"] == "playing"
                ws.send_json({"type": "action", "action": last["legal"][0]})
                last = settle(ws, client, t["table"], receive_state(ws))
            assert pool.replaced == 1
            [second] = pool.worker_pids()
            assert second != first


def _first_decision(spec: str) -> Decision:
    game = ziggurat.load("mesopotamia", players=2)
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply(sample_chance(state, random.Random(1)))
    seat = state.current_player()
    legal = list(state.legal_actions())
    return Decision(bot_key("t", seat), game.game_id, 2, {}, seat, spec, state.view(seat), legal, "t/1/seat0")


LONG_SEARCH = "ismcts:600s:root=uct"
"""A search that runs its whole time budget: a paired root (Mesopotamia's default) may stop
as soon as only its prior is left in the race, in well under a second."""


def test_closing_the_pool_stops_a_search_under_way() -> None:
    async def run() -> BaseException | None:
        pool = BotPool(1)
        long = asyncio.ensure_future(pool.decide(_first_decision(LONG_SEARCH)))
        while pool.pending == 0 or not pool.worker_pids():
            await asyncio.sleep(0.01)
        queued = asyncio.ensure_future(pool.decide(_first_decision("heuristic")))
        await asyncio.sleep(0.05)
        assert pool.pending == 2
        await asyncio.to_thread(pool.close)  # the suite's timeout catches a close that hangs
        outcomes = await asyncio.gather(long, queued, return_exceptions=True)
        assert all(isinstance(o, BaseException) for o in outcomes), outcomes
        assert pool.pending == 0
        with pytest.raises(RuntimeError, match="closed"):
            await pool.decide(_first_decision("heuristic"))
        return None

    asyncio.run(run())


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        BotPool(0)
    with pytest.raises(ValueError, match="bot_workers"):
        create_app("sqlite://", bot_workers=-1)


def test_the_loop_watch_records_a_stall(caplog: pytest.LogCaptureFixture) -> None:
    seen: list[float] = []

    async def run() -> LoopWatch:
        watch = LoopWatch(warn_over=0.03)
        watch.listeners.append(seen.append)
        watch.start()
        while watch.samples < 3:
            await asyncio.sleep(0.005)
        asyncio.get_running_loop().call_soon(time.sleep, 0.05)  # blocks the loop on purpose
        before = watch.samples
        while watch.samples < before + 2:  # a wake-up already due, then one after the block
            await asyncio.sleep(0.005)
        await watch.stop()
        assert not watch.running
        return watch

    with caplog.at_level(logging.WARNING, logger="ziggurat.server.loopwatch"):
        watch = asyncio.run(run())
    # the watch slept when the loop was blocked for 50 ms: it woke at least 45 ms late
    assert watch.max_stall >= 0.045
    assert watch.stalls >= 1
    assert max(seen) == watch.max_stall and len(seen) == watch.samples
    histogram = watch.histogram()
    assert [bound for bound, _ in histogram] == [*BUCKETS, float("inf")]
    assert histogram[-1][1] == watch.samples
    over = next(count for bound, count in histogram if bound == 0.02)
    assert watch.samples - over == watch.stalls
    assert any("event loop stall of" in r.getMessage() for r in caplog.records)
    watch.reset()
    assert watch.snapshot() == {
        "max_stall": 0.0,
        "max_busy": 0.0,
        "stalls": 0,
        "samples": 0,
        "total": 0.0,
        "threshold": 0.02,
    }


def test_the_app_watches_its_loop_while_it_runs(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", bot_delay=0, static_dir=tmp_path / "none")
    watch = app.state.loopwatch
    with TestClient(app) as client:
        assert watch.running
        while watch.samples == 0:
            assert client.get("/healthz").status_code == 200
    assert not watch.running


def test_a_worker_decides_at_a_lower_priority_than_the_server() -> None:
    """A bot's search gives way to the event loop: its worker runs ``WORKER_NICENESS`` lower."""

    async def run() -> None:
        pool = BotPool(1)
        try:
            action = await pool.decide(_first_decision("heuristic"))
            [pid] = pool.worker_pids()
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(
                19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS
            )
            assert isinstance(action, str)
        finally:
            await asyncio.to_thread(pool.close)

    asyncio.run(run())
