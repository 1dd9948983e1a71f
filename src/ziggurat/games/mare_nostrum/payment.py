"""Paying (N0.8): which tokens may still be added to a payment under way.

A payment of N tokens is built one token at a time (``pay <token>``); a token is legal when the
payment can still be completed from what remains. Tokens: goods ids, ``tax`` and
``leg:<good>`` for a legendary good (N0.8.2: it is a good of its printed type).

What a payment may hold is a :class:`Allowance` (N0.8.1, N0.8.3, R28): without a hero, N goods
of N different types or N taxes. Hannibal lets goods repeat a type (``one_pair``: one type
twice, no other repeat; ``any``: any repeats up to ``hannibal_identical_goods_limit``);
Cleopatra lets goods and taxes mix (``one_token``: one token of the other kind in a payment
otherwise all goods or all taxes; ``any_mix``: any split). With both (Castor & Pollux), both
allowances hold at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import NamedTuple


class Allowance(NamedTuple):
    """What a payer's heroes allow (N0.8.3): ``hannibal`` and ``cleopatra`` are the readings
    in force (``None`` without the ability), ``limit`` Hannibal's cap on one type (``any``)."""

    hannibal: str | None = None
    cleopatra: str | None = None
    limit: int | None = None


PLAIN = Allowance()


def good_of(token: str) -> str | None:
    if token == "tax":
        return None
    return token[4:] if token.startswith("leg:") else token


def goods_ok(counts: Mapping[str, int], allow: Allowance) -> bool:
    """The goods of a payment repeat types only as Hannibal allows (N0.8.1, N0.8.3)."""
    if allow.hannibal is None:
        return all(c == 1 for c in counts.values())
    if allow.hannibal == "one_pair":
        return all(c <= 2 for c in counts.values()) and sum(1 for c in counts.values() if c == 2) <= 1
    return allow.limit is None or max(counts.values(), default=0) <= allow.limit


def mix_ok(goods: int, taxes: int, allow: Allowance) -> bool:
    """Goods and taxes mix only as Cleopatra allows (N0.8.1, N0.8.3)."""
    if allow.cleopatra is None:
        return goods == 0 or taxes == 0
    if allow.cleopatra == "one_token":
        return min(goods, taxes) <= 1
    return True


def complete_ok(paid: list[str], kind: str, allow: Allowance) -> bool:
    """A finished payment is valid (N0.8.1, N0.8.3, N0.8.4)."""
    if kind.startswith("alt:"):
        return len(paid) == 1 and (paid[0] == "tax" or good_of(paid[0]) == kind[4:])
    goods = Counter(g for g in (good_of(t) for t in paid) if g is not None)
    taxes = len(paid) - sum(goods.values())
    return goods_ok(goods, allow) and mix_ok(sum(goods.values()), taxes, allow)


def _goods_of(tokens: list[str]) -> dict[str, int]:
    """The goods among ``tokens`` by type (a plain dict: cheaper than a ``Counter`` here)."""
    have: dict[str, int] = {}
    for t in tokens:
        if t != "tax":
            g = t[4:] if t[:4] == "leg:" else t
            have[g] = have.get(g, 0) + 1
    return have


def _available(left: dict[str, int]) -> dict[str, int]:
    """The goods in ``left`` by type, types with none left absent."""
    avail: dict[str, int] = {}
    for t, c in left.items():
        if c > 0 and t != "tax":
            g = t[4:] if t[:4] == "leg:" else t
            avail[g] = avail.get(g, 0) + c
    return avail


def _most_goods(have: Mapping[str, int], left: dict[str, int], allow: Allowance) -> int:
    """The most goods from ``left`` that can join the goods ``have`` (any fewer can too,
    since leaving a good out never breaks a rule)."""
    return _most_of(have, _available(left), allow)


