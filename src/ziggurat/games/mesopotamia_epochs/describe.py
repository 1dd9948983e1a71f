"""Player-readable sentences for Mesopotamia: Epochs, redacted for one viewer (rules spec §6).

A *step* is one applied action plus what the engine then did by itself: forced decisions and
certain chance outcomes (``auto`` events, see :mod:`.flow`), and the silent bookkeeping of the
rules (a round's scoring, the next round's start, a card turned face up, the end of an Epoch).
:func:`describe_step` turns a step into sentences such as "Mask keeps the Akkadians", "Head
passes a card to Brooch" or "The Egyptians attack Memphis from Thebes: 5 and 3 against 4, the
attacker wins". It reads only the action texts and two *views* of the viewer (before and after
the step), so it never names a card the viewer may not know: a dealt or drawn card is named
only to the seat that received or drew it, and a kept or passed card only to its drawer.

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
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_MAP, DEFAULT_PEOPLES, SYMBOLS
from ziggurat.games.mesopotamia_epochs.geography import Map
from ziggurat.games.mesopotamia_epochs.peoples import Peoples

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat concerned
View = dict[str, Any]

ABILITY_SHORT = {"military": "Mil", "urbanisation": "Urb", "seafaring": "Sea", "fast_growth": "Fast",
                 "slow_growth": "Slow"}  # fmt: skip


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

    def the(self, pid: str) -> str:
        """``the Sumerians``."""
        return f"the {self.people(pid)}"

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


def symbol_name(symbol: str) -> str:
    return symbol.capitalize()


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

    def who(self, symbol: str) -> str:
        return symbol_name(symbol)

    def of(self, pid: str) -> str:
        """``the Guti (Head)``."""
        sym = self.owner.get(pid)
        return self.names.the(pid) + (f" ({symbol_name(sym)})" if sym else "")

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


def _event_sentence(step: _Step, event: Event) -> str:  # noqa: C901 - one branch per action kind
    actor, text, auto, concerned = event
    words = text.split()
    kind = words[0] if words else ""
    names = step.names
    if kind == "deal":
        sym = words[1] if len(words) > 1 else "?"
        card = words[2] if len(words) > 2 else "?"
        if card != "?" and sym == step.viewer:
            return f"{step.who(sym)} is dealt {names.the(card)}"
        return f"{step.who(sym)} is dealt a card"
    if kind == "draw":
        sym = seat_symbol(concerned)
        card = words[1] if len(words) > 1 else "?"
        if card != "?" and sym == step.viewer:
            step.drawn = card
            return f"{step.who(sym)} draws {names.the(card)}" + (" (the last card)" if auto else "")
        step.drawn = None
        return f"{step.who(sym)} draws a card" + (" (the last card)" if auto else "")
    me = seat_symbol(actor)
    if kind == "keep":
        what = names.the(step.drawn) if step.drawn else "the card"
        return f"{step.who(me)} keeps {what}"
    if kind == "pass":
        to = step.who(words[1]) if len(words) > 1 else "?"
        what = names.the(step.drawn) if step.drawn else "a card"
        forced = " (forced: they already hold a card, R9)" if auto else ""
        return f"{step.who(me)} passes {what} to {to}{forced}"
    people = step.people
    if kind == "land" and len(words) > 1:
        step.start_area = words[1]
        who = step.of(people) if people else step.who(me)
        return f"{who[0].upper()}{who[1:]} come ashore at {names.area(words[1])}"
    if kind == "displace" and len(words) > 1:
        src = step.start_area or "?"
        moved = str(step.occ.get(src, ["?", 0])[0])
        step.add(src, moved, -1)
        step.add(words[1], moved, 1)
        only = " (its only way out)" if auto else ""
        return (f"{step.who(me)} moves a displaced tribe of {names.the(moved)} from {names.area(src)} "
                f"to {names.area(words[1])}{only}")  # fmt: skip
    if kind == "remove":
        src = step.start_area or "?"
        moved = str(step.occ.get(src, ["?", 0])[0])
        step.add(src, moved, -1)
        return (
            f"A displaced tribe of {names.the(moved)} in {names.area(src)} has nowhere to go and is removed"
        )
    if kind == "place" and len(words) > 1 and people:
        return _place_sentence(step, people, words[1])
    if kind == "stop":
        rnd = step.before.get("round") or {}
        left = int(rnd.get("pool", 0))
        who = names.the(people) if people else step.who(me)
        lost = f"; {left} unplaced tribe{'s are' if left != 1 else ' is'} discarded" if left else ""
        return f"{who[0].upper()}{who[1:]} stop placing{lost}"
    if kind == "roll" and people:
        return _roll_sentence(step, people, words[1:])
    return f"{step.who(me)}: {text}"


def _place_sentence(step: _Step, people: str, area: str) -> str:
    names = step.names
    held = step.occ.get(area)
    subject = names.the(people)
    subject = subject[0].upper() + subject[1:]
    if held is None:
        step.add(area, people, 1)
        how = "" if attack_route(names, step.occ, people, area) or names.map is None else " by sea"
        return f"{subject} place a tribe in {names.area(area)}{how}"
    if held[0] == people:
        step.add(area, people, 1)
        return f"{subject} add a tribe to {names.area(area)} ({held[1]} there)"
    count = int(held[1])
    return (f"{subject} attack {names.area(area)}, held by {count} tribe{'s' if count != 1 else ''} "
            f"of {step.of(str(held[0]))}")  # fmt: skip


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


def _roll_sentence(step: _Step, people: str, dice: list[str]) -> str:
    names = step.names
    pend = step.before.get("pending") or []
    area = str(pend[1]) if len(pend) > 1 else "?"
    held = step.occ.get(area, ["?", 0])
    defender, count = str(held[0]), int(held[1])
    att = [int(x) for x in dice[0].split(",")] if dice else []
    dfn = [int(x) for x in dice[1].split(",")] if len(dice) > 1 else []
    route = attack_route(names, step.occ, people, area)
    where = f" from {names.area(route)}" if route else " from the sea" if names.map is not None else ""
    subject = names.the(people)
    mil = " with Military" if "military" in names.abilities(people) else ""
    faces = f"{' and '.join(map(str, att))}{mil} against {' and '.join(map(str, dfn))}"
    att_lost, def_lost = _losses(step, people, defender, att, dfn)
    if att_lost and def_lost:
        result = "a tie: each side loses a tribe"
        step.add(area, defender, -1)
        if count <= 1:
            result += f", and {names.area(area)} is left empty"
    elif def_lost:
        step.add(area, defender, -1)
        if count <= 1:
            step.add(area, people, 1)
            result = f"the attacker wins and takes {names.area(area)}"
        else:
            result = f"the attacker wins: {count - 1} defending tribe{'s' if count != 2 else ''} left, the attack goes on"
    else:
        result = "the defender wins: the attacking tribe is lost"
    if (att_lost == 0) != (def_lost == 0) and att and dfn:
        bonus = 1 if mil else 0
        if max(att) + bonus == max(dfn):
            result += " (Urbanisation breaks the tie)"
    return f"{subject[0].upper()}{subject[1:]} attack {names.area(area)}{where}: {faces}, {result}"


# --- what the engine did by itself -------------------------------------------------------------
def _transitions(step: _Step) -> list[str]:
    """Sentences for the rules' own bookkeeping between ``before`` and ``after``: scores,
    cards turned face up, the end of an Epoch, the next round, the end of the game."""
    before, after, names = step.before, step.after, step.names
    out: list[str] = []
    epoch = int(before["epoch"])
    scored = []
    for pid, st in after.get("peoples", {}).items():
        gain = int(st["vp"]) - int(before.get("peoples", {}).get(pid, {}).get("vp", 0))
        if gain > 0:
            scored.append((names.order(pid, epoch) or 0, pid, gain))
    vp_after = {pl["symbol"]: int(pl["vp"]) for pl in after["players"]}
    for _, pid, gain in sorted(scored):
        sym = step.owner.get(pid, "")
        total = f" ({symbol_name(sym)} now has {vp_after.get(sym, 0)})" if sym else ""
        out.append(f"{_cap(names.the(pid))} score {gain} VP{total}")
    aside_before = {(c["epoch"], c["people"]) for c in before["set_aside"] if c["public"]}
    newly = [
        c["people"]
        for c in after["set_aside"]
        if c["public"] and (c["epoch"], c["people"]) not in aside_before
    ]
    if after["epoch"] != before["epoch"] or (after["phase"] == "over" and before["phase"] != "over"):
        out.append(f"Epoch {epoch} ends")
    if newly:
        out.append("Set aside, never in play: " + ", ".join(names.the(p) for p in newly if p))
    if after["phase"] == "over" and before["phase"] != "over":
        out.append(result_sentence(after))
        return out
    if after["epoch"] != before["epoch"] and after["phase"] == "allocation":
        order = ", ".join(symbol_name(s) for s in after.get("draw_order") or [])
        out.append(f"Epoch {after['epoch']} begins: cards are drawn in the order {order} (fewest VP first)")
    if before["phase"] == "allocation" and after["phase"] != "allocation":
        out.append(f"The deal of Epoch {after['epoch']} is complete")
        out.extend(_learned(step))
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
            ):
                out.append(f"{symbol_name(pl['symbol'])}'s card is turned face up: {names.the(c['people'])}")
    return out


def _learned(step: _Step) -> list[str]:
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
                out.append(f"{symbol_name(me)} holds {step.names.the(c['people'])} this Epoch")
    return out


def _round_start(step: _Step, rnd: dict[str, Any], after: View) -> str:
    names = step.names
    pid = rnd["people"]
    head = f"Round #{rnd['order']}: {step.of(pid)}"
    pend = after.get("pending") or []
    if pend and pend[0] == "landing":
        return f"{head} start at sea and choose a coast to land on ({rnd['pool']} tribes)"
    new = names.card_epoch(pid) == after["epoch"]
    start = names.start(pid)
    enter = f", enter at {names.area(start)}" if new and start else ""
    return f"{head}{enter}, {rnd['pool']} tribe{'s' if rnd['pool'] != 1 else ''} to place"


def result_sentence(after: View) -> str:
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
    others = ", ".join(f"{symbol_name(s)} {key[s][0]}" for s in ranked if s not in top)
    rest = f" ({others})" if others else ""
    if len(top) > 1:
        return f"Game over: {' and '.join(symbol_name(s) for s in top)} share the victory with {key[top[0]][0]} VP{rest}"
    return f"Game over: {symbol_name(top[0])} wins with {key[top[0]][0]} VP{rest}"


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def describe_event(event: Event, before: View, after: View) -> str:
    """One sentence for ``event`` alone (the first of its step), as the viewer may read it."""
    return _event_sentence(_Step(before, after), event)


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[str, bool]]:
    """Sentences ``(text, auto)`` for one step, as the viewer of ``before``/``after`` sees it.

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
    out: list[tuple[str, bool]] = []
    for i, event in enumerate(events):
        if i == split:
            out.extend((t, True) for t in _transitions(step))
            step.new_round()
        out.append((_event_sentence(step, event), event[2]))
    if split == len(events):
        out.extend((t, True) for t in _transitions(step))
    return out


# --- legal actions, for a player choosing one ----------------------------------------------------
ACTION_KINDS = {
    "keep": "keep the card you drew (D1, E3.4)",
    "pass": "pass the drawn card face down to a player without a card (D1, E3.4)",
    "land": "sea start: the coastal area of your first tribe (D3, E7.5)",
    "displace": "where your displaced tribe goes (D2, E7.2)",
    "remove": "the displaced tribe has nowhere to go (E7.3)",
    "place": "place the next tribe; into an area held by another People it attacks (D4, E8, E12)",
    "stop": "stop placing; the rest of the pool is discarded (E8.6)",
}


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance."""
    return group_by_kind(legal, ACTION_KINDS)


NOTATION_HELP = """\
Notation (docs/mesopotamia-epochs.md): areas and Peoples by id (babylon, sea_peoples) or name
(place Great Green), players by symbol or initial (brooch head mask statue urn: b h m s u).
Actions: keep · pass head · land byblos · displace elam · remove · place babylon · stop.
Placing into an area held by another People is an attack; the dice are rolled for you."""
