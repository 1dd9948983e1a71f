"""Phase I movement (M2), carrying (M3), stealing (M4) and the temple (M5)."""

from __future__ import annotations

import pytest
from meso_helpers import (
    FOREST0,
    PLAINS_B,
    QUARRY0,
    TEMPLE,
    Board,
    conserved,
    loose,
    mine,
    refuse,
    tribes,
)

import ziggurat


def red_on_forest(*extra: str, mp: int = 5, **options) -> Board:
    """Red's Phase I; the map holds only the tribes given; loose wood/stone are set by callers."""
    b = Board(**options).clear_tribes().clear_loose().turn("r", mp=mp)
    b.tribes(*extra)
    return b


# --- M2 movement points and steps ------------------------------------------------------
def test_a_step_costs_one_mp_M2_2() -> None:
    s = red_on_forest("r@1,0", mp=2).state()
    s.apply("move r@1,0 1,-1")
    assert tribes(s, "red") == ["r@1,-1"]
    assert s.to_position()["mp"] == 1
    conserved(s)


def test_no_step_without_movement_points_M2_1() -> None:
    s = red_on_forest("r@1,0", "rw@1,0", mp=1).state()
    s.apply("move r@1,0 1,-1")
    assert not [a for a in s.legal_actions() if a.startswith("move")]
    refuse(s, "move r@1,-1 1,0", "M2.1")
    assert s.to_position()["phase"] == "movement"  # the drop keeps Phase I open


def test_step_goes_to_an_adjacent_hex_M2_2() -> None:
    s = red_on_forest("r@1,0").state()
    refuse(s, "move r@1,0 -1,0", "M2.2")


def test_steps_spread_and_interleaved_over_tribes_M2_3_R16() -> None:
    s = red_on_forest("r@1,0", "r@1,-1").state()
    s.apply("move r@1,0 0,0")  # tribe A
    s.apply("move r@1,-1 1,0")  # tribe B in between
    s.apply("move r@0,0 -1,0")  # tribe A again, on through the temple
    assert tribes(s, "red") == ["r@-1,0", "r@1,0"]
    assert s.to_position()["mp"] == 2


def test_never_enter_a_volcano_M2_4() -> None:
    s = red_on_forest("r@1,0").state()
    assert "move r@1,0 0,1" not in s.legal_actions()
    refuse(s, "move r@1,0 0,1", "M2.4")


def test_opposing_tribes_never_block_M2_6() -> None:
    b = red_on_forest("r@1,0")
    b.tribes(*["b@1,-1"] * 5, *["g@1,-1"] * 3)
    s = b.state()
    s.apply("move r@1,0 1,-1")
    assert tribes(s, "red") == ["r@1,-1"]


def test_end_of_phase_one_loses_unused_mp_M2_7() -> None:
    s = red_on_forest("r@1,0", "g@1,-1", mp=4).state()
    s.apply("end")
    pos = s.to_position()
    assert pos["phase"] == "action"
    assert pos["mp"] == 0
    refuse(s, "move r@1,0 1,-1", "M1.2")
    s.apply("pass")  # income and end of turn are forced: Green's turn starts
    assert s.current_player() == 3
    assert s.to_position()["mp"] == 5  # nothing carried over (M2.1)


def test_free_actions_before_between_after_steps_M2_8_R15() -> None:
    b = red_on_forest("r@-1,0", "r@-1,0", mp=1).loose(-1, 0, wood=2)
    s = b.state()
    s.apply("pickup r@-1,0 wood")  # before any step, by a tribe that never moves
    s.apply("move r@-1,0 -1,1")  # the other tribe uses the last MP
    assert s.to_position()["mp"] == 0
    s.apply("drop rw@-1,0")  # after the steps, still free
    s.apply("pickup r@-1,0 wood")
    assert tribes(s, "red") == ["r@-1,1", "rw@-1,0"]
    assert loose(s, FOREST0) == (1, 0)
    conserved(s)


