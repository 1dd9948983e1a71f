"""Set-up (S1-S10, R1-R13): colours, seats, start tiles and pieces, piles, cards, first-turn MP."""

from __future__ import annotations

import pytest
from meso_helpers import FOREST0, PLAINS_A, PLAINS_B, QUARRY0, load, mine, started

import ziggurat


def _pass_turn(state) -> None:
    """End Phase I and pass Phase II; income and the end of turn are forced (§7)."""
    state.apply("end")
    state.apply("pass")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_colours_and_scale_S1(players: int) -> None:
    s = started(players)
    pos = s.to_position()
    assert [p["colour"] for p in pos["players"]] == ["blue", "yellow", "red", "green"][:players]
    for p in pos["players"]:
        assert (p["mana"], p["limit"]) == (0, 3)  # S1, R2
        assert len(p["tribes"]) + p["tribes_in_supply"] == 8
        assert p["offerings"]["unplaced_count"] == 4
    assert s.game.invariants(s) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_player_is_a_fair_chance_node_S2_R1(players: int) -> None:
    s = load(players).new_initial_state()
    assert s.current_player() == ziggurat.CHANCE
    outcomes = s.chance_outcomes()
    letters = "byrg"[:players]
    assert [a for a, _ in outcomes] == [f"first {c}" for c in letters]
    assert all(abs(p - 1 / players) < 1e-12 for _, p in outcomes)


def test_first_player_chosen_is_a_decision_D2_R1() -> None:
    s = load(3, first_player="chosen").new_initial_state()
    assert s.current_player() == 0
    assert s.chance_outcomes() == []
    assert list(s.legal_actions()) == ["first b", "first y", "first r"]
    s.apply("first y")
    assert s.current_player() == 1  # yellow moves first


def test_seats_follow_clockwise_from_first_player_S2_M1_1() -> None:
    s = started(4, first="r")
    pos = s.to_position()
    assert pos["turn_order"] == ["red", "green", "blue", "yellow"]
    order = []
    for _ in range(5):
        order.append(s.current_player())
        _pass_turn(s)
    assert order == [2, 3, 0, 1, 2]  # M1.1: after seat N comes seat 1 again


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_tiles_same_for_every_player_count_S3_R3(players: int) -> None:
    tiles = {(q, r): kind for q, r, kind in started(players).to_position()["tiles"]}
    assert tiles == {
        (0, 0): "temple",
        (0, -1): "volcano",
        (0, 1): "volcano",
        (1, -1): "plains",
        (1, 0): "plains",
        (-1, 0): "forest",
        (-1, 1): "quarry",
    }


@pytest.mark.parametrize(
    ("players", "first", "on_a", "on_b"),
    [
        (4, "b", {"blue", "green"}, {"yellow", "red"}),  # seats 1+4 on A, 2+3 on B (R7)
        (4, "y", {"yellow", "blue"}, {"red", "green"}),
        (3, "b", {"blue", "neutral"}, {"yellow", "red"}),  # R8
        (3, "r", {"red", "neutral"}, {"blue", "yellow"}),
        (2, "b", {"blue", "neutral"}, {"yellow", "neutral"}),  # R9
        (2, "y", {"yellow", "neutral"}, {"blue", "neutral"}),
    ],
)
def test_start_huts_and_tribes_by_seat_S4_R7_R8_R9(players: int, first: str, on_a: set, on_b: set) -> None:
    s = started(players, first=first)
    pos = s.to_position()
    huts = pos["huts"]
    assert {h[0] for h in huts if (h[2], h[3]) == PLAINS_A} == on_a
    assert {h[0] for h in huts if (h[2], h[3]) == PLAINS_B} == on_b
    assert sum(1 for h in huts if (h[2], h[3]) == PLAINS_A) == 2  # every start plains holds 2 huts
    assert sum(1 for h in huts if (h[2], h[3]) == PLAINS_B) == 2
    assert all(h[4] == 0 for h in huts)  # R5, R10: no offering under a start or neutral hut
    for p in pos["players"]:
        home = PLAINS_A if p["colour"] in on_a else PLAINS_B
        assert p["tribes"] == [[*home, "", False]] * 3  # R6: 3 tribes on the map
        assert p["tribes_in_supply"] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_resources_S5(players: int) -> None:
    pos = started(players).to_position()
    assert pos["loose"] == [[*FOREST0, players, 0], [*QUARRY0, 0, players]]
    assert pos["supply"] == {"wood": 20 - players, "stone": 20 - players, "stones_removed": 0}


