"""Mesopotamia: Epochs action codec (see ``docs/interop.md`` for the table of blocks).

State-independent: areas are numbered in map order and Peoples in card-file order (both from
the map and People files in use, so the ``map`` and ``peoples`` options are honoured), players
by seat. Dice rolls are chance outcomes with every ordered face (``die_sides`` option).
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.interop.codec import ActionCodec, CodecError

_AREA_KINDS = ("land", "displace", "place")


class EpochsCodec(ActionCodec):
    def _build(self) -> None:
        game: Any = self.game
        self.notation = game.notation
        self.areas: list[str] = list(game.rules.map.ids)
        self.peoples: list[str] = list(game.rules.peoples.ids)
        self.sides: int = game.rules.die_sides
        n, A, P, s = self.num_players, len(self.areas), len(self.peoples), self.sides
        a = self.actions
        a.add("keep", ())
        a.add("pass", (n,), ("seat",))
        a.add("land", (A,), ("area",))
        a.add("displace", (A,), ("area",))
        a.add("remove", ())
        a.add("place", (A,), ("area",))
        a.add("stop", ())
        c = self.chance
        c.add("deal", (n, P), ("seat", "people"))
        c.add("draw", (P,), ("people",))
        c.add("roll/1", (s, s, s), ("attacker die 1 - 1", "attacker die 2 - 1", "defender die - 1"))
        c.add(
            "roll/2",
            (s,) * 4,
            ("attacker die 1 - 1", "attacker die 2 - 1", "defender die 1 - 1", "defender die 2 - 1"),
        )

    def _encode(self, action: str, state: State | None) -> int:
        d = self.notation.decode(action)
        kind = d[0]
        a = self.actions
        if kind in ("keep", "remove", "stop"):
            return a[kind].index()
        if kind in _AREA_KINDS:
            return a[kind].index(d[1])
        if kind == "pass":
            return a["pass"].index(d[1])
        raise CodecError(f"{kind!r} is not a player action of mesopotamia-epochs")

    def _decode(self, index: int, state: State | None) -> str:
        block, x = self.actions.locate(index)
        kind = block.kind
        if kind in ("keep", "remove", "stop"):
            return kind
        if kind == "pass":
            return f"pass {SYMBOLS[x[0]]}"
        return f"{kind} {self.areas[x[0]]}"

    def _encode_chance(self, outcome: str, state: State | None) -> int:
        d = self.notation.decode(outcome)
        kind = d[0]
        c = self.chance
        if kind == "deal":
            return c["deal"].index(d[1], d[2])
        if kind == "draw":
            return c["draw"].index(d[1])
        if kind == "roll":
            faces = (*d[1], *d[2])
            return c[f"roll/{len(d[2])}"].index(*(f - 1 for f in faces))
        raise CodecError(f"{kind!r} is not a chance outcome of mesopotamia-epochs")

    def _decode_chance(self, index: int, state: State | None) -> str:
        block, x = self.chance.locate(index)
        kind = block.kind
        if kind == "deal":
            return f"deal {SYMBOLS[x[0]]} {self.peoples[x[1]]}"
        if kind == "draw":
            return f"draw {self.peoples[x[0]]}"
        faces = [str(f + 1) for f in x]
        return f"roll {','.join(faces[:2])} {','.join(faces[2:])}"
