"""Mesopotamia action notation: canonical texts and their parser.

Coordinates are flat-top axial ``q,r`` (S3), e.g. ``1,-1``. A *tribe* is named by what tells
it apart on the board, since tribes of one colour on one tile carrying the same thing are
interchangeable pieces:

``<colour letter><cargo>@<q>,<r>[*]``

- colour letter: ``b`` blue, ``y`` yellow, ``r`` red, ``g`` green;
- cargo: nothing, ``w`` wood, ``s`` stone, or ``o<k>`` the owner's k-th placed offering
  (k says nothing about the value, §6);
- ``*``: in Phase I the tribe already received stolen loot this turn (M4.4); in Phase II it
  already belongs to a group of this action or arrived by growth (M8.3).

Huts are named ``<colour letter><n>`` (n-th hut of that colour, the start hut is 1) or
``n<n>`` for neutral huts. Full grammar: ``docs/mesopotamia.md``.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ziggurat.engine.contract import Action
from ziggurat.engine.errors import InvalidAction
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia.data import (
    CARD_INDEX,
    COLOUR_LETTERS,
    DRAWABLE,
    EMPTY,
    LETTER_SEAT,
    OFFERING,
    STONE,
    WOOD,
)

Coord = tuple[Any, ...]  # (q, r); of any length for a compiled build (see state.py)
Tribe = tuple[int, Coord, int, bool]  # seat, tile, cargo, spent

_CARGO_TEXT = {EMPTY: "", WOOD: "w", STONE: "s"}


def fmt_coord(c: Coord) -> str:
    return f"{c[0]},{c[1]}"


def fmt_tribe(seat: int, c: Coord, cargo: int, spent: bool) -> str:
    cargo_text = _CARGO_TEXT[cargo] if cargo < OFFERING else f"o{cargo - OFFERING}"
    return f"{COLOUR_LETTERS[seat]}{cargo_text}@{c[0]},{c[1]}{'*' if spent else ''}"


def fmt_hut(owner: int, num: int) -> str:
    return f"n{num}" if owner < 0 else f"{COLOUR_LETTERS[owner]}{num}"


_COORD_RE = re.compile(r"^(-?\d+),(-?\d+)$")
_TRIBE_RE = re.compile(r"^([byrg])(w|s|o\d+)?@(-?\d+),(-?\d+)(\*?)$")
_HUT_RE = re.compile(r"^([byrgn])(\d+)$")
_PAREN_RE = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")


def parse_coord(text: str) -> Coord:
    m = _COORD_RE.match(text)
    if not m:
        raise InvalidAction(message("meso.notation.badCoord", text=repr(text)))
    return (int(m.group(1)), int(m.group(2)))


def parse_tribe(text: str) -> Tribe:
    m = _TRIBE_RE.match(text)
    if not m:
        raise InvalidAction(message("meso.notation.badTribe", text=repr(text)))
    cargo_text = m.group(2) or ""
    if cargo_text == "":
        cargo = EMPTY
    elif cargo_text == "w":
        cargo = WOOD
    elif cargo_text == "s":
        cargo = STONE
    else:
        k = int(cargo_text[1:])
        if k < 1:
            raise InvalidAction(message("meso.notation.badOfferingId", text=repr(text)))
        cargo = OFFERING + k
    return (LETTER_SEAT[m.group(1)], (int(m.group(3)), int(m.group(4))), cargo, m.group(5) == "*")


def parse_hut(text: str) -> tuple[int, int]:
    m = _HUT_RE.match(text)
    if not m:
        raise InvalidAction(message("meso.notation.badHut", text=repr(text)))
    owner = -1 if m.group(1) == "n" else LETTER_SEAT[m.group(1)]
    return owner, int(m.group(2))


def _colour(text: str) -> int:
    if text in LETTER_SEAT:
        return LETTER_SEAT[text]
    for seat, letter in enumerate(COLOUR_LETTERS):
        if text == {"b": "blue", "y": "yellow", "r": "red", "g": "green"}[letter]:
            return seat
    raise InvalidAction(message("meso.notation.badColour", text=repr(text)))


def _card(text: str) -> int:
    if text not in CARD_INDEX:
        raise InvalidAction(message("meso.notation.badCard", text=repr(text), cards=list(CARD_INDEX)))
    return CARD_INDEX[text]


def _tile_type(text: str) -> str:
    if text not in DRAWABLE:
        raise InvalidAction(message("meso.notation.badTile", text=repr(text), tiles=list(DRAWABLE)))
    return text


def _int(text: str) -> int:
    if not re.fullmatch(r"\d+", text):
        raise InvalidAction(message("meso.notation.badNumber", text=repr(text)))
    return int(text)


# kind -> argument parsers; the decoded form is (kind, *parsed args).
_SIGNATURES: dict[str, tuple] = {  # type: ignore[type-arg]
    "first": (_colour,),
    "deal": (_colour, _card),
    "move": (parse_tribe, parse_coord),
    "pickup": (parse_tribe, str),
    "drop": (parse_tribe,),
    "exchange": (parse_tribe, str),
    "handoff": (parse_tribe, parse_tribe),
    "steal": (parse_tribe, parse_tribe),
    "offering": (parse_tribe, parse_hut),
    "donate": (parse_tribe,),
    "end": (),
    "pile": (_int,),
    "tile": (_tile_type,),
    "volcano": (parse_coord,),
    "share": (parse_coord,),
    "hut": (parse_coord, parse_tribe, parse_tribe),
    "offer": (_int,),
    "holy": (parse_coord, parse_tribe, parse_tribe),
    "grow": (parse_coord, parse_hut, parse_tribe, parse_tribe),
    "draw": (),
    "card": (_card,),
    "pass": (),
    "stop": (),
    "income": (),
    "peek": (_tile_type,),
    "order": (str,),
    "to": (parse_coord,),
}
_PLAY_SIGNATURES: dict[str, tuple] = {  # type: ignore[type-arg]
    "endurance": (),
    "holy_stone": (),
    "priest": (parse_coord,),
    "mana_theft": (_colour,),
    "land": (_int,),
    "teleport": (parse_tribe,),
    "expulsion": (parse_hut,),
}


def _normalise(text: str) -> str:
    text = _PAREN_RE.sub(r"\1,\2", text.strip())
    return " ".join(text.split())


BUILT: Final[dict[str, tuple]] = {}  # type: ignore[type-arg]
"""Decoded forms of canonical texts the legal-action listing built from their parts, by text:
applying one of them parses nothing (the rules look here before :func:`decode`). Each is
exactly what :func:`decode` gives."""


_DECODED: dict[str, tuple] = {}  # type: ignore[type-arg]
"""Texts already parsed by :func:`decode`, and what they parse to (at most :data:`_DECODED_MAX`)."""

_DECODED_MAX: Final = 1 << 16


def decode(text: str) -> tuple:  # type: ignore[type-arg]
    """Parse canonical or loose text into ``(kind, *args)``; raises :class:`InvalidAction`.

    Remembered per text in a plain dict (a compiled build calls a dict directly, and a
    ``functools.lru_cache`` through Python); a refused text is not remembered."""
    d = _DECODED.get(text)
    if d is None:
        d = _parse(text)
        if len(_DECODED) < _DECODED_MAX:
            _DECODED[text] = d
    return d


def _parse(text: str) -> tuple:  # type: ignore[type-arg]
    """:func:`decode` without the memo."""
    words = _normalise(text).split(" ")
    kind, args = words[0], words[1:]
    if kind == "play":
        if not args:
            raise InvalidAction(message("meso.notation.playNeedsCard"))
        card = _card(args[0])
        if args[0] not in _PLAY_SIGNATURES:  # Fertility has no play of its own
            raise InvalidAction(message("meso.notation.fertilityPlay", card=args[0]))
        sig = _PLAY_SIGNATURES[args[0]]
        rest = args[1:]
        if len(rest) != len(sig):
            raise InvalidAction(
                message("meso.notation.playArguments", card=args[0], count=len(sig), got=len(rest))
            )
        return ("play", card, *(f(a) for f, a in zip(sig, rest, strict=True)))
    if kind not in _SIGNATURES:
        raise InvalidAction(message("meso.notation.unknownAction", kind=repr(kind)))
    sig = _SIGNATURES[kind]
    fertility = False
    if kind == "grow" and len(args) == 5 and args[4] == "fertility":
        args, fertility = args[:4], True
    if len(args) != len(sig):
        raise InvalidAction(message("meso.notation.arguments", kind=kind, count=len(sig), got=len(args)))
    decoded = (kind, *(f(a) for f, a in zip(sig, args, strict=True)))
    if kind in ("pickup", "exchange") and args[1] not in ("wood", "stone"):
        raise InvalidAction(message("meso.notation.resource", kind=kind, text=repr(args[1])))
    if kind == "grow":
        decoded = (*decoded, fertility)
    if kind in ("hut", "holy", "grow"):
        decoded = _group_order(decoded)
    if kind == "order":
        decoded = ("order", tuple(_tile_type(t) for t in args[0].split(",")))
    return decoded


def _group_order(d: tuple) -> tuple:  # type: ignore[type-arg]
    """A group's two tribes in canonical order, so either order a player writes is accepted:
    the resource carrier first for ``hut``/``holy``; by cargo, then ``*``, for ``grow``."""
    i = 3 if d[0] == "grow" else 2
    a, b = d[i], d[i + 1]
    if d[0] == "grow":
        swap = (b[2], b[3]) < (a[2], a[3])
    else:
        res = WOOD if d[0] == "hut" else STONE
        swap = a[2] != res and b[2] == res
    return (*d[:i], b, a, *d[i + 2 :]) if swap else d


def canonical(text: str) -> Action:
    """The canonical :class:`Action` for ``text`` (validates syntax only)."""
    d = decode(text)
    return Action(encode(d))


def encode(d: tuple) -> str:  # type: ignore[type-arg]
    """Canonical text of a decoded action."""
    kind = d[0]
    if kind == "play":
        from ziggurat.games.mesopotamia.data import CARD_TYPES

        name = CARD_TYPES[d[1]]
        sig = _PLAY_SIGNATURES[name]
        return " ".join(["play", name, *(_fmt_arg(f, a) for f, a in zip(sig, d[2:], strict=True))])
    if kind == "order":
        return "order " + ",".join(d[1])
    sig = _SIGNATURES[kind]
    parts = [kind, *(_fmt_arg(f, a) for f, a in zip(sig, d[1 : 1 + len(sig)], strict=True))]
    if kind == "grow" and d[-1]:
        parts.append("fertility")
    return " ".join(parts)


def _fmt_arg(parser, value) -> str:  # type: ignore[no-untyped-def]
    if parser is parse_tribe:
        return fmt_tribe(*value)
    if parser is parse_coord:
        return fmt_coord(value)
    if parser is parse_hut:
        return fmt_hut(*value)
    if parser is _colour:
        return COLOUR_LETTERS[value]
    if parser is _card:
        from ziggurat.games.mesopotamia.data import CARD_TYPES

        return CARD_TYPES[value]
    return str(value)
