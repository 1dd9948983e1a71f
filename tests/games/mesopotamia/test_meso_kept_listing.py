"""The Phase I listing kept from ply to ply agrees with one worked out afresh.

Between two plies of the player to move in Phase I (M2-M6), Mesopotamia keeps what its listing
derived from the pieces (the seat's tribes in order, the tiles with loot to steal, its huts with
an offering, its card plays) and follows the actions that change only the seat's own tribes
instead of working them out again. These tests play seeded random games at every player count
and with options that change the listing, and check at every Phase I decision that the kept
parts are the ones worked out afresh from the state, and that the list is the list of the same
position with nothing kept; and that every text the listing built with its decoded form
decodes to that form and encodes back to itself (the notation's round trip).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import ziggurat
import ziggurat.games.mesopotamia.game  # noqa: F401  (the game module imports the rules modules in working order)
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia import cards
from ziggurat.games.mesopotamia.data import STONE, TELEPORT, WOOD
from ziggurat.games.mesopotamia.notation import BUILT, decode, encode, fmt_tribe

OTHER_RULES = {
    "tribe_steals_once_per_turn": False,
    "hand_off_between_own_tribes": False,
    "drop_on_temple_allowed": True,
    "stone_donated_on_temple_entry": False,
    "temple_tribe_limit": 2,
    "wood_carrier_may_enter_temple": True,
}

CASES = [
    pytest.param(2, {}, 21, id="2p"),
    pytest.param(3, {}, 22, id="3p"),
    pytest.param(4, {}, 23, id="4p"),
    pytest.param(4, OTHER_RULES, 24, id="4p-other-rules"),
]


def phase_one_states(game: Any, seed: int, decisions: int) -> Iterator[Any]:
    """The states of a seeded random game at its Phase I decisions with nothing pending, after
    their listing (new games as needed)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(decisions):
        if state.is_terminal():
            state = game.new_initial_state()
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if state.pending is None and state.phase == "movement":
            yield state
        state.apply(legal[rng.randrange(len(legal))])


