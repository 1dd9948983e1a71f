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
from functools import lru_cache
from typing import Any

from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT, SYMBOLS
from ziggurat.games.mesopotamia_epochs.position import from_position, pending_out, round_out, to_position
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


def bot_view(s: EpochsState, seat: int | None) -> dict[str, Any]:
    """The part of :func:`view` that the heuristic bot (:class:`~.bots_model.Picture`,
    ``bots``, ``bots_cards``) reads, built straight from the state for the search's playouts
    and cut-off evaluation: ``num_players``, ``epoch``, ``phase``, ``players`` (``vp`` and
    ``cards`` with ``epoch`` and ``people``), ``set_aside`` (``epoch``, ``people``), ``areas``,
    ``round`` and ``pending``, equal to ``view(s, seat)``'s: the card identities ``seat`` may
    not know are null (§6, :func:`redact_position`). ``seat=None`` gives them as the full
    position has them, every card shown (not a spectator's view). Its containers are fresh,
    but it is not a whole view: no deck, draw order, People statistics or ``known_by``."""
    peoples = s.rules.peoples
    pids = peoples.ids
    ce = peoples.card_epoch
    m = s.rules.map
    redact = seat is not None
    mine = 0 if seat is None else 1 << seat
    players: list[dict[str, Any]] = [{"vp": v, "cards": []} for v in s.vp]
    owner, public, known = s.owner, s.public, s.known
    for p in _card_order(peoples):
        o = owner[p]
        if o >= 0:
            shown = not redact or public[p] or known[p] & mine
            players[o]["cards"].append({"epoch": ce[p], "people": pids[p] if shown else None})
    set_aside = [
        {"epoch": ce[p], "people": pids[p] if not redact or public[p] else None}
        for p in sorted(s.set_aside, key=lambda p: (ce[p], p))
    ]
    occ, cnt, ids = s.occ, s.cnt, m.ids
    rnd = round_out(s)
    pend = pending_out(s)
    if redact and pend is not None and pend[0] == "keep" and s.draw_order[s.draw_idx] != seat:
        pend[1] = None  # E3.3: only the drawer sees the card drawn
    return {
        "num_players": s.n,
        "epoch": s.epoch,
        "phase": s.phase,
        "players": players,
        "set_aside": set_aside,
        "areas": [[ids[a], pids[p], cnt[a]] for a, p in enumerate(occ) if p >= 0],
        "round": rnd,
        "pending": pend,
    }


@lru_cache(maxsize=8)
def _card_order(peoples: Any) -> tuple[int, ...]:
    """The Peoples in the order a holder's cards are listed (by Epoch, then People order)."""
    return tuple(sorted(range(peoples.size), key=lambda p: (peoples.card_epoch[p], p)))


def sample_state(game: Any, v: dict[str, Any], seat: int, rng: random.Random) -> EpochsState:
    """A full state that ``seat`` cannot tell apart from the truth, given its view ``v``."""
    peoples = game.rules.peoples
    pos = _blanks_copied(v)
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


def _blanks_copied(v: dict[str, Any]) -> dict[str, Any]:
    """The position of view ``v`` for :func:`sample_state` to fill in: fresh containers where
    it writes (the cards, the pending event, the deck), the rest shared with the view, which
    ``from_position`` only reads (the map, the Peoples' data and statistics, the areas: what
    cannot differ between the worlds sampled from one view)."""
    pos = {k: val for k, val in v.items() if k not in ("viewer", "to_move")}
    pos["players"] = [{**pl, "cards": [dict(card) for card in pl["cards"]]} for pl in v["players"]]
    pos["set_aside"] = [dict(card) for card in v["set_aside"]]
    if v["pending"] is not None:
        pos["pending"] = list(v["pending"])
    return pos


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


__all__ = ["view", "bot_view", "sample_state", "redact_events", "redact_position"]
