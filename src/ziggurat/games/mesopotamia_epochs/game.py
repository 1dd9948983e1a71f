"""The Mesopotamia: Epochs game object: options, set-up, positions and declared invariants."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.engine.contract import Game
from ziggurat.games.mesopotamia_epochs import data as D
from ziggurat.games.mesopotamia_epochs.notation import Notation
from ziggurat.games.mesopotamia_epochs.state import EpochsState, new_state

_DEFAULT_NOTATION = Notation(D.DEFAULT_MAP, D.DEFAULT_PEOPLES)


class EpochsGame(Game):
    """Mesopotamia: Epochs for 2 to 5 players; rules spec ``rules/mesopotamia_epochs.md``."""

    game_id = "mesopotamia-epochs"
    name = "Mesopotamia: Epochs"
    min_players = D.PLAYER_RANGE[0]
    max_players = D.PLAYER_RANGE[1]

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

    def new_initial_state(self) -> EpochsState:
        from ziggurat.games.mesopotamia_epochs.flow import settle

        state = new_state(self)
        settle(state)
        return state

    def parse_action(self, text: str) -> str:
        return self.notation.canonical(text)

    def state_from_position(self, position: dict[str, Any]) -> EpochsState:
        from ziggurat.games.mesopotamia_epochs.position import load_position

        return load_position(self, position)

    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> EpochsState:
        from ziggurat.games.mesopotamia_epochs.view import sample_state

        return sample_state(self, view, seat, rng)

    def redact_record(self, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The record as ``seat`` saw it: cards dealt or drawn by others become ``?`` (§6)."""
        from ziggurat.engine.records import redacted_copy, replay
        from ziggurat.games.mesopotamia_epochs.view import redact_events

        state = replay(record)
        chosen = [e for e in state.events() if not e[2]]  # type: ignore[attr-defined]
        return redacted_copy(record, redact_events(chosen, seat), None if seat is None else D.SYMBOLS[seat])

    def undo_barrier(self, state: Any, action: str) -> bool:
        """Savepoints: chance, anything that shows a card to someone (a keep or pass, the end
        of a deal or round), anything that hands the decision to another seat or to chance
        (an attack, the end of a round), and the end of the game."""
        s: EpochsState = state
        if s.current_player() < 0:
            return True
        after = s.clone()
        after.apply(action)
        if after.phase == "over" or after.current_player() != s.current_player():
            return True
        if after.known != s.known or after.public != s.public or after.epoch != s.epoch:
            return True
        if after.active != s.active:
            return True
        node = after.log
        while node is not None and node is not s.log:
            node, (who, _, auto, _) = node
            if auto and who < 0:
                return True
        return False

    def invariants(self, state: Any) -> list[str]:
        """Conservation checks (§2, E8.8, E13, E14): tribes, cards, VP, knowledge."""
        from ziggurat.games.mesopotamia_epochs.invariants import check

        return check(state)
