"""Registry of games: ``ziggurat.games()`` and ``ziggurat.load()``."""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from ziggurat.engine.contract import Game
from ziggurat.engine.messages import declare_domain

# game id -> "module:Class"; modules are imported lazily so loading one game stays cheap.
_GAMES: dict[str, str] = {
    "mesopotamia": "ziggurat.games.mesopotamia.game:MesopotamiaGame",
    "mesopotamia-epochs": "ziggurat.games.mesopotamia_epochs.game:EpochsGame",
    "mare-nostrum": "ziggurat.games.mare_nostrum.game:MareNostrumGame",
}


class Listing(NamedTuple):
    """What ``ziggurat games`` shows of a game, known without importing its engine."""

    name: str
    min_players: int
    max_players: int


# The same facts as each ``Game`` subclass's ``name``/``min_players``/``max_players`` (a test
# keeps them equal), so listing the games imports none of them.
_LISTINGS: dict[str, Listing] = {
    "mesopotamia": Listing("Mesopotamia", 2, 4),
    "mesopotamia-epochs": Listing("Mesopotamia: Epochs", 2, 5),
    "mare-nostrum": Listing("Mare Nostrum: Empires", 3, 5),
}

declare_domain("game", _GAMES)  # Game.title(): each game's name in every language


def games() -> list[str]:
    """Ids of every registered game, sorted."""
    return sorted(_GAMES)


def listing(game_id: str) -> Listing:
    """Name and player counts of ``game_id`` without importing its engine."""
    if game_id not in _LISTINGS:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(games())}")
    return _LISTINGS[game_id]


def game_class(game_id: str) -> type[Game]:
    """The ``Game`` subclass of ``game_id`` (its metadata and ``hooks`` are class attributes)."""
    if game_id not in _GAMES:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(games())}")
    module_name, _, cls_name = _GAMES[game_id].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), cls_name)
    return cls


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """Create a game with ``players`` seats and options; bad values raise ``ValueError``."""
    cls = game_class(game_id)
    if players is None:
        players = cls.min_players
    if not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise ValueError(
            f"players={players!r}: {game_id} is for {cls.min_players} to {cls.max_players} players"
        )
    return cls(players, options)
