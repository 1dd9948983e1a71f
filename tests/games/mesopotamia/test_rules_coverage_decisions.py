"""Player decisions (§7, D1-D29): each decision the spec gives a player is offered as explicit
actions with exactly the options the table lists, and its constraints are enforced.

Decisions already checked with their rules elsewhere (D2, D9, D10, D13-D15, D17, D18, D20,
D22, D23, D26-D29) are not repeated here.
"""

from __future__ import annotations

from meso_helpers import (
    FOREST0,
    PLAINS_B,
    QUARRY0,
    Board,
    conserved,
    huts_on,
    load,
    loose,
    mine,
    refuse,
    tribes,
)

import ziggurat


def of(state, verb: str) -> list[str]:
    """The legal actions of ``state`` that start with ``verb``, sorted."""
    return sorted(a for a in state.legal_actions() if a.split(" ", 1)[0] == verb)


def red_phase_one(*specs: str, mp: int = 5, discoveries: int = 0, **options) -> Board:
    """Red's Phase I with only ``specs`` on the map and no loose resources."""
    b = Board(**options).clear_tribes().clear_loose().turn("r", mp=mp, discoveries=discoveries)
    return b.tribes(*specs)


# --- D1 colour --------------------------------------------------------------------------
def test_colours_are_assigned_by_the_engine_without_a_decision_D1() -> None:
    for players in (2, 3, 4):
        s = load(players).new_initial_state()
        colours = [p["colour"] for p in s.to_position()["players"]]
        assert colours == ["blue", "yellow", "red", "green"][:players]  # seat k, k-th colour
        assert len(set(colours)) == players  # each a free colour
        # nobody is asked for a colour: the game opens on the first-player draw (S2)
        assert s.current_player() == ziggurat.CHANCE
        assert all(a.startswith("first ") for a, _ in s.chance_outcomes())


# --- D3, D4, D12 steps, ending Phase I, discoveries ---------------------------------------
def test_steps_offered_are_each_own_tribe_to_each_allowed_neighbour_D3_D12() -> None:
    # Red on Plains B (1,0): temple (0,0), Plains A (1,-1), volcano (0,1), empty 2,-1 2,0 1,1
    s = red_phase_one("r@1,0", "rw@1,0", "b@1,0").state()
    assert of(s, "move") == [
        "move r@1,0 0,0",  # an empty tribe may enter the temple (M5.2)
        "move r@1,0 1,-1",
        "move r@1,0 1,1",  # empty spaces: discoveries (D12)
        "move r@1,0 2,-1",
        "move r@1,0 2,0",
        "move rw@1,0 1,-1",  # a wood carrier may not enter the temple (M5.3)
        "move rw@1,0 1,1",
        "move rw@1,0 2,-1",
        "move rw@1,0 2,0",
    ]  # never the volcano (M2.4), never the Blue tribe (M1.3)
    refuse(s, "move r@1,0 0,1", "M2.4")
    refuse(s, "move rw@1,0 0,0", "M5.3")
    refuse(s, "move b@1,0 1,-1", "M1.3")


def test_discovery_is_a_choice_of_tribe_and_space_until_the_limit_D12_M7_7() -> None:
    s = red_phase_one("r@1,0", "r@-1,0", discoveries=2).state()
    spaces = {a.rsplit(" ", 1)[1] for a in of(s, "move")} - {"0,0", "1,-1", "-1,1"}
    assert spaces == {"1,1", "2,-1", "2,0", "-1,-1", "-2,0", "-2,1"}  # empty spaces of both tribes
    s.apply("move r@-1,0 -2,0")  # the third discovery: this tribe, this space
    s.apply("pile 3")
    s.apply("tile plains")
    assert tribes(s, "red") == ["r@-2,0", "r@1,0"]
    assert not [a for a in of(s, "move") if a.endswith(("1,1", "2,-1", "2,0"))]
    refuse(s, "move r@1,0 2,0", "M7.7")


def test_discovery_needs_a_non_empty_pile_D12_M7_8() -> None:
    b = red_phase_one("r@1,0")
    for pile in b.pos["piles"]:
        pile["size"] = 0
    b.pos["remaining_tiles"] = {kind: 0 for kind in b.pos["remaining_tiles"]}
    s = b.state()
    assert of(s, "move") == ["move r@1,0 0,0", "move r@1,0 1,-1"]
    refuse(s, "move r@1,0 2,0", "M7.8")


def test_end_of_phase_one_is_the_players_choice_at_any_moment_D4() -> None:
    s = red_phase_one("r@1,0", "rw@1,0").state()
    assert "end" in s.legal_actions()  # before any step
    s.apply("move r@1,0 1,-1")
    assert "end" in s.legal_actions()  # between steps, MP left
    assert s.to_position()["phase"] == "movement"  # the engine does not end it on its own
    s.apply("end")
    pos = s.to_position()
    assert (pos["phase"], pos["mp"]) == ("action", 0)  # leftover MP are lost (M2.7)


