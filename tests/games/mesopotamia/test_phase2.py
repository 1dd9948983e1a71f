"""Phase II (M8-M12): groups, huts, holy places, growth and drawing a card."""

from __future__ import annotations

import pytest
from meso_helpers import Board, conserved, huts_on, loose, mine, refuse, tribes

import ziggurat

P = (2, 0)  # a discovered plains, empty unless a test fills it


def action(*specs: str, keep: bool = True, **options) -> Board:
    """Red's Phase II; plains P = 2,0 exists; only ``specs`` are on the map.

    ``keep``: Red holds a Holy Stone from an earlier turn, so Red always has a choice and the
    engine never ends the action or the turn on its own (§7 forced decisions).
    """
    b = Board(**options).clear_tribes().turn("r", phase="action").tile(*P, "plains")
    if keep:
        b.hand("r", "holy_stone")
    return b.tribes(*specs)


def holy_places(state) -> list[list]:
    return state.to_position()["holy_places"]


# --- M8 general ------------------------------------------------------------------------
def test_phase_two_choices_and_pass_M8_1_R38() -> None:
    s = action("rw@2,0", "r@2,0", keep=False).state()
    legal = s.legal_actions()
    assert "hut 2,0 rw@2,0 r@2,0" in legal
    assert "draw" in legal
    assert "pass" in legal
    s.apply("pass")
    assert s.current_player() == 3  # income and end of turn were forced: Green's turn
    assert tribes(s, "red") == ["r@2,0", "rw@2,0"]


def test_pass_not_allowed_by_option_M8_1_R38() -> None:
    s = action("rw@2,0", "r@2,0", phase_two_may_be_passed=False).state()
    assert "pass" not in s.legal_actions()
    refuse(s, "pass", "M8.1")


def test_pass_still_possible_when_nothing_else_is_by_option_M8_1() -> None:
    b = action("r@2,0", keep=False, phase_two_may_be_passed=False).empty_deck()
    b.pos["discard"] = {}
    b.pos["removed_cards"] = {}
    s = b.turn("r", phase="action").state()
    # the deck and discard are empty (cards not conserved here); pass is the only way on
    assert "draw" not in s.legal_actions()
    assert list(s.legal_actions()) == ["pass"]


def test_only_one_kind_of_action_per_turn_M8_1() -> None:
    b = action("rw@2,0", "r@2,0", "rs@3,0", "r@3,0").tile(3, 0, "plains")
    s = b.state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 4")
    refuse(s, "holy 3,0 rs@3,0 r@3,0", "M8.1")
    refuse(s, "draw", "M8.1")
    refuse(s, "pass", "M8.4")
    s.apply("stop")
    assert s.to_position()["phase"] == "mana"


def test_group_is_two_different_own_tribes_M8_2() -> None:
    s = action("rw@2,0", "b@2,0", "r@1,0").state()
    refuse(s, "hut 2,0 rw@2,0 b@2,0", "M8.2")
    refuse(s, "hut 2,0 rw@2,0 rw@2,0", "M8.2")
    refuse(s, "hut 2,0 rw@2,0 r@1,0", "M8.2")


def test_tribe_in_one_group_per_action_M8_3() -> None:
    b = action("rw@2,0", "rw@2,0", "r@2,0").tile(3, 0, "plains")
    s = b.state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 7")
    assert tribes(s, "red") == ["r@2,0*", "r@2,0*", "rw@2,0"]
    refuse(s, "hut 2,0 rw@2,0 r@2,0*", "M8.3")
    assert [a for a in s.legal_actions() if a.startswith("hut")] == []


def test_tribe_reused_by_option_M8_3() -> None:
    s = action("rw@2,0", "rw@2,0", "r@2,0", tribe_in_one_group_per_action=False).state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 7")
    s.apply("hut 2,0 rw@2,0 r@2,0")  # r@2,0 (and the emptied first builder) may serve again
    s.apply("offer 2")
    assert len(huts_on(s, P)) == 2


