"""Offerings: pickup, carrying and delivery at the temple (M6, M5.6, R28-R31)."""

from __future__ import annotations

from meso_helpers import Board, conserved, huts_on, mine, refuse, tribes


def red_turn(*specs: str, mp: int = 5, **options) -> Board:
    """Red's Phase I with only the given tribes on the map; Blue and Red start huts stay."""
    return Board(**options).clear_tribes().turn("r", mp=mp).tribes(*specs)


def with_carrier(
    value: int, where: str = "-1,0", mana: int = 0, limit: int = 8, **options
) -> tuple[Board, int]:
    """Red tribe carrying Red's ``value`` offering on ``where``; returns (board, public id)."""
    b = red_turn(**options).mana("r", mana, limit)
    pub = b.offering("r", value)
    b.tribes(f"ro{pub}@{where}")
    return b, pub


# --- M6.1, M6.2 pickup -----------------------------------------------------------------
def test_start_huts_have_no_offering_M6_1_R5() -> None:
    s = red_turn("r@1,0").state()
    assert all(h[4] == 0 for h in s.to_position()["huts"])
    assert not [a for a in s.legal_actions() if a.startswith("offering")]


def test_pick_up_own_offering_is_free_and_hut_stays_M6_2() -> None:
    b = red_turn("r@2,0").tile(2, 0, "plains").hut("r", 2, 2, 0, offering=6)
    s = b.state()
    s.apply("offering r@2,0 r2")
    assert tribes(s, "red") == ["ro1@2,0"]
    assert huts_on(s, (2, 0)) == [["red", 2, 2, 0, 0]]  # the hut stays, now without offering
    assert s.to_position()["mp"] == 5
    conserved(s)


def test_choose_which_of_two_offerings_D10_M6_2() -> None:
    b = red_turn("r@2,0").tile(2, 0, "plains").hut("r", 2, 2, 0, offering=6).hut("r", 3, 2, 0, offering=2)
    s = b.state()
    picks = sorted(a for a in s.legal_actions() if a.startswith("offering"))
    assert picks == ["offering r@2,0 r2", "offering r@2,0 r3"]
    s.apply("offering r@2,0 r3")
    assert tribes(s, "red") == ["ro2@2,0"]  # r3 held offering id 2 (the 2)
    assert mine(s, "red")["offerings"]["placed"]["2"] == 2


def test_only_own_offerings_are_picked_up_M6_2() -> None:
    b = red_turn("r@2,0").tile(2, 0, "plains").hut("b", 2, 2, 0, offering=7)
    b.hut("r", 2, 2, 0)
    s = b.state()
    refuse(s, "offering r@2,0 b2", "M6.2")
    refuse(s, "offering r@2,0 r2", "M6.2")  # own hut, but nothing under it
    refuse(s, "offering r@2,0 r1", "M6.2")  # own start hut, on another tile


def test_loaded_tribe_cannot_pick_up_an_offering_M6_2() -> None:
    b = red_turn("rw@2,0").tile(2, 0, "plains").hut("r", 2, 2, 0, offering=6)
    s = b.state()
    refuse(s, "offering rw@2,0 r2", "M6.2")


def test_offering_pickup_in_phase_one_only_R30() -> None:
    b = red_turn("r@2,0").tile(2, 0, "plains").hut("r", 2, 2, 0, offering=6).turn("r", phase="action")
    s = b.state()
    refuse(s, "offering r@2,0 r2", "M2.8")


# --- M6.3 carrying ---------------------------------------------------------------------
def test_offering_cannot_be_dropped_M6_3() -> None:
    b, pub = with_carrier(4)
    s = b.state()
    refuse(s, f"drop ro{pub}@-1,0", "M6.3")


def test_carrying_spans_several_turns_M6_3() -> None:
    b, pub = with_carrier(4, where="1,0")
    s = b.state()
    s.apply(f"move ro{pub}@1,0 1,-1")
    s.apply("end")
    s.apply("pass")
    assert f"ro{pub}@1,-1" in tribes(s, "red")  # Green to move; Red still carries it
    assert s.current_player() == 3


