"""The worked examples E1-E12 of the rules spec (§8), one test each, step by step."""

from __future__ import annotations

from meso_helpers import FOREST0, QUARRY0, Board, conserved, huts_on, loose, mine, refuse, tribes

import ziggurat

Y = (2, 0)  # "tile Y", "plains P", "plains Q", "plains R": a discovered plains


def test_E1_four_against_two() -> None:
    b = Board().clear_tribes().turn("r").tile(*Y, "quarry")
    b.tribes("r@2,0", "r@2,0", "r@2,0", "r@2,0", "bs@2,0", "bs@2,0")
    s = b.state()
    # Red has the majority (4 > 2): two steals, one stone onto each of two Red tribes, free
    s.apply("steal bs@2,0 r@2,0")
    s.apply("steal bs@2,0 r@2,0")
    assert tribes(s, "red") == ["r@2,0", "r@2,0", "rs@2,0*", "rs@2,0*"]
    assert tribes(s, "blue") == ["b@2,0", "b@2,0"]
    assert s.to_position()["mp"] == 5
    # a third steal is impossible: Blue has nothing left to take
    assert not [a for a in s.legal_actions() if a.startswith("steal")]
    refuse(s, "steal bs@2,0 r@2,0", "M4.3")
    conserved(s)

    # with 2 Red against 2 Blue there is no steal ...
    b = Board().clear_tribes().turn("r").tile(*Y, "quarry")
    b.tribes("r@2,0", "r@2,0", "r@1,0", "bs@2,0", "bs@2,0")
    s = b.state()
    refuse(s, "steal bs@2,0 r@2,0", "M4.1")
    # ... until a third Red tribe steps in (1 MP)
    s.apply("move r@1,0 2,0")
    assert s.to_position()["mp"] == 4
    s.apply("steal bs@2,0 r@2,0")
    assert "rs@2,0*" in tribes(s, "red")


def test_E2_majority_per_opponent_and_offering_carrier_cannot_take_loot() -> None:
    b = Board().clear_tribes().turn("r").tile(*Y, "plains")
    pub = b.offering("r", 4)
    b.tribes(f"ro{pub}@2,0", "rw@2,0", "r@2,0")  # r1, r2, r3
    b.tribes("bs@2,0", "bs@2,0")  # b1, b2
    b.tribes("gw@2,0", "g@2,0", "g@2,0", "g@2,0")  # g1-g4
    s = b.state()
    # Red may rob Blue (3 > 2) but not Green (3 < 4)
    assert "steal bs@2,0 r@2,0" in s.legal_actions()
    refuse(s, "steal gw@2,0 r@2,0", "M4.1")
    # r1 counts for the majority but cannot receive loot
    refuse(s, f"steal bs@2,0 ro{pub}@2,0", "M4.3")
    # r3 takes one stone; r2 drops its wood (free) and takes the second
    s.apply("steal bs@2,0 r@2,0")
    s.apply("drop rw@2,0")
    s.apply("steal bs@2,0 r@2,0")
    assert tribes(s, "red") == [f"ro{pub}@2,0", "rs@2,0*", "rs@2,0*"]
    assert loose(s, Y) == (1, 0)
    assert tribes(s, "blue") == ["b@2,0", "b@2,0"]
    assert tribes(s, "green") == ["g@2,0", "g@2,0", "g@2,0", "gw@2,0"]
    # neither r2 nor r3 may steal again this turn
    s.apply("drop rs@2,0*")
    refuse(s, "steal gw@2,0 r@2,0*", "M4.4")
    assert s.to_position()["mp"] == 5
    conserved(s)


def test_E3_holy_place_blocked_by_an_opposing_tribe() -> None:
    def situation(new: bool) -> Board:
        b = Board().clear_tribes().turn("y", phase="action").tile(*Y, "plains")
        b.tribes("ys@2,0", "y@2,0", "b@2,0")
        return b.hand("y", "teleport", new=new)

    s = situation(new=False).state()
    # action B is illegal on P while b1 is there
    assert not [a for a in s.legal_actions() if a.startswith("holy")]
    refuse(s, "holy 2,0 ys@2,0 y@2,0", "M10.1")
    # Yellow plays Teleport and moves b1 to any non-volcano tile
    s.apply("play teleport b@2,0")
    assert "to 0,1" not in s.legal_actions()
    s.apply("to -1,0")
    assert tribes(s, "blue") == ["b@-1,0"]
    # action B is now legal: the stone goes to the general supply, a Yellow holy place on P
    stone = s.to_position()["supply"]["stone"]
    s.apply("holy 2,0 ys@2,0 y@2,0")
    assert s.to_position()["holy_places"] == [[2, 0, "yellow"]]
    assert s.to_position()["supply"]["stone"] == stone + 1
    conserved(s)

    # had the Teleport been drawn this turn, it could not be played and P would stay blocked
    s = situation(new=True).state()
    refuse(s, "play teleport b@2,0", "M12.3")
    refuse(s, "holy 2,0 ys@2,0 y@2,0", "M10.1")


