"""Cards: general rules (M14) and the eight effects (M15), with their sub-decisions."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import (
    CARD_TYPES,
    COLOUR_LETTERS,
    ENDURANCE,
    EXPULSION,
    HOLY_STONE,
    LAND,
    MANA_THEFT,
    PLAINS,
    PRIEST,
    TELEPORT,
    TEMPLE,
    any_left,
)
from ziggurat.games.mesopotamia.movement import enter_temple, raise_limit, temple_refusal, unknown_pool
from ziggurat.games.mesopotamia.notation import Coord, fmt_hut, fmt_tribe
from ziggurat.games.mesopotamia.state import MesoState, TribeT, seat_tribes


def discard_card(s: MesoState, p: int, card: int) -> None:
    """M14.3 step 4: to the public discard pile (or out of the game under variant 6.2)."""
    # hands and card piles are replaced, never changed in place: clones share them
    hand = s.hand[p] = list(s.hand[p])
    hand[card] -= 1
    if s.opts["variant_no_reshuffle"]:
        removed = s.removed = list(s.removed)
        removed[card] += 1
    else:
        discard = s.discard = list(s.discard)
        discard[card] += 1


# Card plays are listed at most decisions of a player holding a card, so their texts are
# built once: per pile, per colour, per tribe selector, per hut.
_LAND_TEXTS = tuple(f"play land {k}" for k in range(1, 10))
_THEFT_TEXTS = tuple(f"play mana_theft {letter}" for letter in COLOUR_LETTERS)
_TELEPORT_TEXTS: dict[tuple, str] = {}  # type: ignore[type-arg]
_EXPULSION_TEXTS: dict[tuple[int, int], str] = {}


def card_actions(s: MesoState, p: int, out: list[str]) -> None:
    """Card plays open to ``p`` at a top-level decision of its turn (M14, R49, R56)."""
    hand = s.hand[p]
    if not any_left(hand):
        return
    new = s.new[p]
    phase = s.phase
    if phase == "movement" and hand[ENDURANCE] > new[ENDURANCE]:
        out.append("play endurance")
    if phase == "mana" and not s.income_done and hand[PRIEST] > new[PRIEST]:
        for c in _act.paying_holy_places(s, p):
            out.append(f"play priest {c[0]},{c[1]}")
    if hand[HOLY_STONE] > new[HOLY_STONE]:
        out.append("play holy_stone")
    if hand[LAND] > new[LAND]:
        for k, size in enumerate(s.pile_sizes):
            if size:
                out.append(_LAND_TEXTS[k] if k < len(_LAND_TEXTS) else f"play land {k + 1}")
    if hand[MANA_THEFT] > new[MANA_THEFT]:
        mana = s.mana
        for q in range(s.n):
            if q != p and mana[q] > 0:
                out.append(_THEFT_TEXTS[q])
    if hand[TELEPORT] > new[TELEPORT]:
        _teleport_actions(s, p, out)
    if hand[EXPULSION] > new[EXPULSION]:
        _expulsion_actions(s, p, out)


def _teleport_actions(s: MesoState, p: int, out: list[str]) -> None:
    memo = s.tile_memo
    ordinary = memo.ordinary
    if ordinary is None:
        forbidden = s.opts["teleport_forbidden_destination_types"]
        ordinary = memo.ordinary = sum(
            1 for kind in s.tiles.values() if kind != TEMPLE and kind not in forbidden
        )
    for seat in range(s.n):
        known = seat_tribes(s, seat)
        if ordinary >= 2:  # then every tribe has a destination (the common case)
            texts = known.teleports
            if texts is None:
                texts = known.teleports = tuple(_teleport_text(seat, t) for t in known.on_map)
            out += texts
        else:
            for t in known.on_map:
                if teleport_destinations(s, p, seat, t):
                    out.append(_teleport_text(seat, t))


def _teleport_text(seat: int, t: TribeT) -> str:
    key = (seat, *t)
    text = _TELEPORT_TEXTS.get(key)
    if text is None:
        text = _TELEPORT_TEXTS[key] = f"play teleport {fmt_tribe(seat, t[0], t[1], t[2])}"
    return text


def _expulsion_actions(s: MesoState, p: int, out: list[str]) -> None:
    """M15.8: a hut the options allow, when some other plains could take it (R46)."""
    counts: dict[Coord, int] = {}
    for h in s.huts:
        counts[h[2]] = counts.get(h[2], 0) + 1
    holy = s.holy
    open_plains = [
        c for c, kind in s.tiles.items() if kind == PLAINS and counts.get(c, 0) < 2 and c not in holy
    ]
    if not open_plains:
        return
    for h in sorted(s.huts):  # (owner, number) tell huts apart
        if (len(open_plains) > 1 or open_plains[0] != h[2]) and expulsion_hut_ok(s, p, h):
            key = (h[0], h[1])
            text = _EXPULSION_TEXTS.get(key)
            if text is None:
                text = _EXPULSION_TEXTS[key] = f"play expulsion {fmt_hut(h[0], h[1])}"
            out.append(text)


def _landings(s: MesoState) -> list[tuple[Any, ...]]:
    """The tiles of a type a Teleport may land on (M15.7), in order, each as ``(tile, kind,
    its "to q,r" text)``: kept in the tiles' memo until a tile is placed."""
    memo = s.tile_memo
    landings = memo.landings
    if landings is None:
        forbidden = s.opts["teleport_forbidden_destination_types"]
        landings = memo.landings = [
            (c, kind, _to_text(c)) for c, kind in sorted(s.tiles.items()) if kind not in forbidden
        ]
    return landings


