"""Dealing the People cards: the Epoch 1 deal (E1.5, C1) and the Allocation segment (E3, R7-R9)."""

from __future__ import annotations

import pytest
from epochs_helpers import ANN, BEN, CAL, PEOPLES, Board, conserved, load, play, refuse, vp

import ziggurat
from ziggurat.games.mesopotamia_epochs.allocation import draw_order

EPOCH1 = ["sumerians", "elamites", "egyptians", "akkadians", "guti"]


def test_game_starts_with_the_epoch1_deal_in_seat_order_E1_5() -> None:
    s = load(3).new_initial_state()
    assert s.current_player() == ziggurat.CHANCE
    assert s.to_position()["pending"] == ["deal", "brooch"]
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [f"deal brooch {p}" for p in EPOCH1]
    assert all(abs(p - 0.2) < 1e-12 for _, p in outcomes)
    play(s, "deal brooch guti")
    assert [a for a, _ in s.chance_outcomes()] == [f"deal head {p}" for p in EPOCH1 if p != "guti"]
    play(s, "deal head sumerians", "deal mask elamites")
    pos = s.to_position()
    assert pos["phase"] == "strategy"
    assert [pl["cards"][0]["people"] for pl in pos["players"]] == ["guti", "sumerians", "elamites"]
    assert [c["people"] for c in pos["set_aside"]] == ["egyptians", "akkadians"]  # E1.5, R7
    conserved(s)


def test_each_player_sees_only_their_own_epoch1_card_E1_5_R42() -> None:
    s = play(load(3).new_initial_state(), "deal brooch guti", "deal head sumerians", "deal mask elamites")
    # the Sumerians (#1) are playing: their card is face up; the others are not yet
    assert s.to_position()["round"]["people"] == "sumerians"
    for seat, own in ((ANN, "guti"), (CAL, "elamites")):
        cards = [pl["cards"][0]["people"] for pl in s.view(seat)["players"]]
        assert cards[seat] == own
        assert cards[BEN] == "sumerians"
        assert [c for i, c in enumerate(cards) if i not in (seat, BEN)] == [None]
    assert [pl["cards"][0]["people"] for pl in s.view(None)["players"]] == [None, "sumerians", None]


def test_five_players_last_deal_is_forced_and_nothing_is_set_aside_E1_5() -> None:
    s = load(5).new_initial_state()
    play(s, "deal brooch guti", "deal head sumerians", "deal mask elamites", "deal statue akkadians")
    last = [e for e in s.events() if e[1] == "deal urn egyptians"]
    assert last and last[0][2] is True  # one card left: a certain outcome, applied by the engine
    assert s.to_position()["set_aside"] == []
    assert "deal urn egyptians" not in s.history()


def test_draw_order_ascending_vp_tie_to_lower_previous_base_order_E3_2_R8() -> None:
    b = Board(4, epoch=2, phase="allocation").deal(ANN, "guti").deal(BEN, "egyptians")
    b.deal(CAL, "akkadians").deal(3, "sumerians").vp(ANN, 5).vp(BEN, 5).vp(CAL, 2).vp(3, 5)
    s = b.drawing([0, 1, 2, 3], 0).pending("draw").state()
    # Cal (2 VP) first; then 5 VP each: Sumerians #1, Egyptians #3, Guti #5
    assert draw_order(s) == [CAL, 3, BEN, ANN]


def test_draw_order_is_computed_at_the_start_of_the_segment_E3_2() -> None:
    b = Board(2, epoch=1).deal(ANN, "guti").deal(BEN, "sumerians").vp(ANN, 3).vp(BEN, 4)
    s = b.tribes("uruk", "sumerians", 1).tribes("akkad", "guti", 1).round("guti", 1).state()
    s.apply("stop")  # the Guti score 2 (Akkad, their bonus): Ann 5 > Ben 4
    assert vp(s) == [5, 4]
    assert s.to_position()["draw_order"] == ["head", "brooch"]


def _drawing(drawer_has_card: bool) -> ziggurat.State:
    b = Board(3, epoch=2, phase="allocation").deal(ANN, "guti").deal(BEN, "egyptians").deal(CAL, "akkadians")
    b.tribes("gutium", "guti", 1)
    if drawer_has_card:  # Ben passed the Hittites to Ann; Cal kept the Kassites
        b.deal(ANN, "hittites").knows("hittites", BEN).unseen("hittites").deal(CAL, "kassites")
        return b.drawing([BEN, CAL, ANN], 2).pending("keep", "minoans").state()
    return b.drawing([BEN, ANN, CAL], 0).pending("keep", "minoans").state()


