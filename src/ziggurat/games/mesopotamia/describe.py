"""Player-readable sentences for Mesopotamia actions, redacted for one viewer (rules spec §6).

A *step* is one applied action plus the forced decisions and certain chance outcomes the
engine then applied itself (``auto`` events, see :mod:`.flow`). :func:`describe_step` turns a
step into sentences such as "Red moves a tribe from 1,-1 to 2,-1" or "Blue steals a stone
from Yellow on 2,0". It reads only two *views* of the viewer (before and after the step) and
the action texts, and it never prints a hidden value: offering values, cards drawn and
Land-peeked tiles are named only when the viewer owns them, and offering values otherwise only
once the view shows them (a delivery reveals the marker, M6.4).

Every sentence is a :class:`~ziggurat.engine.messages.Message` (``meso.log.*``, patterns in
``messages/<lang>.json``; the things it names come from :mod:`.vocabulary`): it *is* its
English text, and the server, the browser and the terminal render it in the reader's language.

It also names the kinds of legal actions for a player choosing one (:func:`action_groups`)
and summarises the notation (:data:`NOTATION_HELP`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ziggurat.engine.eventlog import events_since as events_since  # re-exported for the CLI
from ziggurat.engine.eventlog import log_mark as log_mark
from ziggurat.engine.messages import Message, message
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import (
    COLOURS,
    DATA,
    HOLY_STONE,
    LETTER_SEAT,
    MANA,
    MANA_THEFT,
    OFFERING,
    OFFERING_VALUES,
    PRIEST,
    STONE,
    TELEPORT,
)
from ziggurat.games.mesopotamia.notation import decode

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat whose turn it is
View = dict[str, Any]
Figures = dict[int, tuple[int, int]]
"""Mana and limit of each player whose figures are known at one moment of a step, by seat."""


# log_mark / events_since: the engine's (ziggurat.engine.eventlog), re-exported above


def colour_name(seat: int) -> Message:
    """The colour of ``seat`` as a player's name ("Blue")."""
    return V.colour(seat)


def card_name(card: str) -> Message:
    """A card's name ("Holy Stone") from its type ("holy_stone")."""
    return V.card(card)


def _viewer(view: View) -> int | None:
    who = view.get("viewer")
    return None if who is None else COLOURS.index(who)


def _tile_kind(view: View, c: Sequence[int]) -> str | None:
    for q, r, kind in view["tiles"]:
        if q == c[0] and r == c[1]:
            return str(kind)
    return None


def _loose(view: View) -> dict[tuple[int, int], tuple[int, int]]:
    return {(q, r): (w, s) for q, r, w, s in view["loose"]}


def _player(view: View, seat: int) -> dict[str, Any]:
    pl: dict[str, Any] = view["players"][seat]
    return pl


def _offering_value(view: View, seat: int, pub: str) -> int | None:
    value = _player(view, seat)["offerings"]["placed"].get(pub)
    return None if value is None else int(value)


def _figures(view: View) -> Figures:
    """Every player's Mana and limit in ``view`` (public, M13)."""
    return {seat: (int(pl["mana"]), int(pl["limit"])) for seat, pl in enumerate(view["players"])}


def _mana(figures: Figures, view: View, seat: int) -> Message:
    """ "Mana 3/5": ``seat``'s Mana and limit from ``figures``, or as ``view`` shows them if
    ``figures`` does not know them."""
    known = figures.get(seat)
    if known is None:
        pl = _player(view, seat)
        known = (int(pl["mana"]), int(pl["limit"]))
    return message("meso.log.mana", mana=known[0], limit=known[1])


hut_name = V.hut
"""A hut as the log and the board name it (:func:`.vocabulary.hut`)."""


def _worth(value: int | None) -> Message:
    if value is None:
        return message("meso.log.hiddenWorth")
    return message("meso.log.worth", value=value)