def _most_of(have: Mapping[str, int], avail: dict[str, int], allow: Allowance) -> int:
    """:func:`_most_goods` from the available goods by type (:func:`_available`)."""
    hannibal = allow.hannibal
    if hannibal is None:
        return sum(1 for g in avail if g not in have)
    if hannibal == "one_pair":
        fresh = sum(1 for g in avail if g not in have)
        if any(c == 2 for c in have.values()):
            return fresh
        second = any(
            (have.get(g, 0) == 1 and c >= 1) or (have.get(g, 0) == 0 and c >= 2) for g, c in avail.items()
        )
        return fresh + (1 if second else 0)
    if allow.limit is None:
        return sum(avail.values())
    return sum(max(0, min(c, allow.limit - have.get(g, 0))) for g, c in avail.items())


def can_finish(paid: list[str], left: dict[str, int], need: int, kind: str, allow: Allowance) -> bool:
    """Can ``need`` more tokens from ``left`` complete ``paid`` into a valid payment?"""
    if kind[:4] == "alt:":
        if need == 0:
            return complete_ok(paid, kind, allow)
        return not paid and any(left.get(t, 0) for t in left if t == "tax" or good_of(t) == kind[4:])
    have = _goods_of(paid)
    if not goods_ok(have, allow):
        return False
    return _finishes(have, len(paid), _available(left), left.get("tax", 0), need, allow)


def _finishes(
    have: dict[str, int], paid: int, avail: dict[str, int], taxes_left: int, need: int, allow: Allowance
) -> bool:
    """:func:`can_finish` for a normal payment whose goods ``have`` keep to the rules."""
    goods = sum(have.values())
    taxes = paid - goods
    most = _most_of(have, avail, allow)
    # the taxes among the ``need`` tokens still due: from ``lo`` (as many goods as can be
    # added) to ``hi``; one count in that range must keep to Cleopatra's mix (mix_ok)
    lo = max(0, need - most)
    hi = min(need, taxes_left)
    if lo > hi:
        return False
    cleopatra = allow.cleopatra
    if cleopatra is None:  # all goods (no tax due and none paid) or all taxes (no good paid)
        return (taxes == 0 and lo == 0) or (goods == 0 and hi == need)
    if cleopatra == "one_token":
        # the fewer of goods and taxes is least at one end of the range (a minimum of a falling
        # and a rising count)
        return min(goods + need - lo, taxes + lo) <= 1 or min(goods + need - hi, taxes + hi) <= 1
    return True


def next_tokens(paid: list[str], res: dict[str, int], need: int, kind: str, allow: Allowance) -> list[str]:
    """The tokens of ``res`` (in name order) that may be paid next into ``paid`` when ``need``
    more are due: those after which the payment can still be completed (N0.8), that is
    ``can_finish(paid + [t], res less t, need - 1, kind, allow)``, worked out together."""
    if kind[:4] == "alt:":
        return _next_tokens(paid, res, need, kind, allow)
    if allow.cleopatra is None:
        if allow.hannibal is None:
            return _plain_next_tokens(paid, res, need, kind, allow)
        if allow.hannibal == "one_pair":
            return _pair_next_tokens(paid, res, need, kind, allow)
    elif allow.hannibal is None:
        return _mix_next_tokens(paid, res, need, kind, allow)
    if any(c <= 0 for c in res.values()):
        return _next_tokens(paid, res, need, kind, allow)
    have0 = _goods_of(paid)
    avail0 = _available(res)
    taxes_left = res.get("tax", 0)
    count = len(paid) + 1
    # the rules never look at which good a token is, only at how many of each type are paid
    # and left: goods with the same (paid, left) counts get the same answer
    answers: dict[tuple[int, int], bool] = {}
    out = []
    for tok in sorted(res):
        if tok == "tax":
            if goods_ok(have0, allow) and _finishes(have0, count, avail0, taxes_left - 1, need - 1, allow):
                out.append(tok)
            continue
        g = tok[4:] if tok[:4] == "leg:" else tok
        pair = (have0.get(g, 0), avail0[g])
        ok = answers.get(pair)
        if ok is None:
            ok = answers[pair] = _good_ok(g, have0, avail0, taxes_left, count, need, allow)
        if ok:
            out.append(tok)
    return out


