"""Phase I: steps, carrying, stealing, the temple, offerings and discovery (M2-M7)."""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import Final

from ziggurat.engine.messages import Message, message
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import (
    COLOUR_LETTERS,
    DIRECTIONS,
    EMPTY,
    FOREST,
    OFFERING,
    PLAINS,
    QUARRY,
    STONE,
    TELEPORT,
    TEMPLE,
    VOLCANO,
    WOOD,
    any_left,
)
from ziggurat.games.mesopotamia.notation import BUILT, Coord, fmt_hut, fmt_tribe
from ziggurat.games.mesopotamia.state import HutT, MesoState, PhaseOneKept, TribeT, set_tile


def tribe_classes(s: MesoState, seat: int) -> dict[tuple, int]:  # type: ignore[type-arg]
    """Distinct own tribes on the map (tile, cargo, spent) with how many of each."""
    classes: dict[tuple, int] = {}  # type: ignore[type-arg]
    # sorted so that legal actions come in an order fixed by the position alone
    for t in sorted(t for t in s.tribes[seat] if t[0] is not None):
        classes[t] = classes.get(t, 0) + 1
    return classes


def temple_tribes(s: MesoState) -> int:
    return sum(1 for tribes in s.tribes for t in tribes if t[0] is not None and s.tiles[t[0]] == TEMPLE)


# Legal-action listing asks temple_refusal whether the temple is open, so its reasons are
# built once, not at every call (a message costs a pattern lookup and a formatting).
_TEMPLE_WOOD = message("meso.refusal.templeWood")
_TEMPLE_OPPONENT = message("meso.refusal.templeOpponent")


@cache
def _temple_full(limit: int) -> Message:
    return message("meso.refusal.templeFull", limit=limit)


def temple_refusal(s: MesoState, cargo: int, own: bool) -> str | None:
    """Why a tribe with ``cargo`` may not enter the temple, or None (M5, R25, R54)."""
    opts = s.opts
    if cargo == WOOD and not opts["wood_carrier_may_enter_temple"]:
        return _TEMPLE_WOOD
    if not own and cargo != EMPTY and opts["teleport_opponent_onto_temple_only_if_empty"]:
        return _TEMPLE_OPPONENT
    limit = opts["temple_tribe_limit"]
    if limit is not None and temple_tribes(s) >= limit:
        return _temple_full(limit)
    return None


def majority_counts(s: MesoState, c: Coord) -> list[int]:
    """Tribes per seat on ``c`` as counted for stealing (M4.1, M4.2)."""
    with_offering = s.opts["offering_carrier_counts_for_majority"]
    counts = [0] * s.n
    for seat, tribes in enumerate(s.tribes):
        for t in tribes:
            if t[0] == c and (with_offering or t[1] < OFFERING):
                counts[seat] += 1
    return counts


# Text caches. Action strings are most of the cost of listing legal actions, and the
# same tribe on the same tile yields the same texts turn after turn, so they are built once
# per (seat, tile, cargo, spent). The domain is small, so the dict stays bounded in practice.
_TEXTS: Final[dict[tuple, tuple]] = {}  # type: ignore[type-arg]


def _texts(key: tuple) -> tuple:  # type: ignore[type-arg]
    """(selector, ((neighbour, move text), ...), pickup wood, pickup stone, drop)."""
    texts = _TEXTS.get(key)
    if texts is None:
        p, (q, r), cargo, spent = key
        sel = fmt_tribe(p, (q, r), cargo, spent)
        steps = tuple(((q + dq, r + dr), f"move {sel} {q + dq},{r + dr}") for dq, dr in DIRECTIONS)
        texts = _TEXTS[key] = (sel, steps, f"pickup {sel} wood", f"pickup {sel} stone", f"drop {sel}")
        # their decoded forms too, so that applying them parses nothing
        tribe = (p, (q, r), cargo, spent)
        for dest, text in steps:
            BUILT[text] = ("move", tribe, dest)
        BUILT[texts[2]] = ("pickup", tribe, "wood")
        BUILT[texts[3]] = ("pickup", tribe, "stone")
        BUILT[texts[4]] = ("drop", tribe)
    return texts