def test_groups_checked_one_by_one_and_stop_any_time_M8_4_R43() -> None:
    b = action("rw@2,0", "r@2,0", "rw@2,0", "r@2,0", "rw@2,0", "r@2,0")
    s = b.state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 6")
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 2")
    # the third pair still has wood, but the plains is full now
    refuse(s, "hut 2,0 rw@2,0 r@2,0", "M9.1")
    assert list(s.legal_actions()) == ["stop", "play holy_stone"]


def test_offering_carrier_may_be_a_group_member_M8_5() -> None:
    b = action("rw@2,0")
    pub = b.offering("r", 7)
    b.tribes(f"ro{pub}@2,0")
    s = b.state()
    s.apply(f"hut 2,0 rw@2,0 ro{pub}@2,0")
    s.apply("offer 2")
    assert len(huts_on(s, P)) == 1


def test_loose_wood_does_not_count_M8_6_R39() -> None:
    s = action("r@2,0", "r@2,0").loose(*P, wood=1).state()
    assert not [a for a in s.legal_actions() if a.startswith("hut")]
    refuse(s, "hut 2,0 r@2,0 r@2,0", "M8.6")


def test_loose_wood_counts_by_option_M8_6() -> None:
    s = action("r@2,0", "r@2,0", build_resource_must_be_carried=False).loose(*P, wood=1).state()
    s.apply("hut 2,0 r@2,0 r@2,0")
    s.apply("offer 4")
    assert loose(s, P) == (0, 0)
    assert len(huts_on(s, P)) == 1
    conserved(s)


# --- M9 huts ---------------------------------------------------------------------------
def test_build_hut_returns_wood_and_places_chosen_offering_M9_4_D18() -> None:
    s = action("rw@2,0", "r@2,0", "b@2,0").state()  # M9.1: the Blue tribe does not matter
    wood = s.to_position()["supply"]["wood"]
    s.apply("hut 2,0 rw@2,0 r@2,0")
    assert list(s.legal_actions()) == ["offer 2", "offer 4", "offer 6", "offer 7"]  # D18
    assert s.current_player() == 2
    s.apply("offer 6")
    pos = s.to_position()
    assert pos["supply"]["wood"] == wood + 1  # back to the general supply
    assert huts_on(s, P) == [["red", 2, 2, 0, 1]]  # offering id 1 under Red's 2nd hut
    red = mine(s, "red")
    assert red["offerings"]["placed"] == {"1": 6}
    assert red["offerings"]["unplaced"] == [2, 4, 7]
    assert tribes(s, "red") == ["r@2,0*", "r@2,0*"]
    conserved(s)


def test_last_offering_is_placed_automatically_M9_4_section7() -> None:
    b = action("rw@2,0", "r@2,0")
    for value in (2, 4, 6):
        b.delivered("r", value)
    s = b.state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    assert s.to_position()["pending"] is None
    assert mine(s, "red")["offerings"]["unplaced"] == []
    assert huts_on(s, P)[0][4] == 4  # the 7, id 4


def test_hut_only_on_plains_M9_1() -> None:
    s = action("rw@-1,0", "r@-1,0").state()
    refuse(s, "hut -1,0 rw@-1,0 r@-1,0", "M9.1")


def test_hut_limit_two_neutral_included_M9_1() -> None:
    b = action("rw@2,0", "r@2,0", "rw@2,0", "r@2,0").hut("neutral", 9, *P)
    s = b.state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 2")
    refuse(s, "hut 2,0 rw@2,0 r@2,0", "M9.1")


def test_no_hut_on_a_holy_place_M9_1_M10_6() -> None:
    s = action("rw@2,0", "r@2,0").holy("b", *P).state()
    refuse(s, "hut 2,0 rw@2,0 r@2,0", "M9.1")


