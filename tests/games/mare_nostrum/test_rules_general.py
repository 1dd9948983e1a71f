"""The general rules of section 5 N0 (influence, connection, tracks, paying, province states)
and the buy turn (N3.2, N3.9, N3.10.3), each tried as a player would: a position, a move, the
outcome or the refusal and its reason."""

from __future__ import annotations

from nostrum_helpers import (
    CARTHAGE,
    GREECE,
    ROME,
    buy,
    buy_turn,
    conserved,
    load,
    mil_turn,
    new,
    pos,
    refuse,
    steps,
)

from ziggurat.games.mare_nostrum import board as B

# ------------------------------------------------------------------ influence (N0.4)


def test_a_marker_makes_the_province_his_at_once_N0_4_1() -> None:
    """N0.4.1 / N3.2: Rome's marker in Dalmatia makes it a Roman province at once: Dacia, which
    touches only Dalmatia of Rome's empire, becomes reachable in the same turn, and Rome may
    build in Dalmatia. Two purchases may use goods of the same type, one in each (N0.8.1)."""
    s = buy_turn(new(), ROME)
    refuse(s, "buy marker dacia", "N3.4 (d)")
    buy(s, "buy marker dalmatia", "grain", "metal", "wine")
    assert s.d["markers"]["dalmatia"] == ROME and "dalmatia" in B.own_provinces(s.d, ROME)
    buy(s, "buy marker dacia", "metal", "sheep", "wine")
    assert s.d["markers"]["dacia"] == ROME
    conserved(s)


def test_neutral_provinces_hold_no_buildings_or_fortresses_N0_4_2() -> None:
    """N0.4.2: a province with no marker is neutral; nobody may build or fortify there."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 9}
    p["legions"]["dacia"] = [0, 1, 0]
    s = buy_turn(load(s, p), GREECE)
    assert "dacia" not in s.d["markers"]
    refuse(s, "build caravan:wine dacia", "N3.5")
    refuse(s, "buy fortress dacia", "N3.8")
    assert not [a for a in s.legal_actions() if a.endswith(" dacia") and not a.startswith("buy marker")]


def test_markers_leave_only_by_conversion_N0_4_3() -> None:
    """N0.4.3: Rome pillages Thracia's city: Greece's marker stays (Thracia is not neutral);
    only a conversion returns it to Greece's supply."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march", done=[])
    markers = B.supply(s.d, GREECE, "influence_marker")
    steps(s, "march dacia thracia", "march dacia thracia", "done", "pillage city")
    assert s.d["markers"]["thracia"] == GREECE and B.supply(s.d, GREECE, "influence_marker") == markers
    p = pos(s)
    p.update(round=2)
    p["on_marker"]["thracia"] = ROME
    p["pending"]["thracia"] = [ROME, 1]
    p["markers"]["dacia"] = ROME
    s = mil_turn(load(s, p), ROME, "mil_conv")
    s.apply("convert thracia")
    assert s.d["markers"]["thracia"] == ROME
    assert B.supply(s.d, GREECE, "influence_marker") == markers + 1
    conserved(s)


# ------------------------------------------------------------------ connection (N0.6)


def test_connected_by_a_land_border_N0_6_1() -> None:
    """N0.6.1: with trireme chains switched off, only a land border connects: Greece reaches
    Dacia (next to Macedonia and Thracia), Carthage cannot reach the island of Sicilia."""
    s = new(influence_connection_by_trireme_chain=False)
    g = buy_turn(s, GREECE)
    assert "buy marker dacia" in g.legal_actions()
    c = buy_turn(s, CARTHAGE)
    message = refuse(c, "buy marker sicilia", "N3.4 (d)", "N0.6")
    assert "by land" in message
    assert "buy marker phasania" in c.legal_actions()  # Phasania borders Africa


# ------------------------------------------------------------------ tracks (N0.7)


