"""Cards: general rules (M14, R49-R56) and the eight effects with their windows and targets (M15)."""

from __future__ import annotations

import pytest
from meso_helpers import Board, conserved, huts_on, loose, mine, refuse, tribes

import ziggurat


def red(
    *cards: str, phase: str = "movement", specs: tuple[str, ...] = ("r@1,0", "rw@1,0"), **options
) -> Board:
    """Red's turn in ``phase`` holding ``cards`` from an earlier turn; only ``specs`` on the map.

    The default tribes keep a free action open in Phase I (the wood carrier may drop), so
    the engine never ends Red's phase on its own.
    """
    b = Board(**options).clear_tribes().turn("r", phase=phase).tribes(*specs)
    return b.hand("r", *cards)


def discard(state) -> dict[str, int]:
    return state.to_position()["discard"]


# --- M14 general -----------------------------------------------------------------------
def test_card_goes_face_up_to_discard_M14_3() -> None:
    s = red("holy_stone").state()
    s.apply("play holy_stone")
    assert discard(s) == {"holy_stone": 1}
    assert mine(s, "red")["hand"] == {}
    assert s.view(0)["discard"] == {"holy_stone": 1}  # public
    conserved(s)


def test_no_hand_limit_and_many_cards_per_turn_M14_1_M14_2() -> None:
    cards = ["holy_stone", "holy_stone", "endurance", "endurance", "endurance", "land", "land", "priest"]
    s = red(*cards).state()
    assert mine(s, "red")["hand_size"] == 8
    s.apply("play holy_stone")
    s.apply("play holy_stone")
    s.apply("play endurance")
    s.apply("play endurance")
    assert s.to_position()["mp"] == 5 + 6
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (5, 2)


def test_card_drawn_this_turn_cannot_be_played_M12_3_M14_2() -> None:
    b = red(phase="mana")
    b.hand("r", "holy_stone", new=True)
    s = b.state()
    assert "play holy_stone" not in s.legal_actions()
    refuse(s, "play holy_stone", "M12.3")


def test_card_drawn_last_turn_is_playable_now_M14_2() -> None:
    b = red("land", phase="action", specs=("r@1,0", "r@1,0"))
    s = b.state()
    s.apply("draw")
    s.apply("card holy_stone")  # Phase III now; the new card waits
    assert "play holy_stone" not in s.legal_actions()
    s.apply("income")
    s.apply("end")
    for _ in range(3):  # Green, Blue, Yellow have nothing on the map: Phase I ends by itself
        s.apply("pass")
    assert s.current_player() == 2
    assert s.to_position()["round"] == 3
    assert "play holy_stone" in s.legal_actions()


def test_cards_only_in_own_turn_M14_2_M1_3_R50() -> None:
    s = red("holy_stone").state()
    before = s.fingerprint()
    with pytest.raises(ziggurat.NotYourTurn, match="M1.3"):
        s.apply("play holy_stone", seat=0)
    assert s.fingerprint() == before


def test_card_not_held_is_refused_M14_2() -> None:
    s = red().state()
    refuse(s, "play holy_stone", "M14.2")


def test_playing_a_card_does_not_use_up_the_action_M14_5() -> None:
    s = red("holy_stone", phase="action", specs=("rw@2,0", "r@2,0")).tile(2, 0, "plains").state()
    s.apply("play holy_stone")
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 7")
    assert len(huts_on(s, (2, 0))) == 1


def test_card_without_target_cannot_be_played_M14_4_R56() -> None:
    s = red("mana_theft").state()  # every opponent has 0 Mana
    assert "play mana_theft b" not in s.legal_actions()
    refuse(s, "play mana_theft b", "R56")


# --- M15.1 Endurance -------------------------------------------------------------------
def test_endurance_adds_three_mp_M15_1() -> None:
    b = red("endurance")
    b.pos["mp"] = 2
    s = b.state()
    s.apply("play endurance")
    assert s.to_position()["mp"] == 5


