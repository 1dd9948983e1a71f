"""Action notation of Mesopotamia: Epochs: canonical texts and their parser (§7).

Every decision and chance event of §7 is one action with one canonical text:

====================================  =============================================  ==========
text                                  meaning                                         rule
====================================  =============================================  ==========
``deal <symbol> <people>``            Epoch 1: the card dealt to a player (chance)    C1, E1.5
``draw <people>``                     the card the drawer draws (chance)              C2, E3.3
``keep`` / ``pass <symbol>``          keep the drawn card, or pass it to a player     D1, E3.4
``land <area>``                       sea start: the coastal area of the first tribe  D3, E7.5
``displace <area>``                   where one displaced tribe goes                  D2, E7.2
``remove``                            a displaced tribe with nowhere to go (forced)   E7.3
``place <area>`` / ``stop``           the next tribe's area, or end placement         D4, E8.1
``roll <a>,<b> <d>[,<e>]``            a combat roll: attacker's two dice, defender's  C3, E12
====================================  =============================================  ==========

Symbols are the seat names (``brooch``, ``head``, ``mask``, ``statue``, ``urn``; their first
letters are accepted too); areas and Peoples are written by id. Loose input is normalised:
any case, extra spaces, display names with spaces (``place great green``), dice written as
``roll 3 5 4`` or ``roll (3,5) (4)``.
"""

from __future__ import annotations

import re
from typing import Any

from ziggurat.engine.errors import InvalidAction
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT, SYMBOLS
from ziggurat.games.mesopotamia_epochs.geography import MEMO_LIMIT, Map, bits
from ziggurat.games.mesopotamia_epochs.peoples import Peoples

Decoded = tuple[Any, ...]

_AREA_KINDS = ("land", "displace", "place")
_NO_ARGS = ("keep", "remove", "stop")
PLAYER_VERBS = ("keep", "pass", "land", "displace", "place", "stop")
"""The verbs a player types (D1-D4): ``deal``, ``draw`` and ``roll`` are chance outcomes, and
``remove`` is always forced (E7.3), so a refusal of an unknown verb lists only these."""
_INT = re.compile(r"\d+")


class Notation:
    """Parser and printer of actions for one map and card set."""

    __slots__ = (
        "map", "peoples", "_cache", "area_names", "people_names", "place_text", "roll_cache", "_placements",
        "_sets",
    )  # fmt: skip

    def __init__(self, board: Map, peoples: Peoples) -> None:
        self.map = board
        self.peoples = peoples
        self._cache: dict[str, Decoded] = {}
        self.area_names = {a: i for i, a in enumerate(board.ids)}
        self.area_names.update({_key(n): i for i, n in enumerate(board.names)})
        self.people_names = {p: i for i, p in enumerate(peoples.ids)}
        self.people_names.update({_key(n): i for i, n in enumerate(peoples.names)})
        self.place_text = [f"place {a}" for a in board.ids]  # hot: legal targets (E8.2)
        self._placements: dict[int, list[str]] = {}
        self._sets: dict[int, tuple[list[str], frozenset[str]]] = {}

    def placements(self, targets: int) -> list[str]:
        """D4's legal list for the areas of mask ``targets``: ``place <area>`` in area order,
        then ``stop`` (E8.6).

        Remembered per mask (see :data:`~.geography.MEMO_LIMIT`) and shared by every state,
        like a combat roll's outcomes: never mutate it. Its set is built with it, for
        :meth:`legal_set`.
        """
        hit = self._placements.get(targets)
        if hit is None:
            texts = self.place_text
            hit = [texts[a] for a in bits(targets)]
            hit.append("stop")
            if len(self._placements) >= MEMO_LIMIT:
                self._placements = {}
                self._sets = {}
            self._placements[targets] = hit
            self._sets[id(hit)] = (hit, frozenset(hit))
        return hit

    def legal_set(self, legal: object) -> frozenset[str] | None:
        """The set of a list :meth:`placements` gave, or ``None`` for any other list (or one
        the memo has forgotten). The entry holds its list, so while it exists no other list
        has that ``id``; the identity check makes any other case a miss."""
        hit = self._sets.get(id(legal))
        return hit[1] if hit is not None and hit[0] is legal else None

    def decode(self, text: str) -> Decoded:
        """``(kind, *args)`` of ``text``; :raises InvalidAction: if it does not parse."""
        if not isinstance(text, str):
            raise InvalidAction(message("engine.notAText", kind=type(text).__name__, value=f"{text!r:.60}"))
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        d = self._decode(text)
        if len(self._cache) < 1 << 16:
            self._cache[text] = d
        return d

    def _decode(self, text: str) -> Decoded:
        words = text.strip().lower().replace("(", " ").replace(")", " ").split()
        if not words:
            raise InvalidAction(message("epochs.refusal.emptyAction"))
        kind, args = words[0], words[1:]
        if kind in _NO_ARGS:
            if args:
                raise InvalidAction(message("epochs.refusal.noArgument", word=repr(kind)))
            return (kind,)
        if kind in _AREA_KINDS:
            return (kind, self._area(args))
        if kind == "pass":
            if len(args) != 1:
                raise InvalidAction(message("epochs.refusal.passSyntax"))
            return ("pass", _seat(args[0]))
        if kind == "draw":
            return ("draw", self._people(args))
        if kind == "deal":
            if len(args) < 2:
                raise InvalidAction(message("epochs.refusal.dealSyntax"))
            return ("deal", _seat(args[0]), self._people(args[1:]))
        if kind == "roll":
            faces = [int(x) for x in _INT.findall(" ".join(args))]
            rest = _INT.sub("", " ".join(args)).replace(",", " ").split()
            if rest or len(faces) not in (3, 4) or min(faces) < 1:
                raise InvalidAction(message("epochs.refusal.rollSyntax"))
            return ("roll", (faces[0], faces[1]), tuple(faces[2:]))
        raise InvalidAction(
            message("epochs.refusal.unknownAction", word=repr(kind), verbs=", ".join(PLAYER_VERBS))
        )

    def _area(self, args: list[str]) -> int:
        key = "_".join(args)
        if key not in self.area_names:
            raise InvalidAction(message("epochs.refusal.notAnArea", word=repr(" ".join(args))))
        return self.area_names[key]

    def _people(self, args: list[str]) -> int:
        key = "_".join(args)
        if key not in self.people_names:
            raise InvalidAction(message("epochs.refusal.notAPeople", word=repr(" ".join(args))))
        return self.people_names[key]

    def encode(self, d: Decoded) -> str:
        """Canonical text of a decoded action."""
        kind = d[0]
        if kind in _NO_ARGS:
            return kind
        if kind in _AREA_KINDS:
            return f"{kind} {self.map.ids[d[1]]}"
        if kind == "pass":
            return f"pass {SYMBOLS[d[1]]}"
        if kind == "draw":
            return f"draw {self.peoples.ids[d[1]]}"
        if kind == "deal":
            return f"deal {SYMBOLS[d[1]]} {self.peoples.ids[d[2]]}"
        return roll_text(d[1], d[2])

    def canonical(self, text: str) -> str:
        return self.encode(self.decode(text))


def roll_text(attacker: tuple[int, ...], defender: tuple[int, ...]) -> str:
    return f"roll {','.join(map(str, attacker))} {','.join(map(str, defender))}"


def _seat(word: str) -> int:
    if word not in SYMBOL_SEAT:
        raise InvalidAction(message("epochs.refusal.notASymbol", word=repr(word), symbols=", ".join(SYMBOLS)))
    return SYMBOL_SEAT[word]


def _key(name: str) -> str:
    return "_".join(name.lower().split())
