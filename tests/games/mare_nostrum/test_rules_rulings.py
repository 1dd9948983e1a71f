"""The rulings of spec section 6 (R1-R44) that other tests do not already check, one test each:
a position, the move, the outcome or the refusal with its reason."""

from __future__ import annotations

from typing import Any

import pytest
from nostrum_helpers import (
    CARTHAGE,
    GREECE,
    ROME,
    buy,
    buy_turn,
    conserved,
    finish_military,
    load,
    mil_turn,
    new,
    pos,
    refuse,
    steps,
)

import ziggurat
from ziggurat.games.mare_nostrum import board as B


def next_round(state: Any) -> Any:
    """Play on (``done``, or the first choice offered) until the next round's Trade begins, its
    Production included."""
    while state.d["stage"] != "trade_token" and not state.is_terminal():
        legal = list(state.legal_actions())
        state.apply("done" if "done" in legal else legal[0])
    return state


def trade(state: Any, value: str, *offers: str) -> Any:
    """The Trade leader picks ``value`` (``"c 3"``); the offers follow in seat order."""
    state.apply(f"token {value}")
    for tok in offers:
        state.apply(f"offer {tok}")
    return state


# ------------------------------------------------------------------ trade (R3-R7, R41)


def test_marker_conditions_all_hold_at_once_R2() -> None:
    """R2 / N3.4: each failed condition alone refuses the marker: not neutral (Italia, reached
    by Greece's triremes), not connected (Phasania), another player's legions (Dacia)."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [1, 0, 0]
    s = buy_turn(load(s, p), GREECE)
    refuse(s, "buy marker italia", "N3.4 (b)")
    refuse(s, "buy marker phasania", "N3.4 (d)")
    refuse(s, "buy marker dacia", "N3.4 (c)")
    assert "buy marker germania" in s.legal_actions()  # all four hold


def test_the_back_and_forth_limit_looks_at_the_last_two_takes_R3() -> None:
    """R3 / N2.6: Carthage may not take straight back from Rome after Rome took back from it,
    but may again once other takes came between."""
    s = trade(new(), "c 3", "grain", "metal", "wine", "oil", "tax", "tax", "gold", "perfume", "sheep")
    steps(s, "take metal from 0", "take sheep from 2")
    assert s.current_player() == CARTHAGE
    assert not [a for a in s.legal_actions() if a.endswith("from 0")]
    refuse(s, "take wine from 0", "N2.6", "R3")
    steps(s, "take tax from 1", "take wine from 0", "take perfume from 2")
    assert s.current_player() == CARTHAGE and "take grain from 0" in s.legal_actions()


def test_the_starter_gives_any_token_he_holds_R6() -> None:
    """R6 / N2.9: the draft ends with Greece as final chooser; Carthage, the starter, puts what
    he received behind his screen and may give any token, the ones just received included;
    everyone ends with his count from before the trade."""
    s = trade(new(), "b 1", "metal", "marble", "sheep")
    steps(s, "take metal from 0", "take sheep from 2", "take marble from 1")
    assert s.current_player() == CARTHAGE and s.d["stage"] == "trade_give"
    legal = s.legal_actions()
    assert {"give marble", "give metal", "give gold"} <= set(legal)
    s.apply("give marble")
    assert [sum(r.values()) for r in s.d["res"]] == [9, 9, 9]
    assert s.d["res"][GREECE]["marble"] == 1 and s.d["res"][CARTHAGE].get("marble") is None


def test_other_seats_see_a_count_not_the_make_up_R7() -> None:
    """R7 / 7.1: Greece sees that Rome holds ten tokens, not which."""
    s = new()
    p = pos(s)
    p["res"][ROME]["leg:gems"] = 1
    p["pool"]["gems"] = 0
    s = load(s, p)
    for seat in (GREECE, CARTHAGE, None):
        v = s.view(seat)
        assert v["res"][ROME] is None and v["res_counts"][ROME] == 10
    assert s.view(ROME)["res"][ROME]["leg:gems"] == 1


def test_every_token_counts_toward_the_trade_value_R41() -> None:
    """R41 / N2.2: one good, one tax and one legendary good make three tokens: Greece must take
    part at v = 3 and may offer the legendary good."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"oil": 1, "tax": 1, "leg:gems": 1}
    p["pool"]["gems"] = 0
    s = load(s, p)
    s.apply("token c 3")
    assert s.d["trade"]["parts"] == {"0": 3, "1": 3, "2": 3}
    steps(s, "offer metal", "offer wine", "offer grain")
    assert s.current_player() == GREECE
    assert list(s.legal_actions()) == ["offer leg:gems", "offer oil", "offer tax"]