def test_endurance_even_at_zero_mp_M15_1_R56() -> None:
    b = red("endurance")
    b.pos["mp"] = 0
    s = b.state()
    s.apply("play endurance")
    assert s.to_position()["mp"] == 3
    s.apply("move r@1,0 1,-1")
    assert "r@1,-1" in tribes(s, "red")


def test_endurance_in_phase_one_only_M15_1_R49() -> None:
    for phase in ("action", "mana"):
        s = red("endurance", "holy_stone", phase=phase).state()
        assert "play endurance" not in s.legal_actions()
        refuse(s, "play endurance", "M15.1")


def test_endurance_bonus_option_M15_1() -> None:
    s = red("endurance", endurance_bonus_mp=1).state()
    s.apply("play endurance")
    assert s.to_position()["mp"] == 6


# --- M15.2 Priest ----------------------------------------------------------------------
def priest_board(*cards: str) -> Board:
    """Red's Phase III; a Holy Stone keeps Red's decisions open after income (§7)."""
    b = red(*cards, "holy_stone", phase="mana", specs=("r@2,0", "r@3,0", "r@3,0", "r@2,1"))
    b.tile(2, 0, "plains").tile(3, 0, "plains").tile(2, 1, "plains").mana("r", 0, 8)
    return b.holy("r", 2, 0).holy("b", 3, 0).holy("g", 2, 1)  # paying: 2,0 and 3,0


def test_priest_targets_only_paying_holy_places_M15_2() -> None:
    s = priest_board("priest").state()
    plays = sorted(a for a in s.legal_actions() if a.startswith("play priest"))
    assert plays == ["play priest 2,0", "play priest 3,0"]
    refuse(s, "play priest 2,1", "M15.2")  # Green's, with one Red tribe: pays nothing


def test_priest_adds_one_and_stacks_M15_2_M13_4() -> None:
    s = priest_board("priest", "priest", "priest").state()
    s.apply("play priest 2,0")
    s.apply("play priest 2,0")  # several on the same holy place
    s.apply("play priest 3,0")
    s.apply("income")
    assert mine(s, "red")["mana"] == 2 + 3
    assert discard(s) == {"priest": 3}


def test_priest_before_income_only_M15_2_R49() -> None:
    s = priest_board("priest").state()
    s.apply("income")
    assert not [a for a in s.legal_actions() if a.startswith("play priest")]
    refuse(s, "play priest 2,0", "M15.2")


def test_priest_not_in_phase_one_or_two_R49() -> None:
    for phase in ("movement", "action"):
        s = priest_board("priest").turn("r", phase=phase).state()
        refuse(s, "play priest 2,0", "M15.2")


def test_priest_bonus_still_capped_by_limit_M15_2_M13_7() -> None:
    s = priest_board("priest").mana("r", 2, 4).state()
    s.apply("play priest 2,0")
    s.apply("income")
    assert mine(s, "red")["mana"] == 4


# --- M15.3 Fertility -------------------------------------------------------------------
def fertility_board(*cards: str, supply: int = 4, **options) -> Board:
    """Red's Phase II: 4 Red tribes and 2 Red huts on 2,0; ``supply`` tribes left (others on 1,0)."""
    b = red(*cards, "holy_stone", phase="action", specs=("r@2,0", "r@2,0", "r@2,0", "r@2,0"), **options)
    b.tile(2, 0, "plains").hut("r", 2, 2, 0).hut("r", 3, 2, 0)
    return b.supply_tribes("r", supply, park=(1, 0))


def on_p(state) -> int:
    return sum(1 for t in tribes(state, "red") if t.startswith("r@2,0"))


def test_fertility_places_one_extra_tribe_M15_3() -> None:
    s = fertility_board("fertility").state()
    assert "grow 2,0 r2 r@2,0 r@2,0 fertility" in s.legal_actions()
    s.apply("grow 2,0 r2 r@2,0 r@2,0 fertility")
    assert on_p(s) == 6  # two newcomers
    assert mine(s, "red")["tribes_in_supply"] == 2
    assert discard(s) == {"fertility": 1}
    conserved(s)


