"""Placement (E8), start placement and displacement (E7), seas and Seafaring (E9), uninhabited
areas (E10), deserts (E11) and stacking (E13), with the rulings and options that change them."""

from __future__ import annotations

import copy

from epochs_helpers import ANN, BEN, CAL, Board, areas, conserved, play, pool, refuse, targets, vp

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import PEOPLES_DATA


def elamites(*extra: tuple[str, str, int], **options) -> ziggurat.State:
    b = Board(3, epoch=1, **options).deal(ANN, "elamites").deal(BEN, "sumerians")
    b.tribes("elam", "elamites", 1)
    for area, people, count in extra:
        b.tribes(area, people, count)
    return b.round("elamites", 3).state()


def test_targets_are_own_areas_and_land_neighbours_E8_2() -> None:
    s = elamites()
    assert targets(s) == sorted(["elam", "akkad", "babylon", "gutium", "media", "ur", "uruk"])
    assert s.legal_actions()[-1] == "stop"


def test_adjacency_is_a_listed_border_only_E8_3_R27() -> None:
    s = elamites()
    refuse(s, "place ashur", "E8.2", "E8.3")
    refuse(s, "place thebes", "E8.2")


def test_sea_and_uninhabited_areas_are_never_targets_E9_1_E10_1_R22() -> None:
    b = Board(3, epoch=5).deal(ANN, "medes").tribes("media", "medes", 1)
    s = b.round("medes", 5).state()
    refuse(s, "place salt_desert", "E10.1", "R22")
    refuse(s, "place caucasus", "E10.1")
    refuse(s, "place great_green", "E9.1")
    b = Board(3, epoch=2).deal(ANN, "guti", "minoans").tribes("knossos", "minoans", 1)
    s = b.round("minoans", 3).state()
    refuse(s, "place great_green", "E9.1")


def test_placing_in_own_area_and_a_fresh_one_E8_1_E12_7() -> None:
    s = elamites()
    play(s, "place elam", "place media")
    assert areas(s)["elam"] == ("elamites", 2) and areas(s)["media"] == ("elamites", 1)
    assert pool(s) == 1
    assert "place media" in s.legal_actions()  # expansion continues from the new area
    assert "place subartu" in s.legal_actions()
    conserved(s)


def test_stacking_limit_E13_1_R23_and_option() -> None:
    s = elamites(("ur", "elamites", 3))
    assert "place ur" not in s.legal_actions()
    refuse(s, "place ur", "E13.1", "R23")
    s = elamites(("ur", "elamites", 2), stack_limit=2)
    refuse(s, "place ur", "E13.1")
    s = elamites(("ur", "elamites", 3), stack_limit=4)
    assert "place ur" in s.legal_actions()


def test_stop_discards_the_pool_E8_6_R14() -> None:
    s = elamites()
    before = s.to_position()["peoples"]["elamites"]["entered"]
    play(s, "stop")
    assert s.to_position()["round"] is None or s.to_position()["round"]["people"] != "elamites"
    assert s.to_position()["peoples"]["elamites"]["entered"] == before  # never placed, never banked
    assert vp(s)[ANN] == 1


def test_round_ends_when_the_pool_is_empty_E8_6() -> None:
    s = elamites()
    play(s, "place media", "place media")
    assert pool(s) == 1
    play(s, "place media")
    assert vp(s)[ANN] == 2  # Elam + Media scored; the round ended without a stop
    assert "stop" not in s.history()


def test_attacking_an_own_other_people_is_allowed_R20_E8_5() -> None:
    b = Board(3, epoch=3).deal(ANN, "egyptians", "minoans", "hyksos")
    s = b.tribes("sinai", "hyksos", 1).tribes("avaris", "egyptians", 1).round("hyksos", 2).state()
    play(s, "place avaris")
    assert s.current_player() == ziggurat.CHANCE
    assert s.to_position()["pending"] == ["combat", "avaris", 1]


def _own_attack_board(**options) -> Board:
    b = Board(3, epoch=3, **options).deal(ANN, "egyptians", "minoans", "hyksos")
    b.tribes("sinai", "hyksos", 1).tribes("avaris", "hyksos", 1)
    return b.tribes("thebes", "egyptians", 3).tribes("memphis", "egyptians", 3)


