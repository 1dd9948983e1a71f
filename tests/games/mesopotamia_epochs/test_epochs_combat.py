"""Combat (E12, C3): dice as chance nodes, difficult terrain and routes, Military, Urbanisation,
ties, continuation, and the exact odds of E12.10."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from epochs_helpers import ANN, BEN, Board, areas, conserved, play, pool, refuse

import ziggurat
from ziggurat.games.mesopotamia_epochs.combat import ATTACKER, BOTH, DEFENDER, roll_winner
from ziggurat.games.mesopotamia_epochs.data import PEOPLES_DATA

# the Phrygians and Lydians stand in for "a People with these abilities" (cards edited per case)
ATT, DEF = "phrygians", "lydians"


def _cards(att: list[str], dfn: list[str]) -> dict:
    data = copy.deepcopy(PEOPLES_DATA)
    for card in data["peoples"]:
        if card["id"] == ATT:
            card["abilities"] = att
        if card["id"] == DEF:
            card["abilities"] = dfn
    return data


def attack(att: list[str], dfn: list[str], difficult: bool, **options) -> ziggurat.State:
    """The attacker's tribe has just entered Gutium (from Ashur: difficult) or Ashur (from
    Gutium: normal), held by 3 defenders."""
    b = Board(2, epoch=4, peoples=_cards(att, dfn), **options).deal(ANN, ATT).deal(BEN, DEF)
    source, target = ("ashur", "gutium") if difficult else ("gutium", "ashur")
    s = b.tribes(source, ATT, 1).tribes(target, DEF, 3).round(ATT, 2).state()
    play(s, f"place {target}")
    return s


def odds(s: ziggurat.State) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (attacker wins, defender wins, tie) over the chance outcomes of one roll."""
    total = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), BOTH: Fraction(0)}
    for text, p in s.chance_outcomes():
        _, a, d = text.split(" ")
        winner = roll_winner(s, tuple(map(int, a.split(","))), tuple(map(int, d.split(","))))
        total[winner] += Fraction(1, round(1 / p))
    assert sum(total.values()) == 1
    return total[ATTACKER], total[DEFENDER], total[BOTH]


F = Fraction
TABLE = [  # E12.10: (attacker, defender abilities, difficult, attacker wins, defender wins, tie)
    ([], [], False, F(125, 216), F(55, 216), F(1, 6)),
    ([], [], True, F(505, 1296), F(505, 1296), F(143, 648)),
    (["military"], [], False, F(161, 216), F(5, 36), F(25, 216)),
    (["military"], [], True, F(791, 1296), F(145, 648), F(215, 1296)),
    (["urbanisation"], [], False, F(161, 216), F(55, 216), F(0)),
    ([], ["urbanisation"], False, F(125, 216), F(91, 216), F(0)),
    ([], ["urbanisation"], True, F(505, 1296), F(791, 1296), F(0)),
    (["military"], ["urbanisation"], False, F(161, 216), F(55, 216), F(0)),
    (["military", "urbanisation"], [], False, F(31, 36), F(5, 36), F(0)),
    (["urbanisation"], ["urbanisation"], False, F(125, 216), F(55, 216), F(1, 6)),
    ([], ["military"], False, F(125, 216), F(55, 216), F(1, 6)),  # R18: no Military in defence
]


@pytest.mark.parametrize(("att", "dfn", "difficult", "win", "lose", "tie"), TABLE)
def test_exact_odds_of_one_roll_E12_10(att, dfn, difficult, win, lose, tie) -> None:
    """E12.2-E12.5, R16-R18: the engine's resolution over every outcome gives the spec's table."""
    s = attack(att, dfn, difficult)
    assert len(s.chance_outcomes()) == 6 ** (4 if difficult else 3)
    assert odds(s) == (win, lose, tie)


def test_each_roll_removes_exactly_one_tribe_or_one_each_R37() -> None:
    for text, effect in (("roll 6,1 2", (3 - 1, 0)), ("roll 1,1 2", (3, 1)), ("roll 2,1 2", (3 - 1, 1))):
        s = attack([], [], False)
        before = s.to_position()["peoples"]
        play(s, text)
        after = s.to_position()["peoples"]
        assert areas(s)["ashur"] == (DEF, effect[0])
        assert after[ATT]["removed"] - before[ATT]["removed"] == effect[1]
        assert after[DEF]["removed"] - before[DEF]["removed"] == 3 - effect[0]
        conserved(s)


