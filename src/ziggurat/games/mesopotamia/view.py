"""What each seat may see (rules spec §6), determinization, and record redaction.

A view is the position (see :mod:`.position`) with every secret of the viewer's opponents
blanked: offering values not yet revealed, hands, the deck's make-up and Land-peeked tiles
the viewer did not see. ``sample_state`` fills those blanks at random, consistently with
what the viewer knows, which is what information-set search needs.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ziggurat.games.mesopotamia.data import CARD_TYPES, COLOUR_LETTERS, COLOURS, DRAWABLE
from ziggurat.games.mesopotamia.position import from_position, to_position
from ziggurat.games.mesopotamia.state import MesoState

FLAGS_FROM_STATE = True
"""Whether an action ends its player's turn, sets off chance or can be undone never hangs on
a secret: no decision is asked outside its player's own turn (§7), a decision forced only by a
secret is still asked and chance waits for it (R58), so when the turn moves on is public, and
every draw is a chance event. The server reads a seat's final flags on the true state
(``GameHooks.flags_from_state``)."""


def view(s: MesoState, seat: int | None) -> dict[str, Any]:
    pos = to_position(s)
    redact_position(pos, seat)
    pos["viewer"] = None if seat is None else COLOURS[seat]
    who = s.current_player()
    pos["to_move"] = "chance" if who == -1 else None if who < 0 else COLOURS[who]
    return pos


def redact_position(pos: dict[str, Any], seat: int | None) -> None:
    mine = None if seat is None else COLOURS[seat]
    for pl in pos["players"]:
        if pl["colour"] == mine:
            continue
        off = pl["offerings"]
        shown = set(off["revealed"]) | set(off["delivered"])
        off["placed"] = {k: (v if int(k) in shown else None) for k, v in off["placed"].items()}
        off["unplaced"] = None
        pl["hand"] = None
        pl["new_cards"] = None
    pos["deck"] = None
    for pile in pos["piles"]:
        pile["top"] = [[kind if mine in knowers else None, knowers] for kind, knowers in pile["top"]]


def sample_state(game: Any, v: dict[str, Any], seat: int, rng: random.Random) -> MesoState:
    """A full state that ``seat`` cannot tell apart from the truth, given its view ``v``."""
    pos = {k: val for k, val in v.items() if k not in ("viewer", "to_move")}
    pos = _deep_copy(pos)
    mine = COLOURS[seat]
    values = game.data["offeringValues"]
    all_cards: Counter[str] = Counter({t: 0 for t in CARD_TYPES})
    for card in game.data["cards"]:
        all_cards[card["type"]] += 1
    unseen = all_cards - Counter(pos["removed_cards"]) - Counter(pos["discard"])
    others = []
    for pl in pos["players"]:
        if pl["colour"] == mine:
            unseen -= Counter(pl["hand"])
            continue
        others.append(pl)
        off = pl["offerings"]
        known = [v for v in off["placed"].values() if v is not None]
        hidden = list((Counter(values) - Counter(known)).elements())
        rng.shuffle(hidden)
        slots = [k for k, v in sorted(off["placed"].items()) if v is None]
        for k in slots:
            off["placed"][k] = hidden.pop()
        off["unplaced"] = sorted(hidden)
    pool = list(unseen.elements())
    rng.shuffle(pool)
    for pl in others:
        hand = Counter(pool[: pl["hand_size"]])
        del pool[: pl["hand_size"]]
        pl["hand"] = {k: n for k, n in hand.items() if n}
        cards = list(hand.elements())
        rng.shuffle(cards)
        pl["new_cards"] = dict(Counter(cards[: pl["new_count"]]))
    pos["deck"] = dict(Counter(pool))
    tiles_left = Counter(pos["remaining_tiles"])
    for pile in pos["piles"]:
        for kind, _ in pile["top"]:
            if kind is not None:
                tiles_left[kind] -= 1
    bag = list(tiles_left.elements())
    rng.shuffle(bag)
    for pile in pos["piles"]:
        pile["top"] = [[kind if kind is not None else bag.pop(), knowers] for kind, knowers in pile["top"]]
    return from_position(game, pos)


def _deep_copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep_copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep_copy(v) for v in x]
    return x


def redact_action(actor: int, text: str, seat: int | None) -> str:
    """``text`` as ``seat`` saw it happen: hidden details of other seats become ``?``."""
    words = text.split(" ")
    kind = words[0]
    if kind == "deal":  # a chance event during set-up: its owner is the dealt colour, not the actor
        return text if seat is not None and words[1] == COLOUR_LETTERS[seat] else f"deal {words[1]} ?"
    if actor == seat:
        return text
    if kind == "offer":
        return "offer ?"
    if kind == "order":
        return "order ?"
    return text


def redact_events(events: list[tuple[int, str, bool, int]], seat: int | None) -> list[str]:
    """Redact a game's events ``(actor, text, auto, turn seat)`` for ``seat``."""
    out = []
    for who, text, _, turn_seat in events:
        kind = text.split(" ", 1)[0]
        owner = turn_seat if who < 0 else who
        if kind in ("card", "peek") and owner != seat:
            out.append(f"{kind} ?")
        else:
            out.append(redact_action(owner, text, seat))
    return out


__all__ = ["FLAGS_FROM_STATE", "view", "sample_state", "redact_action", "DRAWABLE"]
