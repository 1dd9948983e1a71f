"""Mare Nostrum: Empires (game id ``mare-nostrum``); rules spec ``docs/rules/mare-nostrum.md``."""

from ziggurat.games.mare_nostrum.game import MareNostrumGame

__all__ = ["MareNostrumGame"]