def test_fertility_at_most_one_per_growth_R52() -> None:
    s = fertility_board("fertility", "fertility").state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0 fertility")
    s.apply("grow 2,0 r3 r@2,0 r@2,0 fertility")  # the second card on the second growth
    assert on_p(s) == 8
    assert mine(s, "red")["tribes_in_supply"] == 0
    assert discard(s) == {"fertility": 2}


def test_fertility_limited_by_personal_supply_M15_3() -> None:
    s = fertility_board("fertility", supply=1).state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0 fertility")
    assert mine(s, "red")["tribes_in_supply"] == 0
    assert on_p(s) == 5
    assert discard(s) == {"fertility": 1}


def test_fertility_only_with_a_growth_M15_3_R49() -> None:
    # Fertility has no play of its own: it is named on a growth, 'grow ... fertility'.
    s = fertility_board("fertility").state()
    refuse(s, "play fertility", "M15.3", exc=ziggurat.InvalidAction)
    refuse(s, "holy 2,0 r@2,0 r@2,0 fertility", exc=ziggurat.InvalidAction)
    s.apply("grow 2,0 r2 r@2,0 r@2,0")  # a growth without it leaves the card in hand
    assert mine(s, "red")["hand"] == {"fertility": 1, "holy_stone": 1}


def test_fertility_drawn_this_turn_cannot_be_used_M12_3() -> None:
    b = fertility_board()
    b.hand("r", "fertility", new=True)
    s = b.state()
    assert "grow 2,0 r2 r@2,0 r@2,0 fertility" not in s.legal_actions()
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0 fertility", "M12.3")


def test_fertility_extra_tribes_option_M15_3() -> None:
    s = fertility_board("fertility", fertility_extra_tribes=2).state()
    s.apply("grow 2,0 r2 r@2,0 r@2,0 fertility")
    assert mine(s, "red")["tribes_in_supply"] == 1


# --- M15.4 Holy Stone ------------------------------------------------------------------
@pytest.mark.parametrize("phase", ["movement", "action", "mana"])
def test_holy_stone_any_time_acts_as_a_donation_M15_4(phase: str) -> None:
    s = red("holy_stone", phase=phase).mana("r", 2, 5).state()
    stone = s.to_position()["supply"]
    s.apply("play holy_stone")
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (6, 3)
    assert s.to_position()["supply"] == stone  # no stone taken or removed


def test_holy_stone_at_the_top_of_the_scale_R56_R27() -> None:
    s = red("holy_stone").mana("r", 8, 8).state()
    s.apply("play holy_stone")
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (8, 8)


def test_holy_stone_effect_option_M15_4() -> None:
    s = red("holy_stone", holy_stone_effect={"limit_gain": 2, "mana_gain": 0}).mana("r", 1, 3).state()
    s.apply("play holy_stone")
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (5, 1)


# --- M15.5 Land ------------------------------------------------------------------------
def test_land_peeks_top_three_and_reorders_M15_5() -> None:
    s = red("land", specs=("r@1,-1", "rw@1,-1")).state()
    s.apply("play land 2")
    assert s.current_player() == ziggurat.CHANCE
    s.apply("peek plains")
    s.apply("peek volcano")
    s.apply("peek forest")
    assert s.current_player() == 2
    orders = list(s.legal_actions())
    assert len(orders) == 6 and "order forest,plains,volcano" in orders  # D26
    s.apply("order forest,plains,volcano")
    top = s.to_position()["piles"][1]["top"]
    assert top == [["forest", ["red"]], ["plains", ["red"]], ["volcano", ["red"]]]
    # the next draw from pile 2 is that forest: a certain outcome, applied by the engine
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 2")
    assert [e[1] for e in s.events()][-1] == "tile forest"
    assert [2, -1, "forest"] in s.to_position()["tiles"]
    assert loose(s, (2, -1)) == (3, 0)
    assert s.to_position()["piles"][1]["top"] == [["plains", ["red"]], ["volcano", ["red"]]]