def test_no_hut_on_the_temple_M5_7() -> None:
    s = action("rw@0,0", "r@0,0", wood_carrier_may_enter_temple=True).state()
    refuse(s, "hut 0,0 rw@0,0 r@0,0", "M9.1")


def test_hut_group_needs_a_wood_carrier_M9_2() -> None:
    s = action("rs@2,0", "r@2,0").state()
    refuse(s, "hut 2,0 rs@2,0 r@2,0", "M9.2")


def test_hut_needs_hut_and_offering_in_supply_M9_3() -> None:
    b = action("rw@2,0", "r@2,0").tile(3, 0, "plains").tile(2, 1, "plains")
    b.hut("r", 2, 3, 0, offering=2).hut("r", 3, 3, 0, offering=4).hut("r", 4, 2, 1, offering=6)
    b.hut("r", 5, 2, 1, offering=7)
    s = b.state()
    assert not [a for a in s.legal_actions() if a.startswith("hut")]
    refuse(s, "hut 2,0 rw@2,0 r@2,0", "M9.3")


# --- M10 holy places -------------------------------------------------------------------
def test_erect_holy_place_returns_stone_M10_4() -> None:
    s = action("rs@2,0", "r@2,0", "r@2,0").state()  # own extra tribes may be there
    stone = s.to_position()["supply"]["stone"]
    s.apply("holy 2,0 rs@2,0 r@2,0")
    pos = s.to_position()
    assert holy_places(s) == [[2, 0, "red"]]
    assert pos["supply"]["stone"] == stone + 1  # not removed from the game
    assert pos["supply"]["stones_removed"] == 0
    assert mine(s, "red")["offerings"]["unplaced"] == [2, 4, 6, 7]  # R45: no offering
    conserved(s)


def test_holy_place_needs_empty_plains_hut_M10_1() -> None:
    s = action("rs@2,0", "r@2,0").hut("r", 2, *P).state()
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.1")


def test_holy_place_blocked_by_neutral_hut_M10_1_R10() -> None:
    s = action("rs@2,0", "r@2,0").hut("neutral", 7, *P).state()
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.1")


def test_holy_place_blocked_by_other_players_tribe_M10_1_R44() -> None:
    s = action("rs@2,0", "r@2,0", "g@2,0").state()
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.1")


def test_holy_place_needs_stone_carrier_M10_2() -> None:
    s = action("rw@2,0", "r@2,0").state()
    refuse(s, "holy 2,0 rw@2,0 r@2,0", "M10.2")


def test_holy_place_only_on_plains_M10_1() -> None:
    s = action("rs@-1,1", "r@-1,1").state()
    refuse(s, "holy -1,1 rs@-1,1 r@-1,1", "M10.1")


def test_three_holy_places_at_most_M10_3() -> None:
    b = action("rs@2,0", "r@2,0").tile(3, 0, "plains").tile(3, -1, "plains").tile(2, 1, "plains")
    b.holy("r", 3, 0).holy("r", 3, -1).holy("r", 2, 1)
    s = b.state()
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.3")


def test_one_holy_place_per_tile_M10_5() -> None:
    s = action("rs@2,0", "r@2,0", "rs@2,0", "r@2,0").state()
    s.apply("holy 2,0 rs@2,0 r@2,0")
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.5")


def test_holy_places_on_several_tiles_in_one_action_M10_5() -> None:
    b = action("rs@2,0", "r@2,0", "rs@3,0", "r@3,0").tile(3, 0, "plains")
    s = b.state()
    s.apply("holy 2,0 rs@2,0 r@2,0")
    s.apply("holy 3,0 rs@3,0 r@3,0")
    assert holy_places(s) == [[2, 0, "red"], [3, 0, "red"]]