def test_a_surviving_attacker_rolls_until_it_falls_or_wins_E12_6_R15() -> None:
    s = attack([], [], False)
    play(s, "roll 6,6 1", "roll 6,6 1")
    assert s.current_player() == ziggurat.CHANCE and areas(s)["ashur"] == (DEF, 1)
    refuse(s, "stop", "C3")
    play(s, "roll 5,5 1")
    assert areas(s)["ashur"] == (ATT, 1)  # E12.7: captured by the surviving attacking tribe
    assert s.current_player() == ANN and pool(s) == 1
    conserved(s)


def test_after_losing_the_owner_may_attack_again_or_stop_E12_8() -> None:
    s = attack([], [], False)
    play(s, "roll 1,1 6")
    assert s.current_player() == ANN
    assert "place ashur" in s.legal_actions() and "stop" in s.legal_actions()
    assert areas(s)["ashur"] == (DEF, 3) and pool(s) == 1


def test_roll_refusals_name_the_dice_rules_E12_2_E12_3() -> None:
    s = attack([], [], True)
    refuse(s, "roll 1,2 3", "E12.3", "E12.4")  # difficult: the defender rolls two dice
    refuse(s, "roll 7,2 3,1", "E12.2")
    refuse(s, "place gutium", "C3")
    refuse(s, "roll 1", exc=ziggurat.InvalidAction)


def test_military_bonus_option_R18() -> None:
    s = attack(["military"], [], False, military_bonus=2)
    assert roll_winner(s, (4, 1), (6,)) == BOTH
    assert odds(s)[2] == F(sum(2 * k - 1 for k in range(1, 5)), 216)  # ties: kept 1..4 meets k+2


def test_die_sides_option() -> None:
    s = attack([], [], False, die_sides=8)
    assert len(s.chance_outcomes()) == 8**3
    assert "roll 8,8 8" in s.legal_actions()


def _minoans(*extra: tuple[str, str, int], **options) -> ziggurat.State:
    b = Board(3, epoch=2, **options).deal(ANN, "guti", "minoans").deal(BEN, "egyptians")
    b.tribes("knossos", "minoans", 1).tribes("canaan", "egyptians", 1)
    for area, people, count in extra:
        b.tribes(area, people, count)
    return b.round("minoans", 3).state()


def test_sea_routes_are_never_difficult_E9_4_and_variant_R13() -> None:
    s = _minoans()
    play(s, "place canaan")
    assert s.to_position()["pending"] == ["combat", "canaan", 1]
    s = _minoans(sea_attack_extra_defender_die=True)
    play(s, "place canaan")
    assert s.to_position()["pending"] == ["combat", "canaan", 2]
    # with the variant, a normal land route (Sinai -> Canaan) still gives one die (fewest dice)
    s = _minoans(("sinai", "minoans", 1), sea_attack_extra_defender_die=True)
    play(s, "place canaan")
    assert s.to_position()["pending"] == ["combat", "canaan", 1]


def test_attack_out_of_a_desert_uses_its_difficult_border_R19() -> None:
    b = Board(3, epoch=2).deal(ANN, "guti", "amorites").deal(BEN, "egyptians", "phoenicians")
    s = b.tribes("aramaea", "amorites", 1).tribes("byblos", "phoenicians", 1).round("amorites", 2).state()
    play(s, "place byblos")
    assert s.to_position()["pending"] == ["combat", "byblos", 2]


def test_both_directions_of_a_seed_border_are_difficult_section3_3() -> None:
    for source, target in (("kanesh", "kizzuwatna"), ("kizzuwatna", "kanesh")):
        b = Board(2, epoch=4).deal(ANN, "phrygians").deal(BEN, "lydians")
        s = b.tribes(source, "phrygians", 1).tribes(target, "lydians", 1).round("phrygians", 2).state()
        play(s, f"place {target}")
        assert s.to_position()["pending"] == ["combat", target, 2]


def test_same_player_on_both_sides_is_an_ordinary_combat_E12_9_R36() -> None:
    b = Board(2, epoch=4).deal(ANN, "phrygians", "hittites")
    s = b.tribes("ahhiyawa", "phrygians", 1).tribes("hatti", "hittites", 1).round("phrygians", 2).state()
    play(s, "place hatti")
    assert len(s.chance_outcomes()) == 216
    play(s, "roll 3,1 3")  # a tie: neither has Urbanisation
    assert "hatti" not in areas(s)
    conserved(s)