def _donated(before: View, after: View) -> bool:
    """Whether the step removed a stone from the game (M5.5), so whether a stone carrier that
    arrived on the temple in it gave its stone (M5.4): with ``stone_donated_on_temple_entry``
    off it keeps the stone until a ``donate``, which is never forced, so never in that step."""
    return int(after["supply"]["stones_removed"]) > int(before["supply"]["stones_removed"])


def _temple_arrival(
    who: Message,
    seat: int,
    cargo: int,
    origin: Sequence[int],
    dest: Sequence[int] | None,
    before: View,
    after: View,
    figures: tuple[Figures, Figures],
) -> Message | None:
    """What happened when a tribe of ``seat`` arrived on the temple (M5.4, M6.4, M6.5): with
    ``dest``, a step from ``origin`` onto the temple at ``dest``, told with the step; without,
    a Teleport's arrival (:func:`_describe_target` says where from). ``None``: nothing
    happened but the arrival."""
    ahead, done = figures
    if cargo == STONE:
        if not _donated(before, after):
            return None
        if dest is None:
            return message("meso.log.donate", who=who, mana=_mana(done, after, seat))
        return message(
            "meso.log.moveDonate",
            who=who,
            origin=_coord(origin),
            dest=_coord(dest),
            mana=_mana(done, after, seat),
        )
    if cargo < OFFERING:
        return None
    pub = str(cargo - OFFERING)
    worth = _worth(_offering_value(after, seat, pub))
    if int(pub) in _player(after, seat)["offerings"]["delivered"]:
        if dest is None:
            return message("meso.log.deliver", who=who, worth=worth, mana=_mana(done, after, seat))
        return message(
            "meso.log.moveDeliver",
            who=who,
            origin=_coord(origin),
            dest=_coord(dest),
            worth=worth,
            mana=_mana(done, after, seat),
        )
    mana = (ahead.get(seat) or (int(_player(before, seat)["mana"]), 0))[0]
    if dest is None:
        return message("meso.log.deliveryFails", who=who, worth=worth, mana=mana, origin=_coord(origin))
    return message(
        "meso.log.moveDeliveryFails",
        who=who,
        origin=_coord(origin),
        dest=_coord(dest),
        worth=worth,
        mana=mana,
    )


def describe_event(
    event: Event,
    before: View,
    after: View,
    target: list[int] | None = None,
    figures: tuple[Figures, Figures] | None = None,
    pending: Sequence[Any] | None = None,
    phase: str | None = None,
) -> Message:
    """One sentence for ``event``, as the viewer of ``before``/``after`` may read it.

    ``before`` is the viewer's view before the step the event belongs to, ``after`` after it;
    ``target`` the space a discovery under way is heading for, if known; ``figures`` the
    players' Mana and limit just before and just after the event, where known (see
    :func:`mana_figures`); without them, the event is taken as the whole step. ``pending`` and
    ``phase``: the decision pending and the phase just before the event, if not ``before``'s
    (an earlier event of the step changed them).
    """
    actor, text, _, turn_seat = event
    viewer = _viewer(before)
    owner = turn_seat if actor < 0 else actor
    who = V.colour(owner)
    words = text.split(" ")
    kind = words[0]
    mine = viewer is not None and viewer == owner
    # Texts that hide something are handled before parsing: a redacted record shows them as "?".
    if kind == "offer":
        if mine and words[1:] != ["?"]:
            return message("meso.log.offerValue", who=who, value=int(words[1]))
        return message("meso.log.offer", who=who)
    if kind == "card":
        if mine and words[1:] != ["?"]:
            return message("meso.log.cardDrawn", who=who, card=V.card(words[1]))
        return message("meso.log.cardDrawnHidden", who=who)
    if kind == "peek":
        if mine and words[1:] != ["?"]:
            return message("meso.log.peek", who=who, tile=V.tile(words[1]))
        return message("meso.log.peekHidden", who=who)
    if kind == "order":
        if mine and words[1:] != ["?"]:
            tiles = [V.tile(k) for k in words[1].split(",")]
            return message("meso.log.order", who=who, tiles=tiles)
        return message("meso.log.orderHidden", who=who)
    if kind == "deal":
        dealt = LETTER_SEAT.get(words[1], -1) if len(words) > 1 else -1
        name = V.colour(dealt) if dealt >= 0 else message("meso.log.aPlayer")
        if viewer is not None and viewer == dealt and len(words) > 2 and words[2] != "?":
            return message("meso.log.dealt", who=name, card=V.card(words[2]))
        return message("meso.log.dealtHidden", who=name)
    try:
        d = decode(text)
    except ValueError:
        return message("meso.log.other", who=who, text=text)
    if figures is None:
        figures = (_figures(before), _figures(after))
    if pending is None:
        pending = before.get("pending")
    if phase is None:
        phase = str(before.get("phase"))
    return _describe_decoded(d, who, owner, before, after, target, figures, pending, phase)