def test_tribes_in_the_personal_supply_cannot_act_M2_9() -> None:
    s = red_on_forest().state()
    assert mine(s, "red")["tribes_in_supply"] == 8
    assert list(s.legal_actions()) == ["end"]


# --- M3 carrying ----------------------------------------------------------------------
def test_pick_up_takes_a_loose_resource_not_from_supply_M3_2() -> None:
    s = red_on_forest("r@-1,1").loose(-1, 1, stone=2).state()
    supply = s.to_position()["supply"]["stone"]
    s.apply("pickup r@-1,1 stone")
    assert tribes(s, "red") == ["rs@-1,1"]
    assert loose(s, QUARRY0) == (0, 1)
    assert s.to_position()["supply"]["stone"] == supply
    assert s.to_position()["mp"] == 5  # free (M2.8)
    conserved(s)


def test_pick_up_needs_loose_resource_on_the_tile_M3_2() -> None:
    s = red_on_forest("r@-1,1").loose(-1, 1, stone=2).state()
    refuse(s, "pickup r@-1,1 wood", "M3.2")


def test_carry_at_most_one_item_M3_1() -> None:
    s = red_on_forest("rw@-1,0").loose(-1, 0, wood=2).state()
    refuse(s, "pickup rw@-1,0 wood", "M3.1")


def test_drop_leaves_resource_for_anyone_M3_3() -> None:
    s = red_on_forest("rw@1,0").state()
    s.apply("drop rw@1,0")
    assert tribes(s, "red") == ["r@1,0"]
    assert loose(s, PLAINS_B) == (1, 0)
    conserved(s)


def test_nothing_dropped_on_the_temple_M3_3_R18() -> None:
    # Only reachable when stones are not donated on entry (option of M5.4).
    b = red_on_forest("rs@1,0", stone_donated_on_temple_entry=False)
    s = b.state()
    s.apply("move rs@1,0 0,0")
    assert tribes(s, "red") == ["rs@0,0"]
    assert "drop rs@0,0" not in s.legal_actions()
    refuse(s, "drop rs@0,0", "M3.3")
    assert loose(s, TEMPLE) == (0, 0)


def test_drop_on_temple_allowed_by_option_M3_3() -> None:
    b = red_on_forest("rs@1,0", stone_donated_on_temple_entry=False, drop_on_temple_allowed=True)
    s = b.state()
    s.apply("move rs@1,0 0,0")
    s.apply("drop rs@0,0")
    assert loose(s, TEMPLE) == (0, 1)


def test_exchange_is_one_free_action_M3_4() -> None:
    s = red_on_forest("rw@-1,1").loose(-1, 1, stone=1).state()
    s.apply("exchange rw@-1,1 stone")
    assert tribes(s, "red") == ["rs@-1,1"]
    assert loose(s, QUARRY0) == (1, 0)
    assert s.to_position()["mp"] == 5
    conserved(s)


def test_exchange_needs_a_different_loose_resource_M3_4() -> None:
    s = red_on_forest("rw@-1,0").loose(-1, 0, wood=1).state()
    refuse(s, "exchange rw@-1,0 stone", "M3.4")
    refuse(s, "exchange rw@-1,0 wood", "M3.4")


def test_hand_off_between_own_tribes_M3_5_R17() -> None:
    s = red_on_forest("rw@1,0", "r@1,0").state()
    s.apply("handoff rw@1,0 r@1,0")
    assert tribes(s, "red") == ["r@1,0", "rw@1,0"]
    assert loose(s, PLAINS_B) == (0, 0)
    assert s.to_position()["mp"] == 5


def test_hand_off_needs_an_empty_own_receiver_M3_5() -> None:
    b = red_on_forest("rw@1,0", "rs@1,0", "b@1,0")
    s = b.state()
    refuse(s, "handoff rw@1,0 rs@1,0", "M3.1")
    refuse(s, "handoff rw@1,0 b@1,0", "M3.5")


def test_hand_off_disabled_by_option_M3_5() -> None:
    s = red_on_forest("rw@1,0", "r@1,0", hand_off_between_own_tribes=False).state()
    refuse(s, "handoff rw@1,0 r@1,0", "M3.5")
    # a drop and a pickup still do the same job
    s.apply("drop rw@1,0")
    s.apply("pickup r@1,0 wood")
    assert tribes(s, "red") == ["r@1,0", "rw@1,0"]


