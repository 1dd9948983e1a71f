"""The worked examples W1-W12 of the spec (section 9), one test (or group) each."""

from __future__ import annotations

from typing import Any

from nostrum_helpers import (
    CARTHAGE,
    EGYPT,
    GREECE,
    ROME,
    buy,
    buy_turn,
    conserved,
    finish_military,
    load,
    mil_turn,
    new,
    play,
    pos,
    refuse,
    steps,
)

from ziggurat.games.mare_nostrum import buy_place, flow, production
from ziggurat.games.mare_nostrum import data as D


def produce(state: Any, **changes: Any) -> Any:
    """One Production (N1) on the board of ``state``, starting from empty holdings."""
    p = pos(state)
    p.update(round=2, res=[{} for _ in range(p["n"])], trade=None)
    p.update(changes)
    s = load(state, p)
    production.production(s.d)
    flow.advance(s.d)
    s._legal = None
    s._settle()
    return s


def test_w1_starting_production_gives_the_nine_starting_resources() -> None:
    """W1 / 4.1: one Production of each empire's starting buildings yields its resources."""
    for n in (3, 4, 5):
        s = new(n)
        start = [dict(r) for r in s.d["res"]]
        assert produce(s).d["res"] == start
    greece = new(3).d["res"][GREECE]
    assert greece == {"oil": 1, "grain": 1, "wine": 1, "marble": 1, "tax": 5}


def test_w1_market_and_temple_double() -> None:
    """W1 (N1.2-N1.5, N0.7): Latium with market and temple gives 2 metal, 2 wine, 2 taxes."""
    s = new()
    p = pos(s)
    p["buildings"]["latium"].append("temple")
    p["buildings"]["gallia"] = []
    p["buildings"]["italia"] = []
    del p["buildings"]["gallia"], p["buildings"]["italia"]
    s = load(s, p)
    assert s.tracks(ROME)["trade"] == 3 and s.tracks(ROME)["culture"] == 2
    assert produce(s).d["res"][ROME] == {"metal": 2, "wine": 2, "tax": 2}


def _w2(occupied: list[str]) -> Any:
    s = new()
    p = pos(s)
    p["buildings"]["latium"].append("temple")
    del p["buildings"]["gallia"], p["buildings"]["italia"]
    p["legions"]["latium"] = [0, 0, len(occupied)]
    p["conqueror"]["latium"] = CARTHAGE
    p["occupy"]["latium"] = {slot: CARTHAGE for slot in occupied}
    return load(s, p)


def test_w2_production_with_occupied_buildings() -> None:
    """W2 (N0.5, N1.3, N1.5, N4.11.3)."""
    s = _w2(["caravan:metal", "market"])
    conserved(s)
    out = produce(s).d["res"]
    assert out[CARTHAGE].get("metal") == 2
    assert out[ROME] == {"wine": 1, "tax": 2}
    assert s.tracks(ROME)["trade"] == 1
    variant = produce(_w2(["market"])).d["res"]
    assert "metal" not in variant[CARTHAGE]
    assert variant[ROME] == {"metal": 1, "wine": 1, "tax": 2}


def _w3(pool: dict[str, int]) -> Any:
    s = new()
    p = pos(s)
    p["markers"]["asia"] = GREECE
    p["buildings"] = {"asia": ["legendary_city:troia", "temple"]}
    full = {g: 0 for g in p["pool"]}
    full.update(pool)
    p["legendary_out"] = {g: 1 - full[g] for g in full if full[g] == 0}
    p["pool"] = full
    return load(s, p)


def test_w3_legendary_city_with_temple() -> None:
    """W3 (N1.6, N1.7, N0.7.2): one token in the pool, then an empty pool."""
    s = _w3({"gems": 1})
    assert s.tracks(GREECE)["culture"] == 2
    s = produce(s)  # the one-outcome draw is automatic; the extra is a tax (pool empty)
    assert [e[1] for e in s.events()] == ["draw gems"]
    assert s.d["res"][GREECE] == {"tax": 2, "leg:gems": 1}
    conserved(s)
    assert produce(_w3({})).d["res"][GREECE] == {"tax": 2}


def test_w3_choice_when_the_pool_is_not_empty() -> None:
    """D3: with tokens left after the draw, the controller chooses tax or draw."""
    s = produce(_w3({"gems": 1, "gold": 1}))
    s.apply("draw gold")
    assert s.current_player() == GREECE
    assert list(s.legal_actions()) == ["extra draw", "extra tax"]
    s.apply("extra draw")  # the draw of the last token follows automatically
    assert s.d["res"][GREECE] == {"tax": 1, "leg:gold": 1, "leg:gems": 1}