def test_land_on_a_short_pile_sees_all_of_it_M15_5() -> None:
    b = red("land")
    b.pos["piles"][0]["size"] = 2  # the other 10 tiles of pile 1 move to pile 2
    b.pos["piles"][1]["size"] += 10
    s = b.state()
    conserved(s)
    s.apply("play land 1")
    s.apply("peek quarry")
    s.apply("peek quarry")
    # same kinds: one order only, still asked, or everyone would learn the tiles are alike (R58)
    assert s.legal_actions() == ["order quarry,quarry"]
    s.apply("order quarry,quarry")
    assert s.to_position()["pending"] is None
    assert s.to_position()["piles"][0]["top"] == [["quarry", ["red"]], ["quarry", ["red"]]]


def test_land_needs_a_non_empty_pile_M15_5() -> None:
    b = red("land")
    b.pos["piles"][2]["size"] = 0
    s = b.state()
    assert "play land 3" not in s.legal_actions()
    refuse(s, "play land 3", "M15.5")


def test_land_peek_count_and_no_reorder_options_M15_5() -> None:
    s = red("land", land_peek_count=2, land_may_reorder=False).state()
    s.apply("play land 1")
    s.apply("peek plains")
    s.apply("peek volcano")
    assert s.to_position()["pending"] is None
    assert s.to_position()["piles"][0]["top"] == [["plains", ["red"]], ["volcano", ["red"]]]


# --- M15.6 Mana Theft -----------------------------------------------------------------
def test_mana_theft_takes_two_M15_6_D27() -> None:
    s = red("mana_theft").mana("b", 5).mana("r", 1, 5).state()
    s.apply("play mana_theft b")
    assert mine(s, "blue")["mana"] == 3
    assert mine(s, "red")["mana"] == 3


def test_mana_theft_takes_what_there_is_and_gain_is_capped_M15_6() -> None:
    s = red("mana_theft").mana("g", 1).mana("r", 3, 3).state()
    s.apply("play mana_theft g")
    assert mine(s, "green")["mana"] == 0
    assert mine(s, "red")["mana"] == 3  # the excess is lost


def test_mana_theft_targets_an_opponent_M15_6() -> None:
    s = red("mana_theft").mana("r", 4, 5).mana("b", 2).state()
    refuse(s, "play mana_theft r", "M15.6")


def test_mana_theft_amount_option_M15_6() -> None:
    s = red("mana_theft", mana_theft_amount=3).mana("b", 5).mana("r", 0, 8).state()
    s.apply("play mana_theft b")
    assert (mine(s, "blue")["mana"], mine(s, "red")["mana"]) == (2, 3)


# --- M15.7 Teleport -------------------------------------------------------------------
def test_teleport_any_tribe_with_cargo_free_M15_7_D28() -> None:
    s = red("teleport", specs=("r@1,0", "rw@1,0", "bs@1,-1")).state()
    s.apply("play teleport bs@1,-1")
    dests = sorted(s.legal_actions())
    assert "to 0,0" not in dests  # a loaded opponent cannot be sent to the temple (R54)
    assert "to 0,1" not in dests and "to 0,-1" not in dests  # no volcano
    assert "to 1,-1" not in dests  # another tile
    s.apply("to -1,0")
    assert tribes(s, "blue") == ["bs@-1,0"]
    assert s.to_position()["mp"] == 5
    conserved(s)


def test_teleport_destination_refusals_M15_7() -> None:
    s = red("teleport", specs=("r@1,0", "rw@1,0", "bs@1,-1")).state()
    s.apply("play teleport bs@1,-1")
    refuse(s, "to 0,1", "M15.7")  # volcano
    refuse(s, "to 0,0", "R54")  # loaded opponent to the temple
    refuse(s, "to 1,-1", "M15.7")  # where it already is
    refuse(s, "to 5,5", "M7.9")  # never onto empty space


