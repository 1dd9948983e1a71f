"""Player-readable sentences for Mare Nostrum: Empires, redacted for one viewer (section 7).

:func:`describe_step` turns the events of one step (an applied action plus what the engine did
by itself) into sentences such as "Rome builds a market in Gallia" or "Carthage takes wine
from Egypt", each a message (``mn.log.*``, :mod:`ziggurat.engine.messages`) that reads in any
language; the names of things are the vocabularies of :mod:`.nouns`, and a seat is named as
the browser names it (its empire once dealt, else "seat 1", counted from 1). It reads only the
event texts and two *views* of the viewer, and never names what the viewer may not know
(7.1-7.5): another seat's trade offer before the reveal, another seat's legendary draw or
Colossus good, the goods another seat keeps or produces behind its screen (a count only).
Face-down tiles are never named (a reveal names the tile turned face up, which is public).
Besides one sentence per event, a step tells what the views show changed without an event of
its own: the titles the Claim phase moves (N5.1), the round start, each seat's Production (N1)
and the end of the game.

Also: :func:`action_groups` (legal actions grouped by kind for a player choosing one),
:data:`NOTATION_HELP`, :func:`log_mark` / :func:`events_since`, and naming helpers shared
with the two renderers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ziggurat.engine.eventlog import events_since as events_since  # re-exported for the CLI
from ziggurat.engine.eventlog import log_mark as log_mark
from ziggurat.engine.messages import Message, message
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import nouns as N
from ziggurat.games.mare_nostrum import production

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat concerned
View = dict[str, Any]

PROVINCE_NAMES: dict[str, str] = {p["id"]: p["name"] for p in D._MAP["provinces"]}
SEA_NAMES: dict[str, str] = {s["id"]: s["name"] for s in D._MAP["seas"]}


def seat_label(view: View, seat: int) -> Message:
    """A seat as the browser names it: ``Rome`` once empires are dealt, else ``seat 1``
    (counted from 1); a message, so it reads in any language."""
    return N.whom(view, seat)


def _side(view: View, seat: int, faces: list[int], total: int) -> Message:
    """One side of a battle: ``Rome 2, 4, 5, 6 = 17``, ``Carthage 3, 4 + 5 = 12``, ``Rome 4``."""
    who = N.whom(view, seat)
    dice: Any = faces or message("mn.log.noDice")
    bonus = total - sum(faces)
    if bonus:
        return message("mn.log.sideBonus", who=who, dice=dice, bonus=bonus, total=total)
    if len(faces) > 1:
        return message("mn.log.sideTotal", who=who, dice=dice, total=total)
    return message("mn.log.side", who=who, dice=dice)


def battle_result(
    view: View, battle: dict[str, Any], last: bool = False, before: View | None = None
) -> Message:
    """The outcome of a resolved battle (``last_battle`` of a view): each side's dice, total
    (with the fortress or Nebuchadnezzar bonus, N4.7.3) and the hits it took (N4.7.4-N4.7.6),
    e.g. ``Result in Numidia: Rome 2, 4, 5, 6 = 17, Carthage 3, 4 + 5 = 12; hits taken: Rome 2,
    Carthage 2`` (``Last battle in ...`` with ``last``). With ``before``, the view before the
    step that resolved it, a side that took more hits than it had units there is told what it
    lost too (``...; legions lost: Rome 2, Carthage 1``): each hit removes one unit and the
    surplus is lost (N4.7.6)."""
    hits = battle.get("hits") or [0, 0]
    sides = []
    for i, side in enumerate(("att", "def")):
        faces = [int(f) for f in battle.get(f"{side}_faces") or []]
        total = int((battle.get("totals") or [sum(faces), sum(faces)])[i])
        sides.append(_side(view, int(battle[side]), faces, total))
    att, dfn = N.whom(view, int(battle["att"])), N.whom(view, int(battle["def"]))
    where = N.in_area(str(battle.get("where")))
    a_hits, d_hits = int(hits[0]), int(hits[1])
    if last:
        return message(
            "mn.log.lastBattle", where=where, att=sides[0], dfn=sides[1],
            att_who=att, att_hits=a_hits, def_who=dfn, def_hits=d_hits,
        )  # fmt: skip
    lost = None if before is None else _units_lost(before, battle, (a_hits, d_hits))
    if lost is not None:
        return message(
            "mn.log.resultLost", where=where, att=sides[0], dfn=sides[1],
            att_who=att, att_hits=a_hits, def_who=dfn, def_hits=d_hits,
            kind="sea" if battle.get("kind") == "sea" else "land", att_lost=lost[0], def_lost=lost[1],
        )  # fmt: skip
    return message(
        "mn.log.result", where=where, att=sides[0], dfn=sides[1],
        att_who=att, att_hits=a_hits, def_who=dfn, def_hits=d_hits,
    )  # fmt: skip


def _units_lost(before: View, battle: dict[str, Any], hits: tuple[int, int]) -> tuple[int, int] | None:
    """The units each side lost in ``battle`` (N4.7.6: one a hit, no more than it had there:
    triremes at sea, legions on land), by the units ``before`` shows at its place; ``None``
    when that is the hits (nothing to add) or the view does not show them."""
    units = before.get("triremes" if battle.get("kind") == "sea" else "legions") or {}
    there = units.get(str(battle.get("where")))
    if not isinstance(there, list):
        return None
    seats = (int(battle["att"]), int(battle["def"]))
    if not all(0 <= s < len(there) for s in seats):
        return None
    lost = (min(hits[0], int(there[seats[0]])), min(hits[1], int(there[seats[1]])))
    return None if lost == hits else lost


# --- the event log -----------------------------------------------------------------------------
# log_mark / events_since: the engine's (ziggurat.engine.eventlog), re-exported above


# --- sentences -----------------------------------------------------------------------------------
def _offers_public(view: View) -> bool:
    trade = view.get("trade")
    return trade is None or bool(trade.get("revealed"))


def _roll(who: Message | None, faces: str) -> Message:
    """``Rome rolls 2, 4 (total 6)``, ``Rome rolls 4``, ``Dice: 3, 4 (total 7)``."""
    shown = [int(f) for f in faces.split(",")]
    if who is None:
        if len(shown) == 1:
            return message("mn.log.diceOne", face=shown[0])
        return message("mn.log.dice", faces=shown, total=sum(shown))
    if len(shown) == 1:
        return message("mn.log.rollsOne", who=who, face=shown[0])
    return message("mn.log.rolls", who=who, faces=shown, total=sum(shown))


def _move(who: Message, kind: str, arg: list[str]) -> Message:
    """A legion marching or carried by sea (N4.6), onto its marker or a building when it says so."""
    src, dst = N.area(arg[0]), N.area(arg[1])
    if len(arg) > 2 and arg[2] == "@marker":
        return message("mn.log.moveOntoMarker", who=who, how=kind, src=src, dst=dst)
    if len(arg) > 2:
        return message("mn.log.moveOnto", who=who, how=kind, src=src, dst=dst, slot=N.the_slot(arg[2][1:]))
    return message("mn.log.move", who=who, how=kind, src=src, dst=dst)


def _trade_sentence(ev: Event, after: View, receiver: int | None = None) -> Message | None:  # noqa: PLR0911
    """Production and trade (N1, N2): a seat's own draws, Colossus good and offers are named to
    it alone until the offers are revealed (7.2-7.4). ``receiver``: the final chooser, to whom
    the starter gives the imbalance token (N2.9), when known."""
    actor, text, _auto, concerned = ev
    viewer = after.get("viewer")
    kind, *arg = text.split()
    who = N.who(after, actor)
    if kind == "draw":
        drawer = N.who(after, concerned) if concerned >= 0 else message("mn.log.aPlayer")
        if concerned == viewer and viewer is not None:
            return message("mn.log.drawNamed", who=drawer, tok=N.token(f"leg:{arg[0]}"))
        return message("mn.log.draw", who=drawer)
    if kind == "extra":
        return message("mn.log.extra", who=who, what=arg[0])
    if kind == "colossus":
        if actor == viewer:
            return message("mn.log.colossusNamed", who=who, tok=N.token(arg[0]))
        return message("mn.log.colossus", who=who)
    if kind == "token":
        return message("mn.log.tradeToken", who=who, letter=arg[0].upper(), value=int(arg[1]))
    if kind == "offer":
        if arg[0] == "size":
            return message("mn.log.offerSize", who=who, n=int(arg[1]))
        if actor == viewer or _offers_public(after):
            return message("mn.log.offer", who=who, tok=N.token(arg[0]))
        return message("mn.log.offerSecret", who=who)
    if kind == "starter":
        return message("mn.log.starter", who=who, to=N.whom(after, int(arg[0])))
    if kind == "take":
        return message("mn.log.take", who=who, tok=N.token(arg[0]), src=N.whom(after, int(arg[2])))
    if kind == "give":
        if receiver is None:
            return message("mn.log.give", who=who, tok=N.token(arg[0]))
        return message("mn.log.giveTo", who=who, tok=N.token(arg[0]), to=N.whom(after, receiver))
    if kind == "keep":
        if arg[0] == "none" and actor == viewer:
            return message("mn.log.keepNone", who=who)
        if actor == viewer:
            return message("mn.log.keep", who=who, toks=[N.token(t) for t in arg[0].split(",")])
        k = 0 if arg[0] == "none" else len(arg[0].split(","))
        return message("mn.log.keepCount", who=who, n=k)
    return None


def _military_sentence(ev: Event, after: View, stage: str | None) -> Message | None:  # noqa: PLR0911
    """The Military phase (N4): moves, battles, dice, losses and conquests; ``done`` names the
    step it ends (``stage``: the stage the event was played in, when known)."""
    actor, text, _auto, concerned = ev
    kind, *arg = text.split()
    who = N.who(after, actor)
    if kind == "zeus":
        if arg[0] == "none":
            return message("mn.log.zeusNone", who=who)
        return message("mn.log.zeus", who=who, to=N.whom(after, int(arg[0])))
    if kind == "done":
        return message("mn.log.done", who=who, step=stage if stage in _DONE_STAGES else "other")
    if kind == "convert":
        # N4.3: a pending conversion completes; alone, Convert is chosen for a conquest (N4.11.4)
        return message("mn.log.convertDone", who=who, area=N.area(arg[0])) if arg else message("mn.log.convertChosenHere", who=who)  # fmt: skip
    if kind == "row":
        return message("mn.log.row", who=who, src=N.area(arg[0]), dst=N.area(arg[1]))
    if kind in ("seabattle", "fight"):
        return message("mn.log.attack", who=who, dfn=N.whom(after, int(arg[1])), where=N.in_area(arg[0]))
    if kind in ("march", "sail"):
        return _move(who, kind, arg)
    if kind == "roll":
        return _roll(N.who(after, concerned) if concerned >= 0 else None, arg[0])
    if kind == "lose":
        if arg[0] == "free":
            return message("mn.log.loseFree", who=who)
        if arg[0] == "marker":
            return message("mn.log.loseMarker", who=who)
        return message("mn.log.loseSlot", who=who, slot=N.the_slot(arg[0]))
    if kind in ("pillage", "occupy"):
        return _pillage_or_occupy(who, kind, arg, None)
    if kind == "pass":
        return message("mn.log.pass", who=who)
    if kind == "circe":
        return message("mn.log.circe", who=who, slot=N.the_slot(arg[1]), where=N.in_area(arg[0]))
    return None


def _event_sentence(  # noqa: PLR0911
    ev: Event,
    before: View,
    after: View,
    stage: str | None,
    settling: str | None = None,
    receiver: int | None = None,
) -> Message:
    """``settling``: the province of the conquest the event settles, when known (N4.11);
    ``receiver``: the final chooser of the trade under way, when known (N2.9)."""
    actor, text, _auto, _concerned = ev
    kind, *arg = text.split()
    who = N.who(after, actor) if actor >= 0 else message("mn.log.chance")
    if settling is not None and _is_conquest_option(text):
        return _conquest_option(who, kind, arg, settling, _converted_at_once(before, after, actor, settling))
    told = _trade_sentence(ev, after, receiver) or _military_sentence(ev, after, stage)
    if told is not None:
        return told
    if kind == "empires":
        dealt = [
            message("mn.log.dealtItem", empire=N.empire(e), n=i + 1) for i, e in enumerate(arg[0].split(","))
        ]
        return message("mn.log.dealt", items=dealt)
    if kind == "empire":
        return message("mn.log.chooses", who=who, empire=N.empire(arg[0]))
    if kind == "reveal":
        return message("mn.log.reveal", tile=N.tile(arg[0]))
    if kind == "copy":
        return message("mn.log.copyNone", who=who) if arg[0] == "none" else message("mn.log.copy", who=who, tile=N.tile(arg[0]))  # fmt: skip
    if kind == "first":
        return message("mn.log.first", who=who, yes=arg[0])
    if kind == "next":
        # N3.1 (who buys next) or N4.2 (who moves next): named by the phase it was played in
        step = "buy" if str(stage).startswith("buy") else "mil" if str(stage).startswith("mil") else "other"
        if int(arg[0]) == actor:
            return message("mn.log.nextSelf", who=who, step=step)
        return message("mn.log.next", who=who, to=N.whom(after, int(arg[0])), step=step)
    if kind in ("buy", "build", "free"):
        return _buy_sentence(who, kind, arg)
    if kind == "pay":
        return message("mn.log.pay", who=who, tok=N.token(arg[0]))
    if kind == "end":
        return message("mn.log.end", who=who)
    if kind == "title":
        seat = int(arg[1])
        was = (before.get("titles") or {}).get(arg[0])
        if actor >= 0 and was is not None and int(was) != seat:  # a tie settled (N5.2)
            return _title_taken(after, arg[0], seat, int(was))
        if actor >= 0 and was is not None:
            return message("mn.log.titleKeeps", who=N.who(after, seat), title=N.title(arg[0]))
        # a tied vacant starting title is drawn by lot (4.2, random)
        return message(
            "mn.log.title", who=N.who(after, seat), title=N.title(arg[0]), lot="yes" if actor < 0 else "no"
        )
    if kind == "winner":
        return message("mn.log.winsTie", who=N.who(after, int(arg[0])))
    return message("mn.log.other", who=who, text=text)


def _conquest_option(who: Message, kind: str, arg: list[str], prov: str, at_once: bool = False) -> Message:
    """N4.11: Pillage, Occupy or Convert (an action :func:`_is_conquest_option` accepts),
    naming the province conquered ("Rome chooses to convert Sicilia: ...", "Rome pillages the
    capital in Africa"). Convert leaves the conversion pending until the Conversion step of a
    later Military phase (N4.11.4, N4.3), or completes it ``at_once`` with the Queen of Sheba."""
    if kind == "convert" and at_once:
        return message("mn.log.convertAtOnce", who=who, area=N.area(prov), tile=N.tile("queen_of_sheba"))
    if kind == "convert":
        return message("mn.log.convertChosen", who=who, area=N.area(prov))
    return _pillage_or_occupy(who, kind, arg, prov)


def _converted_at_once(before: View, after: View, seat: int, prov: str) -> bool:
    """Whether ``seat``'s marker replaced another's in ``prov`` during the step: a Convert
    completed at once (Queen of Sheba, N4.11.4, N4.12) rather than left pending."""
    was, now = (before.get("markers") or {}).get(prov), (after.get("markers") or {}).get(prov)
    return now is not None and int(now) == seat and (was is None or int(was) != seat)


def _pillage_or_occupy(who: Message, kind: str, arg: list[str], prov: str | None) -> Message:
    """N4.11.2-3: what was pillaged (and taken) or occupied, in ``prov`` when it is known."""
    where = None if prov is None else N.in_area(prov)
    if kind == "occupy":
        slots = N.both([N.the_slot(s) for s in arg[0].split("+")])
        if where is None:
            return message("mn.log.occupy", who=who, slots=slots)
        return message("mn.log.occupyAt", who=who, slots=slots, where=where)
    slot = N.the_slot(arg[0])
    if len(arg) > 1:
        gain = N.both([N.gain(g) for g in arg[1].split(",")])
        if where is None:
            return message("mn.log.pillageTakes", who=who, slot=slot, gain=gain)
        return message("mn.log.pillageTakesAt", who=who, slot=slot, where=where, gain=gain)
    if where is None:
        return message("mn.log.pillage", who=who, slot=slot)
    return message("mn.log.pillageAt", who=who, slot=slot, where=where)


def _is_conquest_option(text: str) -> bool:
    """Whether an action's text is one of the conquest options (N4.11): ``convert`` alone,
    ``pillage SLOT [GAINS]``, ``occupy SLOTS``."""
    kind, _, rest = text.partition(" ")
    return (kind == "convert" and not rest) or (kind in ("pillage", "occupy") and bool(rest))


def _conquests_of(view: View, seat: int) -> list[str]:
    """The provinces of ``seat``'s conquests waiting in the view's queue, in its order."""
    return [
        str(item[2])
        for item in view.get("queue") or []
        if isinstance(item, list) and len(item) > 2 and item[0] == "conquest" and int(item[1]) == seat
    ]


def _conquered_in_step(before: View, after: View, seat: int) -> list[str]:
    """The provinces ``seat`` conquered during the step: its conqueror mark, or its marker
    (a conversion at once), is there after and was not before (N4.10, N4.12); in province
    order, the order one checkpoint queues them in (N4.10.2)."""
    found: set[str] = set()
    for key in ("conqueror", "markers"):
        was, now = before.get(key) or {}, after.get(key) or {}
        found.update(p for p, s in now.items() if s == seat and was.get(p) != seat)
    return sorted(found)


def _conquests_settled(events: Sequence[Event], before: View, after: View) -> dict[int, str]:
    """The province each conquest option of a step settles, by the event's index, where the
    views say it for certain (N4.11, D23).

    The first event settles the conquest at the head of ``before``'s queue. A seat's later
    options (played for it in the same step when they were its only choice) settle its
    conquests in queue order: those waiting before the step, then those it made during the
    step, in the order its checkpoint queued them. They are named only when the options and
    the conquests left in ``after``'s queue account for those conquests exactly (one option
    each, as the rules give), or when every one of them is the same province; several
    conquests made in the step are named only when their options follow one another (made by
    one checkpoint, in province order). Otherwise (a variant allowing several options per
    conquest, conquests of several checkpoints) the sentence names none."""
    out: dict[int, str] = {}
    head = _conquest_at(before)
    if events and head is not None and _is_conquest_option(events[0][1]):
        out[0] = head
    by_seat: dict[int, list[int]] = {}
    for i, e in enumerate(events):
        if _is_conquest_option(e[1]):
            by_seat.setdefault(e[0], []).append(i)
    for seat, options in by_seat.items():
        queued = _conquests_of(before, seat)
        made = _conquered_in_step(before, after, seat)
        later = options[len(queued) :]  # the options of conquests made in the step
        if len(made) > 1 and later and later != list(range(later[0], later[0] + len(later))):
            continue  # not one run of options: made by several checkpoints, order unknown
        waiting = queued + made
        if waiting[len(options) :] == _conquests_of(after, seat) and len(options) <= len(waiting):
            out.update(zip(options, waiting, strict=False))
        elif waiting and len(set(waiting)) == 1:
            out.update((i, waiting[0]) for i in options)
    return out


def _conquest_at(view: View) -> str | None:
    """The province of the conquest to be settled next (N4.11, D23): the head of the view's
    queue, when it is a conquest."""
    queue = view.get("queue") or []
    head = queue[0] if queue else None
    if isinstance(head, list) and len(head) > 2 and head[0] == "conquest":
        return str(head[2])
    return None


def _buy_sentence(who: Message, kind: str, arg: list[str]) -> Message:
    """Buy & place (N3); ``cheap`` is the fixed alternative cost of N0.8.4."""
    cheap = "yes" if arg and arg[-1] == "cheap" else "no"
    if kind == "build":
        return message("mn.log.build", who=who, slot=N.a_slot(arg[0]), where=N.in_area(arg[1]), cheap=cheap)
    if kind == "free":
        if arg[0] == "marker":
            return message("mn.log.freeMarker", who=who, where=N.in_area(arg[1]))
        return message("mn.log.freeLegion", who=who, where=N.in_area(arg[1]))
    what = arg[0]
    if what == "tile":
        return message("mn.log.buyTile", who=who, tile=N.tile(arg[1]))
    if what == "pyramids":
        return message("mn.log.buyPyramids", who=who)
    if what == "marker":
        return message("mn.log.buyMarker", who=who, area=N.area(arg[1]))
    return message("mn.log.buyUnit", who=who, unit=N.a_unit(what), where=N.in_area(arg[1]), cheap=cheap)


def _reveal_sentence(before: View, after: View) -> Message | None:
    """7.2: all offers are revealed together once every offer is committed."""
    old, new = before.get("trade"), after.get("trade")
    if not old or old.get("revealed") or not new or not new.get("revealed"):
        return None
    parts = []
    for s, offer in enumerate(new.get("offers") or []):
        if offer is not None:
            toks: Any = [N.good(t) for t in offer] or message("mn.log.nothing")
            parts.append(message("mn.log.revealedItem", who=N.whom(after, s), toks=toks))
    listed = parts[-1]
    for part in reversed(parts[:-1]):
        listed = message("mn.log.then", a=part, b=listed)
    return message("mn.log.revealed", offers=listed)


def result_sentence(view: View) -> Message:
    w = view.get("winner")
    if w is None:
        return message("mn.log.over")
    return message("mn.log.overWins", who=N.whom(view, int(w)))


def _title_taken(view: View, track: str, seat: int, was: int) -> Message:
    """``Rome takes the trade title from Carthage`` (N5.1, N5.2)."""
    return message("mn.log.titleFrom", who=N.who(view, seat), title=N.title(track), prev=N.whom(view, was))


def _title_sentences(events: Sequence[Event], before: View, after: View) -> list[Message]:
    """The titles that changed hands in the step with no event of their own: the Claim phase
    gives each title to the highest level by itself (N5.1; only a tie is a decision, N5.2,
    told by its event), and the set-up gives the starting titles (4.2). Titles are public (7.6)."""
    was, now = before.get("titles") or {}, after.get("titles") or {}
    chosen = {e[1].split()[1] for e in events if e[1].startswith("title ") and len(e[1].split()) > 2}
    out: list[Message] = []
    for track in D.TRACKS:
        holder, old = now.get(track), was.get(track)
        if track in chosen or holder is None or holder == old:
            continue
        if old is None:
            out.append(message("mn.log.title", who=N.who(after, int(holder)), title=N.title(track), lot="no"))
        else:
            out.append(_title_taken(after, track, int(holder), int(old)))
    return out


def _produced(before: View, after: View) -> bool:
    """Whether Production ran in the step (N1, skipped in round 1, S9): a round began and did
    not stop at Castor & Pollux (N0.12), or the last copy of Castor & Pollux was chosen."""
    if int(after.get("round") or 0) < 2 or after.get("stage") in ("castor", "over"):
        return False
    return after.get("round") != before.get("round") or before.get("stage") == "castor"


def _production_gains(view: View) -> list[dict[str, int]]:
    """What each seat's buildings and the Temple of Artemis yield (N1.2-N1.6, N1.9), by the
    rules' own code (:func:`.production.production`) on the public board of ``view`` (7.6):
    the legendary draws, the temple's extra and the Colossus good follow as events of their own,
    but for the temple's extra with the legendary pool empty, which is a tax given at once
    (N1.7, no decision, no event): that tax is counted here."""
    n = int(view.get("n") or 0)
    board: dict[str, Any] = {
        "n": n,
        "round": int(view.get("round") or 0),
        "buildings": view.get("buildings") or {},
        "markers": view.get("markers") or {},
        "occupy": view.get("occupy") or {},
        "tiles": view.get("tiles") or [[] for _ in range(n)],
        "copy": view.get("copy") or [None] * n,
        "res": [{} for _ in range(n)],
        "queue": [],
        "stage": "production",
    }
    production.production(board)
    gains: list[dict[str, int]] = board["res"]
    if view.get("pool_count") == 0:
        # N1.7: an empty pool at Production (draws are chance steps of their own, so it is
        # still empty at the end of this step) turns each temple's extra into a tax
        for item in board["queue"]:
            if item[0] == "lc":
                got = gains[int(item[1])]
                got["tax"] = got.get("tax", 0) + 1
    return gains


def _empty_pool_taxes(events: Sequence[Event], before: View, after: View) -> list[Message]:
    """N1.7: the temple's extras of legendary cities left in the queue when a draw of the step
    emptied the pool, each given as a tax at once (no decision, no event of its own); those of
    the Production step itself are counted in its sentences (:func:`_production_gains`)."""
    if after.get("pool_count") != 0:
        return []
    left: list[int] = [int(item[1]) for item in before.get("queue") or () if item[0] == "lc"]
    for item in after.get("queue") or ():
        if item[0] == "lc" and int(item[1]) in left:
            left.remove(int(item[1]))
    for e in events:
        if e[1].startswith("extra ") and e[0] in left:
            left.remove(e[0])  # chosen while the pool still held a token
    return [message("mn.log.extraTaxEmptyPool", who=N.who(after, seat)) for seat in left]


def _production_sentences(before: View, after: View) -> list[Message]:
    """One sentence a seat for the Production of the step (N1): the viewer's own tokens by
    type, as its screen shows them (7.1); every other seat's as a count only, which is all its
    view shows of another screen (``res_counts``)."""
    if not _produced(before, after):
        return []
    viewer = after.get("viewer")
    out: list[Message] = []
    for seat, got in enumerate(_production_gains(after)):
        who = N.who(after, seat)
        if seat == viewer and got:
            items = [
                message("mn.log.producedItem", n=k, good=N.good(tok))
                for tok, k in sorted(got.items(), key=lambda item: (item[0] == "tax", item[0]))
            ]
            out.append(message("mn.log.produces", who=who, n=sum(got.values()), items=items))
        else:
            out.append(message("mn.log.producesCount", who=who, n=sum(got.values())))
    return out


def _settling_roll(events: Sequence[Event], battle: dict[str, Any]) -> int | None:
    """The index of the roll that resolved ``battle`` in the step (N4.7: the last die rolled
    settles it), or None when no roll of the step did (a battle with no dice at all). A roll
    after an attack on another battle is that battle's."""
    key = (str(battle.get("where")), int(battle.get("def", -1)))
    current: tuple[str, int] | None = None
    at: int | None = None
    for i, e in enumerate(events):
        kind, *arg = e[1].split()
        if kind in ("seabattle", "fight") and len(arg) > 1 and arg[1].isdigit():
            current = (arg[0], int(arg[1]))
        elif kind == "roll" and (current is None or current == key):
            at = i
    return at