# --- M11 growth ------------------------------------------------------------------------
def test_growth_adds_one_tribe_from_supply_M11_1_M11_4() -> None:
    s = action("r@2,0", "r@2,0").hut("r", 2, *P).state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    assert tribes(s, "red") == ["r@2,0*", "r@2,0*", "r@2,0*"]  # R40: the newcomer is flagged too
    assert mine(s, "red")["tribes_in_supply"] == 5
    conserved(s)


def test_growth_needs_an_own_hut_M11_1() -> None:
    s = action("r@2,0", "r@2,0").hut("b", 2, *P).state()
    refuse(s, "grow 2,0 b2 r@2,0 r@2,0", "M11.1")


def test_growth_on_opponent_hut_by_option_M11_1() -> None:
    s = action("r@2,0", "r@2,0", growth_requires_own_hut=False).hut("b", 2, *P).state()
    s.apply("grow 2,0 b2 r@2,0 r@2,0")
    assert len(tribes(s, "red")) == 3


def test_one_growth_per_own_hut_M11_1_R41() -> None:
    b = action("r@2,0", "r@2,0", "r@2,0", "r@2,0").hut("r", 2, *P)
    s = b.state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0", "M11.1")


def test_two_own_huts_allow_two_growths_M11_1() -> None:
    b = action("r@2,0", "r@2,0", "r@2,0", "r@2,0").hut("r", 2, *P).hut("r", 3, *P)
    s = b.state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    s.apply("grow 2,0 r3 r@2,0 r@2,0")
    assert len(tribes(s, "red")) == 6


def test_one_hut_several_growths_by_option_M11_1() -> None:
    b = action("r@2,0", "r@2,0", "r@2,0", "r@2,0", growth_one_hut_per_group=False).hut("r", 2, *P)
    s = b.state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    assert len(tribes(s, "red")) == 6


def test_growth_several_tiles_in_one_action_M8_4() -> None:
    b = action("r@2,0", "r@2,0", "r@1,0", "r@1,0").hut("r", 2, *P)
    s = b.state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    s.apply("grow 1,0 r1 r@1,0 r@1,0")  # Red's start hut is on 1,0
    assert mine(s, "red")["tribes_in_supply"] == 2


def test_grown_tribes_cannot_join_a_group_R40() -> None:
    b = action("r@2,0", "r@2,0").hut("r", 2, *P).hut("r", 3, *P)
    s = b.state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0")
    refuse(s, "grow 2,0 r3 r@2,0* r@2,0*", "M8.3")
    assert list(s.legal_actions()) == ["stop", "play holy_stone"]


def test_offering_under_any_hut_blocks_growth_M11_2_R42() -> None:
    b = action("r@2,0", "r@2,0").hut("r", 2, *P).hut("b", 2, *P, offering=4)
    s = b.state()
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0", "M11.2")


def test_carried_offerings_do_not_block_growth_M11_2() -> None:
    b = action("r@2,0").hut("r", 2, *P)
    pub = b.offering("r", 6)
    b.tribes(f"ro{pub}@2,0")
    s = b.state()
    s.apply(f"grow 2,0 r2 r@2,0 ro{pub}@2,0")
    assert len(tribes(s, "red")) == 3


def test_growth_needs_a_tribe_in_supply_M11_3() -> None:
    b = action("r@2,0", "r@2,0").hut("r", 2, *P).supply_tribes("r", 0)
    s = b.state()
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0", "M11.3")


def test_neutral_hut_never_allows_growth_M11_5() -> None:
    s = action("r@2,0", "r@2,0").hut("neutral", 5, *P).state()
    refuse(s, "grow 2,0 n5 r@2,0 r@2,0", "M11.5")


def test_neutral_hut_allows_growth_by_option_M11_5() -> None:
    s = action("r@2,0", "r@2,0", neutral_hut_allows_growth=True).hut("neutral", 5, *P).state()
    s.apply("grow 2,0 n5 r@2,0 r@2,0")
    assert len(tribes(s, "red")) == 3


