"""Player-readable sentences for Mesopotamia: Epochs, redacted for one viewer (rules spec §6).

A *step* is one applied action plus what the engine then did by itself: forced decisions and
certain chance outcomes (``auto`` events, see :mod:`.flow`), and the silent bookkeeping of the
rules (a round's scoring, the next round's start, a card turned face up, the end of an Epoch).
:func:`describe_step` turns a step into sentences such as "Mask keeps the Akkadians", "Head
passes a card to Brooch" or "The Egyptians attack Memphis from Thebes: 5 and 3 against 4, the
attacker wins". It reads only the action texts and two *views* of the viewer (before and after
the step), so it never names a card the viewer may not know: a dealt or drawn card is named
only to the seat that received or drew it, and a kept or passed card only to its drawer.

Each sentence is a message (:mod:`ziggurat.engine.messages`): its English text, plus a key
(``epochs.log.*``) and parameters that the game's catalogues (``messages/<lang>.json``) word
in every language; the names in it are messages too (:mod:`.words`). A parameter never holds
what the viewer may not know, so the server can send the message as it is.

It also groups legal actions for a player choosing one (:func:`action_groups`) and summarises
the notation (:data:`NOTATION_HELP`). :class:`Names` (display names of areas, Peoples and
players for a view's map and cards) is shared with the two renderers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from ziggurat.engine.eventlog import events_since as events_since  # re-exported for the CLI
from ziggurat.engine.eventlog import log_mark as log_mark
from ziggurat.engine.messages import Message, message
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_MAP, DEFAULT_PEOPLES, SYMBOLS
from ziggurat.games.mesopotamia_epochs.geography import Map
from ziggurat.games.mesopotamia_epochs.peoples import Peoples
from ziggurat.games.mesopotamia_epochs.words import (
    area_in_named,
    area_named,
    area_the_named,
    joined,
    people_named,
    symbol,
)

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat concerned
View = dict[str, Any]


# --- names ---------------------------------------------------------------------------------
class Names:
    """Display names for one view: its map and cards when they are the packaged ones (a
    replaced map or card set is not in the view, so its ids are shown as names)."""

    def __init__(self, map_id: str | None, peoples_id: str | None) -> None:
        self.map: Map | None = DEFAULT_MAP if map_id == DEFAULT_MAP.map_id else None
        known = self.map is not None and peoples_id == DEFAULT_PEOPLES.peoples_id
        self.peoples: Peoples | None = DEFAULT_PEOPLES if known else None

    def area(self, aid: str) -> str:
        if self.map is not None and aid in self.map.index:
            return self.map.names[self.map.index[aid]]
        return aid.replace("_", " ").title()

    def people(self, pid: str) -> str:
        if self.peoples is not None and pid in self.peoples.index:
            return self.peoples.names[self.peoples.index[pid]]
        return pid.replace("_", " ").title()

    def area_word(self, aid: str) -> Message:
        """The area's name as a message (in the reader's language)."""
        return area_named(aid, self.area(aid))

    def area_in(self, aid: str) -> Message:
        """The area after "in": "in Ur", French "à Ur", "en Élam", "dans les Îles" (:mod:`.words`)."""
        return area_in_named(aid, self.area(aid))

    def area_the(self, aid: str) -> Message:
        """The area as a subject or an object: "the Islands", French "l'Élam" (:mod:`.words`)."""
        return area_the_named(aid, self.area(aid))

    def people_word(self, pid: str) -> Message:
        """The People's name as a message (in the reader's language)."""
        return people_named(pid, self.people(pid))

    def abilities(self, pid: str) -> tuple[str, ...]:
        if self.peoples is not None and pid in self.peoples.index:
            return self.peoples.abilities[self.peoples.index[pid]]
        return ()

    def order(self, pid: str, epoch: int) -> int | None:
        if self.peoples is not None and pid in self.peoples.index:
            return self.peoples.order(self.peoples.index[pid], epoch)
        return None

    def card_epoch(self, pid: str) -> int | None:
        if self.peoples is not None and pid in self.peoples.index:
            return self.peoples.card_epoch[self.peoples.index[pid]]
        return None

    def initial(self, pid: str) -> int | None:
        if self.peoples is not None and pid in self.peoples.index:
            return self.peoples.initial[self.peoples.index[pid]]
        return None

    def start(self, pid: str) -> str | None:
        if self.peoples is not None and self.map is not None and pid in self.peoples.index:
            return self.map.ids[self.peoples.start[self.peoples.index[pid]]]
        return None

    def bonus(self, pid: str) -> str | None:
        if self.peoples is not None and self.map is not None and pid in self.peoples.index:
            return self.map.ids[self.peoples.bonus[self.peoples.index[pid]]]
        return None


@cache
def _names(map_id: str | None, peoples_id: str | None) -> Names:
    return Names(map_id, peoples_id)


def names_for(view: View) -> Names:
    return _names(view.get("map"), view.get("peoples_data"))


def seat_symbol(seat: int) -> str:
    return SYMBOLS[seat] if 0 <= seat < len(SYMBOLS) else f"seat{seat}"


def owners(view: View) -> dict[str, str]:
    """People id -> its holder's symbol, for every card whose identity the view shows."""
    out: dict[str, str] = {}
    for pl in view["players"]:
        for card in pl["cards"]:
            if card["people"] is not None:
                out[card["people"]] = pl["symbol"]
    return out


