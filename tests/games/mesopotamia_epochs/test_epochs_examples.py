"""The worked examples X1-X12 of the rules spec (§8), one test per example (per part where the
example has parts a, b, c ...), step by step."""

from __future__ import annotations

import pytest
from epochs_helpers import ANN, BEN, CAL, PEOPLES, Board, areas, conserved, play, pool, refuse, targets, vp

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_PEOPLES, Rules, resolve_options

STANDARD = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
FAST = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
SLOW = [0] + [1] * 12


def events_since(state, count: int) -> list[tuple[int, str, bool, int]]:
    return state.events()[count:]


def owner_of(state, people: str) -> int:
    for seat, pl in enumerate(state.to_position()["players"]):
        if any(c["people"] == people for c in pl["cards"]):
            return seat
    raise AssertionError(people)


def round_people(state) -> str:
    return state.to_position()["round"]["people"]


@pytest.mark.parametrize("n", range(1, 13))
def test_X1_a_pool_sizes_by_growth_type(n: int) -> None:
    """X1 (a), E6.3-E6.5, R1-R3: standard floor((n+1)/3), Fast ceil(n/2), Slow exactly 1."""
    rules = Rules(3, resolve_options(3, {}))
    ix = DEFAULT_PEOPLES.index
    assert rules.growth(ix["elamites"], n) == STANDARD[n]
    assert rules.growth(ix["amorites"], n) == FAST[n]
    assert rules.growth(ix["akkadians"], n) == SLOW[n]
    assert (
        rules.growth(ix["elamites"], 0)
        == rules.growth(ix["amorites"], 0)
        == rules.growth(ix["akkadians"], 0)
        == 0
    )


def test_X1_b_sumerians_epoch2_pool_is_growth_plus_reinforcements() -> None:
    """X1 (b), E6.2, E6.6, R32: 5 areas (8 tribes) give growth 2, plus +4: pool 6."""
    b = Board(2, epoch=2, phase="allocation").deal(ANN, "sumerians").deal(BEN, "guti", "kassites")
    b.tribes("uruk", "sumerians", 3).tribes("ur", "sumerians", 2).tribes("babylon", "sumerians", 1)
    b.tribes("elam", "sumerians", 1).tribes("akkad", "sumerians", 1).tribes("gutium", "guti", 1)
    b.knows("kassites", ANN).unseen("kassites")  # Ann drew the Kassites and passed them to Ben
    b.vp(BEN, 1).drawing([ANN, BEN], 1).pending("keep", "hittites")
    s = b.state()
    assert s.legal_actions() == ["pass brooch"]  # Ben already holds Kassites: forced pass (E3.4)
    s.apply("pass brooch")
    assert round_people(s) == "sumerians"
    assert pool(s) == 6
    conserved(s)


def test_X1_c_fast_slow_and_one_area() -> None:
    """X1 (c): Amorites (Fast, 7 areas) pool 4; Akkadians (Slow, 9 areas) pool 1; Guti (Slow,
    1 area) pool 1, where a standard People with 1 area gets 0 (and still scores, E6.7)."""
    b = Board(3, epoch=3).deal(ANN, "akkadians", "amorites").deal(BEN, "guti", "phoenicians")
    b.deal(CAL, "elamites")
    b.tribes("elam", "elamites", 1)
    for a in ("akkad", "babylon", "uruk", "ur", "mari", "ashur", "subartu", "nisibis", "yamhad"):
        b.tribes(a, "akkadians", 1)
    b.tribes("gutium", "guti", 1)
    for a in ("aramaea", "canaan", "byblos", "ugarit", "sinai", "kizzuwatna", "isuwa"):
        b.tribes(a, "amorites", 1)
    b.tribes("islands", "phoenicians", 1)
    s = b.round("elamites", 1).state()
    s.apply("stop")
    assert (round_people(s), pool(s)) == ("akkadians", 1)
    s.apply("stop")
    assert (round_people(s), pool(s)) == ("guti", 1)
    s.apply("stop")
    assert (round_people(s), pool(s)) == ("amorites", 4)
    before = vp(s)[BEN]
    s.apply("stop")
    # the Phoenicians (standard growth) hold 1 area: pool 0, no decision, but they score
    assert vp(s)[BEN] == before + 1
    assert round_people(s) == "hyksos"  # Minoans (no tribes) skipped, Phoenicians played through
    conserved(s)