def test_teleport_empty_opponent_onto_temple_R54() -> None:
    s = red("teleport", specs=("r@1,0", "rw@1,0", "b@1,-1")).state()
    s.apply("play teleport b@1,-1")
    s.apply("to 0,0")
    assert tribes(s, "blue") == ["b@0,0"]


def test_teleport_loaded_opponent_onto_temple_by_option_R54() -> None:
    b = red(
        "teleport", specs=("r@1,0", "rw@1,0", "bs@1,-1"), teleport_opponent_onto_temple_only_if_empty=False
    )
    s = b.state()
    s.apply("play teleport bs@1,-1")
    s.apply("to 0,0")
    assert tribes(s, "blue") == ["b@0,0"]
    assert mine(s, "blue")["limit"] == 4  # Blue's stone was donated


def test_teleport_wood_carrier_never_to_temple_M15_7() -> None:
    s = red("teleport").state()
    s.apply("play teleport rw@1,0")
    assert "to 0,0" not in s.legal_actions()
    refuse(s, "to 0,0", "M5.3")


def test_teleport_own_stone_carrier_donates_M15_7() -> None:
    s = red("teleport", specs=("r@1,0", "rw@1,0", "rs@-1,1")).mana("r", 0, 3).state()
    s.apply("play teleport rs@-1,1")
    s.apply("to 0,0")
    assert tribes(s, "red") == ["r@0,0", "r@1,0", "rw@1,0"]
    assert (mine(s, "red")["limit"], mine(s, "red")["mana"]) == (4, 1)
    assert s.to_position()["supply"]["stones_removed"] == 1


def test_teleport_offering_carrier_delivers_M15_7_M6_4() -> None:
    b = red("teleport").mana("r", 6, 6)
    pub = b.offering("r", 6)
    b.tribes(f"ro{pub}@2,0").tile(2, 0, "plains")
    s = b.state()
    s.apply(f"play teleport ro{pub}@2,0")
    s.apply("to 0,0")
    assert mine(s, "red")["offerings"]["delivered"] == [pub]
    assert mine(s, "red")["mana"] == 0


def test_teleport_failed_delivery_returns_to_origin_M15_7_R53() -> None:
    b = red("teleport", phase="mana").mana("r", 3, 6).hand("r", "holy_stone")
    pub = b.offering("r", 7)
    b.tribes(f"ro{pub}@2,0").tile(2, 0, "plains")
    s = b.state()
    s.apply(f"play teleport ro{pub}@2,0")  # Phase III: any time in own turn
    s.apply("to 0,0")
    assert f"ro{pub}@2,0" in tribes(s, "red")  # back where it was teleported from
    assert mine(s, "red")["offerings"]["revealed"] == [pub]


def test_teleport_in_phase_one_sets_up_a_steal_M15_7() -> None:
    s = red("teleport", specs=("r@1,0", "rw@1,0", "r@-1,0", "r@-1,0", "bw@-1,0", "b@-1,0")).state()
    refuse(s, "steal bw@-1,0 r@-1,0", "M4.1")
    s.apply("play teleport b@-1,0")
    s.apply("to 1,-1")
    s.apply("steal bw@-1,0 r@-1,0")
    assert "rw@-1,0*" in tribes(s, "red")


def test_teleport_in_phase_two_sets_up_no_steal_R24() -> None:
    s = red("teleport", phase="action", specs=("r@-1,0", "bw@-1,0", "b@-1,0")).state()
    s.apply("play teleport b@-1,0")
    s.apply("to 1,-1")
    refuse(s, "steal bw@-1,0 r@-1,0", "R24")


