"""Bot decisions in worker processes, so that a thinking bot never holds the event loop.

A thinking bot (``bot.needs_view``: the heuristic bots and ISMCTS) holds the interpreter
while it decides; in a worker thread the GIL still stalls the event loop. :class:`BotPool`
sends each decision as plain data (:class:`Decision`: the game, its options, the seat, the
bot spec, the seat's view, the legal actions and the seed of the decision's
``random.Random``) to a worker process, which builds the bot with
``make_bot(spec, game, seat)`` and answers the chosen action's text.

Bots remember what they did (ISMCTS rules out the actions it already played from a view that
comes back, so a cycle of hand-offs ends; the heuristic bots keep their plan of the turn), so
one seat's bot lives in one worker: each bot (``Decision.key``: one bot of one seat of one
table) is given a *lane*, one single-process executor, on its first decision (the lane with
the fewest decisions waiting, then with the fewest bots), and keeps it while the worker lives. Its decisions are then
exactly those the bot would make in the server process with the same seeds. A worker that
dies is replaced (its bots start afresh, as after a restart of the server) and the decision
is tried once more; if that fails too the caller plays a random legal action.

Workers start with the first decision of their lane (a server whose tables have no thinking
bot starts none), from a fork server where the platform has one, else by spawning: never by
forking a process that runs threads and an event loop.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import multiprocessing
import os
import random
import time
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, cast

from ziggurat.bots.base import Bot, close_bot, make_bot
from ziggurat.engine.contract import Game
from ziggurat.engine.registry import game_class, games, load

log = logging.getLogger(__name__)

MAX_BOTS = 1024
"""Bots a worker keeps (the least recently used one is dropped beyond)."""
MAX_HOMES = 8192
"""Bots whose lane the pool remembers (the least recently used one is forgotten beyond)."""
STOP_GRACE = 0.5
"""Seconds a closing pool gives its workers to end by themselves before terminating them."""
STOP_WAIT = 2.0
"""Seconds a closing pool waits for a terminated worker before killing it."""
WORKER_NICENESS = 10
"""How much lower than the server's a worker's scheduling priority is (``os.nice``): a search
then gives way to the event loop whenever the loop has work, so a machine kept busy by bots
stalls the loop less; on an idle processor the search runs as fast as before."""


def _lower_priority() -> None:
    """A worker's first act: lower its scheduling priority (where the platform has ``nice``)."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


def default_workers() -> int:
    """Worker processes of a pool by default: two, or one on a one-core machine."""
    return min(2, os.cpu_count() or 1)


_keys = itertools.count(1)


def bot_key(table_id: str, seat: int) -> str:
    """A new key for the bot of ``seat`` at table ``table_id`` (:attr:`Decision.key`),
    unlike any other of this process: a table loaded again gets fresh bots."""
    return f"{table_id}/{seat}/{next(_keys)}"


@dataclass(frozen=True, slots=True)
class Decision:
    """One bot decision as plain data (pickled to a worker).

    ``key`` names the bot that decides (one seat of one table, for as long as the same bot
    plays it): the worker keeps that bot, and what it remembers, between decisions.
    ``seed`` seeds the decision's ``random.Random``.
    """

    key: str
    game: str
    players: int
    options: dict[str, Any]
    seat: int
    spec: str
    view: dict[str, Any] | None
    legal: list[str]
    seed: str


# --- the worker side --------------------------------------------------------------------------
_bots: OrderedDict[str, tuple[str, Bot]] = OrderedDict()


@functools.lru_cache(maxsize=64)
def _game(game_id: str, players: int, options: str) -> Game:
    return load(game_id, players=players, **json.loads(options))


def choose_in_worker(decision: Decision) -> str:
    """The action ``decision``'s bot chooses (runs in a worker; the bot is kept there)."""
    options = json.dumps(decision.options, sort_keys=True)
    ident = json.dumps([decision.game, decision.players, options, decision.seat, decision.spec])
    entry = _bots.get(decision.key)
    if entry is None or entry[0] != ident:
        game = _game(decision.game, decision.players, options)
        entry = (ident, make_bot(decision.spec, game, decision.seat))
        _bots[decision.key] = entry
        while len(_bots) > MAX_BOTS:
            close_bot(_bots.popitem(last=False)[1][1])
    _bots.move_to_end(decision.key)
    return entry[1].choose(decision.view, decision.legal, random.Random(decision.seed))


# --- the server side --------------------------------------------------------------------------
class _Context:
    """A start method's context that remembers the processes it starts, so that a closing
    pool can stop workers still busy with a long search instead of waiting for them."""

    def __init__(self, ctx: BaseContext) -> None:
        self._ctx = ctx
        self.processes: list[Any] = []

    def Process(self, *args: Any, **kwargs: Any) -> Any:  # noqa: N802 (multiprocessing's name)
        process = self._ctx.Process(*args, **kwargs)  # type: ignore[attr-defined]
        self.processes.append(process)
        return process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)


def _preload() -> list[str]:
    """The modules the fork server imports once, so that every worker starts with them: this
    one, the search, and each game's heuristic bot."""
    names = [__name__, "ziggurat.bots.ismcts"]
    for game_id in games():
        hook = game_class(game_id).hooks.heuristic_bot
        if hook is not None:
            names.append(hook.target.partition(":")[0])
    return names


def _context() -> _Context:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx: BaseContext = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(_preload())  # type: ignore[attr-defined]
    else:
        ctx = multiprocessing.get_context("spawn")
    return _Context(ctx)