def tribe_selector(p: int, c: Coord, cargo: int, spent: bool) -> str:
    """``fmt_tribe``, from the text cache."""
    return _texts((p, c, cargo, spent))[0]  # type: ignore[no-any-return]


def movement_actions(s: MesoState, p: int, out: list[str]) -> None:
    """Legal Phase I actions of seat ``p`` with no sub-decision pending.

    Per tribe, in order: its steps, then pickups and offerings (empty-handed) or drop, exchange,
    hand-offs and donation (carrying a resource); then steals, then ``end``. What a tribe's
    entry holds depends on the tiles and the step context only, so it is kept in the tiles'
    :class:`~.state.TileMemo` and reused until a tile is placed (most of the listing's cost).
    """
    opts = s.opts
    if s.mp >= 1:
        step = 2 if s.disc < s.game.max_discoveries and any_left(s.pile_sizes) else 1
    else:
        step = 0
    limit = opts["temple_tribe_limit"]
    context = p * 6 + step * 2 + (limit is None or temple_tribes(s) < limit)
    memo = s.tile_memo.steps.get(context)
    if memo is None:
        memo = s.tile_memo.steps[context] = {}
    wood, stone = s.wood, s.stone
    kept = s.kept
    if kept is None or kept.seat != p:
        kept = _kept_listing(s, p)  # kept below, with the card plays
    # steals need loot (another seat's wood or stone) where a tribe of p stands empty-handed:
    # most listings have none, and skip receivers altogether
    loot = kept.loot
    steals = kept.steals
    receivers: dict[Coord, list[str]] | None = {} if loot and steals is None else None
    may_receive = not opts["tribe_steals_once_per_turn"]
    offerings = kept.offerings
    empties: list[str] = []  # selectors of the empty-handed tribes on this tile (come first)
    here = last = None
    for t in kept.on_map:
        if t == last:
            continue
        last = t
        entry = memo.get(t)
        if entry is None:
            entry = memo[t] = _tribe_entry(s, p, t, step)
        steps, sel, rest = entry
        if steps:
            out += steps
        c, cargo, spent = t
        if cargo == EMPTY:
            if c != here:
                here = c
                empties = [sel]
            else:
                empties.append(sel)
            if c in wood:
                out.append(rest[0])
            if c in stone:
                out.append(rest[1])
            if offerings is not None and c in offerings:
                for hut in offerings[c]:
                    out.append(f"offering {sel} {hut}")
            if receivers is not None and c in loot and (may_receive or not spent):
                if c in receivers:
                    receivers[c].append(sel)
                else:
                    receivers[c] = [sel]
        elif cargo < OFFERING:
            if rest[0]:  # may put it down here
                out.append(rest[0])
                if c in (stone if cargo == WOOD else wood):
                    out.append(rest[1])
            if rest[2] and c == here:
                for receiver in empties:
                    out.append(f"handoff {sel} {receiver}")
            if rest[3]:
                out.append(rest[3])
    if steals is None:
        listed: list[str] = []
        if receivers:
            _steal_actions(s, p, receivers, listed)
        steals = tuple(listed)
    if steals:
        out += steals
    plays = kept.plays
    if plays is None:
        listed = []
        _cards.card_actions(s, p, listed)
        plays = tuple(listed)
    if plays is not kept.plays or steals is not kept.steals:
        s.kept = _kept(PhaseOneKept, (p, kept.tribes, kept.on_map, loot, kept.offerings, plays, steals))
    out.append("end")
    if plays:
        out += plays


def _kept_listing(s: MesoState, p: int) -> PhaseOneKept:
    """The parts of ``p``'s Phase I listing derived from the pieces, worked out afresh."""
    tribes = tuple(s.tribes[p])
    # tribes in a fixed order (sorted), so that the list depends on the position alone; repeats
    # are kept (the listing skips them) so that kept_after can take one out
    on_map: list[TribeT] = [t for t in tribes if t[0] is not None]
    on_map.sort()
    return _kept(PhaseOneKept, (p, tribes, on_map, _loot_tiles(s, p), _offering_huts(s, p), None, None))