def test_cargo_travels_with_the_tribe_M3_6() -> None:
    s = red_on_forest("rw@1,0").state()
    s.apply("move rw@1,0 1,-1")
    assert tribes(s, "red") == ["rw@1,-1"]
    assert loose(s, PLAINS_B) == (0, 0)


def test_offering_carrier_carries_nothing_else_M3_7() -> None:
    b = red_on_forest("r@-1,0").loose(-1, 0, wood=1)
    pub = b.offering("r", 4)
    b.tribes(f"ro{pub}@-1,0", "rw@-1,0")
    s = b.state()
    refuse(s, f"pickup ro{pub}@-1,0 wood", "M3.7")
    refuse(s, f"handoff rw@-1,0 ro{pub}@-1,0", "M3.7")


def test_resources_handled_in_phase_one_only_M3_8() -> None:
    s = red_on_forest("r@-1,0", "rw@-1,0").loose(-1, 0, wood=1).turn("r", phase="action").state()
    refuse(s, "pickup r@-1,0 wood", "M2.8")
    refuse(s, "drop rw@-1,0", "M2.8")
    refuse(s, "handoff rw@-1,0 r@-1,0", "M2.8")


def test_loose_resources_pile_up_without_limit_M3_9_R20() -> None:
    s = red_on_forest("rw@-1,0").loose(-1, 0, wood=9, stone=4).state()
    s.apply("drop rw@-1,0")
    assert loose(s, FOREST0) == (10, 4)
    conserved(s)


# --- M4 stealing ----------------------------------------------------------------------
def test_steal_moves_resource_onto_empty_own_tribe_M4_1_M4_3_D9() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "bw@-1,0").state()
    s.apply("steal bw@-1,0 r@-1,0")
    assert tribes(s, "red") == ["r@-1,0", "rw@-1,0*"]
    assert tribes(s, "blue") == ["b@-1,0"]
    assert s.to_position()["mp"] == 5  # free
    conserved(s)


def test_steal_needs_majority_tie_is_not_enough_M4_1() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "bw@-1,0", "b@-1,0").state()
    assert not [a for a in s.legal_actions() if a.startswith("steal")]
    refuse(s, "steal bw@-1,0 r@-1,0", "M4.1")


def test_majority_counted_per_opponent_R21() -> None:
    b = red_on_forest("r@-1,0", "r@-1,0", "bs@-1,0", *["g@-1,0"] * 3, "gw@-1,0")
    s = b.state()
    steals = sorted(a for a in s.legal_actions() if a.startswith("steal"))
    assert steals == ["steal bs@-1,0 r@-1,0"]  # Green's 4 neither help nor stop Red against Blue
    refuse(s, "steal gw@-1,0 r@-1,0", "M4.1")


def test_offering_carrier_counts_for_majority_M4_2_R23() -> None:
    b = red_on_forest("r@-1,0")
    pub = b.offering("r", 2)
    b.tribes(f"ro{pub}@-1,0", "bw@-1,0")
    s = b.state()
    assert "steal bw@-1,0 r@-1,0" in s.legal_actions()
    # ... but cannot receive the loot
    refuse(s, f"steal bw@-1,0 ro{pub}@-1,0", "M4.3")


def test_offering_carrier_not_counted_by_option_M4_2() -> None:
    b = red_on_forest("r@-1,0", offering_carrier_counts_for_majority=False)
    pub = b.offering("r", 2)
    b.tribes(f"ro{pub}@-1,0", "bw@-1,0")
    s = b.state()
    refuse(s, "steal bw@-1,0 r@-1,0", "M4.1")


def test_steal_receiver_must_carry_nothing_M4_3() -> None:
    s = red_on_forest("rw@-1,0", "r@-1,0", "bs@-1,0").state()
    refuse(s, "steal bs@-1,0 rw@-1,0", "M4.3")


