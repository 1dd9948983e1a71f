"""The Mare Nostrum: Empires game object: options, set-up, parsing, positions, invariants."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.engine.contract import Game
from ziggurat.engine.errors import InvalidAction
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.state import NostrumState, sample_state


class MareNostrumGame(Game):
    """Mare Nostrum: Empires for 3 to 5 players; rules spec ``rules/mare_nostrum.md``."""

    game_id = "mare-nostrum"
    name = "Mare Nostrum: Empires"
    min_players = D.PLAYER_RANGE[0]
    max_players = D.PLAYER_RANGE[1]

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.opts = D.resolve_options(players, options)
        super().__init__(players, D.non_default_options(self.opts))
        self.board = D.board(players)

    def seat_names(self) -> list[str]:
        return [f"seat {i}" for i in range(self.num_players)]

    def new_initial_state(self) -> NostrumState:
        from ziggurat.games.mare_nostrum.flow import advance, new_position

        d = new_position(self.num_players, self.opts)
        advance(d)
        state = NostrumState(self, d)
        state.settle()
        return state

    def parse_action(self, text: str) -> str:
        """Actions are lower-case words separated by single spaces (docs/mare-nostrum.md)."""
        words = text.strip().lower().replace(", ", ",").split()
        if not words:
            raise InvalidAction("empty action")
        if words[0] not in _VERBS:
            raise InvalidAction(f"unknown action {text!r}")
        return " ".join(words)

    def state_from_position(self, position: dict[str, Any]) -> NostrumState:
        from ziggurat.games.mare_nostrum.position import load_position

        return load_position(self, position)

    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> NostrumState:
        return sample_state(self, view, seat, rng)

    def redact_record(self, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The record as ``seat`` saw it (section 7): hidden offers, draws and Colossus goods
        of other seats become ``?``."""
        from ziggurat.engine.records import redacted_copy
        from ziggurat.games.mare_nostrum.state import redact_events

        return redacted_copy(record, redact_events(self, list(record["actions"]), seat), seat)

    def undo_barrier(self, state: Any, action: str) -> bool:
        """Savepoints: chance, anything that hands the decision to another seat or to chance
        (which includes ending a turn and committing the last trade offer), a legendary draw
        or tile reveal that follows automatically, and the end of the game."""
        s: NostrumState = state
        if s.current_player() < 0:
            return True
        after = s.clone()
        after.apply(action)
        if after.is_terminal() or after.current_player() != s.current_player():
            return True
        return any(who < 0 for who, _, _, _ in after.log[len(s.log) :])

    def invariants(self, state: Any) -> list[str]:
        from ziggurat.games.mare_nostrum.invariants import check

        return check(state.d)


_VERBS = frozenset(
    {
        "empires",
        "empire",
        "reveal",
        "copy",
        "draw",
        "extra",
        "colossus",
        "token",
        "offer",
        "starter",
        "take",
        "give",
        "first",
        "next",
        "build",
        "buy",
        "free",
        "pay",
        "end",
        "keep",
        "zeus",
        "done",
        "convert",
        "row",
        "seabattle",
        "march",
        "sail",
        "fight",
        "roll",
        "lose",
        "pillage",
        "occupy",
        "pass",
        "circe",
        "winner",
        "title",
    }
)
