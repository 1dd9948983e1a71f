"""The registry: the listing ``ziggurat games`` shows is each game's own metadata."""

from __future__ import annotations

import subprocess
import sys

import pytest

import ziggurat
from ziggurat.engine.registry import game_class, listing


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_the_listing_is_the_game_class_metadata(game_id: str) -> None:
    cls = game_class(game_id)
    assert listing(game_id) == (cls.name, cls.min_players, cls.max_players)


def test_an_unknown_game_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: mare-nostrum"):
        listing("chess")


def test_listing_the_games_imports_no_engine() -> None:
    code = (
        "import sys\n"
        "from ziggurat.engine.registry import games, listing\n"
        "[listing(g) for g in games()]\n"
        "print(sorted(m for m in sys.modules if m.startswith('ziggurat.games')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