# --- D5-D8 carrying -----------------------------------------------------------------------
def test_pick_up_chooses_tribe_and_resource_D5_M3_2() -> None:
    s = red_phase_one("r@-1,0", "rs@-1,0").loose(*FOREST0, wood=2, stone=1).state()
    assert of(s, "pickup") == ["pickup r@-1,0 stone", "pickup r@-1,0 wood"]  # the empty tribe only
    refuse(s, "pickup rs@-1,0 wood", "M3.1")
    s.apply("pickup r@-1,0 stone")
    assert tribes(s, "red") == ["rs@-1,0", "rs@-1,0"]
    assert loose(s, FOREST0) == (2, 0)
    conserved(s)


def test_drop_is_offered_for_each_carrier_but_not_on_the_temple_D6_M3_3() -> None:
    s = red_phase_one("rw@1,0", "rs@0,0", "r@1,0").state()
    assert of(s, "drop") == ["drop rw@1,0"]  # the stone carrier stands on the temple
    refuse(s, "drop rs@0,0", "M3.3")
    refuse(s, "drop r@1,0", "M3.3")  # carries nothing
    refuse(s, "exchange r@1,0 wood", "M3.4")
    refuse(s, "handoff r@1,0 rw@1,0", "M3.5")
    s.apply("drop rw@1,0")
    assert loose(s, PLAINS_B) == (1, 0)
    conserved(s)


def test_exchange_chooses_tribe_and_loose_type_D7_M3_4() -> None:
    s = red_phase_one("rw@-1,1", "rs@-1,1").loose(*QUARRY0, wood=1, stone=1).state()
    assert of(s, "exchange") == ["exchange rs@-1,1 wood", "exchange rw@-1,1 stone"]  # a different type
    refuse(s, "exchange rw@-1,1 wood", "M3.4")
    s.apply("exchange rw@-1,1 stone")
    assert tribes(s, "red") == ["rs@-1,1", "rs@-1,1"]
    assert loose(s, QUARRY0) == (2, 0)
    assert s.to_position()["mp"] == 5  # free
    conserved(s)


def test_hand_off_chooses_giver_and_receiver_on_one_tile_D8_M3_5() -> None:
    s = red_phase_one("rw@1,0", "r@1,0", "r@1,-1", "b@1,0").state()
    assert of(s, "handoff") == ["handoff rw@1,0 r@1,0"]  # own tribes on the same tile only
    refuse(s, "handoff rw@1,0 r@1,-1", "M3.5")
    refuse(s, "handoff rw@1,0 b@1,0", "M3.5")
    s.apply("handoff rw@1,0 r@1,0")
    assert tribes(s, "red") == ["r@1,-1", "r@1,0", "rw@1,0"]
    conserved(s)


# --- D11 into the temple ----------------------------------------------------------------
def test_stone_carrier_is_sent_into_the_temple_by_a_chosen_step_D11_M5_4() -> None:
    s = red_phase_one("rs@1,0", "rw@1,0").mana("r", 0, 3).state()
    assert "move rs@1,0 0,0" in s.legal_actions()
    assert tribes(s, "red") == ["rs@1,0", "rw@1,0"]  # nothing happens until the player steps
    s.apply("move rs@1,0 0,0")
    red = mine(s, "red")
    assert (red["mana"], red["limit"]) == (1, 4)  # the donation follows at once (M5.5)
    assert tribes(s, "red") == ["r@0,0", "rw@1,0"]


def test_offering_carrier_is_sent_into_the_temple_by_a_chosen_step_D11_M6_4() -> None:
    b = red_phase_one("r@1,0").mana("r", 5, 8)
    pub = b.offering("r", 4)
    b.tribes(f"ro{pub}@1,0")
    s = b.state()
    assert f"move ro{pub}@1,0 0,0" in s.legal_actions()
    s.apply(f"move ro{pub}@1,0 0,0")
    red = mine(s, "red")
    assert red["mana"] == 1  # 5 - 4 paid (M6.4)
    assert red["offerings"]["delivered"] == [pub]
    assert tribes(s, "red") == ["r@1,0"]  # the carrier went back to the personal supply


# --- D16, D19, D21 Phase II -------------------------------------------------------------
def phase_two(*specs: str) -> Board:
    """Red's Phase II on plains 2,0 (and 3,0), holding a Holy Stone so no decision is forced."""
    b = Board().clear_tribes().turn("r", phase="action").tile(2, 0, "plains").tile(3, 0, "plains")
    return b.hand("r", "holy_stone").tribes(*specs)


