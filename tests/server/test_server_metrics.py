"""``GET /metrics`` (docs/server.md, "Operations"): the Prometheus text format, parsed with
prometheus-client's own parser; the action counters and histogram move with the actions a
table plays (by who chose them), the gauges say the tables, sockets and bot queue as they are,
each app counts in a registry of its own, and ``ZIGGURAT_METRICS=off`` turns the page off."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import TestClient, create_app, live_table, new_table, receive_state, settle, token, ws_url
from test_server_proxy import serving
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ziggurat.cli.server_procs import largest_stall_between
from ziggurat.server.loopwatch import BUCKETS, LoopWatch
from ziggurat.server.metrics import metrics_enabled_from_env

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


def _client(db_url: str, tmp_path: Path, bot_workers: int | None = None) -> TestClient:
    return TestClient(
        create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", bot_workers=bot_workers)
    )


def test_metrics_parse_and_count_the_actions_of_a_game_by_who_chose_them(db_url: str, tmp_path: Path) -> None:
    with _client(db_url, tmp_path) as client:
        before = scrape(client)
        for what in ("connection", "message", "http"):
            assert value(before, "ziggurat_rate_limited_total", what=what) == 0
        assert value(before, "ziggurat_sockets") == 0
        assert value(before, "ziggurat_bot_queue") == 0
        assert value(before, "ziggurat_loop_stall_seconds") >= 0  # the app's loop watch
        group_commit = {name for name, _ in before if name.startswith("ziggurat_action_write")}
        if db_url.startswith("postgresql"):  # its counters, from zero (a lone write goes alone)
            assert group_commit == {
                "ziggurat_action_write_batches_total",
                "ziggurat_action_writes_batched_total",
                "ziggurat_action_write_batches_undone_total",
            }
            assert all(value(before, name) == 0 for name in group_commit)
        else:
            assert group_commit == set()

        t = new_table(client, seats="hb")
        table = live_table(client, t["table"])
        with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
            last = settle(ws, client, t["table"], receive_state(ws))
            played = 0
            while played < 6 and last["status"] != "over":
                ws.send_json({"type": "action", "action": last["legal"][0]})
                played += 1
                last = settle(ws, client, t["table"], receive_state(ws))
            during = scrape(client)
            assert value(during, "ziggurat_sockets") == 1
        rows = list(table.rows)
        kinds = {
            "human": sum(1 for r in rows if r.actor == 0),
            "bot": sum(1 for r in rows if r.actor == 1),
            "chance": sum(1 for r in rows if r.actor < 0),
        }
        assert kinds["human"] == played and kinds["bot"] >= 1
        after = scrape(client)
        for kind, count in kinds.items():
            if count:
                assert value(after, "ziggurat_actions_total", game="mesopotamia", kind=kind) == count
                assert value(after, "ziggurat_action_seconds_count", game="mesopotamia", kind=kind) == count
                assert value(after, "ziggurat_action_seconds_sum", game="mesopotamia", kind=kind) > 0
        infinite = value(after, "ziggurat_action_seconds_bucket", game="mesopotamia", kind="human", le="+Inf")
        assert infinite == played
        assert value(after, "ziggurat_tables", status="playing") == 1
        assert (
            value(after, "ziggurat_tables", status="open")
            == value(after, "ziggurat_tables", status="over")
            == 0
        )
        assert value(during, "ziggurat_sockets") == 1 and value(after, "ziggurat_sockets") == 0


def test_the_bot_queue_and_loop_stall_come_from_the_pool_and_the_watch_when_there_are(
    db_url: str, tmp_path: Path
) -> None:
    """Without a bot pool the queue is the tables whose bot is thinking; with one (an object
    with ``pending`` at ``manager.bot_pool``) it is the pool's count. The loop's largest stall
    is given once ``app.state.loopwatch`` has a ``max_stall``."""
    with _client(db_url, tmp_path, bot_workers=0) as client:  # no pool: bots decide in threads
        t = new_table(client, seats="hh")  # no bot: the driver never touches ``thinking``
        table = live_table(client, t["table"])
        table.thinking = (1, 0.0)  # as the driver marks its bot deciding
        assert value(scrape(client), "ziggurat_bot_queue") == 1
        table.thinking = None
        manager, state = client.app.state.manager, client.app.state  # type: ignore[attr-defined]
        pool, watch = getattr(manager, "bot_pool", None), getattr(state, "loopwatch", None)
        manager.bot_pool = SimpleNamespace(pending=7)  # what the scrape reads of a pool and a watch
        state.loopwatch = SimpleNamespace(max_stall=0.25)
        try:
            samples = scrape(client)
        finally:  # the app's own (if it has them) are back before it stops
            manager.bot_pool, state.loopwatch = pool, watch
        assert value(samples, "ziggurat_bot_queue") == 7
        assert value(samples, "ziggurat_loop_stall_seconds") == 0.25


def test_the_loop_stalls_are_a_histogram_whose_readings_give_a_period_s_largest_stall(
    db_url: str, tmp_path: Path
) -> None:
    """``ziggurat_loop_stalls_seconds`` is the loop watch's histogram (cumulative buckets, the
    sum of the stalls); two readings bound the largest stall between them (bench-server's
    window), whatever came before the first."""
    with _client(db_url, tmp_path) as client:
        state = client.app.state  # type: ignore[attr-defined]
        own = state.loopwatch
        watch = LoopWatch()
        watch.counts[0], watch.counts[4], watch.total = 100, 2, 0.09  # 100 under 1 ms, 2 of 20-50 ms
        state.loopwatch = watch
        try:
            first = scrape(client)
            watch.counts[1] += 5  # then 5 of 1-5 ms and one above every bound
            watch.counts[-1] += 1
            second = scrape(client)
        finally:
            state.loopwatch = own
    assert value(first, "ziggurat_loop_stalls_seconds_bucket", le="0.001") == 100
    assert value(first, "ziggurat_loop_stalls_seconds_bucket", le="0.05") == 102
    assert value(first, "ziggurat_loop_stalls_seconds_bucket", le="+Inf") == 102
    assert value(first, "ziggurat_loop_stalls_seconds_count") == 102
    assert value(first, "ziggurat_loop_stalls_seconds_sum") == pytest.approx(0.09)

    def buckets(samples: Samples) -> list[tuple[float, int]]:
        return sorted(
            (float(dict(labels)["le"]), int(v))
            for (name, labels), v in samples.items()
            if name == "ziggurat_loop_stalls_seconds_bucket"
        )

    assert [b for b, _ in buckets(first)] == [*BUCKETS, float("inf")]
    assert largest_stall_between(buckets(first), buckets(first)) == 0.0
    assert largest_stall_between(buckets(first), buckets(second)) == float("inf")
    watch_only_small = [(b, n + (5 if b >= 0.005 else 0)) for b, n in buckets(first)]
    assert largest_stall_between(buckets(first), watch_only_small) == 0.005
    assert largest_stall_between(None, buckets(first)) is None


def _one_action(client: TestClient, t: dict[str, Any]) -> None:
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        state = settle(ws, client, t["table"], receive_state(ws))
        ws.send_json({"type": "action", "action": state["legal"][0]})
        settle(ws, client, t["table"], receive_state(ws))


def test_each_app_counts_only_its_own_actions(db_url: str, tmp_path: Path) -> None:
    with _client(db_url, tmp_path) as one, _client(db_url, tmp_path) as other:
        t = new_table(one, seats="hh")
        _one_action(one, t)
        assert value(scrape(one), "ziggurat_actions_total", game="mesopotamia", kind="human") == 1
        assert not any(name == "ziggurat_actions_total" for name, _ in scrape(other))
        # the app that counted last is asked first; the other's actions still go to the other
        u = new_table(other, seats="hh")
        _one_action(other, u)
        _one_action(one, t)
        assert value(scrape(one), "ziggurat_actions_total", game="mesopotamia", kind="human") == 2
        assert value(scrape(other), "ziggurat_actions_total", game="mesopotamia", kind="human") == 1


def test_http_429_answers_are_counted(db_url: str, tmp_path: Path) -> None:
    """Every 429 is built by ``limits.too_many_requests``, which counts it."""
    with _client(db_url, tmp_path) as client:
        t = new_table(client, seats="hh")
        headers = {"X-Ziggurat-Token": token(t, 0)}
        codes = [
            client.post(
                f"/api/tables/{t['table']}/explain", json={"action": "end"}, headers=headers
            ).status_code
            for _ in range(32)
        ]
        assert codes.count(429) == 2
        assert value(scrape(client), "ziggurat_rate_limited_total", what="http") == 2


@pytest.mark.sqlite_only
def test_metrics_can_be_turned_off(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", metrics_enabled=False)
    with TestClient(app) as client:
        assert client.get("/metrics").status_code == 404
    monkeypatch.setenv("ZIGGURAT_METRICS", "off")
    with _client(db_url, tmp_path) as client:
        assert client.get("/metrics").status_code == 404
    monkeypatch.setenv("ZIGGURAT_METRICS", "on")
    with _client(db_url, tmp_path) as client:
        assert client.get("/metrics").status_code == 200


@pytest.mark.parametrize(
    ("text", "enabled"),
    [("", True), ("on", True), ("1", True), ("off", False), ("OFF", False), ("no", False)],
)
def test_ziggurat_metrics_values(text: str, enabled: bool) -> None:
    assert metrics_enabled_from_env({"ZIGGURAT_METRICS": text}) is enabled


def test_a_bad_ziggurat_metrics_value_is_refused_naming_the_variable() -> None:
    with pytest.raises(ValueError, match="ZIGGURAT_METRICS='maybe': expected 'on' or 'off'"):
        metrics_enabled_from_env({"ZIGGURAT_METRICS": "maybe"})


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.status, res.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_ziggurat_serve_serves_metrics_readiness_and_socket_limits_on_real_sockets(tmp_path: Path) -> None:
    """A real uvicorn started by the CLI: ``/metrics`` and ``/readyz`` answer, and the
    connection limit of ``ZIGGURAT_WS_CONNECT_RATE`` closes a real socket with 1008 for the
    client address the trusted proxy (this test, at 127.0.0.1) forwards."""
    with serving(tmp_path, [], {"ZIGGURAT_WS_CONNECT_RATE": "1/60"}) as (base, _log):
        status, body = _get(base + "/metrics")
        assert status == 200
        assert {f.name for f in text_string_to_metric_families(body)} >= {
            "ziggurat_actions",
            "ziggurat_action_seconds",
            "ziggurat_tables",
            "ziggurat_sockets",
            "ziggurat_bot_queue",
            "ziggurat_rate_limited",
        }
        assert _get(base + "/readyz") == (200, '{"ready":true}')
        req = urllib.request.Request(
            base + "/api/tables",
            data=json.dumps({"game": "mesopotamia", "players": 2}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            t = json.loads(res.read())
        url = base.replace("http", "ws", 1) + ws_url(t, token(t, 0))
        forwarded = {"X-Forwarded-For": "203.0.113.9"}
        with connect(url, additional_headers=forwarded) as first:
            assert json.loads(first.recv(timeout=10))["type"] == "state"
        with connect(url, additional_headers=forwarded) as second, pytest.raises(ConnectionClosed) as closed:
            second.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert closed.value.rcvd.reason.startswith("too many connections: at most 1 every 60 seconds")
        samples = {
            (s.name, frozenset(s.labels.items())): s.value
            for f in text_string_to_metric_families(_get(base + "/metrics")[1])
            for s in f.samples
        }
        assert value(samples, "ziggurat_rate_limited_total", what="connection") == 1


def test_ziggurat_serve_no_metrics_answers_404(tmp_path: Path) -> None:
    with serving(tmp_path, ["--no-metrics"], {}) as (base, _log):
        assert _get(base + "/metrics")[0] == 404
        assert _get(base + "/readyz")[0] == 200