def occupancy(view: View) -> dict[str, tuple[str, int]]:
    """Area id -> (People id, tribes) for every occupied area."""
    return {a: (p, int(n)) for a, p, n in view["areas"]}


def removed(view: View, pid: str) -> int:
    return int(view.get("peoples", {}).get(pid, {}).get("removed", 0))


def attack_route(names: Names, occ: Mapping[str, Sequence[Any]], pid: str, target: str) -> str | None:
    """The area the People ``pid`` attacks ``target`` from (the easiest land route, R40), or
    None when no held area borders it (the attack comes by sea, E9.4)."""
    m = names.map
    if m is None or target not in m.index:
        return None
    t = m.index[target]
    best: tuple[bool, str] | None = None
    for a in m.land_adj[t]:
        aid = m.ids[a]
        if occ.get(aid, ("", 0))[0] == pid:
            key = ((a, t) in m.difficult, aid)
            if best is None or key < best:
                best = key
    return None if best is None else best[1]


# --- the event log ---------------------------------------------------------------------------
# log_mark / events_since: the engine's (ziggurat.engine.eventlog), re-exported above


# --- one step ----------------------------------------------------------------------------------
_START_KINDS = ("displace", "remove", "land")


def _yes(flag: bool) -> str:
    """The value of a yes/no ``select`` parameter of the catalogue's patterns."""
    return "yes" if flag else "no"


@cache
def _nothing() -> Message:
    """An optional clause of a sentence that does not apply (an empty message)."""
    return message("epochs.log.nothing")


def _dice(faces: Sequence[int]) -> Message:
    """``3 and 5`` (one die: ``4``)."""
    if not faces:
        return _nothing()
    out = message("epochs.log.die", n=faces[0])
    for n in faces[1:]:
        out = message("epochs.and", a=out, b=message("epochs.log.die", n=n))
    return out


class _Step:
    """What the sentences of one step need to know as its events go by."""

    def __init__(self, before: View, after: View) -> None:
        self.before = before
        self.after = after
        self.names = names_for(before)
        viewer = before.get("viewer")
        self.viewer: str | None = None if viewer is None else str(viewer)
        self.occ: dict[str, list[Any]] = {a: list(v) for a, v in occupancy(before).items()}
        self.owner = owners(before) | owners(after)
        rnd = before.get("round")
        self.people: str | None = rnd["people"] if rnd else None
        pend = before.get("pending") or []
        self.drawn: str | None = pend[1] if pend and pend[0] == "keep" and pend[1] else None
        self.start_area: str | None = pend[1] if pend and pend[0] == "displace" else None
        self.removals = False  # a displaced tribe was removed in this step (E7.3)

    def who(self, sym: str) -> Message:
        return symbol(sym)

    def owned(self, pid: str) -> Message:
        """`` (Head)``: who holds ``pid``'s card, when the view shows it; else nothing."""
        sym = self.owner.get(pid)
        return message("epochs.log.owner", who=symbol(sym)) if sym else _nothing()

    def add(self, area: str, pid: str, n: int) -> None:
        held = self.occ.get(area)
        if held is None or held[0] != pid:
            held = [pid, 0]
        held[1] += n
        if held[1] <= 0:
            self.occ.pop(area, None)
        else:
            self.occ[area] = held

    def new_round(self) -> None:
        """The step crossed into the round of ``after``: its People and start area."""
        rnd = self.after.get("round")
        self.people = rnd["people"] if rnd else None
        self.start_area = self.names.start(self.people) if self.people else None


