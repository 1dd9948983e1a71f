"""The ``ziggurat`` console script: one Typer app, one module per command.

Each command's module is imported only when that command runs (or its ``--help`` is asked):
the server, the bots and the arena take a second or more to import, and ``ziggurat --help``
or ``ziggurat games`` need none of them. The top-level help lists the commands from
:data:`COMMANDS` (each one's summary, the first paragraph of its docstring: a test checks
that they agree), so it imports no command module either.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": (
        "ziggurat.cli.serve:serve",
        "Run the game server and print the address to open in a browser (and, bound to 0.0.0.0, "
        "the address friends on your network open).",
    ),
    "games": ("ziggurat.cli.games:games", "List the games Ziggurat can play: id, name and player counts."),
    "play": ("ziggurat.cli.play:play", "Play a game in the terminal against bots."),
    "simulate": (
        "ziggurat.cli.simulate:simulate",
        "Play many seeded bot games and print wins per seat with 95% confidence intervals.",
    ),
    "tournament": (
        "ziggurat.cli.tournament:tournament",
        "Play a seeded bot tournament with seat rotation; print win rates, places and ratings; save plots.",
    ),
    "replay": (
        "ziggurat.cli.replay:replay",
        "Step through a game record: Enter = next ply, b = back, a number = go to that ply, q = quit.",
    ),
    "render": ("ziggurat.cli.render:render", "Draw the board at one ply of a record as an SVG picture."),
    "bench": (
        "ziggurat.cli.bench:bench",
        "Measure a game's speed: decisions, apply, legal_actions and clones per second in seeded "
        "random play, beside OpenSpiel's chess.",
    ),
    "bench-server": (
        "ziggurat.cli.bench_server:bench_server",
        "Measure the server end to end: real `ziggurat serve` processes on one database, tables played "
        "by scripted WebSocket clients; prints actions per second, latencies (player, spectator and the "
        "servers' own), CPU per process, event-loop stalls and tables finished. Figures only: nothing is "
        "asserted on them.",
    ),
}
"""Command name -> ("module:function", the summary the top-level help shows)."""

MARKUP: Final = "markdown"


def _flags_show_no_type() -> None:
    """Leave the type column of a flag's help empty: Typer 0.29 writes ``--help <bool>`` and
    ``--chess/--no-chess <bool>`` as if a flag took a value, and none does (a value given to
    one is refused). Options that take a value keep their type (``<int>``, ``<str>``)."""
    shown = getattr(TyperOption, "display_type_rich", None)  # a Typer without it writes no type
    if shown is None or getattr(shown, "flags_show_no_type", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    display_type_rich.flags_show_no_type = True  # type: ignore[attr-defined]
    setattr(TyperOption, "display_type_rich", display_type_rich)  # noqa: B010


_flags_show_no_type()


def load_command(name: str) -> Any:
    """The click command of ``name``, built by Typer from its function (imported now)."""
    module_name, _, attribute = COMMANDS[name][0].partition(":")
    function = getattr(importlib.import_module(module_name), attribute)
    one = typer.Typer(rich_markup_mode=MARKUP, add_completion=False, pretty_exceptions_enable=False)
    one.command(name)(function)
    return typer.main.get_command(one)


class LazyGroup(TyperGroup):
    """The commands of :data:`COMMANDS`, each imported on first use.

    While the group's own help is written, a command is a stand-in holding its summary only.
    """

    listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self.listing:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1])
        command = self.commands.get(cmd_name)
        if command is None:
            command = self.commands[cmd_name] = load_command(cmd_name)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


app = typer.Typer(
    name="ziggurat",
    cls=LazyGroup,
    help="Three ancient-world board games played by their full rules, Mesopotamia, Mesopotamia: Epochs and "
    "Mare Nostrum: Empires: serve (play in the browser), play, simulate, tournament, replay, render.",
    no_args_is_help=True,
    rich_markup_mode=MARKUP,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def main() -> None:
    """The commands are listed by :class:`LazyGroup`; the app's help is its ``help``."""


if __name__ == "__main__":  # pragma: no cover
    app()