def test_w4_paying_and_the_end_of_a_buy_turn() -> None:
    """W4 (N0.8, N3.3, N3.4, N3.13)."""
    s = buy_turn(new(), GREECE)
    legal = s.legal_actions()
    assert "buy legion achea" in legal and "buy marker dacia" in legal
    refuse(s, "build temple thracia", "N0.8.1")
    p = pos(s)
    p["res"][GREECE]["tax"] = 3
    p["buy"]["paying"] = {"item": "fortress achea", "cost": 3, "kind": "normal", "paid": ["tax", "tax"]}
    half = load(s, p)
    assert list(half.legal_actions()) == ["pay tax"]
    refuse(half, "pay marble", "N0.8.1")
    steps(s, "buy fortress achea", "pay tax", "pay tax", "pay tax")  # forced after the first tax
    s = buy_turn(new(), GREECE)
    buy(s, "buy legion achea", "tax", "tax", "tax")
    buy(s, "buy marker dacia", "oil", "grain", "wine")
    # marble + 2 taxes buy nothing, so "end" is the only choice; it is still asked, since other
    # tokens behind the screen might buy something (7.8): the marble goes, 2 taxes stay (N3.13)
    assert list(s.legal_actions()) == ["end"] and s.current_player() == GREECE
    s.apply("end")
    assert s.events()[-1] == (GREECE, "end", False, GREECE)
    assert s.d["markers"]["dacia"] == GREECE
    assert s.d["res"][GREECE] == {"tax": 2}


def test_w4_cleopatra_mixes_goods_and_taxes() -> None:
    """W4 / N0.8.3, R28: one good in a payment of taxes under the default reading; two only
    under ``cleopatra_reading: "any_mix"``."""
    s = buy_turn(new(4), EGYPT)
    buy(s, "build market aegyptus", "tax", "tax", "tax", "tax", "tax", "papyrus")
    buy(s, "buy trireme mare_aegyptum", "papyrus", "grain", "gold")
    assert "market" in s.d["buildings"]["aegyptus"]
    p = pos(buy_turn(new(4), EGYPT))
    p["tiles"][EGYPT] = []
    s2 = load(s, p)
    assert "build market aegyptus" not in s2.legal_actions()
    s = steps(buy_turn(new(4), EGYPT), "build market aegyptus", "pay tax", "pay tax", "pay tax", "pay tax")
    s.apply("pay papyrus")
    refuse(s, "pay grain", "N0.8.3", "R28", "one_token")
    s = buy_turn(new(4, cleopatra_reading="any_mix"), EGYPT)
    buy(s, "build market aegyptus", "tax", "tax", "tax", "tax", "papyrus", "grain")


def test_w4_hannibal_pays_with_repeated_goods() -> None:
    """W4 / N0.8.3, R28: one pair of identical goods by default; 3 sheep + 2 perfume + gold
    only under ``hannibal_reading: "any"``."""
    s = buy_turn(new(), CARTHAGE)
    buy(s, "build market numidia", "sheep", "sheep", "perfume", "gold", "gladiators", "oil")
    assert "market" in s.d["buildings"]["numidia"]
    s = buy_turn(new(), CARTHAGE)
    steps(s, "build market numidia", "pay sheep", "pay sheep")
    refuse(s, "pay sheep", "N0.8.3", "R28", "one_pair")
    s.apply("pay perfume")
    refuse(s, "pay perfume", "N0.8.3", "one_pair")
    s = buy_turn(new(hannibal_reading="any"), CARTHAGE)
    buy(s, "build market numidia", "sheep", "sheep", "sheep", "perfume", "perfume", "gold")
    assert "market" in s.d["buildings"]["numidia"]
    s = buy_turn(new(), CARTHAGE)
    p = pos(s)
    p["tiles"][CARTHAGE] = []
    p["res"][CARTHAGE] = {"sheep": 3, "perfume": 2, "gold": 1}
    assert "build market numidia" not in load(s, p).legal_actions()
    p["tiles"][CARTHAGE] = ["hannibal"]
    assert "build market numidia" not in load(s, p).legal_actions()  # one pair at most