def _describe_decoded(  # noqa: C901 - one branch per action kind reads best as a flat list
    d: tuple,  # type: ignore[type-arg]
    who: Message,
    seat: int,
    before: View,
    after: View,
    target: list[int] | None,
    figures: tuple[Figures, Figures],
    pending: Sequence[Any] | None,
    phase: str,
) -> Message:
    kind = d[0]
    if kind == "first":
        order = [V.colour(COLOURS.index(c)) for c in after.get("turn_order") or []]
        return message("meso.log.first", who=V.colour(d[1]), order=order)
    if kind == "move":
        tseat, c, cargo, _ = d[1]
        dest = d[2]
        there = _tile_kind(before, dest)
        if there is None:
            return message("meso.log.explore", who=who, origin=_coord(c), dest=_coord(dest))
        if there == "temple":
            arrival = _temple_arrival(who, tseat, cargo, c, dest, before, after, figures)
            if arrival is not None:
                return arrival
            return message(
                "meso.log.moveTemple", who=who, cargo=V.cargo(cargo), origin=_coord(c), dest=_coord(dest)
            )
        return message("meso.log.move", who=who, cargo=V.cargo(cargo), origin=_coord(c), dest=_coord(dest))
    if kind == "pile":
        return message("meso.log.pile", who=who, pile=d[1])
    if kind == "tile":
        tile = d[1]
        if tile == "volcano":
            return message("meso.log.tileVolcano")
        where = message("meso.log.tileAt", at=_coord(target)) if target else message("meso.log.blank")
        return message(
            "meso.log.tile", tile=V.tile(tile), where=where, gains=_resource_gains(before, after, tile)
        )
    if kind == "volcano":
        return message("meso.log.volcano", who=who, at=_coord(d[1]))
    if kind == "share":
        res = "wood" if _tile_kind(before, d[1]) == "forest" else "stone"
        return message("meso.log.share", who=who, resource=V.resource(res), at=_coord(d[1]))
    if kind == "pickup":
        return message("meso.log.pickup", who=who, resource=V.resource(d[2]), at=_coord(d[1][1]))
    if kind == "drop":
        return message("meso.log.drop", who=who, resource=V.resource(d[1][2]), at=_coord(d[1][1]))
    if kind == "exchange":
        return message(
            "meso.log.exchange",
            who=who,
            resource=V.resource(d[1][2]),
            other=V.resource(d[2]),
            at=_coord(d[1][1]),
        )
    if kind == "handoff":
        return message("meso.log.handoff", who=who, resource=V.resource(d[1][2]), at=_coord(d[1][1]))
    if kind == "steal":
        victim = d[1]
        return message(
            "meso.log.steal",
            who=who,
            resource=V.resource(victim[2]),
            victim=V.colour(victim[0]),
            at=_coord(victim[1]),
        )
    if kind == "offering":
        hut = hut_name(d[2][0], d[2][1])
        pub = _carried_offering(after, seat, d[1][1])
        value = _offering_value(after, seat, pub) if pub else None
        if value is not None:
            return message("meso.log.offeringValue", who=who, value=value, hut=hut, at=_coord(d[1][1]))
        return message("meso.log.offering", who=who, hut=hut, at=_coord(d[1][1]))
    if kind == "donate":
        return message("meso.log.donate", who=who, mana=_mana(figures[1], after, seat))
    if kind == "end":
        if phase == "movement":
            return message("meso.log.endMovement", who=who)
        return message("meso.log.endTurn", who=who)
    if kind == "hut":
        return message("meso.log.hut", who=who, at=_coord(d[1]))
    if kind == "holy":
        return message("meso.log.holy", who=who, at=_coord(d[1]))
    if kind == "grow":
        grown = _player(before, seat)["tribes_in_supply"] - _player(after, seat)["tribes_in_supply"]
        n = max(grown, 0)
        if d[5]:
            return message("meso.log.growFertility", who=who, at=_coord(d[1]), count=n)
        return message("meso.log.grow", who=who, at=_coord(d[1]), count=n)
    if kind == "draw":
        return message("meso.log.drawAction", who=who)
    if kind == "pass":
        return message("meso.log.pass", who=who)
    if kind == "stop":
        return message("meso.log.stop", who=who)
    if kind == "income":
        ahead, done = figures
        was, now = ahead.get(seat), done.get(seat)
        if was is None or now is None:  # a Holy Stone earlier in the step: its effect is an option
            return message("meso.log.incomeOnly", who=who, mana=_mana(done, after, seat))
        return message("meso.log.income", who=who, gain=now[0] - was[0], mana=_mana(done, after, seat))
    if kind == "play":
        return _describe_play(d, who, seat, before, after, figures[1])
    if kind == "to":
        return _describe_target(d[1], who, pending or [], before, after, figures)
    return message("meso.log.other", who=who, text=str(d))


