"""The fast legal lists and the cheap clone agree with the rules worked out from scratch.

The buy turn (D13), the payments (N0.8), the legion moves (D20), the victory-city count (N6.3),
the conquest checkpoint (N4.10.2) and ``clone`` are written for speed: shared facts worked out once, board tables, closed forms,
rows shared between clones. Over seeded random games at every player count, each is compared,
at every decision, with the same answer computed the plain way from the rule predicates
(``buy_place.marker_ok`` ... ``payment.can_finish``, ``board.sea_reach``, ``board.control``,
``board.present``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import buy_place as BP
from ziggurat.games.mare_nostrum import conquest as C
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import military as M
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum import victory as V

HERO_READINGS = {
    "hannibal_reading": "any",
    "cleopatra_reading": "any_mix",
    "hero_payments_for_pyramids": True,
}


def buy_turn_from_rules(d: dict[str, Any]) -> list[str]:
    """D13 built one candidate at a time from the rule predicates (N3.3-N3.12)."""
    bu = d["buy"]
    seat = int(bu["active"])
    b = D.board(d["n"])
    out = ["end"]
    can3 = BP.affordable(d, seat, 3)
    can6 = BP.affordable(d, seat, 6)
    if B.supply(d, seat, "influence_marker") > 0:
        for prov in b.province_ids:
            if BP.marker_ok(d, seat, prov):
                if can3:
                    out.append(f"buy marker {prov}")
                if B.has(d, seat, "hammurabi") and "hammurabi" not in bu["free_used"]:
                    out.append(f"free marker {prov}")
    for prov in B.own_provinces(d, seat):
        for slot in b.slots(prov):
            kind = D.building_kind(slot)
            if (
                (can6 if kind in ("market", "temple") else can3)
                and BP.build_ok(d, seat, prov, slot)
                and B.building_left(d, kind)
            ):
                out.append(f"build {slot} {prov}")
    for piece in ("legion", "trireme", "fortress"):
        if B.supply(d, seat, piece) <= 0:
            continue
        places = BP.piece_places(d, seat, piece)
        alt_tile, alt_good = D.ALT_COST[piece]
        alt = B.has(d, seat, alt_tile) and BP.affordable(d, seat, 1, f"alt:{alt_good}")
        for place in places:
            if can3:
                out.append(f"buy {piece} {place}")
            if alt:
                out.append(f"buy {piece} {place} cheap")
    if (
        B.has(d, seat, "penthesilea")
        and "penthesilea" not in bu["free_used"]
        and B.supply(d, seat, "legion") > 0
    ):
        out.extend(
            f"free legion {p}" for p in b.province_ids if b.coastal(p) and BP.penthesilea_ok(d, seat, p)
        )
    if BP.affordable(d, seat, BP.cost_tile(d, seat)):
        out.extend(f"buy tile {t}" for t in sorted(t for t in d["display"] if t is not None))
    if d["pyramids"] is None and BP.affordable(d, seat, int(d["opts"]["pyramids_cost"]), item="pyramids"):
        out.append("buy pyramids")
    return sorted(out)


def payment_from_rules(d: dict[str, Any]) -> list[str]:
    """N0.8: each token tried on its own with ``payment.can_finish``."""
    seat = int(d["buy"]["active"])
    pay = d["buy"]["paying"]
    allow = BP.allowance(d, seat, pay["item"])
    need = int(pay["cost"]) - len(pay["paid"])
    out = []
    for tok in sorted(d["res"][seat]):
        left = dict(d["res"][seat])
        left[tok] -= 1
        if P.can_finish([*pay["paid"], tok], left, need - 1, pay["kind"], allow):
            out.append(f"pay {tok}")
    return out


def march_from_rules(d: dict[str, Any]) -> list[str]:
    """D20 with each legion's trireme chain searched afresh (``board.sea_reach``, N4.6.2)."""
    m = d["mil"]
    seat = int(m["active"])
    b = D.board(d["n"])
    out = ["done"]
    for prov in b.province_ids:
        if B.legions(d, prov)[seat] == 0:
            continue
        movers = []
        if B.free_legions(d, prov, seat) - m["arrived"].get(prov, 0) > 0:
            movers.append("")
        movers += [f" @{slot}" for slot, s in sorted(d["occupy"].get(prov, {}).items()) if s == seat]
        if d["on_marker"].get(prov) == seat:
            movers.append(" @marker")
        if not movers:
            continue
        land = sorted(b.provinces[prov]["land"])
        reach = B.sea_reach(d, seat, [prov]) if b.coastal(prov) else set()
        sail = sorted(
            q
            for q in b.province_ids
            if q != prov and any(s in reach for s in b.provinces[q]["seas"]) and not M.zeus_barred(d, seat, q)
        )
        for who in movers:
            out.extend(f"march {prov} {q}{who}" for q in land)
            out.extend(f"sail {prov} {q}{who}" for q in sail)
    return out


