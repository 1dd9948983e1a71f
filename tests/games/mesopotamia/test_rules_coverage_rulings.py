"""Rulings without a test of their own elsewhere: the two variants kept apart (R14) and the one
general supply of wood and stone shared by every player (R19)."""

from __future__ import annotations

from meso_helpers import FOREST0, Board, conserved, load, loose, mine, started, tribes


# --- R14 the two variants are separate options -------------------------------------------
def test_one_card_variant_keeps_the_discard_pile_R14_S8() -> None:
    s = load(2, variant_start_with_one_card=True).new_initial_state()
    s.apply("first b")
    s.apply("deal b holy_stone")  # variant 6.1 deals a card ...
    s.apply("deal y endurance")
    s.apply("play holy_stone")
    pos = s.to_position()
    assert pos["discard"] == {"holy_stone": 1}  # ... but played cards are discarded as usual
    assert pos["removed_cards"] == {"endurance": 1, "priest": 1}  # only the 2-player removals (R13)
    conserved(s)


def test_no_reshuffle_variant_deals_no_card_R14_M14_3() -> None:
    s = started(4, variant_no_reshuffle=True)  # variant 6.2 alone: nobody is dealt a card
    pos = s.to_position()
    assert s.current_player() == 0 and pos["phase"] == "movement"
    assert pos["deck_size"] == 18
    assert all(p["hand_size"] == 0 for p in pos["players"])


# --- R19 one general supply ---------------------------------------------------------------
def test_wood_one_player_returns_is_the_wood_another_discovers_R19() -> None:
    # Every wood lies on the forest or on Red's builder: the general supply is empty.
    b = Board().clear_tribes().clear_loose().turn("r", phase="action").tile(2, 0, "plains")
    b.tribes("rw@2,0", "r@2,0", "g@1,-1").loose(*FOREST0, wood=19)
    s = b.state()
    assert s.to_position()["supply"]["wood"] == 0
    s.apply("hut 2,0 rw@2,0 r@2,0")
    s.apply("offer 2")
    assert s.to_position()["supply"]["wood"] == 1  # Red's wood went back to the shared stock
    assert s.current_player() == 3  # the rest of Red's turn was forced; Green moves
    s.apply("move g@1,-1 1,-2")
    s.apply("pile 1")
    s.apply("tile forest")  # k = min(4 players, 1 wood) = 1: the new forest gets it (M7.5, R35)
    assert loose(s, (1, -2)) == (1, 0)
    assert loose(s, FOREST0) == (19, 0)
    assert s.to_position()["supply"]["wood"] == 0
    assert tribes(s, "green") == ["g@1,-2"]
    assert mine(s, "red")["offerings"]["unplaced"] == [4, 6, 7]
    conserved(s)


def test_a_stone_donated_leaves_the_shared_stock_for_everyone_R19_M5_5() -> None:
    b = Board().clear_tribes().clear_loose().turn("r").tribes("rs@1,0", "r@1,0")
    s = b.state()
    before = s.to_position()["supply"]
    s.apply("move rs@1,0 0,0")
    after = s.to_position()["supply"]
    assert after["stones_removed"] == before["stones_removed"] + 1  # out of the game, not back
    assert after["stone"] == before["stone"]
    for player in s.to_position()["players"]:  # no player keeps a stock of their own
        assert not {"wood", "stone", "supply"} & set(player)
    conserved(s)