def _egyptians_board(epoch: int) -> Board:
    b = Board(3, epoch=epoch).deal(ANN, "egyptians", "hittites", "hyksos").deal(BEN, "elamites")
    return b


def test_X2_a_egyptians_move_twelfth_in_epoch3() -> None:
    """X2 (a), E4.2, R6: no round at #3 in Epoch 3; at #12, right after the Hyksos, pool
    growth 1 + 6 = 7."""
    orders = [o for o, p in PEOPLES.schedule[3] if PEOPLES.ids[p] == "egyptians"]
    assert orders == [12]
    b = _egyptians_board(3).tribes("avaris", "egyptians", 3).tribes("memphis", "egyptians", 2)
    b.tribes("thebes", "egyptians", 1).tribes("elam", "elamites", 1).tribes("akkad", "akkadians", 1)
    b.deal(CAL, "akkadians")
    s = b.round("elamites", 1).state()
    s.apply("stop")  # Elamites (#2) end: next is the Akkadians (#4), not the Egyptians
    assert round_people(s) == "akkadians"
    b.tribes("sinai", "hyksos", 1)
    s = b.round("hyksos", 1).state()
    s.apply("stop")
    assert (round_people(s), s.to_position()["round"]["order"], pool(s)) == ("egyptians", 12, 7)
    conserved(s)


def test_X2_b_egyptians_back_at_3_in_epoch4() -> None:
    """X2 (b): Epoch 4, #3, 4 areas: growth 1 + no reinforcements = pool 1."""
    b = _egyptians_board(4).tribes("elam", "elamites", 1)
    for a in ("avaris", "memphis", "thebes", "sinai"):
        b.tribes(a, "egyptians", 1)
    s = b.round("elamites", 1).state()
    s.apply("stop")
    assert (round_people(s), s.to_position()["round"]["order"], pool(s)) == ("egyptians", 3, 1)


def test_X2_c_egyptians_without_tribes_lose_their_round() -> None:
    """X2 (c), E4.5, R6 (lost): no tribes at #12: no round, the +6 are lost, no scoring."""
    b = _egyptians_board(3).tribes("sinai", "hyksos", 1).vp(ANN, 10)
    s = b.round("hyksos", 1).state()
    s.apply("stop")
    assert round_people(s) == "hurrians"  # #13: the Egyptians' #12 was skipped
    assert "egyptians" not in {p for p, _ in areas(s).values()}
    assert s.to_position()["peoples"]["egyptians"]["entered"] == 0
    assert vp(s)[ANN] == 10 + 1  # only the Hyksos' Sinai scored
    conserved(s)


def test_X3_displaced_start_area_tribes() -> None:
    """X3, E7.1-E7.3, R10, R41: the only destination is Avaris; the second tribe has none and
    is removed; the Hyksos' start tribe goes into Sinai (pool 5). Both are forced, auto events
    of the Egyptians' owner."""
    b = Board(3, epoch=3).deal(ANN, "egyptians", "phoenicians").deal(BEN, "akkadians", "hittites", "hyksos")
    b.tribes("sinai", "egyptians", 2).tribes("avaris", "egyptians", 2).tribes("canaan", "phoenicians", 1)
    b.tribes("arzawa", "hittites", 1)
    s = b.round("hittites", 1).state()
    n = len(s.events())
    s.apply("stop")
    auto = [(who, text) for who, text, is_auto, _ in events_since(s, n) if is_auto]
    assert auto == [(ANN, "displace avaris"), (ANN, "remove")]
    assert areas(s)["avaris"] == ("egyptians", 3)
    assert areas(s)["sinai"] == ("hyksos", 1)
    assert areas(s)["canaan"] == ("phoenicians", 1)
    assert (round_people(s), pool(s)) == ("hyksos", 5)
    assert s.to_position()["peoples"]["egyptians"]["removed"] == 1
    assert "stop" not in s.history()[:-1] and s.history()[-1] == "stop"  # forced ones are auto
    conserved(s)

    # Check: with 1 Egyptian tribe in Avaris, both displaced tribes go there (3)
    b.tribes("avaris", "egyptians", 1)
    s = b.state()
    s.apply("stop")
    assert areas(s)["avaris"] == ("egyptians", 3)
    assert s.to_position()["peoples"]["egyptians"]["removed"] == 0
    conserved(s)