def test_forbidding_own_attacks_can_leave_no_target_R20_E8_6() -> None:
    """attack_own_peoples=false: the Egyptians, full in Thebes and Memphis, cannot attack Ann's
    Hyksos in Avaris: no target remains, so the round ends at once (and scores)."""
    s = _own_attack_board(attack_own_peoples=False).round("egyptians", 2).state()
    refuse(s, "place avaris", "R20")
    assert s.legal_actions() == ["stop"]
    s = _own_attack_board(attack_own_peoples=False).round("hyksos", 1).state()
    s.apply("stop")  # the Hyksos end; the Egyptians (#12) get 1 + 6 tribes but have no target
    assert s.to_position()["peoples"]["egyptians"]["vp"] == 4 + 2  # Thebes (bonus) 4, Memphis 2
    assert s.to_position()["round"]["people"] != "egyptians"
    s = _own_attack_board().round("hyksos", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == "egyptians" and targets(s) == ["avaris"]
    conserved(s)


# --- Seafaring (E9.3, R13, R31) ---------------------------------------------------------------


def phoenicians(*extra: tuple[str, str, int], **options) -> ziggurat.State:
    b = Board(3, epoch=3, **options).deal(ANN, "guti", "phoenicians").deal(BEN, "egyptians", "minoans")
    b.tribes("yamhad", "phoenicians", 1)
    for area, people, count in extra:
        b.tribes(area, people, count)
    return b.round("phoenicians", 3).state()


def test_seafaring_needs_an_own_coastal_area_R31() -> None:
    s = phoenicians(("knossos", "minoans", 1))
    assert targets(s) == ["byblos", "isuwa", "kizzuwatna", "mari", "nisibis", "ugarit", "yamhad"]
    refuse(s, "place islands", "E9.3", "R31")


def test_coastal_area_of_the_same_players_other_people_does_not_count_R31() -> None:
    b = Board(3, epoch=3).deal(ANN, "egyptians", "phoenicians")
    s = b.tribes("yamhad", "phoenicians", 1).tribes("avaris", "egyptians", 1).round("phoenicians", 3).state()
    refuse(s, "place islands", "R31")


def test_seafaring_chains_from_a_coast_taken_this_round_R13() -> None:
    s = phoenicians()
    play(s, "place ugarit")
    assert "place islands" in s.legal_actions()
    assert "place thrace" in s.legal_actions()
    s = phoenicians(seafaring_chain=False)
    play(s, "place ugarit")
    refuse(s, "place islands", "E9.3")
    assert "place kizzuwatna" in s.legal_actions()  # by land from Ugarit


def test_seafaring_reaches_islands_and_respects_stacking_E9_3() -> None:
    s = phoenicians(("byblos", "phoenicians", 3), ("islands", "phoenicians", 3))
    assert "place alishiya" in s.legal_actions()
    refuse(s, "place islands", "E13.1")


# --- start placement and displacement (E7, R10, R11, R30, R41) ----------------------------------


def test_displacement_is_decided_by_the_displaced_owner_E7_2_D2() -> None:
    b = Board(3, epoch=5).deal(ANN, "philistines").deal(BEN, "hebrews").deal(CAL, "guti")
    b.tribes("canaan", "philistines", 2)
    s = b.round("philistines", 1).state()
    s.apply("stop")  # R30: the Hebrews (#23) enter at Canaan, held by the Philistines
    assert s.to_position()["pending"] == ["displace", "canaan"]
    assert s.current_player() == ANN
    assert s.legal_actions() == ["displace byblos", "displace sinai"]
    refuse(s, "displace aramaea", "E7.2", "R10")
    refuse(s, "displace arabian_desert", "E7.2")
    refuse(s, "displace great_green", "E7.2")
    refuse(s, "place byblos", "E7.2")
    refuse(s, "stop", "D2")
    refuse(s, "remove", "E7.3")
    refuse(s, "displace canaan", "E7.2")
    play(s, "displace sinai", "displace sinai")
    assert areas(s)["sinai"] == ("philistines", 2) and areas(s)["canaan"] == ("hebrews", 1)
    assert s.current_player() == BEN and pool(s) == 2
    conserved(s)


def _x3(**options) -> ziggurat.State:
    b = Board(3, epoch=3, **options).deal(ANN, "egyptians", "phoenicians")
    b.deal(BEN, "akkadians", "hittites", "hyksos")
    b.tribes("sinai", "egyptians", 1).tribes("avaris", "egyptians", 3).tribes("canaan", "phoenicians", 1)
    s = b.tribes("arzawa", "hittites", 1).round("hittites", 1).state()
    s.apply("stop")
    return s


def test_displacement_moves_by_land_only_R41_and_sea_variant() -> None:
    """X3's Egyptian tribe with Avaris full is removed rather than sail off (R41); with
    displacement_uses_sea it may go to any free coastal area."""
    s = _x3()
    assert s.to_position()["peoples"]["egyptians"]["removed"] == 1
    assert areas(s)["sinai"] == ("hyksos", 1)
    s = _x3(displacement_uses_sea=True)
    assert s.to_position()["pending"] == ["displace", "sinai"]
    assert "displace islands" in s.legal_actions() and "displace canaan" not in s.legal_actions()
    assert "displace avaris" not in s.legal_actions()  # full (E13.1)
    play(s, "displace islands")
    assert areas(s)["islands"] == ("egyptians", 1)
    conserved(s)


def test_displacement_into_desert_variant_R10() -> None:
    b = Board(3, epoch=5, displacement_into_desert=True).deal(ANN, "philistines").deal(BEN, "hebrews")
    s = b.tribes("canaan", "philistines", 1).round("philistines", 1).state()
    s.apply("stop")
    assert "displace aramaea" in s.legal_actions()


def test_displaced_from_a_desert_never_enters_the_other_desert_R11() -> None:
    b = Board(3, epoch=4, displacement_into_desert=True).deal(ANN, "guti", "amorites")
    b.deal(BEN, "akkadians", "hittites", "hyksos", "aramaeans").deal(
        CAL, "elamites", "kassites", "hurrians", "chaldeans"
    )
    s = b.tribes("aramaea", "amorites", 1).tribes("kaldu", "chaldeans", 1).round("chaldeans", 1).state()
    s.apply("stop")
    assert s.to_position()["pending"] == ["displace", "aramaea"]
    assert "displace kaldu" not in s.legal_actions()
    refuse(s, "displace kaldu", "R11")


def test_displacement_respects_stacking_and_removes_when_stuck_E7_3_R23() -> None:
    b = Board(3, epoch=5).deal(ANN, "urartians").deal(BEN, "cimmerians").deal(CAL, "hurrians")
    b.tribes("urartu", "urartians", 2).tribes("isuwa", "urartians", 3).tribes("nisibis", "hurrians", 1)
    b.tribes("subartu", "hurrians", 1).tribes("media", "hurrians", 1)
    s = b.round("urartians", 1).state()
    n = len(s.events())
    s.apply("stop")  # R30: the Cimmerians (#25) enter Urartu; Isuwa full, the rest Hurrian
    autos = [(w, t) for w, t, a, _ in s.events()[n:] if a]
    assert autos == [(ANN, "remove"), (ANN, "remove")]
    assert s.to_position()["peoples"]["urartians"]["removed"] == 2
    assert areas(s)["urartu"] == ("cimmerians", 1)
    conserved(s)


def test_sea_start_lands_on_any_coast_then_every_coast_is_reachable_E7_5_R12() -> None:
    b = (
        Board(3, epoch=3)
        .deal(ANN, "guti", "kassites", "assyrians")
        .deal(BEN, "akkadians", "hittites", "sea_peoples")
    )
    s = b.tribes("ashur", "assyrians", 1).round("assyrians", 1).state()
    s.apply("stop")
    assert s.to_position()["pending"] == ["landing"] and s.current_player() == BEN
    refuse(s, "land great_green", "E7.5")
    refuse(s, "place thrace", "D3")
    play(s, "land thrace")
    assert areas(s)["thrace"] == ("sea_peoples", 1) and pool(s) == 5
    assert s.to_position()["round"]["sea_start"] is True
    assert "place memphis" in s.legal_actions()
    conserved(s)


def test_sea_start_all_coastal_off_limits_later_tribes_R12() -> None:
    data = copy.deepcopy(PEOPLES_DATA)
    for card in data["peoples"]:
        if card["id"] == "sea_peoples":
            card["abilities"] = ["military"]
    for flag, reachable in ((True, True), (False, False)):
        b = Board(3, epoch=3, peoples=data, sea_start_all_coastal=flag)
        b.deal(ANN, "guti", "kassites", "assyrians").deal(BEN, "akkadians", "hittites", "sea_peoples")
        s = b.tribes("ashur", "assyrians", 1).round("assyrians", 1).state()
        play(s, "stop", "land thrace")
        assert ("place memphis" in s.legal_actions()) is reachable
        assert "place ahhiyawa" in s.legal_actions()


def test_desert_reinforcement_R39_and_variant() -> None:
    b = Board(3, epoch=2).deal(ANN, "guti", "amorites").tribes("aramaea", "amorites", 1)
    s = b.round("amorites", 3).state()
    assert "place aramaea" in s.legal_actions()
    b = Board(3, epoch=2, reinforce_own_desert=False).deal(ANN, "guti", "amorites")
    s = b.tribes("aramaea", "amorites", 1).round("amorites", 3).state()
    refuse(s, "place aramaea", "R39")
    assert "place akkad" in s.legal_actions()  # E11.4: exits stay open


def test_desert_start_is_legal_E7_4() -> None:
    b = Board(3, epoch=4).deal(ANN, "guti", "amorites", "hyksos", "chaldeans")
    s = b.tribes("aramaea", "amorites", 1).round("amorites", 1).state()
    assert s.to_position()["round"]["people"] == "amorites"
    s.apply("stop")  # ... through to the Chaldeans (#20), starting in Kaldu
    while s.to_position()["round"]["people"] != "chaldeans":
        s.apply("stop")
    assert areas(s)["kaldu"] == ("chaldeans", 1)
    assert "place kaldu" in s.legal_actions() and "place aramaea" not in s.legal_actions()
