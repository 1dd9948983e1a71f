"""``ziggurat bench``: speed figures of a game's hot paths. Prints numbers, never asserts on them."""

from __future__ import annotations

import random
import time
from typing import Annotated

import typer
from rich.table import Table

from ziggurat.bots import make_bot, play_game
from ziggurat.cli.common import GAME_HELP, OPTION_HELP, console, handle_usage_errors, load_game, parse_options
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance


def random_decisions(game: Game, seconds: float, seed: int) -> tuple[int, float, int]:
    """Seeded random play (``legal_actions`` + ``apply``, chance included) for about ``seconds``.

    Returns (decisions, elapsed seconds, games started).
    """
    rng = random.Random(seed)
    decisions = 0
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    state = game.new_initial_state()
    games += 1
    while True:
        for _ in range(256):  # check the clock every few hundred decisions only
            if state.is_terminal():
                state = game.new_initial_state()
                games += 1
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
            decisions += 1
        if time.perf_counter() >= deadline:
            return decisions, time.perf_counter() - start, games


def mid_game_state(game: Game, seed: int, plies: int = 400) -> State:
    """A position some way into a seeded random game, for cloning."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return state


def clones(state: State, seconds: float) -> tuple[int, float]:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(500):
            state.clone()
        count += 500
    return count, time.perf_counter() - start


@handle_usage_errors
def bench(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    seconds: Annotated[
        float, typer.Option("--seconds", "-t", min=0.0, help="Time budget of each timed measurement.")
    ] = 3.0,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed of the random play and of the heuristic game.")
    ] = 1,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="Ply cap of the heuristic game.")
    ] = 100_000,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Measure a game's speed: random play, clones, one heuristic game.

    Prints decisions per second in seeded random play (legal_actions + apply, chance
    included), clones per second of a mid-game position, and the time of one full seeded game
    with heuristic bots in every seat. Figures only: nothing is asserted on timing.
    """
    game = load_game(game_id, players, parse_options(option))
    table = Table(title=f"{game.name} benchmark, {players} players, seed {seed}")
    table.add_column("measure")
    table.add_column("result", justify="right")
    table.add_column("detail")
    decisions, elapsed, games = random_decisions(game, seconds, seed)
    table.add_row("random play", f"{decisions / elapsed:,.0f} decisions/s",
                  f"{decisions:,} decisions in {elapsed:.2f} s, {games} game(s) started")  # fmt: skip
    state = mid_game_state(game, seed)
    count, elapsed = clones(state, seconds)
    table.add_row("clone", f"{count / elapsed:,.0f} clones/s", f"at ply {len(state.history())}")
    try:
        bots = [make_bot("heuristic", game, s) for s in range(players)]
    except (ValueError, ImportError, AttributeError) as exc:
        table.add_row("heuristic game", "unavailable", str(exc))
    else:
        start = time.perf_counter()
        result = play_game(game, bots, seed, max_plies=max_plies)
        elapsed = time.perf_counter() - start
        status = "finished" if not result.truncated else f"stopped at --max-plies {max_plies}"
        table.add_row("heuristic game", f"{elapsed:.2f} s", f"{result.plies:,} plies, {status}, "
                      f"{result.plies / max(elapsed, 1e-9):,.0f} plies/s")  # fmt: skip
    console().print(table)
