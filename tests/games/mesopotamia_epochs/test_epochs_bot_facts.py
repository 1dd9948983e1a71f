"""The heuristic bot's cheaper paths for search decide exactly as the plain ones (§6, D1-D4).

Search playouts hand the bot a :class:`~ziggurat.games.mesopotamia_epochs.bots_view.PlayoutView`
(the view's facts in index form, read straight from the sampled world), the bot makes a
placement's Picture from the previous one (``Picture.after_placements``), the evaluator makes
each seat's Picture from the first (``Picture.for_seat``), a card's worth is remembered per
board, and ``sample_state`` copies only what it fills in. Each is checked here against the
plain computation at the positions of seeded games.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from epochs_helpers import GAME

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia_epochs import bots_cards, evaluate
from ziggurat.games.mesopotamia_epochs.bots import HeuristicBot, SuccessorBot
from ziggurat.games.mesopotamia_epochs.bots_model import HEURISTIC, SUCCESSOR, Judgement, Picture
from ziggurat.games.mesopotamia_epochs.bots_view import (
    PlayoutView,
    facts_of_state,
    facts_of_view,
    remembered,
    rules_id,
    view_of_facts,
)
from ziggurat.games.mesopotamia_epochs.view import bot_view


def _game_states(players: int, seed: int, **options: Any) -> list[Any]:
    """Clones of every decision of a seeded game of heuristic bots, and the finished game."""
    game = ziggurat.load(GAME, players=players, **options)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        out.append(state.clone())
        state.apply(bots[seat].choose(state.view(seat), list(state.legal_actions()), rng))
    out.append(state)
    return out


def _answers(pic: Picture) -> dict[str, Any]:
    """What a Picture says of its position: its fields and every answer of its threat model."""
    size, areas = pic.peoples.size, pic.map.size
    on_map = [p for p in range(size) if pic.held[p] or p == pic.active]
    return {
        "fields": (pic.seat, pic.occ, pic.cnt, pic.held, pic.scores, pic.owner, pic.active, pic.order),
        "round": (pic.pool, pic.sea_round, pic.coast_held, pic.pending, pic.later, pic.future),
        "side": (pic.weights, pic.entries, pic.attackers),
        "threat": [pic.threat(a, p) for a in range(areas) for p in on_map],
        "hold": [pic.hold_value(p, a, t) for a in range(areas) for p in on_map for t in (1, 2, 3)],
        "denial": [pic.denial(a) for a in range(areas)],
    }


@pytest.mark.parametrize(
    ("players", "seed", "options"), [(2, 11, {}), (3, 12, {}), (5, 13, {"card_reveal": "after_allocation"})]
)
def test_facts_are_the_views_fields_section6(players: int, seed: int, options: dict[str, Any]) -> None:
    """§6: the facts read from the state are those of the seat's view, for every seat, and of
    the full position for ``None``; a playout view is the view's fields, pickles and unpickles
    to an equal view."""
    for state in _game_states(players, seed, **options)[::4]:
        rules = state.game.rules
        for seat in range(players):
            view = state.view(seat)
            facts = facts_of_state(state, seat)
            assert facts == facts_of_view(rules, view)
            assert view_of_facts(rules, facts) == bot_view(state, seat)
            shown = PlayoutView.of(state, seat)
            assert shown.facts == facts
            assert dict(shown) == bot_view(state, seat)
            assert pickle.loads(pickle.dumps(shown)) == shown
        assert facts_of_state(state, None) == facts_of_view(rules, state.to_position())


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (3, 22), (4, 23), (5, 24)])
def test_a_picture_is_the_same_from_the_facts_or_the_view(players: int, seed: int) -> None:
    for state in _game_states(players, seed)[::6]:
        for seat in range(players):
            for judgement in (HEURISTIC, SUCCESSOR):
                from_view = Picture(state.game, state.view(seat), seat, judgement)
                from_facts = Picture(state.game, facts_of_state(state, seat), seat, judgement)
                assert _answers(from_view) == _answers(from_facts)


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (5, 33)])
def test_each_seats_side_of_the_full_position_is_a_fresh_picture(players: int, seed: int) -> None:
    """The evaluator's Pictures (``Picture.for_seat``) answer as Pictures made for that seat."""
    for state in _game_states(players, seed)[::5]:
        facts = facts_of_state(state, None)
        first = Picture(state.game, facts, 0)
        for seat in range(players):
            assert _answers(first.for_seat(seat)) == _answers(Picture(state.game, facts, seat))