def _assyrians(*extra: tuple[str, str, int]) -> ziggurat.State:
    b = Board(3, epoch=3).deal(ANN, "guti", "kassites", "assyrians").deal(BEN, "akkadians")
    b.tribes("ashur", "assyrians", 1).tribes("gutium", "guti", 1)
    for area, people, count in extra:
        b.tribes(area, people, count)
    return b.round("assyrians", 4).state()


def test_X4_a_difficult_attack_tie_empties_gutium() -> None:
    """X4 (a), E12.2-E12.5, §3.3: Ashur -> Gutium is difficult: the defender rolls two dice;
    A(2,4)+1 = 5 against D(5,1) = 5 is a tie without Urbanisation: both lose one."""
    s = _assyrians()
    play(s, "place gutium")
    assert s.current_player() == ziggurat.CHANCE
    assert s.to_position()["pending"] == ["combat", "gutium", 2]
    assert len(s.chance_outcomes()) == 6**4
    play(s, "roll 2,4 5,1")
    assert "gutium" not in areas(s)
    assert pool(s) == 3
    assert "place gutium" in s.legal_actions()
    play(s, "place gutium")  # now uncontested
    assert areas(s)["gutium"] == ("assyrians", 1)
    assert s.current_player() != ziggurat.CHANCE
    conserved(s)


def test_X4_b_an_easier_route_gives_one_die() -> None:
    """X4 (b), R40: holding Media too, the Media -> Gutium route is normal: one defender die."""
    s = _assyrians(("media", "assyrians", 1))
    play(s, "place gutium")
    assert s.to_position()["pending"] == ["combat", "gutium", 1]
    assert len(s.chance_outcomes()) == 6**3


def test_X4_c_the_reverse_direction_is_normal() -> None:
    """X4 (c): the Guti attacking Ashur from Gutium: a normal attack, one defender die."""
    b = Board(3, epoch=3).deal(ANN, "guti", "kassites", "assyrians").deal(BEN, "akkadians")
    s = b.tribes("ashur", "assyrians", 1).tribes("gutium", "guti", 1).round("guti", 1).state()
    play(s, "place ashur")
    assert s.to_position()["pending"] == ["combat", "ashur", 1]


def test_X5_urbanisation_wins_a_modified_tie() -> None:
    """X5, E12.5, E12.6, E12.8, R17: 7 beats 4; then 3+1 = 4 ties D(4) and the Sumerians'
    Urbanisation wins; the Akkadians' pool stays 10 and D4 is offered again."""
    b = Board(3, epoch=1).deal(ANN, "akkadians").deal(BEN, "sumerians").deal(CAL, "egyptians")
    s = b.tribes("babylon", "sumerians", 2).tribes("avaris", "egyptians", 1).round("egyptians", 1).state()
    s.apply("stop")
    assert round_people(s) == "akkadians"
    assert areas(s)["akkad"] == ("akkadians", 1)  # the start tribe (E7.1)
    assert pool(s) == 11
    play(s, "place babylon")
    assert pool(s) == 10
    play(s, "roll 6,3 4")
    assert areas(s)["babylon"] == ("sumerians", 1)
    assert s.current_player() == ziggurat.CHANCE  # E12.6: the attacking tribe rolls again
    play(s, "roll 3,2 4")
    assert areas(s)["babylon"] == ("sumerians", 1)
    assert pool(s) == 10
    assert s.current_player() == ANN
    assert {"place babylon", "place akkad", "stop"} <= set(s.legal_actions())
    conserved(s)


def test_X6_urbanisation_on_both_sides_cancels() -> None:
    """X6, E12.5, R16: A(5,2) against D(5), both with Urbanisation: each side removes one."""
    b = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians")
    s = b.tribes("elam", "elamites", 1).tribes("ur", "sumerians", 1).round("elamites", 3).state()
    play(s, "place ur", "roll 5,2 5")
    assert "ur" not in areas(s)
    assert pool(s) == 2
    play(s, "place ur")
    assert areas(s)["ur"] == ("elamites", 1)
    conserved(s)


