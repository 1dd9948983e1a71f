"""The Military phase, the Claim and the end of the game (N4.1, N4.7.4-N4.7.5, N4.9, N4.10,
N4.14, N5.4, N6.5.3): positions, moves, forced dice, the outcome."""

from __future__ import annotations

from typing import Any

import pytest
from nostrum_helpers import (
    CARTHAGE,
    GREECE,
    ROME,
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


def to_military(state: Any) -> Any:
    """Greece, the last to buy, ends its buy turn: the Military phase begins."""
    s = buy_turn(state, GREECE)
    s.apply("end")
    assert s.d["stage"].startswith("mil_") or s.d["queue"]
    return s


def test_the_military_leader_orders_the_turns_N4_1_1() -> None:
    """N4.1.1 / N0.10 (D16): Rome, the Military leader, names who acts, one turn each; the last
    player's turn follows without a choice."""
    s = to_military(new())
    assert s.current_player() == ROME
    assert list(s.legal_actions()) == ["next 0", "next 1", "next 2"]
    s.apply("next 2")
    assert s.d["mil"]["active"] == CARTHAGE
    while s.d["mil"]["active"] == CARTHAGE:
        s.apply("done")
    assert s.current_player() == ROME and list(s.legal_actions()) == ["next 0", "next 1"]
    refuse(s, "next 2", "N4.1.1")
    s.apply("next 1")
    mark = len(s.events())
    while s.d["mil"]["active"] == GREECE:
        s.apply("done")
    assert s.d["mil"]["active"] == ROME  # nobody else is left: no decision
    assert not [e for e in s.events()[mark:] if e[1].startswith("next")]


def test_the_checkpoint_runs_before_anyone_acts_N4_1_2() -> None:
    """N4.1.2 / N4.10.2: Penthesilea's free legion landed in unguarded Thracia in the Buy phase;
    at the start of the Military phase Rome is its conqueror and chooses a conquest option
    before the Military leader names anyone."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("penthesilea")
    p["triremes"]["mare_aegaeum"] = [1, 1, 0]
    s = buy_turn(load(s, p), ROME)
    s.d["buy"]["done"] = [GREECE, CARTHAGE]
    s.apply("free legion thracia")
    assert s.d["conqueror"] == {}
    s.apply("end")
    assert s.d["conqueror"] == {"thracia": ROME}
    assert s.current_player() == ROME and s.d["mil"]["done"] == [] and s.d["mil"]["active"] is None
    assert set(s.legal_actions()) >= {"convert", "pillage city", "occupy city"}


# ------------------------------------------------------------------ battles (N4.7)


@pytest.mark.parametrize(
    ("att", "dfn", "totals", "hits"),
    [
        ("1,3", "2,2", [4, 4], [0, 0]),
        ("2,3", "4,5", [5, 9], [1, 1]),
        ("4,6", "5,5", [10, 10], [2, 2]),
        ("1,1", "6,6", [2, 12], [2, 0]),
    ],
)
def test_hits_are_the_total_divided_by_five_rounded_down_N4_7_4(
    att: str, dfn: str, totals: list[int], hits: list[int]
) -> None:
    """N4.7.4 / R1: a total under 5 scores nothing, 5-9 one hit, 10-14 two."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 0, 2]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    steps(s, "seabattle mare_sardum 2", f"roll {att}", f"roll {dfn}")
    last = s.d["last_battle"]
    assert last["totals"] == totals
    assert last["hits"] == hits  # hits suffered by (attacker, defender)
    assert s.d["triremes"].get("mare_sardum", [0, 0, 0]) == [2 - hits[0], 0, 2 - hits[1]]


def test_a_fortress_ignores_one_hit_for_its_owner_N4_7_5() -> None:
    """N4.7.5: Rome scores 10 (2 hits) against Carthage's fortress in Numidia: Carthage loses
    one legion only; Carthage's 2 + 5 = 7 scores one hit, which Rome suffers in full."""
    s = new()
    p = pos(s)
    p["legions"]["numidia"] = [2, 0, 2]
    p["fortresses"]["numidia"] = CARTHAGE
    s = mil_turn(load(s, p), ROME, "mil_fight")
    steps(s, "fight numidia 2", "roll 3,3,4", "roll 1,1")
    assert s.d["last_battle"]["totals"] == [10, 7]
    assert s.d["last_battle"]["hits"] == [1, 1]
    assert s.d["legions"]["numidia"] == [1, 0, 1] and s.d["fortresses"] == {"numidia": CARTHAGE}


# ------------------------------------------------------------------ results (N4.9)


def test_after_a_sea_battle_nothing_more_happens_N4_9_1() -> None:
    """N4.9.1: Carthage's trireme sinks; Rome's two stay in Mare Sardum, no area changes hands,
    and Rome goes on with its turn (no second battle there)."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    before = {k: pos(s)[k] for k in ("markers", "conqueror", "legions")}
    steps(s, "seabattle mare_sardum 2", "roll 5,5", "roll 1")
    assert s.d["triremes"]["mare_sardum"] == [2, 0, 0]
    assert {k: pos(s)[k] for k in before} == before
    # no other sea battle is open to Rome: its turn goes on to the legion moves
    assert s.d["stage"] == "mil_march" and s.d["mil"]["fought"] == ["mare_sardum"]


def land(**legions: list[int]) -> Any:
    s = new()
    p = pos(s)
    p["legions"].update(legions)
    return mil_turn(load(s, p), ROME, "mil_fight")


def test_land_results_N4_9_2() -> None:
    """N4.9.2: both sides left: at war; only Rome left in Carthage's Numidia: Rome is its
    conqueror at the checkpoint; in Rome's own Latium or in neutral Dacia: nothing more;
    nobody left: nothing more."""
    s = land(numidia=[1, 0, 1])
    steps(s, "fight numidia 2", "roll 1,1", "roll 1")
    assert B.at_war(s.d, "numidia") and s.d["conqueror"] == {}
    s = land(numidia=[2, 0, 1])
    steps(s, "fight numidia 2", "roll 2,2,2", "roll 1")
    assert s.d["conqueror"] == {"numidia": ROME} and s.current_player() == ROME  # its conquest
    s = land(latium=[3, 0, 1])
    steps(s, "fight latium 2", "roll 2,2,2,2", "roll 1")
    assert s.d["legions"]["latium"] == [3, 0, 0] and s.d["conqueror"] == {} and s.d["queue"] == []
    s = land(dacia=[2, 0, 1])
    steps(s, "fight dacia 2", "roll 2,2,2", "roll 1")
    assert s.d["conqueror"] == {} and "dacia" not in s.d["markers"]
    s = land(numidia=[1, 0, 1])
    steps(s, "fight numidia 2", "roll 2,3", "roll 5")
    assert "numidia" not in s.d["legions"] and s.d["conqueror"] == {}
    assert s.d["markers"]["numidia"] == CARTHAGE


def test_no_conqueror_while_a_third_player_stays_N4_9_2() -> None:
    """N4.9.2: Rome beats Carthage in Numidia, then must fight Greece there too; a drawn battle
    leaves Rome and Greece at war and nobody is conqueror."""
    s = land(numidia=[2, 1, 1])
    # the second battle, against Greece, is compulsory: it follows without a choice
    steps(s, "fight numidia 2", "roll 2,2,2", "roll 1", "fight numidia 1", "roll 1,1,1", "roll 1,1,1")
    assert s.d["legions"]["numidia"] == [2, 1, 0]
    assert B.at_war(s.d, "numidia") and s.d["conqueror"] == {}
    conserved(s)


# ------------------------------------------------------------------ the conqueror (N4.10)


def test_the_mark_ends_when_the_province_becomes_his_N4_10_1() -> None:
    """N4.10.1 / N4.12: Rome completes the conversion of Macedonia: it is Rome's now, so Rome
    is no longer its conqueror and no later checkpoint makes it so."""
    s = new()
    p = pos(s)
    p.update(round=2)
    p["legions"]["macedonia"] = [2, 0, 0]
    p["conqueror"]["macedonia"] = ROME
    p["on_marker"]["macedonia"] = ROME
    p["pending"]["macedonia"] = [ROME, 1]
    p["markers"]["dacia"] = ROME
    s = mil_turn(load(s, p), ROME, "mil_conv")
    s.apply("convert macedonia")
    assert s.d["markers"]["macedonia"] == ROME and s.d["conqueror"] == {}
    finish_military(s)
    assert s.d["conqueror"] == {}
    conserved(s)


def test_neutral_and_own_provinces_are_never_conquered_N4_10_5() -> None:
    """N4.10.5 / R15 / R33: Rome's legions alone in neutral Dacia and in its own Italia make no
    conquest; alone in unguarded Macedonia, Rome is its conqueror without a battle."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [1, 0, 0]
    p["legions"]["germania"] = [1, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march latium italia", "march germania macedonia", "done")
    assert s.d["conqueror"] == {"macedonia": ROME}
    assert "last_battle" not in s.d
    assert s.current_player() == ROME and "convert" in s.legal_actions()


# ------------------------------------------------------------------ ends of phases (N4.14, N5.4)


def test_capitals_win_at_once_N6_3() -> None:
    """N6.3 / N0.1: Rome takes Aegyptus's capital by occupation: the game ends that moment,
    before Rome's turn goes on and before Greece, Carthage or Egypt act again."""
    s = new(5)
    p = pos(s)
    p["markers"].update(latium=ROME, achea=ROME, africa=ROME)
    p["legions"] = {"latium": [2, 0, 0, 0, 0], "aegyptus": [1, 0, 0, 0, 0]}
    p["conqueror"] = {"aegyptus": ROME}
    queue = [["conquest", ROME, "aegyptus"]]
    s = mil_turn(load(s, p), ROME, "mil_fight", done=[4], queue=queue)
    assert B.victory_cities(s.d, ROME) == 3 and "occupy capital" in s.legal_actions()
    s.apply("occupy capital")
    assert B.victory_cities(s.d, ROME) == 4
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_capitals_at_the_end_of_the_phase_only_with_the_option_N4_14() -> None:
    """N4.14 / N6.3 with ``capitals_victory_check: "end_of_military"``: Rome controls four
    capitals during its turn, but the game goes on until every player has had his Military
    turn."""
    s = new(5, capitals_victory_check="end_of_military")
    p = pos(s)
    p["markers"].update(latium=ROME, achea=ROME, africa=ROME, aegyptus=ROME)
    p["legions"] = {"latium": [2, 0, 0, 0, 0]}
    s = mil_turn(load(s, p), ROME, "mil_row", done=[2, 3, 4])
    assert B.victory_cities(s.d, ROME) == 4
    while s.d["mil"]["active"] == ROME:
        s.apply("done")
    assert not s.is_terminal() and s.d["mil"]["active"] == GREECE
    finish_military(s)
    assert s.is_terminal() and s.returns() == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_three_titles_are_checked_at_the_end_of_the_claim_N5_4() -> None:
    """N5.4 / N6.4: holding all three titles during the round wins nothing; at the Claim Rome
    keeps Culture and Military but Carthage takes Trade (9 against 7): no winner."""
    s = new()
    p = pos(s)
    p["titles"] = {"trade": ROME, "culture": ROME, "military": ROME}
    p["tiles"][ROME] += ["perseus", "hercules"]  # Trade 8, Culture 5, Military 6 without Gallia
    del p["buildings"]["gallia"]
    p["buildings"]["numidia"] += ["market"]  # Carthage's Trade 9
    p["buildings"]["libya"] += ["market"]
    s = mil_turn(load(s, p), ROME, "mil_row", done=[GREECE, CARTHAGE])
    assert not s.is_terminal()
    finish_military(s)
    assert not s.is_terminal()
    assert s.d["titles"] == {"trade": CARTHAGE, "culture": ROME, "military": ROME}
    assert s.d["round"] == 2


def test_the_game_ends_with_one_winner_N6_5_3() -> None:
    """N6.5.3: after a win nothing more can be played; the winner's return is 1, the others 0."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 12}
    s = buy_turn(load(s, p), GREECE)
    s.apply("buy pyramids")
    for _ in range(11):  # each tax is asked but the last one, alone behind the screen (7.8)
        s.apply("pay tax")
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0]
    assert list(s.legal_actions()) == [] and s.chance_outcomes() == []
    with pytest.raises(ziggurat.GameOver, match=r"N6\.5\.3"):
        s.apply("end")
