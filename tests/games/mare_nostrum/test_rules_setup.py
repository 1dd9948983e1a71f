"""Set-up (spec 4.3, S1-S9) checked on the initial state, and the round's frame: the phases in
order (N0.1), the areas in play (N0.2), holdings behind the screen (N0.3) and Production
(N1.1, N1.10)."""

from __future__ import annotations

from typing import Any

from nostrum_helpers import (
    BABYLON,
    CARTHAGE,
    EGYPT,
    GREECE,
    ROME,
    buy_turn,
    conserved,
    load,
    mil_turn,
    new,
    pos,
    refuse,
)

import ziggurat
from ziggurat.games.mare_nostrum import MareNostrumGame

GOODS = [
    "grain",
    "sheep",
    "oil",
    "wine",
    "metal",
    "timber",
    "marble",
    "gold",
    "gems",
    "perfume",
    "papyrus",
    "pottery",
    "gladiators",
]

# Spec 4.1, written out here so the data files are checked against the spec's own table.
START: dict[str, dict[str, Any]] = {
    "rome": {
        "provinces": ["gallia", "italia", "latium"],
        "buildings": {
            "latium": ["capital", "caravan:metal", "caravan:wine", "market"],
            "gallia": ["caravan:grain", "caravan:sheep"],
            "italia": ["caravan:metal", "caravan:oil"],
        },
        "legions": {"latium": 2},
        "triremes": {"mare_tyrrhenum": 1},
        "res": {"metal": 3, "wine": 2, "grain": 1, "sheep": 1, "oil": 1, "tax": 1},
        "tracks": (7, 1, 3),
        "hero": "caesar",
    },
    "greece": {
        "provinces": ["achea", "macedonia", "thracia"],
        "buildings": {
            "achea": ["capital", "caravan:oil", "city", "temple"],
            "macedonia": ["caravan:grain", "caravan:wine"],
            "thracia": ["caravan:marble", "city"],
        },
        "legions": {"achea": 1},
        "triremes": {"mare_aegaeum": 1, "mare_ionium": 1},
        "res": {"oil": 1, "grain": 1, "wine": 1, "marble": 1, "tax": 5},
        "tracks": (4, 4, 3),
        "hero": "pericles",
    },
    "carthage": {
        "provinces": ["africa", "libya", "numidia"],
        "buildings": {
            "africa": ["capital", "caravan:perfume", "caravan:sheep", "market"],
            "numidia": ["caravan:gladiators", "caravan:gold"],
            "libya": ["caravan:oil", "caravan:sheep"],
        },
        "legions": {"africa": 1},
        "triremes": {"mare_sardum": 1},
        "res": {"sheep": 3, "perfume": 2, "gold": 1, "gladiators": 1, "oil": 1, "tax": 1},
        "tracks": (7, 1, 2),
        "hero": "hannibal",
    },
    "egypt": {
        "provinces": ["aegyptus", "aethiopia", "cyrenaica"],
        "buildings": {
            "aegyptus": ["capital", "caravan:papyrus", "city", "temple"],
            "cyrenaica": ["caravan:papyrus", "city"],
            "aethiopia": ["caravan:gold", "caravan:grain"],
        },
        "legions": {"aegyptus": 1},
        "triremes": {"mare_aegyptum": 1},
        "res": {"papyrus": 2, "grain": 1, "gold": 1, "tax": 5},
        "tracks": (4, 4, 2),
        "hero": "cleopatra",
    },
    "babylon": {
        "provinces": ["babylonia", "mesopotamia", "syria"],
        "buildings": {
            "babylonia": ["capital", "caravan:grain", "temple"],
            "syria": ["caravan:perfume", "city"],
            "mesopotamia": ["caravan:grain", "caravan:sheep", "market"],
        },
        "legions": {"babylonia": 2},
        "triremes": {},
        "res": {"grain": 3, "sheep": 2, "perfume": 1, "tax": 3},
        "tracks": (5, 3, 2),
        "hero": "hammurabi",
    },
}


