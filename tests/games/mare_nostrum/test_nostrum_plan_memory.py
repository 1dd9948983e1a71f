"""The heuristic bot's military plan (N3.6, N3.7, N4.6) is remembered by everything it reads
of the position (``bots.military_plan``): over whole seeded games, at every buy decision of
every seat, the remembered plan is the plan worked out afresh, and the battle terms read once
per target give the odds of the plain computation (N4.7, N4.8)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum.bots import military_plan


def _attack(a: M.Attack | None) -> tuple[Any, ...] | None:
    if a is None:
        return None
    return (a.target, a.staging, a.enemy, a.defenders, a.legions, a.sea, a.value)


def _buy_decisions(players: int, seed: int) -> list[tuple[dict[str, Any], int]]:
    """The bot's copy of the view (as ``HeuristicBot.choose`` makes it) at every buy decision
    of a seeded heuristic game, with the seat deciding."""
    game = ziggurat.load("mare-nostrum", players=players)
    bots = [make_bot("heuristic", game, s) for s in range(players)]
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        view = state.view(who)
        buy = view.get("buy")
        if view["stage"] == "buy_turn" and (buy is None or buy.get("paying") is None):
            d = dict(view)
            d["opts"] = game.opts
            d["limits"] = game.opts["unit_limits"]
            out.append((d, who))
        state.apply(bots[who].choose(view, state.legal_actions(), rng))
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_remembered_plan_is_the_fresh_plan(players: int, seed: int) -> None:
    decisions = _buy_decisions(players, seed)
    assert decisions
    for d, seat in decisions + decisions:  # the second pass answers from memory
        got, fresh = military_plan(d, seat), M.plan(d, seat)
        assert got.legions == fresh.legions
        assert got.triremes == fresh.triremes
        assert _attack(got.attack) == _attack(fresh.attack)


def test_attack_value_is_the_plain_battle_odds_N4_8() -> None:
    """``attack_value`` reads the battle's terms once per target; its value is still the odds
    of clearing times the province's worth, plus half the defenders killed, less the losses."""
    checked = 0
    for d, seat in _buy_decisions(3, 4):
        for target, owner in d["markers"].items():
            if owner == seat:
                continue
            row = B.legions(d, target)
            enemies = [(c, s) for s, c in enumerate(row) if s != seat and c > 0]
            if not enemies:
                continue
            dfn, enemy = max(enemies)
            dfn = sum(c for c, _s in enemies)
            for force in (1, 3, 5):
                win, lost, killed = M.land_odds(d, seat, force, enemy, dfn, target)
                value, odds = M.attack_value(d, seat, force, target)
                assert odds == win
                assert value == win * M.worth(d, target) + 0.5 * killed - lost
                checked += 1
    assert checked