def victory_cities_by_scan(d: dict[str, Any]) -> list[int]:
    """N6.3 counted over every building on the board."""
    counts = [0] * d["n"]
    for prov, slots in d["buildings"].items():
        for slot in slots:
            if D.building_kind(slot) in ("capital", "legendary_city"):
                who = B.control(d, prov, slot)
                if who is not None:
                    counts[who] += 1
    return counts


def checkpoint_from_rules(d: dict[str, Any], active: int | None) -> None:
    """N4.10.2 province by province for each seat, the active player's first."""
    seats = list(range(d["n"]))
    if active is not None:
        seats = [active] + [s for s in seats if s != active]
    for s in seats:
        for prov in D.board(d["n"]).province_ids:
            owner = d["markers"].get(prov)
            if owner is None or owner == s or d["conqueror"].get(prov) == s:
                continue
            if B.present(d, prov) == [s]:
                d["conqueror"][prov] = s
                d["queue"].append(["conquest", s, prov])


def check_checkpoint(state: Any) -> None:
    """The conquest checkpoint gives the same marks and queue as the plain one from here."""
    for active in (None, state.d["n"] - 1):
        fast, plain = state.clone().d, state.clone().d
        C.checkpoint(fast, active)
        checkpoint_from_rules(plain, active)
        assert (fast["conqueror"], fast["queue"]) == (plain["conqueror"], plain["queue"])


def check_decision(state: Any) -> int:
    """Compare every fast path that applies now; returns how many were compared."""
    d = state.d
    if state.current_player() == CHANCE or d["queue"] or d["battle"] is not None:
        return 0
    legal = list(state.legal_actions())
    if d["stage"] == "buy_turn":
        seat = int(d["buy"]["active"])
        if d["buy"]["paying"] is not None:
            assert legal == payment_from_rules(d)
        else:
            assert legal == buy_turn_from_rules(d)
            top = P.most_payable(d["res"][seat], BP.allowance(d, seat))
            assert [BP.affordable(d, seat, k) for k in range(16)] == [k <= top for k in range(16)]
        return 1
    if d["stage"] == "mil_march":
        assert legal == march_from_rules(d)
        return 1
    return 0


def play_and_compare(n: int, seed: int, options: dict[str, Any], plies: int = 1500) -> int:
    game = MareNostrumGame(n, dict(options))
    rng = random.Random(seed)
    state = game.new_initial_state()
    compared = 0
    for ply in range(plies):
        if state.is_terminal():
            break
        compared += check_decision(state)
        d = state.d
        assert V.city_counts(d) == victory_cities_by_scan(d)
        if d["stage"].startswith("mil_"):
            check_checkpoint(state)
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        if ply % 7 == 0:
            before = state.fingerprint()
            other = state.clone()
            assert other.to_position() == state.to_position()
            other.apply(action)
            assert state.fingerprint() == before  # the clone shares nothing play changes
        state.apply(action)
    return compared


@pytest.mark.parametrize("n", [3, 4, 5])
def test_fast_legal_lists_match_the_rule_predicates_D13_D20_N0_8(n: int) -> None:
    compared = play_and_compare(n, seed=11 * n, options={})
    assert compared > 100


@pytest.mark.parametrize("n", [3, 5])
def test_fast_payments_match_under_other_hero_readings_N0_8_3(n: int) -> None:
    compared = play_and_compare(n, seed=5 + n, options=HERO_READINGS)
    assert compared > 100


@pytest.mark.parametrize("n", [3, 4, 5])
def test_victory_slots_table_lists_every_capital_and_legendary_city_N6_3(n: int) -> None:
    b = D.board(n)
    expected = {
        (p, s)
        for p in b.province_ids
        for s in b.slots(p)
        if D.building_kind(s) in ("capital", "legendary_city")
    }
    assert set(b.victory_slots) == expected


@pytest.mark.parametrize("n", [3, 4, 5])
def test_map_links_go_both_ways_N0_6(n: int) -> None:
    """The legal lists take land links and sea links as symmetric (a chain reached from any of
    its seas is the same chain)."""
    b = D.board(n)
    for p, area in b.provinces.items():
        assert all(p in b.provinces[q]["land"] for q in area["land"])
    for s, sea in b.seas.items():
        assert all(s in b.seas[t]["seas"] for t in sea["seas"])
    for s in b.seas:
        assert b.shore[s] == [p for p in b.province_ids if s in b.provinces[p]["seas"]]


def test_clone_is_independent_of_its_original_at_every_step() -> None:
    """Rows shared between clones are replaced, never changed in place: playing a whole game on
    a clone taken at each step leaves the original as it was."""
    game = MareNostrumGame(4, {})
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        snapshot = json.dumps(state.to_position(), sort_keys=True)
        other = state.clone()
        for _ in range(20):
            if other.is_terminal():
                break
            if other.current_player() == CHANCE:
                other.apply(sample_chance(other, rng))
            else:
                legal = other.legal_actions()
                other.apply(legal[rng.randrange(len(legal))])
        assert json.dumps(state.to_position(), sort_keys=True) == snapshot
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