# The Military steps of one player's turn (N4.3-N4.13) in their order, and those that end with
# ``done``: a step's ``done`` moves to the next step (Circe's ends the turn: who moves next).
_MIL_STEPS = ("mil_order", "mil_conv", "mil_row", "mil_sea", "mil_march", "mil_fight", "mil_circe")
_DONE_STAGES = frozenset(("mil_conv", "mil_row", "mil_sea", "mil_march", "mil_circe"))
# actions that are played in one stage only, and what follows them
_PLAYED_IN = {"end": "buy_turn", "row": "mil_row", "seabattle": "mil_sea", "march": "mil_march",
              "sail": "mil_march", "fight": "mil_fight", "circe": "mil_circe"}  # fmt: skip


def _stage_of(text: str, tracked: str | None) -> str | None:
    """The stage an event ``text`` was played in, ``tracked`` being the stage reached by the
    step's earlier events: a ``done`` ends the first step from there that ends with one (the
    engine passes silently over a step with nothing to do); ``convert <province>`` completes a
    conversion, in the Conversion step (N4.3)."""
    kind, _, rest = text.partition(" ")
    if kind in _PLAYED_IN:
        return _PLAYED_IN[kind]
    if kind == "convert" and rest:
        return "mil_conv"
    if kind == "done" and tracked in _MIL_STEPS:
        at = _MIL_STEPS.index(tracked)
        return next((st for st in _MIL_STEPS[at:] if st in _DONE_STAGES), tracked)
    return tracked