def _hittites(lukka: tuple[str, int], pool_size: int) -> ziggurat.State:
    b = Board(3, epoch=2).deal(ANN, "guti", "hittites").deal(BEN, "egyptians", "minoans")
    return b.tribes("arzawa", "hittites", 1).tribes("lukka", *lukka).round("hittites", pool_size).state()


def test_X7_several_defenders_and_the_stacking_limit() -> None:
    """X7, E12.6-E12.8, E13, R15: win then lose; attack again and clear Lukka; then 2 more
    tribes may go to Lukka (3 in all) or Kanesh; a 4th in Lukka is illegal."""
    s = _hittites(("minoans", 2), 4)
    play(s, "place lukka")
    assert pool(s) == 3
    play(s, "roll 4,1 3")
    assert areas(s)["lukka"] == ("minoans", 1)
    play(s, "roll 2,2 6")
    assert areas(s)["lukka"] == ("minoans", 1)
    assert s.current_player() == ANN and pool(s) == 3
    play(s, "place lukka")
    assert pool(s) == 2
    play(s, "roll 6,5 6")
    assert areas(s)["lukka"] == ("hittites", 1)
    assert {"place lukka", "place kanesh"} <= set(s.legal_actions())
    other = s.clone()
    play(s, "place lukka", "place lukka")
    assert areas(s)["lukka"] == ("hittites", 3)
    pos = s.to_position()  # pool empty: the round is over, and with it Epoch 2
    assert (pos["epoch"], pos["phase"], pos["round"]) == (3, "allocation", None)
    play(other, "place lukka", "place kanesh")
    assert areas(other)["lukka"] == ("hittites", 2) and areas(other)["kanesh"] == ("hittites", 1)
    full = _hittites(("hittites", 3), 1)
    refuse(full, "place lukka", "E13.1")
    conserved(s)
    conserved(other)


def _score_round(b: Board, people: str) -> int:
    s = b.round(people, 1).state()
    seat = next(
        q
        for q, pl in enumerate(s.to_position()["players"])
        if any(c["people"] == people for c in pl["cards"])
    )
    before = vp(s)[seat]
    s.apply("stop")
    conserved(s)
    return vp(s)[seat] - before


def test_X8_a_sumerians_score_9() -> None:
    """X8 (a), E14.2: Ur double-value and bonus 4, Uruk 1, Babylon 2, Elam 1, Akkad 1."""
    b = Board(3, epoch=2).deal(ANN, "sumerians")
    for a in ("ur", "uruk", "babylon", "elam", "akkad"):
        b.tribes(a, "sumerians", 1)
    assert _score_round(b, "sumerians") == 9


def test_X8_b_hittites_score_6() -> None:
    """X8 (b): Hatti (bonus) 2, Arzawa 1, Kanesh (double) 2, Lukka 1."""
    b = Board(3, epoch=2).deal(ANN, "sumerians", "hittites")
    for a in ("hatti", "arzawa", "kanesh", "lukka"):
        b.tribes(a, "hittites", 1)
    assert _score_round(b, "hittites") == 6


def test_X8_c_amorites_score_6() -> None:
    """X8 (c), E14.3: Aramaea (desert) 1, Babylon (double and bonus) 4, Akkad 1."""
    b = Board(3, epoch=2).deal(ANN, "sumerians", "amorites")
    for a in ("aramaea", "babylon", "akkad"):
        b.tribes(a, "amorites", 1)
    assert _score_round(b, "amorites") == 6


def test_X8_d_shared_bonus_area_R35() -> None:
    """X8 (d), R35: the Kassites score 4 for Babylon, their bonus too; the Amorites, who no
    longer hold it, score nothing for it."""
    b = Board(3, epoch=3).deal(ANN, "sumerians", "kassites").deal(BEN, "guti", "amorites")
    b.tribes("babylon", "kassites", 1).tribes("aramaea", "amorites", 1)
    assert _score_round(b, "kassites") == 4
    assert _score_round(b, "amorites") == 1