def test_w4_no_hero_payment_for_the_pyramids() -> None:
    """W4 / 2.9, N0.8.3, R28: in a payment for the Pyramids, Carthage (Hannibal, and
    Cleopatra copied) may put in neither a second sheep nor a tax after a good; with
    ``hero_payments_for_pyramids`` it may."""
    for allowed in (False, True):
        s = new(hero_payments_for_pyramids=allowed)
        p = pos(s)
        p["res"][CARTHAGE] = {g: 1 for g in D.GOODS} | {"sheep": 2, "tax": 1}
        p["copy"][CARTHAGE] = "cleopatra"
        p["tiles"][ROME] = ["caesar", "cleopatra"]
        s = buy_turn(load(s, p), CARTHAGE)
        s.apply("buy pyramids")
        s.apply("pay sheep")
        if allowed:
            assert {"pay sheep", "pay tax"} <= set(s.legal_actions())
        else:
            refuse(s, "pay sheep", "2.9", "N0.8.3")
            refuse(s, "pay tax", "2.9", "N0.8.3")


def test_w5_trade_round_with_an_imbalance() -> None:
    """W5 (N2.1-N2.10)."""
    s = new()
    before = [sum(r.values()) for r in s.d["res"]]
    s.apply("token c 2")
    assert s.d["tokens_used"] == [False, False, True]
    play(s, "offer metal", "offer wine", "offer tax", "offer tax", "offer perfume", "offer sheep")
    assert s.d["trade"]["revealed"]
    assert s.current_player() == CARTHAGE
    steps(s, "take metal from 0", "take sheep from 2", "take tax from 1")
    p = pos(s)
    p["trade"]["takes"] = p["trade"]["takes"][:2]
    p["trade"]["chooser"] = CARTHAGE
    refuse(load(s, p), "take wine from 0", "N2.6")
    # Carthage's take from Greece is then forced (auto), and so is his last one
    steps(s, "take wine from 0", "take perfume from 2", "take tax from 1")
    assert s.d["stage"] == "trade_give"  # Greece is the final chooser, not the starter
    assert s.current_player() == CARTHAGE
    s.apply("give tax")
    assert [sum(r.values()) for r in s.d["res"]] == before
    assert s.d["res"][CARTHAGE]["metal"] == 1
    assert s.d["stage"] == "buy_order"
    p = pos(s)
    p["stage"] = "trade_token"
    p["buy"] = None
    assert [a.split()[1] for a in load(s, p).legal_actions()] == ["a", "a", "b", "b"]


def test_w6_a_draft_that_dead_ends() -> None:
    """W6 (N2.6-N2.9)."""
    s = new()
    p = pos(s)
    p["res"][ROME] = {"metal": 1, "wine": 1, "grain": 1}
    p["res"][GREECE] = {"oil": 1, "marble": 1, "tax": 1}
    p["res"][CARTHAGE] = {"sheep": 1, "perfume": 1, "gold": 1, "tax": 1}
    s = load(s, p)
    steps(
        s,
        "token c 3",
        "offer metal",
        "offer wine",
        "offer grain",
        "offer oil",
        "offer marble",
        "offer tax",
        "offer sheep",
        "offer perfume",
        "offer gold",
    )
    steps(s, "take oil from 1", "take metal from 0", "take marble from 1")
    assert not [a for a in s.legal_actions() if a.endswith("from 0")]  # G may not take from R
    steps(s, "take sheep from 2", "take tax from 1")
    assert not [a for a in s.legal_actions() if a.endswith("from 2")]  # G may not take from C
    steps(s, "take wine from 0", "take perfume from 2", "take grain from 0")
    assert s.d["stage"] == "trade_give" and s.d["trade"]["chooser"] == ROME
    assert s.d["res"][CARTHAGE]["gold"] == 1  # leftover s3 returned
    s.apply("give tax")
    assert [sum(r.values()) for r in s.d["res"]] == [3, 3, 4]


def _w7(rolls: tuple[str, str], hamilcar: bool = False) -> Any:
    s = new()
    p = pos(s)
    p["legions"] = {"latium": [3, 0, 0], "numidia": [0, 0, 2], "achea": [0, 1, 0]}
    p["triremes"] = {"mare_tyrrhenum": [1, 0, 0], "mare_sardum": [1, 0, 1]}
    p["fortresses"] = {"numidia": CARTHAGE}
    if hamilcar:
        p["tiles"][ROME].append("hamilcar")
    s = mil_turn(load(s, p), ROME, "mil_march")
    # the last "done" and the only battle are forced, so the engine plays them (auto)
    steps(s, "sail latium numidia", "sail latium numidia", "sail latium numidia", "done", "fight numidia 2")
    assert {len(a.split()[1].split(",")) for a, _ in s.chance_outcomes()} == {4}  # 3 legions + Caesar
    play(s, f"roll {rolls[0]}", f"roll {rolls[1]}")
    return s