def _coord(c: Sequence[int]) -> str:
    return V.coord(c)


def _carried_offering(view: View, seat: int, c: Sequence[int]) -> str:
    """Public id of an offering an own tribe of ``seat`` carries on ``c`` (any, for wording)."""
    for q, r, cargo, _ in _player(view, seat)["tribes"]:
        if (q, r) == (c[0], c[1]) and str(cargo).startswith("o"):
            return str(cargo)[1:]
    return ""


def _resource_gains(before: View, after: View, tile: str) -> Message:
    """The resources a new forest or quarry put on the tiles of its kind (M7.4, M7.5)."""
    if tile not in ("forest", "quarry"):
        return message("meso.log.blank")
    idx = 0 if tile == "forest" else 1
    old, new = _loose(before), _loose(after)
    gains = []
    for c, amounts in sorted(new.items()):
        added = amounts[idx] - old.get(c, (0, 0))[idx]
        if added > 0 and _tile_kind(after, c) == tile:
            gains.append(message("meso.log.gain", at=_coord(c), count=added))
    if not gains:
        return message("meso.log.blank")
    return message("meso.log.gains", resource=V.resource("wood" if idx == 0 else "stone"), gains=gains)


def _describe_play(d: tuple, who: Message, seat: int, before: View, after: View, done: Figures) -> Message:  # type: ignore[type-arg]
    from ziggurat.games.mesopotamia.data import CARD_TYPES
    from ziggurat.games.mesopotamia.notation import fmt_hut

    card = CARD_TYPES[d[1]]
    name = V.card(card)
    if card == "endurance":
        mp = after.get("mp", 0) - before.get("mp", 0)
        return message("meso.log.playEndurance", who=who, card=name, mp=mp)
    if card == "holy_stone":
        return message("meso.log.playHolyStone", who=who, card=name, mana=_mana(done, after, seat))
    if card == "priest":
        return message("meso.log.playPriest", who=who, card=name, at=_coord(d[2]))
    if card == "mana_theft":
        victim = d[2]
        lost = _player(before, victim)["mana"] - _player(after, victim)["mana"]
        return message(
            "meso.log.playManaTheft",
            who=who,
            card=name,
            victim=V.colour(victim),
            lost=lost,
            mana=_mana(done, after, seat),
        )
    if card == "land":
        return message("meso.log.playLand", who=who, card=name, pile=d[2])
    if card == "teleport":
        tseat, c, cargo, _ = d[2]
        return message(
            "meso.log.playTeleport",
            who=who,
            card=name,
            tribe=V.tribe(tseat),
            cargo=V.cargo(cargo),
            at=_coord(c),
        )
    if card == "expulsion":
        key = fmt_hut(d[2][0], d[2][1])
        hut = hut_name(d[2][0], d[2][1])
        where = next((_coord(h[2:4]) for h in before["huts"] if _hut_key(h) == key), None)
        if where is not None:
            return message("meso.log.playExpulsionAt", who=who, card=name, hut=hut, at=where)
        return message("meso.log.playExpulsion", who=who, card=name, hut=hut)
    return message("meso.log.play", who=who, card=name)