_kept: Final = tuple.__new__  # makes a PhaseOneKept at every step without its Python __new__

_KEEPS_LISTING: Final = frozenset(("move", "pickup", "drop", "exchange", "handoff", "donate"))
"""The Phase I actions that change the acting seat's own tribes only (and loose resources,
Mana or the temple, which the listing reads afresh): :func:`kept_after` follows them."""


def kept_after(kept: PhaseOneKept, s: MesoState, p: int, changed: int = -1) -> PhaseOneKept:
    """``kept`` (made before a Phase I action of ``p`` in :data:`_KEEPS_LISTING`) for the
    tribes now: the one or two tribes that changed leave and join ``on_map`` in order, and the
    steals are listed again if they left or joined a tile with loot. ``changed``: the index of the one tribe the action changed, as :func:`apply_movement`
    tells it (-1: look for the changed ones)."""
    tribes = s.tribes[p]
    loot = kept.loot
    steals = kept.steals
    # a changed tribe differs from what it was, compared by value (a compiled build may box a
    # tribe anew when it reads it, so the same tribe need not be the same object)
    if changed >= 0:  # most actions: one tribe, known (no need to compare them all)
        was, now = kept.tribes[changed], tribes[changed]
        pairs = [(was, now)] if was != now else []
    else:
        pairs = [(was, now) for was, now in zip(kept.tribes, tribes) if was != now]  # noqa: B905
    if not pairs:  # nothing moved
        return kept
    on_map = kept.on_map[:]
    for was, now in pairs:
        if was[0] is not None:
            on_map.remove(was)  # type: ignore[arg-type]
        if now[0] is not None:
            insort(on_map, now)  # type: ignore[arg-type,misc]
        if steals is not None and loot and (was[0] in loot or now[0] in loot):
            steals = None
    # the card plays: what these actions change (the seat's tribes, its Mana) changes only a
    # Teleport's targets (M15), among the plays of the seat's hand, Phase I, the piles, the
    # other seats' Mana, the huts and the tiles
    plays = kept.plays
    if plays is not None and s.hand[p][TELEPORT] > s.new[p][TELEPORT]:  # a Teleport to play
        plays = None
    return _kept(PhaseOneKept, (p, tuple(tribes), on_map, loot, kept.offerings, plays, steals))


def _loot_tiles(s: MesoState, p: int) -> frozenset[Coord | None]:
    """The tiles where a seat other than ``p`` has a tribe carrying wood or stone (M4).

    Scanned afresh: asked at the start of a seat's turn, when every other seat's tribes have
    changed since it was last asked (a :class:`~.state.SeatTribes` per seat would be made
    again for each)."""
    return frozenset(
        [c for q, tribes in enumerate(s.tribes) if q != p for c, cargo, _ in tribes if WOOD <= cargo <= STONE]
    )


_OFFERINGS: Final[list[tuple[tuple[HutT, ...], dict[int, dict[Coord, list[str]] | None]]]] = [((), {})]
"""The huts last asked about and, per seat, its huts with an offering under them, by tile (their
names in hut order), or None: one entry, since the huts change rarely (a kept offering, a
picked-up one, an expelled hut)."""


def _offering_huts(s: MesoState, p: int) -> dict[Coord, list[str]] | None:
    """Per tile, the names of ``p``'s huts with an offering under them (M6.1), or None."""
    huts = tuple(s.huts)
    kept, per_seat = _OFFERINGS[0]
    if kept != huts:
        per_seat = {}
        _OFFERINGS[0] = (huts, per_seat)
    elif p in per_seat:
        return per_seat[p]
    at: dict[Coord, list[str]] | None = None
    for h in sorted(h for h in huts if h[3] and h[0] == p):
        if at is None:
            at = {}
        at.setdefault(h[2], []).append(fmt_hut(p, h[1]))
    per_seat[p] = at
    return at


_STEP_ALWAYS_OPEN: Final = frozenset((PLAINS, FOREST, QUARRY))