def _to_text(c: Coord) -> str:
    """The canonical ``to q,r`` text of a Teleport's or an Expulsion's destination."""
    text = _TO_TEXTS.get(c)
    if text is None:
        text = _TO_TEXTS[c] = f"to {c[0]},{c[1]}"
    return text


_TO_TEXTS: dict[Coord, str] = {}


def _teleport_landings(s: MesoState, p: int, seat: int, t: TribeT) -> list[tuple[Any, ...]]:
    """M15.7: the landings of :func:`_landings` open to tribe ``t`` of ``seat``: any other
    tile, with the temple's limits."""
    origin, cargo, own = t[0], t[1], seat == p
    return [
        landing for landing in _landings(s)
        if landing[0] != origin and (landing[1] != TEMPLE or temple_refusal(s, cargo, own) is None)
    ]  # fmt: skip


def teleport_destinations(s: MesoState, p: int, seat: int, t: TribeT) -> list[Coord]:
    """M15.7: any other tile that is not a forbidden type, with the temple's limits, in order."""
    return [landing[0] for landing in _teleport_landings(s, p, seat, t)]


def expulsion_hut_ok(s: MesoState, p: int, h: tuple) -> bool:  # type: ignore[type-arg]
    if h[0] < 0:
        return bool(s.opts["neutral_hut_movable_by_expulsion"])
    return s.opts["expulsion_target_huts"] == "any" or h[0] == p


def expulsion_destinations(s: MesoState, h: tuple) -> list[Coord]:  # type: ignore[type-arg]
    """M15.8: a different plains with fewer than 2 huts and no holy place (R46)."""
    counts: dict[Coord, int] = {}
    for other in s.huts:
        counts[other[2]] = counts.get(other[2], 0) + 1
    return sorted(
        c for c, kind in s.tiles.items()
        if kind == PLAINS and c != h[2] and counts.get(c, 0) < 2 and c not in s.holy
    )  # fmt: skip