def _hut_key(h: Sequence[Any]) -> str:
    owner = h[0]
    return f"n{h[1]}" if owner == "neutral" else f"{owner[0]}{h[1]}"


def _describe_target(
    dest: Sequence[int],
    who: Message,
    pend: Sequence[Any],
    before: View,
    after: View,
    figures: tuple[Figures, Figures],
) -> Message:
    """A ``to``: the answer to ``pend``, a Teleport's or an Expulsion's pending decision."""
    if pend and pend[0] == "teleport":
        tseat, origin, cargo_code = int(pend[1]), pend[2], int(pend[3])
        if _tile_kind(before, dest) == "temple":
            arrival = _temple_arrival(
                V.colour(tseat), tseat, cargo_code, origin, None, before, after, figures
            )
            if arrival is not None:
                return message("meso.log.teleported", origin=_coord(origin), arrival=arrival)
        return message(
            "meso.log.teleports", who=who, tribe=V.tribe(tseat), origin=_coord(origin), dest=_coord(dest)
        )
    if pend and pend[0] == "expel":
        owner, num = pend[1]
        return message("meso.log.movesHut", who=who, hut=hut_name(int(owner), int(num)), at=_coord(dest))
    return message("meso.log.chooses", who=who, at=_coord(dest))


def mana_figures(events: Sequence[Event], before: View, after: View) -> list[Figures]:
    """The players' Mana and limit before each event of a step and after the last (one more
    entry than ``events``), where the views let them be known: Mana is public (M13), but the
    views show it only before and after the whole step.

    Each event's effect is read from the rules and the views: a donated stone raises the limit
    and then Mana by 1 (M5.5), a delivery costs the offering's value (M6.4, shown once
    delivered), Mana Theft moves what its victim lost (M15.6); income (M13) is the collector's
    last change of Mana in its step, so after it the collector has the Mana ``after`` shows. A
    Holy Stone's effect is an option the views do not carry: its player's figures are unknown
    from it until that player's income, which then tells them if the income is known from the
    board (:func:`_income_by_rules`) and was not cut by the limit (M13.7)."""
    known = _figures(before)
    final = _figures(after)
    out = [dict(known)]
    entry_donates = _donated(before, after)
    pend = before.get("pending") or []
    teleported: tuple[int, int] | None = None  # seat and cargo of a tribe being teleported
    if pend and pend[0] == "teleport":
        teleported = (int(pend[1]), int(pend[3]))
    priests = [(int(c[0]), int(c[1])) for c in before.get("priests") or []]
    unknown_since: dict[int, int] = {}  # seat -> first entry of ``out`` not knowing it (-1: lost)
    for actor, text, _, turn_seat in events:
        kind = text.split(" ", 1)[0]
        seat = turn_seat if actor < 0 else actor
        if kind in ("move", "donate", "to", "play", "income"):
            try:
                d = decode(text)
            except ValueError:  # a text redacted for this viewer changes no one's Mana
                d = ()
            if d and kind != "income":
                for lost in list(unknown_since):  # a change while unknown: no way back to its figures
                    unknown_since[lost] = -1
            if not d:
                pass
            elif kind == "move" and _tile_kind(before, d[2]) == "temple":
                _arrive(known, d[1][0], d[1][2], entry_donates, after)
            elif kind == "donate":
                _arrive(known, seat, STONE, True, after)
            elif kind == "to":
                if teleported is not None and _tile_kind(before, d[1]) == "temple":
                    _arrive(known, teleported[0], teleported[1], entry_donates, after)
                teleported = None
            elif kind == "play":
                if d[1] == TELEPORT:  # the tribe it names is teleported by the next "to"
                    teleported = (int(d[2][0]), int(d[2][2]))
                elif d[1] == PRIEST:
                    priests.append((int(d[2][0]), int(d[2][1])))
                _play_figures(known, seat, d, before, after)
            elif kind == "income" and seat in final:
                since = unknown_since.pop(seat, -1)
                if seat not in known and since >= 0:
                    _before_income(out[since:], seat, final[seat], _income_by_rules(after, seat, priests))
                known[seat] = final[seat]
        for player in final:
            if player not in known and player not in unknown_since:
                unknown_since[player] = len(out)
        out.append(dict(known))
    return out


