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
from collections.abc import Callable, Iterator, Mapping, Sequence
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


@dataclass
class Played:
    """What :func:`play_guarded` saw: the final state (or, after an error, the state it played
    in), and the error and failed closes as tracebacks."""

    state: State | None
    plies: int = 0
    finished: bool = False
    returns: list[float] | None = None
    error: str | None = None
    close_error: str | None = None


def play_guarded(
    game_id: str,
    specs: Sequence[str],
    options: Mapping[str, Any],
    seed: int,
    max_plies: int,
    on_action: Callable[[Sequence[Bot], State, int, str], None] | None = None,
    make: Callable[[str, Game, int], Bot] | None = None,
) -> Played:
    """Load the game, make the seats' bots (with ``make``, by default ``make_bot``), play the
    seeded game and close the bots; never raises. ``on_action(bots, state, actor, action)`` is
    called before each action. The one body of a game for the arena (:func:`play_task`) and
    ``ziggurat simulate``."""
    make = make if make is not None else make_bot
    bots: list[Bot] = []
    first: list[State] = []

    def observe(current: State, who: int, action: str) -> None:
        if not first:
            first.append(current)  # play_game mutates one state: keep it for an error's record
        if on_action is not None:
            on_action(bots, current, who, action)

    played = Played(None)
    try:
        game = ziggurat.load(game_id, players=len(specs), **options)
        bots = [make(spec, game, seat) for seat, spec in enumerate(specs)]
        result = play_game(game, bots, seed, max_plies=max_plies, on_action=observe)
        played.state = result.state
        played.plies = result.plies
        played.finished = not result.truncated
        played.returns = [float(r) for r in result.state.returns()]
    except Exception:  # noqa: BLE001 - a bot or rules bug must not stop the other games
        played.error = traceback.format_exc()
        played.state = first[0] if first else None
        played.plies = len(played.state.history()) if played.state is not None else 0
    finally:
        for bot in bots:
            try:
                close_bot(bot)
            except Exception:  # noqa: BLE001 - a failing close is reported, the game stands
                played.close_error = (played.close_error or "") + traceback.format_exc()
    return played


def fallback_record(
    state: State, game_id: str, options: Mapping[str, Any], players: Sequence[str], seed: int
) -> dict[str, Any]:
    """The game's record, or for a state too broken to record, its actions in a bare record."""
    try:
        return ziggurat.record(state, seed=seed, players=list(players))
    except Exception:  # noqa: BLE001 - a broken state still deserves its actions on disk
        return {"format": "ziggurat-record/1", "game": game_id, "num_players": len(players),
                "options": dict(options), "players": list(players), "seed": seed,
                "actions": state.history(), "result": None}  # fmt: skip


def play_task(task: GameTask) -> GameOutcome:
    """Play ``task``'s game; never raises (an error comes back with its traceback)."""
    out = GameOutcome(task.index, task.seed, task.seating, task.names)
    out.bot_stats = [{} for _ in task.specs]
    start = time.perf_counter()

    def observe(bots: Sequence[Bot], _current: State, who: int, _action: str) -> None:
        if who >= 0:
            _add_stats(out.bot_stats[who], getattr(bots[who], "last_stats", None))

    played = play_guarded(task.game_id, task.specs, task.options, task.seed, task.max_plies, observe)
    state = played.state
    out.plies = played.plies
    out.finished = played.finished
    out.returns = played.returns
    if played.error is not None or played.close_error is not None:
        out.error = (played.error or "") + (played.close_error or "")
    if task.record and state is not None:
        out.record = _record(task, state, out.error)
    out.seconds = time.perf_counter() - start
    return out


def _record(task: GameTask, state: State, error: str | None) -> dict[str, Any]:
    rec = fallback_record(state, task.game_id, task.options, task.names, task.seed)
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
