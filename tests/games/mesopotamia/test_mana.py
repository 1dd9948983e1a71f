"""Phase III, Mana income (M13, R26, R47)."""

from __future__ import annotations

from meso_helpers import Board, mine, refuse


def mana_phase(*specs: str, mana: int = 0, limit: int = 8, card: bool = True, **options) -> Board:
    """Red's Phase III with only ``specs`` on the map; plains 2,0 / 3,0 / 2,1 exist.

    ``card``: Red holds a Holy Stone from an earlier turn, so income is a decision (D22).
    """
    b = Board(**options).clear_tribes().turn("r", phase="mana").mana("r", mana, limit)
    b.tile(2, 0, "plains").tile(3, 0, "plains").tile(2, 1, "plains")
    if card:
        b.hand("r", "holy_stone")
    return b.tribes(*specs)


def income_of(b: Board) -> int:
    s = b.state()
    before = mine(s, "red")["mana"]
    s.apply("income")
    return mine(s, "red")["mana"] - before


def test_own_holy_place_with_one_own_tribe_pays_one_M13_2() -> None:
    assert income_of(mana_phase("r@2,0").holy("r", 2, 0)) == 1
    assert income_of(mana_phase("r@2,0", "r@2,0", "r@2,0").holy("r", 2, 0)) == 1
    assert income_of(mana_phase("r@3,0").holy("r", 2, 0)) == 0


def test_other_players_holy_place_needs_two_own_tribes_M13_3() -> None:
    assert income_of(mana_phase("r@2,0").holy("b", 2, 0)) == 0
    assert income_of(mana_phase("r@2,0", "r@2,0").holy("b", 2, 0)) == 1
    assert income_of(mana_phase("r@2,0", "r@2,0", "r@2,0").holy("g", 2, 0)) == 1


def test_income_adds_up_over_holy_places_M13_2_M13_3() -> None:
    b = mana_phase("r@2,0", "r@3,0", "r@3,0", "r@2,1").holy("r", 2, 0).holy("b", 3, 0).holy("r", 2, 1)
    assert income_of(b) == 3


def test_opposing_tribes_never_block_income_M13_5_R47() -> None:
    b = mana_phase("r@2,0", *["b@2,0"] * 4, "r@3,0", "r@3,0", *["y@3,0"] * 5)
    b.holy("r", 2, 0).holy("y", 3, 0)
    assert income_of(b) == 2


def test_temple_pays_nothing_M13_6_R26() -> None:
    assert income_of(mana_phase("r@0,0", "r@0,0")) == 0


def test_temple_pays_by_option_M5_7() -> None:
    assert income_of(mana_phase("r@0,0", temple_gives_mana=True)) == 1


def test_income_capped_at_limit_M13_7() -> None:
    b = mana_phase("r@2,0", "r@3,0", "r@3,0", mana=3, limit=4).holy("r", 2, 0).holy("b", 3, 0)
    s = b.state()
    s.apply("income")
    assert mine(s, "red")["mana"] == 4  # 2 earned, 1 lost


def test_income_collected_once_then_end_M13_1_M13_8() -> None:
    s = mana_phase("r@2,0").holy("r", 2, 0).state()
    assert "end" not in s.legal_actions()
    refuse(s, "end", "M13.1")
    s.apply("income")
    refuse(s, "income", "M13.1")
    assert list(s.legal_actions()) == ["end", "play holy_stone"]  # M13.8: any-time cards still
    s.apply("play holy_stone")  # after it, 'end' is the only choice and is applied (§7)
    assert (mine(s, "red")["mana"], mine(s, "red")["limit"]) == (2, 8)
    assert s.current_player() == 3  # Green's turn


def test_income_and_end_are_automatic_without_choices_section7() -> None:
    b = mana_phase("r@2,0", "g@1,0", card=False, mana=1).holy("r", 2, 0)
    b.turn("r", phase="action")
    s = b.state()
    s.apply("pass")
    assert mine(s, "red")["mana"] == 2
    assert s.current_player() == 3
    assert s.to_position()["phase"] == "movement"


def test_no_income_outside_phase_three_M13_1() -> None:
    s = mana_phase("r@2,0").holy("r", 2, 0).turn("r", phase="action").state()
    refuse(s, "income", "M13")
