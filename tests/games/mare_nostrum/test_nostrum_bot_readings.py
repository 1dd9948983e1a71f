"""The heuristic bot and the evaluator count what a screen pays by the readings in force
(N0.8.1, N0.8.3, R28), the hero and wonder cost in force (2.8, R25) and the Pyramids' own
rule (2.9): Hannibal's one pair or any repeats, Cleopatra's one token or any mix, neither
for the Pyramids unless ``hero_payments_for_pyramids``."""

from __future__ import annotations

import random
from typing import Any

from nostrum_helpers import CARTHAGE, EGYPT, buy_turn, load, new, pos

from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import evaluate as E
from ziggurat.games.mare_nostrum.bots import HeuristicBot
from ziggurat.games.mare_nostrum.payment import PLAIN, Allowance

WINNING = ["hercules", "circe", "gilgamesh"]  # with the starting hero: one tile short of five


def _choice(state: Any, seat: int) -> str:
    return HeuristicBot(state.game, seat).choose(state.view(seat), state.legal_actions(), random.Random(0))


def _drain(state: Any, seat: int) -> float:
    bot = HeuristicBot(state.game, seat)
    d = dict(state.view(seat))
    d["opts"] = state.game.opts
    return bot._tax_drain(d, 3)


def _hannibal_buy_turn(reading: str) -> Any:
    """Carthage (Hannibal) holds three sheep and four taxes; Rome's legions stand next to
    Libya, so the military plan wants a legion there."""
    s = new(hannibal_reading=reading)
    p = pos(s)
    p["res"][CARTHAGE] = {"sheep": 3, "tax": 4}
    p["legions"]["garamantia"] = [3, 0, 0]
    return buy_turn(load(s, p), CARTHAGE)


def test_three_identical_goods_pay_only_under_hannibal_any_N0_8_3_R28() -> None:
    """Three sheep make one payment of 3 under ``hannibal_reading: "any"``, not under
    ``"one_pair"``: the budget of purchases of 3, the largest payment and the taxes a legion
    eats into follow the reading."""
    broad, narrow = _hannibal_buy_turn("any"), _hannibal_buy_turn("one_pair")
    assert M.budget(broad.d, CARTHAGE) == 2  # three sheep, then three taxes
    assert M.budget(narrow.d, CARTHAGE) == 1  # three taxes only
    assert M.payments({"sheep": 3}, 3, Allowance("any")) == 1
    assert M.payments({"sheep": 3}, 3, Allowance("one_pair")) == 0
    assert E.largest_payment({"sheep": 3}, Allowance("any")) == 3
    assert E.largest_payment({"sheep": 3}, Allowance("one_pair")) == 2
    assert _drain(broad, CARTHAGE) == 0.0  # the sheep pay; the two taxes kept stay (N3.13)
    assert _drain(narrow, CARTHAGE) == 30.0  # only taxes pay, two of the four kept ones


def test_hannibal_reading_decides_the_bots_purchase_N0_8_3() -> None:
    """With the sheep paying, the threatened Libya gets its legion; when only taxes can pay
    it (one pair at most), the bot buys an influence marker instead, which it does not judge
    by the taxes kept."""
    broad, narrow = _hannibal_buy_turn("any"), _hannibal_buy_turn("one_pair")
    assert "buy legion libya" in broad.legal_actions() and "buy legion libya" in narrow.legal_actions()
    assert _choice(broad, CARTHAGE) == "buy legion libya"
    assert _choice(narrow, CARTHAGE) == "buy marker sicilia"


def _winning_tile_position(**options: Any) -> dict[str, Any]:
    """Carthage one tile short of ``tiles_to_win`` in its buy turn, a tile face up (the
    position the engine holds, with its options)."""
    s = new(**options)
    p = pos(s)
    p["tiles"][CARTHAGE] = ["hannibal", *WINNING]
    p["res"][CARTHAGE] = {"sheep": 3, "wine": 2, "oil": 2}
    d: dict[str, Any] = buy_turn(load(s, p), CARTHAGE).d
    return d