def has_a_step(s: MesoState) -> bool:
    """True if the player to move in Phase I may step onto a plains, forest or quarry now: with
    ``end`` that makes two legal actions, so the decision is not forced (the engine's settle
    need not list them). False says nothing."""
    if s.mp < 1:
        return False
    tiles = s.tiles
    for c, cargo, _ in s.tribes[s.turn_order[s.turn_idx]]:
        if c is None or (cargo == STONE and tiles[c] == TEMPLE):  # R25
            continue
        q, r = c
        for dq, dr in DIRECTIONS:
            if tiles.get((q + dq, r + dr)) in _STEP_ALWAYS_OPEN:
                return True
    return False


def _tribe_entry(s: MesoState, p: int, t: tuple, step: int) -> tuple:  # type: ignore[type-arg]
    """(move texts, selector, other texts) of tribe ``t`` of ``p``: what the tiles decide, with
    ``step`` (0: no movement point, 1: steps, 2: steps and discoveries) and the temple's
    limit as now (both part of the memo's context).

    Other texts: (pickup wood, pickup stone) for an empty-handed tribe; for a resource carrier,
    (drop or "" where it may not put it down, exchange, hand-offs allowed, donation or "").
    """
    c, cargo, spent = t
    sel, neighbours, pick_wood, pick_stone, drop = _texts((p, c, cargo, spent))
    tiles = s.tiles
    opts = s.opts
    here = tiles[c]
    steps: list[str] = []
    # R25: no resource is carried across the temple (matters when donation is not automatic)
    if step and not (here == TEMPLE and cargo == STONE):
        for n, text in neighbours:
            kind = tiles.get(n)
            if kind is None:
                if step == 2:
                    steps.append(text)
            elif kind == VOLCANO:
                continue
            elif kind == TEMPLE:
                if temple_refusal(s, cargo, True) is None:
                    steps.append(text)
            else:
                steps.append(text)
    rest: tuple  # type: ignore[type-arg]
    if cargo == EMPTY:
        rest = (pick_wood, pick_stone)
    elif cargo < OFFERING:
        other = "stone" if cargo == WOOD else "wood"
        may_drop = here != TEMPLE or opts["drop_on_temple_allowed"]
        donate = ""
        tribe = (p, c, cargo, spent)
        if cargo == STONE and here == TEMPLE and not opts["stone_donated_on_temple_entry"]:
            donate = f"donate {sel}"
            BUILT[donate] = ("donate", tribe)
        exchange = f"exchange {sel} {other}"
        BUILT[exchange] = ("exchange", tribe, other)
        rest = (
            drop if may_drop else "",
            exchange,
            bool(opts["hand_off_between_own_tribes"]),
            donate,
        )
    else:
        rest = ()
    return (tuple(steps), sel, rest)


def _steal_actions(s: MesoState, p: int, receivers: dict[Coord, list[str]], out: list[str]) -> None:
    """M4: for each tile where ``p`` has a tribe able to receive loot."""
    victims: dict[Coord, set[tuple[int, int, bool]]] = {}
    # the other seats' tribes scanned as they are (they changed in their own turns since this
    # seat's last: a kept working-out per seat would be made again for each)
    for q, tribes in enumerate(s.tribes):
        if q == p:
            continue
        for c, cargo, spent in tribes:
            if WOOD <= cargo <= STONE and c in receivers:  # loot: wood or stone
                if c in victims:
                    victims[c].add((q, cargo, spent))
                else:
                    victims[c] = {(q, cargo, spent)}
    for c, found in victims.items():
        counts = majority_counts(s, c)
        sels = receivers[c]
        for q, cargo, spent in sorted(found):
            if counts[p] <= counts[q]:
                continue
            vsel = tribe_selector(q, c, cargo, spent)
            for sel in sels:
                out.append(f"steal {vsel} {sel}")