# ------------------------------------------------------------------ military (R9-R19, R36-R40, R44)


def test_one_player_at_a_time_triremes_before_legions_R9() -> None:
    """R9 / N4.2: only the active player acts; his legions wait until his trireme moves end,
    and his triremes cannot move once the legions have begun."""
    s = mil_turn(new(), ROME, "mil_row")
    with pytest.raises(ziggurat.NotYourTurn):
        s.apply("done", seat=GREECE)
    refuse(s, "march latium gallia", "N4.4")
    s.apply("done")  # triremes
    assert s.d["stage"] == "mil_march"  # no sea battle possible: that step passed by itself
    s.apply("march latium gallia")
    refuse(s, "row mare_tyrrhenum mare_sardum", "N4.6")


def test_one_optional_sea_battle_per_sea_against_one_opponent_R10() -> None:
    """R10 / N4.5: Rome chooses Carthage or Greece in Mare Sardum, or no battle; after one
    battle there, no other in that sea this turn; all triremes of both sides roll."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 1, 1]
    p["triremes"]["mare_tyrrhenum"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    assert list(s.legal_actions()) == [
        "done",
        "seabattle mare_sardum 1",
        "seabattle mare_sardum 2",
        "seabattle mare_tyrrhenum 2",
    ]
    s.apply("seabattle mare_sardum 2")
    assert {len(a.split()[1].split(",")) for a, _ in s.chance_outcomes()} == {2}
    steps(s, "roll 1,1", "roll 1")
    assert s.d["stage"] == "mil_sea"
    refuse(s, "seabattle mare_sardum 1", "N4.5", "R10")
    assert list(s.legal_actions()) == ["done", "seabattle mare_tyrrhenum 2"]
    assert s.d["triremes"]["mare_sardum"] == [2, 1, 1]


def test_land_battles_are_compulsory_on_each_involved_players_turn_R11() -> None:
    """R11 / N4.8: Rome and Carthage share Numidia; on Rome's turn it must fight even without
    moving, and again on Carthage's turn."""
    s = new()
    p = pos(s)
    p["legions"]["numidia"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_fight", done=[GREECE])
    assert list(s.legal_actions()) == ["fight numidia 2"]
    refuse(s, "done", "N4.8", "R11")
    steps(s, "fight numidia 2", "roll 1,1", "roll 1")
    while s.d["mil"]["active"] == ROME:
        s.apply("done")
    assert s.d["mil"]["active"] == CARTHAGE
    while "done" in s.legal_actions():
        s.apply("done")
    assert (CARTHAGE, "fight numidia 0", True) in [e[:3] for e in s.events()]  # no way around it
    assert s.is_chance_node() and s.d["battle"]["att"] == CARTHAGE


def test_the_active_player_is_the_attacker_R12() -> None:
    """R12: on Carthage's turn Carthage attacks Rome in Numidia: Caesar adds no die to Rome,
    which defends."""
    s = new()
    p = pos(s)
    p["legions"]["numidia"] = [1, 0, 1]
    s = mil_turn(load(s, p), CARTHAGE, "mil_fight")
    s.apply("fight numidia 0")
    assert s.d["battle"]["att"] == CARTHAGE and s.d["battle"]["def"] == ROME
    assert len(s.chance_outcomes()) == 6  # Carthage: one die
    s.apply("roll 1")
    assert len(s.chance_outcomes()) == 6  # Rome: one die, no Caesar
    s.apply("roll 1")
    assert s.d["last_battle"]["att"] == CARTHAGE


def test_a_fortress_never_fights_alone_and_goes_with_a_conversion_R13() -> None:
    """R13 / N4.7.7 / N4.12: Rome enters Numidia, which holds Carthage's fortress but no
    Carthaginian legion: no battle, Rome is conqueror and converts; when the conversion
    completes, the fortress returns to Carthage's supply."""
    s = new()
    p = pos(s)
    p["legions"]["phasania"] = [1, 0, 0]
    p["fortresses"]["numidia"] = CARTHAGE
    p["triremes"]["mare_sardum"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march phasania numidia", "done")
    assert "last_battle" not in s.d and s.d["conqueror"] == {"numidia": ROME}
    s.apply("convert")
    forts = B.supply(s.d, CARTHAGE, "fortress")
    p = pos(s)
    p["round"] = 2
    s = mil_turn(load(s, p), ROME, "mil_conv")
    s.apply("convert numidia")
    assert s.d["markers"]["numidia"] == ROME and "numidia" not in s.d["fortresses"]
    assert B.supply(s.d, CARTHAGE, "fortress") == forts + 1
    conserved(s)


def test_one_option_per_conquest_and_a_new_conquest_after_losing_the_mark_R16() -> None:
    """R16 / N4.11.1: Rome pillages Thracia and gets no second option; still holding it at the
    next Military phase gives none; after losing the mark and winning it back, a new one."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [1, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march dacia thracia", "done", "pillage city")
    assert s.d["queue"] == [] and s.d["conqueror"] == {"thracia": ROME}
    p = pos(s)
    s = buy_turn(load(s, p), GREECE)
    s.apply("end")
    assert s.d["queue"] == [] and s.current_player() == ROME  # the Military leader's order
    p = pos(s)
    p["legions"]["thracia"] = [1, 1, 0]
    p["conqueror"] = {}  # Greece's legion arrived: the mark was lost (N4.10.3)
    s = mil_turn(load(s, p), ROME, "mil_fight")
    steps(s, "fight thracia 1", "roll 5,5", "roll 1,1,1")
    assert s.d["conqueror"] == {"thracia": ROME}
    assert s.current_player() == ROME and "convert" in s.legal_actions()


def test_conversion_reaches_an_island_by_trireme_chain_R18() -> None:
    """R18 / N4.3 (3): Rome converts Creta, Greece's island, through its triremes in Mare
    Ionium and Mare Aegaeum; with ``conversion_connection_by_trireme_chain`` off it cannot."""

    def creta(**options: Any) -> Any:
        s = new(**options)
        p = pos(s)
        p.update(round=2)
        p["markers"]["creta"] = GREECE
        p["legions"]["creta"] = [1, 0, 0]
        p["conqueror"]["creta"] = ROME
        p["on_marker"]["creta"] = ROME
        p["pending"]["creta"] = [ROME, 1]
        p["triremes"].update(mare_ionium=[1, 1, 0], mare_aegaeum=[1, 1, 0])
        return mil_turn(load(s, p), ROME, "mil_conv")

    s = creta()
    s.apply("convert creta")
    assert s.d["markers"]["creta"] == ROME
    s = creta(conversion_connection_by_trireme_chain=False)
    refuse(s, "convert creta", "N4.3 (3)")


def test_conversion_is_optional_and_first_in_the_turn_R19() -> None:
    """R19 / N4.3 (D17): Rome may leave the conversion pending; it cannot complete it later in
    the turn, nor in the round Convert was chosen."""
    s = new()
    p = pos(s)
    p.update(round=2)
    p["legions"]["macedonia"] = [1, 0, 0]
    p["conqueror"]["macedonia"] = ROME
    p["on_marker"]["macedonia"] = ROME
    p["pending"]["macedonia"] = [ROME, 1]
    p["markers"]["dacia"] = ROME
    s = mil_turn(load(s, p), ROME, "mil_conv")
    assert list(s.legal_actions()) == ["done", "convert macedonia"]
    s.apply("done")
    assert s.d["pending"] == {"macedonia": [ROME, 1]} and s.d["stage"] == "mil_row"
    refuse(s, "convert macedonia", "N4.2 (a)", "N4.3")
    p["pending"]["macedonia"] = [ROME, 2]
    s = mil_turn(load(s, p), ROME, "mil_conv")
    refuse(s, "convert macedonia", "N4.3", "R19")


def test_dice_are_six_sided_and_never_capped_R36() -> None:
    """R36 / 2.10: 8 legions, Caesar and Ramses II roll 10 dice, one chance node of faces 1-6,
    though the box holds 9 white dice."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("ramses_ii")
    p["legions"] = {"numidia": [8, 0, 1]}
    s = mil_turn(load(s, p), ROME, "mil_fight")
    s.apply("fight numidia 2")
    outcomes = s.chance_outcomes()
    assert {len(a.split()[1].split(",")) for a, _ in outcomes} == {10}
    assert {int(f) for a, _ in outcomes for f in a.split()[1].split(",")} == {1, 2, 3, 4, 5, 6}
    assert len(outcomes) == 3003 and abs(sum(q for _, q in outcomes) - 1) < 1e-9


def test_a_player_without_provinces_plays_on_R37() -> None:
    """R37: Rome's three provinces are Greek now; Rome still has a buy turn (a tile, not a
    marker or a building) and a Military turn with its legions in Dacia."""
    s = new()
    p = pos(s)
    p["markers"].update(latium=GREECE, gallia=GREECE, italia=GREECE)
    p["legions"] = {"dacia": [2, 0, 0], "achea": [0, 1, 0], "africa": [0, 0, 1]}
    p["res"][ROME] = {"tax": 7}
    s = load(s, p)
    assert B.own_provinces(s.d, ROME) == []
    b = buy_turn(s, ROME)
    assert list(b.legal_actions()) == ["buy tile antigone", "buy tile colossus", "buy tile hercules"] + [
        "buy tile lighthouse",
        "buy tile spartacus",
        "end",
    ]
    buy(b, "buy tile hercules", *["tax"] * 7)
    assert b.d["tiles"][ROME] == ["caesar", "hercules"]
    m = mil_turn(s, ROME, "mil_march")
    m.apply("march dacia thracia")
    assert m.d["legions"]["thracia"] == [1, 0, 0]


def test_leaving_a_building_ends_its_occupation_R38() -> None:
    """R38 / N4.6: Rome's legion leaves Thracia's city: Greece controls the city again
    (Culture back), while Rome's other legion keeps the conqueror mark."""
    s = new()
    p = pos(s)
    p["legions"]["thracia"] = [2, 0, 0]
    p["conqueror"]["thracia"] = ROME
    p["occupy"]["thracia"] = {"city": ROME}
    s = mil_turn(load(s, p), ROME, "mil_march")
    assert s.tracks(ROME)["culture"] == 2 and s.tracks(GREECE)["culture"] == 3
    s.apply("march thracia dacia @city")
    assert s.d["occupy"] == {} and s.d["conqueror"] == {"thracia": ROME}
    assert s.tracks(ROME)["culture"] == 1 and s.tracks(GREECE)["culture"] == 4


def test_a_land_step_or_a_chain_never_both_any_number_per_chain_R39() -> None:
    """R39 / N4.6: both Roman legions sail from Latium to Sicilia on one trireme; a legion in
    landlocked Germania can neither sail nor step beyond a neighbour."""
    s = new()
    p = pos(s)
    p["legions"]["germania"] = [1, 0, 0]
    p["triremes"]["mare_hadriaticum"] = [1, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "sail latium sicilia", "sail latium sicilia")
    assert s.d["legions"]["sicilia"] == [2, 0, 0]
    refuse(s, "sail germania italia", "N4.6.2")
    refuse(s, "march germania italia", "N4.6.1")
    assert "march germania dalmatia" in s.legal_actions()


def test_units_bought_move_in_the_same_rounds_military_phase_R40() -> None:
    """R40: the legion Greece buys in Achea marches out with the other one that round."""
    s = buy_turn(new(), GREECE)
    buy(s, "buy legion achea", "tax", "tax", "tax")
    s.apply("end")
    s.apply("next 1")
    while s.d["stage"] != "mil_march":
        s.apply("done")
    steps(s, "march achea macedonia", "march achea macedonia")
    assert s.d["legions"]["macedonia"] == [0, 2, 0] and "achea" not in s.d["legions"]


def test_enemy_triremes_never_block_and_a_sea_battle_cannot_be_refused_R44() -> None:
    """R44 / N4.4 / N4.5: Carthage's triremes in Mare Tyrrhenum and Mare Sardum block neither
    Rome's rowing nor its chain; when Rome attacks, Carthage has no choice: the dice roll."""
    s = new()
    p = pos(s)
    p["triremes"].update(mare_tyrrhenum=[2, 0, 1], mare_sardum=[0, 0, 1])
    s = mil_turn(load(s, p), ROME, "mil_row")
    s.apply("row mare_tyrrhenum mare_sardum")
    s.apply("done")
    s.apply("done")  # no sea battle this time
    assert "sail latium numidia" in s.legal_actions()
    s = mil_turn(load(new(), p), ROME, "mil_sea")
    s.apply("seabattle mare_tyrrhenum 2")
    assert s.is_chance_node()


# ------------------------------------------------------------------ buy & place (R21-R30, R42, R43)


def test_a_built_capital_lifts_the_war_limit_for_any_marker_owner_R21() -> None:
    """R21 / N3.5.1, N3.6, N3.8: Rome holds Achea (Greece's old capital) at war with Greece's
    legion: Rome may still build, place legions and fortify there; not in Thracia at war."""
    s = new()
    p = pos(s)
    p["markers"].update(achea=ROME, thracia=ROME)
    p["legions"].update(achea=[1, 1, 0], thracia=[1, 1, 0])
    p["res"][ROME] = {"tax": 9}
    s = buy_turn(load(s, p), ROME)
    assert {"build market achea", "buy legion achea", "buy fortress achea"} <= set(s.legal_actions())
    refuse(s, "build market thracia", "N3.5.1", "R21")
    refuse(s, "buy legion thracia", "N3.6", "R21")
    refuse(s, "buy fortress thracia", "N3.8", "R21")


def test_a_temple_doubles_only_for_its_controller_R22() -> None:
    """R22 / N1.5: Carthage occupies Achea's temple: Greece's capital and city give 1 tax each,
    and Carthage gains nothing from the temple."""
    s = new()
    p = pos(s)
    p["res"] = [{}, {}, {}]
    p["legions"]["achea"] = [0, 0, 1]
    p["conqueror"]["achea"] = CARTHAGE
    p["occupy"]["achea"] = {"temple": CARTHAGE}
    s = next_round(mil_turn(load(s, p), CARTHAGE, done=[ROME, GREECE]))
    assert s.d["res"][GREECE] == {"oil": 1, "grain": 1, "wine": 1, "marble": 1, "tax": 3}
    assert s.d["res"][CARTHAGE] == {"sheep": 3, "perfume": 2, "gold": 1, "gladiators": 1, "oil": 1, "tax": 1}


@pytest.mark.parametrize(("pool", "extra"), [({"gems": 1, "gold": 1}, "draw"), ({}, None)])
def test_legendary_city_temple_extra_and_the_empty_pool_R23(pool: dict[str, int], extra: str | None) -> None:
    """R23 / N1.6 / N1.7 (D3): Greece controls Troia and Asia's temple. With two tokens in the
    pool it draws one and chooses the extra (a second draw); with an empty pool it gets two
    taxes and no decision."""
    s = new()
    p = pos(s)
    p["res"] = [{}, {}, {}]
    p["markers"]["asia"] = GREECE
    p["buildings"]["asia"] = ["legendary_city:troia", "temple"]
    p["pool"] = {g: pool.get(g, 0) for g in p["pool"]}
    s = mil_turn(load(s, p), CARTHAGE, done=[ROME, GREECE])
    while not s.is_chance_node() and s.d["stage"] != "trade_token":
        legal = list(s.legal_actions())
        s.apply("done" if "done" in legal else legal[0])
    if extra is None:
        assert s.d["stage"] == "trade_token" and s.d["res"][GREECE]["tax"] == 5 + 2
        assert not [e for e in s.events() if e[1].startswith("extra")]
        return
    s.apply("draw gems")
    assert s.current_player() == GREECE and list(s.legal_actions()) == ["extra draw", "extra tax"]
    s.apply("extra draw")
    assert s.events()[-1][1:3] == ("draw gold", True)  # one token left: a one-outcome draw
    next_round(s)
    assert s.d["res"][GREECE]["leg:gems"] == 1 and s.d["res"][GREECE]["leg:gold"] == 1
    assert s.d["res"][GREECE]["tax"] == 5 + 1


def test_legendary_goods_are_discarded_at_the_end_of_a_buy_turn_R24() -> None:
    """R24 / N3.13: Greece ends its turn holding a legendary gems: it goes back to the pool."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"leg:gems": 1, "tax": 1}
    p["pool"]["gems"] = 0
    s = buy_turn(load(s, p), GREECE)
    s.apply("end")
    assert s.d["res"][GREECE] == {"tax": 1} and s.d["pool"]["gems"] == 1


def test_the_starting_hero_counts_toward_five_tiles_R26() -> None:
    """R26 / N6.2: Pericles and four bought tiles make five: Greece wins; with
    ``starting_hero_counts_toward_win`` off the same purchase does not win."""
    for counts, over in ((True, True), (False, False)):
        s = new(starting_hero_counts_toward_win=counts)
        p = pos(s)
        p["tiles"][GREECE] += ["circe", "perseus", "hamilcar"]
        p["res"][GREECE] = {"tax": 7}
        s = buy_turn(load(s, p), GREECE)
        buy(s, "buy tile hercules", *["tax"] * 7)  # round 1: 7 (R25)
        assert s.is_terminal() is over
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    assert "buy tile hercules" in s.legal_actions()  # owning only Pericles: the next costs 7


def test_a_tile_works_from_the_moment_it_is_bought_R27() -> None:
    """R27 / N3.10.1: Spartacus's cheap legion is open in the same turn; Hercules' bonus counts
    at once."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 9}
    p["tiles"][GREECE] = ["pericles"]
    s = buy_turn(load(s, p), GREECE)
    refuse(s, "buy legion achea cheap", "N3.3", "N0.8.4")
    buy(s, "buy tile spartacus", *["tax"] * 7)
    buy(s, "buy legion achea cheap", "tax")
    assert s.d["legions"]["achea"][GREECE] == 2
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    before = s.tracks(GREECE)
    buy(s, "buy tile hercules", *["tax"] * 7)
    assert s.tracks(GREECE) == {k: v + 2 for k, v in before.items()}


def test_caesar_only_attacking_pericles_only_defending_R28() -> None:
    """R28 / 2.8: Greece attacks Rome in Macedonia: Pericles adds nothing to the attacker and
    Caesar nothing to the defender (one die each per legion)."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [2, 1, 0]
    s = mil_turn(load(s, p), GREECE, "mil_fight")
    s.apply("fight macedonia 0")
    assert len(s.chance_outcomes()) == 6  # Greece: 1 legion, no Pericles
    s.apply("roll 1")
    assert len(s.chance_outcomes()) == 21  # Rome: 2 legions, no Caesar


def test_capitals_and_legendary_cities_count_on_culture_for_their_controller_R29() -> None:
    """R29 / N0.7.2: Rome occupying Achea's capital moves one Culture from Greece to Rome;
    Greece's new legendary city Syracusae adds one."""
    s = new()
    p = pos(s)
    p["legions"]["achea"] = [1, 0, 0]
    p["conqueror"]["achea"] = ROME
    p["occupy"]["achea"] = {"capital": ROME}
    s = load(s, p)
    assert s.tracks(ROME)["culture"] == 2 and s.tracks(GREECE)["culture"] == 3
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 6}
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy marker sicilia", "tax", "tax", "tax")
    buy(s, "build legendary_city:syracusae sicilia", "tax", "tax", "tax")
    assert s.tracks(GREECE)["culture"] == 5


def test_the_previous_holder_settles_a_tie_he_is_not_in_R30() -> None:
    """R30 / N5.2 (D25): Rome and Carthage tie at Military 5 above Greece, which held the title:
    Greece chooses between them and may not keep it."""
    s = new()
    p = pos(s)
    p["legions"].update(latium=[4, 0, 0], africa=[0, 0, 4])
    p["titles"]["military"] = GREECE
    s = mil_turn(load(s, p), CARTHAGE, "mil_row", done=[ROME, GREECE])
    finish_military(s)
    if s.d["claim"]["track"] == "trade":  # Rome and Carthage also tie at Trade 7
        s.apply("title trade 2")
    assert s.current_player() == GREECE
    assert list(s.legal_actions()) == ["title military 0", "title military 2"]
    refuse(s, "title military 1", "N5.2", "R30")
    s.apply("title military 2")
    assert s.d["titles"]["military"] == CARTHAGE


def test_the_pyramids_stay_available_and_are_never_replaced_R42() -> None:
    """R42: Greece buys Hercules from the display; the Pyramids stay in their own space, open
    to Carthage in the same phase, and the refill never reveals them."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 7}
    p["res"][CARTHAGE] = {"tax": 12}
    s = buy_turn(load(s, p), GREECE)
    s.d["buy"]["done"] = [ROME]
    buy(s, "buy tile hercules", *["tax"] * 7)
    assert s.d["pyramids"] is None and "pyramids" not in s.d["display"]
    assert s.d["buy"]["active"] == CARTHAGE and "buy pyramids" in s.legal_actions()
    s.apply("end")
    assert "reveal pyramids" not in [a for a, _ in s.chance_outcomes()]


def test_buying_nothing_still_discards_R43() -> None:
    """R43 / N3.13: Rome and Greece end their turns at once: goods go back, 2 taxes at most
    are kept."""
    s = buy_turn(new(), ROME)
    s.d["buy"]["done"] = []
    s.apply("end")
    assert s.d["res"][ROME] == {"tax": 1}
    s.apply("next 1")
    s.apply("end")
    assert s.d["res"][GREECE] == {"tax": 2}