def test_w7_land_battle_with_a_fortress_then_pillage() -> None:
    """W7 (N4.6.2, N4.7, N4.8, N4.10, N4.11.2)."""
    s = _w7(("2,4,5,6", "3,4"))
    assert s.d["legions"]["numidia"] == [1, 0, 0]
    assert s.d["fortresses"] == {"numidia": CARTHAGE}
    assert s.d["conqueror"] == {"numidia": ROME}
    assert s.current_player() == ROME
    trade = s.tracks(CARTHAGE)["trade"]
    s.apply("pillage caravan:gold")
    assert s.d["res"][ROME]["gold"] == 1
    assert s.tracks(CARTHAGE)["trade"] == trade - 1
    conserved(s)
    s = _w7(("2,4,5,6", "3,4"), hamilcar=True)
    s.apply("pillage caravan:gold")
    assert s.d["res"][ROME]["gold"] == 2


def test_w7_variant_at_war() -> None:
    s = _w7(("1,1,1,2", "3,4"))
    assert s.d["legions"]["numidia"] == [1, 0, 2]
    assert "numidia" not in s.d["conqueror"]
    assert s.d["stage"] != "mil_fight"  # one battle per province and opponent per turn (N4.8)


def test_w8_drawn_sea_and_land_battles() -> None:
    """W8 (N4.5, N4.9, N3.5, N3.6, N1.8, N4.8)."""
    s = new(4)
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 0, 1, 0]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    steps(s, "seabattle mare_sardum 2", "roll 1,2", "roll 4")
    assert s.d["triremes"]["mare_sardum"] == [2, 0, 1, 0]
    assert any(a.startswith("sail latium numidia") for a in s.legal_actions())  # chain still works
    p = pos(s)
    p["legions"]["libya"] = [0, 0, 1, 0]
    p["legions"]["cyrenaica"] = [0, 0, 0, 1]
    s = mil_turn(load(s, p), CARTHAGE, "mil_march")
    steps(s, "march libya cyrenaica", "done", "fight cyrenaica 3", "roll 3", "roll 4")
    assert s.d["legions"]["cyrenaica"] == [0, 0, 1, 1]
    b = buy_turn(s, EGYPT)
    assert not [a for a in b.legal_actions() if a.endswith(" cyrenaica")]
    refuse(b, "build temple cyrenaica", "N3.5.1")
    refuse(b, "buy legion cyrenaica", "N3.6")
    assert produce(s).d["res"][EGYPT].get("papyrus") == 2  # still produces for Egypt (N1.8)
    p = pos(s)
    p["legions"]["aegyptus"] = [0, 0, 1, 1]
    b = buy_turn(load(s, p), EGYPT)
    assert "buy legion aegyptus" in b.legal_actions() and "build market aegyptus" in b.legal_actions()


def _w9(sheba: bool = False) -> Any:
    s = new()
    p = pos(s)
    p["markers"]["dacia"] = ROME
    p["legions"]["dacia"] = [2, 0, 0]
    p["legions"]["achea"] = [0, 1, 0]
    p["round"] = 3
    if sheba:
        p["tiles"][ROME].append("queen_of_sheba")
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march dacia macedonia", "march dacia macedonia", "done")
    assert s.d["conqueror"] == {"macedonia": ROME}
    s.apply("convert")
    return s


def test_w9_conversion_over_two_military_phases() -> None:
    """W9 (N4.10, N4.11.4, N4.3, N4.12)."""
    s = _w9()
    assert s.d["on_marker"] == {"macedonia": ROME} and s.d["markers"]["macedonia"] == GREECE
    conserved(s)
    p = pos(s)
    p["round"] = 4
    s4 = mil_turn(load(s, p), ROME, "mil_conv")
    assert "convert macedonia" in s4.legal_actions()
    trade = (s4.tracks(ROME)["trade"], s4.tracks(GREECE)["trade"])
    s4.apply("convert macedonia")
    assert s4.d["markers"]["macedonia"] == ROME and s4.d["conqueror"] == {}
    assert (s4.tracks(ROME)["trade"], s4.tracks(GREECE)["trade"]) == (trade[0] + 2, trade[1] - 2)
    conserved(s4)
    # not in the same Military phase it was chosen
    p = pos(s)
    assert "convert macedonia" not in mil_turn(load(s, p), ROME, "mil_conv").legal_actions()


def test_w9_variant_greece_places_a_legion() -> None:
    s = _w9()
    p = pos(s)
    p["round"] = 4
    p["res"][GREECE] = {"tax": 3}
    b = buy_turn(load(s, p), GREECE)
    buy(b, "buy legion macedonia", "tax", "tax", "tax")
    assert b.d["conqueror"] == {} and b.d["pending"] == {} and b.d["on_marker"] == {}
    conserved(b)


