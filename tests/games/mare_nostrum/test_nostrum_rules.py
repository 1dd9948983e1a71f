"""Set-up, trade, buy, military, claim and victory rules not covered by the worked examples."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from nostrum_helpers import (
    BABYLON,
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
    pos,
    refuse,
    steps,
)

from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum.data import OptionError

# ------------------------------------------------------------------ set-up (section 4)


def test_random_empire_assignment_is_a_chance_node() -> None:
    """S2: every assignment of the in-play empires is equally likely."""
    for n, count in ((3, 6), (4, 24), (5, 120)):
        s = MareNostrumGame(n, {}).new_initial_state()
        outcomes = s.chance_outcomes()
        assert len(outcomes) == count
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_empire_choice_in_seat_order() -> None:
    """S2 / D1."""
    s = MareNostrumGame(3, {"empire_assignment": "choice"}).new_initial_state()
    assert s.current_player() == 0
    assert list(s.legal_actions()) == ["empire carthage", "empire greece", "empire rome"]
    steps(s, "empire greece", "empire carthage", "empire rome")
    assert s.d["empires"] == ["greece", "carthage", "rome"]


def test_areas_out_of_play() -> None:
    """3.3 / R34: covered provinces do not exist, nor their links."""
    b3 = MareNostrumGame(3, {}).board
    assert "aegyptus" not in b3.provinces and "syria" not in b3.provinces
    assert "aegyptus" not in b3.provinces["judea"]["land"]
    assert "cyrenaica" not in b3.seas["mare_africum"]["land"]
    b4 = MareNostrumGame(4, {}).board
    assert "aegyptus" in b4.provinces and "armenia" not in b4.provinces
    assert len(MareNostrumGame(5, {}).board.provinces) == 29


def test_starting_titles_and_vacancy() -> None:
    """4.2 / R31: at 3 players the Culture title goes to Greece."""
    assert new(3).d["titles"] == {"trade": CARTHAGE, "culture": GREECE, "military": ROME}
    assert new(4).d["titles"] == {"trade": CARTHAGE, "culture": EGYPT, "military": ROME}


def test_display_is_revealed_by_chance() -> None:
    """S7 / N0.13: each reveal is uniform over the face-down tiles."""
    s = MareNostrumGame(3, {}).new_initial_state()
    s.apply("empires rome,greece,carthage")
    out = s.chance_outcomes()
    assert len(out) == 17 and "reveal pyramids" not in [a for a, _ in out]
    assert all(abs(p - 1 / 17) < 1e-12 for _, p in out)


def test_options_are_checked() -> None:
    """10.6."""
    with pytest.raises(OptionError, match="players"):
        MareNostrumGame(2, {})
    with pytest.raises(OptionError):
        MareNostrumGame(3, {"bogus": 1})
    with pytest.raises(OptionError):
        MareNostrumGame(3, {"hero_cost_mode": "by_round", "hero_cost_by_round": None})
    g = MareNostrumGame(3, {"hero_cost_mode": "by_round", "hero_cost_by_round": {"1": 7, "3": 9}})
    assert g.options["hero_cost_mode"] == "by_round"


# ------------------------------------------------------------------ trade (N2)


def test_trade_participation() -> None:
    """N2.2.1-N2.2.2: fewer than v tokens means no part."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 2}
    s = load(s, p)
    s.apply("token b 4")
    assert s.d["trade"]["parts"] == {"0": 4, "2": 4}


def test_trade_value_zero_or_one_taker_ends_the_phase() -> None:
    """N2.2.4."""
    s = new()
    s.apply("token a 0")
    assert s.d["trade"] is None and s.d["stage"] == "buy_order"
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 2}
    p["res"][ROME] = {"tax": 2}
    s = load(s, p)
    s.apply("token a 5")
    assert s.d["trade"] is None


def test_trade_leader_not_taking_part_names_the_starter() -> None:
    """N2.4 / R5 (D8)."""
    s = new()
    p = pos(s)
    p["res"][CARTHAGE] = {"tax": 1}
    s = load(s, p)
    steps(s, "token c 2", "offer metal", "offer wine", "offer tax", "offer tax")
    assert s.current_player() == CARTHAGE
    assert list(s.legal_actions()) == ["starter 0", "starter 1"]


