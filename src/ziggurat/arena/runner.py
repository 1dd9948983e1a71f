"""Playing one tournament game, and playing many in local processes.

:func:`play_task` is the unit of work: it makes the seat's bots with ``make_bot``, plays the
seeded game with :func:`ziggurat.bots.play_game`, closes the bots and returns a picklable
:class:`GameOutcome` holding the record. It never raises: a bot or rules error is returned as
text, so one broken game does not stop a tournament. The record travels back with the outcome
and is written by the caller, which is what lets a Ray worker on another machine take part.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import ziggurat
from ziggurat.bots import Bot, close_bot, make_bot, play_game
from ziggurat.engine.contract import Game, State


class ArenaError(ValueError):
    """Bad tournament input (game, players, bot spec, counts), or a runner that cannot start."""


def check_bot(spec: str, game: Game) -> None:
    """Make (and close) a ``spec`` bot for ``game``, so a bad spec fails before any game starts.

    :raises ArenaError: naming the spec when ``make_bot`` refuses it.
    """
    try:
        bot = make_bot(spec, game, 0)
    except (ValueError, ImportError, AttributeError) as exc:
        raise ArenaError(f"bad bot spec {spec!r} for {game.game_id}: {exc}") from exc
    close_bot(bot)


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: everything a worker process needs, and nothing else."""

    game_id: str
    options: dict[str, Any]
    specs: tuple[str, ...]
    names: tuple[str, ...]
    seating: tuple[int, ...]
    index: int
    seed: int
    max_plies: int
    record: bool = True


@dataclass
class GameOutcome:
    """How one game went. ``returns`` is ``None`` only when the game raised before starting."""

    index: int
    seed: int
    seating: tuple[int, ...]
    names: tuple[str, ...]
    returns: list[float] | None = None
    plies: int = 0
    finished: bool = False
    error: str | None = None
    seconds: float = 0.0
    bot_stats: list[dict[str, float]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    record_file: str | None = None


def _add_stats(total: dict[str, float], stats: Any) -> None:
    """Sum the numbers of a bot's ``last_stats`` (one decision's figures: a dataclass such as
    the ISMCTS bot's ``DecisionStats``, or a mapping); booleans count as 0 or 1."""
    if dataclasses.is_dataclass(stats) and not isinstance(stats, type):
        items = [(f.name, getattr(stats, f.name)) for f in dataclasses.fields(stats)]
    elif isinstance(stats, Mapping):
        items = list(stats.items())
    else:
        return
    total["decisions"] = total.get("decisions", 0.0) + 1
    for key, value in items:
        if isinstance(value, int | float):
            total[str(key)] = total.get(str(key), 0.0) + float(value)


def play_task(task: GameTask) -> GameOutcome:
    """Play ``task``'s game; never raises (an error comes back with its traceback)."""
    out = GameOutcome(task.index, task.seed, task.seating, task.names)
    out.bot_stats = [{} for _ in task.specs]
    start = time.perf_counter()
    state: State | None = None
    bots: list[Bot] = []
    first: list[State] = []

    def observe(current: State, who: int, _action: str) -> None:
        if not first:
            first.append(current)  # play_game mutates one state: keep it for an error's record
        if who >= 0:
            _add_stats(out.bot_stats[who], getattr(bots[who], "last_stats", None))

    try:
        game = ziggurat.load(task.game_id, players=len(task.specs), **task.options)
        bots = [make_bot(spec, game, seat) for seat, spec in enumerate(task.specs)]
        result = play_game(game, bots, task.seed, max_plies=task.max_plies, on_action=observe)
        state = result.state
        out.plies = result.plies
        out.finished = not result.truncated
        out.returns = [float(r) for r in state.returns()]
    except Exception:  # noqa: BLE001 - a bot or rules bug must not stop the other games
        out.error = traceback.format_exc()
        state = first[0] if first else None
        out.plies = len(state.history()) if state is not None else 0
    finally:
        for bot in bots:
            try:
                close_bot(bot)
            except Exception:  # noqa: BLE001 - a failing close is reported, the game stands
                out.error = (out.error or "") + traceback.format_exc()
    if task.record and state is not None:
        out.record = _record(task, state, out.error)
    out.seconds = time.perf_counter() - start
    return out


def _record(task: GameTask, state: State, error: str | None) -> dict[str, Any]:
    try:
        rec = ziggurat.record(state, seed=task.seed, players=list(task.names))
    except Exception:  # noqa: BLE001 - a broken state still deserves its actions on disk
        rec = {"format": "ziggurat-record/1", "game": task.game_id, "num_players": len(task.specs),
               "options": task.options, "players": list(task.names), "seed": task.seed,
               "actions": state.history(), "result": None}  # fmt: skip
    rec["bots"] = list(task.specs)
    rec["tournament_game"] = task.index + 1
    if error is not None:
        rec["error"] = error
    return rec


class LocalRunner:
    """Games in this process (``jobs`` 1) or in a pool of ``jobs`` worker processes."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ArenaError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs

    @property
    def label(self) -> str:
        return "this process" if self.jobs == 1 else f"{self.jobs} local processes"

    def run(self, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        """Outcomes in completion order."""
        workers = min(self.jobs, len(tasks))
        if workers <= 1:
            for task in tasks:
                yield play_task(task)
            return
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            futures = [pool.submit(play_task, task) for task in tasks]
            for future in as_completed(futures):
                yield future.result()
        finally:
            # Interrupted (Ctrl-C, a consumer that stops early): drop the games not started.
            pool.shutdown(wait=True, cancel_futures=True)
