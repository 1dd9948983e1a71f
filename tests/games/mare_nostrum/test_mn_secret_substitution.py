"""No secret leaks through forced decisions (spec 7.8, 7.1, 7.2).

From positions of seeded random play, each other seat's screen (its tokens behind the screen and
its offer not yet revealed) is replaced by other tokens of the same count, and the same public
continuation is played in both games (actions legal in both). Every seat but the owner, and a
spectator, must be sent the same: the view with the owner's screen masked, the legal actions when
another seat is to move, who is to move, and the step's log (who acted, whether the engine acted,
the sentences that viewer reads)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from nostrum_helpers import buy_turn, new

import ziggurat
from ziggurat.engine.contract import CHANCE, State
from ziggurat.engine.errors import InvalidPosition
from ziggurat.engine.eventlog import events_since, log_mark
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.describe import describe_step
from ziggurat.games.mare_nostrum.state import forced_by_screen

SEEDS = range(2)
PLIES = 500
EVERY = 13
CONTINUATION = 12


def _positions(seed: int) -> Iterator[State]:
    """Decision points of one seeded random game, every few plies, through every phase."""
    game = ziggurat.load("mare-nostrum", players=3 + seed % 3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for ply in range(PLIES):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
            continue
        if ply % EVERY == 0:
            yield state.clone()
        state.apply(rng.choice(list(state.legal_actions())))


def _alternatives(tokens: list[str], rng: random.Random, kinds: list[str]) -> list[list[str]]:
    """Other tokens of the same count: all one type (the original's first, then the first
    kind), one of each kind in turn, and a random mix."""
    k = len(tokens)
    if k == 0:
        return []
    alts = [[tokens[0]] * k, [kinds[0]] * k, [kinds[i % len(kinds)] for i in range(k)]]
    alts.append([rng.choice(kinds) for _ in range(k)])
    out: list[list[str]] = []
    for alt in alts:
        if sorted(alt) != sorted(tokens) and sorted(alt) not in out:
            out.append(sorted(alt))
    return out


def _split(tokens: list[str]) -> tuple[list[str], list[str], list[str]]:
    goods = [t for t in tokens if t != "tax" and not t.startswith("leg:")]
    return goods, [t for t in tokens if t == "tax"], [t for t in tokens if t.startswith("leg:")]


def _substitutes(state: State, owner: int, rng: random.Random) -> Iterator[tuple[State | None, bool]]:
    """States equal to ``state`` but for ``owner``'s screen, each with whether its taxes were
    changed too (``None``: that screen could not finish the payment under way, so no such
    position exists). Goods are replaced by goods of the same count; a second family mixes
    goods and taxes, whose count the end of a buy turn shows (N3.13); legendary goods exist
    once each, so one is swapped with one of the hidden pool."""
    pos = state.to_position()
    held = sorted(t for t, c in pos["res"][owner].items() for _ in range(c))
    trade = pos["trade"]
    offered = sorted(trade["offers"][owner]) if trade and not trade["revealed"] else []
    goods, taxes, legendary = _split(held)
    o_goods, o_taxes, o_legendary = _split(offered)
    plain = [*goods, *taxes]
    screens: list[tuple[list[str], list[str], bool]] = []
    screens += [([*alt, *taxes, *legendary], offered, False) for alt in _alternatives(goods, rng, D.GOODS)]
    screens += [([*alt, *legendary], offered, True) for alt in _alternatives(plain, rng, ["tax", *D.GOODS])]
    screens += [(held, [*alt, *o_taxes, *o_legendary], False) for alt in _alternatives(o_goods, rng, D.GOODS)]
    pool = sorted(g for g, c in pos["pool"].items() if c)
    if legendary and pool:
        swapped = f"leg:{rng.choice(pool)}"
        screens.append(([t for t in held if t != legendary[0]] + [swapped], offered, False))
    for screen, offer, taxed in screens:
        p = state.to_position()
        p["res"][owner] = {}
        for t in screen:
            p["res"][owner][t] = p["res"][owner].get(t, 0) + 1
        if offered:
            p["trade"]["offers"][owner] = sorted(offer)
        for t in set(legendary) - set(screen):
            p["pool"][t[4:]] = 1
        for t in set(screen) - set(legendary):
            if t.startswith("leg:"):
                p["pool"][t[4:]] = 0
        try:
            yield state.game.state_from_position(p), taxed
        except InvalidPosition:
            yield None, taxed


def _masked(view: dict[str, Any], owner: int) -> dict[str, Any]:
    trade = view.get("trade")
    if trade:
        trade["offers"][owner] = "masked"
    return view


def _step_log(events: list[Any], before: dict[str, Any], after: dict[str, Any]) -> list[Any]:
    return [(e[0], e[2], e[3]) for e in events] + [
        (str(text), auto) for text, auto in describe_step(events, before, after)
    ]


def _compare(a: State, b: State, owner: int, viewers: list[int | None]) -> None:
    assert a.current_player() == b.current_player()
    for v in viewers:
        assert _masked(a.view(v), owner) == _masked(b.view(v), owner), f"view of {v}"
    mover = a.current_player()
    if mover not in (owner, CHANCE) and not a.is_terminal():
        assert list(a.legal_actions()) == list(b.legal_actions())


def _continue(a: State, b: State, owner: int, taxed: bool, rng: random.Random) -> int:
    """Play the same actions in both while some are legal in both, until the substituted
    secret is shown by the rules themselves (the offer's reveal, N2.3; with other taxes, the
    count kept at the end of the owner's buy turn, N3.13); returns the plies played."""
    n = a.game.num_players
    viewers: list[int | None] = [None, *(s for s in range(n) if s != owner)]
    _compare(a, b, owner, viewers)
    offered = a.d["trade"] is not None and not a.d["trade"]["revealed"]
    for ply in range(CONTINUATION):
        if a.is_terminal() or b.is_terminal():
            assert a.is_terminal() and b.is_terminal()
            return ply
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not common:
            return ply
        action = rng.choice(common)
        marks = log_mark(a), log_mark(b)
        before = [(a.view(v), b.view(v)) for v in viewers]
        buying = a.d["buy"] is not None and a.d["buy"]["active"] == owner
        a.apply(action)
        b.apply(action)
        ev_a, ev_b = events_since(a, marks[0]), events_since(b, marks[1])
        assert [(e[0], e[2], e[3]) for e in ev_a] == [(e[0], e[2], e[3]) for e in ev_b]
        assert a.current_player() == b.current_player()
        if [e[1] for e in ev_a] != [e[1] for e in ev_b]:
            return ply + 1  # a forced payment from a single token shows it to all (R8)
        if taxed and buying and (a.d["buy"] is None or a.d["buy"]["active"] != owner):
            return ply + 1
        if offered and (a.d["trade"] is None or a.d["trade"]["revealed"]):
            return ply + 1  # the substituted offer is shown to all: the secret is public now
        _compare(a, b, owner, viewers)
        for v, (va, vb) in zip(viewers, before, strict=True):
            after_a, after_b = a.view(v), b.view(v)
            assert _step_log(ev_a, va, after_a) == _step_log(ev_b, vb, after_b), f"log of {v}"
    return CONTINUATION


@pytest.mark.slow
def test_substituting_a_screen_changes_nothing_another_seat_is_sent_7_8() -> None:
    """7.8: whether the engine plays a decision itself never depends on a secret, so no seat
    and no spectator can tell one screen from another of the same count."""
    rng = random.Random(7)
    tried = refused = plies = 0
    stages: set[str] = set()
    for seed in SEEDS:
        for state in _positions(seed):
            for owner in range(state.game.num_players):
                for sub, taxed in _substitutes(state, owner, rng):
                    if sub is None:
                        refused += 1
                        continue
                    tried += 1
                    stages.add(state.d["stage"])
                    follow = random.Random(rng.random())
                    plies += _continue(state.clone(), sub, owner, taxed, follow)
    print(
        f"\nmare-nostrum: {tried} substitutions ({refused} not positions: a payment under way"
        f" they could not finish), {plies} continuation plies, stages {sorted(stages)}"
    )
    assert tried > 500
    assert {"trade_offer", "buy_turn", "mil_march"} <= stages


# --- the decisions that read a screen, one by one ------------------------------------------


def _trade_offer(state: Any, tokens: dict[str, int]) -> Any:
    """Rome (seat 0) to offer two tokens, holding ``tokens``."""
    p = state.to_position()
    p["res"][0] = tokens
    p["stage"] = "trade_offer"
    p["trade"] = {
        "v": 2,
        "token": [2, 2],
        "parts": {"0": 2, "1": 2, "2": 2},
        "offers": [[], [], []],
        "received": [[], [], []],
        "takes": [],
        "starter": None,
        "chooser": None,
        "revealed": False,
        "sizing": [],
    }
    p["tokens_used"] = [False, False, True]
    return state.game.state_from_position(p)


def test_an_offer_of_one_token_type_is_asked_7_8_D7() -> None:
    """7.8, D7: tokens all of one type leave one legal offer, yet Rome is asked, as with a mix."""
    state = _trade_offer(new(), {"tax": 4})
    assert state.legal_actions() == ["offer tax"]
    assert forced_by_screen(state.d)
    state.apply("offer tax")
    assert state.current_player() == 0
    assert state.legal_actions() == ["offer tax"]
    assert not state.events()[-1].auto


def test_an_offer_from_a_single_token_is_public_7_8_D7() -> None:
    """7.8: with one token behind the screen (the count is public), the offer is forced in public."""
    state = _trade_offer(new(), {"tax": 1, "wine": 1})
    state.apply("offer wine")
    last = state.events()[-1]
    assert (last.actor, last.text, last.auto) == (0, "offer tax", True)
    assert state.current_player() == 1


def test_ending_a_buy_turn_with_nothing_affordable_is_asked_7_8_D13() -> None:
    """7.8, D13: three wines pay for nothing (N0.8.1), but three other tokens might; Rome is
    asked to end his turn. Two taxes buy nothing whatever they are: the end is automatic."""
    base = new()
    others = base.to_position()["res"][1:]
    state = buy_turn(base, 0, res=[{"wine": 3}, *others])
    assert state.legal_actions() == ["end"]
    assert forced_by_screen(state.d)
    state = buy_turn(base, 0, res=[{"tax": 2}, *others])
    assert state.legal_actions() == ["end"]
    assert not forced_by_screen(state.d)


def test_the_hanging_gardens_keep_is_asked_with_taxes_only_7_8_D14() -> None:
    """7.8, D14: with Hanging Gardens the keep is asked whenever the screen holds a token, even
    when only taxes are there and keeping nothing is the only choice."""
    base = new()
    p = base.to_position()
    tiles = [*p["tiles"]]
    tiles[0] = [*tiles[0], "hanging_gardens"]
    display = [t if t != "hanging_gardens" else None for t in p["display"]]
    state = buy_turn(base, 0, res=[{"tax": 3}, *p["res"][1:]], tiles=tiles, display=display)
    state.apply("end")
    assert state.d["stage"] == "buy_keep"
    assert state.legal_actions() == ["keep none"]
    assert state.current_player() == 0
    state.apply("keep none")
    assert state.d["res"][0] == {"tax": 2}
