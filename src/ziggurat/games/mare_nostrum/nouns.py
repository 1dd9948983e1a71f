"""Names of things in Mare Nostrum: Empires's messages (log events, refusals, results).

Every vocabulary is declared here from the game's data at import time, so a test can check that
each value has a message in every language (``games/mare_nostrum/messages/<lang>.json``). A
vocabulary comes in the forms the sentences need: French puts an article before an empire
("la Grèce", "l'Égypte", but "Rome") and capitalises it at the start of a sentence, so a seat
is named by :func:`who` as a sentence's subject and by :func:`whom` anywhere else; a token is
``wine`` in English and "un jeton de vin" or "de vin" in French (:func:`token`, :func:`of_token`).

The boards (terminal and SVG) add the forms they need: an empire without an article
(:func:`empire_name`), the stage in words (:func:`stage_name`), a track and its title holder
(:func:`track`, :func:`track_mark`, :func:`leader`), the short codes printed on slots
(:func:`building_code`, :func:`good_code`), and what each kind of action does
(:func:`action_kind`, the titles of :func:`.describe.action_groups`).

A seat is named as the browser names it: its empire once empires are dealt ("Rome"), else its
seat counted from 1 ("seat 1"). An id the data does not know (a mistyped action explained by a
refusal) is shown as written, with :func:`text`.
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.messages import Message, declare_domain, message, noun
from ziggurat.games.mare_nostrum import data as D

View = dict[str, Any]

AREAS: dict[str, str] = {a["id"]: a["name"] for a in D._MAP["provinces"] + D._MAP["seas"]}
SEAS = frozenset(s["id"] for s in D._MAP["seas"])
TOKENS: tuple[str, ...] = ("tax", *D.GOODS, *(f"leg:{g}" for g in D.GOODS))
SLOTS: tuple[str, ...] = tuple(
    sorted({s.lower() for p in D._MAP["provinces"] for s in p["slots"]} | {f"caravan:{g}" for g in D.GOODS})
)
UNITS = ("legion", "trireme", "fortress", "marker")
PIECES = ("legion", "trireme", "fortress", "influence_marker", *D.BUILDING_KINDS)
GAINS = ("tax", "draw")
# the decisions under way (``stage`` of a position, docs/mare-nostrum.md), named by a refusal
STAGES = (
    "assign", "start_title", "reveal", "castor", "production", "trade_start", "trade_token",
    "trade_size", "trade_offer", "trade_starter", "trade_draft", "trade_give", "buy_perseus",
    "buy_order", "buy_turn", "buy_keep", "mil_zeus", "mil_order", "mil_conv", "mil_row", "mil_sea",
    "mil_march", "mil_fight", "mil_circe", "claim_tie", "tie_win", "over",
)  # fmt: skip

declare_domain("mn.who", D.EMPIRES)
declare_domain("mn.whom", D.EMPIRES)
declare_domain("mn.tile", D.TILES)
declare_domain("mn.good", TOKENS)
declare_domain("mn.token", TOKENS)
declare_domain("mn.ofToken", TOKENS)
declare_domain("mn.area", AREAS)
declare_domain("mn.inArea", AREAS)
declare_domain("mn.slot", SLOTS)
declare_domain("mn.aSlot", SLOTS)
declare_domain("mn.theSlot", SLOTS)
declare_domain("mn.aUnit", UNITS)
declare_domain("mn.piece", PIECES)
declare_domain("mn.title", D.TRACKS)
declare_domain("mn.gain", GAINS)
declare_domain("mn.stage", STAGES)
# the boards' words (render_text, render_svg, describe.action_groups)
BUILDING_CODES = ("market", "city", "capital", "temple")
ACTION_KINDS: tuple[str, ...] = (
    "empire", "copy", "extra", "colossus", "token", "offer", "starter", "take", "give", "first",
    "next", "buy", "build", "free", "pay", "end", "keep", "zeus", "convert", "row", "seabattle",
    "march", "sail", "fight", "lose", "pillage", "occupy", "pass", "circe", "done", "title", "winner",
)  # fmt: skip
declare_domain("mn.empire", D.EMPIRES)
declare_domain("mn.stageName", STAGES)
declare_domain("mn.track", D.TRACKS)
declare_domain("mn.trackMark", D.TRACKS)
declare_domain("mn.leader", D.TRACKS)
declare_domain("mn.buildingCode", BUILDING_CODES)
declare_domain("mn.goodCode", D.GOODS)
declare_domain("mn.actionKind", ACTION_KINDS)


def text(value: str) -> Message:
    """A word shown as written, in every language (an id the data does not know)."""
    return message("mn.text", text=value)


def _seat_empire(view: View, seat: int) -> str | None:
    emp = view.get("empires") or []
    if 0 <= seat < len(emp) and emp[seat] in D.EMPIRES:
        return str(emp[seat])
    return None


def who(view: View, seat: int) -> Message:
    """``seat`` as the subject that starts a sentence: ``Rome``, ``Seat 1`` (French "La Grèce")."""
    emp = _seat_empire(view, seat)
    return noun("mn.who", emp) if emp else message("mn.whoSeat", n=seat + 1)


def whom(view: View, seat: int) -> Message:
    """``seat`` inside a sentence: ``Rome``, ``seat 1`` (French "la Grèce", "à l'Égypte")."""
    emp = _seat_empire(view, seat)
    return noun("mn.whom", emp) if emp else message("mn.whomSeat", n=seat + 1)


def empire(eid: str) -> Message:
    """An empire inside a sentence (``Greece``, French "la Grèce")."""
    return noun("mn.whom", eid) if eid in D.EMPIRES else text(eid.title())


def tile(tid: str) -> Message:
    if tid in D.TILES:
        return noun("mn.tile", tid)
    return text(tid.replace("_", " ").title())


def area(aid: str) -> Message:
    return noun("mn.area", aid) if aid in AREAS else text(aid.replace("_", " ").title())


def in_area(aid: str) -> Message:
    """``in Gallia`` (French "en Gallia", "sur Mare Ionium")."""
    return noun("mn.inArea", aid) if aid in AREAS else message("mn.inText", area=area(aid))


def good(tok: str) -> Message:
    """A token by itself: ``wine``, ``legendary oil``, ``tax``."""
    return noun("mn.good", tok) if tok in TOKENS else text(tok)


def token(tok: str) -> Message:
    """A token as a thing given or taken: ``wine`` (French "un jeton de vin")."""
    return noun("mn.token", tok) if tok in TOKENS else text(tok)


def of_token(tok: str) -> Message:
    """A token after "no" (``you hold no wine``; French "aucun jeton de vin")."""
    return noun("mn.ofToken", tok) if tok in TOKENS else text(tok)


def _slot_id(slot: str) -> str:
    kind, sep, arg = slot.partition(":")
    return f"{kind}{sep}{arg.lower()}"


def slot(s: str) -> Message:
    """``grain caravan``, ``market``, ``legendary city Troia``."""
    sid = _slot_id(s)
    return noun("mn.slot", sid) if sid in SLOTS else text(s.replace("_", " "))


def a_slot(s: str) -> Message:
    """``a grain caravan``, ``a market``."""
    sid = _slot_id(s)
    return noun("mn.aSlot", sid) if sid in SLOTS else message("mn.aText", text=s.replace("_", " "))


def the_slot(s: str) -> Message:
    """``the grain caravan``, ``the market``."""
    sid = _slot_id(s)
    return noun("mn.theSlot", sid) if sid in SLOTS else message("mn.theText", text=s.replace("_", " "))


def a_unit(unit: str) -> Message:
    """``a legion``, ``an influence marker`` (the purchases of N3.4, N3.6-N3.8)."""
    return noun("mn.aUnit", unit) if unit in UNITS else message("mn.aText", text=unit)


def piece(kind: str) -> Message:
    """A unit or building kind: ``legion``, ``influence marker``, ``legendary city``."""
    return noun("mn.piece", kind) if kind in PIECES else text(kind.replace("_", " "))


def title(track: str) -> Message:
    return noun("mn.title", track) if track in D.TRACKS else text(track)


def gain(pick: str) -> Message:
    return noun("mn.gain", pick) if pick in GAINS else text(pick)


def stage(st: str) -> Message:
    """The decision under way: its id in English (``trade_token``), in words in French."""
    return noun("mn.stage", st) if st in STAGES else text(st)


def empire_name(eid: str | None) -> Message:
    """An empire by itself, as a board lists it: ``Greece`` (French "Grèce", no article)."""
    if eid and eid in D.EMPIRES:
        return noun("mn.empire", eid)
    return text(eid.title() if eid else "?")


def stage_name(st: str) -> Message:
    """The decision under way as the boards show it: ``trade: secret offers``."""
    return noun("mn.stageName", st) if st in STAGES else text(st)


def track(t: str) -> Message:
    """A victory track or its title by itself: ``trade`` (French "commerce")."""
    return noun("mn.track", t) if t in D.TRACKS else text(t)


def track_mark(t: str) -> Message:
    """The letter a board puts after an empire holding the title: ``T`` (French "Co")."""
    return noun("mn.trackMark", t) if t in D.TRACKS else text(t[:1].upper())


def leader(t: str) -> Message:
    """The holder of a title: ``trade leader`` (French "chef du commerce")."""
    return noun("mn.leader", t) if t in D.TRACKS else text(t)


def building_code(kind: str) -> Message:
    """The few capitals a board prints for a building slot: ``MKT`` (French "MCH")."""
    return noun("mn.buildingCode", kind) if kind in BUILDING_CODES else text(kind[:3].upper())


def good_code(g: str) -> Message:
    """The three letters the map prints on a caravan slot: ``Gra`` (French "Cér")."""
    return noun("mn.goodCode", g) if g in D.GOODS else text(g[:3].title())


def action_kind(kind: str) -> Message:
    """What a kind of action does, for a player choosing one: ``choose your empire (D1)``."""
    return noun("mn.actionKind", kind) if kind in ACTION_KINDS else text(kind)


def both(items: list[Message]) -> Message:
    """``a and b and c`` (French "a et b et c"), as the sentences join a few things."""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = message("mn.and", a=item, b=out)
    return out