def _income_by_rules(view: View, seat: int, priests: Sequence[tuple[int, int]]) -> int | None:
    """``seat``'s income on the board of ``view`` (M13.2, M13.3) with ``priests`` played this
    phase (M15.2); ``None`` if a tribe of ``seat`` stands on the temple, since the option
    ``temple_gives_mana`` (a view does not carry options) may pay it 1 more."""
    # imported here: imported first, the rules would be loaded in a cycle (state, flow, cards)
    from ziggurat.games.mesopotamia.actions import holy_income, holy_places_paying

    tribes: dict[tuple[int, int], int] = {}
    for q, r, _cargo, _spent in _player(view, seat)["tribes"]:
        if _tile_kind(view, (q, r)) == "temple":
            return None
        tribes[(int(q), int(r))] = tribes.get((int(q), int(r)), 0) + 1
    holy = [((int(q), int(r)), COLOURS.index(owner)) for q, r, owner in view["holy_places"]]
    rules = DATA["income"]
    return holy_income(holy_places_paying(holy, lambda c: tribes.get(c, 0), seat, rules), priests, rules)


def _before_income(entries: list[Figures], seat: int, now: tuple[int, int], income: int | None) -> None:
    """Fill in ``seat``'s figures in ``entries``, the moments between a Holy Stone and its
    income, from what the income paid (``None``: not known); none if the limit may have cut
    it (M13.7), since then the Mana before it is not known."""
    mana, limit = now
    if income is None or (income > 0 and mana >= limit):
        return
    for entry in entries:
        entry[seat] = (mana - income, limit)


def _arrive(known: Figures, seat: int, cargo: int, donates: bool, after: View) -> None:
    """A tribe of ``seat`` carrying ``cargo`` arrived on the temple: its donation or delivery."""
    was = known.get(seat)
    if was is None:
        return
    mana, limit = was
    if cargo == STONE and donates:
        limit = min(int(MANA["limitCap"]), limit + 1)
        known[seat] = (min(limit, mana + 1), limit)
    elif cargo >= OFFERING and cargo - OFFERING in _player(after, seat)["offerings"]["delivered"]:
        value = _offering_value(after, seat, str(cargo - OFFERING))
        if value is None:
            del known[seat]
        else:
            known[seat] = (mana - value, limit)


def _play_figures(known: Figures, seat: int, d: tuple, before: View, after: View) -> None:  # type: ignore[type-arg]
    """What playing a card (``d`` decoded) did to the figures of ``known``."""
    if d[1] == HOLY_STONE:
        known.pop(seat, None)
    elif d[1] == MANA_THEFT:
        victim = int(d[2])
        lost = int(_player(before, victim)["mana"]) - int(_player(after, victim)["mana"])
        thief, robbed = known.get(seat), known.get(victim)
        if thief is not None:
            known[seat] = (min(thief[1], thief[0] + lost), thief[1])
        if robbed is not None:
            known[victim] = (robbed[0] - lost, robbed[1])


