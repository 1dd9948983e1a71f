"""Helpers shared by the CLI commands: consoles, one-line errors, games, players, records.

Every input error a user can make (unknown game, bad player list, missing file, bad option)
ends in :func:`fail`: a single ``ziggurat: error: ...`` line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import typer
from rich.console import Console

import ziggurat
from ziggurat.bots import SPEC_HELP, Bot, check_spec, close_bot, make_bot
from ziggurat.engine.contract import Game
from ziggurat.engine.messages import render
from ziggurat.engine.registry import game_class

HUMAN = "human"
OPTION_HELP = "Game option key=value (the value is read as JSON when it parses, else as text); repeatable."
BOARD_WIDTH = 100
GAME_HELP = "Game id: mesopotamia, mesopotamia-epochs or mare-nostrum (see 'ziggurat games')."
SEAT_ORDER_HELP = (
    "The first seat is Blue in Mesopotamia (then Yellow, Red, Green) and Brooch in Mesopotamia: "
    "Epochs (then Head, Mask, Statue, Urn); in Mare Nostrum: Empires the empires are dealt to the "
    "seats at random, or chosen in seat order with -o empire_assignment=choice."
)
SEAT_HELP = (
    "Seat number counted from 0 (0: the first seat, Blue in Mesopotamia, Brooch in Mesopotamia: "
    "Epochs, in Mare Nostrum: Empires whichever empire that seat was dealt, or chose)."
)


class UsageError(Exception):
    """Bad user input; the message is printed as a one-line error."""


def fail(message: str) -> NoReturn:
    """Print a one-line error on stderr and exit with code 2."""
    typer.echo(f"ziggurat: error: {message}", err=True)
    raise typer.Exit(2)


def console() -> Console:
    """A console for board output: the terminal's width, or 100 columns when piped."""
    con = Console(highlight=False)
    if not con.is_terminal:
        con = Console(highlight=False, width=BOARD_WIDTH)
    return con


def progress_console() -> Console:
    """A console for progress bars: standard error, so that output piped or redirected to a file
    (``ziggurat simulate ... > results.txt``) keeps its bar on the terminal. Rich draws nothing
    where standard error is not a terminal either."""
    return Console(stderr=True, highlight=False)


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``key=value`` pairs; a value is JSON when it parses as JSON, else a plain string."""
    options: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"option {item!r} must look like key=value")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


PLAYERS_HELP = (
    "Bots are named by spec: random, heuristic, or ismcts[:BUDGET][:OPTION=VALUE...] with BUDGET "
    "a time per decision (1s, 0.5s, 250ms) or an iteration count (2000), options workers=N "
    "(processes), c=X, rollout=heuristic|random, plies=N; plain ismcts is ismcts:1s "
    "(see docs/bots.md)."
)


def parse_players(text: str, allow_human: bool) -> list[str]:
    """A comma-separated list of player kinds (bot specs, or ``human``), one per seat."""
    kinds = [k.strip().lower() for k in text.split(",")]
    for kind in kinds:
        if kind == HUMAN:
            if not allow_human:
                raise UsageError(f"no human seat here: choose bots ({SPEC_HELP})")
            continue
        try:
            check_spec(kind)
        except ValueError as exc:
            choices = ("human, " if allow_human else "") + SPEC_HELP
            if kind.split(":", 1)[0] == "ismcts":
                raise UsageError(f"{exc} (in --players)") from exc
            raise UsageError(f"unknown player kind {kind!r} in --players; choose {choices}") from exc
    return kinds


def check_game_id(game_id: str) -> None:
    if game_id not in ziggurat.games():
        raise UsageError(f"unknown game {game_id!r}; known games: {', '.join(ziggurat.games())}")


def load_game(game_id: str, players: int, options: dict[str, Any]) -> Game:
    """Load a game, turning the engine's ``ValueError`` (bad count, bad option) into a usage error."""
    check_game_id(game_id)
    cls = game_class(game_id)
    if not cls.min_players <= players <= cls.max_players:
        raise UsageError(
            f"{game_id} is for {cls.min_players} to {cls.max_players} players; --players names {players}"
        )
    try:
        return ziggurat.load(game_id, players=players, **options)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def make_bots(game: Game, kinds: list[str]) -> list[Bot | None]:
    """A bot per seat (``None`` for a human seat); a bot that cannot be made is a usage error.

    Close them with :func:`close_bots` (ISMCTS bots with workers own processes).
    """
    bots: list[Bot | None] = []
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            bots.append(None)
            continue
        try:
            bots.append(make_bot(kind, game, seat))
        except (ValueError, ImportError, AttributeError) as exc:
            close_bots(bots)
            raise UsageError(f"cannot make a {kind!r} bot for {game.game_id}: {exc}") from exc
    return bots


def close_bots(bots: list[Bot | None] | list[Bot]) -> None:
    """Release what the bots hold (worker processes of ISMCTS bots with ``workers=N``)."""
    for bot in bots:
        if bot is not None:
            close_bot(bot)


def fixed_seat_names(game: Game) -> list[str]:
    """The players' names when a seat keeps its name from game to game (Mesopotamia's colours,
    Epochs' symbols), capitalised; empty for a game whose seats are named in play (Mare
    Nostrum's empires), whose ``seat_names`` are the engine's ``seat 0``, ``seat 1`` ..."""
    if game.seat_names() == [f"seat {s}" for s in range(game.num_players)]:
        return []
    return [render(game.seat_label(s)) for s in range(game.num_players)]


@dataclass
class GameUI:
    """The drawing and describing modules of one game."""

    render_text: ModuleType
    render_svg: ModuleType
    describe: ModuleType


def game_ui(game_id: str) -> GameUI:
    """The game's drawing and describing modules (its ``render_text``, ``render_svg`` and
    ``describe`` hooks); a usage error if it has no terminal board yet."""
    hooks = game_class(game_id).hooks
    missing = [name for name in ("render_text", "render_svg", "describe") if getattr(hooks, name) is None]
    if hooks.render_text is None or hooks.render_svg is None or hooks.describe is None:
        raise UsageError(f"{game_id} has no terminal board yet (no {', '.join(missing)} hook)")
    return GameUI(hooks.render_text.get(), hooks.render_svg.get(), hooks.describe.get())


def read_record(path: Path) -> dict[str, Any]:
    """A game record (``ziggurat-record/1``) from a JSON file."""
    if not path.exists():
        raise UsageError(f"no such file: {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path} is not a JSON file: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != "ziggurat-record/1":
        raise UsageError(f"{path} is not a Ziggurat game record (format ziggurat-record/1)")
    for key in ("game", "num_players", "actions"):
        if key not in data:
            raise UsageError(f"{path}: record has no {key!r}")
    return data


def record_game(rec: dict[str, Any]) -> Game:
    try:
        return load_game(rec["game"], int(rec["num_players"]), dict(rec.get("options") or {}))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"record cannot be loaded: {exc}") from exc


def check_seat(game: Game, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < game.num_players:
        raise UsageError(f"--seat {seat}: this game has seats 0 to {game.num_players - 1}")


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def handle_usage_errors(func: Any) -> Any:
    """Decorator for commands: a :class:`UsageError` becomes a one-line error and exit code 2."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except UsageError as exc:
            fail(str(exc))

    return wrapper