# --- refusals (only used to explain why an action is not legal) -------------------------
def movement_refusal(s: MesoState, p: int, d: tuple) -> str | None:  # type: ignore[type-arg]
    kind = d[0]
    if kind in ("move", "pickup", "drop", "exchange", "handoff", "offering", "donate"):
        seat, c, cargo, spent = d[1]
        if seat != p:
            return message("meso.refusal.notYourTribe", owner=V.colour(seat))
        if (c, cargo, spent) not in s.tribes[p]:
            return message("meso.refusal.noSuchTribe", tribe=V.tribe(p), at=V.coord(c))
    if kind == "move":
        _, c, cargo, _ = d[1]
        dest = d[2]
        if s.mp < 1:
            return message("meso.refusal.noMovementPoints")
        if s.tiles.get(c) == TEMPLE and cargo == STONE:
            return message("meso.refusal.stoneAcrossTemple")
        if (dest[0] - c[0], dest[1] - c[1]) not in DIRECTIONS:
            return message("meso.refusal.notAdjacent", dest=V.coord(dest), origin=V.coord(c))
        kind_there = s.tiles.get(dest)
        if kind_there == VOLCANO:
            return message("meso.refusal.volcano")
        if kind_there == TEMPLE:
            return temple_refusal(s, cargo, True)
        if kind_there is None:
            if s.disc >= s.game.max_discoveries:
                return message("meso.refusal.discoveryLimit", count=s.game.max_discoveries)
            if not any(s.pile_sizes):
                return message("meso.refusal.pilesEmpty")
    if kind == "pickup":
        if d[1][2] >= OFFERING:
            return message("meso.refusal.carriesOffering")
        if d[1][2] != EMPTY:
            return message("meso.refusal.carriesItem")
        loose = s.wood if d[2] == "wood" else s.stone
        if not loose.get(d[1][1]):
            return message("meso.refusal.noLooseResource", resource=V.resource(d[2]))
    if kind in ("drop", "exchange") and s.tiles.get(d[1][1]) == TEMPLE:
        return message("meso.refusal.dropOnTemple")
    if kind in ("drop", "exchange", "handoff") and d[1][2] not in (WOOD, STONE):
        if d[1][2] >= OFFERING:
            return message("meso.refusal.offeringOnlyDelivered")
        rule = {"drop": "M3.3", "exchange": "M3.4", "handoff": "M3.5"}[kind]
        return message("meso.refusal.carriesNothing", kind=kind, rule=rule)
    if kind == "exchange":
        other = "stone" if d[1][2] == WOOD else "wood"
        if d[2] != other:
            return message("meso.refusal.exchangeSwaps", resource=V.resource(other))
        if not (s.stone if other == "stone" else s.wood).get(d[1][1]):
            return message("meso.refusal.noLooseToExchange", resource=V.resource(other))
    if kind == "handoff":
        receiver = d[2]
        if not s.opts["hand_off_between_own_tribes"]:
            return message("meso.refusal.handoffOff")
        if receiver[0] != p:
            return message("meso.refusal.handoffOwn")
        if receiver[1] != d[1][1]:
            return message("meso.refusal.handoffSameTile")
        if receiver[2] >= OFFERING:
            return message("meso.refusal.receiverHasOffering")
        if receiver[2] != EMPTY:
            return message("meso.refusal.receiverLoaded")
        if (receiver[1], receiver[2], receiver[3]) not in s.tribes[p]:
            return message("meso.refusal.noSuchTribe", tribe=V.tribe(p), at=V.coord(receiver[1]))
    if kind == "steal":
        victim, receiver = d[1], d[2]
        if receiver[0] != p:
            return message("meso.refusal.stealOwnReceiver")
        if victim[0] == p:
            return message("meso.refusal.stealSelf")
        if victim[1] != receiver[1]:
            return message("meso.refusal.stealSameTile")
        if victim[2] >= OFFERING:
            return message("meso.refusal.stealOffering")
        if victim[2] == EMPTY:
            return message("meso.refusal.stealNothing")
        if victim[0] >= s.n or (victim[1], victim[2], victim[3]) not in s.tribes[victim[0]]:
            return message(
                "meso.refusal.stealNoSuchVictim", tribe=V.tribe(victim[0]), resource=V.resource(victim[2])
            )
        if (receiver[1], receiver[2], receiver[3]) not in s.tribes[p]:
            return message("meso.refusal.noSuchTribe", tribe=V.tribe(p), at=V.coord(receiver[1]))
        if receiver[2] != EMPTY:
            return message("meso.refusal.stealReceiverLoaded")
        if receiver[3] and s.opts["tribe_steals_once_per_turn"]:
            return message("meso.refusal.stealOncePerTurn")
        counts = majority_counts(s, victim[1])
        if counts[p] <= counts[victim[0]]:
            return message(
                "meso.refusal.stealMajority",
                mine=counts[p],
                victim=V.colour(victim[0]),
                theirs=counts[victim[0]],
            )
    if kind == "offering" and d[1][2] != EMPTY:
        return message("meso.refusal.offeringPickupLoaded")
    if kind == "offering":
        owner, num = d[2]
        if owner != p:
            return message("meso.refusal.offeringOwnColour")
        hut = next((h for h in s.huts if (h[0], h[1]) == (owner, num)), None)
        if hut is None or hut[2] != d[1][1]:
            return message("meso.refusal.hutNotOnTile", hut=V.hut(owner, num))
        if not hut[3]:
            return message("meso.refusal.hutNoOffering", hut=V.hut(owner, num))
    return None


