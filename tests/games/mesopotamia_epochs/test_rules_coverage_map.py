"""The map in play: islands (E8.4), coasts (E9.2), deserts (E11, R33), Ahhiyawa and Thrace
(R34); tribes that never move (E8.7) or share an area (E8.8); displacement without the sea
(E9.5); the start of combat (E12.1) and stacking during it (E13.2); the mandatory start
placement (R44)."""

from __future__ import annotations

import copy
import random

import pytest
from epochs_helpers import ANN, BEN, CAL, Board, areas, conserved, load, play, pool, refuse, targets

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import PEOPLES_DATA


def _map(state: ziggurat.State):  # the game's compiled map (its public data)
    return state.game.rules.map


def _without_abilities(*peoples: str) -> dict:
    data = copy.deepcopy(PEOPLES_DATA)
    for card in data["peoples"]:
        if card["id"] in peoples:
            card["abilities"] = []
    return data


# --- E8.4 islands -----------------------------------------------------------------------------
def test_islands_are_land_for_placement_and_scoring_E8_4() -> None:
    # Mycenaeans without Seafaring: Crete's two islands share a land border (§3.5)
    b = Board(2, epoch=3, peoples=_without_abilities("mycenaeans")).deal(ANN, "mycenaeans")
    s = b.tribes("knossos", "mycenaeans", 1).round("mycenaeans", 2).state()
    assert targets(s) == ["khania", "knossos"]  # E8.2 (a) and (b); no sea-only island
    refuse(s, "place islands", "E8.2")
    play(s, "place khania", "place knossos")
    assert areas(s) == {"knossos": ("mycenaeans", 2), "khania": ("mycenaeans", 1)}
    # Knossos: double-value (2) and the Mycenaeans' bonus area (x 2); Khania 1 (E14.3)
    assert s.to_position()["peoples"]["mycenaeans"]["vp"] == 4 + 1


def test_an_island_can_be_attacked_like_land_E8_4_E12_1() -> None:
    b = Board(2, epoch=3).deal(ANN, "minoans", "mycenaeans").deal(BEN, "egyptians", "phoenicians")
    s = b.tribes("khania", "mycenaeans", 1).tribes("knossos", "minoans", 2).round("mycenaeans", 2).state()
    play(s, "place knossos")
    assert s.to_position()["pending"] == ["combat", "knossos", 1]