def test_E4_delivering_with_too_little_mana() -> None:
    b = Board().clear_tribes().turn("g", mp=3).mana("g", 5, 6).hand("g", "holy_stone")
    pub = b.offering("g", 6)
    b.tribes(f"go{pub}@-1,0")
    s = b.state()
    # 1. g1 steps onto the temple (2 MP left); the marker shows 6; 5 < 6: the delivery fails
    s.apply(f"move go{pub}@-1,0 0,0")
    assert s.to_position()["mp"] == 2
    # 2. g1 and the marker go back to forest0; no refund; the 6 stays visible to all
    assert tribes(s, "green") == [f"go{pub}@-1,0"]
    assert mine(s, "green")["offerings"]["delivered"] == []
    assert mine(s, "green")["mana"] == 5
    assert s.view(0)["players"][3]["offerings"]["placed"][str(pub)] == 6
    # 3. Green plays Holy Stone: limit 7, Mana 6
    s.apply("play holy_stone")
    assert (mine(s, "green")["limit"], mine(s, "green")["mana"]) == (7, 6)
    # 4. g1 steps onto the temple again (1 MP left); Green pays 6, leaving 0
    s.apply(f"move go{pub}@-1,0 0,0")
    green = mine(s, "green")
    assert green["mana"] == 0
    # 5. the marker is on Green's delivered pile; g1 is back in Green's personal supply
    assert green["offerings"]["delivered"] == [pub]
    assert green["tribes"] == [] and green["tribes_in_supply"] == 8
    assert [e[1] for e in s.events()][-1] == "end"  # nothing left to do: Phase I ended itself
    conserved(s)


def test_E5_a_volcano_does_not_count_toward_the_limit() -> None:
    b = Board(3).clear_tribes().turn("b", mp=2, discoveries=2)
    b.tribes("b@1,-1")  # T: an edge tile; E = 2,-1
    s = b.state()
    s.apply("move b@1,-1 2,-1")
    # 1. Blue draws from pile 2: a volcano, placed on some space other than E
    s.apply("pile 2")
    s.apply("tile volcano")
    refuse(s, "volcano 2,-1", "M7.3")
    s.apply("volcano 2,-2")
    # 2. Blue draws from pile 1: a quarry, placed on E; b1 moves onto it; 1 MP spent
    s.apply("pile 1")
    s.apply("tile quarry")
    pos = s.to_position()
    assert tribes(s, "blue") == ["b@2,-1"]
    assert pos["mp"] == 1
    # 3. the discovery count is now 3
    assert pos["discoveries"] == 3
    # 4. |F| = 2, k = 3: each quarry gets 1, the surplus goes on the new one
    assert loose(s, QUARRY0) == (0, 4)
    assert loose(s, (2, -1)) == (0, 2)
    # 5. the last MP may go onto an existing tile, but no empty space can be entered
    refuse(s, "move b@2,-1 3,-1", "M7.7")
    assert "move b@2,-1 1,0" in s.legal_actions()
    s.apply("move b@2,-1 1,0")
    assert tribes(s, "blue") == ["b@1,0"]
    conserved(s)


def test_E6_forest_shares_when_resources_are_short() -> None:
    # (a) 3 players, F1-F3 on the map, 10 wood in supply; F4 discovered: k = 3 < |F| = 4
    b = Board(3).clear_tribes().turn("b").tile(2, -1, "forest").tile(2, 0, "forest").supply(wood=10)
    b.tribes("b@1,-1")
    s = b.state()
    s.apply("move b@1,-1 1,-2")
    s.apply("pile 1")
    s.apply("tile forest")
    assert loose(s, (1, -2)) == (1, 0)  # F4 gets 1
    assert sorted(s.legal_actions()) == ["share -1,0", "share 2,-1", "share 2,0"]
    s.apply("share 2,0")  # the discoverer picks 2 of F1-F3
    s.apply("share -1,0")
    assert [loose(s, c)[0] for c in [FOREST0, (2, -1), (2, 0), (1, -2)]] == [4, 0, 1, 1]
    assert s.to_position()["supply"]["wood"] == 7

    # (b) 4 players, only forest0, 3 wood left: k = 3 >= |F| = 2
    b = Board(4).clear_tribes().turn("b").supply(wood=3).tribes("b@-1,0")
    s = b.state()
    s.apply("move b@-1,0 -1,-1")
    s.apply("pile 3")
    s.apply("tile forest")
    assert loose(s, FOREST0) == (5, 0)  # 4 + 1
    assert loose(s, (-1, -1)) == (2, 0)
    assert s.to_position()["pending"] is None

    # (c) no wood in the supply: nothing is placed
    b = Board(4).clear_tribes().turn("b").supply(wood=0).tribes("b@-1,0")
    s = b.state()
    s.apply("move b@-1,0 -1,-1")
    s.apply("pile 3")
    s.apply("tile forest")
    assert loose(s, FOREST0) == (4, 0)
    assert loose(s, (-1, -1)) == (0, 0)