def test_w9_variant_queen_of_sheba() -> None:
    s = _w9(sheba=True)
    assert s.d["markers"]["macedonia"] == ROME and s.d["pending"] == {}


def test_w10_influence_by_trireme_chain() -> None:
    """W10 (N3.4, N0.6.2)."""
    s = buy_turn(new(), CARTHAGE)
    assert "buy marker sicilia" in s.legal_actions()
    buy(s, "buy marker sicilia", "sheep", "perfume", "gold")
    buy(s, "build legendary_city:syracusae sicilia", "sheep", "sheep", "gladiators")
    assert "legendary_city:syracusae" in s.d["buildings"]["sicilia"]
    r = buy_turn(new(), ROME)
    assert "buy marker sicilia" in r.legal_actions()
    assert "buy marker creta" not in r.legal_actions()
    refuse(r, "buy marker creta", "N3.4 (d)", "N0.6")
    assert "buy marker creta" in buy_turn(new(), GREECE).legal_actions()


def test_w11_claim_ties_and_trade_tokens() -> None:
    """W11 (N5.1-N5.3)."""
    s = new()
    p = pos(s)
    p["legions"]["latium"] = [4, 0, 0]
    p["legions"]["africa"] = [0, 0, 4]
    p["titles"]["military"] = GREECE
    p["markers"]["dalmatia"] = ROME
    p["buildings"]["dalmatia"] = ["caravan:gladiators", "caravan:timber", "market"]
    p["buildings"]["numidia"].append("market")
    p["buildings"]["libya"].append("market")
    p["tokens_used"] = [True, False, True]
    s = load(s, p)
    assert [s.tracks(x)["military"] for x in (ROME, CARTHAGE, GREECE)] == [5, 5, 3]
    assert [s.tracks(x)["trade"] for x in (ROME, CARTHAGE)] == [10, 9]
    s = finish_military(mil_turn(s, ROME, "mil_row"))
    assert s.d["stage"] == "claim_tie" and s.current_player() == GREECE
    assert list(s.legal_actions()) == ["title military 0", "title military 2"]
    refuse(s, "title military 1", "N5.2")
    s.apply("title military 2")
    assert s.d["titles"] == {"trade": ROME, "culture": GREECE, "military": CARTHAGE}
    assert s.d["tokens_used"] == [False, False, False]
    assert s.d["stage"] == "trade_token" and s.current_player() == ROME


def test_w12_buying_tiles_and_the_fifth_tile_victory() -> None:
    """W12 (N3.10, N3.14, N6.2, N6.5.1, N0.7.4, R25): the cost goes by the round."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 15}
    p["round"] = 2
    s = buy_turn(load(s, p), GREECE, done=[])
    p = pos(s)
    p["buy"]["done"] = [ROME]
    s = load(s, p)
    before = s.tracks(GREECE)
    buy(s, "buy tile hercules", *["tax"] * 7)
    assert s.tracks(GREECE) == {t: v + 2 for t, v in before.items()}
    assert s.d["display"].count(None) == 1
    assert buy_place.cost_tile(s.d, GREECE) == 7  # a second tile this round costs 7 too
    costs = {}
    for rnd in (3, 4, 5, 6, 7, 12):
        p = pos(s)
        p["round"] = rnd
        costs[rnd] = buy_place.cost_tile(load(s, p).d, GREECE)
    assert costs == {3: 8, 4: 8, 5: 9, 6: 9, 7: 10, 12: 10}
    p = pos(s)
    p["tiles"][GREECE] = ["pericles", "hercules", "circe", "perseus"]
    p["res"][GREECE] = {"tax": 10}
    p["round"] = 5
    s = load(s, p)
    assert buy_place.cost_tile(s.d, GREECE) == 9
    buy(s, "buy tile antigone", *["tax"] * 9)
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0]


def test_w12_cost_by_tiles_owned_with_the_option() -> None:
    """W12 / R25 with ``hero_cost_mode: "by_tiles_owned"``: 7, then 8, 9, 10 whatever the
    round."""
    s = new(hero_cost_mode="by_tiles_owned")
    p = pos(s)
    p["res"][GREECE] = {"tax": 15}
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy tile hercules", *["tax"] * 7)
    assert buy_place.cost_tile(s.d, GREECE) == 8
    p = pos(s)
    p["tiles"][GREECE] = ["pericles", "hercules", "circe", "perseus"]
    assert buy_place.cost_tile(load(s, p).d, GREECE) == 10