def _turn_begun(text: str, actor: int, active: int | None, tracked: str | None) -> bool:
    """Whether an event shows that ``actor``'s Military turn began with no event of its own:
    a ``done`` or a completed conversion by a seat that is not the active one (``active``)
    during a Military turn. The engine ends a turn whose Circe step is empty by itself and
    names the only seat left to move without a word (N4.2), as after a conquest option chosen
    at the end of a turn (N4.10.2, N4.11)."""
    kind, _, rest = text.partition(" ")
    if active is None or actor < 0 or actor == active or tracked not in _MIL_STEPS:
        return False
    return kind == "done" or (kind == "convert" and bool(rest))


def _stage_after(kind: str, stage: str | None, ends: int, n: int) -> str | None:
    """The stage after an event of ``kind`` played in ``stage``; ``ends``: how many seats have
    ended their Buy turn this round (the phase ends with the last one, N3)."""
    if kind == "next":
        return "buy_turn" if str(stage).startswith("buy") else "mil_conv"
    if kind == "end":
        return "mil_order" if ends >= n else "buy_order"
    if kind == "done" and stage in _MIL_STEPS:
        return _MIL_STEPS[(_MIL_STEPS.index(stage) + 1) % len(_MIL_STEPS)]
    if kind == "circe":
        return "mil_order"
    return stage