def test_winning_tile_now_under_hannibal_readings_N0_8_3_R25() -> None:
    """Seven goods of three types pay a round-1 tile (7, R25 by round) only under
    ``hannibal_reading: "any"``; in round 5 (9) or by tiles owned (10 for four) they do not;
    the evaluator's chances follow."""
    broad = _winning_tile_position(hannibal_reading="any")
    narrow = _winning_tile_position()
    assert E.payable(broad, CARTHAGE) == 7 and E.payable(narrow, CARTHAGE) == 4
    now = E.FEATURES.index("winning_tile_now")
    assert E.progress(broad)[CARTHAGE][now] == 1.0
    assert E.progress(narrow)[CARTHAGE][now] == 0.0
    assert E.points(broad)[CARTHAGE] > E.points(narrow)[CARTHAGE]
    assert E.progress(broad | {"round": 5})[CARTHAGE][now] == 0.0
    by_tiles = _winning_tile_position(hannibal_reading="any", hero_cost_mode="by_tiles_owned")
    assert E.progress(by_tiles)[CARTHAGE][now] == 0.0


def _egypt(reading: str, res: dict[str, int], tiles: list[str] | None = None) -> Any:
    s = new(4, cleopatra_reading=reading)
    p = pos(s)
    p["res"][EGYPT] = res
    if tiles is not None:
        p["tiles"][EGYPT] = tiles
    return buy_turn(load(s, p), EGYPT)


def test_cleopatra_mixes_two_taxes_only_under_any_mix_N0_8_3_R28() -> None:
    """Five goods and two taxes make one payment of 7 under ``cleopatra_reading: "any_mix"``;
    under ``"one_token"`` one tax joins the goods (6). Egypt one tile short of winning buys
    the tile only where the payment is whole, and the evaluator says so."""
    goods = {"grain": 1, "papyrus": 1, "wine": 1, "oil": 1, "metal": 1, "tax": 2}
    broad = _egypt("any_mix", goods, ["cleopatra", *WINNING])
    narrow = _egypt("one_token", goods, ["cleopatra", *WINNING])
    assert E.payable(broad.d, EGYPT) == 7 and E.payable(narrow.d, EGYPT) == 6
    now = E.FEATURES.index("winning_tile_now")
    assert E.progress(broad.d)[EGYPT][now] == 1.0 and E.progress(narrow.d)[EGYPT][now] == 0.0
    assert _choice(broad, EGYPT).startswith("buy tile ")
    assert not _choice(narrow, EGYPT).startswith("buy tile ")
    assert not any(a.startswith("buy tile ") for a in narrow.legal_actions())


def test_cleopatra_purchases_of_three_under_both_readings_N0_8_3() -> None:
    """A payment of 3 holds at most one token of the other kind under either reading (two
    goods and a tax, a good and two taxes): the bot's counts agree for both, goods never
    repeat without Hannibal, and the two taxes kept at the end of the turn (N3.13) count."""
    for reading in ("one_token", "any_mix"):
        allow = Allowance(None, reading)
        assert M.payments({"grain": 1, "papyrus": 1, "tax": 4}, 3, allow) == 2
        assert M.payments({"grain": 2, "tax": 1}, 3, allow) == 0  # grain cannot repeat
        assert E.largest_payment({"grain": 2, "tax": 1}, allow) == 2
        assert M.budget(_egypt(reading, {"grain": 1, "papyrus": 1, "tax": 4}).d, EGYPT) == 2
        assert _drain(_egypt(reading, {"grain": 1, "papyrus": 1, "tax": 3}), EGYPT) == 0.0
        assert _drain(_egypt(reading, {"grain": 1, "tax": 3}), EGYPT) == 30.0
    assert E.largest_payment({"grain": 1, "papyrus": 1, "tax": 4}, Allowance(None, "any_mix")) == 6
    assert E.largest_payment({"grain": 1, "papyrus": 1, "tax": 4}, Allowance(None, "one_token")) == 5


