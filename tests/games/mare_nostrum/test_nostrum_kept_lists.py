"""The answers play keeps between plies agree with the plain working-out, at every player count.

The legion moves (D20) keep each province's share of the list by the legions that may move
there; the payments and the buy turn keep every seat's allowance (N0.8.3) per ``tiles`` and
``copy`` table and the hero cost per round (2.8); the capitals check (N6.3) returns at once
while the count kept for the control tables is short of a win; a battle roll's outcomes
(N4.7, N0.13) are listed only when asked for, and its table is kept while the battle's faces and
units are the same. Several lines of play are played in turn, as a
search plays its clones, so that every kept answer meets tables other than its own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import battle as BT
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import buy_place as BP
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import military as M
from ziggurat.games.mare_nostrum import production as PR
from ziggurat.games.mare_nostrum import trade as TR
from ziggurat.games.mare_nostrum import victory as V
from ziggurat.games.mare_nostrum.state import copy_state

HERO_READINGS = {
    "hannibal_reading": "any",
    "cleopatra_reading": "any_mix",
    "hero_payments_for_pyramids": True,
}


def choose(state: Any, rng: random.Random) -> str:
    if state.current_player() == CHANCE:
        return sample_chance(state, rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def lines_of_play(game: MareNostrumGame, seed: int, plies: int) -> Any:
    """Seeded random play over up to four lines (clones branching off one another), played in
    turn; yields each state before its action is applied (and each finished game's last)."""
    rng = random.Random(seed)
    lines = [game.new_initial_state()]
    for ply in range(plies):
        if ply % 50 == 0 and len(lines) < 4:
            lines.append(lines[rng.randrange(len(lines))].clone())
        i = ply % len(lines)
        state = lines[i]
        yield state
        if state.is_terminal():
            lines[i] = game.new_initial_state()
        else:
            state.apply(choose(state, rng))


def march_afresh(d: dict[str, Any]) -> list[str]:
    """D20 with nothing kept: every seat's sailing answers forgotten first."""
    M._SAILING.clear()
    return M.march_legal(copy_state(d))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_kept_march_shares_match_the_list_worked_out_afresh_D20(n: int) -> None:
    game = MareNostrumGame(n, {})
    compared = 0
    for state in lines_of_play(game, 1100 + n, 4000):
        d = state.d
        if d["stage"] == "mil_march" and not d["queue"] and d["battle"] is None:
            kept = list(state.legal_actions())
            assert kept == march_afresh(d), (n, d["round"])
            assert kept == M.march_legal(d)  # and again with the answers just worked out kept
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("options", [{}, HERO_READINGS, {"hero_cost_mode": "by_tiles_owned"}])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_kept_allowances_and_hero_costs_match_the_plain_rule_N0_8_3_R25(
    n: int, options: dict[str, Any]
) -> None:
    game = MareNostrumGame(n, options)
    compared = 0
    for state in lines_of_play(game, 1200 + n, 2500):
        d = state.d
        if d["stage"] not in ("buy_turn", "buy_keep"):
            continue
        for seat in range(n):
            for item in ("", "build city x", "pyramids"):
                assert BP.allowance(d, seat, item) == BP._allowance(d, seat, item), (seat, item)
            table = BP._cost_table(d["opts"]["hero_cost_by_round"])
            if d["opts"]["hero_cost_mode"] == "by_round":
                due = [k for k in sorted(table) if k <= d["round"]]
                assert BP.cost_tile(d, seat) == (table[due[-1]] if due else table[min(table)])
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("n", [3, 4, 5])
def test_no_seat_holds_enough_capitals_while_play_goes_on_N6_3(n: int) -> None:
    """With the check at once (the default), play never goes on while one seat controls the
    capitals and legendary cities to win: the shortcut that skips the check misses no win."""
    game = MareNostrumGame(n, {"capitals_to_win": 2})
    ended = 0
    for state in lines_of_play(game, 1300 + n, 3000):
        d = state.d
        if d["stage"] in ("over", "tie_win"):
            ended += 1
            continue
        assert max(V.city_counts(d)) < 2, (n, d["round"], d["stage"])
    assert ended > 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_battle_rolls_listed_when_asked_match_their_outcomes_N4_7(n: int) -> None:
    """A roll's legal list, worked out only when asked for, is its chance outcomes; a roll is
    applied as the engine's pipeline applies it, with the same events and position."""
    game = MareNostrumGame(n, {})
    rng = random.Random(1400 + n)
    rolls = 0
    for state in lines_of_play(game, 1400 + n, 4000):
        d = state.d
        if d["battle"] is None or d["queue"] or state.current_player() != CHANCE:
            continue
        assert BT.roll_table(d) == BT.handful_table(*BT.roll_handful(d))  # the kept table is the roll's
        outcome = sample_chance(state, rng)
        base = state.clone()
        ours = state.clone()
        ours.apply(outcome)
        State.apply(base, outcome)
        assert ours.events() == base.events()
        assert ours.to_position() == base.to_position()
        assert list(ours.legal_actions()) == list(base.legal_actions())
        assert list(state.legal_actions()) == [a for a, _ in state.chance_outcomes()]
        rolls += 1
    assert rolls > 50


@pytest.mark.parametrize("n", [3, 4, 5])
def test_units_on_the_board_carried_on_by_moves_match_a_fresh_count_N0_9(n: int) -> None:
    """The units each seat has on the board (the supply's complement, N0.9) are carried on
    from the table a move replaces: they match a count of the table at every decision."""
    game = MareNostrumGame(n, {})
    for state in lines_of_play(game, 1500 + n, 3000):
        d = state.d
        for kind in ("legions", "triremes"):
            fresh = [sum(row[s] for row in d[kind].values()) for s in range(n)]
            assert B.on_board(d, kind) == fresh, (n, kind, d["round"], d["stage"])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_next_offerer_is_the_first_seat_short_of_its_offer_R4(n: int) -> None:
    game = MareNostrumGame(n, {})
    compared = 0
    for state in lines_of_play(game, 1600 + n, 3000):
        d = state.d
        if d["stage"] == "trade_offer" and not d["queue"]:
            t = d["trade"]
            short = [int(s) for s in sorted(t["parts"], key=int) if len(t["offers"][int(s)]) < t["parts"][s]]
            assert TR.next_offerer(d) == short[0]
            compared += 1
    assert compared > 50


def production_from_rules(d: dict[str, Any]) -> tuple[list[dict[str, int]], list[list[Any]]]:
    """N1.1-N1.10 building by building, control by ``board.control`` (N0.5): every seat's
    screen after production and the queue of draws, temple choices and Colossus goods."""
    n = d["n"]
    res = [dict(r) for r in d["res"]]
    draws: list[list[Any]] = []
    for prov in sorted(d["buildings"]):
        slots = d["buildings"][prov]
        for slot in slots:
            who = B.control(d, prov, slot)
            if who is None:
                continue
            kind = D.building_kind(slot)
            mine = [D.building_kind(x) for x in slots if B.control(d, prov, x) == who]
            if kind == "caravan":
                good = slot.split(":")[1]
                res[who][good] = res[who].get(good, 0) + (2 if "market" in mine else 1)
            elif kind in ("city", "capital"):
                res[who]["tax"] = res[who].get("tax", 0) + (2 if "temple" in mine else 1)
            elif kind == "legendary_city":
                res[who]["tax"] = res[who].get("tax", 0) + 1
                draws.append([who, "temple" in mine])
    for s in range(n):
        if B.has(d, s, "temple_of_artemis"):
            res[s]["tax"] = res[s].get("tax", 0) + 1
    queue: list[list[Any]] = []
    for who, temple in sorted(draws, key=lambda x: int(x[0])):
        queue.append(["draw", who])
        if temple:
            queue.append(["lc", who])
    queue.extend(["colossus", s] for s in range(n) if B.has(d, s, "colossus"))
    return res, queue


@pytest.mark.parametrize("n", [3, 4, 5])
def test_production_matches_the_buildings_one_by_one_N1(n: int) -> None:
    """Production reads a province whose buildings its marker's owner controls alone in one
    step; over the positions of seeded games it gives what each building yields on its own."""
    game = MareNostrumGame(n, {})
    compared = 0
    for ply, state in enumerate(lines_of_play(game, 1700 + n, 3000)):
        d = state.d
        if ply % 7 or d["stage"] == "over" or d["trade"] is not None:
            continue
        produced = copy_state(d)
        produced["round"] = max(2, produced["round"])
        expected = production_from_rules(produced)
        PR.production(produced)
        assert (produced["res"], produced["queue"]) == expected, (n, ply)
        compared += 1
    assert compared > 100
