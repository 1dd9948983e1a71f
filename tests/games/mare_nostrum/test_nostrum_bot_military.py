"""The heuristic bot's military game (``bots.HeuristicBot`` with ``bots_military``): battle
odds by the combat rules (N4.7), legions and triremes bought to defend or to attack (N3.6,
N3.7), attacks that pay and none that cannot (N4.6, N4.8), sea defence (N4.4, N4.5), and
whole seeded games of 3, 4 and 5 players.

Positions start from the 3-player set-up (Rome: Latium, Italia, Gallia; Greece: Achea,
Macedonia, Thracia; Carthage: Africa, Numidia, Libya) and are edited per test."""

from __future__ import annotations

import random
from typing import Any

import pytest
from nostrum_helpers import GREECE, ROME, buy_turn, mil_turn, new, pos

from ziggurat.bots import make_bot, play_game
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.bots import HeuristicBot

GOODS3 = {"grain": 1, "wine": 1, "oil": 1}  # one purchase of 3 (N0.8.1)
GOODS6 = {"grain": 1, "wine": 1, "oil": 1, "metal": 1, "timber": 1, "sheep": 1}


def _quiet(**changes: Any) -> dict[str, Any]:
    """The set-up position (Rome with Caesar, Greece with Pericles, N4.7.2) with no fleet
    and no legion but Rome's, then ``changes``."""
    p = pos(new(3))
    p["triremes"] = {}
    p["legions"] = {"latium": [2, 0, 0]}
    for key, value in changes.items():
        p[key] = value
    return p


def _choose(state: Any, seat: int) -> tuple[HeuristicBot, str]:
    bot = HeuristicBot(state.game, seat)
    return bot, bot.choose(state.view(seat), state.legal_actions(), random.Random(0))


def _buy(p: dict[str, Any], seat: int = ROME) -> tuple[HeuristicBot, str]:
    base = new(3)
    state = buy_turn(base.game.state_from_position(p), seat)
    return _choose(state, seat)


def _mil(p: dict[str, Any], stage: str, seat: int = ROME) -> tuple[HeuristicBot, str, list[str]]:
    base = new(3)
    state = mil_turn(base.game.state_from_position(p), seat, stage=stage)
    bot, choice = _choose(state, seat)
    return bot, choice, list(state.legal_actions())


def test_battle_odds_follow_the_dice_and_hits_N4_7() -> None:
    """One die against one, one battle: each side hits on 5 or 6 (a hit per 5 points), so the
    attacker clears the defender and keeps his legion 1/3 x 2/3 of the time; a fortress (+5,
    one hit cancelled) makes every defender's die a hit and the attacker's hit void."""
    faces = (1, 2, 3, 4, 5, 6)
    win, lost, killed = M.odds(1, 1, 0, 0, 0, 0, 0, 0, faces, 5, 99, 1)
    assert win == pytest.approx(2 / 9)
    assert lost == pytest.approx(1 / 3) and killed == pytest.approx(1 / 3)
    win, lost, killed = M.odds(1, 1, 0, 0, 0, 5, 0, 1, faces, 5, 99, 1)
    assert (win, lost, killed) == (0.0, pytest.approx(1.0), 0.0)
    assert M.odds(2, 0, 0, 0, 0, 0, 0, 0, faces, 5, 99, 2)[0] == 1.0  # nobody to fight


def test_land_odds_read_the_fortress_and_heroes_from_the_position_N4_7_3() -> None:
    p = _quiet(legions={"latium": [3, 0, 0], "achea": [0, 2, 0]})
    d = dict(p, opts=new(3).game.opts)
    d["tiles"] = [[], [], []]
    plain = M.land_odds(d, ROME, 3, GREECE, 2, "achea")[0]
    d["fortresses"] = {"achea": GREECE}
    assert M.land_odds(d, ROME, 3, GREECE, 2, "achea")[0] < plain / 2
    d["fortresses"] = {}
    d["tiles"] = [[], ["pericles"], []]  # two dice more to the defender (N4.7.2)
    assert M.land_odds(d, ROME, 3, GREECE, 2, "achea")[0] < plain
    d["tiles"] = [["caesar"], [], []]  # a die more to the attacker
    assert M.land_odds(d, ROME, 3, GREECE, 2, "achea")[0] > plain


