"""Dealing People cards: the Epoch 1 deal (E1.5, C1) and the Allocation segment (E3, C2, D1).

The deck is kept as the set of undrawn cards: each deal or draw is a chance event uniform
over them, which has the distribution of a shuffled deck (C1, C2) and leaves nothing to hide
but the identities themselves. Knowledge of each card is tracked per seat (``known``):

- Epoch 1: each player sees only the card dealt to them (E1.5);
- Epochs 2-5: the drawer sees the card they draw (E3.3); a passed card stays unseen by its
  receiver until the last draw (E3.5), while the passer keeps knowing it;
- a card is public from its People's first round (E3.7, R42; variant: when the deal ends);
- undrawn cards are set aside unseen (E3.6, R7) and become public when their Epoch ends.
"""

from __future__ import annotations

from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.games.mesopotamia_epochs.state import EpochsState
from ziggurat.games.mesopotamia_epochs.words import seat_word


def start_epoch(s: EpochsState) -> None:
    """E2.1, E3.1, E3.2: the new Epoch's deck, and the draw order (Epochs 2-5)."""
    peoples = s.rules.peoples
    s.phase = "allocation"
    s.deck = sorted(peoples.epoch_cards[s.epoch])
    s.received = [-1] * s.n
    s.draw_idx = 0
    if s.epoch == 1:
        s.draw_order = []
        s.pending = ("deal", 0)
    else:
        s.draw_order = draw_order(s)
        s.pending = ("draw",)


def draw_order(s: EpochsState) -> list[int]:
    """E3.2, R8: ascending VP; a tie goes to the lower base order number of the card the
    player received in the previous Epoch (base numbers are unique, so the order is strict)."""
    peoples = s.rules.peoples
    previous = {s.owner[p]: p for p in peoples.epoch_cards[s.epoch - 1] if s.owner[p] >= 0}
    return sorted(range(s.n), key=lambda q: (s.vp[q], peoples.base_order[previous[q]]))


def drawer(s: EpochsState) -> int:
    return s.draw_order[s.draw_idx]


def deal_outcomes(s: EpochsState) -> list[tuple[str, float]]:
    """C1: the card dealt to the next seat, uniform over the undealt Epoch 1 cards."""
    seat = s.pending[1] if s.pending else 0
    ids = s.rules.peoples.ids
    p = 1.0 / len(s.deck)
    return [(f"deal {SYMBOLS[seat]} {ids[c]}", p) for c in s.deck]


def draw_outcomes(s: EpochsState) -> list[tuple[str, float]]:
    """C2: the card drawn, uniform over the undrawn cards of this Epoch."""
    ids = s.rules.peoples.ids
    p = 1.0 / len(s.deck)
    return [(f"draw {ids[c]}", p) for c in s.deck]


def keep_or_pass(s: EpochsState) -> list[str]:
    """D1 (E3.4, R9): keep if the drawer has no card yet; pass to any other player without one."""
    me = drawer(s)
    out = ["keep"] if s.received[me] < 0 else []
    out.extend(f"pass {SYMBOLS[q]}" for q in range(s.n) if q != me and s.received[q] < 0)
    return out


def keep_refusal(s: EpochsState, d: tuple) -> str:  # type: ignore[type-arg]
    """Why ``d`` is not the drawer's keep or pass (D1); a drawer who already holds a card this
    Epoch is told to pass (E3.4, R9), never to keep."""
    me = drawer(s)
    keep = "yes" if s.received[me] < 0 else "no"
    if d[0] == "keep":
        return message("epochs.refusal.mustPass", seat=seat_word(me))
    if d[0] == "pass":
        to = d[1]
        if to >= s.n:
            return message("epochs.refusal.noSuchPlayer", seat=seat_word(to), players=s.n)
        if to == me:
            return message("epochs.refusal.passToSelf", keep=keep)
        return message("epochs.refusal.hasCard", seat=seat_word(to))
    return message("epochs.refusal.keepOrPass", seat=seat_word(me), keep=keep)


def apply_deal(s: EpochsState, seat: int, card: int) -> None:
    """E1.5: the card goes face down to ``seat``, who may look at it; the rest are set aside."""
    s.deck.remove(card)
    s.owner[card] = seat
    s.known[card] = 1 << seat
    s.received[seat] = card
    if seat + 1 < s.n:
        s.pending = ("deal", seat + 1)
    else:
        end_deal(s)


def apply_draw(s: EpochsState, card: int) -> None:
    """E3.3: the drawer takes the card and looks at it privately."""
    s.deck.remove(card)
    s.known[card] |= 1 << drawer(s)
    s.pending = ("keep", card)


def apply_keep(s: EpochsState, to: int) -> None:
    """E3.4: the drawn card goes to ``to`` (the drawer when kept), face down; E3.5: a receiver
    does not learn it yet."""
    assert s.pending is not None
    card = s.pending[1]
    s.owner[card] = to
    s.received[to] = card
    s.draw_idx += 1
    if s.draw_idx < s.n:
        s.pending = ("draw",)
    else:
        end_deal(s)


def end_deal(s: EpochsState) -> None:
    """E3.6, E3.7: undrawn cards are set aside unseen; every holder may now look at their card;
    with ``card_reveal: after_allocation`` every dealt card is turned face up."""
    for card in s.deck:
        s.set_aside.append(card)
    s.set_aside.sort()
    s.deck = []
    for card in s.received:
        s.known[card] |= 1 << s.owner[card]
        if s.rules.reveal_after_allocation:
            s.public[card] = True
    s.pending = None
    s.phase = "strategy"
    from ziggurat.games.mesopotamia_epochs.rounds import start_strategy

    start_strategy(s)