def test_teleport_forbidden_types_option_M15_7() -> None:
    b = red("teleport", specs=("r@1,0", "rw@1,0"), teleport_forbidden_destination_types=["volcano", "forest"])
    s = b.state()
    s.apply("play teleport r@1,0")
    assert "to -1,0" not in s.legal_actions()
    refuse(s, "to -1,0", "R53")


def test_teleport_never_discovers_M7_9() -> None:
    s = red("teleport").state()
    s.apply("play teleport r@1,0")
    tiles = {(q, r) for q, r, _ in s.to_position()["tiles"]}
    for a in s.legal_actions():
        q, r = (int(x) for x in a.split(" ")[1].split(","))
        assert (q, r) in tiles


# --- M15.8 Expulsion ------------------------------------------------------------------
def expulsion_board(*cards: str, **options) -> Board:
    b = red(*cards, **options).tile(2, 0, "plains").tile(3, 0, "plains").tile(2, 1, "plains")
    return b.holy("g", 2, 1)  # 2,1 cannot take a hut (R46)


def test_expulsion_moves_a_hut_with_its_offering_M15_8_R55() -> None:
    b = expulsion_board("expulsion").hut("b", 2, 2, 0, offering=6).tribes("b@2,0")
    s = b.state()
    s.apply("play expulsion b2")  # 3,0 is the only plains that can take it: applied at once
    pos = s.to_position()
    assert pos["pending"] is None
    assert ["blue", 2, 3, 0, 1] in pos["huts"]  # offering id 1 went with it
    assert huts_on(s, (2, 0)) == []
    assert tribes(s, "blue") == ["b@2,0"]  # tribes stay
    conserved(s)


def test_expulsion_destinations_M15_8_R46_D29() -> None:
    b = expulsion_board("expulsion").hut("b", 2, 2, 0).tile(3, -1, "plains").hut("g", 2, 3, -1)
    s = b.state()
    s.apply("play expulsion b2")
    assert sorted(s.legal_actions()) == ["to 3,-1", "to 3,0"]
    refuse(s, "to 2,0", "M15.8")  # a different plains
    refuse(s, "to 2,1", "R46")  # holy place
    refuse(s, "to 1,0", "M15.8")  # 2 huts already (Yellow's and Red's start huts)
    refuse(s, "to -1,0", "M15.8")  # not a plains
    s.apply("to 3,-1")
    assert len(huts_on(s, (3, -1))) == 2


@pytest.mark.parametrize("target", ["r1", "y1", "n1"])
def test_expulsion_any_hut_own_opposing_neutral_M15_8_R10(target: str) -> None:
    b = expulsion_board("expulsion")
    b.pos["huts"].append(["neutral", 1, 2, 0, 0])
    s = b.state()
    assert f"play expulsion {target}" in s.legal_actions()


def test_expulsion_own_huts_only_by_option_M15_8() -> None:
    b = expulsion_board("expulsion", expulsion_target_huts="own")
    b.pos["huts"].append(["neutral", 1, 2, 0, 0])
    s = b.state()
    plays = sorted(a for a in s.legal_actions() if a.startswith("play expulsion"))
    assert plays == ["play expulsion n1", "play expulsion r1"]
    refuse(s, "play expulsion y1", "R55")


def test_expulsion_neutral_hut_fixed_by_option_R10() -> None:
    b = expulsion_board("expulsion", neutral_hut_movable_by_expulsion=False)
    b.pos["huts"].append(["neutral", 1, 2, 0, 0])
    s = b.state()
    refuse(s, "play expulsion n1", "M15.8")


def test_expulsion_offering_returns_to_supply_by_option_M15_8() -> None:
    b = expulsion_board("expulsion", expulsion_moves_offering=False).hut("b", 2, 2, 0, offering=6)
    s = b.state()
    s.apply("play expulsion b2")
    assert ["blue", 2, 3, 0, 0] in s.to_position()["huts"]
    assert mine(s, "blue")["offerings"]["unplaced"] == [2, 4, 6, 7]
    conserved(s)


