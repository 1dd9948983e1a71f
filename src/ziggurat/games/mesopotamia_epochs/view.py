"""What each seat may see (rules spec §6), determinization, and record redaction.

A view is the position (see :mod:`.position`) with every card identity the viewer may not
know set to ``null``: the undrawn deck, set-aside cards until their Epoch ends (R42), a card
just drawn by someone else (E3.3), and dealt cards the viewer has not seen until they are
face up (E1.5, E3.5, E3.7). The map, VP, draw order, every keep or pass with its receiver,
pools and dice are public (§6). Spectators (``seat=None``) see only public information.

``sample_state`` fills the blanks at random, consistently with the view: within each Epoch
the unseen identities are dealt over the unseen slots, except that a card whose People would
already have had its round this Epoch must be one of the set-aside cards (E3.7).
"""

from __future__ import annotations

import random
from typing import Any

from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT, SYMBOLS
from ziggurat.games.mesopotamia_epochs.position import from_position, to_position
from ziggurat.games.mesopotamia_epochs.state import EpochsState

Event = tuple[int, str, bool, int]


def view(s: EpochsState, seat: int | None) -> dict[str, Any]:
    pos = to_position(s)
    redact_position(pos, seat)
    pos["viewer"] = None if seat is None else SYMBOLS[seat]
    who = s.current_player()
    pos["to_move"] = "chance" if who == -1 else None if who < 0 else SYMBOLS[who]
    return pos


def redact_position(pos: dict[str, Any], seat: int | None) -> None:
    """Blank every card identity ``seat`` may not know (§6)."""
    me = None if seat is None else SYMBOLS[seat]
    for pl in pos["players"]:
        for card in pl["cards"]:
            if not card["public"] and me not in card["known_by"]:
                card["people"] = None
    for card in pos["set_aside"]:
        if not card["public"]:
            card["people"] = None
    pos["deck"] = None
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep":
        drawer = pos["draw_order"][pos["draw_index"]]
        if drawer != me:
            pend[1] = None


def sample_state(game: Any, v: dict[str, Any], seat: int, rng: random.Random) -> EpochsState:
    """A full state that ``seat`` cannot tell apart from the truth, given its view ``v``."""
    peoples = game.rules.peoples
    pos = _deep_copy({k: val for k, val in v.items() if k not in ("viewer", "to_move")})
    epoch = pos["epoch"]
    # every slot whose card is blank, by Epoch: (slot, kind) where kind says if it may be held
    slots: dict[int, list[tuple[dict[str, Any] | list[Any] | None, str]]] = {}
    seen: set[str] = set()
    for pl in pos["players"]:
        for card in pl["cards"]:
            if card["people"] is None:
                slots.setdefault(card["epoch"], []).append((card, "held"))
            else:
                seen.add(card["people"])
    for card in pos["set_aside"]:
        if card["people"] is None:
            slots.setdefault(card["epoch"], []).append((card, "aside"))
        else:
            seen.add(card["people"])
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep":
        if pend[1] is None:
            slots.setdefault(epoch, []).append((pend, "drawn"))
        else:
            seen.add(pend[1])
    for _ in range(pos["deck_size"]):
        slots.setdefault(epoch, []).append((None, "deck"))
    deck: list[str] = []
    rnd = pos["round"]
    for e, todo in slots.items():
        unseen = [peoples.ids[p] for p in peoples.epoch_cards[e] if peoples.ids[p] not in seen]
        if len(unseen) != len(todo):
            raise ValueError(
                f"view is inconsistent: {len(todo)} unseen cards of Epoch {e}, {len(unseen)} unknown"
            )
        rng.shuffle(unseen)
        # E3.7: a card held now whose round already passed this Epoch would be face up, so
        # such a card can only be one of the set-aside cards
        passed = []
        if e == epoch and rnd is not None and pos["phase"] == "strategy":
            passed = [pid for pid in unseen if peoples.order(peoples.index[pid], e) < rnd["order"]]
        free = [pid for pid in unseen if pid not in passed]
        aside = [i for i, (_, kind) in enumerate(todo) if kind == "aside"]
        rng.shuffle(aside)
        assignment: dict[int, str] = {}
        for i, pid in zip(aside, passed, strict=False):
            assignment[i] = pid
        if len(passed) > len(aside):
            raise ValueError("view is inconsistent: too many Peoples without a round this Epoch")
        rest = [i for i in range(len(todo)) if i not in assignment]
        for i, pid in zip(rest, free, strict=True):
            assignment[i] = pid
        for i, (slot, kind) in enumerate(todo):
            pid = assignment[i]
            if kind == "deck":
                deck.append(pid)
            elif kind == "drawn":
                assert isinstance(slot, list)
                slot[1] = pid
            else:
                assert isinstance(slot, dict)
                slot["people"] = pid
    pos["deck"] = sorted(deck, key=peoples.index.__getitem__)
    return from_position(game, pos)


def _deep_copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep_copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep_copy(v) for v in x]
    return x


def redact_events(events: list[Event], seat: int | None) -> list[str]:
    """Texts of ``events`` ``(actor, text, auto, seat concerned)`` as ``seat`` saw them happen:
    the card of a deal or a draw is shown only to the seat that received or drew it (E1.5, E3.3)."""
    out = []
    for _who, text, _auto, concerned in events:
        kind, _, rest = text.partition(" ")
        if kind == "deal":
            sym = rest.split(" ", 1)[0]
            text = text if seat is not None and SYMBOL_SEAT.get(sym) == seat else f"deal {sym} ?"
        elif kind == "draw" and (seat is None or concerned != seat):
            text = "draw ?"
        out.append(text)
    return out


__all__ = ["view", "sample_state", "redact_events", "redact_position"]