def test_personal_supply_S6() -> None:
    s = started(4)
    blue = mine(s, "blue")
    assert blue["tribes_in_supply"] == 5
    assert blue["offerings"]["unplaced"] == [2, 4, 6, 7]
    assert blue["offerings"]["placed"] == {}
    assert s.to_position()["holy_places"] == []
    # 5 huts per colour, 1 on the map: 4 in the supply (checked by the conservation invariant)
    assert sum(1 for h in s.to_position()["huts"] if h[0] == "blue") == 1
    # S6: a player sees the values of their own markers at any time (§6)
    assert s.view(0)["players"][0]["offerings"]["unplaced"] == [2, 4, 6, 7]


@pytest.mark.parametrize(
    ("players", "sizes", "plains"),
    [(4, [12, 11, 11], 20), (3, [10, 10, 10], 16), (2, [10, 9, 9], 14)],
)
def test_tile_piles_S7_R12(players: int, sizes: list[int], plains: int) -> None:
    pos = started(players).to_position()
    assert [p["size"] for p in pos["piles"]] == sizes
    assert pos["remaining_tiles"] == {"volcano": 3, "forest": 5, "quarry": 6, "plains": plains}
    assert all(p["top"] == [] for p in pos["piles"])  # face down: nobody knows any tile


def test_tile_pile_count_option_S7() -> None:
    pos = started(4, tile_pile_count=4).to_position()
    assert [p["size"] for p in pos["piles"]] == [9, 9, 8, 8]


@pytest.mark.parametrize("players", [3, 4])
def test_full_deck_with_3_or_4_players_S8(players: int) -> None:
    pos = started(players).to_position()
    assert pos["deck_size"] == 18
    assert pos["deck"] == {
        "endurance": 3, "priest": 3, "fertility": 2, "holy_stone": 2,
        "land": 2, "mana_theft": 2, "teleport": 2, "expulsion": 2,
    }  # fmt: skip
    assert pos["discard"] == {}
    assert pos["removed_cards"] == {}


def test_two_player_deck_removes_third_endurance_and_priest_S8_R13() -> None:
    pos = started(2).to_position()
    assert pos["deck_size"] == 16
    assert set(pos["deck"].values()) == {2}  # exactly 2 of each of the 8 types
    assert len(pos["deck"]) == 8
    assert pos["removed_cards"] == {"endurance": 1, "priest": 1}


def test_two_player_removed_cards_option_S8() -> None:
    pos = started(2, two_player_removed_cards=["land-1", "teleport-2"]).to_position()
    assert pos["removed_cards"] == {"land": 1, "teleport": 1}
    assert pos["deck"]["endurance"] == 3


def test_no_cards_dealt_without_the_variant_S8() -> None:
    pos = started(4).to_position()
    assert all(p["hand_size"] == 0 for p in pos["players"])


@pytest.mark.parametrize(
    ("players", "first", "mps"),
    [
        (2, "b", [2, 5]),
        (3, "b", [2, 3, 4]),
        (4, "b", [2, 3, 4, 5]),
        (4, "g", [2, 3, 4, 5]),  # by seat (turn position), not by colour
    ],
)
def test_first_turn_movement_points_S9_then_five_S10(players: int, first: str, mps: list[int]) -> None:
    s = started(players, first=first)
    seen = []
    for _ in range(players):
        seen.append(s.to_position()["mp"])
        _pass_turn(s)
    assert seen == mps
    pos = s.to_position()
    assert pos["round"] == 2
    for _ in range(players):
        assert s.to_position()["mp"] == 5  # S10, M2.1
        _pass_turn(s)


def test_nobody_decides_at_the_chance_node_S2_M1_3() -> None:
    s = load(4).new_initial_state()
    before = s.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn, match="M1.3"):
        s.apply("first b", seat=0)
    assert s.fingerprint() == before