def _pyramids(**options: Any) -> Any:
    """Carthage (Hannibal, Cleopatra copied) in its buy turn with ten goods of ten types,
    two more sheep and two taxes."""
    s = new(**options)
    p = pos(s)
    p["res"][CARTHAGE] = {g: 1 for g in D.GOODS[:10]} | {"sheep": 3, "tax": 2}
    p["copy"][CARTHAGE] = "cleopatra"
    p["tiles"][0] = ["caesar", "cleopatra"]
    return buy_turn(load(s, p), CARTHAGE)


def test_pyramids_payment_takes_no_hero_unless_the_option_says_2_9() -> None:
    """The Pyramids (12) take neither Hannibal nor Cleopatra by default (2.9), under either
    reading: ten goods of ten types pay ten, the evaluator's Pyramids features stay short and
    the bot buys no Pyramids. With ``hero_payments_for_pyramids`` the readings count: one pair
    and one tax (12) or every sheep and both taxes (14), and the bot buys them."""
    share, now = E.FEATURES.index("pyramids"), E.FEATURES.index("pyramids_now")
    for readings in ({"hannibal_reading": "one_pair", "cleopatra_reading": "one_token"},
                     {"hannibal_reading": "any", "cleopatra_reading": "any_mix"}):  # fmt: skip
        plain = _pyramids(**readings)
        assert E.payable(plain.d, CARTHAGE, "pyramids") == 10
        assert E.progress(plain.d)[CARTHAGE][share] == 10 / 12
        assert E.progress(plain.d)[CARTHAGE][now] == 0.0
        assert "buy pyramids" not in plain.legal_actions() and _choice(plain, CARTHAGE) != "buy pyramids"
        heroes = _pyramids(hero_payments_for_pyramids=True, **readings)
        assert E.progress(heroes.d)[CARTHAGE][share] == 1.0 and E.progress(heroes.d)[CARTHAGE][now] == 1.0
        assert E.points(heroes.d)[CARTHAGE] > E.points(plain.d)[CARTHAGE]
        assert _choice(heroes, CARTHAGE) == "buy pyramids"
    assert E.payable(_pyramids(hero_payments_for_pyramids=True).d, CARTHAGE, "pyramids") == 12
    broad = _pyramids(hero_payments_for_pyramids=True, hannibal_reading="any", cleopatra_reading="any_mix")
    assert E.payable(broad.d, CARTHAGE, "pyramids") == 14
    assert E.payable(broad.d, CARTHAGE) == 14  # any other purchase takes both heroes
    assert E.payable(_pyramids().d, CARTHAGE) == 12  # one pair and one tax
    assert E.largest_payment({"sheep": 3, "tax": 2}, PLAIN) == 2


def test_payments_without_a_hero_count_distinct_goods_and_taxes_apart_N0_8_1() -> None:
    """Without a hero, payments of 3 are goods of three types or three taxes (N0.8.1): two
    each of three types make two payments, as many taxes as goods never mix, and the count
    is that of paying token by token the way the heroes' counts are made."""
    assert M.payments({"grain": 2, "wine": 2, "oil": 2}, 3, PLAIN) == 2
    assert M.payments({"grain": 5, "wine": 1, "oil": 1}, 3, PLAIN) == 1
    assert M.payments({"grain": 1, "wine": 1, "tax": 4}, 3, PLAIN) == 1
    assert M.payments({"grain": 3, "wine": 3, "oil": 2, "metal": 1, "leg:gold": 1, "tax": 7}, 3, PLAIN) == 5
    for tokens in (
        {"grain": 2, "wine": 2, "oil": 2},
        {"grain": 4, "wine": 3, "oil": 3, "tax": 6},
        {"grain": 3, "wine": 3, "oil": 2, "metal": 1, "leg:gold": 1, "tax": 7},
    ):
        slow = Allowance("any", None, 1)  # no type twice, no mix: the plain rule, paid token by token
        assert M.payments(tokens, 3, slow) == M.payments(tokens, 3, PLAIN)
