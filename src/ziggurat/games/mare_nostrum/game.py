"""The Mare Nostrum: Empires game object: options, set-up, parsing, positions, invariants."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.engine.contract import Game
from ziggurat.engine.errors import InvalidAction
from ziggurat.engine.eventlog import events_since
from ziggurat.engine.hooks import GameHooks, Lazy
from ziggurat.engine.messages import message
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.state import NostrumState, sample_state

_PKG = "ziggurat.games.mare_nostrum"  # where the hooks below live (imported on first use)


class MareNostrumGame(Game):
    """Mare Nostrum: Empires for 3 to 5 players; rules spec ``docs/rules/mare-nostrum.md``."""

    game_id = "mare-nostrum"
    name = "Mare Nostrum: Empires"
    min_players = D.PLAYER_RANGE[0]
    max_players = D.PLAYER_RANGE[1]
    constant_sum = False
    # ~500 decisions for 5 heuristic bots, up to ~1,800 in random play. At the cap the game
    # ends with no winner (all 0.0), like the engine's ``max_rounds`` stop.
    max_game_length = 5_000
    hooks = GameHooks(
        heuristic_bot=Lazy(f"{_PKG}.bots:HeuristicBot"),
        plans=Lazy(f"{_PKG}.bots:PLANS"),
        evaluate=Lazy(f"{_PKG}.evaluate:evaluate"),
        phase_of=Lazy(f"{_PKG}.evaluate:phase_of"),
        rollout_view=Lazy(f"{_PKG}.evaluate:rollout_view"),
        search_defaults=Lazy(f"{_PKG}.evaluate:SEARCH_DEFAULTS"),
        redact_events=Lazy(f"{_PKG}.view:redact_events"),
        describe_step=Lazy(f"{_PKG}.describe:describe_step"),
        result_facets=Lazy(f"{_PKG}.describe:result_facets"),
        outcome=Lazy(f"{_PKG}.outcome:outcome"),
        describe=Lazy(f"{_PKG}.describe"),
        render_text=Lazy(f"{_PKG}.render_text"),
        render_svg=Lazy(f"{_PKG}.render_svg"),
        board_data=Lazy(f"{_PKG}.client:board_data"),
        option_defaults=Lazy(f"{_PKG}.data:OPTION_DEFAULTS"),
        option_specs=Lazy(f"{_PKG}.data:OPTION_SPECS"),
        codec=Lazy("ziggurat.interop.codecs.mare_nostrum:MareNostrumCodec"),
        observer=Lazy("ziggurat.interop.observers.mare_nostrum:MareNostrumEncoder"),
        flags_from_state=Lazy(f"{_PKG}.view:FLAGS_FROM_STATE"),
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.opts = D.resolve_options(players, options)
        super().__init__(players, D.options_to_record(self.opts))
        self.board = D.board(players)

    @classmethod
    def recorded_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Options stored before the readings of the rules text became the defaults (R25,
        R28, N6) load with the readings then in force (``data.EARLIER_DEFAULTS``)."""
        return D.recorded_options(options)

    def seat_names(self) -> list[str]:
        return [f"seat {i}" for i in range(self.num_players)]

    def seat_label(self, seat: int) -> str:
        """``Seat 1`` (counted from 1, as the log and the browser name a seat before the empires
        are dealt)."""
        return message("mn.whoSeat", n=seat + 1)

    def new_initial_state(self) -> NostrumState:
        from ziggurat.games.mare_nostrum.flow import advance, new_position

        d = new_position(self.num_players, self.opts)
        advance(d)
        state = NostrumState(self, d)
        state._settle()
        return state

    def parse_action(self, text: str) -> str:
        """Actions are lower-case words separated by single spaces (docs/mare-nostrum.md)."""
        words = text.strip().lower().replace(", ", ",").split()
        if not words:
            raise InvalidAction(message("engine.emptyAction"))
        if words[0] not in _VERBS:
            raise InvalidAction(message("mn.refusal.unknownAction", text=repr(text)))
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

    def undo_barrier(self, state: Any, action: str, after: Any = None) -> bool:
        """Savepoints: chance, anything that hands the decision to another seat or to chance
        (which includes ending a turn and committing the last trade offer), a legendary draw
        or tile reveal that follows automatically, and the end of the game."""
        s: NostrumState = state
        if s.current_player() < 0:
            return True
        if after is None:
            after = s.clone()
            after.apply(action)
        if after.is_terminal() or after.current_player() != s.current_player():
            return True
        return any(who < 0 for who, _, _, _ in events_since(after, s.log))

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