def test_phase_two_offers_each_legal_action_kind_and_pass_D16_M8_1() -> None:
    b = phase_two("rw@2,0", "r@2,0", "rs@3,0", "r@3,0", "r@1,0", "r@1,0")
    s = b.state()
    kinds = {a.split(" ", 1)[0] for a in s.legal_actions()}
    assert kinds == {"hut", "holy", "grow", "draw", "pass", "play"}  # A, B, C, D or pass
    assert "grow 1,0 r1 r@1,0 r@1,0" in s.legal_actions()  # Red's start hut on Plains B
    s.apply("holy 3,0 rs@3,0 r@3,0")  # choosing B by its first group
    assert {a.split(" ", 1)[0] for a in s.legal_actions()} == {"stop", "play"}
    refuse(s, "draw", "M8.1")


def test_phase_two_action_must_be_legal_D16() -> None:
    s = phase_two("r@2,0", "r@2,0").clear_huts().state()
    assert {a.split(" ", 1)[0] for a in s.legal_actions()} == {"draw", "pass", "play"}
    refuse(s, "hut 2,0 r@2,0 r@2,0", "M8.6")  # no wood carried
    refuse(s, "holy 2,0 r@2,0 r@2,0", "M10.2")  # no stone carried


def test_holy_place_group_chooses_tile_tribes_and_stone_carrier_D19_M10() -> None:
    s = phase_two("rs@2,0", "rs@2,0", "r@2,0", "rs@3,0", "r@3,0").state()
    assert of(s, "holy") == [
        "holy 2,0 rs@2,0 r@2,0",
        "holy 2,0 rs@2,0 rs@2,0",  # the second member may carry stone too
        "holy 3,0 rs@3,0 r@3,0",
    ]
    s.apply("holy 2,0 rs@2,0 rs@2,0")
    assert s.to_position()["holy_places"] == [[2, 0, "red"]]
    assert tribes(s, "red") == ["r@2,0", "r@2,0*", "r@3,0", "rs@2,0*", "rs@3,0"]
    assert of(s, "holy") == ["holy 3,0 rs@3,0 r@3,0"]  # one holy place per tile (M10.5)
    conserved(s)


def test_stop_resolving_groups_at_any_time_D21_M8_4() -> None:
    s = phase_two("rw@2,0", "r@2,0", "rw@3,0", "r@3,0").state()
    assert "stop" not in s.legal_actions()  # before an action is chosen, 'pass' declines it
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 2")
    assert "hut 3,0 rw@3,0 r@3,0" in s.legal_actions()
    assert "stop" in s.legal_actions()  # a further group remains possible, yet the player may stop
    s.apply("stop")
    assert s.to_position()["phase"] == "mana"
    assert huts_on(s, (3, 0)) == []
    assert tribes(s, "red").count("rw@3,0") == 1


# --- D24, D25 card choices ----------------------------------------------------------------
def test_priest_chooses_which_paying_holy_place_D24_M15_2() -> None:
    b = Board().clear_tribes().turn("r", phase="mana").hand("r", "priest", "holy_stone")
    b.tile(2, 0, "plains").tile(3, 0, "plains").tribes("r@2,0", "r@3,0", "r@3,0").mana("r", 0, 8)
    s = b.holy("r", 2, 0).holy("y", 3, 0).state()
    assert of(s, "play") == ["play holy_stone", "play priest 2,0", "play priest 3,0"]
    s.apply("play priest 3,0")  # Yellow's holy place pays Red too: 2 Red tribes there (M13.3)
    s.apply("income")
    assert mine(s, "red")["mana"] == 3  # 1 + 1 + the Priest's 1


def test_fertility_chooses_which_growth_D25_M15_3() -> None:
    b = phase_two("r@2,0", "r@2,0", "r@3,0", "r@3,0").hut("r", 2, 2, 0).hut("r", 3, 3, 0)
    s = b.hand("r", "fertility").state()
    grows = of(s, "grow")
    assert "grow 2,0 r2 r@2,0 r@2,0 fertility" in grows
    assert "grow 3,0 r3 r@3,0 r@3,0 fertility" in grows
    s.apply("grow 2,0 r2 r@2,0 r@2,0")  # the first growth without it
    s.apply("grow 3,0 r3 r@3,0 r@3,0 fertility")  # the card on the second
    on = lambda c: sum(1 for t in tribes(s, "red") if t.startswith(f"r@{c}"))  # noqa: E731
    assert (on("2,0"), on("3,0")) == (3, 4)
    assert s.to_position()["discard"] == {"fertility": 1}
    conserved(s)