# --- effects ----------------------------------------------------------------------------
def find_tribe(s: MesoState, seat: int, c: Coord | None, cargo: int, spent: bool) -> int:
    return s.tribes[seat].index((c, cargo, spent))


def donate_stone(s: MesoState, p: int) -> None:
    """M5.5: the stone leaves the game, the limit rises (to 8), then Mana rises (to the limit)."""
    s.stones_removed += 1
    raise_limit(s, p, 1, 1)


def raise_limit(s: MesoState, p: int, limit_gain: int, mana_gain: int) -> None:
    cap = s.game.data["mana"]["limitCap"]
    limit = s.limit = list(s.limit)  # replaced, never changed in place: clones share it
    limit[p] = min(cap, limit[p] + limit_gain)
    s.mana[p] = min(s.limit[p], s.mana[p] + mana_gain)


def enter_temple(s: MesoState, p: int, idx: int, origin: Coord, temple: Coord, by_step: bool) -> None:
    """A tribe of ``p`` arrives on the temple (M5.4, M5.6, M6.4, M6.5)."""
    _, cargo, spent = s.tribes[p][idx]
    if cargo == STONE and s.opts["stone_donated_on_temple_entry"]:
        donate_stone(s, p)
        s.tribes[p][idx] = (temple, EMPTY, spent)
    elif cargo >= OFFERING:
        attempt_delivery(s, p, idx, origin, by_step)
    else:
        s.tribes[p][idx] = (temple, cargo, spent)


def attempt_delivery(s: MesoState, p: int, idx: int, origin: Coord, by_step: bool) -> None:
    _, cargo, spent = s.tribes[p][idx]
    pub = cargo - OFFERING
    value = s.offer_val[p][pub]
    s.revealed[p] = s.revealed[p] | {pub}
    if s.mana[p] >= value:
        s.mana[p] -= value
        s.delivered[p] = [*s.delivered[p], pub]  # replaced: clones share it
        s.tribes[p][idx] = (None, EMPTY, False)
        if len(s.delivered[p]) == len(s.game.data["offeringValues"]):
            s.winner = p
            s.phase = "over"
            s.pending = None
    else:
        s.tribes[p][idx] = (origin, cargo, spent)
        if by_step and s.opts["failed_delivery_refunds_mp"]:
            s.mp += 1


