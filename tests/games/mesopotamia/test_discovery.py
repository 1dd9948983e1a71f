"""Discovery (M7): drawing, volcanoes and their chains, resource shares, limits, empty piles."""

from __future__ import annotations

import pytest
from meso_helpers import FOREST0, QUARRY0, Board, conserved, loose, mine, refuse, tribes

import ziggurat


def explorer(*specs: str, players: int = 4, mp: int = 5, discoveries: int = 0, **options) -> Board:
    """Phase I of the colour of ``specs[0]`` with only ``specs`` on the map."""
    b = Board(players, **options).clear_tribes().turn(specs[0][0], mp=mp, discoveries=discoveries)
    return b.tribes(*specs)


def tiles(state) -> dict[tuple[int, int], str]:
    return {(q, r): kind for q, r, kind in state.to_position()["tiles"]}


def test_discovering_plains_M7_2_M7_4() -> None:
    s = explorer("rw@1,-1").state()
    sizes = [p["size"] for p in s.to_position()["piles"]]
    s.apply("move rw@1,-1 2,-1")
    assert s.current_player() == 2
    assert list(s.legal_actions()) == ["pile 1", "pile 2", "pile 3"]  # D13
    s.apply("pile 2")
    assert s.current_player() == ziggurat.CHANCE  # the top tile is unknown to everyone
    assert {a for a, _ in s.chance_outcomes()} == {
        "tile volcano",
        "tile forest",
        "tile quarry",
        "tile plains",
    }
    s.apply("tile plains")
    pos = s.to_position()
    assert tiles(s)[(2, -1)] == "plains"
    assert tribes(s, "red") == ["rw@2,-1"]  # the tribe moved with its cargo
    assert pos["mp"] == 4
    assert pos["discoveries"] == 1
    assert [p["size"] for p in pos["piles"]] == [sizes[0], sizes[1] - 1, sizes[2]]
    assert pos["remaining_tiles"]["plains"] == 19
    assert "tile plains" in s.history()  # shown to everyone
    conserved(s)


def test_tribe_keeps_moving_after_discovery_M7_6() -> None:
    s = explorer("r@1,-1").state()
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 1")
    s.apply("tile plains")
    s.apply("move r@2,-1 2,0")  # again a discovery, from the new tile
    s.apply("pile 3")
    s.apply("tile plains")
    s.apply("move r@2,0 1,0")  # and an ordinary step
    assert tribes(s, "red") == ["r@1,0"]
    assert s.to_position()["mp"] == 2


def test_only_non_empty_piles_are_offered_D13() -> None:
    b = explorer("r@1,-1")
    b.pos["piles"][1]["size"] = 0
    s = b.state()
    s.apply("move r@1,-1 2,-1")
    assert list(s.legal_actions()) == ["pile 1", "pile 3"]
    refuse(s, "pile 2", "M7.2")


def test_single_non_empty_pile_is_drawn_automatically_section7() -> None:
    b = explorer("r@1,-1")
    b.pos["piles"][0]["size"] = 0
    b.pos["piles"][1]["size"] = 0
    s = b.state()
    s.apply("move r@1,-1 2,-1")
    assert s.current_player() == ziggurat.CHANCE  # 'pile 3' was forced
    assert s.to_position()["pending"][0] == "draw"


def test_three_discoveries_per_turn_M7_7() -> None:
    s = explorer("r@1,-1", discoveries=3).state()
    assert "move r@1,-1 2,-1" not in s.legal_actions()
    refuse(s, "move r@1,-1 2,-1", "M7.7")
    s.apply("move r@1,-1 1,0")  # stepping onto existing tiles is still fine
    assert tribes(s, "red") == ["r@1,0"]


def test_discovery_count_resets_each_turn_M7_7() -> None:
    b = explorer("r@1,-1", discoveries=3, mp=1).tribes("g@1,0")
    s = b.state()
    s.apply("end")
    s.apply("pass")
    assert s.current_player() == 3
    assert s.to_position()["discoveries"] == 0
    assert "move g@1,0 2,0" in s.legal_actions()