def test_steal_on_the_same_tile_only_M4_3() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "r@1,0", "bs@1,0", "b@-1,0").state()
    refuse(s, "steal bs@1,0 r@-1,0", "M4.3")


def test_receiver_takes_loot_once_per_turn_even_after_dropping_M4_4_R22() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "r@-1,0", "bw@-1,0", "bs@-1,0").state()
    s.apply("steal bw@-1,0 r@-1,0")
    s.apply("drop rw@-1,0*")
    assert tribes(s, "red") == ["r@-1,0", "r@-1,0", "r@-1,0*"]
    refuse(s, "steal bs@-1,0 r@-1,0*", "M4.4")
    s.apply("steal bs@-1,0 r@-1,0")  # a different tribe may
    assert tribes(s, "red") == ["r@-1,0", "r@-1,0*", "rs@-1,0*"]


def test_loot_flag_survives_moving_and_clears_next_turn_M4_4() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "bw@-1,0").state()
    s.apply("steal bw@-1,0 r@-1,0")
    s.apply("move rw@-1,0* -1,1")
    assert "rw@-1,1*" in tribes(s, "red")
    s.apply("end")
    assert tribes(s, "red") == ["r@-1,0", "rw@-1,1"]


def test_steal_repeatable_by_option_M4_4() -> None:
    s = red_on_forest(
        "r@-1,0", "r@-1,0", "r@-1,0", "bw@-1,0", "bs@-1,0", tribe_steals_once_per_turn=False
    ).state()
    s.apply("steal bw@-1,0 r@-1,0")
    s.apply("drop rw@-1,0")
    s.apply("steal bs@-1,0 r@-1,0")
    assert sorted(tribes(s, "red")) == ["r@-1,0", "r@-1,0", "rs@-1,0"]


def test_majority_checked_at_each_steal_M4_5() -> None:
    s = red_on_forest("r@-1,0", "r@-1,0", "r@-1,0", "bw@-1,0", "bs@-1,0").state()
    s.apply("steal bw@-1,0 r@-1,0")
    s.apply("move rw@-1,0* -1,1")  # the looter may go on moving
    refuse(s, "steal bs@-1,0 r@-1,0", "M4.1")  # 2 against 2 now


def test_steal_set_up_by_stepping_in_M4_5() -> None:
    s = red_on_forest("r@-1,0", "r@-1,1", "bw@-1,0").state()
    refuse(s, "steal bw@-1,0 r@-1,0", "M4.1")  # 1 against 1
    s.apply("move r@-1,1 -1,0")
    s.apply("steal bw@-1,0 r@-1,0")
    assert "rw@-1,0*" in tribes(s, "red")


def test_offerings_are_never_stolen_M4_6() -> None:
    b = red_on_forest("r@-1,0", "r@-1,0")
    pub = b.offering("b", 7)
    b.tribes(f"bo{pub}@-1,0")
    s = b.state()
    refuse(s, f"steal bo{pub}@-1,0 r@-1,0", "M4.6")


def test_loose_resources_are_picked_up_not_stolen_M4_6() -> None:
    s = red_on_forest("r@-1,0", *["b@-1,0"] * 3).loose(-1, 0, wood=1).state()
    s.apply("pickup r@-1,0 wood")  # no majority needed
    assert tribes(s, "red") == ["rw@-1,0"]


def test_no_steals_in_phase_two_or_three_M4_7_R24() -> None:
    b = red_on_forest("r@-1,0", "r@-1,0", "bw@-1,0").turn("r", phase="action")
    s = b.state()
    refuse(s, "steal bw@-1,0 r@-1,0", "R24")
    s = b.turn("r", phase="mana").state()
    refuse(s, "steal bw@-1,0 r@-1,0", "R24")


# --- M5 the temple --------------------------------------------------------------------
def test_empty_tribe_enters_stays_and_passes_through_temple_M5_2() -> None:
    s = red_on_forest("r@1,0", "r@1,-1").state()
    s.apply("move r@1,0 0,0")
    s.apply("move r@0,0 -1,1")  # through
    s.apply("move r@1,-1 0,0")  # and this one stays
    assert tribes(s, "red") == ["r@-1,1", "r@0,0"]