def test_player_count_removes_covered_areas_and_unused_heroes_S1() -> None:
    """S1 / 3.3: at 3 players the eight covered provinces and the starting heroes of Egypt and
    Babylon are out of the game: no one owns them and they never reach the display."""
    s = new(3)
    board = s.game.board
    for prov in (
        "aegyptus",
        "cyrenaica",
        "aethiopia",
        "syria",
        "mesopotamia",
        "babylonia",
        "armenia",
        "arabia",
    ):
        assert prov not in board.provinces
    assert len(board.provinces) == 21 and len(board.seas) == 9
    everywhere = [t for tiles in s.d["tiles"] for t in tiles] + s.d["display"] + s.d["facedown"]
    assert "hammurabi" not in everywhere and "cleopatra" not in everywhere
    assert sorted(s.d["empires"]) == ["carthage", "greece", "rome"]
    four = new(4)
    assert "hammurabi" not in [t for tiles in four.d["tiles"] for t in tiles] + four.d["facedown"]
    assert four.d["tiles"][EGYPT] == ["cleopatra"]
    assert ziggurat.load("mare-nostrum", players=4).num_players == 4


def test_each_empire_starts_with_its_pieces_S3() -> None:
    """S3 / 4.1: markers, buildings, legions and triremes as the spec's table; no fortress."""
    s = new(5)
    d = s.d
    for seat, emp in enumerate(d["empires"]):
        want = START[emp]
        assert sorted(p for p, x in d["markers"].items() if x == seat) == want["provinces"]
        for prov, slots in want["buildings"].items():
            assert sorted(d["buildings"][prov]) == sorted(slots), (emp, prov)
        assert {p: row[seat] for p, row in d["legions"].items() if row[seat]} == want["legions"]
        assert {a: row[seat] for a, row in d["triremes"].items() if row[seat]} == want["triremes"]
    assert d["fortresses"] == {}
    assert set(d["buildings"]) == {p for e in START.values() for p in e["buildings"]}  # no other building


def test_nine_resources_behind_the_screen_and_the_starting_hero_S4() -> None:
    """S4: nine starting resources, seen in full by their owner only (7.1), and the hero."""
    s = new(5)
    for seat, emp in enumerate(s.d["empires"]):
        assert s.d["res"][seat] == START[emp]["res"]
        assert sum(s.d["res"][seat].values()) == 9
        assert s.d["tiles"][seat] == [START[emp]["hero"]]
    v = s.view(GREECE)
    assert v["res"][GREECE] == START["greece"]["res"]
    assert v["res"][ROME] is None and v["res_counts"] == [9] * 5
    assert v["tiles"][ROME] == ["caesar"]  # the hero is face up


def test_levels_follow_from_the_board_and_starting_titles_S5() -> None:
    """S5 / N0.7 / 4.2: levels are computed, and the starting titles are Carthage / Egypt / Rome."""
    s = new(5)
    for seat, emp in enumerate(s.d["empires"]):
        t = s.tracks(seat)
        assert (t["trade"], t["culture"], t["military"]) == START[emp]["tracks"], emp
    assert s.d["titles"] == {"trade": CARTHAGE, "culture": EGYPT, "military": ROME}
    assert BABYLON not in s.d["titles"].values() and GREECE not in s.d["titles"].values()


def test_the_trade_leader_holds_three_available_tokens_S6() -> None:
    """S6: the Trade leader (Carthage) is to choose among all three tokens, both faces each."""
    s = new(3)
    assert s.current_player() == CARTHAGE
    assert s.d["tokens_used"] == [False, False, False]
    assert list(s.legal_actions()) == [
        "token a 0",
        "token a 5",
        "token b 1",
        "token b 4",
        "token c 2",
        "token c 3",
    ]


def test_thirteen_legendary_goods_face_down_in_the_pool_S8() -> None:
    """S8: one legendary good per good type in the pool; a view shows only how many (7.4)."""
    s = new(3)
    assert s.d["pool"] == {g: 1 for g in GOODS}
    v = s.view(ROME)
    assert v["pool"] is None and v["pool_count"] == 13
    assert all(not any(t.startswith("leg:") for t in r) for r in s.d["res"])


def test_round_one_starts_with_trade_S9() -> None:
    """S9 / N1.1: round 1, the Trade leader's decision first; nothing was produced."""
    s = new(3)
    assert s.d["round"] == 1 and s.d["stage"] == "trade_token"
    assert s.d["res"] == [START[e]["res"] for e in ("rome", "greece", "carthage")]
    assert not [e for e in s.events() if e[1].startswith("draw ")]