# --- E8.7, E8.8 placed tribes stay; one People per area -----------------------------------------
def test_placed_tribes_never_move_E8_7() -> None:
    b = Board(2, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians").tribes("elam", "elamites", 1)
    s = b.tribes("ur", "elamites", 2).round("elamites", 3).state()
    assert {a.split(" ", 1)[0] for a in s.legal_actions()} == {"place", "stop"}  # nothing moves
    refuse(s, "move ur media", exc=ziggurat.InvalidAction)
    play(s, "place media", "place babylon", "place babylon")
    assert areas(s) == {
        "elam": ("elamites", 1),
        "ur": ("elamites", 2),
        "media": ("elamites", 1),
        "babylon": ("elamites", 2),
    }


def test_no_area_holds_two_peoples_after_any_round_E8_8() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        s = load(4).new_initial_state()
        while not s.is_terminal():
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                legal = [a for a in s.legal_actions() if a != "stop"] or list(s.legal_actions())
                action = rng.choice(legal)
                before = areas(s)
                active = s.to_position()["round"]["people"] if s.to_position()["round"] else None
                s.apply(action)
                target = action.split(" ", 1)[1] if action.startswith("place ") else None
                if target in before and before[target][0] != active:  # a hostile area (E8.5)
                    assert s.to_position()["pending"][:2] == ["combat", target]
            pos = s.to_position()
            if pos["pending"] is None:  # between combats, as at the end of every round
                rows = [a for a, _, _ in pos["areas"]]
                assert len(rows) == len(set(rows))  # one holder per area
            conserved(s)


# --- E9.2 coasts --------------------------------------------------------------------------------
def test_coastal_areas_are_those_bordering_the_sea_E9_2() -> None:
    s = load(3).new_initial_state()
    m = _map(s)
    sea = {a for a, kind in zip(m.ids, m.kinds, strict=True) if kind == "sea"}
    assert sea == {"great_green"}
    for i, area in enumerate(m.ids):
        assert m.coastal[i] == any(m.ids[j] in sea for j in m.all_neighbours[i]), area
    coastal = {a for i, a in enumerate(m.ids) if m.coastal[i]}
    assert len(coastal) == 15 and "thrace" in coastal and "yamhad" not in coastal
    bad = copy.deepcopy(s.game.rules.map.data)
    next(a for a in bad["areas"] if a["id"] == "yamhad")["coastal"] = True
    with pytest.raises(ValueError, match="coastal"):  # a coastal flag must match the sea border
        load(3, map=bad)


# --- E9.5 displacement never uses the sea ---------------------------------------------------------
def _dorians_enter_thrace(ahhiyawa_held: bool) -> ziggurat.State:
    """Epoch 4: the Dorians (#19) start in Thrace, held by 2 tribes of the seafaring Mycenaeans,
    who also hold the coastal Knossos."""
    b = Board(3, epoch=4).deal(ANN, "mycenaeans", "lydians").deal(BEN, "dorians").deal(CAL, "phrygians")
    b.tribes("thrace", "mycenaeans", 2).tribes("knossos", "mycenaeans", 1).tribes("lukka", "lydians", 1)
    if ahhiyawa_held:
        b.tribes("ahhiyawa", "phrygians", 1)
    s = b.round("lydians", 1).state()
    s.apply("stop")
    return s


def test_displacement_ignores_seafaring_E9_5_R41() -> None:
    s = _dorians_enter_thrace(ahhiyawa_held=False)
    # Ahhiyawa, the one land exit, was the only destination: both moves were forced (§7)
    moves = [(who, text) for who, text, auto, _ in s.events() if text.startswith("displace")]
    assert moves == [(ANN, "displace ahhiyawa"), (ANN, "displace ahhiyawa")]
    assert areas(s)["ahhiyawa"] == ("mycenaeans", 2)
    assert areas(s)["thrace"] == ("dorians", 1)
    conserved(s)


def test_displaced_seafarers_with_no_land_exit_are_removed_E9_5_E7_3() -> None:
    s = _dorians_enter_thrace(ahhiyawa_held=True)
    assert s.to_position()["peoples"]["mycenaeans"]["removed"] == 2
    assert areas(s)["knossos"] == ("mycenaeans", 1)
    assert areas(s)["thrace"] == ("dorians", 1)
    conserved(s)


# --- E11 deserts, R33 Kaldu ------------------------------------------------------------------------
def test_the_deserts_are_kaldu_and_aramaea_E11_1_R33() -> None:
    m = _map(load(2).new_initial_state())
    assert {a for a, kind in zip(m.ids, m.kinds, strict=True) if kind == "desert"} == {"kaldu", "aramaea"}
    # the uninhabited "deserts" are labels only (§3.1)
    assert m.kinds[m.index["arabian_desert"]] == "uninhabited"


def test_kaldu_is_closed_to_its_neighbours_R33_E11_2() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").tribes("uruk", "sumerians", 1).tribes("ur", "sumerians", 1)
    s = b.round("sumerians", 3).state()
    assert "kaldu" not in targets(s)
    refuse(s, "place kaldu", "E11.2")


def test_a_held_desert_takes_more_tribes_up_to_three_E11_3() -> None:
    b = Board(2, epoch=4).deal(ANN, "chaldeans").tribes("kaldu", "chaldeans", 1)
    s = b.round("chaldeans", 4).state()
    play(s, "place kaldu", "place kaldu")
    assert areas(s)["kaldu"] == ("chaldeans", 3)
    refuse(s, "place kaldu", "E13.1")
    assert "place babylon" in s.legal_actions()  # the exits stay open (E11.4)


def test_nothing_attacks_into_a_desert_E11_5() -> None:
    b = (
        Board(3, epoch=4)
        .deal(ANN, "akkadians", "amorites")
        .deal(BEN, "guti", "kassites", "hurrians", "chaldeans")
    )
    b.tribes("aramaea", "amorites", 1).tribes("akkad", "akkadians", 3).tribes("kaldu", "chaldeans", 1)
    s = b.round("chaldeans", 3).state()  # the Chaldeans hold Kaldu, next to Aramaea
    assert "aramaea" not in targets(s)
    refuse(s, "place aramaea", "E11.2", "R21")
    b = (
        Board(3, epoch=4)
        .deal(ANN, "akkadians", "amorites")
        .deal(BEN, "guti", "kassites", "hurrians", "chaldeans")
    )
    b.tribes("aramaea", "amorites", 1).tribes("akkad", "akkadians", 3).tribes("kaldu", "chaldeans", 1)
    b.tribes("babylon", "hurrians", 1)
    s = b.round("hurrians", 3).state()  # the Hurrians hold Babylon, next to Kaldu
    refuse(s, "place kaldu", "E11.2")
    assert areas(s)["aramaea"] == ("amorites", 1) and areas(s)["kaldu"] == ("chaldeans", 1)


def test_difficult_border_out_of_a_desert_applies_E11_6() -> None:
    b = Board(3, epoch=2).deal(ANN, "guti", "amorites").deal(BEN, "egyptians", "phoenicians")
    s = b.tribes("aramaea", "amorites", 1).tribes("byblos", "phoenicians", 1).round("amorites", 2).state()
    play(s, "place byblos")  # Aramaea -> Byblos is a difficult border (§3.3): two defender dice
    assert s.to_position()["pending"] == ["combat", "byblos", 2]
    b = Board(3, epoch=2).deal(ANN, "guti", "amorites").deal(BEN, "egyptians", "phoenicians")
    b.tribes("aramaea", "amorites", 1).tribes("canaan", "phoenicians", 1)
    s = b.round("amorites", 2).state()
    play(s, "place canaan")  # Aramaea -> Canaan is not: one die
    assert s.to_position()["pending"] == ["combat", "canaan", 1]


# --- R34 Ahhiyawa and Thrace ------------------------------------------------------------------------
def test_ahhiyawa_in_anatolia_and_thrace_across_the_hellespont_R34() -> None:
    m = _map(load(2).new_initial_state())
    around = lambda a: {m.ids[j] for j in m.all_neighbours[m.index[a]]}  # noqa: E731
    assert around("thrace") == {"ahhiyawa", "great_green"}
    assert around("ahhiyawa") == {"arzawa", "hatti", "thrace", "great_green"}
    # the Phrygians start in Ahhiyawa and expand into Anatolia, or over to Thrace
    b = Board(2, epoch=4, peoples=_without_abilities("phrygians")).deal(ANN, "phrygians")
    s = b.tribes("ahhiyawa", "phrygians", 1).round("phrygians", 2).state()
    assert targets(s) == ["ahhiyawa", "arzawa", "hatti", "thrace"]


# --- E12.1, E13.2 combat ----------------------------------------------------------------------------
def test_placing_into_a_hostile_area_starts_combat_there_only_E12_1() -> None:
    b = Board(2, epoch=4).deal(ANN, "phrygians").deal(BEN, "lydians")
    b.tribes("hatti", "phrygians", 2).tribes("kanesh", "lydians", 2).tribes("lukka", "lydians", 3)
    s = b.round("phrygians", 3).state()
    play(s, "place kanesh")
    assert s.current_player() == ziggurat.CHANCE
    assert s.to_position()["pending"] == ["combat", "kanesh", 1]
    s.apply("roll 6,1 2")  # the attacking tribe beats one defender
    assert areas(s)["kanesh"] == ("lydians", 1)
    assert areas(s)["lukka"] == ("lydians", 3) and areas(s)["hatti"] == ("phrygians", 2)  # not involved
    s.apply("roll 1,1 6")  # the attacking tribe falls; the combat ends
    assert areas(s)["kanesh"] == ("lydians", 1) and areas(s)["hatti"] == ("phrygians", 2)
    assert s.current_player() == ANN and pool(s) == 2
    conserved(s)


def test_an_attacker_may_join_three_defenders_for_the_combat_E13_2() -> None:
    b = Board(2, epoch=4).deal(ANN, "phrygians").deal(BEN, "lydians")
    s = b.tribes("hatti", "phrygians", 3).tribes("kanesh", "lydians", 3).round("phrygians", 3).state()
    assert "place kanesh" in s.legal_actions()  # the limit counts each People separately
    play(s, "place kanesh")
    assert s.to_position()["pending"] == ["combat", "kanesh", 1]
    assert areas(s)["kanesh"] == ("lydians", 3)
    conserved(s)  # four tribes in Kanesh for the moment, all legal
    for _ in range(3):
        s.apply("roll 6,6 1")
    assert areas(s)["kanesh"] == ("phrygians", 1)


# --- R44 the start placement is not optional ---------------------------------------------------------
def test_a_new_peoples_first_tribe_is_placed_without_a_choice_R44_E7_1() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "akkadians").tribes("uruk", "sumerians", 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == "akkadians"
    assert areas(s)["akkad"] == ("akkadians", 1) and pool(s) == 11  # in, before any D4
    assert s.history()[-1] == "stop"  # nobody chose it: the start tribe is not a decision


def test_a_sea_start_must_land_before_anything_else_R44_E7_5() -> None:
    b = (
        Board(3, epoch=3)
        .deal(ANN, "guti", "kassites", "assyrians")
        .deal(BEN, "akkadians", "hittites", "sea_peoples")
    )
    s = b.tribes("ashur", "assyrians", 1).round("assyrians", 1).state()
    s.apply("stop")
    assert s.to_position()["pending"] == ["landing"]
    assert all(a.startswith("land ") for a in s.legal_actions())  # no 'stop' before landing
    refuse(s, "stop", "R44")