def test_no_discovery_when_all_piles_are_empty_M7_8() -> None:
    b = explorer("r@1,-1")
    for pile in b.pos["piles"]:
        pile["size"] = 0
    s = b.state()
    assert "move r@1,-1 2,-1" not in s.legal_actions()
    refuse(s, "move r@1,-1 2,-1", "M7.8")


def test_volcano_placed_elsewhere_and_redrawn_from_any_pile_M7_3_R33() -> None:
    s = explorer("r@1,-1").state()
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 1")
    s.apply("tile volcano")
    assert s.current_player() == 2  # D14: where to put it
    assert "volcano 2,-1" not in s.legal_actions()
    refuse(s, "volcano 2,-1", "M7.3")  # not on the target space (R32)
    refuse(s, "volcano 5,5", "M7.3")  # not a space touching the map
    s.apply("volcano -1,-1")  # any edge of the map
    assert tiles(s)[(-1, -1)] == "volcano"
    assert list(s.legal_actions()) == ["pile 1", "pile 2", "pile 3"]  # R33: choose afresh
    s.apply("pile 3")
    s.apply("tile volcano")
    s.apply("volcano 2,-2")  # it can happen again
    s.apply("pile 2")
    s.apply("tile quarry")
    pos = s.to_position()
    assert tribes(s, "red") == ["r@2,-1"]
    assert pos["discoveries"] == 1  # volcanoes never count (M7.7)
    assert pos["mp"] == 4  # R37: one step, one MP
    assert pos["remaining_tiles"]["volcano"] == 1
    conserved(s)


def test_volcano_on_target_by_option_M7_3() -> None:
    s = explorer("r@1,-1", "r@1,0", volcano_may_use_discovery_target=True).state()
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 1")
    s.apply("tile volcano")
    s.apply("volcano 2,-1")
    pos = s.to_position()
    assert tiles(s)[(2, -1)] == "volcano"
    assert tribes(s, "red") == ["r@1,-1", "r@1,0"]  # nothing to enter: the tribe stays
    assert (pos["mp"], pos["discoveries"], pos["pending"]) == (5, 0, None)


def test_piles_run_out_during_volcano_chain_R34_M7_8() -> None:
    b = explorer("r@1,-1", "r@1,0")
    for pile in b.pos["piles"]:
        pile["size"] = 0
    b.pos["piles"][0]["size"] = 1
    b.pos["remaining_tiles"] = {"volcano": 1, "forest": 0, "quarry": 0, "plains": 0}
    s = b.state()
    s.apply("move r@1,-1 2,-1")  # the only pile, and its only tile, are applied by the engine
    assert s.history()[-1] == "move r@1,-1 2,-1"
    assert s.current_player() == 2
    assert s.to_position()["pending"][0] == "volcano"
    s.apply("volcano 2,0")
    pos = s.to_position()
    assert tiles(s)[(2, 0)] == "volcano"  # the placed volcano stays
    assert (2, -1) not in tiles(s)
    assert tribes(s, "red") == ["r@1,-1", "r@1,0"]  # the tribe stays on T
    assert (pos["mp"], pos["discoveries"], pos["pending"]) == (5, 0, None)
    assert "move r@1,-1 2,-1" not in s.legal_actions()


# --- M7.5 resources --------------------------------------------------------------------
def test_forest_shares_when_supply_is_plentiful_M7_5() -> None:
    s = explorer("r@-1,0").state()  # 4 players: k = 4, |F| = 2
    s.apply("move r@-1,0 -1,-1")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, FOREST0) == (5, 0)  # 4 + 1
    assert loose(s, (-1, -1)) == (3, 0)  # 1 + surplus 2
    assert s.to_position()["supply"]["wood"] == 16 - 4
    conserved(s)


def test_quarry_shares_reach_tiles_that_already_hold_stone_R36() -> None:
    b = explorer("y@-1,1", players=2).tile(-2, 1, "quarry").loose(-2, 1, stone=3)
    s = b.state()  # 2 players: k = 2, |F| = 3 after the discovery
    s.apply("move y@-1,1 -1,2")
    s.apply("pile 1")
    s.apply("tile quarry")
    assert s.current_player() == 1
    assert s.to_position()["pending"][0] == "shares"
    assert loose(s, (-1, 2)) == (0, 1)  # the new tile is served first (R35)
    assert sorted(s.legal_actions()) == ["share -1,1", "share -2,1"]  # D15
    s.apply("share -2,1")
    assert loose(s, (-2, 1)) == (0, 4)  # R36: a share even though it holds stone
    assert loose(s, QUARRY0) == (0, 2)
    assert s.to_position()["pending"] is None
    conserved(s)


