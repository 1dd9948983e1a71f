"""Mare Nostrum as its rules text says: the tile cost by round (R25), the narrow hero payments
(N0.8.3, R28), victory the moment a condition holds (N6.3, N0.1), the track levels every view
carries and their "15+" (N0.7, W11), and refusals that cite rules the spec defines."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from nostrum_helpers import (
    CARTHAGE,
    EGYPT,
    GREECE,
    ROME,
    buy,
    buy_turn,
    load,
    mil_turn,
    new,
    pos,
    refuse,
)
from rich.console import Console

import ziggurat
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum import render_svg as RS
from ziggurat.games.mare_nostrum import render_text as RT
from ziggurat.games.mare_nostrum.buy_place import cost_tile
from ziggurat.rules import definition_lines

ROOT = Path(__file__).resolve().parents[3]
SPEC = (ROOT / "docs" / "rules" / "mare-nostrum.md").read_text(encoding="utf-8")


def _spec_ids() -> set[str]:
    """Every rule id the spec defines (``ziggurat.rules``' parser, as tools/rule_coverage.py
    reads them) and its numbered sections (2.9, 7.8 ...)."""
    sections = set(re.findall(r"^#{2,4}\s+(\d+(?:\.\d+)*)\b", SPEC, re.M))
    return {d.rule for d in definition_lines(SPEC)} | sections


IDS = _spec_ids()
MILITARY_TURN = ("mil_conv", "mil_row", "mil_sea", "mil_march", "mil_fight", "mil_circe")
CITED = re.compile(r"\((?:[^()]|\([^()]*\))*\)")  # a parenthesis, one level of nesting inside
RULE = re.compile(r"(?<![\w.])(?:[A-Z]\d+(?:\.\d+)*|\d+\.\d+)(?![\w])")


def cited_rules(text: str) -> list[str]:
    """The rule ids a refusal cites in its parentheses."""
    return [r for group in CITED.findall(text) for r in RULE.findall(group)]


# ------------------------------------------------------------------ R25: the cost by round


def test_tile_cost_follows_the_round_R25() -> None:
    """R25 / 2.8: 7, 7, 8, 8, 9, 9, then 10; the same for every buyer, whatever he owns."""
    s = new()
    for rnd, cost in ((1, 7), (2, 7), (3, 8), (4, 8), (5, 9), (6, 9), (7, 10), (9, 10)):
        p = pos(s)
        p["round"] = rnd
        p["tiles"][GREECE] = ["pericles", "hercules", "circe"]
        state = load(s, p)
        assert [cost_tile(state.d, seat) for seat in (ROME, GREECE)] == [cost, cost]
    p = pos(s)
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    buy(s, "buy tile hercules", *["tax"] * 7)
    assert "hercules" in s.d["tiles"][GREECE]
    p = pos(s)
    p["round"] = 3
    p["res"][GREECE] = {"tax": 7}
    s = buy_turn(load(s, p), GREECE)
    refuse(s, "buy tile antigone", "N0.8.1")


# ------------------------------------------------------------------ N0.8.3, R28: hero payments


def test_payment_readings_N0_8_3() -> None:
    """N0.8.3 / R28: what each reading lets a payment of 6 hold; both abilities together
    (Castor & Pollux) add up."""
    pair = P.Allowance("one_pair", None)
    one = P.Allowance(None, "one_token")
    both = P.Allowance("one_pair", "one_token")
    broad = P.Allowance("any", "any_mix")
    goods6 = ["sheep", "perfume", "gold", "oil", "wine", "grain"]
    assert P.complete_ok(goods6, "normal", P.PLAIN)
    twice = ["sheep", "sheep", "perfume", "gold", "oil", "wine"]
    thrice = ["sheep", "sheep", "sheep", "perfume", "gold", "oil"]
    two_pairs = ["sheep", "sheep", "perfume", "perfume", "gold", "oil"]
    assert not P.complete_ok(twice, "normal", P.PLAIN)
    assert P.complete_ok(twice, "normal", pair)
    assert not P.complete_ok(thrice, "normal", pair) and not P.complete_ok(two_pairs, "normal", pair)
    assert P.complete_ok(thrice, "normal", P.Allowance("any", None))
    assert not P.complete_ok(thrice, "normal", P.Allowance("any", None, 2))
    tax_in_goods = ["tax", "sheep", "perfume", "gold", "oil", "wine"]
    good_in_taxes = ["tax"] * 5 + ["sheep"]
    two_two = ["tax", "tax", "sheep", "perfume", "gold", "oil"]
    assert not P.complete_ok(tax_in_goods, "normal", P.PLAIN)
    assert P.complete_ok(tax_in_goods, "normal", one) and P.complete_ok(good_in_taxes, "normal", one)
    assert not P.complete_ok(two_two, "normal", one) and P.complete_ok(two_two, "normal", broad)
    assert P.complete_ok(["tax", "sheep", "sheep", "gold", "oil", "wine"], "normal", both)
    assert not P.complete_ok(["tax", "sheep", "sheep", "gold", "oil", "wine"], "normal", pair)
    assert P.complete_ok(["tax", "tax", "sheep", "sheep", "sheep", "oil"], "normal", broad)
    # can_finish agrees with complete_ok: a token is legal while a payment can still complete
    left = {"sheep": 2, "perfume": 1, "tax": 3}
    assert P.can_finish(["sheep"], left, 2, "normal", pair)  # sheep + perfume + one more
    assert not P.can_finish(["sheep", "sheep"], {"sheep": 1, "tax": 3}, 1, "normal", pair)
    assert P.can_finish(["sheep", "sheep"], {"sheep": 1, "tax": 3}, 1, "normal", both)
    assert P.can_finish(["tax", "sheep"], {"perfume": 1, "tax": 3}, 2, "normal", one)  # + 2 taxes
    assert not P.can_finish(["tax", "sheep"], {"perfume": 1, "tax": 1}, 2, "normal", one)
    assert P.can_finish(["tax", "sheep"], {"perfume": 1, "tax": 1}, 2, "normal", broad)


def test_refusals_name_the_reading_in_force_N0_8_3() -> None:
    """N0.8.3 / R28: Egypt's second good in a payment of taxes is refused naming Cleopatra's
    reading; the option ``cleopatra_reading: "any_mix"`` lets it in."""
    s = buy_turn(new(4), EGYPT)
    s.apply("build market aegyptus")
    for tok in ("tax", "tax", "tax", "papyrus"):
        s.apply(f"pay {tok}")
    why = refuse(s, "pay grain", "N0.8.3", "R28")
    assert "one_token" in why and "cleopatra_reading" in why


# ------------------------------------------------------------------ N6.3: victory at once


def test_a_fourth_capital_built_wins_in_the_buy_turn_N6_3() -> None:
    """N6.3 / N6.5.1: Rome, controlling three capitals, builds the legendary city of Sicilia:
    the game ends in its buy turn and Carthage, still to buy, never acts. With
    ``capitals_victory_check: "end_of_military"`` the game goes on."""
    for option, over in (("at_once", True), ("end_of_military", False)):
        s = new(capitals_victory_check=option)
        p = pos(s)
        p["markers"].update(achea=ROME, africa=ROME, sicilia=ROME)
        p["legions"] = {"latium": [1, 0, 0]}
        p["res"][ROME] = {"tax": 3}
        s = buy_turn(load(s, p), ROME, done=[GREECE])
        slot = next(x for x in s.game.board.slots("sicilia") if x.startswith("legendary_city"))
        assert B.victory_cities(s.d, ROME) == 3
        buy(s, f"build {slot} sicilia", "tax", "tax", "tax")
        assert s.is_terminal() is over
        if over:
            assert s.returns() == [1.0, 0.0, 0.0] and s.d["buy"]["done"] == [GREECE]
        else:
            assert B.victory_cities(s.d, ROME) == 4 and s.d["winner"] is None


def test_a_tie_at_once_goes_to_the_military_leader_N6_5_2() -> None:
    """N6.5.2 / D26: in a position where Rome and Greece each control four capitals and
    legendary cities, the next action ends play: the Military leader (Carthage) names the
    winner among them, and the game is over."""
    s = new(5)
    p = pos(s)
    p["markers"].update(africa=ROME, sicilia=ROME, judea=ROME, aegyptus=GREECE, babylonia=GREECE, asia=GREECE)
    p["buildings"].update(
        sicilia=["legendary_city:syracusae"],
        judea=["legendary_city:ierusalem"],
        asia=["legendary_city:troia"],
    )
    p["titles"]["military"] = CARTHAGE
    s = mil_turn(load(s, p), EGYPT, "mil_row", done=[0, 1, 2, 4])
    assert [B.victory_cities(s.d, x) for x in (ROME, GREECE)] == [4, 4]
    s.apply("done")
    assert s.d["stage"] == "tie_win" and s.current_player() == CARTHAGE
    assert list(s.legal_actions()) == ["winner 0", "winner 1"]
    s.apply("winner 1")
    assert s.is_terminal() and s.returns() == [0.0, 1.0, 0.0, 0.0, 0.0]


# ------------------------------------------------------------------ N0.7, W11: tracks in the view


def test_every_view_carries_the_true_track_levels_N0_7() -> None:
    """N0.7: ``view["tracks"]``, indexed by seat, equals the levels of the position for every
    viewer (they are public)."""
    rng = random.Random(7)
    s = ziggurat.load("mare-nostrum", players=4).new_initial_state()
    for _ in range(300):
        if s.is_terminal():
            break
        for viewer in (None, 0, 3):
            v = s.view(viewer)
            assert v["tracks"] == [B.tracks(s.d, seat) for seat in range(4)]
            assert all(set(t) == {"trade", "culture", "military"} for t in v["tracks"])
        s.apply(ziggurat.sample_chance(s, rng) if s.current_player() < 0 else rng.choice(s.legal_actions()))


def _over_fifteen() -> ziggurat.engine.State:
    """Carthage with a Trade level of 17: 7 on the board, Hercules, Antigone, Hanging Gardens,
    Circe, Perseus and Hamilcar."""
    s = new()
    p = pos(s)
    p["tiles"][CARTHAGE] = ["hannibal", "hercules", "antigone", "hanging_gardens", "circe", "perseus"]
    p["tiles"][ROME] = ["caesar", "hamilcar"]
    p["buildings"]["libya"].append("market")
    s = load(s, p)
    assert s.tracks(CARTHAGE)["trade"] > 15
    return s


def test_a_level_above_15_is_drawn_15_plus_W11() -> None:
    """W11 / N0.7.5, 2.6: the SVG card and the terminal's empires table draw "15+", the view
    keeps the true level."""
    s = _over_fifteen()
    view = s.view(GREECE)
    level = view["tracks"][CARTHAGE]["trade"]
    assert level > 15
    svg = RS.render_svg(view, ["human"] * 3)
    texts = [t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert any("trade 15+" in t for t in texts)
    assert not any(f"trade {level}" in t for t in texts)
    console = Console(width=100, record=True, color_system=None)
    console.print(RT.empires_table(view, None))
    table = console.export_text()
    row = next(line for line in table.splitlines() if "Carthage" in line)
    assert "15+/" in row and f"{level}/" not in row
    assert RT.level_text(15) == "15" and RT.level_text(16) == "15+"


# ------------------------------------------------------------------ refusals cite real rules


def test_not_your_turn_names_the_decision_D13_D16() -> None:
    """Section 8: a move out of turn cites the row of the decision under way (D13 in a buy
    turn, D16 when the Military leader names the next player)."""
    s = buy_turn(new(), GREECE)
    with pytest.raises(ziggurat.NotYourTurn) as info:
        s.apply("end", seat=ROME)
    assert str(info.value).endswith("(D13)")
    s = mil_turn(new(), ROME, "mil_order", done=[])
    leader = s.current_player()
    with pytest.raises(ziggurat.NotYourTurn) as info:
        s.apply("next 0", seat=(leader + 1) % 3)
    assert str(info.value).endswith("(D16)")


def _neighbours(state: ziggurat.engine.State, rng: random.Random) -> list[str]:
    """Actions legal in a position one step away (after one of the legal actions)."""
    out: list[str] = []
    for action in rng.sample(state.legal_actions(), min(3, len(state.legal_actions()))):
        nxt = state.clone()
        nxt.apply(action)
        if not nxt.is_terminal() and nxt.current_player() >= 0:
            out.extend(nxt.legal_actions())
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_refusals_cite_rules_the_spec_defines(players: int, seed: int) -> None:
    """Section 8, N0.8, N4.3 ...: in seeded positions, actions legal one step before or after
    (often another seat's) are refused citing only ids the spec defines; a refused conversion
    cites N4.3 or N4.2, never the trireme step N4.4."""
    rng = random.Random(seed)
    s = ziggurat.load("mare-nostrum", players=players).new_initial_state()
    before: list[str] = []
    tried = 0
    for _ in range(900):
        if s.is_terminal():
            break
        if s.current_player() < 0:
            s.apply(ziggurat.sample_chance(s, rng))
            continue
        legal = set(s.legal_actions())
        candidates = sorted({a for a in before + _neighbours(s, rng) if a not in legal})
        for action in rng.sample(candidates, min(4, len(candidates))):
            with pytest.raises(ziggurat.IllegalAction) as info:
                s.apply(action)
            text = str(info.value)
            rules = cited_rules(text)
            assert rules, f"{text!r} cites no rule"
            unknown = [r for r in rules if r not in IDS]
            assert not unknown, f"{text!r} cites {unknown}, which docs/rules/mare-nostrum.md does not define"
            if action.startswith("convert ") and s.d["stage"] in MILITARY_TURN:
                assert "N4.4" not in rules and {"N4.2", "N4.3", "N4.11.4"} & set(rules), text
            if action.startswith("pay ") and s.d["stage"] == "buy_turn" and s.d["buy"]["paying"]:
                assert any(r.startswith(("N0.8", "2.9")) for r in rules), text
            tried += 1
        before = list(legal)
        s.apply(rng.choice(list(legal)))
    assert tried > 100
