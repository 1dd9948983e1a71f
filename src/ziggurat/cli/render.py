"""``ziggurat render``: draw one ply of a game record (or a position file) as SVG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

import ziggurat
from ziggurat.cli.common import (
    SEAT_HELP,
    UsageError,
    check_seat,
    game_ui,
    handle_usage_errors,
    load_game,
    read_record,
    record_game,
)
from ziggurat.cli.play import LANG_HELP, check_lang
from ziggurat.engine.contract import State


def _position_state(path: Path) -> State | None:
    """A state from a position file (``ziggurat-position/<game>/1``), or None if not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    fmt = data.get("format", "") if isinstance(data, dict) else ""
    if not isinstance(fmt, str) or not fmt.startswith("ziggurat-position/"):
        return None
    game_id = fmt.split("/")[1]
    game = load_game(game_id, int(data.get("num_players", 0)), {})
    try:
        return game.state_from_position(data)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from exc


@handle_usage_errors
def render(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON) or a position file.")],
    out: Annotated[Path, typer.Option("--out", "-O", help="SVG file to write, e.g. board.svg.")],
    ply: Annotated[
        int | None, typer.Option("--ply", help="Draw the position after this many plies (default: the last).")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Draw what this seat sees (default: a spectator's view). " + SEAT_HELP),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
) -> None:
    """Draw the board at one ply of a record as an SVG picture.

    The picture is drawn from a view: the seat's with --seat N (its own secrets shown: offering
    values and cards in Mesopotamia, cards in Mesopotamia: Epochs, the screen in Mare Nostrum:
    Empires), otherwise a spectator's, so no hidden value appears that the viewer may not see.

        ziggurat render runs/game-00001.json --ply 120 --seat 0 --out board.svg
    """
    if not file.exists():
        raise UsageError(f"no such file: {file}")
    state = _position_state(file)
    roles: list[str] | None = None
    if state is None:
        rec = read_record(file)
        record_game(rec)  # a clear error for a record of an unknown game or bad options
        roles = [str(p) for p in rec.get("players") or []]
        plies = len(rec["actions"])
        if ply is not None and not 0 <= ply <= plies:
            raise UsageError(f"--ply {ply}: the record has plies 0 to {plies}")
        try:
            state = ziggurat.replay(rec, upto=ply)
        except ValueError as exc:
            raise UsageError(f"record cannot be replayed: {exc}") from exc
    elif ply is not None:
        raise UsageError("--ply applies to records, not to position files")
    check_seat(state.game, seat)
    svg = game_ui(state.game.game_id).render_svg.render_svg(state.view(seat), roles, lang=check_lang(lang))
    try:
        out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc}") from exc
    typer.echo(f"wrote {out}")
