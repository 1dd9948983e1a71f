"""The ``ziggurat`` console script: one Typer app, one module per command."""

from __future__ import annotations

import typer

from ziggurat.cli.bench import bench
from ziggurat.cli.bench_server import bench_server
from ziggurat.cli.games import games
from ziggurat.cli.play import play
from ziggurat.cli.render import render
from ziggurat.cli.replay import replay
from ziggurat.cli.serve import serve
from ziggurat.cli.simulate import simulate
from ziggurat.cli.tournament import tournament

app = typer.Typer(
    name="ziggurat",
    help="Three ancient-world board games played by their full rules, Mesopotamia, Mesopotamia: Epochs and "
    "Mare Nostrum: Empires: serve (play in the browser), play, simulate, tournament, replay, render.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("serve")(serve)
app.command("games")(games)
app.command("play")(play)
app.command("simulate")(simulate)
app.command("tournament")(tournament)
app.command("replay")(replay)
app.command("render")(render)
app.command("bench")(bench)
app.command("bench-server")(bench_server)


if __name__ == "__main__":  # pragma: no cover
    app()
