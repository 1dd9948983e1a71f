"""The search's shortcuts for the Mesopotamia heuristic give exactly what the plain bot gives
(bots.Decisions, bots_model.WorldView, bots_eval.Ctx's shared values): a board read from a
sampled world's state equals the one read from its position, remembered decisions are the
decisions (ties drawn from the rng as before), and a search plays the same with and without
them."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from meso_helpers import heuristic_decisions

import ziggurat
from ziggurat.bots.playout import HeuristicPlayout
from ziggurat.bots.search import Searcher
from ziggurat.bots.spec import parse_ismcts
from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.games.mesopotamia import bots_model
from ziggurat.games.mesopotamia.bots import Decisions, HeuristicBot
from ziggurat.games.mesopotamia.bots_model import Board, WorldView
from ziggurat.games.mesopotamia.evaluate import Evaluator, make_playout_bots


def _fields(b: Board) -> dict[str, Any]:
    # its __slots__ in plain Python; a compiled class lists its fields in __mypyc_attrs__
    names = getattr(Board, "__slots__", None) or getattr(Board, "__mypyc_attrs__")  # noqa: B009
    out = {k: getattr(b, k) for k in names}
    out["pending"] = bots_model._frozen(out["pending"])
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8), (4, 5)])
def test_board_of_a_world_equals_the_board_of_its_position(players: int, seed: int) -> None:
    checked = 0
    for ply, state, _, _ in heuristic_decisions(players, seed, 500):
        if ply % 3:
            continue
        pos = state.to_position()
        for seat in range(players):
            assert _fields(Board(WorldView(state), seat)) == _fields(Board(pos, seat))
            at_end = dict(pos, mp=0)
            assert _fields(Board(WorldView(state, mp=0), seat)) == _fields(Board(at_end, seat))
            checked += 1
    assert checked > 100


def test_a_world_view_gives_other_readers_the_position() -> None:
    for _, state, who, _ in heuristic_decisions(3, 2, 40):
        view = WorldView(state)
        assert view["tiles"] == state.to_position()["tiles"]
        assert dict(view) == state.to_position()
        with pytest.raises(KeyError):
            view["no such entry"]
        assert who >= 0


def _playouts(game: Any, world: State, rounds: int, decisions: int, remember: bool) -> list[str]:
    """Every choice of ``rounds`` rounds of heuristic playouts from ``world`` (one after each
    of the first legal actions, with the round's luck, as a paired root plays them), and the
    luck's next draw after each playout."""
    make = make_playout_bots(game)
    out: list[str] = []
    for r in range(rounds):
        for first in world.legal_actions()[:4]:
            state = world.clone()
            state.apply(first)
            luck = random.Random(r)
            bots: dict[int, HeuristicBot] = {}
            for _ in range(decisions):
                if state.is_terminal():
                    break
                who = state.current_player()
                if who == CHANCE:
                    state.apply(sample_chance(state, luck))
                    continue
                bot = bots.get(who)
                if bot is None:
                    bot = bots[who] = make(who) if remember else HeuristicBot(game, who)
                view = WorldView(state) if remember else state.view(who)
                action = bot.choose(view, state.legal_actions(), luck)
                out.append(action)
                state.apply(action)
            out.append(str(luck.random()))
    return out


@pytest.mark.parametrize(("players", "plies"), [(2, 60), (3, 90), (4, 40)])
def test_remembered_decisions_are_the_decisions(players: int, plies: int) -> None:
    game = ziggurat.load("mesopotamia", players=players)
    world = None
    for ply, state, _, legal in heuristic_decisions(players, 11, plies + 1):
        if ply >= plies and len(legal) > 1:
            world = state.clone()
    assert world is not None
    assert _playouts(game, world, 4, 40, True) == _playouts(game, world, 4, 40, False)


def test_decisions_are_remembered_and_ties_drawn_each_time() -> None:
    """The second playout of a world meets its decisions in memory; a remembered tie is
    broken by the rng as the first time (the luck draws the same)."""
    game = ziggurat.load("mesopotamia", players=3)
    memory = Decisions()
    world = None
    for ply, state, _, legal in heuristic_decisions(3, 4, 61):
        if ply >= 60 and len(legal) > 1:
            world = state.clone()
    assert world is not None
    seat = world.current_player()
    bot = HeuristicBot(game, seat, decisions=memory)
    first = bot.choose(WorldView(world), world.legal_actions(), random.Random(1))
    assert len(memory) == 1 and memory.found == 0
    again = HeuristicBot(game, seat, decisions=memory)
    assert again.choose(WorldView(world), world.legal_actions(), random.Random(1)) == first
    assert memory.found == 1
    plain = HeuristicBot(game, seat)
    assert plain.choose(world.view(seat), world.legal_actions(), random.Random(1)) == first


def test_evaluator_points_equal_fresh_ones_M16_1() -> None:
    """The evaluator's points kept per board equal a fresh evaluator's, seat by seat."""
    kept = Evaluator()
    checked = 0
    for ply, state, _, _ in heuristic_decisions(3, 6, 400):
        if ply % 5 == 0:
            assert kept(state) == Evaluator()(state)
            assert kept.points(state) == Evaluator().points(state)
            checked += 1
    assert checked > 50


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_is_the_same_without_the_shortcuts(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded search with an iteration budget: the same root statistics when the playouts
    read positions and nothing is remembered between decisions."""
    game = ziggurat.load("mesopotamia", players=players)
    world = None
    for ply, state, _, legal in heuristic_decisions(players, 9, 80):
        if len(legal) > 1 and ply > 50:
            world = state.clone()
    assert world is not None
    seat = world.current_player()
    view = world.view(seat)
    stats = []
    for shortcuts in (True, False):
        if not shortcuts:  # the playouts' bots read views, each its own, remembering nothing
            plain = dataclasses.replace(game.hooks, rollout_view=None, make_playout_bots=None)
            monkeypatch.setattr(game, "hooks", plain)
        searcher = Searcher(game, seat, parse_ismcts("ismcts:24"))
        assert isinstance(searcher.playout, HeuristicPlayout)
        got = searcher.search(view, 5, 24, None)
        stats.append((got.iterations, got.actions, got.squares, got.pairs, got.prior))
    assert stats[0] == stats[1]
