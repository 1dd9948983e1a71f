"""Notation (§7), the contract's entry points (registry, seats, errors, positions, undo)."""

from __future__ import annotations

import json
import random

import pytest
from epochs_helpers import ANN, BEN, Board, load, play, refuse

import ziggurat


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("keep", "keep"),
        ("  KEEP ", "keep"),
        ("pass Head", "pass head"),
        ("pass h", "pass head"),
        ("pass u", "pass urn"),
        ("place Great Green", "place great_green"),
        ("place  babylon", "place babylon"),
        ("displace Sinai", "displace sinai"),
        ("land thrace", "land thrace"),
        ("remove", "remove"),
        ("stop", "stop"),
        ("draw Sea Peoples", "draw sea_peoples"),
        ("deal m Guti", "deal mask guti"),
        ("roll 3,5 4", "roll 3,5 4"),
        ("roll 3 5 4", "roll 3,5 4"),
        ("roll (3, 5) (4, 1)", "roll 3,5 4,1"),
    ],
)
def test_parse_action_normalises_to_canonical_text_section7(loose: str, canonical: str) -> None:
    game = load(3)
    assert game.parse_action(loose) == canonical
    assert game.parse_action(canonical) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "move", "keep now", "pass", "pass nobody", "place atlantis", "draw vikings", "deal guti", "roll 1,2",
     "roll 1,2,3,4,5", "roll 0,2 3", "roll -1,2 3", "roll a,b c", "deal brooch"],
)  # fmt: skip
def test_bad_text_is_invalid_action(text: str) -> None:
    game = load(3)
    with pytest.raises(ziggurat.InvalidAction):
        game.parse_action(text)
    s = game.new_initial_state()
    before = s.fingerprint()
    with pytest.raises(ziggurat.InvalidAction):
        s.apply(text)
    assert s.fingerprint() == before


def test_every_legal_action_round_trips_through_a_game() -> None:
    game = load(4)
    s = game.new_initial_state()
    rng = random.Random(9)
    kinds = set()
    while not s.is_terminal():
        for a in s.legal_actions()[:50]:
            assert game.parse_action(a) == a
        kinds.add(s.legal_actions()[0].split(" ")[0])
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    assert {"deal", "draw", "keep", "place", "roll"} <= kinds


def test_registered_with_its_seats_and_player_range() -> None:
    assert "mesopotamia-epochs" in ziggurat.games()
    game = ziggurat.load("mesopotamia-epochs", players=5)
    assert game.seat_names() == ["brooch", "head", "mask", "statue", "urn"]
    assert load(2).seat_names() == ["brooch", "head"]
    assert (game.min_players, game.max_players, game.name) == (2, 5, "Mesopotamia: Epochs")


def test_wrong_seat_and_finished_game_are_refused() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "elamites")
    s = b.tribes("uruk", "sumerians", 1).round("sumerians", 2).state()
    before = s.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn, match="head"):
        s.apply("stop", seat=BEN)
    assert s.fingerprint() == before
    s.apply("stop", seat=ANN)
    done = Board(2, epoch=5, phase="over").state()
    with pytest.raises(ziggurat.GameOver, match="E15.1"):
        done.apply("stop")


def test_chance_node_refuses_decisions_C1() -> None:
    s = load(3).new_initial_state()
    refuse(s, "keep", "C1")
    refuse(s, "deal brooch hittites", "E1.5")
    refuse(s, "deal head guti", "E1.5")


def test_positions_round_trip_and_reject_bad_ones() -> None:
    s = Board(3, epoch=3).deal(ANN, "guti", "kassites", "assyrians").tribes("ashur", "assyrians", 1)
    s = s.tribes("gutium", "guti", 1).round("assyrians", 2).pending("combat", "gutium", 2).state()
    pos = s.to_position()
    again = s.game.state_from_position(json.loads(json.dumps(pos)))
    assert again.to_position() == pos and again.fingerprint() == s.fingerprint()
    assert list(again.legal_actions()) == list(s.legal_actions())
    for bad in (
        {**pos, "format": "chess"},
        {**pos, "num_players": 4},
        {**pos, "epoch": 6},
        {**pos, "phase": "lunch"},
        {**pos, "pending": ["combat", "gutium", 3]},
        {**pos, "pending": ["teleport"]},
        {**pos, "areas": [["atlantis", "guti", 1]]},
        {**pos, "map": "mesopotamia-epochs/another-map"},
    ):
        with pytest.raises(ValueError):
            s.game.state_from_position(bad)


def test_undo_barriers() -> None:
    """Chance, a hostile placement (combat follows), the end of a round and a keep or pass are
    savepoints; a quiet placement inside a round is not."""
    b = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians")
    s = b.tribes("elam", "elamites", 1).tribes("ur", "sumerians", 1).round("elamites", 3).state()
    game = s.game
    assert not game.undo_barrier(s, "place media")
    assert game.undo_barrier(s, "place ur")
    assert game.undo_barrier(s, "stop")
    play(s, "place ur")
    assert game.undo_barrier(s, "roll 1,1 6")
    draw = Board(3, epoch=2, phase="allocation").drawing([ANN, BEN, 2], 0).pending("keep", "minoans").state()
    assert game.undo_barrier(draw, "keep")


def test_forced_actions_are_auto_events_not_history() -> None:
    s = load(2).new_initial_state()
    play(s, "deal brooch guti", "deal head elamites")
    assert s.history() == ["deal brooch guti", "deal head elamites"]
    assert all(not auto for _, _, auto, _ in s.events())
    rec = ziggurat.record(s)
    assert ziggurat.replay(rec).fingerprint() == s.fingerprint()