def _event_sentence(step: _Step, event: Event) -> Message:  # noqa: C901 - one branch per action kind
    actor, text, auto, concerned = event
    words = text.split()
    kind = words[0] if words else ""
    names = step.names
    if kind == "deal":
        sym = words[1] if len(words) > 1 else "?"
        card = words[2] if len(words) > 2 else "?"
        if card != "?" and sym == step.viewer:
            return message("epochs.log.dealtNamed", who=step.who(sym), people=names.people_word(card))
        return message("epochs.log.dealt", who=step.who(sym))
    if kind == "draw":
        sym = seat_symbol(concerned)
        card = words[1] if len(words) > 1 else "?"
        if card != "?" and sym == step.viewer:
            step.drawn = card
            return message(
                "epochs.log.drawsNamed", who=step.who(sym), people=names.people_word(card), last=_yes(auto)
            )
        step.drawn = None
        return message("epochs.log.draws", who=step.who(sym), last=_yes(auto))
    me = seat_symbol(actor)
    if kind == "keep":
        if step.drawn:
            return message("epochs.log.keepsNamed", who=step.who(me), people=names.people_word(step.drawn))
        return message("epochs.log.keeps", who=step.who(me))
    if kind == "pass":
        to = step.who(words[1] if len(words) > 1 else "?")
        if step.drawn:
            return message(
                "epochs.log.passesNamed",
                who=step.who(me),
                people=names.people_word(step.drawn),
                to=to,
                forced=_yes(auto),
            )
        return message("epochs.log.passes", who=step.who(me), to=to, forced=_yes(auto))
    people = step.people
    if kind == "land" and len(words) > 1:
        step.start_area = words[1]
        if people:
            return message(
                "epochs.log.ashore",
                people=names.people_word(people),
                owner=step.owned(people),
                area_in=names.area_in(words[1]),
            )
        return message("epochs.log.ashoreSeat", who=step.who(me), area_in=names.area_in(words[1]))
    if kind == "displace" and len(words) > 1:
        src = step.start_area or "?"
        moved = str(step.occ.get(src, ["?", 0])[0])
        step.add(src, moved, -1)
        step.add(words[1], moved, 1)
        return message(
            "epochs.log.displaced",
            who=step.who(me),
            people=names.people_word(moved),
            source_the=names.area_the(src),
            to_the=names.area_the(words[1]),
            only=_yes(auto),
        )
    if kind == "remove":
        src = step.start_area or "?"
        moved = str(step.occ.get(src, ["?", 0])[0])
        step.add(src, moved, -1)
        return message("epochs.log.removed", people=names.people_word(moved), area_in=names.area_in(src))
    if kind == "place" and len(words) > 1 and people:
        return _place_sentence(step, people, words[1])
    if kind == "stop":
        rnd = step.before.get("round") or {}
        left = int(rnd.get("pool", 0))
        if people:
            return message("epochs.log.stop", people=names.people_word(people), left=left)
        return message("epochs.log.stopSeat", who=step.who(me), left=left)
    if kind == "roll" and people:
        return _roll_sentence(step, people, words[1:])
    return message("epochs.log.other", who=step.who(me), text=text)


def _place_sentence(step: _Step, people: str, area: str) -> Message:
    names = step.names
    held = step.occ.get(area)
    subject = names.people_word(people)
    if held is None:
        step.add(area, people, 1)
        by_sea = not (attack_route(names, step.occ, people, area) or names.map is None)
        return message("epochs.log.place", people=subject, area_in=names.area_in(area), sea=_yes(by_sea))
    if held[0] == people:
        step.add(area, people, 1)
        return message("epochs.log.reinforce", people=subject, area_in=names.area_in(area), n=int(held[1]))
    defender = str(held[0])
    return message(
        "epochs.log.attack",
        people=subject,
        area_the=names.area_the(area),
        n=int(held[1]),
        defender=names.people_word(defender),
        owner=step.owned(defender),
    )