def test_X8_e_final_tie_break_on_double_value_areas() -> None:
    """X8 (e), E15.2, R25: 143 VP each, 11 areas each; Ann holds 3 double-value areas, Ben 2:
    Ann wins on the second tie-breaker."""
    b = Board(2, epoch=5, phase="over").deal(ANN, "sumerians").deal(BEN, "elamites").vp(ANN, 143).vp(BEN, 143)
    ann = [
        "ur",
        "babylon",
        "subartu",
        "uruk",
        "akkad",
        "elam",
        "gutium",
        "ashur",
        "media",
        "urartu",
        "nisibis",
    ]
    ben = [
        "kanesh",
        "byblos",
        "hatti",
        "isuwa",
        "arzawa",
        "lukka",
        "ahhiyawa",
        "thrace",
        "sinai",
        "avaris",
        "canaan",
    ]
    for a in ann:
        b.tribes(a, "sumerians", 1)
    for a in ben:
        b.tribes(a, "elamites", 1)
    s = b.state()
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0]
    from ziggurat.games.mesopotamia_epochs.rounds import ranking, standing

    assert standing(s, ANN) == (143, 11, 3) and standing(s, BEN) == (143, 11, 2)
    assert ranking(s) == [[ANN], [BEN]]


COASTAL = sorted(
    ["ugarit", "byblos", "canaan", "sinai", "avaris", "memphis", "kizzuwatna", "arzawa", "lukka",
     "ahhiyawa", "thrace", "knossos", "khania", "alishiya", "islands"]
)  # fmt: skip


def test_X9_seafaring() -> None:
    """X9, E8.2 (c), E9.3, E12.4, R13, R31: from Knossos, Khania by land and every coastal area
    by Seafaring; never Yamhad or Aramaea; the attack on Canaan is by sea: one defender die;
    after taking Canaan, Byblos and Sinai stay open, Aramaea never."""
    b = Board(3, epoch=2).deal(ANN, "guti", "minoans").deal(BEN, "egyptians")
    s = b.tribes("knossos", "minoans", 1).tribes("canaan", "egyptians", 1).round("minoans", 5).state()
    assert targets(s) == COASTAL
    refuse(s, "place yamhad", "E8.2")
    refuse(s, "place aramaea", "E11.2")
    play(s, "place canaan")
    assert s.to_position()["pending"] == ["combat", "canaan", 1]
    play(s, "roll 6,1 2")
    assert areas(s)["canaan"] == ("minoans", 1)
    assert {"byblos", "sinai"} <= set(targets(s))
    refuse(s, "place aramaea", "E11.2")
    conserved(s)


def test_X10_a_amorites_enter_the_desert() -> None:
    """X10 (a), E7.4, E11, R19, R39, R40: start in Aramaea; up to 2 more there; targets Akkad,
    Ashur, Mari, Yamhad, Canaan, Byblos; Kaldu and the Arabian Desert illegal; Aramaea ->
    Byblos is difficult, Canaan -> Byblos is not."""
    b = Board(3, epoch=2).deal(ANN, "guti", "amorites").deal(BEN, "egyptians")
    s = b.tribes("gutium", "guti", 1).tribes("byblos", "egyptians", 1).round("guti", 1).state()
    s.apply("stop")
    assert round_people(s) == "amorites" and areas(s)["aramaea"] == ("amorites", 1)
    assert targets(s) == sorted(["aramaea", "akkad", "ashur", "mari", "yamhad", "canaan", "byblos"])
    refuse(s, "place kaldu", "E11.2")
    refuse(s, "place arabian_desert", "E10.1")
    direct = s.clone()
    play(direct, "place byblos")
    assert direct.to_position()["pending"] == ["combat", "byblos", 2]
    play(s, "place canaan", "place byblos")
    assert s.to_position()["pending"] == ["combat", "byblos", 1]
    play(s, "roll 1,1 6")
    play(s, "place aramaea", "place aramaea")
    assert areas(s)["aramaea"] == ("amorites", 3)
    refuse(s, "place aramaea", "E13.1")
    conserved(s)


def test_X10_b_nobody_enters_the_desert() -> None:
    """X10 (b), E11.2, R21: the Akkadians next to Aramaea can never place there, held or not."""
    b = Board(3, epoch=2).deal(ANN, "akkadians", "amorites")
    s = b.tribes("akkad", "akkadians", 1).tribes("aramaea", "amorites", 2).round("akkadians", 3).state()
    refuse(s, "place aramaea", "E11.2", "R21")
    b = Board(3, epoch=2).deal(ANN, "akkadians")
    s = b.tribes("akkad", "akkadians", 1).round("akkadians", 3).state()
    refuse(s, "place aramaea", "E11.2")


