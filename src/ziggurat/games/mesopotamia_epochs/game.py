"""The Mesopotamia: Epochs game object: options, set-up, positions and declared invariants."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.engine.contract import Game
from ziggurat.engine.eventlog import events_since
from ziggurat.engine.hooks import GameHooks, Lazy
from ziggurat.games.mesopotamia_epochs import data as D
from ziggurat.games.mesopotamia_epochs.notation import Notation
from ziggurat.games.mesopotamia_epochs.state import EpochsState, new_state

_DEFAULT_NOTATION = Notation(D.DEFAULT_MAP, D.DEFAULT_PEOPLES)


_PKG = "ziggurat.games.mesopotamia_epochs"  # where the hooks below live (imported on first use)


class EpochsGame(Game):
    """Mesopotamia: Epochs for 2 to 5 players; rules spec ``docs/rules/mesopotamia-epochs.md``."""

    game_id = "mesopotamia-epochs"
    name = "Mesopotamia: Epochs"
    min_players = D.PLAYER_RANGE[0]
    max_players = D.PLAYER_RANGE[1]
    # Every end pays 1.0 in all: a shared victory splits it (E15.2).
    constant_sum = True
    # Five Epochs bound the game: ~230 decisions for 5 heuristic bots, ~215 at most in random
    # play. The cap is a safety net; were it reached, the 1.0 is shared by all seats.
    max_game_length = 2_000
    hooks = GameHooks(
        outcome=Lazy(f"{_PKG}.outcome:outcome"),
        heuristic_bot=Lazy(f"{_PKG}.bots:HeuristicBot"),
        policies=Lazy(f"{_PKG}.bots:POLICIES"),
        evaluate=Lazy(f"{_PKG}.evaluate:evaluate"),
        final=Lazy(f"{_PKG}.evaluate:final"),
        chance_key=Lazy(f"{_PKG}.evaluate:chance_key"),
        phase_of=Lazy(f"{_PKG}.evaluate:phase_of"),
        rollout_view=Lazy(f"{_PKG}.evaluate:rollout_view"),
        search_defaults=Lazy(f"{_PKG}.evaluate:SEARCH_DEFAULTS"),
        search_defaults_by_players=Lazy(f"{_PKG}.evaluate:SEARCH_DEFAULTS_BY_PLAYERS"),
        redact_events=Lazy(f"{_PKG}.view:redact_events"),
        describe_step=Lazy(f"{_PKG}.describe:describe_step"),
        describe=Lazy(f"{_PKG}.describe"),
        render_text=Lazy(f"{_PKG}.render_text"),
        render_svg=Lazy(f"{_PKG}.render_svg"),
        option_defaults=Lazy(f"{_PKG}.data:OPTION_DEFAULTS"),
        option_specs=Lazy(f"{_PKG}.data:OPTION_SPECS"),
        option_rules=Lazy(f"{_PKG}.data:OPTION_RULES"),
        codec=Lazy("ziggurat.interop.codecs.epochs:EpochsCodec"),
        observer=Lazy("ziggurat.interop.observers.epochs:EpochsEncoder"),
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.opts = D.resolve_options(players, options)
        super().__init__(players, D.non_default_options(self.opts))
        self.rules = D.Rules(players, self.opts)
        if self.rules.map is D.DEFAULT_MAP and self.rules.peoples is D.DEFAULT_PEOPLES:
            self.notation = _DEFAULT_NOTATION  # shared: its parse cache serves every game
        else:
            self.notation = Notation(self.rules.map, self.rules.peoples)

    def seat_names(self) -> list[str]:
        """The players' symbols (§2.3, R45: cosmetic, given in seat order)."""
        return D.SYMBOLS[: self.num_players]

    def seat_label(self, seat: int) -> str:
        from ziggurat.engine.messages import noun

        return noun("epochs.symbol", D.SYMBOLS[seat])

    def new_initial_state(self) -> EpochsState:
        state = new_state(self)
        state._settle()
        return state

    def parse_action(self, text: str) -> str:
        return self.notation.canonical(text)

    def state_from_position(self, position: dict[str, Any]) -> EpochsState:
        from ziggurat.games.mesopotamia_epochs.position import load_position

        return load_position(self, position)

    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> EpochsState:
        from ziggurat.games.mesopotamia_epochs.view import sample_state

        return sample_state(self, view, seat, rng)

    def undo_barrier(self, state: Any, action: str, after: Any = None) -> bool:
        """Savepoints: chance, anything that shows a card to someone (a keep or pass, the end
        of a deal or round), anything that hands the decision to another seat or to chance
        (an attack, the end of a round), and the end of the game."""
        s: EpochsState = state
        if s.current_player() < 0:
            return True
        if after is None:
            after = s.clone()
            after.apply(action)
        if after.phase == "over" or after.current_player() != s.current_player():
            return True
        if after.known != s.known or after.public != s.public or after.epoch != s.epoch:
            return True
        if after.active != s.active:
            return True
        return any(e.auto and e.actor < 0 for e in events_since(after, s.log))

    def invariants(self, state: Any) -> list[str]:
        """Conservation checks (§2, E8.8, E13, E14): tribes, cards, VP, knowledge."""
        from ziggurat.games.mesopotamia_epochs.invariants import check

        return check(state)