def test_trade_tokens_cycle() -> None:
    """N2.1: a used token waits until all three are used."""
    s = new()
    p = pos(s)
    p["tokens_used"] = [True, True, False]
    s = load(s, p)
    assert list(s.legal_actions()) == ["token c 2", "token c 3"]
    s.apply("token c 3")
    assert s.d["tokens_used"] == [False, False, False]


def test_offers_are_secret_until_revealed() -> None:
    """N2.3 / R4 / 7.2: no seat sees another's offer before all are committed."""
    s = new()
    steps(s, "token c 2", "offer metal", "offer wine")
    v = s.view(GREECE)
    assert v["trade"]["offers"][ROME] is None and v["offer_counts"][ROME] == 2
    assert s.view(ROME)["trade"]["offers"][ROME] == ["metal", "wine"]
    assert s.view(GREECE)["res_counts"][ROME] == 9 and s.view(GREECE)["res"][ROME] is None
    steps(s, "offer tax", "offer tax", "offer sheep", "offer perfume")
    assert s.view(GREECE)["trade"]["offers"][ROME] == ["metal", "wine"]
    rec = {"actions": s.history(), "num_players": 3, "options": {}}
    red = s.game.redact_record(rec, GREECE)
    # once every offer is committed the trade is revealed, and so are the offers in the log
    assert red["actions"][-6:] == [
        "offer metal",
        "offer wine",
        "offer tax",
        "offer tax",
        "offer sheep",
        "offer perfume",
    ]
    s2 = new()
    steps(s2, "token c 2", "offer metal")
    red2 = s2.game.redact_record({"actions": s2.history()}, GREECE)
    assert red2["actions"][-1] == "offer ?"
    assert s2.game.redact_record({"actions": s2.history()}, ROME)["actions"][-1] == "offer metal"


# ------------------------------------------------------------------ buy and place (N3)


def test_culture_leader_orders_the_buy_phase() -> None:
    """N3.1.1 / N0.10 (D12)."""
    s = new()
    s.apply("token a 0")
    assert s.current_player() == GREECE
    assert list(s.legal_actions()) == ["next 0", "next 1", "next 2"]
    s.apply("next 2")
    assert s.d["buy"]["active"] == CARTHAGE


def test_marker_needs_no_other_legions() -> None:
    """N3.4 (c)."""
    p = pos(new())
    p["legions"]["dacia"] = [1, 0, 0]
    s = buy_turn(load(new(), p), GREECE)
    refuse(s, "buy marker dacia", "N3.4 (c)")


def test_no_building_or_fortress_under_a_conqueror_but_legions_yes() -> None:
    """N3.5.2, N3.8, N3.6 / R20."""
    s = new()
    p = pos(s)
    p["legions"]["thracia"] = [1, 0, 0]
    p["conqueror"]["thracia"] = ROME
    p["legions"]["achea"] = [0, 1, 0]
    s = buy_turn(load(s, p), GREECE)
    conserved(s)
    refuse(s, "build temple thracia", "N3.5.2")
    assert "buy fortress thracia" not in s.legal_actions()
    assert "buy legion thracia" in s.legal_actions()


def test_one_fortress_per_province_and_limits() -> None:
    """N3.8, N0.9."""
    s = new()
    p = pos(s)
    p["fortresses"]["achea"] = GREECE
    p["legions"]["achea"] = [0, 8, 0]
    p["res"][GREECE] = {"tax": 9}
    s = buy_turn(load(s, p), GREECE)
    assert "buy fortress achea" not in s.legal_actions()
    assert not [a for a in s.legal_actions() if a.startswith("buy legion")]