def _losses(step: _Step, people: str, defender: str, att: list[int], dfn: list[int]) -> tuple[int, int]:
    """Tribes lost by the attacker and the defender in one roll (E12.5): from the removal
    ledgers of the two views, exact under any option; by the default rules (Military +1,
    Urbanisation breaks a tie, R16-R18) when a displaced tribe was also removed in the step."""
    if not step.removals:
        lost = [removed(step.after, p) - removed(step.before, p) for p in (people, defender)]
        return lost[0], lost[1]
    names = step.names
    a = max(att) + (1 if "military" in names.abilities(people) else 0)
    d = max(dfn)
    if a != d:
        return (0, 1) if a > d else (1, 0)
    urb_a, urb_d = ("urbanisation" in names.abilities(p) for p in (people, defender))
    if urb_a != urb_d:
        return (0, 1) if urb_a else (1, 0)
    return 1, 1


def _roll_sentence(step: _Step, people: str, dice: list[str]) -> Message:
    names = step.names
    pend = step.before.get("pending") or []
    area = str(pend[1]) if len(pend) > 1 else "?"
    held = step.occ.get(area, ["?", 0])
    defender, count = str(held[0]), int(held[1])
    att = [int(x) for x in dice[0].split(",")] if dice else []
    dfn = [int(x) for x in dice[1].split(",")] if len(dice) > 1 else []
    route = attack_route(names, step.occ, people, area)
    if route:
        source = message("epochs.log.fromArea", area_the=names.area_the(route))
    else:
        source = message("epochs.log.fromSea") if names.map is not None else _nothing()
    military = "military" in names.abilities(people)
    where = names.area_the(area)
    att_lost, def_lost = _losses(step, people, defender, att, dfn)
    if att_lost and def_lost:
        step.add(area, defender, -1)
        if count <= 1:
            result = message("epochs.log.result.tieEmpty", area_in=names.area_in(area))
        else:
            result = message("epochs.log.result.tie")
    elif def_lost:
        step.add(area, defender, -1)
        if count <= 1:
            step.add(area, people, 1)
            result = message("epochs.log.result.takes", area_the=where)
        else:
            result = message("epochs.log.result.goesOn", n=count - 1)
    else:
        result = message("epochs.log.result.lost")
    urbanisation = False
    if (att_lost == 0) != (def_lost == 0) and att and dfn:
        urbanisation = max(att) + (1 if military else 0) == max(dfn)
    return message(
        "epochs.log.roll",
        people=names.people_word(people),
        area_the=where,
        source=source,
        attack=_dice(att),
        military=_yes(military),
        defence=_dice(dfn),
        result=result,
        urbanisation=_yes(urbanisation),
    )


