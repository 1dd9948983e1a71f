"""Paying (N0.8): which tokens may still be added to a payment under way.

A payment of N tokens is built one token at a time (``pay <token>``); a token is legal when the
payment can still be completed from what remains. Tokens: goods ids, ``tax`` and
``leg:<good>`` for a legendary good (N0.8.2: it is a good of its printed type).
"""

from __future__ import annotations

from collections import Counter


def good_of(token: str) -> str | None:
    if token == "tax":
        return None
    return token[4:] if token.startswith("leg:") else token


def complete_ok(paid: list[str], kind: str, cleo: bool, hanni: bool, limit: int | None) -> bool:
    """A finished payment is valid (N0.8.1, N0.8.3, N0.8.4)."""
    if kind.startswith("alt:"):
        return len(paid) == 1 and (paid[0] == "tax" or good_of(paid[0]) == kind[4:])
    goods = [g for g in (good_of(t) for t in paid) if g is not None]
    taxes = len(paid) - len(goods)
    distinct = len(set(goods)) == len(goods)
    if cleo and hanni:
        return True
    if cleo:
        return distinct
    if taxes and goods:
        return False
    if hanni:
        return limit is None or max(Counter(goods).values(), default=0) <= limit
    return distinct


def can_finish(
    paid: list[str], left: dict[str, int], need: int, kind: str, cleo: bool, hanni: bool, limit: int | None
) -> bool:
    """Can ``need`` more tokens from ``left`` complete ``paid`` into a valid payment?"""
    if kind.startswith("alt:"):
        if need == 0:
            return complete_ok(paid, kind, cleo, hanni, limit)
        return not paid and any(left.get(t, 0) for t in left if t == "tax" or good_of(t) == kind[4:])
    goods = [g for g in (good_of(t) for t in paid) if g is not None]
    taxes = len(paid) - len(goods)
    if not complete_ok(paid, "normal", cleo, hanni, limit) and not (cleo or hanni):
        # partial normal payments must already be pure and distinct
        return False
    have_tax = left.get("tax", 0)
    types_left = {good_of(t) for t, c in left.items() if c > 0 and t != "tax"}
    n_goods_left = sum(c for t, c in left.items() if t != "tax")
    if cleo and hanni:
        return sum(left.values()) >= need
    if cleo:
        if len(set(goods)) != len(goods):
            return False
        return have_tax + len(types_left - set(goods)) >= need
    if hanni:
        if taxes and goods:
            return False
        if limit is not None and max(Counter(goods).values(), default=0) > limit:
            return False  # N0.8.3: the tokens already paid break the identical-goods limit
        if taxes:
            return have_tax >= need
        if limit is None:
            room = n_goods_left
        else:
            have = Counter(goods)
            room = 0
            for t, c in left.items():
                g = good_of(t)
                if g is None:
                    continue
                take = max(0, min(c, limit - have[g]))
                have[g] += take
                room += take
        if goods:
            return room >= need
        return room >= need or have_tax >= need
    if taxes:
        return have_tax >= need
    fresh = len(types_left - set(goods))
    if goods:
        return fresh >= need
    return fresh >= need or have_tax >= need
