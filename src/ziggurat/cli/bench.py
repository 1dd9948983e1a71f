"""``ziggurat bench``: speed figures of the games' hot paths through the public contract, beside
OpenSpiel's chess. Prints numbers, never asserts on them.

Every figure is CPU time (``time.process_time``) of seeded random play, one game and player
count at a time:

- decisions/s: ``legal_actions()`` + a seeded choice + ``apply()`` (at a chance node, its
  outcomes through ``sample_chance`` + ``apply``), new games started as games end;
- apply/s, legal_actions/s and clone/s over the same seeded play: its states are kept by batches,
  then each batch is timed as a whole: cloning each state, asking each its legal actions (on the
  state made afresh from its position: ``apply`` has already worked out the legal list of the
  state it leaves, to play the forced decisions that follow, so asking it again is a cached
  read), applying to each the action the play chose. Timing whole batches keeps the clock's own
  cost (a system call) out of the figures. A game whose position loader asks for the legal
  list itself (Mare Nostrum checks that a position has a legal action) shows a cached read.

With the ``spiel`` extra installed, the same loops run over OpenSpiel's chess (C++ through
pyspiel: ``legal_actions`` + ``apply_action``, ``clone``) and each figure is also shown as a
ratio, ours / chess.

The research adapters are measured in the same run (``ziggurat.interop.speed``; ``--no-adapters``
skips them): the OpenSpiel game's steps/s (legal actions as ints + ``apply_action``, chance
outcomes included, as a pyspiel user loops), the PettingZoo environment's steps/s
(``action_mask()`` + ``step``) and the engine decisions/s inside those steps, each as a ratio
to the engine's decisions/s; and apart from those rates, the µs of an observation tensor, an
information-state string and an observation string, per seat.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

import ziggurat
from ziggurat.bots import make_bot, play_game
from ziggurat.cli.common import (
    GAME_HELP,
    OPTION_HELP,
    UsageError,
    check_game_id,
    console,
    handle_usage_errors,
    load_game,
    parse_options,
)
from ziggurat.engine.build import build_name
from ziggurat.engine.contract import Game, sample_chance
from ziggurat.engine.registry import game_class

BATCH = 256
"""States timed together (and decisions between two looks at the clock)."""
FIGURES = ("decisions", "apply", "legal_actions", "clone")
CHESS = "chess (OpenSpiel)"


@dataclass
class Speeds:
    """What one subject (a game at one player count, or chess) measured."""

    subject: str
    players: int
    decisions: float
    """Per CPU second; so are the three below."""
    apply: float
    legal_actions: float
    clone: float
    played: int
    """Decisions played in the decisions loop."""
    games: int
    """Games started in that loop."""
    ratio: dict[str, float] = field(default_factory=dict)
    """Each figure over chess's, when chess was measured."""
    adapters: dict[str, float] = field(default_factory=dict)
    """Per CPU second through the adapters, when measured: ``openspiel`` steps,
    ``pettingzoo`` steps and ``pettingzoo_decisions`` (the engine decisions inside them)."""
    adapter_ratio: dict[str, float] = field(default_factory=dict)
    """Each adapter figure over this row's decisions/s."""
    observations: list[dict[str, float]] = field(default_factory=list)
    """Per seat: µs per observation tensor, information-state string and observation string."""


