"""The event loop's watch: how late the loop wakes a task that sleeps a few milliseconds.

Everything the server does for its sockets runs on one event loop; work that holds the loop
(a bot deciding in a thread that holds the GIL, a long computation between two ``await``)
delays every socket at once. :class:`LoopWatch` sleeps :attr:`LoopWatch.interval` seconds
again and again and measures how late it wakes: the *stall* the loop had meanwhile. It keeps
the largest, counts those over :attr:`LoopWatch.threshold` (20 ms), notes the largest CPU
time the loop's own thread spent between two wake-ups (:attr:`LoopWatch.max_busy`: work done
on the loop; a stall much longer than that was the loop waiting, for the interpreter lock held
by another thread or for a processor), keeps a histogram of
every wake-up (``BUCKETS``, the shape a metrics exporter wants) and calls its listeners with
each one; a stall over :attr:`LoopWatch.warn_over` (100 ms) is logged, at most one line every
:attr:`LoopWatch.warn_every` seconds. The app starts one in its lifespan
(``app.state.loopwatch``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

BUCKETS: tuple[float, ...] = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (seconds) of the histogram's buckets; a last one takes everything above."""


class LoopWatch:
    """Measures the event loop's stalls while :meth:`start`-ed (until :meth:`stop`)."""

    def __init__(
        self,
        interval: float = 0.005,
        threshold: float = 0.020,
        warn_over: float = 0.100,
        warn_every: float = 10.0,
    ) -> None:
        self.interval = interval
        """Seconds the watch sleeps between two measures."""
        self.threshold = threshold
        """A stall above this many seconds is counted in :attr:`stalls`."""
        self.warn_over = warn_over
        """A stall above this many seconds is logged as a warning."""
        self.warn_every = warn_every
        """Seconds between two warnings at most (the stalls between are counted in the next)."""
        self.listeners: list[Callable[[float], None]] = []
        """Called with each measured stall (seconds) on the loop: must be quick."""
        self._task: asyncio.Task[None] | None = None
        self.reset()

    def reset(self) -> None:
        """Forget every figure (to measure one period on its own)."""
        self.max_stall = 0.0
        """The largest stall seen (seconds)."""
        self.max_busy = 0.0
        """The largest CPU time (seconds) the loop's thread spent between two wake-ups."""
        self.stalls = 0
        """Stalls over :attr:`threshold`."""
        self.samples = 0
        """Wake-ups measured."""
        self.total = 0.0
        """The sum of every stall measured (seconds)."""
        self.counts = [0] * (len(BUCKETS) + 1)
        """Stalls per bucket of :data:`BUCKETS` (not cumulative), the last one above them all."""
        self._warned_at: float | None = None
        self._unwarned = 0

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start watching the running loop (again, if it was stopped)."""
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="loopwatch")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def histogram(self) -> list[tuple[float, int]]:
        """``(upper bound, stalls up to it)`` per bucket, cumulative, the last with bound
        ``inf``: a Prometheus histogram's buckets (with :attr:`total` and :attr:`samples`)."""
        out = []
        seen = 0
        for bound, count in zip((*BUCKETS, float("inf")), self.counts, strict=True):
            seen += count
            out.append((bound, seen))
        return out

    def snapshot(self) -> dict[str, Any]:
        """The figures as JSON: ``max_stall``, ``max_busy``, ``stalls``, ``samples``, ``total``,
        ``threshold``."""
        return {
            "max_stall": self.max_stall,
            "max_busy": self.max_busy,
            "stalls": self.stalls,
            "samples": self.samples,
            "total": self.total,
            "threshold": self.threshold,
        }

    def _observe(self, stall: float, now: float) -> None:
        self.samples += 1
        self.total += stall
        self.max_stall = max(self.max_stall, stall)
        bucket = 0
        while bucket < len(BUCKETS) and stall > BUCKETS[bucket]:
            bucket += 1
        self.counts[bucket] += 1
        if stall > self.threshold:
            self.stalls += 1
        if stall > self.warn_over:
            if self._warned_at is None or now - self._warned_at >= self.warn_every:
                more = f" ({self._unwarned} more over {self.warn_over * 1000:.0f} ms since the last warning)"
                log.warning(
                    "event loop stall of %.0f ms: something held the loop without yielding%s",
                    stall * 1000,
                    more if self._unwarned else "",
                )
                self._warned_at = now
                self._unwarned = 0
            else:
                self._unwarned += 1
        for listener in self.listeners:
            try:
                listener(stall)
            except Exception:  # a listener's failure never stops the watch
                log.exception("a loop watch listener failed")

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            cpu = time.thread_time()  # this thread's: the loop's
            await asyncio.sleep(self.interval)
            self.max_busy = max(self.max_busy, time.thread_time() - cpu)
            now = loop.time()
            self._observe(max(0.0, now - before - self.interval), now)


GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic garbage collector's thresholds in a server process (Python's default is
``(700, 10, 10)``). A server allocates views, log entries and states at a high rate: with the
default, a first-generation collection runs every 700 new containers and collecting took about
a tenth of the process's time in ``benchmarks/loop_stalls.py``, its full collections holding
the loop for 100-300 ms on a loaded machine. ``(10_000, 10, 10)`` made collections rarer (about
a sixth of the time spent); with these, a young collection runs every 50,000 new containers (a
few dozen actions) and the older generations far less often: bench-server, PostgreSQL x2,
played 865-888 actions/s against 807-810 with ``(10_000, 10, 10)`` (interleaved runs); its
largest loop stalls were 63-106 ms against 63-87. Most of what a step makes (views, log
entries) is freed by reference counting, not by the collector."""


def tune_gc() -> None:
    """Set :data:`GC_THRESHOLDS` and move everything alive now (modules, the app, its tables
    loaded so far) out of the collector's sight (``gc.freeze``): it is never garbage, and a full
    collection then does not walk it again. Called once a server process has started its app."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