def test_short_supply_player_picks_the_other_tiles_D15_E6a() -> None:
    b = explorer("r@1,-1", players=3).tile(2, -1, "forest").tile(1, 1, "forest").supply(wood=10)
    s = b.state()
    s.apply("move r@1,-1 1,-2")
    s.apply("pile 1")
    s.apply("tile forest")  # k = 3 < |F| = 4
    assert loose(s, (1, -2)) == (1, 0)
    assert sorted(s.legal_actions()) == ["share -1,0", "share 1,1", "share 2,-1"]
    refuse(s, "share 1,-2", "M7.5")  # the new tile has had its share
    refuse(s, "share 1,-1", "M7.5")  # not a forest
    s.apply("share 2,-1")
    assert sorted(s.legal_actions()) == ["share -1,0", "share 1,1"]
    refuse(s, "share 2,-1", "M7.5")  # one share per tile
    s.apply("share 1,1")
    assert loose(s, (2, -1)) == (1, 0)
    assert loose(s, (1, 1)) == (1, 0)
    assert loose(s, FOREST0) == (3, 0)
    assert s.to_position()["supply"]["wood"] == 7
    assert s.to_position()["pending"] is None


def test_supply_limits_the_shares_R35() -> None:
    s = explorer("r@-1,0", players=4).supply(wood=3).state()  # k = min(4, 3) = 3 >= |F| = 2
    s.apply("move r@-1,0 -1,-1")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, FOREST0) == (5, 0)
    assert loose(s, (-1, -1)) == (2, 0)
    assert s.to_position()["supply"]["wood"] == 0


def test_single_share_goes_to_the_new_tile_R35() -> None:
    b = explorer("r@-1,0", players=4).tile(-2, 0, "forest").supply(wood=1)
    s = b.state()  # k = 1 < |F| = 3: only the new tile gets one, no decision
    s.apply("move r@-1,0 -1,-1")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, (-1, -1)) == (1, 0)
    assert loose(s, (-2, 0)) == (0, 0)
    assert s.to_position()["pending"] is None


def test_empty_supply_places_nothing_M7_5_E6c() -> None:
    s = explorer("r@-1,0", players=4).supply(wood=0).state()
    s.apply("move r@-1,0 -1,-1")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, (-1, -1)) == (0, 0)
    assert loose(s, FOREST0) == (4, 0)
    assert tribes(s, "red") == ["r@-1,-1"]


def test_new_tile_not_served_first_by_option_R35() -> None:
    b = explorer("y@1,-1", players=2, short_supply_new_tile_first=False).tile(2, -1, "forest").supply(wood=2)
    s = b.state()  # k = 2 < |F| = 3: the player picks both tiles, the new one included
    s.apply("move y@1,-1 1,-2")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, (1, -2)) == (0, 0)
    assert sorted(s.legal_actions()) == ["share -1,0", "share 1,-2", "share 2,-1"]
    s.apply("share -1,0")
    s.apply("share 2,-1")
    assert loose(s, (1, -2)) == (0, 0)
    assert loose(s, (2, -1)) == (1, 0)
    assert loose(s, FOREST0) == (3, 0)


def test_discovery_needs_a_step_and_mp_M7_1() -> None:
    s = explorer("r@1,-1", "rw@1,-1", mp=0).state()
    refuse(s, "move r@1,-1 2,-1", "M2.1")


@pytest.mark.parametrize("kind", ["plains", "forest", "quarry"])
def test_every_non_volcano_tile_counts_as_discovery_M7_4(kind: str) -> None:
    s = explorer("r@1,-1", discoveries=2).state()
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 1")
    s.apply(f"tile {kind}")
    assert s.to_position()["discoveries"] == 3
    assert tiles(s)[(2, -1)] == kind
    assert mine(s, "red")["tribes"] == [[2, -1, "", False]]