class _Lane:
    """One worker process, started with its first decision, replaced when it dies."""

    __slots__ = ("bots", "context", "executor", "pending", "ready")

    def __init__(self) -> None:
        self.executor: ProcessPoolExecutor | None = None
        self.context: _Context | None = None
        self.pending = 0
        self.bots = 0  # bots whose lane this is
        self.ready = False
        """Whether the executor's worker has started: a submit then returns at once. Until
        then a submit starts it, or waits (on the executor's lock) while another starts it."""

    def ensure(self) -> ProcessPoolExecutor:
        """The lane's executor, made now if it has none (its process starts with a task)."""
        if self.executor is None:
            self.context = _context()
            # the wrapper stands in for the context it wraps (multiprocessing duck-types it)
            self.executor = ProcessPoolExecutor(
                max_workers=1, mp_context=cast(BaseContext, self.context), initializer=_lower_priority
            )
        return self.executor

    def discard(self) -> list[Any]:
        """Drop the executor (its queued decisions are cancelled); its processes, to stop."""
        executor, context = self.executor, self.context
        self.executor = self.context = None
        self.ready = False
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        return [] if context is None else context.processes


def _ended(lane: _Lane, waiter: asyncio.Future[str]) -> None:
    lane.pending -= 1
    if not waiter.cancelled():
        waiter.exception()  # retrieved: a decision nobody waits for any more may fail unseen


def _stop(processes: list[Any], grace: float = 0.0) -> None:
    """Stop worker processes whose executor was shut down: wait up to ``grace`` seconds for
    them to end by themselves, then terminate them, and kill those that go on."""
    processes = [p for p in processes if p.pid is not None]  # a process not started has no pid
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(STOP_WAIT)
        if process.is_alive():
            process.kill()
            process.join()


class BotPool:
    """Bot decisions in ``workers`` worker processes (default :func:`default_workers`).

    Used from the event loop's thread only. ``pending`` counts the decisions queued or
    running, for metrics.
    """

    def __init__(self, workers: int | None = None) -> None:
        count = default_workers() if workers is None else workers
        if count < 1:
            raise ValueError(f"a bot pool needs at least one worker process, not {count}")
        self._lanes = [_Lane() for _ in range(count)]
        self._homes: OrderedDict[str, _Lane] = OrderedDict()
        self._closed = False
        self.replaced = 0
        """Workers replaced after they died."""

    @property
    def workers(self) -> int:
        """How many worker processes the pool may run."""
        return len(self._lanes)

    @property
    def pending(self) -> int:
        """Decisions queued or running."""
        return sum(lane.pending for lane in self._lanes)

    @property
    def started(self) -> int:
        """Worker processes started and not stopped (they start with their lane's first
        decision; a worker that died counts until its lane replaces it)."""
        return len(self.worker_pids())

    def worker_pids(self) -> list[int]:
        """The process id of each worker started and not stopped."""
        return [
            process.pid
            for lane in self._lanes
            if lane.context is not None
            for process in lane.context.processes
            if process.pid is not None
        ]

    def _lane(self, key: str) -> _Lane:
        lane = self._homes.get(key)
        if lane is None:
            lane = min(self._lanes, key=lambda candidate: (candidate.pending, candidate.bots))
            lane.bots += 1
            self._homes[key] = lane
            while len(self._homes) > MAX_HOMES:
                self._homes.popitem(last=False)[1].bots -= 1
        self._homes.move_to_end(key)
        return lane

    async def decide(self, decision: Decision) -> str:
        """The action the bot chooses, decided in its worker.

        :raises BrokenProcessPool: if the worker died twice during this decision (each time
            it is replaced).
        :raises Exception: what the bot raised, if it failed.
        """
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        lane = self._lane(decision.key)
        retried = False
        while True:
            executor = lane.ensure()
            try:
                waiter = await self._submit(lane, executor, decision)
                # A caller that stops waiting (its table closed) leaves the decision to end in
                # its worker: cancelling it there could leave a cancelled future in the executor,
                # which Python 3.11's executor then fails on if its worker dies; a closing pool
                # drops the queued decisions itself.
                return await asyncio.shield(waiter)
            except BrokenProcessPool:
                if self._closed:
                    raise
                if lane.executor is executor:  # not yet replaced for another decision
                    self.replaced += 1
                    await asyncio.to_thread(_stop, lane.discard())
                if retried:
                    raise
                retried = True
                log.warning("a bot worker died and was replaced; deciding again (bot %s)", decision.key)

    async def _submit(
        self, lane: _Lane, executor: ProcessPoolExecutor, decision: Decision
    ) -> asyncio.Future[str]:
        """Queue ``decision`` in ``lane``'s worker; it counts as pending until it ends."""
        lane.pending += 1
        try:
            future: Future[str]
            if lane.ready:
                future = executor.submit(choose_in_worker, decision)
            else:  # the submit starts the worker (and the fork server): not on the loop
                future = await asyncio.to_thread(executor.submit, choose_in_worker, decision)
                if lane.executor is executor:
                    lane.ready = True
        except BaseException:
            lane.pending -= 1
            raise
        waiter = asyncio.wrap_future(future)
        waiter.add_done_callback(functools.partial(_ended, lane))
        return waiter

    def close(self) -> None:
        """Cancel queued decisions and stop every worker, even one in the middle of a search
        (blocks for as long as terminating them takes: call it in a thread from a loop)."""
        self._closed = True
        processes: list[Any] = []
        for lane in self._lanes:
            processes += lane.discard()
        _stop(processes, STOP_GRACE)