def apply_movement(s: MesoState, p: int, d: tuple) -> int:  # type: ignore[type-arg]
    """Play Phase I action ``d`` of ``p``; the index among ``p``'s tribes of the one tribe it
    changed, or -1 (``end``, a steal, a hand-off: two tribes change; for :func:`kept_after`)."""
    kind = d[0]
    if kind == "end":
        _act.start_action_phase(s)
        return -1
    if kind == "steal":
        (q, c, vcargo, vspent), (_, _, _, rspent) = d[1], d[2]
        vi = find_tribe(s, q, c, vcargo, vspent)
        ri = find_tribe(s, p, c, EMPTY, rspent)
        s.tribes[q][vi] = (c, EMPTY, vspent)
        s.tribes[p][ri] = (c, vcargo, bool(s.opts["tribe_steals_once_per_turn"]))
        return -1
    _, c, cargo, spent = d[1]
    tribes = s.tribes[p]
    i = tribes.index((c, cargo, spent))  # find_tribe, inline: every Phase I action comes this way
    if kind == "move":
        dest = d[2]
        if dest in s.tiles:
            s.mp -= 1
            if s.tiles[dest] == TEMPLE:
                enter_temple(s, p, i, c, dest, True)
            else:
                tribes[i] = (dest, cargo, spent)
        else:
            s.pending = ("pile", c, cargo, spent, dest)
    elif kind == "pickup":
        res = WOOD if d[2] == "wood" else STONE
        _take_loose(s, c, res)
        tribes[i] = (c, res, spent)
    elif kind == "drop":
        _put_loose(s, c, cargo)
        tribes[i] = (c, EMPTY, spent)
    elif kind == "exchange":
        res = WOOD if d[2] == "wood" else STONE
        _put_loose(s, c, cargo)
        _take_loose(s, c, res)
        tribes[i] = (c, res, spent)
    elif kind == "handoff":
        _, _, _, rspent = d[2]
        tribes[i] = (c, EMPTY, spent)
        j = find_tribe(s, p, c, EMPTY, rspent)
        if j == i:  # the giver itself now matches the receiver's description
            j = tribes.index((c, EMPTY, rspent), i + 1)
        tribes[j] = (c, cargo, rspent)
        return -1
    elif kind == "offering":
        owner, num = d[2]
        for k, h in enumerate(s.huts):
            if h[0] == owner and h[1] == num:
                tribes[i] = (c, OFFERING + h[3], spent)
                s.huts[k] = (h[0], h[1], h[2], 0)
                break
    elif kind == "donate":
        donate_stone(s, p)
        tribes[i] = (c, EMPTY, spent)
    return i


def _take_loose(s: MesoState, c: Coord, res: int) -> None:
    loose = s.wood if res == WOOD else s.stone
    left = loose[c] - 1
    if left:
        loose[c] = left
    else:
        del loose[c]


def _put_loose(s: MesoState, c: Coord, res: int) -> None:
    loose = s.wood if res == WOOD else s.stone
    loose[c] = loose.get(c, 0) + 1


# --- discovery (M7) ---------------------------------------------------------------------
def discovery_actions(s: MesoState, out: list[str]) -> None:
    pend = s.pending
    assert pend is not None
    if pend[0] == "pile":
        for k, size in enumerate(s.pile_sizes, start=1):
            if size:
                out.append(f"pile {k}")
    elif pend[0] == "volcano":
        target = pend[4]
        allow_target = s.opts["volcano_may_use_discovery_target"]
        for c in s.spaces():
            if c != target or allow_target:
                out.append(f"volcano {c[0]},{c[1]}")
    elif pend[0] == "shares":
        _, new_tile, kind, _, picked = pend
        for c in sorted(s.tiles_of(kind)):
            if c in picked or (c == new_tile and s.opts["short_supply_new_tile_first"]):
                continue
            out.append(f"share {c[0]},{c[1]}")


def discovery_refusal(s: MesoState, d: tuple) -> str | None:  # type: ignore[type-arg]
    """Why a pile, volcano or share answer is not legal, or None (M7.2, M7.3, M7.5)."""
    pend = s.pending
    assert pend is not None
    kind = d[0]
    if kind != {"pile": "pile", "volcano": "volcano", "shares": "share"}.get(pend[0]):
        return None  # an answer to another decision: the caller names the pending one
    if kind == "pile" and not (1 <= d[1] <= len(s.pile_sizes) and s.pile_sizes[d[1] - 1]):
        return message("meso.refusal.pileEmpty")
    if kind == "volcano":
        if d[1] == pend[4] and not s.opts["volcano_may_use_discovery_target"]:
            return message("meso.refusal.volcanoNotTarget")
        if not s.is_space(d[1]):
            return message("meso.refusal.volcanoSpace")
    if kind == "share":
        if s.tiles.get(d[1]) != pend[2]:
            return message("meso.refusal.shareKind", tile=V.tile(pend[2]))
        return message("meso.refusal.shareDone")
    return None