# ------------------------------------------------------------------ the round (N0.1, N1)


def end_round(state: Any) -> Any:
    """Play on with ``done`` / the first title choice until the next round's Trade starts."""
    while state.d["stage"] != "trade_token" and not state.is_terminal():
        legal = list(state.legal_actions())
        state.apply("done" if "done" in legal else legal[0])
    return state


def test_phases_follow_in_order_N0_1() -> None:
    """N0.1: Trade, Buy & place, Military, Claim, then round 2 opens with Production."""
    s = new(3)
    seen: list[str] = []
    s.apply("token a 0")  # v = 0: no trade (N2.2.4)
    for _ in range(200):
        stage = s.d["stage"].split("_")[0]
        if not seen or seen[-1] != stage:
            seen.append(stage)
        if s.d["round"] == 2:
            break
        legal = list(s.legal_actions())
        s.apply(next((a for a in ("end", "done") if a in legal), legal[0]))
    assert seen == ["buy", "mil", "claim", "trade"]
    # round 2's Production ran before its Trade: every empire got its nine resources back
    produced = [sum(r.values()) for r in s.d["res"]]
    assert all(c >= 9 for c in produced)


def test_production_is_simultaneous_from_round_two_N1_1() -> None:
    """N1.1: every producer gets his yield at once, before anyone decides; skipped in round 1."""
    s = new(3)
    p = pos(s)
    p["res"] = [{}, {}, {}]
    s = mil_turn(load(s, p), CARTHAGE, done=[ROME, GREECE])
    end_round(s)
    assert s.d["round"] == 2
    assert s.d["res"] == [START[e]["res"] for e in ("rome", "greece", "carthage")]
    conserved(s)


def test_legendary_draws_one_at_a_time_in_seat_order_N1_10() -> None:
    """N1.10: Rome (seat 0) draws for Syracusae, then Carthage (seat 2) for Troia; each draw is
    a chance node over the tokens left in the pool."""
    s = new(3)
    p = pos(s)
    p["markers"].update(sicilia=ROME, asia=CARTHAGE)
    p["buildings"].update(sicilia=["legendary_city:syracusae"], asia=["legendary_city:troia"])
    s = mil_turn(load(s, p), CARTHAGE, done=[ROME, GREECE])
    while not s.is_chance_node():
        legal = list(s.legal_actions())
        s.apply("done" if "done" in legal else legal[0])
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 13 and all(abs(q - 1 / 13) < 1e-12 for _, q in outcomes)
    s.apply("draw gold")
    assert s.events()[-1][3] == ROME and s.d["res"][ROME].get("leg:gold") == 1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and "draw gold" not in [a for a, _ in outcomes]
    s.apply("draw gems")
    assert s.events()[-1][3] == CARTHAGE and s.d["res"][CARTHAGE].get("leg:gems") == 1


# ------------------------------------------------------------------ general rules


def test_only_areas_in_play_exist_N0_2() -> None:
    """N0.2 / R34: at 4 players Armenia and Syria are covered: no marker, no legion move."""
    s = new(4)
    p = pos(s)
    p["markers"]["cappadocia"] = GREECE
    s = buy_turn(load(s, p), GREECE)
    refuse(s, "buy marker armenia", "N3.4 (a)", "R34")
    p["legions"]["cilicia"] = [1, 0, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    assert not [a for a in s.legal_actions() if "syria" in a or "armenia" in a]
    refuse(s, "march cilicia syria", "R34")
    assert MareNostrumGame(5, {}).board.provinces["cilicia"]["land"].count("syria") == 1
    assert "syria" not in s.game.board.provinces["cilicia"]["land"]


def test_holdings_are_goods_taxes_and_legendary_goods_N0_3() -> None:
    """N0.3: a legendary good is one more resource token behind the screen; other seats see
    only the total."""
    s = new(3)
    p = pos(s)
    p["res"][ROME]["leg:gems"] = 1
    p["pool"]["gems"] = 0
    s = load(s, p)
    conserved(s)
    assert s.view(ROME)["res"][ROME]["leg:gems"] == 1
    assert s.view(GREECE)["res"][ROME] is None and s.view(GREECE)["res_counts"][ROME] == 10
    s.apply("token b 4")
    assert "offer leg:gems" in s.legal_actions()  # Rome offers first: any of his tokens