def test_X10_c_aramaeans_displace_the_amorites_outward() -> None:
    """X10 (c), E7.2, E7.4, R10, R11: each Amorite tribe goes to an adjacent non-desert area,
    empty or Amorite (under 3); never Kaldu; with no room it is removed."""
    b = (
        Board(3, epoch=4)
        .deal(ANN, "guti", "amorites")
        .deal(BEN, "akkadians", "hittites", "assyrians", "aramaeans")
    )
    b.deal(CAL, "elamites", "phoenicians", "hyksos", "chaldeans")
    b.tribes("aramaea", "amorites", 3).tribes("ashur", "amorites", 2).tribes("akkad", "akkadians", 1)
    b.tribes("yamhad", "hittites", 1).tribes("byblos", "phoenicians", 1).tribes("kaldu", "chaldeans", 1)
    s = b.round("chaldeans", 1).state()
    s.apply("stop")
    assert s.current_player() == ANN  # the Amorites' owner chooses (D2)
    assert s.to_position()["pending"] == ["displace", "aramaea"]
    assert sorted(s.legal_actions()) == ["displace ashur", "displace canaan", "displace mari"]
    refuse(s, "displace kaldu", "R11")
    refuse(s, "displace akkad", "E7.2")
    play(s, "displace ashur")
    assert sorted(s.legal_actions()) == ["displace canaan", "displace mari"]  # Ashur is full
    play(s, "displace mari", "displace mari")
    assert areas(s)["mari"] == ("amorites", 2) and areas(s)["ashur"] == ("amorites", 3)
    assert areas(s)["aramaea"] == ("aramaeans", 1)
    assert round_people(s) == "aramaeans" and pool(s) == 6
    conserved(s)


def test_X11_sea_peoples_start() -> None:
    """X11, E7.5, E8.2 (d), E12.4, R12, R28: land at Ugarit; the Phoenicians' owner moves
    their two tribes (Byblos, Yamhad; not Kizzuwatna); start tribe in Ugarit (pool 5);
    Alishiya; Kizzuwatna with one defender die and +1 Military; Ugarit scores 4."""
    b = Board(3, epoch=3).deal(ANN, "guti", "kassites", "assyrians").deal(BEN, "elamites", "phoenicians")
    b.deal(CAL, "akkadians", "hittites", "sea_peoples")
    b.tribes("ugarit", "phoenicians", 2).tribes("byblos", "phoenicians", 1).tribes(
        "kizzuwatna", "hittites", 2
    )
    b.tribes("ashur", "assyrians", 1)
    s = b.round("assyrians", 1).state()
    s.apply("stop")
    assert s.to_position()["pending"] == ["landing"] and s.current_player() == CAL
    assert sorted(a.split()[1] for a in s.legal_actions()) == COASTAL
    refuse(s, "land yamhad", "E7.5")
    play(s, "land ugarit")
    assert s.current_player() == BEN
    assert sorted(s.legal_actions()) == ["displace byblos", "displace yamhad"]
    refuse(s, "displace kizzuwatna", "E7.2")
    play(s, "displace byblos", "displace yamhad")
    assert areas(s)["byblos"] == ("phoenicians", 2) and areas(s)["yamhad"] == ("phoenicians", 1)
    assert areas(s)["ugarit"] == ("sea_peoples", 1) and pool(s) == 5
    play(s, "place alishiya")
    assert pool(s) == 4
    play(s, "place kizzuwatna")
    assert s.to_position()["pending"] == ["combat", "kizzuwatna", 1]
    from ziggurat.games.mesopotamia_epochs.combat import BOTH, roll_winner

    assert roll_winner(s, (3, 2), (4,)) == BOTH  # 3 + 1 (Military) ties 4
    assert roll_winner(s, (4, 1), (5,)) == BOTH  # Hittite Military does not help in defence
    play(s, "roll 6,6 1")
    assert areas(s)["kizzuwatna"] == ("hittites", 1)
    play(s, "roll 1,1 6")
    before = vp(s)[CAL]
    play(s, "stop")
    assert "great_green" not in areas(s)
    assert vp(s)[CAL] - before == 4 + 1  # Ugarit (double-value bonus) and Alishiya
    conserved(s)