def test_buys_a_legion_where_an_enemy_army_threatens_a_province_N3_6() -> None:
    """Three Greek legions next door in Germania: Rome garrisons Gallia, its caravans there,
    rather than buy what it buys with no threat."""
    buildings = {"latium": ["capital"], "gallia": ["caravan:grain", "caravan:sheep"]}
    threatened = _quiet(res=[dict(GOODS3), {}, {}], buildings=buildings)
    threatened["legions"] = {"latium": [2, 0, 0], "germania": [0, 3, 0]}
    bot, choice = _buy(threatened)
    assert choice == "buy legion gallia"
    assert bot.plan is not None and bot.plan.legions["gallia"][0] >= 1
    _, calm = _buy(_quiet(res=[dict(GOODS3), {}, {}], buildings=buildings))
    assert calm != "buy legion gallia"


def test_buys_legions_to_take_a_rich_province_N3_6_N4_8() -> None:
    """Greece holds Dalmatia (two caravans and a market) with one legion (and its capital
    and Macedonia with three each); Rome's two in Gallia need help: the plan is an attack
    from Gallia, and Rome, with all its buildings built, buys a legion there."""
    p = _quiet(res=[dict(GOODS6), {}, {}])
    p["markers"] = dict(p["markers"], dalmatia=GREECE)
    p["buildings"] = dict(p["buildings"], dalmatia=["caravan:gladiators", "caravan:timber", "market"])
    p["legions"] = {"gallia": [2, 0, 0], "dalmatia": [0, 1, 0], "achea": [0, 3, 0], "macedonia": [0, 3, 0]}
    for prov in ("latium", "italia", "gallia"):  # nothing left to build
        p["buildings"][prov] = sorted(D.board(3).slots(prov))
    bot, choice = _buy(p)
    assert bot.plan is not None and bot.plan.attack is not None
    assert (bot.plan.attack.target, bot.plan.attack.staging) == ("dalmatia", "gallia")
    assert choice == "buy legion gallia"


def test_no_attack_plan_against_a_fortress_held_by_many_N4_7_5() -> None:
    """Five Greek legions and a fortress in Dalmatia: no attack Rome can buy pays."""
    p = _quiet(res=[dict(GOODS6), {}, {}])
    p["markers"] = dict(p["markers"], dalmatia=GREECE)
    p["buildings"] = dict(p["buildings"], dalmatia=["caravan:gladiators", "caravan:timber", "market"])
    p["fortresses"] = {"dalmatia": GREECE}
    p["legions"] = {"gallia": [2, 0, 0], "dalmatia": [0, 5, 0]}
    bot, _ = _buy(p)
    assert bot.plan is not None
    assert bot.plan.attack is None or bot.plan.attack.target != "dalmatia"


def test_buys_a_trireme_against_a_fleet_carrying_a_landing_N3_7_N4_5() -> None:
    """Four Greek legions in Achea and a Greek trireme in Mare Ionium can land in Italia,
    held by four Roman legions (enough against them on land): Rome buys triremes into Mare Ionium to sink that fleet."""
    p = _quiet(res=[dict(GOODS3), {}, {}])
    p["legions"] = {"italia": [4, 0, 0], "achea": [0, 4, 0]}
    p["triremes"] = {"mare_ionium": [0, 1, 0]}
    bot, choice = _buy(p)
    assert bot.plan is not None and "mare_ionium" in bot.plan.triremes
    assert choice == "buy trireme mare_ionium"
    p["triremes"] = {"mare_aegaeum": [0, 1, 0]}  # the fleet no longer touches Italia
    bot, choice = _buy(p)
    assert bot.plan is not None and bot.plan.triremes == {}
    assert not choice.startswith("buy trireme")


