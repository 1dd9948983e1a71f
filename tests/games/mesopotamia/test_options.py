"""Game options (§9): validation, the two variants, set-up defaults, and a coverage guard.

Most options' effects are tested next to the rule they change (test_movement, test_cards ...);
:func:`test_every_option_has_an_effect_test` makes sure none is forgotten.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from meso_helpers import PLAINS_A, PLAINS_B, Board, conserved, huts_on, load, mine, refuse, started

import ziggurat
from ziggurat.games.mesopotamia.data import DATA

HERE = Path(__file__).parent
SPEC_OPTIONS = sorted(DATA["options"])


def test_every_option_has_an_effect_test() -> None:
    texts = "\n".join(p.read_text() for p in HERE.glob("test_*.py"))
    missing = [key for key in SPEC_OPTIONS if f"{key}=" not in texts]
    assert missing == []


def test_defaults_match_the_spec_section9() -> None:
    game = load(4)
    assert game.options == {}  # only non-default options are recorded
    for key in SPEC_OPTIONS:
        assert game.opts[key] == DATA["options"][key]["default"], key
    assert ziggurat.record(started(4))["options"] == {}
    assert load(4, endurance_bonus_mp=2).options == {"endurance_bonus_mp": 2}


def test_unknown_option_raises_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="startWithTwoCards"):
        load(4, startWithTwoCards=True)


@pytest.mark.parametrize("players", [0, 1, 5, "4"])
def test_bad_player_count_raises_value_error(players) -> None:
    with pytest.raises(ValueError, match="players"):
        ziggurat.load("mesopotamia", players=players)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("endurance_bonus_mp", "3"),
        ("endurance_bonus_mp", -1),
        ("variant_no_reshuffle", 1),
        ("first_player", "oldest"),
        ("expulsion_target_huts", "none"),
        ("tile_pile_count", 0),
        ("two_player_removed_cards", ["joker-1"]),
        ("two_player_removed_cards", "endurance-3"),
        ("teleport_forbidden_destination_types", ["sea"]),
        ("holy_stone_effect", {"limit_gain": 1}),
        ("holy_stone_effect", 2),
        ("temple_tribe_limit", 0),
        ("round_limit", True),
    ],
)
def test_bad_option_value_raises_value_error_naming_it(key: str, value) -> None:
    with pytest.raises(ValueError, match=key):
        load(4, **{key: value})


def test_all_options_accept_their_defaults() -> None:
    options = {key: DATA["options"][key]["default"] for key in SPEC_OPTIONS}
    s = load(3, **options).new_initial_state()
    s.apply("first r")
    assert s.current_player() == 2


# --- variant 6.1: start with one card ----------------------------------------------------
def test_start_with_one_card_deals_in_seat_order_S8_variant_6_1() -> None:
    s = load(4, variant_start_with_one_card=True).new_initial_state()
    s.apply("first r")  # seat 1 is Red
    dealt = []
    for colour in "rgby":
        assert s.current_player() == ziggurat.CHANCE
        assert all(a.startswith(f"deal {colour} ") for a, _ in s.chance_outcomes())
        card = {"r": "teleport", "g": "priest", "b": "land", "y": "endurance"}[colour]
        s.apply(f"deal {colour} {card}")
        dealt.append(card)
    pos = s.to_position()
    assert pos["deck_size"] == 18 - 4
    assert [mine(s, c)["hand"] for c in ("red", "green", "blue", "yellow")] == [{k: 1} for k in dealt]
    assert pos["phase"] == "movement" and s.current_player() == 2
    conserved(s)


def test_dealt_card_is_playable_from_the_first_turn_M14_2_variant_6_1() -> None:
    s = load(2, variant_start_with_one_card=True).new_initial_state()
    s.apply("first b")
    s.apply("deal b endurance")
    s.apply("deal y holy_stone")
    assert "play endurance" in s.legal_actions()
    s.apply("play endurance")
    assert s.to_position()["mp"] == 2 + 3


def test_no_card_dealt_without_the_variant_S8() -> None:
    s = started(4)
    assert s.to_position()["deck_size"] == 18
    assert s.current_player() == 0


# --- variant 6.2: no reshuffle ---------------------------------------------------------
def test_played_cards_leave_the_game_M14_3_variant_6_2() -> None:
    b = Board(variant_no_reshuffle=True).clear_tribes().turn("r").tribes("r@1,0", "rw@1,0")
    s = b.hand("r", "holy_stone", "endurance").state()
    s.apply("play holy_stone")
    s.apply("play endurance")
    pos = s.to_position()
    assert pos["discard"] == {}
    assert pos["removed_cards"] == {"holy_stone": 1, "endurance": 1}
    conserved(s)


def test_no_reshuffle_means_no_draw_once_the_deck_is_empty_M12_2_variant_6_2() -> None:
    b = Board(variant_no_reshuffle=True).clear_tribes().turn("r", phase="action").tribes("r@1,0", "r@1,0")
    b.pos["removed_cards"] = dict(b.pos["deck"])
    b.pos["deck"] = {}
    b.pos["deck_size"] = 0
    s = b.state()
    conserved(s)
    assert "draw" not in s.legal_actions()
    refuse(s, "draw", "M12.2")


def test_reshuffle_happens_without_the_variant_M12_2() -> None:
    b = Board().clear_tribes().turn("r", phase="action").tribes("r@1,0", "r@1,0").empty_deck()
    s = b.state()
    assert "draw" in s.legal_actions()


# --- set-up options (S3, S4 configurable defaults) ----------------------------------------
def test_seat_tiles_and_neutral_huts_options_S4() -> None:
    s = started(2, seat_tiles={"1": "plainsB", "2": "plainsA"}, neutral_huts=[])
    pos = s.to_position()
    assert pos["huts"] == [["blue", 1, *PLAINS_B, 0], ["yellow", 1, *PLAINS_A, 0]]
    assert mine(s, "blue")["tribes"] == [[*PLAINS_B, "", False]] * 3
    conserved(s)


def test_start_tiles_option_S3_R4() -> None:
    layout = [
        {"id": "temple", "type": "temple", "q": 0, "r": 0},
        {"id": "volcanoN", "type": "volcano", "q": 0, "r": -1},
        {"id": "volcanoS", "type": "volcano", "q": 0, "r": 1},
        {"id": "plainsA", "type": "plains", "q": 1, "r": -1},
        {"id": "plainsB", "type": "plains", "q": 1, "r": 0},
        {"id": "forest0", "type": "forest", "q": -1, "r": 1},  # forest and quarry swapped
        {"id": "quarry0", "type": "quarry", "q": -1, "r": 0},
    ]
    s = started(4, start_tiles=layout)
    pos = s.to_position()
    assert [-1, 1, "forest"] in pos["tiles"] and [-1, 0, "quarry"] in pos["tiles"]
    assert pos["loose"] == [[-1, 0, 0, 4], [-1, 1, 4, 0]]
    assert len(huts_on(s, PLAINS_A)) == 2