def test_any_number_of_tribes_on_temple_M5_1() -> None:
    b = red_on_forest("r@1,0", "r@1,0", *["b@0,0"] * 8, *["g@0,0"] * 8)
    s = b.state()
    s.apply("move r@1,0 0,0")
    s.apply("move r@1,0 0,0")
    assert tribes(s, "red") == ["r@0,0", "r@0,0"]


def test_temple_tribe_limit_option_M5_1() -> None:
    s = red_on_forest("r@1,0", "b@0,0", temple_tribe_limit=1).state()
    refuse(s, "move r@1,0 0,0", "M5.1")


def test_wood_carrier_may_not_enter_temple_M5_3_M2_5_R25() -> None:
    s = red_on_forest("rw@-1,0").state()
    assert "move rw@-1,0 0,0" not in s.legal_actions()
    refuse(s, "move rw@-1,0 0,0", "M5.3")


def test_wood_carrier_enters_by_option_M5_3() -> None:
    s = red_on_forest("rw@-1,0", wood_carrier_may_enter_temple=True).state()
    s.apply("move rw@-1,0 0,0")
    assert tribes(s, "red") == ["rw@0,0"]


def test_stone_donated_on_entry_and_tribe_carries_on_M5_4_M5_5() -> None:
    s = red_on_forest("rs@-1,1").mana("r", 1, 3).state()
    s.apply("move rs@-1,1 0,0")
    red = mine(s, "red")
    assert (red["limit"], red["mana"]) == (4, 2)
    assert tribes(s, "red") == ["r@0,0"]
    pos = s.to_position()
    assert pos["supply"]["stones_removed"] == 1
    s.apply("move r@0,0 1,0")  # now empty, it may go on
    assert tribes(s, "red") == ["r@1,0"]
    conserved(s)


def test_stone_kept_on_temple_by_option_M5_4() -> None:
    s = red_on_forest("rs@-1,1", stone_donated_on_temple_entry=False).state()
    s.apply("move rs@-1,1 0,0")
    assert tribes(s, "red") == ["rs@0,0"]
    assert mine(s, "red")["limit"] == 3
    s.apply("donate rs@0,0")
    assert tribes(s, "red") == ["r@0,0"]
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (4, 1)


@pytest.mark.parametrize(
    ("before", "after"),
    [((3, 3), (4, 4)), ((5, 1), (6, 2)), ((8, 6), (8, 7)), ((8, 8), (8, 8)), ((3, 0), (4, 1))],
)
def test_donation_at_the_ends_of_the_scale_M5_5_R27(before: tuple[int, int], after: tuple[int, int]) -> None:
    limit, mana = before
    s = red_on_forest("rs@-1,1").mana("r", mana, limit).state()
    s.apply("move rs@-1,1 0,0")  # legal even when nothing can rise (R27)
    red = mine(s, "red")
    assert (red["limit"], red["mana"]) == after
    assert s.to_position()["supply"]["stones_removed"] == 1  # the stone leaves the game
    conserved(s)


def test_no_loose_resources_on_the_temple_M5_7() -> None:
    s = red_on_forest("rs@-1,1", "r@1,0").state()
    s.apply("move rs@-1,1 0,0")
    s.apply("move r@1,0 0,0")
    assert loose(s, TEMPLE) == (0, 0)
    assert not [a for a in s.legal_actions() if a.startswith(("pickup", "drop"))]


def test_opponents_tribes_cannot_be_moved_M1_3() -> None:
    s = red_on_forest("r@1,0", "b@1,0").state()
    refuse(s, "move b@1,0 1,-1", "M1.3")


def test_other_seat_cannot_act_M1_3() -> None:
    s = red_on_forest("r@1,0", "b@1,0").state()
    before = s.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn, match="M1.3"):
        s.apply("end", seat=0)
    assert s.fingerprint() == before
    s.apply("end", seat=2)
    assert s.to_position()["phase"] == "action"