def _active_seat(view: View) -> int | None:
    """The seat whose Military turn is under way in ``view``, if any (N4.2)."""
    active = (view.get("mil") or {}).get("active")
    return None if active is None else int(active)


def _chooser(view: View) -> int | None:
    """The chooser of the trade under way in ``view`` (N2.5), if any."""
    chooser = (view.get("trade") or {}).get("chooser")
    return None if chooser is None else int(chooser)


def describe_event(event: Event, before: View, after: View, stage: str | None = None) -> Message:
    """One event's sentence; ``stage``: the stage it was played in (by default ``before``'s)."""
    if stage is None:
        stage = before.get("stage")
    return _event_sentence(
        event, before, after, _stage_of(event[1], stage), _conquest_at(before), _chooser(before)
    )


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[str, bool]]:
    """Sentences ``(message, auto)`` for one step as the viewer of ``before``/``after`` may read
    them: one per event, in their order, then the titles that changed hands, the round start,
    the Production and the end of the game when they happened. Each sentence is a
    :class:`~ziggurat.engine.messages.Message` (its English text).

    The sentence of the roll that settles a battle is the battle's result (both sides' dice,
    totals and hits, N4.7), so that the result comes right after the battle's own events and
    before what the step did next; the i-th sentence stays the i-th event's (the server pairs
    them). The stage of each event (which step a ``done`` ends, who buys or moves next) is
    followed through the step from ``before``'s, with the seat whose Military turn it is."""
    out: list[tuple[str, bool]] = []
    tracked = before.get("stage")
    active = _active_seat(before)
    chooser = _chooser(before)
    ends = len((before.get("buy") or {}).get("done") or [])
    n = int(before.get("n") or len(before.get("empires") or []) or 0)
    settled = _conquests_settled(events, before, after)
    fought: dict[str, Any] | None = after.get("last_battle")
    if not fought or fought == before.get("last_battle"):
        fought = None
    settling = None if fought is None else _settling_roll(events, fought)
    for i, e in enumerate(events):
        kind, _, rest = e[1].partition(" ")
        if _turn_begun(e[1], e[0], active, tracked):
            tracked, active = "mil_conv", e[0]
        stage = _stage_of(e[1], tracked)
        if fought is not None and i == settling:
            out.append((battle_result(after, fought, before=before), bool(e[2])))
        else:
            out.append((_event_sentence(e, before, after, stage, settled.get(i), chooser), bool(e[2])))
        ends += kind == "end"
        tracked = _stage_after(kind, stage, ends, n)
        if kind == "next" and tracked == "mil_conv" and rest.isdigit():
            active = int(rest)
        elif tracked == "mil_order":
            active = None
        words = rest.split()
        if kind in ("take", "starter") and words and words[-1].isdigit():
            chooser = int(words[-1])  # the starter chooses first, then the seat taken from (N2.5)
    out.extend((told, True) for told in _empty_pool_taxes(events, before, after))
    revealed = _reveal_sentence(before, after)
    if revealed:
        out.append((revealed, True))
    if fought is not None and settling is None:
        out.append((battle_result(after, fought, before=before), True))
    out.extend((told, True) for told in _title_sentences(events, before, after))
    if after.get("round") != before.get("round") and after.get("stage") != "over":
        out.append((message("mn.log.round", n=int(after.get("round") or 0)), True))
    out.extend((told, True) for told in _production_sentences(before, after))
    if after.get("stage") == "over" and before.get("stage") != "over":
        out.append((result_sentence(after), True))
    return out