def test_display_refills_after_the_buy_phase() -> None:
    """N3.10.2, N3.14."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy tile hercules", *["tax"] * 7)  # nothing left: "end" is forced
    assert s.is_chance_node() and None in s.d["display"]
    assert len(s.chance_outcomes()) == 12
    s.apply("reveal circe")
    assert "circe" in s.d["display"] and None not in s.d["display"]


# ------------------------------------------------------------------ military (N4)


def test_triremes_and_legions_move_once() -> None:
    """N4.4, N4.6."""
    s = mil_turn(new(), ROME)
    s.apply("row mare_tyrrhenum mare_sardum")
    assert not [a for a in s.legal_actions() if a.startswith("row mare_sardum")]
    s = mil_turn(new(), ROME, "mil_march")
    s.apply("march latium gallia")
    assert not [a for a in s.legal_actions() if a.startswith("march gallia")]
    assert "march latium italia" in s.legal_actions()


def test_hit_removal_is_chosen_by_the_owner() -> None:
    """N4.7.6 / R14 (D22): a legion on a building or a free one."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [0, 1, 0]
    p["legions"]["latium"] = [2, 0, 1]
    p["occupy"]["latium"] = {"market": CARTHAGE}
    s = mil_turn(load(s, p), ROME, "mil_fight")
    steps(s, "fight latium 2", "roll 1,1,3", "roll 2")  # Rome 2 legions + Caesar, Carthage 1
    s = mil_turn(load(new(), p), ROME, "mil_fight")
    p["legions"]["latium"] = [2, 0, 2]
    s = mil_turn(load(new(), p), ROME, "mil_fight")
    steps(s, "fight latium 2", "roll 1,1,3", "roll 1,1")
    assert s.current_player() == CARTHAGE
    assert list(s.legal_actions()) == ["lose free", "lose market"]
    s.apply("lose market")
    assert s.d["occupy"] == {} and s.d["legions"]["latium"] == [2, 0, 1]


