"""People rounds and their order (E4), tribal pools (E5, E6, R1-R6), scoring (E14, R24, R35)
and the end of the game (E15, R25, R26)."""

from __future__ import annotations

import random

import pytest
from epochs_helpers import ANN, BEN, CAL, PEOPLES, Board, areas, conserved, load, pool, vp

import ziggurat
from ziggurat.games.mesopotamia_epochs.rounds import ranking

REFERENCE = {  # E4.6, every People in play
    1: [1, 2, 3, 4, 5],
    2: list(range(1, 11)),
    3: [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    4: [o for o in range(1, 22) if o != 12],
    5: [o for o in range(1, 29) if o not in (12, 15, 20)],
}


@pytest.mark.parametrize("epoch", [1, 2, 3, 4, 5])
def test_reference_round_order_E4_2_E4_3_E4_6(epoch: int) -> None:
    orders = [o for o, _ in PEOPLES.schedule[epoch]]
    assert orders == REFERENCE[epoch]
    assert len(orders) == 5 * epoch
    who = {o: PEOPLES.ids[p] for o, p in PEOPLES.schedule[epoch]}
    if epoch == 3:
        assert who[12] == "egyptians"
    if epoch == 5:
        assert (who[26], who[27], who[28]) == ("assyrians", "chaldeans", "medes")


def test_rounds_follow_people_number_not_player_E4_3() -> None:
    """Peoples act by number: Ann's Sumerians (#1), Ben's Elamites (#2), Ann's Egyptians (#3)."""
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "elamites")
    b.tribes("uruk", "sumerians", 1).tribes("elam", "elamites", 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    assert (s.to_position()["round"]["people"], s.current_player()) == ("elamites", BEN)


def test_old_people_without_tribes_has_no_round_E4_5() -> None:
    b = Board(2, epoch=2).deal(ANN, "sumerians").deal(BEN, "elamites").vp(BEN, 7)
    b.tribes("uruk", "sumerians", 1).tribes("gutium", "guti", 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")  # the Elamites hold nothing: no pool, no placement, no scoring
    assert s.to_position()["round"]["people"] != "elamites"
    assert vp(s)[BEN] == 7


def test_new_people_pool_is_its_printed_count_E5_1_R4() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "akkadians")
    s = b.tribes("uruk", "sumerians", 1).round("sumerians", 1).state()
    s.apply("stop")
    # Akkadians (#4) enter with 12 tribes: the start tribe, then a pool of 11 (E7.6)
    assert s.to_position()["round"]["people"] == "akkadians"
    assert pool(s) == 11
    assert areas(s)["akkad"] == ("akkadians", 1)


def test_new_people_growth_variant_R4() -> None:
    """new_people_growth: growth on the one area held after the start tribe (Fast: +1)."""
    b = Board(2, epoch=2, new_people_growth=True).deal(ANN, "guti", "amorites")
    s = b.tribes("gutium", "guti", 1).round("guti", 1).state()
    s.apply("stop")
    assert (s.to_position()["round"]["people"], pool(s)) == ("amorites", 8 - 1 + 1)
    default = (
        Board(2, epoch=2).deal(ANN, "guti", "amorites").tribes("gutium", "guti", 1).round("guti", 1).state()
    )
    default.apply("stop")
    assert pool(default) == 7


def _old_round(people: str, held: list[str], epoch: int = 3, **options) -> ziggurat.State:
    """The round of old People ``people`` (Ann's) has just begun, after the Sumerians' stop."""
    b = Board(2, epoch=epoch, **options).deal(ANN, "sumerians", people).deal(BEN, "elamites")
    b.tribes("uruk", "sumerians", 1)
    for a in held:
        b.tribes(a, people, 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    return s


def test_empty_pool_still_scores_E6_7_R5() -> None:
    s = _old_round("hittites", ["isuwa"], epoch=4)  # 1 area: growth 0, no reinforcement in Epoch 4
    # no decision was possible: the Hittites' round was played through and scored Isuwa
    assert s.to_position()["peoples"]["hittites"]["vp"] == 1
    assert s.to_position()["round"]["people"] != "hittites"


def test_empty_pool_round_scores_false_skips_the_round_R5() -> None:
    s = _old_round("hittites", ["isuwa"], epoch=4, empty_pool_round_scores=False)
    assert s.to_position()["peoples"]["hittites"]["vp"] == 0


def test_slow_growth_keeps_reinforcements_R3_and_variant() -> None:
    """Slow Growth replaces growth only; with the variant off, reinforcements are dropped."""
    held = ["babylon", "akkad", "mari", "nisibis", "isuwa"]
    s = _old_round("kassites", held)  # standard: growth 2 + 5 (Epoch 3)
    assert pool(s) == 7
    peoples = _peoples_with(kassites_abilities=["slow_growth"])
    s = _old_round("kassites", held, peoples=peoples)
    assert pool(s) == 1 + 5
    s = _old_round("kassites", held, peoples=peoples, slow_growth_keeps_reinforcements=False)
    assert pool(s) == 1
    s = _old_round("kassites", held, peoples=peoples, growth_slow=2)
    assert pool(s) == 2 + 5


def _peoples_with(kassites_abilities: list[str]) -> dict:
    import copy

    from ziggurat.games.mesopotamia_epochs.data import PEOPLES_DATA

    data = copy.deepcopy(PEOPLES_DATA)
    for card in data["peoples"]:
        if card["id"] == "kassites":
            card["abilities"] = kassites_abilities
    return data


def test_growth_counts_areas_not_tribes_E6_2_R32() -> None:
    s = _old_round("hittites", ["isuwa", "hatti"], epoch=4)  # 2 areas: growth 1
    assert pool(s) == 1
    b = Board(2, epoch=4).deal(ANN, "sumerians", "hittites").deal(BEN, "elamites")
    b.tribes("uruk", "sumerians", 1).tribes("isuwa", "hittites", 3).tribes("hatti", "hittites", 3)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    assert pool(s) == 1  # 6 tribes in 2 areas: still growth 1


def test_growth_formulas_are_options_R1() -> None:
    s = _old_round("hittites", ["isuwa", "hatti", "arzawa", "lukka"], epoch=4, growth_standard="n")
    assert pool(s) == 4


def test_reenter_variant_restarts_rescheduled_people_R6() -> None:
    """rescheduled_without_tribes=reenter_at_start_area: the Egyptians at #12 re-enter at
    Avaris (a start placement, displacing what is there) with their 6 reinforcements."""
    b = Board(3, epoch=3, rescheduled_without_tribes="reenter_at_start_area")
    b.deal(ANN, "egyptians", "hittites", "hyksos").deal(BEN, "elamites")
    s = b.tribes("sinai", "hyksos", 1).tribes("avaris", "elamites", 1).round("hyksos", 1).state()
    n = len(s.events())
    s.apply("stop")
    pos = s.to_position()
    assert pos["round"]["people"] == "egyptians" and pos["round"]["order"] == 12
    # the Elamite tribe's only destination is Memphis: a forced D2 of Ben's
    assert [(w, t, a) for w, t, a, _ in s.events()[n:]][1:] == [(BEN, "displace memphis", True)]
    assert areas(s)["avaris"] == ("egyptians", 1) and areas(s)["memphis"] == ("elamites", 1)
    assert pool(s) == 5
    conserved(s)
    default = Board(3, epoch=3).deal(ANN, "egyptians", "hittites", "hyksos").deal(BEN, "elamites")
    s = default.tribes("sinai", "hyksos", 1).round("hyksos", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == "hurrians"  # default R6: the round is lost


def test_only_the_active_people_scores_E14_1_R24() -> None:
    b = Board(2, epoch=2).deal(ANN, "sumerians", "amorites").deal(BEN, "elamites")
    b.tribes("uruk", "sumerians", 1).tribes("aramaea", "amorites", 1).tribes("elam", "elamites", 1)
    s = b.tribes("media", "elamites", 1).round("sumerians", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == "elamites" and pool(s) == 1
    assert s.to_position()["peoples"]["sumerians"]["vp"] == 1
    assert s.to_position()["peoples"]["amorites"]["vp"] == 0
    assert s.to_position()["peoples"]["elamites"]["vp"] == 0  # their round is next, not yet played


def test_same_player_bonus_shared_by_two_peoples_R35() -> None:
    b = Board(2, epoch=3).deal(ANN, "elamites").deal(BEN, "sumerians")
    s = b.tribes("ur", "sumerians", 1).tribes("elam", "elamites", 1).round("sumerians", 1).state()
    s.apply("stop")
    assert s.to_position()["peoples"]["sumerians"]["vp"] == 4  # Ur: double-value, bonus


def test_game_ends_after_the_medes_round_E15_1() -> None:
    b = Board(2, epoch=5).deal(ANN, "sumerians", "medes").deal(BEN, "elamites").vp(BEN, 3)
    s = b.tribes("media", "medes", 2).round("medes", 1).state()
    assert not s.is_terminal()
    s.apply("stop")
    assert s.is_terminal() and s.current_player() == ziggurat.TERMINAL
    assert vp(s) == [1, 3]
    assert s.returns() == [0.0, 1.0]
    with pytest.raises(ziggurat.GameOver):
        s.apply("stop")


def test_game_ends_after_last_round_played_without_the_medes_R26() -> None:
    b = Board(2, epoch=5).deal(ANN, "sumerians", "cimmerians").deal(BEN, "elamites", "urartians")
    s = b.tribes("urartu", "cimmerians", 1).round("cimmerians", 1).state()
    s.apply("stop")  # #25; rows 26-28 are not in play
    assert s.is_terminal()


def test_tie_break_most_areas_then_shared_E15_2_R25() -> None:
    b = Board(3, epoch=5, phase="over").deal(ANN, "sumerians").deal(BEN, "elamites").deal(CAL, "guti")
    b.vp(ANN, 20).vp(BEN, 20).vp(CAL, 20)
    b.tribes("uruk", "sumerians", 1).tribes("akkad", "sumerians", 1).tribes("elam", "elamites", 1)
    b.tribes("gutium", "guti", 1).tribes("media", "guti", 1)
    s = b.state()
    assert ranking(s) == [[ANN, CAL], [BEN]]
    assert s.returns() == [0.5, 0.0, 0.5]  # a shared victory splits the win
    s = Board(3, epoch=5, phase="over", end_tiebreak=["shared"]).vp(ANN, 1).state()
    assert s.returns() == [1.0, 0.0, 0.0]
    s = Board(3, epoch=5, phase="over", end_tiebreak=["shared"]).state()
    assert s.returns() == pytest.approx([1 / 3] * 3)


def test_returns_are_zero_until_the_end() -> None:
    s = load(3).new_initial_state()
    assert s.returns() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_random_playouts_finish_in_epoch5_E2_1(players: int) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        s = load(players).new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                legal = s.legal_actions()
                moves = [a for a in legal if a != "stop"]  # expand greedily: the longest games
                s.apply(rng.choice(moves or list(legal)))
            steps += 1
            assert steps < 20_000
        pos = s.to_position()
        assert pos["epoch"] == 5 and pos["phase"] == "over"
        assert sum(s.returns()) == pytest.approx(1.0)
        conserved(s)