def test_growth_with_hut_on_another_tile_refused_M11_1() -> None:
    s = action("r@2,0", "r@2,0").state()
    refuse(s, "grow 2,0 r1 r@2,0 r@2,0", "M11.1")


# --- M12 draw a card -------------------------------------------------------------------
def test_draw_one_hidden_card_then_phase_three_M12_1() -> None:
    b = action("r@2,0", keep=False).hand("r", "land")
    s = b.state()
    deck = s.to_position()["deck_size"]
    s.apply("draw")
    assert s.current_player() == ziggurat.CHANCE
    s.apply("card teleport")
    pos = s.to_position()
    assert pos["deck_size"] == deck - 1
    assert mine(s, "red")["hand"] == {"land": 1, "teleport": 1}  # Land: held from before
    assert mine(s, "red")["new_cards"] == {"teleport": 1}
    assert pos["phase"] == "mana"  # exactly one card; the action is over
    assert s.view(0)["players"][2]["hand"] is None  # hidden from Blue
    assert s.view(0)["players"][2]["hand_size"] == 2
    refuse(s, "draw", "M12.1")  # not Phase III: the action D was this turn's draw
    conserved(s)


def test_empty_deck_reshuffles_discard_when_drawing_M12_2_R51() -> None:
    b = action("r@2,0").empty_deck()
    s = b.state()
    discard = s.to_position()["discard"]
    assert sum(discard.values()) == 17  # Red holds the 18th card
    s.apply("draw")
    outcomes = dict(s.chance_outcomes())
    assert abs(outcomes["card endurance"] - 3 / 17) < 1e-12
    s.apply("card endurance")
    pos = s.to_position()
    assert pos["discard"] == {}
    assert pos["deck_size"] == 16
    conserved(s)


def test_no_card_to_draw_M12_2() -> None:
    b = action("r@2,0", "r@2,0").empty_deck()
    b.pos["players"][1]["hand"] = dict(b.pos["discard"])  # every card in Yellow's hand
    b.pos["players"][1]["hand_size"] = 18
    b.pos["discard"] = {}
    s = b.state()
    conserved(s)
    assert "draw" not in s.legal_actions()
    refuse(s, "draw", "M12.2")


@pytest.mark.parametrize(
    ("first", "others"),
    [
        ("hut 2,0 rw@2,0 r@2,0", ("holy", "grow")),
        ("holy 3,0 rs@3,0 r@3,0", ("hut", "grow")),
        ("grow 1,0 r1 r@1,0 r@1,0", ("hut", "holy")),
    ],
)
def test_chosen_action_excludes_the_other_kinds_M8_1(first: str, others: tuple[str, str]) -> None:
    b = action("rw@2,0", "r@2,0", "rs@3,0", "r@3,0", "r@1,0", "r@1,0").tile(3, 0, "plains")
    s = b.state()
    kinds = {a.split(" ")[0] for a in s.legal_actions()}
    assert {"hut", "holy", "grow", "draw", "pass"} <= kinds
    s.apply(first)
    if first.startswith("hut"):
        s.apply("offer 2")
    kinds = {a.split(" ")[0] for a in s.legal_actions()}
    assert not kinds & {*others, "draw", "pass"}
    assert "stop" in kinds


def test_group_tribes_may_be_named_in_either_order_D17_D20() -> None:
    b = action("rw@2,0", "r@2,0").tile(3, 0, "plains").hut("r", 2, 3, 0)
    pub = b.offering("r", 6)
    b.tribes(f"ro{pub}@3,0", "r@3,0")
    s = b.state()
    s.apply("hut 2,0 r@2,0 rw@2,0")  # the wood carrier named second
    s.apply("offer 7")
    assert len(huts_on(s, P)) == 1
    s = b.state()
    s.apply(f"grow 3,0 r2 ro{pub}@3,0 r@3,0")
    assert mine(s, "red")["tribes_in_supply"] == 3
