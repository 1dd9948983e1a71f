"""The game's names as messages: areas, Peoples and players' symbols (ziggurat.engine.messages).

The log (:mod:`.describe`) and the refusals (:mod:`.flow`, :mod:`.placement`,
:mod:`.allocation`, :mod:`.notation`) name things with these, so that every language's catalogue
(``messages/<lang>.json``) gives the words. The vocabularies are declared from the packaged
data at import: every area of ``map.json``, every People of ``peoples.json``, every symbol of
``components.json``. A replaced map or card set (the ``map`` and ``peoples`` options) may name
things the catalogues do not know; those names are given as they are (``epochs.name``).

An area comes in the three forms the sentences need, each its own vocabulary, so that every
language's catalogue words each area as it should: its bare name (``epochs.area``: "Élam", the
map's label), the name after "in" (``epochs.areaIn``: "in Elam", French "en Élam", "à Ur", "au
Sinaï", "dans les Îles") and the name with its article, as a subject or an object
(``epochs.areaThe``: "the Islands", French "l'Élam", "le Sinaï", "Ur"). An area no catalogue
knows gets a neutral wording around its name (``epochs.nameIn``, ``epochs.nameThe``).

The names are cached: a message is never changed once made, and the log names the same few
areas, Peoples and players over and over.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ziggurat.engine.messages import Message, declare_domain, message, noun
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_MAP, DEFAULT_PEOPLES, SYMBOLS
from ziggurat.games.mesopotamia_epochs.geography import Map
from ziggurat.games.mesopotamia_epochs.peoples import Peoples

declare_domain("epochs.area", DEFAULT_MAP.ids)
declare_domain("epochs.areaIn", DEFAULT_MAP.ids)  # "the Sumerians place a tribe in Ur"
declare_domain("epochs.areaThe", DEFAULT_MAP.ids)  # "the Sumerians attack the Islands"
declare_domain("epochs.people", DEFAULT_PEOPLES.ids)
declare_domain("epochs.symbol", SYMBOLS)  # a player in a sentence: "Head keeps the card"
declare_domain("epochs.seat", SYMBOLS)  # a player as the notation writes it: "head already has a card"
# What the terminal board and the SVG name (render_text, render_svg): the game's phases, the
# regions the area list is grouped by, an area kind's short mark and an ability's short name.
declare_domain("epochs.phase", ("allocation", "strategy", "over"))
REGION_IDS = (
    "sumer_akkad",
    "assyria_zagros",
    "syria_levant",
    "egypt",
    "anatolia_thrace",
    "aegean_cyprus",
    "areas",
    "other",
)
declare_domain("epochs.region", REGION_IDS)
declare_domain("epochs.kindMark", ("land", "island", "desert", "sea", "uninhabited"))
declare_domain("epochs.abilityShort", ("military", "urbanisation", "seafaring", "fast_growth", "slow_growth"))


@cache
def as_is(name: str) -> Message:
    """A name no catalogue knows (a replaced map's area, say), shown as it is in every language."""
    return message("epochs.name", name=name)


def _packaged(aid: str, name: str) -> bool:
    """Whether area ``aid`` called ``name`` is the packaged map's area (the catalogues name it)."""
    i = DEFAULT_MAP.index.get(aid)
    return i is not None and DEFAULT_MAP.names[i] == name


@cache
def area_named(aid: str, name: str) -> Message:
    """Area ``aid`` called ``name``: the catalogue's word when it is the packaged map's area."""
    if _packaged(aid, name):
        return noun("epochs.area", aid)
    return as_is(name)


@cache
def area_in_named(aid: str, name: str) -> Message:
    """Area ``aid`` after "in": "in Ur" (French "à Ur", "en Élam", "au Sinaï", "dans les Îles")."""
    if _packaged(aid, name):
        return noun("epochs.areaIn", aid)
    return message("epochs.nameIn", name=name)


@cache
def area_the_named(aid: str, name: str) -> Message:
    """Area ``aid`` as a subject or an object: "the Islands" (French "l'Élam", "le Sinaï", "Ur")."""
    if _packaged(aid, name):
        return noun("epochs.areaThe", aid)
    return message("epochs.nameThe", name=name)


@cache
def people_named(pid: str, name: str) -> Message:
    """People ``pid`` called ``name``: the catalogue's word when it is a packaged card's People."""
    i = DEFAULT_PEOPLES.index.get(pid)
    if i is not None and DEFAULT_PEOPLES.names[i] == name:
        return noun("epochs.people", pid)
    return as_is(name)


def area_of(board: Map, a: int) -> Message:
    """Area index ``a`` of ``board``."""
    return area_named(board.ids[a], board.names[a])


def area_in_of(board: Map, a: int) -> Message:
    """Area index ``a`` of ``board`` after "in" (:func:`area_in_named`)."""
    return area_in_named(board.ids[a], board.names[a])


def area_the_of(board: Map, a: int) -> Message:
    """Area index ``a`` of ``board`` as a subject or an object (:func:`area_the_named`)."""
    return area_the_named(board.ids[a], board.names[a])


def people_of(peoples: Peoples, p: int) -> Message:
    """People index ``p`` of ``peoples``."""
    return people_named(peoples.ids[p], peoples.names[p])


@cache
def symbol(sym: str) -> Message:
    """A player by symbol, capitalised as a name ("Head")."""
    if sym in SYMBOLS:
        return noun("epochs.symbol", sym)
    return as_is(sym.capitalize())


@cache
def seat_word(seat: int) -> Message:
    """Seat ``seat`` as the notation writes it ("head"), or "seat N" beyond the symbols."""
    if 0 <= seat < len(SYMBOLS):
        return noun("epochs.seat", SYMBOLS[seat])
    return message("epochs.seatNumber", n=seat)


def joined(items: Sequence[Message]) -> Message:
    """``a and b and c`` (each language's "and")."""
    out = items[0]
    for item in items[1:]:
        out = message("epochs.and", a=out, b=item)
    return out
