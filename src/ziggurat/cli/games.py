"""``ziggurat games``: the registered games with their names and player counts."""

from __future__ import annotations

from rich.table import Table

import ziggurat
from ziggurat.cli.common import console
from ziggurat.engine.registry import game_class


def games() -> None:
    """List the games Ziggurat can play: id, name and player counts."""
    table = Table(title="Ziggurat games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players", justify="right")
    for game_id in ziggurat.games():
        cls = game_class(game_id)
        count = (
            f"{cls.min_players}"
            if cls.min_players == cls.max_players
            else f"{cls.min_players}-{cls.max_players}"
        )
        table.add_row(game_id, cls.name, count)
    console().print(table)
