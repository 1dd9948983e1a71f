"""Refusals name the most precise rule that applies (a numbered sub-rule, or a lettered
condition, rather than the general rule) and say why in a player's words; nothing changes."""

from __future__ import annotations

from nostrum_helpers import (
    BABYLON,
    CARTHAGE,
    GREECE,
    ROME,
    buy,
    buy_turn,
    load,
    mil_turn,
    new,
    play,
    pos,
    refuse,
    steps,
)


def test_fortress_one_per_province_N3_8() -> None:
    s = buy_turn(new(), GREECE)
    buy(s, "buy fortress achea", "tax", "tax", "tax")
    message = refuse(s, "buy fortress achea", "N3.8")
    assert "already holds a fortress" in message


def test_trireme_needs_a_sea_next_to_the_empire_N3_7() -> None:
    s = buy_turn(new(), GREECE)
    assert "touches none of your provinces" in refuse(s, "buy trireme mare_sardum", "N3.7")


def test_empty_unit_supply_N0_9() -> None:
    s = buy_turn(new(unit_limits={"legion": 2, "trireme": 5, "fortress": 8, "influence_marker": 12}), ROME)
    assert "no legion is left in your supply" in refuse(s, "buy legion latium", "N0.9")


def test_legendary_good_with_a_normal_good_of_its_type_N0_8_2() -> None:
    s = new()
    p = pos(s)
    p["res"][ROME]["leg:metal"] = 1
    p["pool"]["metal"] = 0
    s = buy_turn(load(s, p), ROME)
    s.apply("buy marker dalmatia")
    s.apply("pay leg:metal")
    assert "counts as a metal" in refuse(s, "pay metal", "N0.8.2")
    assert "not mixed" in refuse(s, "pay tax", "N0.8.1")
    assert "no payment" not in refuse(s, "buy legion latium", "N0.8")  # pay first


def test_tile_not_in_display_or_unaffordable_N3_10_1() -> None:
    s = buy_turn(new(), GREECE)
    assert "not face up" in refuse(s, "buy tile circe", "N3.10.1")
    assert "costs 7" in refuse(s, "buy tile hercules", "N0.8.1")  # 9 tokens, 5 of them taxes


def test_hammurabi_once_per_turn_N3_12_1() -> None:
    s = buy_turn(new(5), BABYLON)
    s.apply("free marker arabia")
    assert "once per buy turn" in refuse(s, "free marker armenia", "N3.12.1")


def test_legion_moves_N4_6_1_N4_6_2_and_once() -> None:
    s = new()
    p = pos(s)
    p["legions"]["latium"] = [3, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    assert "does not border" in refuse(s, "march latium achea", "N4.6.1")
    assert "no chain of seas" in refuse(s, "sail latium achea", "N4.6.2")
    s.apply("march latium gallia")
    s.apply("march latium gallia")
    assert "each moves once" in refuse(s, "march gallia latium", "N4.6")


def test_statue_of_zeus_bars_a_chain_landing_N4_1_3() -> None:
    s = new()
    p = pos(s)
    p["markers"]["sicilia"] = ROME
    p["zeus"] = [[ROME, CARTHAGE]]
    s = mil_turn(load(s, p), CARTHAGE, "mil_march")
    assert "Statue of Zeus" in refuse(s, "sail africa sicilia", "N4.1.3")


def test_conversion_conditions_N4_3() -> None:
    """N4.3: not before a later Military phase; (3) connection."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [2, 0, 0]
    p["legions"]["achea"] = [0, 1, 0]
    p["conqueror"]["macedonia"] = ROME
    p["on_marker"]["macedonia"] = ROME
    p["pending"]["macedonia"] = [ROME, 1]
    p["triremes"].pop("mare_tyrrhenum")
    assert "later Military phase" in refuse(
        mil_turn(load(s, p), ROME, "mil_conv"), "convert macedonia", "N4.3"
    )
    p["round"] = 2
    message = refuse(mil_turn(load(s, p), ROME, "mil_conv"), "convert macedonia", "N4.3 (3)", "N0.6")
    assert "not connected" in message


def test_hit_removal_comes_first_N4_7_6() -> None:
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [0, 1, 0]
    p["legions"]["latium"] = [2, 0, 2]
    p["occupy"]["latium"] = {"market": CARTHAGE}
    s = mil_turn(load(s, p), ROME, "mil_fight")
    steps(s, "fight latium 2", "roll 1,1,3", "roll 1,1")
    assert s.current_player() == CARTHAGE
    refuse(s, "done", "N4.7.6")
    assert "stands on the marker" in refuse(s, "lose marker", "N4.7.6")


def test_take_from_own_offer_N2_5() -> None:
    s = new()
    s.apply("token c 2")
    play(s, "offer metal", "offer wine", "offer tax", "offer tax", "offer perfume", "offer sheep")
    assert "not your own" in refuse(s, "take perfume from 2", "N2.5")
    assert "holds no gold" in refuse(s, "take gold from 0", "N2.5")