def test_occupy_and_mark_lost_when_another_enters() -> None:
    """N4.11.3, N4.10.3."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    p["legions"]["achea"] = [0, 1, 0]
    s = mil_turn(load(s, p), ROME, "mil_march", done=[])
    steps(s, "march dacia thracia", "march dacia thracia", "done")
    assert s.d["conqueror"] == {"thracia": ROME}  # checkpoint (N4.10.2, R15)
    assert "occupy caravan:marble+city" in s.legal_actions()
    s.apply("occupy caravan:marble+city")
    assert s.tracks(ROME)["trade"] == 8 and s.tracks(ROME)["culture"] == 2
    p = pos(s)
    s = mil_turn(load(s, p), GREECE, "mil_march")
    s.apply("march achea macedonia")
    p = pos(s)
    p["legions"]["macedonia"] = [0, 0, 0]
    p["legions"]["thracia"] = [2, 1, 0]
    s = load(s, p)
    assert s.d["occupy"]["thracia"] == {"caravan:marble": ROME, "city": ROME}  # R17


def test_capitals_victory_and_tie() -> None:
    """N6.3, N6.5.2."""
    s = new(5)
    p = pos(s)
    for prov in ("latium", "achea", "africa"):
        p["markers"][prov] = ROME
    p["markers"]["aegyptus"] = ROME
    p["legions"] = {"latium": [2, 0, 0, 0, 0]}
    s = finish_military(mil_turn(load(s, p), ROME, "mil_row"))
    assert s.is_terminal() and s.returns()[ROME] == 1.0
    s = new(5)
    p = pos(s)
    p["markers"].update(latium=ROME, achea=ROME, africa=ROME, aegyptus=ROME)
    p["legions"] = {"latium": [2, 0, 0, 0, 0]}
    p["markers"].update(asia=BABYLON, sicilia=BABYLON, judea=BABYLON)
    p["buildings"].update(
        asia=["legendary_city:troia"],
        sicilia=["legendary_city:syracusae"],
        judea=["legendary_city:ierusalem"],
    )
    p["titles"]["military"] = GREECE
    s = finish_military(mil_turn(load(s, p), ROME, "mil_row"))
    assert s.current_player() == GREECE and list(s.legal_actions()) == ["winner 0", "winner 4"]
    s.apply("winner 4")
    assert s.returns()[BABYLON] == 1.0


def test_titles_victory_and_max_rounds() -> None:
    """N6.4 and the ``max_rounds`` option."""
    s = new()
    p = pos(s)
    p["tiles"][ROME] += ["hercules", "perseus", "circe"]
    p["titles"] = {"trade": ROME, "culture": ROME, "military": ROME}
    s = finish_military(mil_turn(load(s, p), ROME, "mil_row"))
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 0.0]
    s = new(max_rounds=1)
    s = finish_military(mil_turn(s, ROME, "mil_row"))
    s.apply("title trade 2")  # Rome and Carthage tie at 7 on Trade (N5.2)
    s.apply("title military 0")  # Rome and Greece tie at 3 on Military
    assert s.is_terminal() and s.returns() == [0.0, 0.0, 0.0]


def test_sampled_states_keep_legendary_goods_consistent() -> None:
    """7.4 / 7.7."""
    s = new()
    p = pos(s)
    p["res"][GREECE]["leg:gems"] = 1
    p["res"][ROME]["leg:gold"] = 1
    p["pool"]["gems"] = 0
    p["pool"]["gold"] = 0
    s = load(s, p)
    conserved(s)
    v = s.view(GREECE)
    assert v["pool"] is None and v["pool_count"] == 11
    for seed in range(5):
        t = s.game.sample_state(v, GREECE, random.Random(seed))
        assert t.view(GREECE) == v
        conserved(t)
    json.dumps(v)


def test_sampled_states_count_a_legendary_good_paid_in_a_payment_under_way() -> None:
    """7.4 / 7.6 / 7.7: a legendary good paid in a payment not yet finished is public; a
    sampled state deals it to nobody else."""
    s = _greece_paying("fortress achea", 3, ["wine", "leg:timber"], {"tax": 3}, pool={"timber": 0})
    conserved(s)
    for seat, t in _sampled_by_the_others(s, 20):
        assert t.view(seat) == s.view(seat)
        conserved(t)


def test_sampled_states_let_the_payer_finish_a_payment_under_way() -> None:
    """7.7 with N0.8 / N3: a payment under way was begun because its payer could finish it; in
    every sampled state the payer still can (here 4 more taxes are due, which 6 tokens dealt at
    random would seldom hold), and the worlds are not all alike."""
    s = _greece_paying("build temple thracia", 6, ["tax", "tax"], {"tax": 5, "grain": 1})
    assert list(s.legal_actions()) == ["pay tax"]
    screens = set()
    for seat, t in _sampled_by_the_others(s, 30):
        assert t.view(seat) == s.view(seat)
        conserved(t)
        assert list(t.legal_actions()) == ["pay tax"]
        assert t.d["res"][GREECE]["tax"] >= 4
        screens.add(tuple(sorted(t.d["res"][GREECE].items())))
    assert len(screens) > 10


def _greece_paying(item: str, cost: int, paid: list[str], screen: dict[str, int], **changes: Any) -> Any:
    """Greece's buy turn with a payment under way: ``paid`` of ``cost`` for ``item``, the counts
    of ``screen`` set behind its screen; ``changes`` merged into the position's dicts of those
    names."""
    s = buy_turn(new(), GREECE)
    p = pos(s)
    p["res"][GREECE].update(screen)
    p["buy"]["paying"] = {"item": item, "cost": cost, "kind": "normal", "paid": paid}
    for key, part in changes.items():
        p[key].update(part)
    return load(s, p)


def _sampled_by_the_others(s: Any, seeds: int) -> Any:
    """(seat, state sampled from its view) for Rome and Carthage, ``seeds`` of each."""
    for seat in (ROME, CARTHAGE):
        v = s.view(seat)
        for seed in range(seeds):
            yield seat, s.game.sample_state(v, seat, random.Random(seed))


def test_tracks_are_plain_integers_above_15() -> None:
    """2.6 / N0.7.5."""
    s = new()
    p = pos(s)
    p["tiles"][ROME] += ["hercules"] * 0 + ["hercules", "hamilcar", "perseus", "antigone", "circe"]
    p["buildings"]["gallia"].append("market")
    p["buildings"]["italia"].append("market")
    s = load(s, p)
    assert B.tracks(s.d, ROME)["trade"] == 7 + 2 + 2 + 1 + 1 + 2 + 1


def test_two_conquest_options_per_conquest() -> None:
    """N4.11.1 with ``conquest_options_per_conquest`` = 2: a second, different option or pass."""
    s = new(conquest_options_per_conquest=2)
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    p["legions"]["achea"] = [0, 1, 0]
    s = mil_turn(load(s, p), ROME, "mil_march", done=[])
    steps(s, "march dacia thracia", "march dacia thracia", "done")
    s.apply("pillage city")
    legal = s.legal_actions()
    assert "pass" in legal and "convert" in legal and not [a for a in legal if a.startswith("pillage")]
    # the conquest under way names the option it gave; its position (a server's snapshot) loads
    assert s.d["queue"][0] == ["conquest", ROME, "thracia", ["pillage"]]
    again = s.game.state_from_position(json.loads(json.dumps(s.to_position())))
    assert again.fingerprint() == s.fingerprint() and again.legal_actions() == legal
    s.apply("occupy caravan:marble")
    assert s.d["occupy"] == {"thracia": {"caravan:marble": ROME}}
    assert s.d["res"][ROME]["tax"] == 2


def test_hero_cost_by_round() -> None:
    """R25, option ``hero_cost_mode: by_round``."""
    from ziggurat.games.mare_nostrum import buy_place

    s = new(hero_cost_mode="by_round", hero_cost_by_round={"1": 7, "3": 9})
    assert buy_place.cost_tile(s.d, ROME) == 7
    s.d["round"] = 4
    assert buy_place.cost_tile(s.d, ROME) == 9


def test_dice_cap_and_fortress_removed_by_hits() -> None:
    """Options ``dice_per_side_cap`` and ``fortress_removed_by_hits`` (N4.7.7)."""
    s = new(dice_per_side_cap=2)
    p = pos(s)
    p["legions"]["numidia"] = [4, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_fight")
    s.apply("fight numidia 2")
    assert {len(a.split()[1].split(",")) for a, _ in s.chance_outcomes()} == {2}  # 4 legions + Caesar, capped
    s = new(fortress_removed_by_hits=True)
    p = pos(s)
    p["legions"]["numidia"] = [4, 0, 1]
    p["fortresses"]["numidia"] = CARTHAGE
    s = mil_turn(load(s, p), ROME, "mil_fight")
    steps(s, "fight numidia 2", "roll 3,3,3,3,3", "roll 1")
    assert "numidia" not in s.d["fortresses"]  # 3 hits - 1 cancelled: 1 legion, then the fortress


def test_perseus_owner_then_copier() -> None:
    """N0.12: Perseus's owner goes first, the copier second."""
    from ziggurat.games.mare_nostrum import buy_place

    s = new()
    s.d["tiles"][CARTHAGE].append("perseus")
    s.d["copy"][ROME] = "perseus"
    buy_place.buy_start(s.d)
    s._legal = None
    steps(s, "first yes", "first yes")
    assert s.d["buy"]["active"] == CARTHAGE
    s.apply("end")
    assert s.d["buy"]["active"] == ROME