def test_X12_allocation_with_three_players() -> None:
    """X12, E3.1-E3.7, R7-R9, R42: draw order Cal, Ben, Ann; Cal passes the Minoans to Ann
    unseen; Ben keeps the Hittites; Ann must pass the Kassites to Cal (forced); the Amorites and
    Phoenicians are set aside, public when Epoch 2 ends; the Epoch 2 rounds and their owners."""
    b = Board(3, epoch=1).deal(ANN, "akkadians").deal(BEN, "guti").deal(CAL, "sumerians")
    b.tribes("akkad", "akkadians", 1).tribes("gutium", "guti", 1).tribes("uruk", "sumerians", 1)
    b.vp(ANN, 14).vp(BEN, 8).vp(CAL, 9)
    s = b.round("guti", 1).state()
    s.apply("stop")  # the Guti score 1: Ben 9; Epoch 1 ends
    pos = s.to_position()
    assert (pos["epoch"], pos["phase"], pos["pending"]) == (2, "allocation", ["draw"])
    assert vp(s) == [14, 9, 9]
    assert pos["draw_order"] == ["mask", "head", "brooch"]  # Cal, Ben, Ann (E3.2, R8)
    assert sorted(a.split()[1] for a in s.legal_actions()) == sorted(
        ["amorites", "minoans", "phoenicians", "kassites", "hittites"]
    )
    assert all(abs(p - 0.2) < 1e-12 for _, p in s.chance_outcomes())
    assert all(c["public"] for c in pos["set_aside"])  # Elamites, Egyptians: public after Epoch 1
    play(s, "draw minoans")
    assert s.current_player() == CAL
    assert s.legal_actions() == ["keep", "pass brooch", "pass head"]
    play(s, "pass brooch")
    ann_card = s.view(ANN)["players"][ANN]["cards"][-1]
    assert ann_card["people"] is None  # E3.5: Ann may not look yet
    assert s.view(CAL)["players"][ANN]["cards"][-1]["people"] == "minoans"
    play(s, "draw hittites")
    assert s.legal_actions() == ["keep", "pass mask"]
    n = len(s.events())
    play(s, "keep", "draw kassites")
    assert (ANN, "pass mask", True) in [(w, t, a) for w, t, a, _ in events_since(s, n)]
    pos = s.to_position()
    assert pos["phase"] == "strategy"
    assert s.view(ANN)["players"][ANN]["cards"][-1]["people"] == "minoans"
    assert s.view(CAL)["players"][CAL]["cards"][-1]["people"] == "kassites"
    aside = [c for c in pos["set_aside"] if c["epoch"] == 2]
    assert [c["people"] for c in aside] == ["amorites", "phoenicians"]
    assert not any(c["public"] for c in aside)
    assert all(c["people"] is None for c in s.view(ANN)["set_aside"] if c["epoch"] == 2)
    rounds = []
    while s.to_position()["epoch"] == 2:
        people = s.to_position()["round"]["people"]
        if not rounds or rounds[-1][1] != people:
            rounds.append((s.to_position()["round"]["order"], people, owner_of(s, people)))
            # E3.7: the card is face up from its People's first round, for everyone
            assert people in [c["people"] for c in s.view(None)["players"][owner_of(s, people)]["cards"]]
        s.apply("stop" if "stop" in s.legal_actions() else s.legal_actions()[0])
    assert rounds == [
        (1, "sumerians", CAL), (4, "akkadians", ANN), (5, "guti", BEN),
        (7, "minoans", ANN), (9, "kassites", CAL), (10, "hittites", BEN),
    ]  # fmt: skip
    aside = [c for c in s.to_position()["set_aside"] if c["epoch"] == 2]
    assert all(c["public"] for c in aside)  # E2.3, R42: public once Epoch 2 ends
    assert s.to_position()["players"][ANN]["cards"][0]["people"] == "akkadians"
    egyptians = PEOPLES.index["egyptians"]
    assert s.owner[egyptians] == -1  # row 12 of Epoch 3 never occurs
    conserved(s)