def card_refusal(s: MesoState, p: int, d: tuple) -> str | None:  # type: ignore[type-arg]
    card = d[1]
    if s.hand[p][card] == 0:
        return message("meso.refusal.noCard", card=V.card(card))
    if s.hand[p][card] <= s.new[p][card]:
        return message("meso.refusal.newCard", card=V.card(card))
    if card == ENDURANCE and s.phase != "movement":
        return message("meso.refusal.endurancePhase")
    if card == PRIEST and (s.phase != "mana" or s.income_done):
        return message("meso.refusal.priestPhase")
    if card == PRIEST:
        if d[2] not in _act.paying_holy_places(s, p):
            return message("meso.refusal.priestTarget")
    if card == MANA_THEFT and (d[2] == p or d[2] >= s.n):
        return message("meso.refusal.theftOpponent")
    if card == MANA_THEFT and s.mana[d[2]] == 0:
        return message("meso.refusal.theftNoMana")
    if card == TELEPORT:
        seat, c, cargo, spent = d[2]
        if seat >= s.n or (c, cargo, spent) not in s.tribes[seat]:
            return message("meso.refusal.teleportNoTribe")
    if card == EXPULSION:
        hut = next((h for h in s.huts if (h[0], h[1]) == d[2]), None)
        if hut is None:
            return message("meso.refusal.expulsionNoHut")
        if not expulsion_hut_ok(s, p, hut):
            return message("meso.refusal.expulsionOption")
        if not expulsion_destinations(s, hut):
            return message("meso.refusal.expulsionNoPlains")
    if card == LAND and not (1 <= d[2] <= len(s.pile_sizes) and s.pile_sizes[d[2] - 1]):
        return message("meso.refusal.landPile")
    return None


def apply_play(s: MesoState, p: int, d: tuple) -> None:  # type: ignore[type-arg]
    card = d[1]
    discard_card(s, p, card)
    opts = s.opts
    if card == ENDURANCE:
        s.mp += opts["endurance_bonus_mp"]
    elif card == HOLY_STONE:
        eff = opts["holy_stone_effect"]
        raise_limit(s, p, eff["limit_gain"], eff["mana_gain"])
    elif card == PRIEST:
        s.priests = (*s.priests, d[2])
    elif card == MANA_THEFT:
        victim = d[2]
        lost = min(opts["mana_theft_amount"], s.mana[victim])
        s.mana[victim] -= lost
        s.mana[p] = min(s.limit[p], s.mana[p] + lost)
    elif card == LAND:
        pile = d[2] - 1
        count = min(opts["land_peek_count"], s.pile_sizes[pile])
        _learn_tops(s, p, pile, count)
    elif card == TELEPORT:
        seat, c, cargo, spent = d[2]
        s.pending = ("teleport", seat, c, cargo, spent)
    elif card == EXPULSION:
        s.pending = ("expel", d[2])


def _learn_tops(s: MesoState, p: int, pile: int, count: int) -> None:
    tops = s.pile_tops[pile] = list(s.pile_tops[pile])  # replaced, never changed in place
    bit = 1 << p
    for k in range(min(count, len(tops))):
        kind, knowers = tops[k]
        tops[k] = (kind, knowers | bit)
    if len(tops) < count:
        s.pending = ("peek", pile, count)
    else:
        _after_peek(s, p, pile, count)


def _after_peek(s: MesoState, p: int, pile: int, count: int) -> None:
    # R58: the order is asked even when the peeked tiles are all alike (one order only):
    # skipping it would tell everyone what the peek showed.
    if s.opts["land_may_reorder"] and count > 1:
        s.pending = ("order", pile, count)
    else:
        s.pending = None


def peek_outcomes(s: MesoState) -> list[tuple[str, float]]:
    pool = unknown_pool(s)
    total = sum(pool.values())
    return [(f"peek {k}", v / total) for k, v in pool.items() if v]


def apply_peek(s: MesoState, p: int, kind: str) -> None:
    _, pile, count = s.pending  # type: ignore[misc]
    s.pile_tops[pile] = [*s.pile_tops[pile], (kind, 1 << p)]
    if len(s.pile_tops[pile]) < count:
        return
    _after_peek(s, p, pile, count)


