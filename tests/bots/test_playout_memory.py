"""Heuristic playouts remember the choices of a bot that declares itself ``repeatable``
(:mod:`ziggurat.bots.playout`): the playouts, and the searches built on them, are the same
as without the memory, decision for decision and draw for draw of the luck."""

from __future__ import annotations

import random

import pytest
from bot_helpers import mid_game

from ziggurat.bots.playout import HeuristicPlayout
from ziggurat.bots.search import Searcher
from ziggurat.bots.spec import parse_ismcts
from ziggurat.engine.contract import CHANCE, State, sample_chance


def _playouts(playout: HeuristicPlayout, world: State, rounds: int, decisions: int) -> list[str]:
    """Every decision (and the luck's next draw after each playout) of ``rounds`` rounds of
    playouts from ``world``: in each round, one playout after each of the first legal actions,
    all with the round's luck, as the candidates of a paired root are played out."""
    out: list[str] = []
    for r in range(rounds):
        for first in world.legal_actions()[:3]:
            state = world.clone()
            state.apply(first)
            luck = random.Random(r)
            playout.start()
            for _ in range(decisions):
                if state.is_terminal():
                    break
                who = state.current_player()
                if who == CHANCE:
                    state.apply(sample_chance(state, luck))
                    continue
                action = playout.choose(state, who, state.legal_actions(), luck)
                out.append(action)
                state.apply(action)
            out.append(str(luck.random()))  # the luck drew the same with and without memory
    return out


@pytest.mark.parametrize(
    ("game_id", "players", "plies"), [("mesopotamia-epochs", 3, 40), ("mesopotamia-epochs", 2, 90)]
)
def test_remembered_choices_are_the_choices(game_id: str, players: int, plies: int) -> None:
    game, world = mid_game(game_id, players, plies)
    remembering = HeuristicPlayout(game)
    plain = HeuristicPlayout(game, memory=0)
    assert _playouts(remembering, world, 4, 30) == _playouts(plain, world, 4, 30)
    assert remembering.remembered > 0  # the rounds met decisions again
    assert plain.remembered == 0


def test_search_is_the_same_with_and_without_memory() -> None:
    """A seeded search with an iteration budget: the same root statistics either way."""
    game, world = mid_game("mesopotamia-epochs", 3, 40)
    seat = world.current_player()
    view = world.view(seat)
    stats = []
    for memory in (True, False):
        searcher = Searcher(game, seat, parse_ismcts("ismcts:40"))
        if not memory:
            searcher.playout = HeuristicPlayout(game, memory=0)
        got = searcher.search(view, 7, 40, None)
        stats.append((got.iterations, got.actions, got.squares, got.pairs, got.prior))
        playout = searcher.playout
        assert isinstance(playout, HeuristicPlayout)
        assert (playout.remembered > 0) == memory  # the search's playouts met decisions again
        assert len(playout) == 0  # and the memory went with the search
    assert stats[0] == stats[1]