def test_marches_on_a_weak_rich_province_N4_6_1_N4_8() -> None:
    """Four Roman legions in Gallia, one Greek legion in a rich Dalmatia: Rome attacks."""
    p = _quiet()
    p["markers"] = dict(p["markers"], dalmatia=GREECE)
    p["buildings"] = dict(p["buildings"], dalmatia=["caravan:gladiators", "caravan:timber", "market"])
    p["legions"] = {"gallia": [4, 0, 0], "dalmatia": [0, 1, 0]}
    _, choice, legal = _mil(p, "mil_march")
    assert "done" in legal
    assert choice == "march gallia dalmatia"


def test_no_hopeless_attack_N4_7() -> None:
    """Two Roman legions against four Greek ones behind a fortress: Rome stays home, though
    the march is legal."""
    p = _quiet()
    p["markers"] = dict(p["markers"], dalmatia=GREECE)
    p["buildings"] = dict(p["buildings"], dalmatia=["caravan:gladiators", "caravan:timber", "market"])
    p["fortresses"] = {"dalmatia": GREECE}
    p["legions"] = {"gallia": [2, 0, 0], "dalmatia": [0, 4, 0]}
    _, choice, legal = _mil(p, "mil_march")
    assert "march gallia dalmatia" in legal
    assert choice == "done"


def test_takes_an_undefended_enemy_province_but_keeps_a_garrison_N4_6() -> None:
    """Dalmatia is Greek and empty: one Roman legion walks in; a lone legion in Gallia with
    three Greek legions next door in Germania stays."""
    p = _quiet()
    p["markers"] = dict(p["markers"], dalmatia=GREECE)
    p["legions"] = {"gallia": [2, 0, 0]}
    _, choice, _ = _mil(p, "mil_march")
    assert choice == "march gallia dalmatia"
    p["legions"] = {"gallia": [1, 0, 0], "germania": [0, 3, 0]}
    _, choice, legal = _mil(p, "mil_march")
    assert "march gallia dalmatia" in legal
    assert choice == "done"


def test_fights_a_sea_battle_against_a_landing_fleet_N4_5() -> None:
    """Three Roman triremes meet the Greek one in Mare Ionium that carries four legions to
    Italia: Rome fights; with one trireme against four it does not."""
    p = _quiet()
    p["legions"] = {"italia": [1, 0, 0], "achea": [0, 4, 0]}
    p["triremes"] = {"mare_ionium": [3, 1, 0]}
    _, choice, _ = _mil(p, "mil_sea")
    assert choice == "seabattle mare_ionium 1"
    p["triremes"] = {"mare_ionium": [1, 4, 0]}
    _, choice, legal = _mil(p, "mil_sea")
    assert "seabattle mare_ionium 1" in legal
    assert choice == "done"


def test_rows_to_meet_a_landing_fleet_N4_4() -> None:
    """Two Roman triremes in Mare Tyrrhenum, a Greek one in Mare Ionium carrying legions to
    Italia: one rows to Mare Ionium; with no Greek legion to carry, none does."""
    p = _quiet()
    p["legions"] = {"italia": [1, 0, 0], "achea": [0, 3, 0]}
    p["triremes"] = {"mare_tyrrhenum": [2, 0, 0], "mare_ionium": [0, 1, 0]}
    _, choice, _ = _mil(p, "mil_row")
    assert choice == "row mare_tyrrhenum mare_ionium"
    p["legions"] = {"italia": [1, 0, 0]}
    _, choice, _ = _mil(p, "mil_row")
    assert choice == "done"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_seeded_heuristic_games_fight_and_finish_sound(n: int) -> None:
    """Seeded games of heuristic bots end with a winner and every invariant kept, and the
    bots buy legions and fight battles in them."""
    game = MareNostrumGame(n, {})
    legions = battles = 0
    for seed in range(10, 14):
        res = play_game(game, [make_bot("heuristic", game, s) for s in range(n)], seed=seed)
        assert not res.truncated and res.state.is_terminal()
        assert game.invariants(res.state) == []
        texts = [e.text for e in res.state.events()]
        legions += sum(t.startswith("buy legion") for t in texts)
        battles += sum(t.startswith(("fight ", "seabattle ")) for t in texts)
    assert legions > 0 and battles > 0