# --- M6.4 to M6.6 delivery ---------------------------------------------------------------
def test_successful_delivery_M6_4() -> None:
    b, pub = with_carrier(6, mana=7)
    b.tribes("r@1,0")  # keeps Red's Phase I open after the delivery
    s = b.state()
    s.apply(f"move ro{pub}@-1,0 0,0")
    red = mine(s, "red")
    assert red["mana"] == 1
    assert red["offerings"]["delivered"] == [pub]
    assert tribes(s, "red") == ["r@1,0"]  # the carrier went back to the personal supply
    assert red["tribes_in_supply"] == 7
    assert s.view(0)["players"][2]["offerings"]["placed"][str(pub)] == 6  # face up for everyone
    assert s.to_position()["mp"] == 4
    conserved(s)


def test_delivery_with_exactly_enough_mana_M6_4() -> None:
    b, pub = with_carrier(4, mana=4)
    s = b.state()
    s.apply(f"move ro{pub}@-1,0 0,0")
    assert mine(s, "red")["mana"] == 0
    assert mine(s, "red")["offerings"]["delivered"] == [pub]


def test_failed_delivery_returns_tribe_and_reveals_M6_5_R28_R29() -> None:
    b, pub = with_carrier(7, where="1,0", mana=6)
    s = b.state()
    assert f"move ro{pub}@1,0 0,0" in s.legal_actions()  # R31: a hopeless attempt is legal
    s.apply(f"move ro{pub}@1,0 0,0")
    red = mine(s, "red")
    assert red["mana"] == 6  # nothing paid (R48)
    assert red["offerings"]["delivered"] == []
    assert tribes(s, "red") == [f"ro{pub}@1,0"]  # back where it entered from, still carrying it
    assert s.to_position()["mp"] == 4  # the step is not refunded
    assert red["offerings"]["revealed"] == [pub]
    for seat in (0, 1, 3, None):
        assert s.view(seat)["players"][2]["offerings"]["placed"][str(pub)] == 7
    conserved(s)


def test_offering_carrier_never_passes_through_temple_M5_6() -> None:
    b, pub = with_carrier(2, where="1,0", mana=0)
    s = b.state()
    s.apply(f"move ro{pub}@1,0 0,0")
    assert tribes(s, "red") == [f"ro{pub}@1,0"]
    assert mine(s, "red")["offerings"]["delivered"] == []
    assert not [a for a in s.legal_actions() if "@0,0" in a]  # it is not on the temple


def test_failed_delivery_refund_option_M6_5() -> None:
    b, pub = with_carrier(7, mana=0, failed_delivery_refunds_mp=True)
    s = b.state()
    s.apply(f"move ro{pub}@-1,0 0,0")
    assert s.to_position()["mp"] == 5


def test_failed_delivery_value_stays_known_even_face_down_M6_5_R28() -> None:
    # docs/mesopotamia.md: with the option off the marker turns face down, but everyone saw
    # the value and the public log keeps it, so views go on showing it.
    b, pub = with_carrier(7, mana=0, failed_delivery_value_stays_revealed=False)
    s = b.state()
    s.apply(f"move ro{pub}@-1,0 0,0")
    assert tribes(s, "red") == [f"ro{pub}@-1,0"]
    assert s.view(0)["players"][2]["offerings"]["placed"][str(pub)] == 7


def test_retry_after_gaining_mana_same_turn_M6_6() -> None:
    b, pub = with_carrier(4, where="-1,1", mana=3, limit=3)
    b.tribes("rs@-1,1")
    s = b.state()
    s.apply(f"move ro{pub}@-1,1 0,0")  # 3 < 4: fails
    assert tribes(s, "red") == [f"ro{pub}@-1,1", "rs@-1,1"]
    s.apply("move rs@-1,1 0,0")  # donation: limit 4, Mana 4 (M5.5)
    s.apply(f"move ro{pub}@-1,1 0,0")
    red = mine(s, "red")
    assert red["offerings"]["delivered"] == [pub]
    assert red["mana"] == 0
    assert s.to_position()["mp"] == 2


def test_own_offerings_only_are_carried_M3_1() -> None:
    # An opponent's marker under a hut is never offered to Red, whatever Red carries.
    b = red_turn("r@2,0", "r@2,0").tile(2, 0, "plains").hut("b", 2, 2, 0, offering=4)
    s = b.state()
    assert not [a for a in s.legal_actions() if a.startswith("offering")]
    assert huts_on(s, (2, 0))[0][4] == 1