def test_redacted_records_hide_other_seats_draws() -> None:
    """7.4: a legendary draw is seen only by the drawer (records redacted per seat)."""
    from ziggurat.engine.contract import sample_chance

    for seed in range(30):
        game = MareNostrumGame(3, {})
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal() and len(s.history()) < 3000:
            s.apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(list(s.legal_actions())))
        chosen = [e for e in s.events() if not e[2]]
        draws = [(i, e[3]) for i, e in enumerate(chosen) if e[1].startswith("draw ")]
        if not draws:
            continue
        i, drawer = draws[0]
        other = (drawer + 1) % 3
        rec = {"actions": s.history()}
        assert game.redact_record(rec, other)["actions"][i] == "draw ?"
        assert game.redact_record(rec, drawer)["actions"][i] == chosen[i][1]
        return
    raise AssertionError("no legendary draw in 30 seeded games: the test looks at nothing")


def test_conversion_needs_connection_and_mark_ends_when_the_conqueror_leaves() -> None:
    """N4.3 (3), N4.10.3-N4.10.4."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [2, 0, 0]
    p["legions"]["achea"] = [0, 1, 0]
    p["conqueror"]["macedonia"] = ROME
    p["on_marker"]["macedonia"] = ROME
    p["pending"]["macedonia"] = [ROME, 1]
    p["round"] = 2
    p["triremes"].pop("mare_tyrrhenum")
    s = load(s, p)
    conserved(s)
    # Macedonia touches no Roman province by land and Rome has no trireme: not connected
    assert "convert macedonia" not in mil_turn(s, ROME, "mil_conv").legal_actions()
    p["triremes"]["mare_hadriaticum"] = [1, 0, 0]
    t = mil_turn(load(s, p), ROME, "mil_conv")
    assert "convert macedonia" in t.legal_actions()
    t = mil_turn(load(s, p), ROME, "mil_march")
    steps(t, "march macedonia dacia", "march macedonia dacia @marker")
    assert t.d["conqueror"] == {} and t.d["pending"] == {}
    conserved(t)


def test_undo_barriers() -> None:
    """Savepoints (contract): chance, a change of player, the end of the game."""
    s = new()
    assert s.game.undo_barrier(s, "token c 2")  # Rome offers next
    s.apply("token c 2")
    assert not s.game.undo_barrier(s, "offer metal")  # Rome still offering
    s.apply("offer metal")
    assert s.game.undo_barrier(s, "offer wine")  # Greece's secret decision next


def test_each_roll_lists_every_die_face_N4_7_1() -> None:
    """N4.7.1, N0.13, 7.6: a side's roll is one chance node whose outcomes are its die faces
    (ascending), with exact probabilities; the sums are the battle's totals (N4.7.3)."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    s.apply("seabattle mare_sardum 2")
    outs = dict(s.chance_outcomes())
    assert len(outs) == 21 and abs(sum(outs.values()) - 1) < 1e-12
    assert outs["roll 1,2"] == pytest.approx(2 / 36) and outs["roll 6,6"] == pytest.approx(1 / 36)
    assert "roll 2,1" not in outs and "roll 3" not in outs
    s.apply("roll 2, 5")  # loose spacing is normalised
    assert s.d["battle"]["att_faces"] == [2, 5] and s.events()[-1][3] == ROME  # whose dice
    assert sorted(a for a, _ in s.chance_outcomes()) == [f"roll {f}" for f in range(1, 7)]
    s.apply("roll 6")
    last = s.d["last_battle"]
    assert (last["att_faces"], last["def_faces"], last["totals"], last["hits"]) == (
        [2, 5],
        [6],
        [7, 6],
        [1, 1],
    )
    assert s.d["triremes"]["mare_sardum"] == [1, 0, 0]


