"""``ISMCTSBot``: information-set Monte Carlo tree search over the engine contract.

The bot decides from ``(view, legal, rng)`` like every bot: the tree search of
:mod:`.search` samples full states from the view and never sees the real game's state. One
decision:

- with a single legal action, it is answered at once (no search);
- a seed is drawn from the injected RNG, so a driver's seeded RNG gives the same game;
- worker ``i`` searches its own tree from seed ``f"{seed}/w{i}"`` with the full budget
  (a time per decision, or an iteration count); worker 0 runs in this process, the others
  in a persistent process pool (``spawn`` start method: safe beside threads, like the
  server's), started at the first decision that searches (which pays for starting them);
  root statistics are summed and the best action is played (:meth:`RootStats.best`: the
  most visited one after a UCT root, the best on paired differences after a paired root,
  the heuristic's move without evidence against it). With an iteration
  budget the answer depends only on the view, the legal list and the seed, for any number
  of workers;
- from a view it has already decided at (a loop of free actions), the bot plays an action it
  has not played there before, so it can never go round in circles.

``bot.last_stats`` holds the figures of the last search (:class:`DecisionStats`). A bot
with ``workers > 1`` owns processes: call :meth:`ISMCTSBot.close` when done (or use the bot
as a context manager). :func:`ziggurat.bots.close_bot` closes any bot (a no-op for bots
without processes).
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from random import Random
from typing import Any

from ziggurat.bots.search import RootStats, Searcher
from ziggurat.bots.spec import ISMCTSConfig
from ziggurat.engine.contract import Game
from ziggurat.engine.registry import load

log = logging.getLogger(__name__)

MAX_REMEMBERED = 4096
"""Views remembered for the no-loop rule (positions do not recur from one turn to the next)."""


@dataclass(frozen=True)
class DecisionStats:
    """Figures of one decision: ``iterations`` over all workers in ``seconds`` of wall time."""

    iterations: int
    seconds: float
    workers: int
    searched: bool  # False when the only legal action was played without a search
    root: dict[str, tuple[int, float, int]]  # action -> (visits, reward sum, availability)

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


class ISMCTSBot:
    """Information-set MCTS with a time or iteration budget (see the module docstring)."""

    name = "ismcts"
    needs_view = True

    def __init__(
        self,
        game: Game,
        seat: int,
        config: ISMCTSConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock`` times the budget (seconds). Worker processes read ``time.monotonic``, so
        only a single-worker bot takes another clock."""
        self.game = game
        self.seat = seat
        self.config = config if config is not None else ISMCTSConfig()
        if clock is not time.monotonic and self.config.workers > 1:
            raise ValueError("an ISMCTS bot with worker processes times its budget with time.monotonic")
        self.name = self.config.spec()
        self.clock = clock
        self.searcher = Searcher(game, seat, self.config, clock)
        self.last_stats: DecisionStats | None = None
        self._taken: dict[bytes, set[str]] = {}  # view digest -> actions played from it
        self._pool: ProcessPoolExecutor | None = None
        self._finalizer: weakref.finalize | None = None  # type: ignore[type-arg]

    # --- the Bot protocol ---------------------------------------------------------------
    def choose(self, view: dict[str, Any] | None, legal: Sequence[str], rng: Random) -> str:
        if len(legal) == 1:
            self.last_stats = DecisionStats(0, 0.0, 0, False, {})
            return legal[0]
        if view is None:
            raise ValueError("the ISMCTS bot decides from the view (needs_view = True)")
        cfg = self.config
        seed = rng.getrandbits(64)
        start = self.clock()
        deadline = start + cfg.seconds if cfg.iterations is None and cfg.seconds is not None else None
        futures: list[Future[RootStats]] = []
        if cfg.workers > 1:
            pool = self._ensure_pool()
            args = (self.game.game_id, self.game.num_players, dict(self.game.options), self.seat, cfg)
            futures = [
                pool.submit(_worker_search, *args, view, f"{seed}/w{i}", cfg.iterations, deadline)
                for i in range(1, cfg.workers)
            ]
        stats = self.searcher.search(view, f"{seed}/w0", cfg.iterations, deadline)
        for fut in futures:
            try:
                stats.add(fut.result())
            except Exception:  # a lost worker costs its tree, not the decision
                log.exception("ISMCTS worker failed; deciding without its tree")
                self.close()  # a broken pool is replaced at the next decision
        elapsed = self.clock() - start
        self.last_stats = DecisionStats(stats.iterations, elapsed, cfg.workers, True, dict(stats.actions))
        # No loops: from a view met before at one of its decisions, the bot plays something it
        # has not played there yet. Games with free actions (Mesopotamia's pickups, drops and
        # hand-offs, M2.8) would otherwise let a search that finds them all equal go round in
        # circles; each return to a view rules one more action out, so a cycle ends.
        seen = _view_key(view)
        taken = self._taken.setdefault(seen, set())
        fresh = [a for a in legal if a not in taken]
        action = stats.best(fresh or legal)
        taken.add(action)
        if len(self._taken) > MAX_REMEMBERED:
            self._taken = {seen: taken}
        return action

    # --- processes ----------------------------------------------------------------------
    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.config.workers - 1, mp_context=ctx)
            self._finalizer = weakref.finalize(self, _shutdown, self._pool)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes, if any (the bot may still be used: they restart)."""
        pool, self._pool = self._pool, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> ISMCTSBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _view_key(view: dict[str, Any]) -> bytes:
    blob = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(blob.encode(), digest_size=16).digest()


def _shutdown(pool: ProcessPoolExecutor) -> None:
    pool.shutdown(wait=False, cancel_futures=True)


# --- worker processes ------------------------------------------------------------------
_SEARCHERS: dict[tuple[str, int, str, int, ISMCTSConfig], Searcher] = {}


def _worker_search(
    game_id: str,
    players: int,
    options: dict[str, Any],
    seat: int,
    config: ISMCTSConfig,
    view: dict[str, Any],
    seed: str,
    iterations: int | None,
    deadline: float | None,
) -> RootStats:
    """One worker's tree (runs in a pool process; the game and searcher are kept there)."""
    key = (game_id, players, repr(sorted(options.items())), seat, config)
    searcher = _SEARCHERS.get(key)
    if searcher is None:
        searcher = _SEARCHERS[key] = Searcher(load(game_id, players=players, **options), seat, config)
    return searcher.search(view, seed, iterations, deadline)


__all__ = ["DecisionStats", "ISMCTSBot"]