def _playout_pictures(players: int, seed: int, judgement: Judgement) -> tuple[int, int]:
    """Play a seeded game with the bot reading playout views; at every decision, the Picture
    made from the seat's previous one (when it can be) answers as a fresh one. Returns how
    many were made so, and how many times the previous one could not be used."""
    game = ziggurat.load(GAME, players=players)
    bots = [HeuristicBot(game, seat) for seat in range(players)]
    last: dict[int, Picture] = {}
    rng = random.Random(seed)
    state = game.new_initial_state()
    derived = refused = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        facts = facts_of_state(state, seat)
        fresh = Picture(game, facts, seat, judgement)
        previous = last.get(seat)
        if previous is not None:
            made = previous.after_placements(facts)
            if made is None:
                refused += 1
            else:
                derived += 1
                assert _answers(made) == _answers(fresh)
        last[seat] = fresh
        state.apply(bots[seat].choose(PlayoutView.of(state, seat), list(state.legal_actions()), rng))
    return derived, refused


@pytest.mark.parametrize(
    ("players", "seed", "judgement"), [(2, 41, SUCCESSOR), (3, 42, HEURISTIC), (5, 43, HEURISTIC)]
)
def test_a_placements_picture_is_made_from_the_previous_one_E8_E13(
    players: int, seed: int, judgement: Judgement
) -> None:
    """E8, E13: after the seat's own placements (an empty area taken, a stack reinforced),
    the Picture made from the last one is the Picture of the new position; after anything
    else (an attack, another seat's move, a new round) a fresh one is made."""
    derived, refused = _playout_pictures(players, seed, judgement)
    assert derived > 10
    assert refused > 10


@pytest.mark.parametrize("players", [2, 3, 5])
def test_playout_bots_choose_as_from_the_view(players: int) -> None:
    """D1-D4: a bot that reads playout views (remembering its last Picture) chooses as a bot
    reading each view afresh, draw for draw of the rng."""
    game = ziggurat.load(GAME, players=players)
    for cls in (HeuristicBot, SuccessorBot):
        playout_bots = [cls(game, seat) for seat in range(players)]
        plain_bots = [cls(game, seat) for seat in range(players)]
        rng, plain_rng = random.Random(players), random.Random(players)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                outcome = sample_chance(state, rng)
                assert outcome == sample_chance(state, plain_rng)
                state.apply(outcome)
                continue
            legal = list(state.legal_actions())
            choice = playout_bots[seat].choose(PlayoutView.of(state, seat), legal, rng)
            assert choice == plain_bots[seat].choose(state.view(seat), legal, plain_rng)
            state.apply(choice)


@pytest.mark.parametrize(("players", "seed"), [(3, 51), (5, 52)])
def test_a_cards_worth_is_the_same_remembered_D1(players: int, seed: int) -> None:
    """D1: a card's worth read from the memory of boards is the one worked out afresh."""
    checked = 0
    for state in _game_states(players, seed):
        if state.pending is None or state.pending[0] != "keep":
            continue
        seat = state.current_player()
        pic = Picture(state.game, state.view(seat), seat)
        for x in state.rules.peoples.epoch_cards[state.epoch]:
            for holder in range(players):
                assert bots_cards.card_worth(pic, x, holder) == bots_cards._card_worth(pic, x, holder)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 61), (4, 62)])
def test_sample_state_leaves_the_view_as_it_was_section6(players: int, seed: int) -> None:
    """§6: sampling a world from a view fills in copies: the view itself is unchanged, and the
    sampled world shows the seat that very view."""
    for state in _game_states(players, seed)[::7]:
        seat = max(state.current_player(), 0)
        view = state.view(seat)
        before = copy.deepcopy(view)
        for k in range(3):
            world = state.game.sample_state(view, seat, random.Random(k))
            assert view == before
            assert world.view(seat) == view


