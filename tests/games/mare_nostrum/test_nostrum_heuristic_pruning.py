"""The Mare Nostrum heuristic's shortcuts choose what scoring every candidate would.

``HeuristicBot.choose`` scores token decisions inline, works the military plan out only when
a legion or trireme purchase could win a buy decision (``bots.planned_cap``), leaves out the
fortresses that cannot reach the best score so far, and reads the garrisons remembered by
what they read (``bots_military.garrisons``). Over seeded games, in playout views (a sampled
world's ``rollout_view``) and in real views (``state.view``), for the heuristic and the
raider, every choice is the plain one: each legal action scored, the highest score, ties to
the first text in sorted order (N3.6, N3.7, N4.6)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.bots import HeuristicBot, RaiderBot
from ziggurat.games.mare_nostrum.bots_facts import planned_cap
from ziggurat.games.mare_nostrum.evaluate import rollout_view


def _decisions(players: int, seed: int) -> Iterator[tuple[State, int, list[str]]]:
    """Every decision with two or more legal actions of a seeded game of heuristic bots
    (seat 0 the raider), with the state, the seat to move and the legal list."""
    game = ziggurat.load("mare-nostrum", players=players)
    bots = [RaiderBot(game, 0), *[HeuristicBot(game, s) for s in range(1, players)]]
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = list(state.legal_actions())
        if len(legal) > 1:
            yield state, who, legal
        state.apply(bots[who].choose(rollout_view(state, who), legal, rng))


def _plain(bot: HeuristicBot, view: dict[str, Any], legal: list[str]) -> str:
    """The choice with every legal action scored, one by one."""
    d = dict(view)
    d["opts"] = bot.game.opts
    d["limits"] = bot.game.opts["unit_limits"]
    bot._prepare(d)
    scored = [(bot._score(d, a), a) for a in legal]
    best = max(s for s, _ in scored)
    return min(a for s, a in scored if s == best)


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (5, 13)])
def test_choices_are_the_plain_scoring(players: int, seed: int) -> None:
    checked = 0
    for state, who, legal in _decisions(players, seed):
        game = state.game
        for cls in (HeuristicBot, RaiderBot):
            view = rollout_view(state, who) if checked % 2 else state.view(who)
            got = cls(game, who).choose(view, legal, random.Random(0))
            assert got == _plain(cls(game, who), view, legal), (state.d["stage"], legal)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(("players", "seed"), [(3, 21), (5, 22)])
def test_no_legion_trireme_or_fortress_outscores_its_cap_N3_6(players: int, seed: int) -> None:
    """The bounds the buy decision prunes with: a legion or trireme purchase never scores
    above ``planned_cap``, a fortress never above 60 (75 when cheap)."""
    seen = 0
    for state, who, legal in _decisions(players, seed):
        buy = state.d.get("buy")
        if state.d["stage"] != "buy_turn" or (buy is not None and buy.get("paying") is not None):
            continue
        for cls in (HeuristicBot, RaiderBot):
            bot = cls(state.game, who)
            d = dict(rollout_view(state, who))
            d["opts"] = state.game.opts
            d["limits"] = state.game.opts["unit_limits"]
            bot._prepare(d)
            cap = planned_cap(d)
            for a in legal:
                w = a.split()
                if w[0] != "buy" or w[1] not in ("legion", "trireme", "fortress"):
                    continue
                score = bot._score(d, a)
                if w[1] == "fortress":
                    assert score <= (75.0 if w[-1] == "cheap" else 60.0), a
                else:
                    assert score <= cap, (a, score, cap)
                seen += 1
    assert seen > 50


def test_remembered_garrisons_are_fresh_and_ignore_own_units_N4_8() -> None:
    """``garrisons`` (remembered) is ``garrison`` worked out afresh, and a seat's own
    legions and triremes, which a threat never counts (N4.8), do not change it."""
    checked = 0
    for state, who, _legal in _decisions(4, 31):
        if not state.d["stage"].startswith(("buy_", "mil_")) or not B.owned(state.d, who):
            continue
        d = dict(rollout_view(state, who))
        d["limits"] = state.game.opts["unit_limits"]
        got = M.garrisons(d, who, M.Reach(d))
        fresh = M.Reach(d)
        assert got == {p: M.garrison(d, who, p, fresh) for p in B.owned(d, who)}
        # one more legion and trireme of the seat's own: the same garrisons
        more = dict(d)
        B.move_unit(more, "legions", B.owned(d, who)[0], who, 1)
        B.move_unit(more, "triremes", D.board(d["n"]).sea_ids[0], who, 1)
        again = M.Reach(more)
        assert {p: M.garrison(more, who, p, again) for p in B.owned(more, who)} == got
        checked += 1
    assert checked > 50


def _plain_attack(
    d: dict[str, Any], seat: int, reach: M.Reach, spare: dict[str, int], money: int
) -> M.Attack | None:
    """``plan_attack`` the plain way: every target against every source, a trireme chain
    worked out per source, every force tried."""
    b = D.board(d["n"])
    sources = []
    for src in B.own_provinces(d, seat):
        if spare.get(src, 0) + money > 0:
            area = b.provinces[src]
            chain = B.sea_reach(d, seat, [src])
            open_to = set(area["land"]).union(*[b.shore[sea] for sea in chain])
            sources.append((src, spare.get(src, 0), open_to, area["seas"]))
    best: M.Attack | None = None
    for target, owner in d["markers"].items():
        if owner == seat:
            continue
        row = B.legions(d, target)
        dfn = sum(c for s, c in enumerate(row) if s != seat)
        if dfn > 6:
            continue
        for src, free, open_to, src_seas in sources:
            sea = None
            if target not in open_to:
                shared = sorted(set(src_seas) & set(b.provinces[target]["seas"]))
                if money < 2 or not shared:
                    continue
                sea = shared[0]
            have = free + row[seat]
            room = money - (1 if sea else 0)
            for extra in range(room + 1):
                if have + extra == 0:
                    continue
                value, win = M.attack_value(d, seat, have + extra, target)
                value -= extra + (1 if sea else 0)
                if win >= M.WIN_TO_ATTACK and value > 0.25:
                    if best is None or value > best.value:
                        best = M.Attack(target, src, owner, dfn, extra, sea, value)
                    break
    return best


@pytest.mark.parametrize(("players", "seed"), [(3, 41), (4, 42), (5, 43)])
def test_planned_attack_is_the_plain_scan_N4_6(players: int, seed: int) -> None:
    """The attack a plan prepares (the chains read once, targets no force can make the best
    skipped) is the one the plain scan over every target, source and force finds."""
    checked = 0
    for state, who, _legal in _decisions(players, seed):
        buy = state.d.get("buy")
        if state.d["stage"] != "buy_turn" or (buy is not None and buy.get("paying") is not None):
            continue
        d = dict(rollout_view(state, who))
        d["limits"] = state.game.opts["unit_limits"]
        reach = M.Reach(d)
        spare = {
            p: max(0, B.free_legions(d, p, who) - M.garrison(d, who, p, reach))
            for p in B.own_provinces(d, who)
        }
        money = M.budget(d, who)
        if not money:
            continue
        got, want = M.plan_attack(d, who, reach, spare, money), _plain_attack(d, who, reach, spare, money)
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert (got.target, got.staging, got.enemy, got.defenders, got.legions, got.sea, got.value) == (
                want.target,
                want.staging,
                want.enemy,
                want.defenders,
                want.legions,
                want.sea,
                want.value,
            )
        checked += 1
    assert checked > 20


def _plain_odds(att: int, dfn: int, terms: tuple[Any, ...]) -> tuple[float, float, float]:
    """``odds`` the plain way: every pair of hit counts of every state, each probability
    the product of the state's and the two sides' (N4.7.3-N4.7.5, N4.8)."""
    ae, de, ab, db, ac, dc, faces, div, cap, rounds = terms

    def hits(n_dice: int, bonus: int, cancel: int) -> list[float]:
        sums = {0: 1.0}
        for _ in range(n_dice):
            nxt: dict[int, float] = {}
            for total, q in sums.items():
                for f in faces:
                    nxt[total + f] = nxt.get(total + f, 0.0) + q * (1.0 / len(faces))
            sums = nxt
        out: dict[int, float] = {}
        for total, q in sums.items():
            h = max(0, (total + bonus) // div - cancel)
            out[h] = out.get(h, 0.0) + q
        return [out.get(k, 0.0) for k in range(max(out) + 1)]

    states = {(att, dfn): 1.0}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (a, b), q in states.items():
            if a == 0 or b == 0:
                nxt[(a, b)] = nxt.get((a, b), 0.0) + q
                continue
            on_b = hits(min(a + ae, cap), ab, dc)
            on_a = hits(min(b + de, cap), db, ac)
            for hb, pb in enumerate(on_b):
                for ha, pa in enumerate(on_a):
                    key = (max(0, a - ha), max(0, b - hb))
                    nxt[key] = nxt.get(key, 0.0) + q * pa * pb
        states = nxt
    win = sum(q for (a, b), q in states.items() if b == 0 and a > 0)
    lost = sum(q * (att - a) for (a, _b), q in states.items())
    killed = sum(q * (dfn - b) for (_a, b), q in states.items())
    return win, lost, killed


def test_battle_odds_are_the_plain_convolution_N4_7() -> None:
    """The battle odds the heuristic weighs are, to the last bit, those of the plain
    convolution of the dice over one or two battles, with heroes, fortresses and caps."""
    for att in range(7):
        for dfn in range(7):
            for extra in [(0, 0, 0, 0, 0, 0), (1, 2, 0, 0, 0, 0), (1, 0, 2, 0, 0, 1), (2, 3, 5, 2, 1, 1)]:
                for cap, rounds in ((1 << 20, 2), (4, 2), (1 << 20, 1)):
                    terms = (*extra, (1, 2, 3, 4, 5, 6), 5, cap, rounds)
                    assert M.odds(att, dfn, *terms) == _plain_odds(att, dfn, terms)
