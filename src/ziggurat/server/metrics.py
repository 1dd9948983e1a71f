"""Prometheus metrics of one server app, served at ``GET /metrics`` (docs/server.md,
"Operations").

Each app has its own :class:`Metrics` and ``CollectorRegistry`` (never prometheus-client's
global one), so several apps in one process count apart. Counters and the action histogram
are kept as things happen (:func:`action_done` at the end of ``LiveTable._play``,
:func:`rate_limited`, the socket gauge in ``ws.py``); the tables, the bot queue and the
event loop's stall are read when the metrics are scraped.

A table does not know its app: :func:`action_done` counts an action in the metrics of the
running app whose table manager holds that table (one app per process when serving, a few
in tests), so ``live.py`` needs no more than that one call.
"""

from __future__ import annotations

import os
import time
import weakref
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Literal

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from starlette.types import ASGIApp

    from ziggurat.server.live import LiveTable
    from ziggurat.server.manager import TableManager
    from ziggurat.server.store import Store

METRICS_ENV = "ZIGGURAT_METRICS"

ACTION_BUCKETS = (
    0.001,
    0.002,
    0.003,
    0.005,
    0.0075,
    0.01,
    0.015,
    0.02,
    0.03,
    0.05,
    0.075,
    0.1,
    0.15,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
"""Seconds from an action's arrival to its broadcast: fine between 1 and 100 ms, where a
commit and a broadcast land."""

STATUSES = ("open", "playing", "over")
RATE_LIMITED = ("connection", "message", "http")

Kind = Literal["human", "bot", "chance"]

_arrived: ContextVar[float | None] = ContextVar("ziggurat_action_arrived", default=None)
_apps: weakref.WeakSet[Metrics] = weakref.WeakSet()  # the metrics of the apps running now
_last: list[weakref.ref[Metrics]] = []
"""The metrics that counted the last action (one app per process, usually), held weakly like
``_apps``: asked first, since walking the WeakSet took as long as counting, on every action's
path."""


def metrics_enabled_from_env(environ: dict[str, str] | None = None) -> bool:
    """``ZIGGURAT_METRICS``: ``off`` (or ``0``, ``false``, ``no``) turns ``/metrics`` off; unset,
    ``on``, ``1``, ``true`` or ``yes`` leave it on.

    :raises ValueError: for any other value.
    """
    text = (os.environ if environ is None else environ).get(METRICS_ENV, "").strip().lower()
    if text in ("", "on", "1", "true", "yes"):
        return True
    if text in ("off", "0", "false", "no"):
        return False
    raise ValueError(f"{METRICS_ENV}={text!r}: expected 'on' or 'off'")


class Metrics:
    """The metrics of one app; ``manager`` is its table manager while the app runs."""

    def __init__(self, app_state: Any) -> None:
        self.registry = CollectorRegistry()
        self.manager: TableManager | None = None
        self.actions = Counter(
            "ziggurat_actions",
            "Actions played, by game and by who chose them (a human seat, a bot, chance).",
            ["game", "kind"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "ziggurat_action_seconds",
            "Seconds from an action's arrival (a bot's or chance's: its choice) to its broadcast.",
            ["game", "kind"],
            buckets=ACTION_BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge("ziggurat_sockets", "Open table WebSockets.", registry=self.registry)
        self.refused = Counter(
            "ziggurat_rate_limited",
            "Refused for a rate limit: a WebSocket connection, a WebSocket message, an HTTP request (429).",
            ["what"],
            registry=self.registry,
        )
        for what in RATE_LIMITED:
            self.refused.labels(what)  # every label from the start, at 0
        self.registry.register(_ScrapeTime(self, app_state))
        self._per_action: dict[tuple[str, Kind], tuple[Any, Any]] = {}

    def count_action(self, game: str, kind: Kind, seconds: float) -> None:
        """One action of ``game`` by ``kind`` took ``seconds`` from arrival to broadcast. The
        labelled counter and histogram are looked up once per pair: ``labels()`` costs as much
        as counting, on every action's path."""
        found = self._per_action.get((game, kind))
        if found is None:
            found = self._per_action[(game, kind)] = (
                self.actions.labels(game, kind),
                self.action_seconds.labels(game, kind),
            )
        found[0].inc()
        found[1].observe(seconds)

    def start(self, manager: TableManager) -> None:
        """The app started with ``manager``: its tables' actions count here."""
        self.manager = manager
        _apps.add(self)

    def stop(self) -> None:
        _apps.discard(self)
        if _last and _last[0]() is self:
            _last.clear()

    def owns(self, table: LiveTable) -> bool:
        return self.manager is not None and self.manager.tables.get(table.id) is table

    def exposition(self) -> bytes:
        """The metrics in the Prometheus text format."""
        return generate_latest(self.registry)


def of(app: ASGIApp) -> Metrics:
    """The metrics of ``app`` (made by ``create_app``)."""
    found: Metrics = app.state.metrics  # type: ignore[attr-defined]
    return found


def arrived() -> None:
    """A client's message arrived now: an action it carries is timed from here (the socket's
    task keeps the time, so waiting for the table's lock counts)."""
    _arrived.set(time.perf_counter())


def action_done(table: LiveTable, actor: int, started: float) -> None:
    """``actor`` (a seat, or < 0 for chance) played an action at ``table``, now broadcast;
    ``started`` (``time.perf_counter()``) is when ``_play`` began. A human's action is timed
    from its message's arrival, when its socket said so (:func:`arrived`)."""
    kind: Kind = "chance" if actor < 0 else "bot" if actor in table.bots else "human"
    if kind == "human":
        started = min(started, _arrived.get() or started)
    elapsed = time.perf_counter() - started
    last = _last[0]() if _last else None
    if last is not None and last.owns(table):
        last.count_action(table.game.game_id, kind, elapsed)
        return
    for app_metrics in _apps:
        if app_metrics.owns(table):
            _last[:] = [weakref.ref(app_metrics)]
            app_metrics.count_action(table.game.game_id, kind, elapsed)
            return


def rate_limited(app: ASGIApp, what: Literal["connection", "message", "http"]) -> None:
    """Count one refusal for a rate limit in ``app``'s ``ziggurat_rate_limited_total``."""
    of(app).refused.labels(what).inc()


class _ScrapeTime(Collector):
    """The gauges read when the metrics are scraped: tables by status, the bot queue, the
    event loop's largest stall."""

    def __init__(self, metrics: Metrics, app_state: Any) -> None:
        self.metrics = metrics
        self.app_state = app_state

    def collect(self) -> Iterable[Metric]:
        tables = list(self.metrics.manager.tables.values()) if self.metrics.manager is not None else []
        by_status = GaugeMetricFamily(
            "ziggurat_tables", "Tables held in memory, by status.", labels=["status"]
        )
        counts = dict.fromkeys(STATUSES, 0)
        for table in tables:
            counts[table.status] += 1
        for status, count in counts.items():
            by_status.add_metric([status], count)
        yield by_status
        yield GaugeMetricFamily(
            "ziggurat_bot_queue", "Bot decisions waiting or running.", value=self._bot_queue(tables)
        )
        yield from self._loop_stall()
        store = getattr(self.metrics.manager, "store", None)
        if store is not None:
            yield from action_writes(store)

    def _bot_queue(self, tables: list[LiveTable]) -> int:
        pool = getattr(self.metrics.manager, "bot_pool", None)
        pending = getattr(pool, "pending", None) if pool is not None else None
        if isinstance(pending, int):
            return pending
        return sum(1 for table in tables if table.thinking is not None)  # one bot at most per table

    def _loop_stall(self) -> Iterator[Metric]:
        watch = getattr(self.app_state, "loopwatch", None)
        stall = getattr(watch, "max_stall", None) if watch is not None else None
        if isinstance(stall, int | float):
            yield GaugeMetricFamily(
                "ziggurat_loop_stall_seconds",
                "The longest the event loop was kept from running since the server started.",
                value=float(stall),
            )
        histogram = getattr(watch, "histogram", None) if watch is not None else None
        if callable(histogram):
            yield HistogramMetricFamily(
                "ziggurat_loop_stalls_seconds",
                "How long the event loop was kept from running, at each wake-up of the loop watch "
                "(a few every 10 ms): subtract two readings for the stalls of a period.",
                buckets=[("+Inf" if bound == float("inf") else repr(bound), n) for bound, n in histogram()],
                sum_value=float(getattr(watch, "total", 0.0)),
            )


def action_writes(store: Store) -> Iterator[Metric]:
    """PostgreSQL's group commit (``actionwrites.LoopWriters``): the transactions of several
    actions' writes, the writes in them, and the batches undone (their writes then sent alone).
    Nothing on SQLite."""
    writers = store.loop_writers
    if writers is None:
        return
    yield CounterMetricFamily(
        "ziggurat_action_write_batches",
        "Transactions that committed several actions' writes at once (group commit).",
        value=writers.batches,
    )
    yield CounterMetricFamily(
        "ziggurat_action_writes_batched",
        "Actions' writes committed in those transactions.",
        value=writers.batched,
    )
    yield CounterMetricFamily(
        "ziggurat_action_write_batches_undone",
        "Batches undone because one of their writes failed; their writes were then sent alone.",
        value=writers.undone,
    )
