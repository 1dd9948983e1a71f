"""Mesopotamia's inline apply and the kept listing it follows agree with the plain working-out.

``MesoState.apply`` plays a text of the cached legal list with nothing pending inline (the
most common decision) instead of going through the engine's pipeline (``State.apply``), and a
Phase I action tells the kept listing which tribe it changed (M2-M6) instead of the listing
comparing every tribe. These tests play seeded random games at every player count, and with
options that change the listing, and check that both ways give the same states, events and
legal lists at every decision, and that the inline path refuses what the pipeline refuses with
the same errors and messages.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from meso_reference_listing import top_level_legal

import ziggurat
import ziggurat.games.mesopotamia.game  # noqa: F401  (the game module imports the rules modules in working order)
from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.engine.errors import IllegalAction, InvalidSeat, NotYourTurn
from ziggurat.games.mesopotamia import movement
from ziggurat.games.mesopotamia.notation import decode

OTHER_RULES = {
    "tribe_steals_once_per_turn": False,
    "hand_off_between_own_tribes": True,
    "drop_on_temple_allowed": True,
    "stone_donated_on_temple_entry": False,
    "temple_tribe_limit": 2,
    "wood_carrier_may_enter_temple": True,
    "failed_delivery_refunds_mp": True,
}

CASES = [
    pytest.param(2, {}, 61, id="2p"),
    pytest.param(3, {}, 62, id="3p"),
    pytest.param(4, {}, 63, id="4p"),
    pytest.param(3, OTHER_RULES, 64, id="3p-other-rules"),
]


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_inline_apply_plays_as_the_engine_pipeline_M1(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """The same seeded choices played through ``apply`` and through the engine's ``State.apply``
    leave equal states (fingerprints), logs and legal lists after every decision."""
    game = ziggurat.load("mesopotamia", players=players, **options)
    rng = random.Random(seed)
    assert type(game.new_initial_state()).apply is not State.apply  # two ways indeed
    fast, plain = game.new_initial_state(), game.new_initial_state()
    games = 1
    for ply in range(3000):
        if fast.is_terminal():
            assert plain.is_terminal() and fast.returns() == plain.returns()
            fast, plain = game.new_initial_state(), game.new_initial_state()
            games += 1
        if fast.current_player() == CHANCE:
            action = sample_chance(fast, rng)
        else:
            legal = fast.legal_actions()
            assert list(plain.legal_actions()) == list(legal)
            action = legal[rng.randrange(len(legal))]
        fast.apply(action)
        State.apply(plain, action)
        assert fast.events()[-3:] == plain.events()[-3:]
        if ply % 25 == 0:
            assert fast.fingerprint() == plain.fingerprint()
            assert fast.events() == plain.events()
    assert fast.history() == plain.history()
    assert fast.fingerprint() == plain.fingerprint()
    assert games >= 1


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_kept_listing_follows_the_tribe_an_action_names_M2_M6(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """After every Phase I action that keeps the listing, following the one tribe it changed
    gives the kept parts that comparing all the seat's tribes gives, and those of a listing
    worked out afresh; the steals kept from ply to ply are those listed."""
    game = ziggurat.load("mesopotamia", players=players, **options)
    rng = random.Random(seed + 100)
    state = game.new_initial_state()
    followed = steals = 0
    for _ in range(4000):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        d = decode(action)
        kept = state.kept
        if state.pending is None and state.phase == "movement":
            # the steals kept with the listing, carried on from earlier plies or listed again,
            # are those a from-scratch listing finds (M4)
            assert kept is not None
            assert kept.steals == tuple(a for a in top_level_legal(state) if a.startswith("steal "))
            steals += bool(kept.steals)
        if (
            kept is not None
            and state.pending is None
            and state.phase == "movement"
            and d[0] in movement._KEEPS_LISTING
        ):
            after = state.clone()
            p = after.current_player()
            changed = movement.apply_movement(after, p, d)
            if after.pending is None and after.phase == "movement":
                compared = movement.kept_after(kept, after, p)
                told = movement.kept_after(kept, after, p, changed)
                assert told == compared
                assert told.on_map == sorted(t for t in after.tribes[p] if t[0] is not None)
                assert told.tribes == tuple(after.tribes[p])
                followed += 1
        state.apply(action)
    assert followed > 800
    assert steals > 0


def _phase_one_state(players: int, seed: int) -> Any:
    game = ziggurat.load("mesopotamia", players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while True:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if state.pending is None and state.phase == "movement" and state.round > 1 and len(legal) > 2:
            return state
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_inline_apply_refuses_as_the_pipeline_does_M1_3(players: int) -> None:
    """A legal text with another seat, a seat that is not one, or a text not legal now: the
    same error and message both ways, and the state is left unchanged."""
    state = _phase_one_state(players, 70 + players)
    legal = state.legal_actions()
    mover = state.current_player()
    before = state.fingerprint()
    cases: list[tuple[str, Any]] = [
        (legal[0], (mover + 1) % players),
        (legal[0], True),
        (legal[0], players),
        ("move b@9,9 9,10", None),
        ("income", None),
    ]
    for action, seat in cases:
        errors = []
        for apply in (state.apply, lambda a, s: State.apply(state, a, s)):
            with pytest.raises((NotYourTurn, InvalidSeat, IllegalAction)) as caught:
                apply(action, seat)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]
        assert state.fingerprint() == before
    assert list(state.legal_actions()) == list(legal)
    state.apply(legal[0], mover)  # the seat to move, named, plays
    assert state.history()[-1] == legal[0]
