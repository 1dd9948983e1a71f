"""Heroes, wonders and the Pyramids (2.8, 2.9): one test per ability.

Caesar, Hamilcar: W7; Cleopatra, Hannibal: W4; Queen of Sheba: W9; Hercules: W12
(test_nostrum_examples.py). The others are here.
"""

from __future__ import annotations

from typing import Any

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
    pos,
    refuse,
    steps,
)

from ziggurat.games.mare_nostrum import battle, buy_place, flow, production
from ziggurat.games.mare_nostrum import board as B


def with_tiles(state: Any, seat: int, *tiles: str, **changes: Any) -> Any:
    p = pos(state)
    p["tiles"][seat] = p["tiles"][seat] + list(tiles)
    p.update(changes)
    return load(state, p)


def dice_rolled(state: Any) -> int:
    """How many dice the pending roll has: every outcome lists one face per die."""
    counts = {len(a.split()[1].split(",")) for a, _ in state.chance_outcomes()}
    assert len(counts) == 1
    return counts.pop()


def test_caesar_only_when_attacking_and_pericles_only_when_defending() -> None:
    """N4.7.2: Rome attacks Achea (1 Greek legion): Rome 2 + 1 dice, Greece 1 + 2 dice."""
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [2, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march macedonia achea", "march macedonia achea", "done", "fight achea 1")
    assert dice_rolled(s) == 3
    s.apply("roll 1,1,1")
    assert dice_rolled(s) == 3


def test_hammurabi_free_marker_once_per_turn() -> None:
    """N3.12.1."""
    s = buy_turn(new(5), BABYLON)
    assert "free marker arabia" in s.legal_actions()
    s.apply("free marker arabia")
    assert s.d["markers"]["arabia"] == BABYLON
    assert not [a for a in s.legal_actions() if a.startswith("free marker")]
    assert "free marker armenia" not in s.legal_actions()


def test_antigone_chooses_her_offer_size() -> None:
    """N2.2.3 (D6): 0 means no part; other players offer exactly v."""
    s = with_tiles(new(), ROME, "antigone")
    s.apply("token c 3")
    assert s.current_player() == ROME
    assert list(s.legal_actions()) == [f"offer size {k}" for k in range(4)]
    s.apply("offer size 1")
    assert s.d["trade"]["parts"] == {"0": 1, "1": 3, "2": 3}
    s2 = with_tiles(new(), ROME, "antigone")
    steps(s2, "token c 3", "offer size 0")
    assert "0" not in s2.d["trade"]["parts"]


def test_castor_and_pollux_copy_ability_not_bonus() -> None:
    """N0.12 (D2): the copy lasts the round and gives no track bonus."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("castor_pollux")
    p["tiles"][GREECE].append("hercules")
    p.update(stage="castor", castor=[ROME], round=2)
    s = load(s, p)
    assert "copy hercules" in s.legal_actions() and "copy castor_pollux" not in s.legal_actions()
    level = s.tracks(ROME)
    s.apply("copy hannibal")
    assert B.has(s.d, ROME, "hannibal") and not B.owns(s.d, ROME, "hannibal")
    assert s.tracks(ROME) == level
    p = pos(s)
    p["stage"] = "castor"
    p["castor"] = [ROME]
    s = load(s, p)
    s.apply("copy hercules")
    assert s.tracks(ROME) == level


def test_circe_turns_a_legion_into_a_caravan() -> None:
    """N4.13 (D24)."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("circe")
    p["markers"]["dalmatia"] = ROME
    p["legions"]["dalmatia"] = [1, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_circe")
    assert "circe dalmatia caravan:timber" in s.legal_actions()
    s.apply("circe dalmatia caravan:timber")
    assert s.d["buildings"]["dalmatia"] == ["caravan:timber"]
    assert "dalmatia" not in s.d["legions"]


def test_gilgamesh_spartacus_lighthouse_cheap_units() -> None:
    """N3.3, N0.8.4: one named good or one tax, besides the normal cost."""
    s = buy_turn(with_tiles(new(), GREECE, "gilgamesh"), GREECE)
    assert "buy fortress achea" in s.legal_actions()
    buy(s, "buy fortress achea cheap", "marble")
    assert s.d["fortresses"] == {"achea": GREECE}
    s = buy_turn(with_tiles(new(), CARTHAGE, "spartacus"), CARTHAGE)
    buy(s, "buy legion africa cheap", "gladiators")
    assert s.d["legions"]["africa"][CARTHAGE] == 2
    s = buy_turn(with_tiles(new(), ROME, "lighthouse"), ROME)
    assert "pay metal" not in steps(s, "buy trireme mare_tyrrhenum cheap").legal_actions()
    s = buy_turn(new(), GREECE)
    refuse(s, "buy fortress achea cheap", "N3.3")


def test_nebuchadnezzar_adds_five_at_home() -> None:
    """N4.7.3."""
    s = with_tiles(new(), GREECE, "nebuchadnezzar")
    d = s.d
    d["battle"] = {
        "kind": "land",
        "where": "achea",
        "att": ROME,
        "def": GREECE,
        "att_faces": [4, 6],
        "def_faces": [4],
    }
    assert battle.battle_hits(d) == (1, 2)
    d["battle"]["where"] = "latium"
    assert battle.battle_hits(d) == (0, 2)


def test_penthesilea_lands_a_free_legion() -> None:
    """N3.12.2."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("penthesilea")
    p["triremes"]["mare_sardum"] = [1, 0, 1]
    s = buy_turn(load(s, p), ROME)
    legal = s.legal_actions()
    assert "free legion numidia" in legal and "free legion africa" not in legal
    s.apply("free legion numidia")
    assert s.d["legions"]["numidia"] == [1, 0, 0]
    assert not [a for a in s.legal_actions() if a.startswith("free legion")]


def test_perseus_takes_the_first_buy_turn() -> None:
    """N3.1.2 (D11)."""
    s = with_tiles(new(), CARTHAGE, "perseus")
    buy_place.buy_start(s.d)
    s._legal = None
    assert s.current_player() == CARTHAGE and list(s.legal_actions()) == ["first no", "first yes"]
    s.apply("first yes")
    assert s.d["buy"]["active"] == CARTHAGE


def test_ramses_adds_a_die_at_sea() -> None:
    """N4.7.2."""
    s = new()
    p = pos(s)
    p["tiles"][ROME].append("ramses_ii")
    p["triremes"]["mare_sardum"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    s.apply("seabattle mare_sardum 2")
    assert dice_rolled(s) == 2


def test_colossus_and_temple_of_artemis_in_production() -> None:
    """N1.9 (D4)."""
    s = with_tiles(new(), GREECE, "colossus", "temple_of_artemis")
    p = pos(s)
    p.update(round=2, res=[{}, {}, {}])
    s = load(s, p)
    production.production(s.d)
    flow.advance(s.d)
    s._legal = None
    assert s.current_player() == GREECE and "colossus gems" in s.legal_actions()
    s.apply("colossus gems")
    assert s.d["res"][GREECE] == {"oil": 1, "grain": 1, "wine": 1, "marble": 1, "tax": 6, "gems": 1}


def test_statue_of_zeus_bars_sea_landings() -> None:
    """N4.1.3 (D15)."""
    s = new()
    p = pos(s)
    p["tiles"][CARTHAGE].append("statue_of_zeus")
    p["triremes"]["mare_tyrrhenum"] = [1, 0, 0]
    p["triremes"]["mare_sardum"] = [1, 0, 1]
    p["legions"]["latium"] = [2, 0, 0]
    p.update(stage="mil_zeus", trade=None, buy=None)
    p["mil"] = {
        "done": [],
        "active": None,
        "arrived": {},
        "fought": [],
        "zeus_q": [CARTHAGE],
        "circe_used": [],
    }
    s = load(s, p)
    assert s.current_player() == CARTHAGE
    s.apply("zeus 0")
    assert s.d["zeus"] == [[CARTHAGE, ROME]]
    p = pos(s)
    s2 = mil_turn(load(s, p), ROME, "mil_march", zeus=[[CARTHAGE, ROME]])
    assert "sail latium numidia" not in s2.legal_actions()
    assert "sail latium sicilia" in s2.legal_actions()
    s3 = mil_turn(load(s, p), ROME, "mil_march", zeus=[])
    assert "sail latium numidia" in s3.legal_actions()


def test_hanging_gardens_keep_two_goods() -> None:
    """N3.13 (D14)."""
    s = buy_turn(with_tiles(new(), GREECE, "hanging_gardens"), GREECE)
    s.apply("end")
    assert "keep marble,oil" in s.legal_actions()
    s.apply("keep marble,oil")
    assert s.d["res"][GREECE] == {"marble": 1, "oil": 1, "tax": 2}


def test_pyramids_win_at_once() -> None:
    """N6.1, N3.11, N6.5.1."""
    s = new()
    p = pos(s)
    p["res"][GREECE] = {"tax": 12}
    s = buy_turn(load(s, p), GREECE, done=[])
    p = pos(s)
    p["buy"]["done"] = []
    s = load(s, p)
    buy(s, "buy pyramids", *["tax"] * 12)
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0]