def _features_with_fresh_pictures(s: Any) -> list[list[float]]:
    """``evaluate.features`` as written out in its docstring, a fresh Picture for each seat
    made from the full position."""
    from ziggurat.games.mesopotamia_epochs.rounds import round_score

    peoples = s.rules.peoples
    strategy = s.phase == "strategy"
    active = s.active if strategy else -1
    out = [[float(v), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] for v in s.vp]
    pos = s.to_position()
    for p, seat in enumerate(s.owner):
        if seat < 0:
            continue
        f = out[seat]
        comes = not strategy or p == active or peoples.order(p, s.epoch) > s.order
        if s.held[p]:
            pic = Picture(s.game, pos, seat)
            if comes:
                f[1] += round_score(s, p)
            for a in range(s.rules.map.size):
                if s.occ[a] == p:
                    f[2] += pic.hold_value(p, a, s.cnt[a])
            if p != active:
                f[5] += s.rules.growth(p, s.held[p].bit_count())
        elif peoples.card_epoch[p] == s.epoch and comes:
            if p != active:
                f[3] += peoples.initial[p]
        else:
            continue
        for e, n in peoples.reinforcements[p].items():
            if e > s.epoch or (e == s.epoch and comes and p != active):
                f[6] += n
    if active >= 0:
        out[s.owner[active]][4] += s.pool
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 71), (5, 72)])
def test_the_evaluators_features_are_those_of_fresh_pictures(players: int, seed: int) -> None:
    for state in _game_states(players, seed)[::3]:
        assert evaluate.features(state) == _features_with_fresh_pictures(state)


@pytest.mark.parametrize(("players", "seed"), [(2, 81), (4, 82)])
def test_a_remembered_evaluation_is_the_evaluation(players: int, seed: int) -> None:
    """The evaluator answers a position it has seen (by its facts) as it did the first time,
    and as the softmax of the strengths worked out afresh."""
    from ziggurat.bots.playout import win_chances

    states = _game_states(players, seed)[::4]
    first = [evaluate.evaluate(state) for state in states]
    again = [evaluate.evaluate(state.clone()) for state in states]
    assert first == again
    for state, got in zip(states, first, strict=True):
        want = state.returns() if state.is_terminal() else win_chances(evaluate.strengths(state), 1.0)
        assert got == want


def test_the_memos_let_go_of_the_rules_of_many_games() -> None:
    """A process that plays many games (a server) does not keep every game's rules alive for
    the bot's memos: past a bound, the rules are let go and the memos keyed by them emptied;
    the answers stay those worked out afresh."""
    memo = remembered({})
    first = ziggurat.load(GAME, players=3)
    memo[(rules_id(first.rules), "probe")] = 1.0
    games = [ziggurat.load(GAME, players=3) for _ in range(70)]
    for game in games:
        rules_id(game.rules)
    assert memo == {}
    state = _game_states(3, 91)[40]
    game = games[-1]
    copy_of = game.state_from_position(state.to_position())
    assert evaluate.evaluate(copy_of) == evaluate.evaluate(state)
    seat = max(state.current_player(), 0)
    assert _answers(Picture(game, facts_of_state(copy_of, seat), seat)) == _answers(
        Picture(state.game, state.view(seat), seat)
    )


def test_a_picture_hands_on_the_fields_it_is_said_to() -> None:
    """``Picture.for_seat`` takes over the fields ``_SHARED`` names, ``after_placements`` those
    ``_ALL`` names, each written out field by field: exactly those, the very objects (numbers
    and small tuples, which a compiled class keeps unboxed: the same values)."""
    from ziggurat.games.mesopotamia_epochs import bots_model

    state = _game_states(3, 93)[40]
    pic = Picture(state.game, facts_of_state(state, 0), 0)
    shared = Picture.__new__(Picture)
    pic._share(shared)
    side = Picture.__new__(Picture)
    pic._share(side)
    pic._share_side(side)
    for made, names in ((shared, bots_model._SHARED), (side, (*bots_model._SHARED, *bots_model._ALL))):
        for name in bots_model.PICTURE_FIELDS:
            if name in names:
                got, want = getattr(made, name), getattr(pic, name)
                assert got == want, name
                if not isinstance(want, (int, float, tuple)):
                    assert got is want, name
            else:
                assert not hasattr(made, name), name