# --- legal actions, for a player choosing one ----------------------------------------------------
ACTION_KINDS: dict[str, Message] = {kind: N.action_kind(kind) for kind in N.ACTION_KINDS}
"""What each kind of action does (``choose your empire (D1)``), a message in any language."""


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance; each title is a
    message, ``kind: what it does`` (``empire: choose your empire (D1)``)."""
    groups = group_by_kind(legal, ACTION_KINDS)
    kinds = [acts[0].split(" ", 1)[0] for _, acts in groups]
    return [
        (message("mn.actionGroup", kind=kind, what=N.action_kind(kind)), acts)
        for kind, (_, acts) in zip(kinds, groups, strict=True)
    ]


NOTATION_HELP = message("mn.notationHelp")
"""How to type an action, a message (its English text is the help as ``ziggurat play`` shows it)."""


def result_facets(state: Any) -> dict[str, str]:
    """How a finished game was won, for ``ziggurat simulate``'s balance table: the winning
    empire and the victory condition (N6), or "none" for a game without a winner."""
    from ziggurat.games.mare_nostrum.bots import victory_condition

    pos = state.to_position()
    winner = pos.get("winner")
    if winner is None:
        return {"winning empire": "none", "victory": "none"}
    return {
        "winning empire": str(pos["empires"][winner]),
        "victory": str(victory_condition(pos, state.game.opts)),
    }