def test_a_big_side_rolls_in_handfuls() -> None:
    """With raised unit limits, 13 legions and Caesar roll 14 dice: 11 in one chance node
    (4,368 outcomes), then 3; the defender rolls after."""
    limits = {"legion": 20, "trireme": 5, "fortress": 8, "influence_marker": 12}
    s = new(unit_limits=limits)
    p = pos(s)
    p["legions"]["latium"] = [13, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_fight")
    s.apply("fight latium 2")
    outs = s.chance_outcomes()
    assert len(outs) == 4368 and {len(a.split()[1].split(",")) for a, _ in outs} == {11}
    s.apply("roll " + ",".join(["6"] * 11))
    assert {len(a.split()[1].split(",")) for a, _ in s.chance_outcomes()} == {3}
    s.apply("roll 1,1,1")
    assert s.d["battle"]["att_faces"] == [1, 1, 1] + [6] * 11 and len(s.chance_outcomes()) == 6
    s.apply("roll 1")
    assert s.d["last_battle"]["totals"] == [69, 1] and s.d["legions"]["latium"] == [13, 0, 0]
    conserved(s)


def test_positions_carry_a_header() -> None:
    """Positions: ``format`` and ``num_players`` first; ``state_from_position`` checks them."""
    s = new()
    p = pos(s)
    assert list(p)[:2] == ["format", "num_players"]
    assert p["format"] == "ziggurat-position/mare-nostrum/1" and p["num_players"] == 3
    assert load(s, p).fingerprint() == s.fingerprint()
    bare = {k: v for k, v in p.items() if k not in ("format", "num_players")}
    assert load(s, bare).to_position() == p  # positions written without the header still load
    with pytest.raises(ValueError, match="not a Mare Nostrum position"):
        load(s, {**p, "format": "ziggurat-position/mesopotamia/1"})
    with pytest.raises(ValueError, match="for 3 players, the game for 4"):
        MareNostrumGame(4, {}).state_from_position(p)