def test_E7_an_offering_under_a_hut_blocks_growth() -> None:
    def situation(blue_offering: bool, extra: tuple[str, ...] = ()) -> Board:
        b = Board().clear_tribes().turn("r").tile(*Y, "plains").hand("r", "holy_stone")
        b.hut("r", 2, *Y, offering=4).hut("b", 2, *Y, offering=6 if blue_offering else 0)
        return b.tribes("r@2,0", "r@2,0", *extra)

    # (a) action C: growth on Q is illegal because of the offering under h1
    s = situation(False).turn("r", phase="action").state()
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0", "M11.2")
    # (b) in Phase I r1 picks up the offering (free) and stays on Q ...
    s = situation(False).state()
    s.apply("offering r@2,0 r2")
    assert tribes(s, "red") == ["r@2,0", "ro1@2,0"]
    s.apply("end")
    # ... now {r1, r2, h1} grows one tribe onto Q
    s.apply("grow 2,0 r2 r@2,0 ro1@2,0")
    assert sorted(tribes(s, "red")) == ["r@2,0*", "r@2,0*", "ro1@2,0*"]
    # only one growth: Red has one hut there; Blue's hut does not count
    assert not [a for a in s.legal_actions() if a.startswith("grow")]
    # (even with two more Red tribes on Q, a second growth has no hut to use)
    s = situation(False, extra=("r@2,0", "r@2,0")).state()
    s.apply("offering r@2,0 r2")
    s.apply("end")
    s.apply("grow 2,0 r2 r@2,0 ro1@2,0")
    refuse(s, "grow 2,0 r2 r@2,0 r@2,0", "M11.1")
    refuse(s, "grow 2,0 b2 r@2,0 r@2,0", "M11.1")
    # (c) with a Blue offering under h2, growth stays illegal even after (b)
    s = situation(True).state()
    s.apply("offering r@2,0 r2")
    s.apply("end")
    refuse(s, "grow 2,0 r2 r@2,0 ro1@2,0", "M11.2")


def test_E8_two_huts_on_one_plains_in_a_single_action() -> None:
    def situation(neutral: bool) -> Board:
        b = Board().clear_tribes().turn("y", phase="action").tile(*Y, "plains").tile(3, 0, "plains")
        b.hut("y", 2, 3, 0, offering=4)  # so Yellow's supply holds 3 huts and offerings 2, 6, 7
        if neutral:
            b.hut("neutral", 1, *Y)
        b.tribes("yw@2,0", "yw@2,0", "y@2,0", "y@2,0", "b@2,0")
        return b.hand("y", "holy_stone")

    s = situation(False).state()
    assert mine(s, "yellow")["offerings"]["unplaced"] == [2, 6, 7]
    # 1. group {y1, y3}: the wood goes to the supply, a hut, and Yellow puts the 7 under it
    s.apply("hut 2,0 yw@2,0 y@2,0")
    s.apply("offer 7")
    # 2. group {y2, y4}: a second hut, with the 2 under it
    s.apply("hut 2,0 yw@2,0 y@2,0")
    s.apply("offer 2")
    values = mine(s, "yellow")["offerings"]["placed"]
    assert sorted(values[str(h[4])] for h in huts_on(s, Y)) == [2, 7]
    # 3. no third hut: R has 2 huts, and all four tribes are used
    assert not [a for a in s.legal_actions() if a.startswith("hut")]
    assert tribes(s, "yellow") == ["y@2,0*"] * 4
    assert tribes(s, "blue") == ["b@2,0"]  # irrelevant to hut building
    conserved(s)

    # with a neutral hut on R, only one hut could have been built
    s = situation(True).state()
    s.apply("hut 2,0 yw@2,0 y@2,0")
    s.apply("offer 7")
    refuse(s, "hut 2,0 yw@2,0 y@2,0", "M9.1")


