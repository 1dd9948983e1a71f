"""``ziggurat games``: the registered games with their names and player counts."""

from __future__ import annotations

from rich.table import Table

import ziggurat
from ziggurat.cli.common import console
from ziggurat.engine.registry import listing


def games() -> None:
    """List the games Ziggurat can play: id, name and player counts."""
    table = Table(title="Ziggurat games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players", justify="right")
    for game_id in ziggurat.games():
        info = listing(game_id)
        count = (
            f"{info.min_players}"
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players}"
        )
        table.add_row(game_id, info.name, count)
    console().print(table)
