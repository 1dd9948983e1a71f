"""The heuristic bot's keep-or-pass decision (D1, E3.4): what a People card is worth, and to whom.

A card's worth for a holder is estimated from the map as it stands: a quick greedy
expansion of the People's first round from its start area (empty areas cost one tribe, an
opponent's area the tribes its capture is expected to cost with the real odds, the holder's
own Peoples are never attacked), scored like E14 (double-value and bonus areas), carried over
the Epochs it will still score, plus its later reinforcements and growth. What the expansion
takes from other players' Peoples (and, through displacement at the start area, from the
holder's own) is damage to them.

The decision compares every legal option by the bot's utility, its own VP minus its
opponents' (the strongest opponent counting most, :attr:`Picture.weights`): the drawn card
goes to its keeper or receiver, and every other player still without a card is expected to
get an average unseen card (a little below average for the bot itself when others will choose
what to pass to it). So a good card is kept, and a weak one is passed to the strongest
opponent; a card the bot must pass goes where it helps opponents least.
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mesopotamia_epochs.bots_model import Picture, bits, capture_of
from ziggurat.games.mesopotamia_epochs.bots_view import remembered
from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT


def card_worth(pic: Picture, x: int, holder: int) -> tuple[float, list[float]]:
    """(VP People ``x`` should bring ``holder``, VP it should cost each seat) from now on."""
    known = pic.worths
    if known is None:  # this board's answers, found once per Picture
        board = pic.board_key()
        known = _WORTHS.get(board)
        if known is None:
            if len(_WORTHS) >= _WORTH_LIMIT:
                _WORTHS.clear()
            known = _WORTHS[board] = {}
        pic.worths = known
    key = (pic.judgement.token, x, holder)
    hit = known.get(key)
    if hit is None:
        worth, damage = _card_worth(pic, x, holder)
        hit = known[key] = (worth, tuple(damage))
    return hit[0], list(hit[1])


_WORTH_LIMIT = 2_000
_WORTHS: dict[tuple[Any, ...], dict[tuple[int, int, int], tuple[float, tuple[float, ...]]]] = remembered({})
""":func:`card_worth` answers per board (:meth:`Picture.board_key`: all they read), then per
judgement, People and holder: the seats' keep-or-pass decisions of one allocation ask the
same ones."""


def _card_worth(pic: Picture, x: int, holder: int) -> tuple[float, list[float]]:
    m = pic.map
    peoples = pic.peoples
    rules = pic.rules
    damage = [0.0] * pic.n
    rounds_left = pic.epochs - pic.epoch  # later Epochs it scores in, after its first round
    judgement = pic.judgement
    keep_rate, reinforcement_vp = judgement.keep_per_epoch, judgement.reinforcement_vp
    later = sum(judgement.future_keep**j for j in range(1, rounds_left + 1))

    def lost(a: int) -> None:
        q = pic.occ[a]
        if q >= 0 and pic.owner[q] >= 0:
            damage[pic.owner[q]] += pic.value(q, a) * ((1.0 if pic.acts_later(q) else 0.0) + later)

    start = peoples.start[x]
    if peoples.sea_start[x]:  # E7.5: lands where it hurts an opponent most, else on its best coast
        coasts = bits(m.coastal_mask)
        start = max(coasts, key=lambda a: (_landing_gain(pic, x, a, holder), -a))
    taken = 1 << start
    lost(start)
    pool = float(peoples.initial[x] - 1)
    values = pic.values[x]
    own = float(values[start])
    sea = peoples.seafaring[x] or peoples.sea_start[x]
    bonus = rules.military_bonus if peoples.military[x] else 0
    occ, owner, cnt, adj, difficult_into = pic.occ, pic.owner, pic.cnt, m.adj_mask, m.difficult_into
    urb = peoples.urbanisation
    near = adj[start]  # the areas next to those taken
    while pool >= 0.5:
        reach = near | m.coastal_mask if sea and taken & m.coastal_mask else near
        reach &= ~m.desert_mask & ~taken
        best, best_a, best_cost = 0.0, -1, 0.0
        for a in bits(reach):
            q = occ[a]
            gain = float(values[a])
            if q < 0:
                cost = 1.0
            elif owner[q] == holder:
                continue
            else:
                src = taken & adj[a]
                dice = 2 if src and not src & ~difficult_into[a] and not (sea and m.coastal[a]) else 1
                chance, cost = capture_of(rules.die_sides, bonus, dice, urb[x], urb[q], cnt[a], 8)
                gain = chance * (gain + 0.5 * pic.values[q][a] * (1 + later))
            if cost <= pool + 0.5 and gain / cost > best:
                best, best_a, best_cost = gain / cost, a, cost
        if best_a < 0:
            break
        if occ[best_a] >= 0:
            lost(best_a)
        own += values[best_a]
        taken |= 1 << best_a
        near |= adj[best_a]
        pool -= best_cost
    areas = taken.bit_count()
    worth = own * (1.0 + sum(keep_rate**j for j in range(1, rounds_left + 1)))
    for e, r in peoples.reinforcements[x].items():
        if e > pic.epoch:
            worth += r * reinforcement_vp * (pic.epochs - e + 1)
    if rounds_left:
        growth = sum(rules.growth(x, max(1, round(areas * keep_rate**j))) for j in range(1, rounds_left + 1))
        worth += growth * reinforcement_vp * 1.5
    if peoples.urbanisation[x]:
        worth *= 1.05
    return worth, damage


def _landing_gain(pic: Picture, x: int, a: int, holder: int) -> float:
    q = pic.occ[a]
    gain = float(pic.value(x, a))
    if q >= 0 and pic.owner[q] >= 0:
        gain += pic.value(q, a) * (-1.0 if pic.owner[q] == holder else 1.0)
    return gain


def utility_of(pic: Picture, x: int, holder: int) -> float:
    """How much giving People ``x`` to ``holder`` is worth to the bot's seat."""
    worth, damage = card_worth(pic, x, holder)
    me = pic.seat
    w = pic.weights
    u = worth if holder == me else -w[holder] * worth
    for s, d in enumerate(damage):  # the holder's own only by displacement at the start
        u += -d if s == me else w[s] * d
    return u


def keep_or_pass(pic: Picture, drawn: int, legal: list[str]) -> str:
    """D1: the legal keep or pass of the drawn card (People ``drawn``) with the best utility
    (see the module docstring)."""
    peoples = pic.peoples
    epoch_cards = peoples.epoch_cards[pic.epoch]
    seen: set[int] = set()
    has_card: set[int] = set()
    for s, hand in enumerate(pic.facts.cards):
        for epoch, p in hand:
            if epoch == pic.epoch:
                has_card.add(s)
            if p >= 0:
                seen.add(p)
    others = [p for p in epoch_cards if p != drawn and p not in seen]
    cardless = [s for s in range(pic.n) if s not in has_card]

    def expected(holder: int) -> float:
        if not others:
            return 0.0
        vals = [utility_of(pic, y, holder) for y in others]
        mean = sum(vals) / len(vals)
        if holder == pic.seat and len(cardless) > 2:
            mean -= pic.judgement.pessimism * (mean - min(vals))  # others choose what they pass us
        return mean

    base = {s: expected(s) for s in cardless}
    best, best_u = legal[0], float("-inf")
    for action in legal:
        to = pic.seat if action == "keep" else SYMBOL_SEAT[action.split(" ", 1)[1]]
        u = utility_of(pic, drawn, to) + sum(v for s, v in base.items() if s != to)
        if u > best_u + 1e-9:
            best, best_u = action, u
    return best