# --- what the engine did by itself -------------------------------------------------------------
def _transitions(step: _Step) -> list[Message]:
    """Sentences for the rules' own bookkeeping between ``before`` and ``after``: scores,
    cards turned face up, the end of an Epoch, the next round, the end of the game."""
    before, after, names = step.before, step.after, step.names
    out: list[Message] = []
    epoch = int(before["epoch"])
    scored = []
    for pid, st in after.get("peoples", {}).items():
        gain = int(st["vp"]) - int(before.get("peoples", {}).get(pid, {}).get("vp", 0))
        if gain > 0:
            scored.append((names.order(pid, epoch), pid, gain))
    scored.sort(key=lambda x: (x[0] or 0, x[1]))
    vp_after = {pl["symbol"]: int(pl["vp"]) for pl in after["players"]}
    # the round under way before the step has its heading in the log already; a round the
    # engine played through in the step (no decision: an empty pool, R5, or no target, E8.6)
    # is told under a heading of its own, before its score
    rnd_b = before.get("round") if before["phase"] == "strategy" else None
    told: set[str] = set()
    scores: list[Message] = []
    for number, pid, gain in scored:
        sym = step.owner.get(pid, "")
        total = message("epochs.log.total", who=symbol(sym), n=vp_after.get(sym, 0)) if sym else _nothing()
        score = message("epochs.log.score", people=names.people_word(pid), n=gain, total=total)
        if rnd_b and rnd_b["people"] == pid:
            out.append(score)
        elif number is not None:
            told.add(pid)
            scores.extend((_played_round(step, pid, number, epoch), score))
        else:
            scores.append(score)
    if before["phase"] == "allocation" and after["phase"] != "allocation":
        out.append(message("epochs.log.dealDone", n=epoch))
        out.extend(_learned(step))
    out.extend(scores)
    aside_before = {(c["epoch"], c["people"]) for c in before["set_aside"] if c["public"]}
    newly = [
        c["people"]
        for c in after["set_aside"]
        if c["public"] and (c["epoch"], c["people"]) not in aside_before
    ]
    if after["epoch"] != before["epoch"] or (after["phase"] == "over" and before["phase"] != "over"):
        out.append(message("epochs.log.epochEnds", n=epoch))
    if newly:
        aside = [message("epochs.log.the", people=names.people_word(p)) for p in newly if p]
        out.append(message("epochs.log.setAside", peoples=aside))
    if after["phase"] == "over" and before["phase"] != "over":
        out.append(result_sentence(after))
        return out
    if after["epoch"] != before["epoch"] and after["phase"] == "allocation":
        order = [symbol(s) for s in after.get("draw_order") or []]
        out.append(message("epochs.log.epochBegins", n=int(after["epoch"]), order=order))
    rnd_b, rnd_a = before.get("round"), after.get("round")
    same = rnd_a and rnd_b and rnd_a["people"] == rnd_b["people"] and after["epoch"] == before["epoch"]
    if rnd_a and not same:
        out.append(_round_start(step, rnd_a, after))
    shown_b = {(c["epoch"], c["people"]) for pl in before["players"] for c in pl["cards"] if c["public"]}
    for pl in after["players"]:
        for c in pl["cards"]:
            if (
                c["public"]
                and (c["epoch"], c["people"]) not in shown_b
                and (not rnd_a or c["people"] != rnd_a["people"])
                and c["people"] not in told
            ):
                out.append(
                    message(
                        "epochs.log.faceUp", who=symbol(pl["symbol"]), people=names.people_word(c["people"])
                    )
                )
    return out


def _learned(step: _Step) -> list[Message]:
    """The viewer's passed card, which it may look at once the deal is over (E3.5)."""
    me = step.viewer
    if me is None:
        return []
    out = []
    for pl in step.after["players"]:
        if pl["symbol"] != me:
            continue
        for c in pl["cards"]:
            if c["epoch"] == step.after["epoch"] and c["people"] is not None:
                out.append(
                    message("epochs.log.holds", who=symbol(me), people=step.names.people_word(c["people"]))
                )
    return out


def _played_round(step: _Step, pid: str, order: int, epoch: int) -> Message:
    """The heading of a round the engine played through without a decision: a People of an
    earlier Epoch with no tribe it can place, or a new one whose start left it none (E7)."""
    names = step.names
    start = names.start(pid)
    initial = names.initial(pid)
    if names.card_epoch(pid) == epoch and start and initial is not None:
        enter = message("epochs.log.enter", area_the=names.area_the(start))
        return message(
            "epochs.log.round",
            n=order,
            people=names.people_word(pid),
            owner=step.owned(pid),
            enter=enter,
            pool=initial,
        )
    return message("epochs.log.roundNone", n=order, people=names.people_word(pid), owner=step.owned(pid))


def _round_start(step: _Step, rnd: dict[str, Any], after: View) -> Message:
    names = step.names
    pid = rnd["people"]
    pool = int(rnd["pool"])
    pend = after.get("pending") or []
    if pend and pend[0] == "landing":
        return message(
            "epochs.log.roundAtSea",
            n=int(rnd["order"]),
            people=names.people_word(pid),
            owner=step.owned(pid),
            pool=pool,
        )
    new = names.card_epoch(pid) == after["epoch"]
    start = names.start(pid)
    enter = message("epochs.log.enter", area_the=names.area_the(start)) if new and start else _nothing()
    return message(
        "epochs.log.round",
        n=int(rnd["order"]),
        people=names.people_word(pid),
        owner=step.owned(pid),
        enter=enter,
        pool=pool,
    )