def _asks(text: str) -> list[Any]:
    """The decision a card play ``text`` asks next, as a view's ``pending`` shows
    it: where a Teleport sends its tribe (D28), where an Expulsion moves its hut (D29)."""
    words = text.split(" ")
    if len(words) < 3 or words[1] not in ("teleport", "expulsion"):
        return []
    try:
        d = decode(text)
    except ValueError:
        return []
    if words[1] == "teleport":
        tseat, c, cargo, spent = d[2]
        return ["teleport", tseat, list(c), cargo, spent]
    return ["expel", list(d[2])]


def _phase_after(kind: str, phase: str) -> str:
    """The phase after an event of ``kind`` in ``phase``, as far as the log tells ``end``s apart
    (M1.2): Phase I ends with ``end``; Phase II with ``pass``, ``stop`` or action D's card
    (M12.1), so Phase III; its ``end`` ends the turn, and the next one starts with Phase I."""
    if kind in ("first", "deal"):
        return "movement"
    if kind in ("pass", "stop", "card", "income"):
        return "mana"
    if kind == "end":
        return "action" if phase == "movement" else "movement"
    return phase


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[str, bool]]:
    """Sentences ``(text, auto)`` for one step, as the viewer of ``before``/``after`` sees it.

    Each sentence is a :class:`~ziggurat.engine.messages.Message` (its English text, with the
    key and parameters to render it in any language)."""
    out: list[tuple[str, bool]] = []
    pend = before.get("pending") or []
    target: list[int] | None = list(pend[4]) if pend and pend[0] in ("pile", "draw", "volcano") else None
    figures = mana_figures(events, before, after)
    asked: Sequence[Any] = pend  # the decision pending before each event
    phase = str(before.get("phase"))  # the phase before each event
    for i, event in enumerate(events):
        words = event[1].split(" ")
        if words[0] == "move" and len(words) == 3:
            dest = [int(x) for x in words[2].split(",")]
            if _tile_kind(before, dest) is None:
                target = dest
        figs = (figures[i], figures[i + 1])
        out.append((describe_event(event, before, after, target, figs, asked, phase), event[2]))
        asked = _asks(event[1]) if words[0] == "play" else []
        phase = _phase_after(words[0], phase)
    if after.get("winner") and not before.get("winner"):
        seat = COLOURS.index(after["winner"])
        # M16.1: a fourth delivery; else the leader at the round limit (option rank_non_winners)
        delivered = len(after["players"][seat]["offerings"]["delivered"]) == len(OFFERING_VALUES)
        who = V.colour(seat)
        won = message("meso.log.wins", who=who) if delivered else message("meso.log.winsRanked", who=who)
        out.append((won, False))
    return out


# --- legal actions, for a player choosing one --------------------------------------------
ACTION_KINDS: dict[str, Message] = {kind: V.action_kind(kind) for kind in V.ACTION_KINDS}
"""What each kind of action does ("drop a resource (free, M3.3)"), a message in any language."""


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance; each title is a
    message, ``kind: what it does`` (``drop: drop a resource (free, M3.3)``)."""
    titled: list[tuple[str, list[str]]] = []
    for _, acts in group_by_kind(legal, ACTION_KINDS):
        kind = acts[0].split(" ", 1)[0]
        what = ACTION_KINDS.get(kind, kind)  # an unknown kind is named by itself, as group_by_kind does
        titled.append((message("meso.actionGroup", kind=kind, what=what), acts))
    return titled


NOTATION_HELP = message("meso.notationHelp")
"""How to type an action, a message (its English text is the help as ``ziggurat play`` prints it)."""