def _plain_next_tokens(
    paid: list[str], res: dict[str, int], need: int, kind: str, allow: Allowance
) -> list[str]:
    """:func:`next_tokens` under N0.8.1 alone (no Hannibal, no Cleopatra), the payment of most
    turns: goods of different types, or taxes only. A good may follow when no good of its type
    is paid, no tax is, and enough other types are left for the rest; a tax when no good is
    paid and enough taxes are left. One pass over the paid tokens and one over the screen."""
    have: set[str] = set()
    for t in paid:
        if t != "tax":
            g = t[4:] if t[:4] == "leg:" else t
            if g in have:
                return []  # a type repeated: no token can follow (never in play)
            have.add(g)
    types: set[str] = set()
    for t, c in res.items():
        if c <= 0:
            return _next_tokens(paid, res, need, kind, allow)  # not a screen play leaves
        if t != "tax":
            types.add(t[4:] if t[:4] == "leg:" else t)
    goods = len(have)
    good_ok = goods == len(paid) and 1 <= need <= len(types - have)
    tax_ok = goods == 0 and 1 <= need <= res.get("tax", 0)
    if not good_ok:
        return ["tax"] if tax_ok and "tax" in res else []
    return [
        tok
        for tok in sorted(res)
        if (tax_ok if tok == "tax" else (tok[4:] if tok[:4] == "leg:" else tok) not in have)
    ]


def _mix_next_tokens(
    paid: list[str], res: dict[str, int], need: int, kind: str, allow: Allowance
) -> list[str]:
    """:func:`next_tokens` with Cleopatra and no Hannibal (N0.8.3, R28): goods of different
    types, mixed with taxes as her reading allows. Any good of a type not yet paid leaves the
    same counts behind (one good more, one fresh type fewer), so one answer serves them all;
    a tax leaves one tax more paid and one fewer left."""
    have = _goods_of(paid)
    if any(c <= 0 for c in res.values()) or not goods_ok(have, allow):
        return _next_tokens(paid, res, need, kind, allow)  # not a position play leaves
    avail = _available(res)
    goods = len(have)
    taxes = len(paid) - goods
    taxes_left = res.get("tax", 0)
    fresh = sum(1 for g in avail if g not in have)
    cleopatra = allow.cleopatra
    good_ok = fresh >= 1 and _counts_finish(goods + 1, taxes, fresh - 1, taxes_left, need - 1, cleopatra)
    tax_ok = taxes_left >= 1 and _counts_finish(goods, taxes + 1, fresh, taxes_left - 1, need - 1, cleopatra)
    out = []
    for tok in sorted(res):
        if tok == "tax":
            if tax_ok:
                out.append(tok)
        elif good_ok and (tok[4:] if tok[:4] == "leg:" else tok) not in have:
            out.append(tok)
    return out


def _counts_finish(
    goods: int, taxes: int, most: int, taxes_left: int, need: int, cleopatra: str | None
) -> bool:
    """:func:`_finishes` from counts: ``goods`` and ``taxes`` paid, at most ``most`` more goods
    and ``taxes_left`` taxes to add, ``need`` tokens due (goods of different types)."""
    lo = max(0, need - most)
    hi = min(need, taxes_left)
    if lo > hi:
        return False
    if cleopatra is None:
        return (taxes == 0 and lo == 0) or (goods == 0 and hi == need)
    if cleopatra == "one_token":
        return min(goods + need - lo, taxes + lo) <= 1 or min(goods + need - hi, taxes + hi) <= 1
    return True