def result_sentence(after: View) -> Message:
    """E15.2: most VP, then most areas held, then most double-value areas (the defaults)."""
    names = names_for(after)
    who = owners(after)
    areas: dict[str, int] = {}
    doubles: dict[str, int] = {}
    m = names.map
    for a, pid, _ in after["areas"]:
        sym = who.get(pid)
        if sym:
            areas[sym] = areas.get(sym, 0) + 1
            if m is not None and a in m.index and m.double[m.index[a]]:
                doubles[sym] = doubles.get(sym, 0) + 1
    key = {pl["symbol"]: (int(pl["vp"]), areas.get(pl["symbol"], 0), doubles.get(pl["symbol"], 0))
           for pl in after["players"]}  # fmt: skip
    ranked = sorted(key, key=lambda s: key[s], reverse=True)
    top = [s for s in ranked if key[s] == key[ranked[0]]]
    others = [message("epochs.log.playerVp", who=symbol(s), n=key[s][0]) for s in ranked if s not in top]
    rest = message("epochs.log.others", scores=others) if others else _nothing()
    if len(top) > 1:
        return message("epochs.log.shared", who=joined([symbol(s) for s in top]), n=key[top[0]][0], rest=rest)
    return message("epochs.log.wins", who=symbol(top[0]), n=key[top[0]][0], rest=rest)


def describe_event(event: Event, before: View, after: View) -> Message:
    """One sentence for ``event`` alone (the first of its step), as the viewer may read it."""
    return _event_sentence(_Step(before, after), event)


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[Message, bool]]:
    """Sentences ``(message, auto)`` for one step, as the viewer of ``before``/``after`` sees it.

    Each sentence is a :class:`~ziggurat.engine.messages.Message` (``epochs.log.*``): its
    English text, and a key and parameters to render it in the reader's language.

    The rules' own bookkeeping (scores, the next round, the end of an Epoch or of the game)
    is told where it happened: after the events of the old round, before a new round's start
    decisions (a landing, displacements) that the engine applied in the same step. So the
    sentences are in the order things happened; the ``i``-th is the ``i``-th event's only up to
    the first bookkeeping sentence (``auto`` True, told last when no start decision follows).
    """
    step = _Step(before, after)
    step.removals = any(e[1] == "remove" for e in events)
    crossed = (before.get("round") or {}).get("people") != (after.get("round") or {}).get("people") or (
        before["epoch"] != after["epoch"] or before["phase"] != after["phase"]
    )
    split = len(events)
    if crossed:
        for i in range(1, len(events)):
            kind = events[i][1].split(" ", 1)[0]
            prev = events[i - 1][1].split(" ", 1)[0]
            if kind in _START_KINDS and prev not in _START_KINDS:
                split = i
                break
    out: list[tuple[Message, bool]] = []
    for i, event in enumerate(events):
        if i == split:
            out.extend((t, True) for t in _transitions(step))
            step.new_round()
        out.append((_event_sentence(step, event), event[2]))
    if split == len(events):
        out.extend((t, True) for t in _transitions(step))
    return out


# --- legal actions, for a player choosing one ----------------------------------------------------
ACTION_KINDS: dict[str, Message] = {
    "keep": message("epochs.actionKind.keep"),
    "pass": message("epochs.actionKind.pass"),
    "land": message("epochs.actionKind.land"),
    "displace": message("epochs.actionKind.displace"),
    "remove": message("epochs.actionKind.remove"),
    "place": message("epochs.actionKind.place"),
    "stop": message("epochs.actionKind.stop"),
}
"""What each kind of action does, as a message (``render(text, lang)`` words it)."""


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance, each titled
    ``"kind: what it does"``: a message for the kinds of :data:`ACTION_KINDS`."""
    out: list[tuple[str, list[str]]] = []
    for title, actions in group_by_kind(legal, ACTION_KINDS):
        kind = actions[0].split(" ", 1)[0]
        if kind in ACTION_KINDS:
            title = message("epochs.actionGroup", kind=kind, description=ACTION_KINDS[kind])
        out.append((title, actions))
    return out


NOTATION_HELP = message("epochs.notationHelp")
"""A summary of the notation, as a message (``render(NOTATION_HELP, lang)``)."""