def test_keep_or_pass_to_anyone_without_a_card_E3_4() -> None:
    s = _drawing(False)
    assert s.current_player() == BEN
    assert s.legal_actions() == ["keep", "pass brooch", "pass mask"]
    refuse(s, "pass head", "E3.4")
    refuse(s, "pass urn", "E1.2")
    play(s, "pass mask")
    assert s.to_position()["players"][CAL]["cards"][-1]["people"] == "minoans"
    assert s.to_position()["pending"] == ["draw"] and s.to_position()["draw_index"] == 1
    conserved(s)


def test_a_drawer_holding_a_passed_card_must_pass_R9() -> None:
    s = _drawing(True)
    assert s.current_player() == ANN
    assert s.legal_actions() == ["pass head"]  # forced (E3.4): Ben is the only one without a card
    refuse(s, "keep", "E3.4", "R9")
    refuse(s, "pass mask", "E3.4", "R9")
    assert s.view(ANN)["players"][ANN]["cards"][-1]["people"] is None  # E3.5
    conserved(s)


def test_deal_never_gets_stuck_and_every_player_gets_one_card_E3_6() -> None:
    for seed in range(20):
        import random

        rng = random.Random(seed)
        s = load(4).new_initial_state()
        while s.to_position()["epoch"] < 3:
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                s.apply(rng.choice(list(s.legal_actions())))
            conserved(s)
        pos = s.to_position()
        assert [len(pl["cards"]) for pl in pos["players"]] == [2, 2, 2, 2]
        assert len([c for c in pos["set_aside"] if c["epoch"] == 2]) == 1


def test_passed_card_unseen_by_receiver_until_the_deal_ends_E3_5() -> None:
    s = _drawing(False)
    play(s, "pass mask")
    card = lambda seat: s.view(seat)["players"][CAL]["cards"][-1]["people"]  # noqa: E731
    assert card(BEN) == "minoans"  # the passer knows it
    assert card(CAL) is None  # the receiver may not look yet
    assert card(ANN) is None and card(None) is None
    play(s, "draw hittites", "keep")  # Ann keeps; Cal's draw is forced to pass
    assert s.to_position()["phase"] == "allocation" and s.current_player() == ziggurat.CHANCE
    play(s, "draw kassites")
    assert s.to_position()["phase"] == "strategy"
    assert card(CAL) == "minoans"
    assert card(ANN) is None  # still face down for Ann until the Minoans' first round


def test_card_reveal_after_allocation_variant_R42() -> None:
    b = Board(3, epoch=2, phase="allocation", card_reveal="after_allocation")
    b.deal(ANN, "guti", "hittites").deal(BEN, "egyptians", "minoans").deal(CAL, "akkadians")
    b.tribes("gutium", "guti", 1).tribes("avaris", "egyptians", 1).tribes("akkad", "akkadians", 1)
    s = b.drawing([ANN, BEN, CAL], 2).pending("keep", "kassites").state()
    play(s, "keep")
    assert [pl["cards"][-1]["people"] for pl in s.view(None)["players"]] == [
        "hittites",
        "minoans",
        "kassites",
    ]


def test_undrawn_cards_set_aside_public_at_end_of_epoch_R7_R42() -> None:
    b = Board(2, epoch=5).deal(ANN, "sumerians").deal(BEN, "elamites").tribes("uruk", "sumerians", 1)
    b.deal(ANN, "medes")
    s = b.tribes("media", "medes", 1).round("medes", 1).state()
    assert all(c["people"] is None for c in s.view(ANN)["set_aside"] if c["epoch"] == 5)
    s.apply("stop")
    assert s.is_terminal()
    assert all(c["public"] for c in s.to_position()["set_aside"])
    assert len([c for c in s.view(None)["set_aside"] if c["epoch"] == 5 and c["people"]]) == 3


def test_set_aside_never_revealed_variant_R42() -> None:
    b = Board(2, epoch=1, set_aside_reveal="never").deal(ANN, "sumerians").deal(BEN, "guti")
    s = b.tribes("uruk", "sumerians", 1).tribes("gutium", "guti", 1).round("guti", 1).state()
    s.apply("stop")
    assert s.to_position()["epoch"] == 2
    assert not any(c["public"] for c in s.to_position()["set_aside"])
    assert all(c["people"] is None for c in s.view(ANN)["set_aside"])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_one_new_people_per_player_per_epoch_R7(players: int) -> None:
    import random

    rng = random.Random(players)
    s = load(players).new_initial_state()
    while not s.is_terminal():
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    pos = s.to_position()
    for pl in pos["players"]:
        assert [c["epoch"] for c in pl["cards"]] == [1, 2, 3, 4, 5]
    assert len(pos["set_aside"]) == 5 * (5 - players)
    assert all(c["public"] for pl in pos["players"] for c in pl["cards"])
    assert sum(1 for p in range(PEOPLES.size) if s.owner[p] >= 0) == 5 * players