def order_actions(s: MesoState, out: list[str]) -> None:
    _, pile, count = s.pending  # type: ignore[misc]
    kinds = [k for k, _ in s.pile_tops[pile][:count]]
    for perm in sorted(set(permutations(kinds))):
        out.append("order " + ",".join(perm))


def apply_order(s: MesoState, p: int, kinds: tuple[str, ...]) -> None:
    _, pile, count = s.pending  # type: ignore[misc]
    s.pile_tops[pile] = [(k, 1 << p) for k in kinds] + s.pile_tops[pile][count:]
    s.pending = None


def target_actions(s: MesoState, p: int, out: list[str]) -> None:
    pend = s.pending
    assert pend is not None
    if pend[0] == "teleport":
        for landing in _teleport_landings(s, p, pend[1], pend[2:]):
            out.append(landing[2])
    else:
        hut = next(h for h in s.huts if (h[0], h[1]) == pend[1])
        for c in expulsion_destinations(s, hut):
            out.append(_to_text(c))


def target_refusal(s: MesoState, p: int, dest: Coord) -> str | None:
    """Why ``dest`` is not a legal Teleport or Expulsion destination, or None (M15.7, M15.8)."""
    pend = s.pending
    assert pend is not None
    kind = s.tiles.get(dest)
    if pend[0] == "teleport":
        seat, origin, cargo = pend[1], pend[2], pend[3]
        if kind is None:
            return message("meso.refusal.teleportOntoTile")
        if dest == origin:
            return message("meso.refusal.teleportElsewhere")
        if kind in s.opts["teleport_forbidden_destination_types"]:
            return message("meso.refusal.teleportForbidden", tile=V.tile(kind))
        if kind == TEMPLE:
            return temple_refusal(s, cargo, seat == p)
        return None
    hut = next(h for h in s.huts if (h[0], h[1]) == pend[1])
    if kind != PLAINS:
        return message("meso.refusal.expulsionPlains")
    if dest == hut[2]:
        return message("meso.refusal.expulsionElsewhere")
    if dest in s.holy:
        return message("meso.refusal.expulsionHoly")
    if len(s.huts_on(dest)) >= 2:
        return message("meso.refusal.expulsionFull")
    return None


def apply_target(s: MesoState, p: int, dest: Coord) -> None:
    pend = s.pending
    assert pend is not None
    s.pending = None
    if pend[0] == "teleport":
        seat, origin, cargo, spent = pend[1:]
        i = s.tribes[seat].index((origin, cargo, spent))
        if s.tiles[dest] == TEMPLE:
            enter_temple(s, seat, i, origin, dest, False)  # type: ignore[arg-type]
        else:
            s.tribes[seat][i] = (dest, cargo, spent)
        return
    for k, h in enumerate(s.huts):
        if (h[0], h[1]) == pend[1]:
            pub = h[3]
            if pub and not s.opts["expulsion_moves_offering"]:
                # Our reading of the option: the offering goes back to its owner's supply.
                placed = s.offer_val[h[0]] = dict(s.offer_val[h[0]])
                s.unplaced[h[0]] = sorted([*s.unplaced[h[0]], placed.pop(pub)])
                pub = 0
            s.huts[k] = (h[0], h[1], dest, pub)
            break


_CARD_DRAWN = tuple(f"card {kind}" for kind in CARD_TYPES)  # a draw's outcome texts, built once


def card_draw_outcomes(s: MesoState) -> list[tuple[str, float]]:
    total = sum(s.deck)
    return [(_CARD_DRAWN[t], n / total) for t, n in enumerate(s.deck) if n]


# actions imports this module's neighbours: bound once every module is complete
from ziggurat.games.mesopotamia import actions as _act  # noqa: E402

__all__ = ["card_actions", "apply_play"]