def play_step(state: Any, rng: random.Random) -> Any:
    """One seeded decision of ``state``: its action, the state left unchanged."""
    if state.is_chance_node():
        return sample_chance(state, rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


@dataclass
class Subject:
    """What the loops drive: a game object with ``new_initial_state()``, the name of its states'
    apply method, and how a state is made afresh from its position (nothing cached in it)."""

    name: str
    players: int
    game: Any
    apply_name: str
    rebuild: Callable[[Any], Any]


def ours(game: Game) -> Subject:
    return Subject(game.name, game.num_players, game, "apply",
                   lambda state: game.state_from_position(state.to_position()))  # fmt: skip


def decisions_per_second(subject: Subject, seconds: float, seed: int) -> tuple[float, int, int]:
    """Seeded random play for about ``seconds`` of CPU: (decisions/s, decisions, games started)."""
    game, apply_name = subject.game, subject.apply_name
    rng = random.Random(seed)
    decisions = 0
    state = game.new_initial_state()
    games = 1
    start = time.process_time()
    while True:
        for _ in range(BATCH):
            if state.is_terminal():
                state = game.new_initial_state()
                games += 1
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            getattr(state, apply_name)(action)
        decisions += BATCH
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed, decisions, games


def step_speeds(subject: Subject, seconds: float, seed: int) -> tuple[float, float, float]:
    """(apply/s, legal_actions/s, clone/s) over seeded random play, each timed by whole batches
    of the play's states. ``apply`` works out the next legal list itself (to apply the forced
    decisions that follow), so legal_actions is timed on each state made afresh from its
    position, where nothing is cached yet."""
    game, apply_name = subject.game, subject.apply_name
    rng = random.Random(seed)
    state = game.new_initial_state()
    timed = {"apply": 0.0, "legal_actions": 0.0, "clone": 0.0}
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        states: list[Any] = []
        actions: list[Any] = []
        for _ in range(BATCH):
            if state.is_terminal():
                state = game.new_initial_state()
            states.append(state.clone())
            action = play_step(state, rng)
            actions.append(action)
            getattr(state, apply_name)(action)
        cloners = [s.clone for s in states]  # bound methods made outside the timed loops
        listers = [subject.rebuild(s).legal_actions for s in states]
        appliers = [getattr(s, apply_name) for s in states]
        before = time.process_time()
        for clone in cloners:
            clone()
        middle = time.process_time()
        for legal_actions in listers:
            legal_actions()
        end = time.process_time()
        for apply, action in zip(appliers, actions, strict=True):
            apply(action)
        timed["clone"] += middle - before
        timed["legal_actions"] += end - middle
        timed["apply"] += time.process_time() - end
        count += BATCH
    apply, legal, clone = (count / max(timed[k], 1e-9) for k in ("apply", "legal_actions", "clone"))
    return apply, legal, clone


def measure(subject: Subject, seconds: float, seed: int) -> Speeds:
    rate, played, games = decisions_per_second(subject, seconds, seed)
    apply, legal, clone = step_speeds(subject, seconds, seed)
    return Speeds(subject.name, subject.players, rate, apply, legal, clone, played, games)


# column titles on two lines: the tables fit 100 columns
ADAPTERS = (("openspiel", "OpenSpiel\nsteps/s"), ("pettingzoo", "PettingZoo\nsteps/s"),
            ("pettingzoo_decisions", "PettingZoo\ndecisions/s"))  # fmt: skip
OBSERVATIONS = (("tensor", "observation\ntensor µs"), ("information_state_string", "information-\nstate string µs"),
                ("observation_string", "observation\nstring µs"))  # fmt: skip


def measure_adapters(row: Speeds, game: Game, seconds: float, seed: int) -> list[str]:
    """Fill ``row``'s adapter figures (the same seeded play through each adapter); the extras
    missing for those that could not be measured."""
    missing = []
    options = dict(game.options)
    try:
        from ziggurat.interop import speed
    except ImportError:  # NumPy absent: neither adapter runs
        return ["spiel", "rl"]
    try:
        row.adapters["openspiel"] = speed.spiel_steps_per_second(
            game.game_id, row.players, options, seconds, seed
        )[0]
        costs = speed.observation_costs(game.game_id, row.players, options, seconds, seed)
        row.observations = [asdict(cost) for cost in costs]
    except ImportError:
        missing.append("spiel")
    try:
        steps, decisions, _, _ = speed.pettingzoo_steps_per_second(
            game.game_id, row.players, options, seconds, seed
        )
        row.adapters["pettingzoo"], row.adapters["pettingzoo_decisions"] = steps, decisions
    except ImportError:
        missing.append("rl")
    row.adapter_ratio = {name: value / row.decisions for name, value in row.adapters.items()}
    return missing


def chess() -> Subject | None:
    """OpenSpiel's chess, or ``None`` without the ``spiel`` extra. A state's position is its FEN."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    return Subject(CHESS, 2, game, "apply_action", lambda state: game.new_initial_state(str(state)))


def heuristic_game(game: Any, players: int, seed: int, max_plies: int) -> dict[str, Any]:
    """One seeded game with heuristic bots in every seat: its wall time and plies."""
    try:
        bots = [make_bot("heuristic", game, s) for s in range(players)]
    except (ValueError, ImportError, AttributeError) as exc:
        return {"game": game.game_id, "players": players, "unavailable": str(exc)}
    start = time.perf_counter()
    result = play_game(game, bots, seed, max_plies=max_plies)
    elapsed = time.perf_counter() - start
    return {"game": game.game_id, "players": players, "seconds": elapsed, "plies": result.plies,
            "finished": not result.truncated}  # fmt: skip


def speeds_table(rows: list[Speeds], seconds: float, seed: int) -> Table:
    table = Table(
        title=(
            f"Ziggurat benchmark ({build_name()} engine): seeded random play (seed {seed}), CPU time, "
            f"{seconds:g} s per measure"
        )
    )
    table.add_column("game")
    table.add_column("players", justify="right")
    for name in FIGURES:
        table.add_column(f"{name}/s", justify="right")
    for row in rows:
        cells = []
        for name in FIGURES:
            ratio = row.ratio.get(name)
            value = f"{getattr(row, name):,.0f}"
            cells.append(value if ratio is None else f"{value} ({ratio:.2f}x)")
        table.add_row(row.subject, "" if row.subject == CHESS else str(row.players), *cells)
    if any(row.ratio for row in rows):
        table.caption = "(ratio): ours / chess, OpenSpiel's C++ chess through pyspiel in the same run"
    return table


def adapters_table(rows: list[Speeds], seconds: float, seed: int) -> Table:
    table = Table(
        title=f"Adapters: seeded random play (seed {seed}) through OpenSpiel and PettingZoo, CPU time, "
        f"{seconds:g} s per measure"
    )
    for name, justify in (("game", "left"), ("players", "right"), ("engine\ndecisions/s", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for _, title in ADAPTERS:
        table.add_column(title, justify="right")
    for row in rows:
        cells = [
            "unavailable" if name not in row.adapters
            else f"{row.adapters[name]:,.0f} ({row.adapter_ratio[name]:.2f}x)"
            for name, _ in ADAPTERS
        ]  # fmt: skip
        table.add_row(row.subject, str(row.players), f"{row.decisions:,.0f}", *cells)
    table.caption = (
        "(ratio): adapter / engine decisions/s in the same run. A PettingZoo step plays the chance "
        "outcomes and single-choice decisions that follow inside it: its decisions/s counts them"
    )
    return table


def observations_table(rows: list[Speeds]) -> Table:
    table = Table(
        title="Observation cost: µs per call on an OpenSpiel state, per seat (not in the step rates)"
    )
    for name in ("game", "players", "seat"):
        table.add_column(name, justify="left" if name == "game" else "right")
    for _, title in OBSERVATIONS:
        table.add_column(title, justify="right")
    table.add_column("states", justify="right")
    for row in rows:
        for cost in row.observations:
            cells = [f"{cost[name]:,.1f}" for name, _ in OBSERVATIONS]
            table.add_row(
                row.subject, str(row.players), str(int(cost["seat"])), *cells, str(int(cost["states"]))
            )
    return table


def heuristic_table(games: list[dict[str, Any]], max_plies: int) -> Table:
    table = Table(title="heuristic game: heuristic bots in every seat, one seeded game (wall time)")
    for name, justify in (("game", "left"), ("players", "right"), ("time", "right"), ("plies", "right"),
                          ("plies/s", "right")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for one in games:
        if "unavailable" in one:
            table.add_row(one["game"], str(one["players"]), "unavailable", one["unavailable"], "")
            continue
        plies = f"{one['plies']:,}" + ("" if one["finished"] else f" (stopped at --max-plies {max_plies})")
        table.add_row(one["game"], str(one["players"]), f"{one['seconds']:.2f} s", plies,
                      f"{one['plies'] / max(one['seconds'], 1e-9):,.0f}")  # fmt: skip
    return table


@handle_usage_errors
def bench(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=f"{GAME_HELP} Or all: every game.")],
    seconds: Annotated[
        float,
        typer.Option("--seconds", "-t", min=0.0, help="CPU seconds of each measure (decisions; the rest)."),
    ] = 3.0,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Number of players (default: every count of the game)."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the random play and of the heuristic game.")
    ] = 1,
    with_chess: Annotated[
        bool,
        typer.Option("--chess/--no-chess", help="Measure OpenSpiel's chess too (needs the spiel extra)."),
    ] = True,
    adapters: Annotated[
        bool,
        typer.Option(
            "--adapters/--no-adapters",
            help="Measure the OpenSpiel and PettingZoo adapters and observations too (spiel and rl extras).",
        ),
    ] = True,
    heuristic: Annotated[
        bool, typer.Option("--heuristic", help="Also time one seeded game with heuristic bots in every seat.")
    ] = False,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="Ply cap of the heuristic game.")
    ] = 100_000,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", metavar="FILE", help="Also write the figures to FILE as JSON.")
    ] = None,
) -> None:
    """Measure a game's speed: decisions, apply, legal_actions and clones per second in seeded
    random play, beside OpenSpiel's chess.

    For every player count of the game (or --players), in CPU time: decisions per second
    (legal_actions + apply, chance included), then apply, legal_actions and clone per second
    each timed apart over the same seeded play. With the spiel extra installed, OpenSpiel's chess
    is measured the same way in the same run and each figure is shown as a ratio, ours / chess.
    Then, unless --no-adapters, the same seeded play through the OpenSpiel game (steps/s: legal
    actions as ints + apply_action) and the PettingZoo environment (steps/s: action_mask +
    step), each as a ratio to the engine's decisions/s, and the µs of an observation tensor,
    an information-state string and an observation string per seat, apart from those rates.
    --heuristic adds the time of one seeded game with heuristic bots in every seat. Figures
    only: nothing is asserted on timing.
    """
    ids = ziggurat.games() if game_id == "all" else [game_id]
    options = parse_options(option)
    if len(ids) > 1 and (options or players is not None):
        raise UsageError("--option and --players need one game, not all")
    rows: list[Speeds] = []
    heuristics: list[dict[str, Any]] = []
    missing: set[str] = set()
    for one in ids:
        check_game_id(one)
        cls = game_class(one)
        counts = [players] if players is not None else list(range(cls.min_players, cls.max_players + 1))
        for count in counts:
            game = load_game(one, count, options)  # a usage error for a bad id, count or option
            rows.append(measure(ours(game), seconds, seed))
            if adapters:
                missing.update(measure_adapters(rows[-1], game, seconds, seed))
            if heuristic:
                heuristics.append(heuristic_game(game, count, seed, max_plies))
    chess_row = None
    spiel_chess = chess() if with_chess else None
    if spiel_chess is not None:
        chess_row = measure(spiel_chess, seconds, seed)
        for row in rows:
            row.ratio = {name: getattr(row, name) / getattr(chess_row, name) for name in FIGURES}
        rows.append(chess_row)
    out = console()
    out.print(speeds_table(rows, seconds, seed))
    if with_chess and spiel_chess is None:
        out.print("chess: unavailable (install the spiel extra: pip install 'ziggurat[spiel]')")
    if adapters:
        out.print(adapters_table([row for row in rows if row is not chess_row], seconds, seed))
        if any(row.observations for row in rows):
            out.print(observations_table(rows))
        for extra, what in (("spiel", "OpenSpiel and observations"), ("rl", "PettingZoo")):
            if extra in missing:
                out.print(f"{what}: unavailable (install the {extra} extra: pip install 'ziggurat[{extra}]')")
    if heuristic:
        out.print(heuristic_table(heuristics, max_plies))
    if json_out is not None:
        report = {
            "seed": seed,
            "seconds": seconds,
            "clock": "process_time",
            "load": list(os.getloadavg()),
            "results": [asdict(row) for row in rows if row is not chess_row],
            "chess": asdict(chess_row) if chess_row is not None else None,
            "heuristic": heuristics,
        }
        json_out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
