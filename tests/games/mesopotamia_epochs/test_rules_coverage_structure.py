"""Set-up and the shape of the game (E1, E2), Peoples in play and the steps of a round (E4),
old Peoples' pools (E6.1, R29, R38), scoring (E14.4, E14.5), the ranking (E15.3), counters
(R43), symbols (D5, R45) and the allocation shuffle (C2)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from epochs_helpers import ANN, BEN, CAL, PEOPLES, Board, areas, conserved, load, play, pool, refuse, vp

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.games.mesopotamia_epochs.rounds import ranking


def dealt(players: int, *cards: str) -> ziggurat.State:
    """A new game after the Epoch 1 deal (C1) of ``cards`` in seat order."""
    s = load(players).new_initial_state()
    for seat, card in enumerate(cards):
        if s.current_player() == ziggurat.CHANCE:  # the last card of a 5-player deal is forced
            s.apply(f"deal {SYMBOLS[seat]} {card}")
    return s


# --- E1 set-up ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players_and_the_undealt_peoples_never_play_E1_1(players: int) -> None:
    cards = ["sumerians", "elamites", "egyptians", "akkadians", "guti"]
    s = dealt(players, *cards[:players])
    aside = [c["people"] for c in s.to_position()["set_aside"]]
    assert sorted(aside) == sorted(cards[players:])  # 5 - N Peoples of Epoch 1 never enter play
    assert s.to_position()["phase"] == "strategy"
    conserved(s)


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_counts_outside_two_to_five_are_refused_E1_1(players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        load(players)


def test_every_vp_total_starts_at_zero_E1_3() -> None:
    for players in (2, 3, 4, 5):
        s = load(players).new_initial_state()
        assert vp(s) == [0] * players
        assert all(v["vp"] == 0 for v in s.view(0)["players"])


def test_five_decks_of_five_cards_by_card_epoch_E1_4() -> None:
    assert len(PEOPLES.ids) == 25
    for epoch in range(1, 6):
        deck = [PEOPLES.ids[p] for p in PEOPLES.epoch_cards[epoch]]
        assert len(deck) == 5
        assert all(PEOPLES.card_epoch[PEOPLES.index[p]] == epoch for p in deck)
    s = load(3).new_initial_state()  # the Epoch 1 deal draws from the Epoch 1 deck only
    assert sorted(a.split()[-1] for a, _ in s.chance_outcomes()) == sorted(
        PEOPLES.ids[p] for p in PEOPLES.epoch_cards[1]
    )


# --- E2 Epoch structure -----------------------------------------------------------------------
def test_epoch_one_has_no_allocation_segment_E2_2() -> None:
    s = dealt(3, "sumerians", "akkadians", "guti")
    pos = s.to_position()
    assert (pos["epoch"], pos["phase"]) == (1, "strategy")  # straight from the deal to the rounds
    assert pos["draw_order"] == [] and pos["deck"] == []
    assert pos["round"]["people"] == "sumerians"
    refuse(s, "keep", "D4")


def test_epoch_two_opens_with_its_allocation_segment_E2_1_E2_2() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "guti").tribes("uruk", "sumerians", 1)
    s = b.tribes("gutium", "guti", 1).round("guti", 1).state()
    s.apply("stop")  # the last round of Epoch 1
    pos = s.to_position()
    assert (pos["epoch"], pos["phase"], pos["pending"]) == (2, "allocation", ["draw"])
    assert len(pos["draw_order"]) == 2


def test_the_game_ends_only_after_epoch_five_E2_4_E15_1() -> None:
    last = {
        1: ("guti", "gutium"),
        2: ("hittites", "arzawa"),
        3: ("sea_peoples", "thrace"),
        4: ("aramaeans", "aramaea"),
    }
    for epoch, (people, area) in last.items():  # the last round of Epochs 1 to 4 ...
        s = Board(2, epoch=epoch).deal(ANN, people).tribes(area, people, 1).round(people, 1).state()
        s.apply("stop")
        assert not s.is_terminal(), epoch  # ... leads on to the next Epoch
        assert (s.to_position()["epoch"], s.to_position()["phase"]) == (epoch + 1, "allocation")
    b = Board(2, epoch=5).deal(ANN, "guti", "medes").tribes("media", "medes", 1)
    s = b.round("medes", 1).state()
    s.apply("stop")
    assert s.is_terminal() and s.to_position()["phase"] == "over"


# --- E4 Peoples in play, the steps of a round -----------------------------------------------
def test_only_dealt_peoples_are_in_play_E4_1_E4_3() -> None:
    s = dealt(2, "sumerians", "akkadians")  # the Elamites, Egyptians and Guti are set aside
    play(s, "stop")
    assert s.to_position()["round"]["people"] == "akkadians"  # #2 and #3 are not in play
    play(s, "stop")
    pos = s.to_position()
    assert pos["epoch"] == 2  # no round for the Guti (#5)
    for people in ("elamites", "egyptians", "guti"):  # made public (R42), never played
        assert pos["peoples"][people] == {"vp": 0, "entered": 0, "removed": 0}


def test_a_people_stays_in_play_with_no_tribes_E4_1() -> None:
    # The Egyptians lost every tribe but were dealt: the re-entry variant brings them back (R6)
    b = Board(2, epoch=3, rescheduled_without_tribes="reenter_at_start_area")
    b.deal(ANN, "egyptians", "hittites", "hyksos").deal(BEN, "guti", "kassites", "hurrians")
    s = b.tribes("sinai", "hyksos", 1).round("hyksos", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == "egyptians"  # #12 in Epoch 3
    assert areas(s)["avaris"] == ("egyptians", 1)


def test_round_steps_pool_start_placement_then_scoring_E4_4() -> None:
    s = dealt(2, "sumerians", "akkadians")
    pos = s.to_position()
    # 1. the pool (8), 2. the start tribe in Uruk out of it (E7.6), 3. placement (D4) ...
    assert areas(s) == {"uruk": ("sumerians", 1)}
    assert pool(s) == 7 and pos["round"]["people"] == "sumerians"
    play(s, "place ur", "place ur")
    assert vp(s) == [0, 0]  # ... 4. scoring only when placement ends
    play(s, "stop")
    assert vp(s) == [1 + 4, 0]  # Uruk 1, Ur double-value and the Sumerians' bonus (E14.2)
    conserved(s)


# --- E6.1, R29, R38 old Peoples' pools ------------------------------------------------------------
def _old(people: str, held: list[str], epoch: int, **options) -> ziggurat.State:
    """The round of Ann's old People ``people`` has just begun (after Ben's Sumerians stop)."""
    b = Board(2, epoch=epoch, **options).deal(BEN, "sumerians").deal(ANN, "akkadians", people)
    b.tribes("uruk", "sumerians", 1)
    for area in held:
        b.tribes(area, people, 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    assert s.to_position()["round"]["people"] == people
    return s


def test_old_pool_is_growth_plus_this_epochs_reinforcements_E6_1_R29() -> None:
    held = ["babylon", "akkad", "mari", "nisibis"]  # n = 4: standard growth 1
    s = _old("kassites", held, epoch=3)  # the card lists +5 for Epoch 3
    assert pool(s) == 1 + 5
    s = _old("kassites", held, epoch=4)  # nothing listed for Epoch 4: growth only
    assert pool(s) == 1


def test_the_table_reads_initial_count_then_reinforcements_R29() -> None:
    kassites = PEOPLES.index["kassites"]
    assert PEOPLES.initial[kassites] == 5  # the bold number of the entry Epoch
    assert PEOPLES.reinforcements[kassites] == {3: 5}  # '+5' in Epoch 3
    s = dealt(2, "egyptians", "guti")
    assert s.to_position()["round"]["people"] == "egyptians" and pool(s) == 4 - 1


def test_slow_growth_replaces_growth_not_reinforcements_R38_E6_5() -> None:
    held = ["babylon", "akkad", "mari", "nisibis", "isuwa"]  # n = 5: standard growth 2
    slow = {"kassites": ["slow_growth"]}
    s = _old("kassites", held, epoch=3, peoples=_abilities(slow))
    assert pool(s) == 1 + 5  # Slow Growth 1, the Epoch 3 reinforcements kept
    s = _old("kassites", held, epoch=4, peoples=_abilities(slow))
    assert pool(s) == 1


def _abilities(changes: dict[str, list[str]]) -> dict:
    import copy

    from ziggurat.games.mesopotamia_epochs.data import PEOPLES_DATA

    data = copy.deepcopy(PEOPLES_DATA)
    for card in data["peoples"]:
        if card["id"] in changes:
            card["abilities"] = changes[card["id"]]
    return data


# --- E14.4, E14.5 scoring --------------------------------------------------------------------
def test_round_score_goes_to_the_owner_and_is_public_E14_4() -> None:
    b = Board(3, epoch=2).deal(ANN, "sumerians").deal(BEN, "guti").vp(ANN, 3).vp(BEN, 7)
    s = b.tribes("uruk", "sumerians", 1).tribes("babylon", "sumerians", 1).round("sumerians", 1).state()
    s.apply("stop")
    assert vp(s)[ANN] == 3 + 1 + 2  # Uruk 1, Babylon double-value 2
    for seat in (None, ANN, BEN, CAL):  # every view shows every total
        assert [p["vp"] for p in s.view(seat)["players"]] == vp(s)


def test_no_scoring_at_the_end_of_an_epoch_or_of_the_game_E14_5() -> None:
    b = Board(2, epoch=1).deal(ANN, "sumerians").deal(BEN, "guti").vp(ANN, 5)
    s = b.tribes("uruk", "sumerians", 1).tribes("gutium", "guti", 1).tribes("media", "guti", 1)
    s = s.round("guti", 1).state()
    s.apply("stop")  # the Guti score Gutium and Media; then Epoch 1 ends
    assert vp(s) == [5, 2]
    assert s.to_position()["epoch"] == 2
    b = Board(2, epoch=5).deal(ANN, "guti", "medes").vp(ANN, 10).vp(BEN, 4)
    s = b.tribes("gutium", "guti", 3).tribes("media", "medes", 1).round("medes", 1).state()
    s.apply("stop")  # the Medes score Media; the game ends with no bonus
    assert s.is_terminal()
    assert vp(s) == [11, 4]


# --- E15.3 ranking -----------------------------------------------------------------------------
def test_full_ranking_by_vp_then_the_tie_break_keys_E15_3() -> None:
    b = Board(4, epoch=5, phase="over").deal(ANN, "sumerians").deal(BEN, "elamites")
    b.deal(CAL, "guti").deal(3, "akkadians").vp(ANN, 9).vp(BEN, 12).vp(CAL, 9).vp(3, 2)
    b.tribes("uruk", "sumerians", 1).tribes("gutium", "guti", 1).tribes("media", "guti", 1)
    s = b.state()
    assert ranking(s) == [[BEN], [CAL], [ANN], [3]]  # Cal beats Ann on areas held (R25)
    assert s.returns() == [0.0, 1.0, 0.0, 0.0]


# --- R43 counters ----------------------------------------------------------------------------------
def test_counters_never_run_out_R43() -> None:
    held = ["babylon", "akkad", "mari", "nisibis", "ashur", "subartu", "gutium", "elam", "media"]
    b = Board(2, epoch=3).deal(BEN, "sumerians").deal(ANN, "akkadians", "kassites")
    b.tribes("uruk", "sumerians", 3).tribes("ur", "sumerians", 3)
    for area in held:
        b.tribes(area, "kassites", 3)  # 33 tribes on the map already
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    assert pool(s) == 3 + 5  # growth for 9 areas, plus 5: no shortage of counters
    play(s, "place yamhad", "place yamhad", "place yamhad", "place isuwa", "place isuwa")
    assert pool(s) == 3
    conserved(s)


# --- D5, R45 symbols -------------------------------------------------------------------------------
def test_symbols_are_assigned_in_seat_order_without_a_decision_D5_R45() -> None:
    for players in (2, 3, 4, 5):
        s = load(players).new_initial_state()
        assert s.game.seat_names() == list(SYMBOLS[:players])
        assert [p["symbol"] for p in s.to_position()["players"]] == list(SYMBOLS[:players])
        assert s.current_player() == ziggurat.CHANCE  # the game opens on the deal, not a choice


def test_symbols_decide_nothing_R45() -> None:
    # equal VP, areas and double-value areas: a shared victory whatever the symbols
    b = Board(3, epoch=5, phase="over").deal(ANN, "sumerians").deal(BEN, "elamites").deal(CAL, "guti")
    b.vp(ANN, 6).vp(BEN, 6).vp(CAL, 6)
    s = b.tribes("uruk", "sumerians", 1).tribes("elam", "elamites", 1).tribes("gutium", "guti", 1).state()
    assert ranking(s) == [[ANN, BEN, CAL]]
    assert s.returns() == pytest.approx([1 / 3] * 3)


# --- C2 the allocation shuffle -------------------------------------------------------------------
def test_allocation_draws_are_uniform_over_the_undrawn_cards_C2_E3_1() -> None:
    b = Board(3, epoch=2, phase="allocation").deal(ANN, "sumerians").deal(BEN, "elamites")
    s = b.deal(CAL, "guti").drawing([ANN, BEN, CAL], 0).pending("draw").state()
    epoch2 = sorted(PEOPLES.ids[p] for p in PEOPLES.epoch_cards[2])
    for left in (5, 4, 3):
        outcomes = s.chance_outcomes()
        assert sorted(a.split()[1] for a, _ in outcomes) == sorted(s.to_position()["deck"])
        assert len(outcomes) == left
        assert all(Fraction(p).limit_denominator(100) == Fraction(1, left) for _, p in outcomes)
        card = outcomes[0][0].split()[1]
        assert card in epoch2
        s.apply(f"draw {card}")
        if s.current_player() != ziggurat.CHANCE and "keep" in s.legal_actions():
            s.apply("keep")  # (the last drawer's keep is forced, E3.4)
    assert s.to_position()["phase"] == "strategy"