def afresh(state: Any) -> tuple[list[Any], frozenset[Any], tuple[str, ...]]:
    """The kept parts worked out from the state: the seat's tribes on the map in order, the
    tiles where another seat's tribe carries wood or stone, the card plays."""
    p = state.current_player()
    on_map = sorted(t for t in state.tribes[p] if t[0] is not None)
    loot = frozenset(t[0] for q in range(state.n) if q != p for t in state.tribes[q] if t[1] in (WOOD, STONE))
    plays: list[str] = []
    cards.card_actions(state, p, plays)
    return on_map, loot, tuple(plays)


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_kept_listing_parts_match_a_fresh_working_out_M2_M6(
    players: int, options: dict[str, Any], seed: int
) -> None:
    game = ziggurat.load("mesopotamia", players=players, **options)
    checked = 0
    for state in phase_one_states(game, seed, 5000):
        kept = state.kept
        assert kept is not None and kept.seat == state.current_player()
        on_map, loot, plays = afresh(state)
        assert kept.on_map == on_map
        assert kept.tribes == tuple(state.tribes[kept.seat])
        assert kept.loot == loot
        assert kept.plays == plays
        checked += 1
    assert checked > 2000


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_kept_listing_lists_what_the_position_lists_M2_M6(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """Same list, same order, as a state loaded from the position where nothing is kept, while
    no steal is listed (steals at several tiles follow the order of the victims' tribes, which a
    position does not keep)."""
    game = ziggurat.load("mesopotamia", players=players, **options)
    compared = 0
    for state in phase_one_states(game, seed + 100, 4000):
        legal = list(state.legal_actions())
        if any(a.startswith("steal") for a in legal):
            continue
        fresh = game.state_from_position(state.to_position())
        assert fresh.kept is None
        assert list(fresh.legal_actions()) == legal
        compared += 1
    assert compared > 1500


def test_kept_listing_is_followed_across_steps_and_dropped_after_other_actions() -> None:
    """After a step the next listing starts from the kept parts (the same seat, one tribe moved);
    after the end of Phase I nothing of it is left for Phase II (M2.7)."""
    game = ziggurat.load("mesopotamia", players=3)
    steps = ends = 0
    for state in phase_one_states(game, 5, 4000):
        legal = state.legal_actions()
        step = next((a for a in legal if a.startswith("move ")), None)
        if step is not None:
            q, r = (int(x) for x in step.rsplit(" ", 1)[1].split(","))
            if state.tiles.get((q, r)) in ("plains", "forest", "quarry") and state.mp > 1:
                after = state.clone()
                after.apply(step)
                assert after.kept is not None and after.kept is not state.kept
                assert after.kept.seat == state.kept.seat
                listed = list(after.legal_actions())
                fresh = list(game.state_from_position(after.to_position()).legal_actions())
                if any(a.startswith("steal") for a in listed):  # see the test above
                    listed, fresh = sorted(listed), sorted(fresh)
                assert listed == fresh
                steps += 1
        if "end" in legal:
            after = state.clone()
            after.apply("end")
            if after.phase == "action":
                assert after.kept is None
                ends += 1
    assert steps > 100
    assert ends > 20


def test_texts_built_with_their_decoded_form_round_trip() -> None:
    """Every text the listing built with its decoded form: ``decode`` gives that form and
    ``encode`` gives the text back (the notation's round trip, docs/mesopotamia.md)."""
    for players, options, seed in ((4, {}, 31), (3, OTHER_RULES, 32)):
        game = ziggurat.load("mesopotamia", players=players, **options)
        for _ in phase_one_states(game, seed, 2000):
            pass
    assert len(BUILT) > 500
    kinds = set()
    for text, form in list(BUILT.items()):
        assert decode(text) == form, text
        assert encode(form) == text
        kinds.add(form[0])
    assert {"move", "pickup", "drop", "exchange"} <= kinds


def test_teleport_plays_follow_the_tribes_that_moved_M15_7() -> None:
    """A player holding a Teleport (from before this turn) lists it for every tribe on the map
    as the tribes are after each step, not as they were when the plays were first listed."""
    game = ziggurat.load("mesopotamia", players=2)
    forbidden = game.opts["teleport_forbidden_destination_types"]
    seen = 0
    for state in phase_one_states(game, 41, 20_000):
        p = state.current_player()
        if not state.playable(p, TELEPORT):
            continue
        if sum(1 for kind in state.tiles.values() if kind != "temple" and kind not in forbidden) < 2:
            continue  # then some tribe may have nowhere to go (M15.7)
        teleports = sorted(a for a in state.legal_actions() if a.startswith("play teleport"))
        expected = sorted(
            {
                f"play teleport {fmt_tribe(q, *t)}"
                for q in range(state.n)
                for t in state.tribes[q]
                if t[0] is not None
            }
        )
        assert teleports == expected
        seen += 1
        if seen > 50:
            break
    assert seen > 50


def test_states_with_the_same_tiles_share_what_the_tiles_decide_M7() -> None:
    """States loaded apart from positions with the same tiles list from one memo of the game's;
    a game with other options (what a tribe may do on the temple) keeps its own."""
    game = ziggurat.load("mesopotamia", players=3)
    state = next(s for i, s in enumerate(phase_one_states(game, 51, 3000)) if i == 200)
    position = state.to_position()
    first, second = game.state_from_position(position), game.state_from_position(position)
    assert first.tile_memo is second.tile_memo is state.tile_memo
    other = ziggurat.load("mesopotamia", players=3, drop_on_temple_allowed=True)
    assert other.state_from_position(position).tile_memo is not first.tile_memo
    assert list(first.legal_actions()) == list(second.legal_actions())
    assert sorted(first.legal_actions()) == sorted(state.legal_actions())
