"""What play keeps between plies agrees with the rules worked out afresh, and clones share only
what play replaces whole.

``clone`` shares the board tables, the seats' tiles, titles, display, pool ... (play replaces
them on write, ``board.put``); the most capitals and legendary cities one seat controls (N6.3)
and a battle's dice (N4.7.1-N4.7.2) are kept while the tables they read are the same objects;
the Claim phase reads every seat's levels in one pass (N0.7); a battle roll's outcomes are
sampled by bisection over running sums built once per handful; the plain payment (N0.8.1) has a
one-pass list. Over seeded random games at every player count, each is compared with the answer
worked out from scratch.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import battle as BT
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum import victory as V


def position_text(state: Any) -> str:
    return json.dumps(state.to_position(), sort_keys=True)


def choose(state: Any, rng: random.Random) -> str:
    if state.current_player() == CHANCE:
        return sample_chance(state, rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def cities_by_scan(d: dict[str, Any]) -> list[int]:
    """N6.3 over every building on the board, control by ``board.control`` (N0.5)."""
    counts = [0] * d["n"]
    for prov, slots in d["buildings"].items():
        for slot in slots:
            if D.building_kind(slot) in ("capital", "legendary_city"):
                who = B.control(d, prov, slot)
                if who is not None:
                    counts[who] += 1
    return counts


def scan_pick(outcomes: list[tuple[str, float]], r: float) -> str:
    """The outcome a linear scan of the running sum picks for ``r``."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_clones_share_nothing_play_changes_at_every_step(n: int) -> None:
    """Each legal action (the first few) played on its own clone leaves the original as it
    was, and the original's own action leaves an earlier clone as it was."""
    game = MareNostrumGame(n, {})
    rng = random.Random(40 + n)
    state = game.new_initial_state()
    checked = 0
    for _ in range(1500):
        if state.is_terminal():
            state = game.new_initial_state()
        before = position_text(state)
        kept = state.clone()
        for action in list(state.legal_actions())[:3]:
            other = state.clone()
            other.apply(action)
            checked += 1
        assert position_text(state) == before
        state.apply(choose(state, rng))
        assert position_text(kept) == before
    assert checked > 1500


@pytest.mark.parametrize("n", [3, 4, 5])
def test_play_through_clones_replays_like_play_on_one_state(n: int) -> None:
    """A seeded game played by cloning before every action (and dropping the old state) ends
    where the same game played on one state ends, with the same history."""
    game = MareNostrumGame(n, {})
    straight = game.new_initial_state()
    hopping = game.new_initial_state()
    rng_a, rng_b = random.Random(n), random.Random(n)
    for _ in range(2500):
        if straight.is_terminal():
            break
        action = choose(straight, rng_a)
        assert choose(hopping, rng_b) == action
        straight.apply(action)
        twin = hopping.clone()
        twin.apply(action)
        hopping = twin
    assert hopping.history() == straight.history()
    assert hopping.fingerprint() == straight.fingerprint()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_kept_counts_match_a_fresh_count_N6_3_N4_7_N0_7(n: int) -> None:
    """The capitals count (N6.3), a battle's dice (N4.7.1-N4.7.2) and every seat's levels
    (N0.7) match their plain computations; a roll's table matches its outcomes, and sampling it
    by bisection picks what a scan of the outcomes picks (N0.13)."""
    game = MareNostrumGame(n, {})
    rng = random.Random(70 + n)
    state = game.new_initial_state()
    rolls = 0
    for _ in range(3000):
        if state.is_terminal():
            state = game.new_initial_state()
        d = state.d
        if d["empires"][0] is not None:
            assert V.most_cities(d) == max(cities_by_scan(d))
            assert B.all_tracks(d) == [B.tracks(d, s) for s in range(n)]
        if d["battle"] is not None and not d["queue"] and d["stage"] != "over":
            assert BT.both_dice(d) == (BT.dice(d, "att"), BT.dice(d, "def"))
            outcomes = BT.roll_outcomes(d)
            texts, sums, texts_set = BT.roll_table(d)
            assert list(texts) == [a for a, _ in outcomes] == list(state.legal_actions())
            assert texts_set == frozenset(texts)
            for _ in range(20):
                r = rng.random()
                assert sample_chance(state, random.Random(r)) == scan_pick(
                    outcomes, random.Random(r).random()
                )
            rolls += 1
        state.apply(choose(state, rng))
    assert rolls > 20


def test_plain_payment_list_matches_token_by_token_N0_8_1() -> None:
    """Without Hannibal and Cleopatra, the tokens that may be paid next are those after which
    ``payment.can_finish`` still holds, screens with empty or negative counts included."""
    rng = random.Random(8)
    tokens = ["tax", "grain", "wine", "oil", "leg:grain", "leg:oil", "gems"]
    for _ in range(20000):
        res = {t: rng.choice([-1, 0, 1, 1, 2, 3]) for t in rng.sample(tokens, rng.randrange(0, 7))}
        paid = [rng.choice(tokens) for _ in range(rng.randrange(0, 4))]
        need = rng.randrange(0, 6)
        expected = []
        for tok in sorted(res):
            left = dict(res)
            left[tok] -= 1
            if P.can_finish([*paid, tok], left, need - 1, "normal", P.PLAIN):
                expected.append(tok)
        assert P.next_tokens(paid, res, need, "normal", P.PLAIN) == expected


def finishes_by_enumeration(paid: list[str], left: dict[str, int], need: int, allow: P.Allowance) -> bool:
    """N0.8: some ``need`` tokens of ``left`` complete ``paid`` into a valid payment, every
    choice of tokens tried."""
    if need < 0:
        return False
    pile = [tok for tok, k in left.items() for _ in range(max(k, 0))]
    picks = {tuple(sorted(c)) for c in itertools.combinations(pile, need)}
    return any(P.complete_ok([*paid, *pick], "normal", allow) for pick in picks)


@pytest.mark.parametrize(
    "allow",
    [
        P.PLAIN,
        P.Allowance("one_pair", None, None),
        P.Allowance("any", None, 2),
        P.Allowance(None, "one_token", None),
        P.Allowance(None, "any_mix", None),
        P.Allowance("one_pair", "one_token", None),
        P.Allowance("any", "any_mix", None),
    ],
)
def test_can_finish_matches_every_choice_of_tokens_N0_8_3(allow: P.Allowance) -> None:
    """Whether a payment can still be completed (worked out by counts, with the goods and
    taxes still due in closed form) matches trying every choice of the tokens left, under each
    reading of Hannibal and Cleopatra (N0.8.1, N0.8.3, R28)."""
    rng = random.Random(repr(allow))
    tokens = ["tax", "grain", "wine", "oil", "leg:grain", "gems"]
    for _ in range(1500):
        left = {t: rng.randrange(0, 3) for t in rng.sample(tokens, rng.randrange(0, 6))}
        paid = [rng.choice(tokens) for _ in range(rng.randrange(0, 3))]
        need = rng.randrange(0, 5)
        assert P.can_finish(paid, left, need, "normal", allow) == finishes_by_enumeration(
            paid, left, need, allow
        )
