"""Fairness: ISMCTS decides from the view, never from the true state (docs/architecture.md).

For each game, two true states share the searching seat's view but differ in what other
seats hide (offering values and hands in Mesopotamia, cards in Epochs, resource tokens in Mare
Nostrum). With the same view, legal list, seed and iteration budget, the bot's choice and its
whole root statistics are the same in both.
"""

from __future__ import annotations

import random

import pytest
from bot_helpers import GAMES, mid_game

from ziggurat.bots import make_bot
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.engine.contract import Game, State


def _other_secrets(game: Game, state: State, seat: int) -> State:
    """A second true state with ``seat``'s view but other hidden information."""
    view = state.view(seat)
    for k in range(50):
        other = game.sample_state(view, seat, random.Random(1000 + k))
        if other.fingerprint() != state.fingerprint():
            return other
    raise AssertionError("every sample equals the true state: nothing is hidden here")


# 2-player Epochs too: its search follows the successor policy for its own seat (own=)
@pytest.mark.parametrize(("game_id", "players"), [*GAMES, ("mesopotamia-epochs", 2)])
@pytest.mark.slow
def test_decision_ignores_other_seats_secrets(game_id: str, players: int) -> None:
    game, truth = mid_game(game_id, players, 60, seed=4)
    seat = truth.current_player()
    twin = _other_secrets(game, truth, seat)
    assert twin.view(seat) == truth.view(seat)
    assert list(twin.legal_actions()) == list(truth.legal_actions())
    # the hidden information really differs: another seat sees something else
    assert any(twin.view(s) != truth.view(s) for s in range(players) if s != seat)
    choices, roots = [], []
    for state in (truth, twin):
        bot = make_bot("ismcts:40:plies=1", game, seat)
        assert isinstance(bot, ISMCTSBot)
        choices.append(bot.choose(state.view(seat), state.legal_actions(), random.Random(11)))
        # the whole budget, or less when racing leaves only the prior (docs/bots.md)
        assert bot.last_stats is not None and 0 < bot.last_stats.iterations <= 40
        roots.append(bot.last_stats.root)
    assert choices[0] == choices[1]
    assert roots[0] == roots[1]
    assert roots[0]  # it searched