def _pair_next_tokens(
    paid: list[str], res: dict[str, int], need: int, kind: str, allow: Allowance
) -> list[str]:
    """:func:`next_tokens` with Hannibal's ``one_pair`` reading and no Cleopatra (R28): goods
    of different types but one type twice, or taxes only. A good may follow when no tax is
    paid, its type is paid at most once so far and no other pair is, and the goods left can
    still make up the rest; a tax when no good is paid and enough taxes are left."""
    have = _goods_of(paid)
    if any(c <= 0 for c in res.values()) or not goods_ok(have, allow):
        return _next_tokens(paid, res, need, kind, allow)  # not a position play leaves
    avail = _available(res)
    taxes_paid = len(paid) - sum(have.values())
    tax_ok = not have and 1 <= need <= res.get("tax", 0)
    paired = 2 in have.values()
    rest = need - 1
    # goods of type g are legal, worked out once per type: after paying one, the most goods
    # still payable (_most_of) must reach the ``rest`` due
    answers: dict[str, bool] = {}
    if not taxes_paid and need >= 1:
        fresh = sum(1 for g in avail if g not in have)
        # before any pair: may a second of some type still come? (a type paid once with one
        # left, or one unpaid with two left: _most_of). Paying a first good of type g keeps
        # the answer: g then qualifies exactly when two of it were left, as it did before.
        second = 0 if paired else int(any((have.get(g, 0) == 1) or c >= 2 for g, c in avail.items()))
        for g in avail:
            h = have.get(g, 0)
            if h >= 2 or (h == 1 and paired):
                answers[g] = False
            elif h == 1:
                answers[g] = fresh >= rest  # the pair is made: no other repeat
            else:
                answers[g] = fresh - 1 + second >= rest
    out = []
    for tok in sorted(res):
        if tok == "tax":
            if tax_ok:
                out.append(tok)
        elif answers.get(tok[4:] if tok[:4] == "leg:" else tok, False):
            out.append(tok)
    return out


def _good_ok(
    g: str,
    have0: dict[str, int],
    avail0: dict[str, int],
    taxes_left: int,
    count: int,
    need: int,
    allow: Allowance,
) -> bool:
    """A token of good ``g`` may be paid next (see :func:`next_tokens`)."""
    have = dict(have0)
    have[g] = have.get(g, 0) + 1
    if not goods_ok(have, allow):
        return False
    avail = dict(avail0)  # one token of this good fewer left
    if avail[g] == 1:
        del avail[g]
    else:
        avail[g] -= 1
    return _finishes(have, count, avail, taxes_left, need - 1, allow)


def _next_tokens(paid: list[str], res: dict[str, int], need: int, kind: str, allow: Allowance) -> list[str]:
    """:func:`next_tokens` one token at a time (alternative costs, and screens with empty or
    negative counts, which play never leaves)."""
    out = []
    for tok in sorted(res):
        left = dict(res)
        left[tok] -= 1
        if can_finish([*paid, tok], left, need - 1, kind, allow):
            out.append(tok)
    return out


def most_payable(res: dict[str, int], allow: Allowance) -> int:
    """The largest number of tokens ``res`` can pay in one normal payment (N0.8.1, N0.8.3):
    ``can_finish([], res, k, "normal", allow)`` holds exactly for ``k`` up to it, since a
    payment less one token is still one (one good fewer, or one tax fewer when it has no
    goods, keeps every rule)."""
    taxes = res.get("tax", 0)
    if taxes < 0:
        return -1  # not a screen play leaves (can_finish then never holds)
    if allow.cleopatra is None and allow.hannibal in (None, "one_pair"):
        # N0.8.1 alone, most turns: one good of each type held, or the taxes; with Hannibal's
        # one pair (R28), one type held twice adds one good
        avail = _available(res)
        goods = len(avail)
        if allow.hannibal is not None and any(c >= 2 for c in avail.values()):
            goods += 1
        return max(goods, taxes)
    goods = _most_of({}, _available(res), allow)
    if allow.cleopatra is None:
        return max(goods, taxes)
    if allow.cleopatra == "one_token":
        return max(goods + min(1, taxes), taxes + min(1, goods))
    return goods + taxes