def test_expulsion_needs_a_destination_R56() -> None:
    b = red("expulsion")  # only the two full start plains exist
    s = b.state()
    assert not [a for a in s.legal_actions() if a.startswith("play expulsion")]
    refuse(s, "play expulsion y1", "M15.8")


def test_expulsion_can_open_a_plains_for_a_holy_place_M15_8_M10_1() -> None:
    b = red("expulsion", phase="action", specs=("rs@2,0", "r@2,0")).tile(2, 0, "plains").tile(3, 0, "plains")
    b.hut("b", 2, 2, 0)
    s = b.state()
    refuse(s, "holy 2,0 rs@2,0 r@2,0", "M10.1")
    s.apply("play expulsion b2")  # to 3,0, the only destination
    assert huts_on(s, (3, 0)) == [["blue", 2, 3, 0, 0]]
    s.apply("holy 2,0 rs@2,0 r@2,0")
    assert s.to_position()["holy_places"] == [[2, 0, "red"]]


def test_priest_bonus_lost_if_holy_place_stops_paying_M15_2_M13_1() -> None:
    # Ruling: income is worked out once, at collection (M13.1); a Priest adds 1 to a holy
    # place that pays then. Red moves its only tribe off the priested holy place first.
    s = priest_board("priest", "teleport").state()
    s.apply("play priest 2,0")
    s.apply("play teleport r@2,0")
    s.apply("to 2,1")  # now 2 Red tribes on Green's 2,1: that one pays instead
    s.apply("income")
    assert mine(s, "red")["mana"] == 2  # 3,0 and 2,1; 2,0 pays nothing, so no Priest bonus


@pytest.mark.parametrize("phase", ["movement", "action", "mana"])
def test_any_time_cards_in_every_phase_of_own_turn_R49(phase: str) -> None:
    b = red("holy_stone", "land", "mana_theft", "teleport", "expulsion", phase=phase)
    b.tile(2, 0, "plains").mana("g", 2)
    s = b.state()
    kinds = {" ".join(a.split(" ")[:2]) for a in s.legal_actions() if a.startswith("play")}
    assert kinds == {"play holy_stone", "play land", "play mana_theft", "play teleport", "play expulsion"}
    assert "play mana_theft g" in s.legal_actions()


def test_any_time_cards_after_income_M13_8() -> None:
    s = red("land", "mana_theft", phase="mana").mana("b", 1).state()
    s.apply("income")
    assert {"play land 1", "play mana_theft b", "end"} <= set(s.legal_actions())


def test_no_card_in_the_middle_of_a_discovery_D13_D23() -> None:
    # docs/mesopotamia.md: any-time cards are played at top-level decisions only
    s = red("holy_stone", specs=("r@1,-1", "rw@1,-1")).state()
    s.apply("move r@1,-1 2,-1")
    assert s.to_position()["pending"][0] == "pile"
    refuse(s, "play holy_stone", "D13")
    s.apply("pile 1")
    s.apply("tile plains")
    assert "play holy_stone" in s.legal_actions()


def test_old_and_new_copy_of_a_card_M12_3_M14_2() -> None:
    b = red("holy_stone")
    b.hand("r", "holy_stone", new=True)
    s = b.state()
    s.apply("play holy_stone")  # the one held from before
    assert mine(s, "red")["hand"] == {"holy_stone": 1}
    refuse(s, "play holy_stone", "M12.3")


def test_cards_between_groups_M8_4() -> None:
    b = red("teleport", phase="action", specs=("rw@2,0", "r@2,0", "rw@1,0", "r@3,0"))
    s = b.tile(2, 0, "plains").tile(3, 0, "plains").state()
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 4")
    s.apply("play teleport rw@1,0")  # brings a wood carrier to the waiting tribe on 3,0
    s.apply("to 3,0")
    s.apply("hut 3,0 rw@3,0 r@3,0")
    s.apply("offer 6")
    assert len(huts_on(s, (2, 0))) == len(huts_on(s, (3, 0))) == 1