def unknown_pool(s: MesoState) -> dict[str, int]:
    """Tiles in the piles that nobody has seen (all tiles left minus Land-peeked tops)."""
    pool = dict(s.remaining)
    for tops in s.pile_tops:
        for kind, _ in tops:
            pool[kind] -= 1
    return pool


def draw_outcomes(s: MesoState, pile: int) -> list[tuple[str, float]]:
    tops = s.pile_tops[pile]
    if tops:
        return [(f"tile {tops[0][0]}", 1.0)]
    pool = unknown_pool(s)
    total = sum(pool.values())
    return [(f"tile {k}", v / total) for k, v in pool.items() if v]


def apply_discovery(s: MesoState, p: int, d: tuple) -> None:  # type: ignore[type-arg]
    pend = s.pending
    assert pend is not None
    kind = d[0]
    if kind == "pile":
        s.pending = ("draw", *pend[1:], d[1] - 1)
    elif kind == "tile":
        _, origin, cargo, spent, target, pile = pend
        tile = d[1]
        # piles are replaced, never changed in place: clones share them
        sizes = s.pile_sizes = list(s.pile_sizes)
        sizes[pile] -= 1
        if s.pile_tops[pile]:
            s.pile_tops[pile] = s.pile_tops[pile][1:]
        s.remaining = {**s.remaining, tile: s.remaining[tile] - 1}
        if tile == VOLCANO:
            s.pending = ("volcano", origin, cargo, spent, target)
            return
        s.pending = None
        set_tile(s, target, tile)
        i = s.tribes[p].index((origin, cargo, spent))
        s.tribes[p][i] = (target, cargo, spent)
        s.mp -= 1
        s.disc += 1
        if tile in (FOREST, QUARRY):
            place_resources(s, target, tile)
    elif kind == "volcano":
        target = pend[4]
        set_tile(s, d[1], VOLCANO)
        if d[1] == target or not any(s.pile_sizes):
            s.pending = None  # R34 (or the target itself became a volcano): the tribe stays
        else:
            s.pending = ("pile", *pend[1:])
    elif kind == "share":
        _, new_tile, tile_kind, left, picked = pend
        _give(s, d[1], tile_kind)
        s.pending = ("shares", new_tile, tile_kind, left - 1, (*picked, d[1])) if left > 1 else None


def place_resources(s: MesoState, new_tile: Coord, kind: str) -> None:
    """M7.5: share min(N, supply) resources among the tiles of that kind."""
    supply = s.supply_wood if kind == FOREST else s.supply_stone
    k = min(s.n, supply)
    if k == 0:
        return
    family = s.tiles_of(kind)
    if k >= len(family):
        for c in family:
            _give(s, c, kind)
        for _ in range(k - len(family)):
            _give(s, new_tile, kind)
    elif s.opts["short_supply_new_tile_first"]:
        _give(s, new_tile, kind)
        if k > 1:
            s.pending = ("shares", new_tile, kind, k - 1, ())
    else:
        s.pending = ("shares", new_tile, kind, k, ())


def _give(s: MesoState, c: Coord, kind: str) -> None:
    if kind == FOREST:
        s.supply_wood -= 1
        s.wood[c] = s.wood.get(c, 0) + 1
    else:
        s.supply_stone -= 1
        s.stone[c] = s.stone.get(c, 0) + 1


# actions imports this module: bound once both are complete (a function-level import would
# cost every call)
from ziggurat.games.mesopotamia import actions as _act  # noqa: E402
from ziggurat.games.mesopotamia import cards as _cards  # noqa: E402

__all__ = ["COLOUR_LETTERS", "movement_actions", "apply_movement"]