def test_E9_stone_donations_at_the_ends_of_the_scale() -> None:
    table = [((3, 3), (4, 4)), ((5, 1), (6, 2)), ((8, 6), (8, 7)), ((8, 8), (8, 8))]
    for (limit, mana), after in table:
        b = Board().clear_tribes().turn("r").mana("r", mana, limit).tribes("rs@-1,1", "rw@-1,1")
        s = b.state()
        s.apply("move rs@-1,1 0,0")
        red = mine(s, "red")
        assert (red["limit"], red["mana"]) == after
        assert s.to_position()["supply"]["stones_removed"] == 1  # the stone leaves the game
        conserved(s)


def test_E10_income_and_the_limit() -> None:
    def situation(*cards: str) -> Board:
        b = Board().clear_tribes().turn("r", phase="mana").mana("r", 2, 4).hand("r", "holy_stone", *cards)
        for i, owner in enumerate(["r", "r", "b", "g"]):  # H1-H4 on 2,0 3,0 4,0 5,0
            b.tile(2 + i, 0, "plains").holy(owner, 2 + i, 0)
        b.tribes("r@2,0", "b@3,0", "b@3,0", "b@3,0", "r@4,0", "r@4,0", "r@5,0")
        return b

    s = situation().state()
    s.apply("income")  # H1 +1, H2 0, H3 +1, H4 0
    assert mine(s, "red")["mana"] == 4

    # with one Priest on H1 income would be 3, but Mana is capped at 4
    s = situation("priest").state()
    assert sorted(a for a in s.legal_actions() if a.startswith("play priest")) == [
        "play priest 2,0",
        "play priest 4,0",
    ]
    refuse(s, "play priest 3,0", "M15.2")  # H2 pays Red nothing this phase
    s.apply("play priest 2,0")
    s.apply("income")
    assert mine(s, "red")["mana"] == 4


def test_E11_crossing_the_temple() -> None:
    b = Board(4, first="y").turn("y", mp=5).tribes("ys@-1,1")  # Yellow is seat 1, on plains A
    s = b.state()
    # y1, carrying nothing, goes from plains A through the temple to forest0 for 2 MP ...
    s.apply("move y@1,-1 0,0")
    s.apply("move y@0,0 -1,0")
    assert s.to_position()["mp"] == 3
    # ... and picks up a wood
    s.apply("pickup y@-1,0 wood")
    # y1 may not step back onto the temple with that wood
    refuse(s, "move yw@-1,0 0,0", "M5.3")
    # another Yellow tribe carries stone from quarry0 onto the temple: donated on entry ...
    s.apply("move ys@-1,1 0,0")
    assert (mine(s, "yellow")["limit"], mine(s, "yellow")["mana"]) == (4, 1)
    # ... and the now-empty tribe goes on to plains B for 1 more MP
    s.apply("move y@0,0 1,0")
    assert s.to_position()["mp"] == 1
    assert sorted(tribes(s, "yellow")) == ["y@1,-1", "y@1,-1", "y@1,0", "yw@-1,0"]

    # on a later turn the wood goes round: 3 discoveries and 1 step, 4 MP
    s.apply("end")
    s.apply("pass")
    for _ in range(3):  # Blue, Red, Green pass
        s.apply("end")
        s.apply("pass")
    assert s.current_player() == 1 and s.to_position()["mp"] == 5
    for here, there in [("-1,0", "-1,-1"), ("-1,-1", "0,-2"), ("0,-2", "1,-2")]:
        s.apply(f"move yw@{here} {there}")
        s.apply("pile 1")
        s.apply("tile plains")
    s.apply("move yw@1,-2 1,-1")
    assert "yw@1,-1" in tribes(s, "yellow")
    assert s.to_position()["mp"] == 1
    assert s.to_position()["discoveries"] == 3
    conserved(s)


def test_E12_the_game_ends_at_once() -> None:
    b = Board().clear_tribes().turn("b").mana("b", 7, 7).delivered("b", 2, 4, 6)
    pub = b.offering("b", 7)
    b.tribes(f"bo{pub}@1,0", "b@1,0", "r@1,-1")
    s = b.state()
    s.apply(f"move bo{pub}@1,0 0,0")
    # Blue pays 7 and the fourth marker is delivered: the game ends, Blue wins
    assert mine(s, "blue")["mana"] == 0
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]
    # Blue's remaining MP, Phase II and III are not played; nobody takes another turn
    assert s.to_position()["phase"] == "over"
    assert s.to_position()["mp"] == 4
    refuse(s, "end", "M16.1", exc=ziggurat.GameOver)
    refuse(s, "move r@1,-1 1,0", "M16.1", exc=ziggurat.GameOver)