def test_trade_counts_caravans_and_markets_N0_7_1() -> None:
    """N0.7.1: Greece builds Achea's market: Trade 4 -> 5 at once. Carthage's 7 at the start
    are its six caravans and the market of Africa."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 6}
    s = buy_turn(load(s, p), GREECE)
    assert s.tracks(GREECE)["trade"] == 4  # caravans: oil, grain, wine, marble
    buy(s, "build market achea", *["tax"] * 6)
    assert s.tracks(GREECE)["trade"] == 5
    assert s.tracks(CARTHAGE)["trade"] == 7  # six caravans and the market of Africa


def test_military_counts_legions_triremes_and_fortresses_N0_7_3() -> None:
    """N0.7.3: each legion, trireme and fortress bought adds one; a legion lost removes one."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 9}
    s = buy_turn(load(s, p), GREECE)
    assert s.tracks(GREECE)["military"] == 3  # 1 legion + 2 triremes
    buy(s, "buy legion achea", "tax", "tax", "tax")
    buy(s, "buy trireme mare_aegaeum", "tax", "tax", "tax")
    buy(s, "buy fortress achea", "tax", "tax", "tax")
    assert s.tracks(GREECE)["military"] == 6
    p = pos(new())
    p["legions"]["numidia"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_fight")
    assert s.tracks(ROME)["military"] == 4
    steps(s, "fight numidia 2", "roll 1,1", "roll 5")
    assert s.tracks(ROME)["military"] == 3  # 4 before the battle: its legion in Numidia is lost
    assert s.d["legions"].get("numidia") == [0, 0, 1]


# ------------------------------------------------------------------ paying (N0.8)


def test_cleopatra_hannibal_and_both_N0_8_3() -> None:
    """N0.8.3: Cleopatra mixes goods and taxes (no two goods alike); Hannibal repeats goods but
    never with taxes; with both (Carthage copying Cleopatra, N0.12) any three tokens pay."""
    s = new()
    p = pos(s)
    p["res"][CARTHAGE] = {"sheep": 2, "gold": 1, "tax": 1}
    t = buy_turn(load(s, p), CARTHAGE)
    t.apply("buy legion africa")
    t.apply("pay sheep")
    message = refuse(t, "pay tax", "N0.8.1")
    assert "not mixed" in message
    p["copy"][CARTHAGE] = "cleopatra"
    t = buy_turn(load(s, p), CARTHAGE)
    buy(t, "buy legion africa", "sheep", "sheep", "tax")
    assert t.d["legions"]["africa"][CARTHAGE] == 2
    p["copy"][CARTHAGE] = None
    p["tiles"][CARTHAGE] = ["cleopatra"]
    p["res"][CARTHAGE] = {"sheep": 2, "gold": 1, "tax": 1}
    t = buy_turn(load(s, p), CARTHAGE)
    t.apply("buy legion africa")
    t.apply("pay sheep")
    refuse(t, "pay sheep", "N0.8.3")
    steps(t, "pay gold", "pay tax")
    assert t.d["last_payment"]["paid"] == ["gold", "sheep", "tax"]


def test_hannibal_limit_option_N0_8_3() -> None:
    """N0.8.3, option ``hannibal_identical_goods_limit``: at most that many goods of one type."""
    s = new(hannibal_identical_goods_limit=2)
    t = buy_turn(s, CARTHAGE)
    t.apply("buy legion africa")
    steps(t, "pay sheep", "pay sheep")
    refuse(t, "pay sheep", "N0.8.3")
    steps(t, "pay perfume")
    assert t.d["last_payment"]["paid"] == ["perfume", "sheep", "sheep"]


def test_spent_tokens_go_back_and_payments_are_public_N0_8_5() -> None:
    """N0.8.5 / R8 / R24: a spent legendary good goes back to the pool, goods and taxes to the
    supply; every seat sees the payment."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"leg:gems": 1, "oil": 1, "grain": 1, "tax": 5}
    p["pool"]["gems"] = 0
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy marker dacia", "leg:gems", "oil", "grain")
    assert s.d["pool"]["gems"] == 1 and s.d["res"][GREECE] == {"tax": 5}
    for seat in (ROME, CARTHAGE):
        assert s.view(seat)["last_payment"] == {
            "seat": GREECE,
            "item": "marker dacia",
            "paid": ["grain", "leg:gems", "oil"],
        }
    conserved(s)
    s = new(legendary_goods_recycle=False)
    p = pos(s)
    p["res"][GREECE] = {"leg:gems": 1, "oil": 1, "grain": 1}
    p["pool"]["gems"] = 0
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy marker dacia", "leg:gems", "oil", "grain")
    assert s.d["pool"]["gems"] == 0 and s.view(ROME)["pool_count"] == 12


# ------------------------------------------------------------------ province states (N0.11)


def test_province_states_N0_11() -> None:
    """N0.11.1-N0.11.3: Thracia at war (Greek and Roman legions), Macedonia conquered (Rome
    alone in a Greek province, conqueror mark), Achea clear: Greece builds only in Achea."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 9}
    p["legions"].update(thracia=[1, 1, 0], macedonia=[1, 0, 0])
    p["conqueror"]["macedonia"] = ROME
    s = buy_turn(load(s, p), GREECE)
    conserved(s)
    assert B.at_war(s.d, "thracia") and not B.at_war(s.d, "macedonia")  # N0.11.1, N0.11.2
    assert s.d["markers"]["macedonia"] == GREECE  # a conquered province is never neutral
    assert "at war" in refuse(s, "build temple thracia", "N3.5.1")
    assert "has a conqueror" in refuse(s, "build market macedonia", "N3.5.2")
    assert "build market achea" in s.legal_actions()  # N0.11.3: clear


def test_at_war_needs_two_players_legions_N0_11_1() -> None:
    """N0.11.1: one player's legions alone never make a war; a second player's legion does."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [3, 0, 0]
    s = load(s, p)
    assert not B.at_war(s.d, "dacia")
    p["legions"]["dacia"] = [3, 0, 1]
    assert B.at_war(load(s, p).d, "dacia")


def test_a_conquered_province_is_never_at_war_N0_11_2() -> None:
    """N0.11.2 / N4.10.3: a Greek legion placed in conquered Macedonia ends Rome's mark; the
    province is then at war, no longer conquered."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [1, 0, 0]
    p["conqueror"]["macedonia"] = ROME
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy legion macedonia", "tax", "tax", "tax")
    assert s.d["conqueror"] == {} and B.at_war(s.d, "macedonia")
    conserved(s)


def test_a_clear_province_N0_11_3() -> None:
    """N0.11.3: Greece's own Achea with only Greek legions is clear: building, legion and
    fortress placement are all open."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 9}
    s = buy_turn(load(s, p), GREECE)
    legal = s.legal_actions()
    assert {"build market achea", "buy legion achea", "buy fortress achea"} <= set(legal)


# ------------------------------------------------------------------ the buy turn (N3)


def test_one_purchase_at_a_time_N3_2() -> None:
    """N3.2: while a payment is under way no other purchase starts; ``pay`` needs a purchase;
    the turn ends only when the player says so."""
    s = buy_turn(new(), GREECE)
    refuse(s, "pay tax", "N3.2")
    s.apply("buy legion achea")
    refuse(s, "buy trireme mare_aegaeum", "N3.2", "N0.8")
    refuse(s, "end", "N3.2")
    steps(s, "pay tax", "pay tax", "pay tax")
    assert s.d["stage"] == "buy_turn" and s.d["buy"]["active"] == GREECE
    buy(s, "buy trireme mare_aegaeum", "oil", "grain", "wine")
    assert s.tracks(GREECE)["military"] == 5
    # marble and two taxes pay for nothing: ending the turn is all that is left, asked all the
    # same, since three other tokens might pay for something (7.8)
    assert list(s.legal_actions()) == ["end"] and s.current_player() == GREECE
    s.apply("end")
    assert s.events()[-1][:3] == (GREECE, "end", False)


def test_limits_apply_to_free_and_cheap_placements_N3_9() -> None:
    """N3.9 / N0.9: with no legion left in supply, neither Spartacus's cheap legion nor
    Penthesilea's free one can be placed; with no marker left, no free Hammurabi marker."""
    limits = {"legion": 2, "trireme": 5, "fortress": 8, "influence_marker": 3}
    s = new(5, unit_limits=limits)
    p = pos(s)
    p["tiles"][ROME] += ["spartacus", "penthesilea"]
    p["res"][ROME] = {"tax": 5}
    p["triremes"]["mare_aegaeum"] = [1, 0, 0, 0, 0]
    t = buy_turn(load(s, p), ROME)
    assert not [a for a in t.legal_actions() if "legion" in a]
    refuse(t, "buy legion latium cheap", "N0.9")
    refuse(t, "free legion thracia", "N0.9")
    t = buy_turn(s, 4)  # Babylon: three markers on the board, none left
    refuse(t, "free marker arabia", "N0.9")


def test_the_fifth_tile_wins_at_once_N3_10_3() -> None:
    """N3.10.3 / N6.5.1: Greece's fifth tile ends the game in its buy turn; Carthage, still to
    buy, never acts."""
    s = new()
    p = pos(s)
    p["tiles"][GREECE] += ["circe", "perseus", "hamilcar"]
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    s.d["buy"]["done"] = [ROME]
    assert not s.is_terminal()
    buy(s, "buy tile hercules", *["tax"] * 7)  # round 1: 7 (R25)
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0]
    assert s.d["winner"] == GREECE and s.d["buy"]["done"] == [ROME]
