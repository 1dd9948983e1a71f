"""Mesopotamia action codec (see ``docs/interop.md`` for the table of blocks).

The map has no fixed extent: it grows by discovery (M7), up to the start tiles plus every
tile of the draw pool, and in theory a chain of discoveries can reach ~35 hexes from the
temple. Numbering every hex that far would need millions of indices, so hexes are numbered
relative to the current map instead:

- a **tile slot** is a tile's rank on the map, ordered by distance from ``0,0`` then ``q``
  then ``r`` (so the seven start tiles are always slots 0-6, and a slot's meaning only shifts
  when a tile is discovered closer in). There are at most ``len(start_tiles) + pool`` tiles;
- an **empty space** (discovery target, volcano site) is a tile slot plus a direction: the
  lowest slot next to it;
- **own tribes** (every tribe a player moves, groups or hands off) are the player to move's,
  so their colour is not part of the index; other colours (steal victims, Teleport targets,
  Mana Theft) are absolute colours;
- a tribe is otherwise (slot, cargo, ``*`` flag) with cargo 0 nothing, 1 wood, 2 stone,
  3.. offering ids 1..K (K: huts a colour can build, hence offerings it can place);
- a **hut** is (owner, number): owners are the colours, then ``n`` for neutral huts.

So ``encode``/``decode`` need the state (``state_dependent``), and the codec reads only
public facts from it: the tile set, hut positions and the player to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ziggurat.engine.contract import State
from ziggurat.games.mesopotamia import data as D
from ziggurat.games.mesopotamia.notation import decode as parse
from ziggurat.games.mesopotamia.notation import encode as unparse
from ziggurat.interop.codec import ActionCodec, CodecError

Coord = tuple[int, int]
_RES = ("wood", "stone")
_CARRIED = (D.WOOD, D.STONE)  # resource cargo codes, index 0 wood, 1 stone


def _ring(c: Coord) -> int:
    q, r = c
    return max(abs(q), abs(r), abs(q + r))


def tile_order(tiles: Any) -> list[Coord]:
    """Tiles in slot order: by distance from ``0,0``, then ``q``, then ``r``."""
    return sorted(tiles, key=lambda c: (_ring(c), c[0], c[1]))


# Slot orders of recent maps, keyed by the tiles in dict order: a map changes only on a
# discovery, so the sort is done once per map instead of once per encoded action.
_ORDERS: dict[tuple[Coord, ...], tuple[list[Coord], dict[Coord, int]]] = {}


# The same by tiles dict: a state's tiles dict is replaced when a tile is placed (clones share
# the old one) and tiles are never removed, so the dict (held) and its size name its map.
_BY_DICT: dict[int, tuple[Any, int, tuple[list[Coord], dict[Coord, int]]]] = {}


def slot_order(key: tuple[Coord, ...]) -> tuple[list[Coord], dict[Coord, int]]:
    """The tiles ``key`` (in the state's order) in slot order, and each tile's slot; kept for
    recent maps. Both are shared: read them, do not change them."""
    hit = _ORDERS.get(key)
    if hit is None:
        if len(_ORDERS) >= 4096:
            _ORDERS.clear()
        order = tile_order(key)
        hit = _ORDERS[key] = (order, {c: i for i, c in enumerate(order)})
    return hit


def _slots_of(tiles: Any) -> tuple[list[Coord], dict[Coord, int]]:
    known = _BY_DICT.get(id(tiles))
    if known is not None and known[0] is tiles and known[1] == len(tiles):
        return known[2]
    hit = slot_order(tuple(tiles))
    if len(_BY_DICT) >= 256:
        _BY_DICT.clear()
    _BY_DICT[id(tiles)] = (tiles, len(tiles), hit)
    return hit


# Legal texts parsed (a parse is a tuple of tuples, never changed): a text comes back on the
# next map, where its index must be worked out again.
_PARSED: dict[str, tuple[Any, ...]] = {}


class _Board:
    """What one state contributes to the mapping: slots, the player to move, hut sites."""

    __slots__ = ("slots", "slot_of", "actor", "huts")

    def __init__(self, state: Any) -> None:
        self.slots, self.slot_of = _slots_of(state.tiles)
        self.actor = state.current_player()
        self.huts = {(h[0], h[1]): h[2] for h in state.huts}

    def slot(self, c: Coord) -> int:
        if c not in self.slot_of:
            raise CodecError(f"{c[0]},{c[1]} is not a tile of the current map")
        return self.slot_of[c]

    def space(self, c: Coord) -> tuple[int, int]:
        """(slot, direction) of an empty space: the lowest adjacent slot."""
        best: tuple[int, int] | None = None
        for d, (dq, dr) in enumerate(D.DIRECTIONS):
            k = self.slot_of.get((c[0] - dq, c[1] - dr))
            if k is not None and (best is None or k < best[0]):
                best = (k, d)
        if best is None or c in self.slot_of:
            raise CodecError(f"{c[0]},{c[1]} is not an empty space next to the map")
        return best

    def hex_of_space(self, slot: int, d: int) -> Coord:
        q, r = self.slots[slot]
        dq, dr = D.DIRECTIONS[d]
        return (q + dq, r + dr)


class MesopotamiaCodec(ActionCodec):
    state_dependent = True

    def _build(self) -> None:
        game: Any = self.game
        opts = game.opts
        n = self.num_players
        self.n = n
        self.max_tiles = T = len(opts["start_tiles"]) + sum(game.pool.values())
        self.hut_numbers = H = max(D.PIECES["huts"], len(opts["neutral_huts"]))
        self.hut_owners = HO = n + (1 if opts["neutral_huts"] else 0)  # colours, then neutral
        self.offering_ids = K = D.PIECES["huts"] - 1  # one offering per hut built (M9.4)
        self.cargos = C = 3 + K
        self.piles = P = opts["tile_pile_count"]
        self.offer_values = sorted(set(D.OFFERING_VALUES))
        peek = opts["land_peek_count"]
        if peek > 5:
            raise ValueError(f"the mesopotamia codec supports land_peek_count up to 5, not {peek}")
        self.peek = peek
        # legal text -> index on the maps in play (a map's slots object, held, names it)
        self._by_map: dict[int, tuple[object, dict[str, int]]] = {}
        a = self.actions
        a.add("first", (n,), ("colour",))
        a.add("move", (T, C, 2, 6), ("slot", "cargo", "*", "direction"))
        a.add("pickup", (T, 2, 2), ("slot", "*", "resource"))
        a.add("drop", (T, 2, 2), ("slot", "cargo wood/stone", "*"))
        a.add("exchange", (T, 2, 2), ("slot", "cargo wood/stone", "*"))
        a.add("handoff", (T, 2, 2, 2), ("slot", "cargo wood/stone", "giver *", "receiver *"))
        a.add("steal", (T, n, 2, 2, 2), ("slot", "victim colour", "victim cargo", "victim *", "receiver *"))
        a.add("offering", (T, 2, H), ("slot", "*", "own hut number - 1"))
        a.add("donate", (T, 2), ("slot", "*"))
        a.add("end", ())
        a.add("pile", (P,), ("pile - 1",))
        a.add("volcano", (T, 6), ("slot", "direction"))
        a.add("share", (T,), ("slot",))
        a.add("hut", (T, C, C), ("slot", "cargo 1", "cargo 2"))
        a.add("offer", (len(self.offer_values),), ("value rank",))
        a.add("holy", (T, C, C), ("slot", "cargo 1", "cargo 2"))
        a.add("grow", (HO, H, C, C, 2), ("hut owner", "hut number - 1", "cargo 1", "cargo 2", "fertility"))
        for kind in ("draw", "pass", "stop", "income"):
            a.add(kind, ())
        a.add("play endurance", ())
        a.add("play holy_stone", ())
        a.add("play priest", (T,), ("slot",))
        a.add("play mana_theft", (n,), ("colour",))
        a.add("play land", (P,), ("pile - 1",))
        a.add("play teleport", (n, T, C, 2), ("colour", "slot", "cargo", "*"))
        a.add("play expulsion", (HO, H), ("hut owner", "hut number - 1"))
        for length in range(2, peek + 1):
            a.add(f"order/{length}", (len(D.DRAWABLE),) * length, ("tile type",) * length)
        a.add("to", (T,), ("slot",))
        c = self.chance
        c.add("first", (n,), ("colour",))
        c.add("deal", (n, len(D.CARD_TYPES)), ("colour", "card"))
        c.add("tile", (len(D.DRAWABLE),), ("tile type",))
        c.add("card", (len(D.CARD_TYPES),), ("card",))
        c.add("peek", (len(D.DRAWABLE),), ("tile type",))

    # -- helpers -------------------------------------------------------------------------
    def _cargo(self, cargo: int) -> int:
        if cargo < D.OFFERING:
            return cargo
        k = cargo - D.OFFERING
        if not 1 <= k <= self.offering_ids:
            raise CodecError(f"offering id o{k} outside o1..o{self.offering_ids}")
        return 2 + k

    def _uncargo(self, i: int) -> int:
        return i if i < 3 else D.OFFERING + i - 2

    def _own(self, b: _Board, tribe: tuple[Any, ...]) -> tuple[int, int, bool]:
        """(slot, cargo, spent) of a tribe of the player to move."""
        seat, c, cargo, spent = tribe
        if seat != b.actor:
            raise CodecError(f"tribe of colour {D.COLOURS[seat]} where the player to move's was expected")
        return b.slot(c), cargo, bool(spent)

    def _resource(self, cargo: int) -> int:
        if cargo not in _CARRIED:
            raise CodecError("a tribe carrying wood or stone was expected")
        return _CARRIED.index(cargo)

    def _hut(self, hut: tuple[int, int]) -> tuple[int, int]:
        owner, num = hut
        o = self.n if owner < 0 else owner
        if not 0 <= o < self.hut_owners or not 1 <= num <= self.hut_numbers:
            raise CodecError(f"no such hut {hut}")
        return o, num - 1

    def _unhut(self, o: int, k: int) -> tuple[int, int]:
        return (-1 if o == self.n else o), k + 1

    # -- actions -------------------------------------------------------------------------
    def _context(self, state: State) -> object:
        # the index of a legal text depends only on the map's slot order (own tribes are the
        # mover's, huts stay where they were built): one object per map, see _slots_of
        return _slots_of(state.tiles)  # type: ignore[attr-defined]

    def _encode_legal(self, legal: Sequence[str], state: State, context: object) -> list[int]:
        slots = context
        found = self._by_map.get(id(slots))
        if found is None or found[0] is not slots:
            if len(self._by_map) >= 64:
                self._by_map.clear()
            found = self._by_map[id(slots)] = (slots, {})
        memo = found[1]
        try:
            return list(map(memo.__getitem__, legal))  # every text seen on this map before
        except KeyError:
            pass
        board: _Board | None = None
        out = []
        for a in legal:
            index = memo.get(a)
            if index is None:
                if board is None:
                    board = _Board(state)  # built once for the whole list
                parsed = _PARSED.get(a)
                if parsed is None:
                    if len(_PARSED) >= 65536:
                        _PARSED.clear()
                    parsed = _PARSED[a] = parse(a)
                index = memo[a] = self._index(parsed, board)
            out.append(index)
        return out

    def _encode(self, action: str, state: State | None) -> int:
        return self._index(parse(action), _Board(state))

    def _index(self, d: tuple[Any, ...], b: _Board) -> int:
        a = self.actions
        kind = d[0]
        if kind == "move":
            slot, cargo, spent = self._own(b, d[1])
            src = d[1][1]
            step = (d[2][0] - src[0], d[2][1] - src[1])
            if step not in D.DIRECTIONS:
                raise CodecError("a step goes to an adjacent hex")
            return a["move"].index(slot, self._cargo(cargo), spent, D.DIRECTIONS.index(step))
        if kind == "pickup":
            slot, cargo, spent = self._own(b, d[1])
            if cargo != D.EMPTY:
                raise CodecError("only a tribe carrying nothing picks up")
            return a["pickup"].index(slot, spent, _RES.index(d[2]))
        if kind in ("drop", "donate"):
            slot, cargo, spent = self._own(b, d[1])
            if kind == "donate":
                if cargo != D.STONE:
                    raise CodecError("only a stone carrier donates")
                return a["donate"].index(slot, spent)
            return a["drop"].index(slot, self._resource(cargo), spent)
        if kind == "exchange":
            slot, cargo, spent = self._own(b, d[1])
            res = self._resource(cargo)
            if _RES.index(d[2]) != 1 - res:
                raise CodecError("an exchange swaps for the other resource")
            return a["exchange"].index(slot, res, spent)
        if kind == "handoff":
            slot, cargo, spent = self._own(b, d[1])
            rslot, rcargo, rspent = self._own(b, d[2])
            if rslot != slot or rcargo != D.EMPTY:
                raise CodecError("a hand-off goes to an empty tribe on the same tile")
            return a["handoff"].index(slot, self._resource(cargo), spent, rspent)
        if kind == "steal":
            vseat, vc, vcargo, vspent = d[1]
            rslot, rcargo, rspent = self._own(b, d[2])
            if b.slot(vc) != rslot or rcargo != D.EMPTY or not 0 <= vseat < self.n:
                raise CodecError("a steal takes from a tribe on the receiver's tile into an empty tribe")
            return a["steal"].index(rslot, vseat, self._resource(vcargo), bool(vspent), rspent)
        if kind == "offering":
            slot, cargo, spent = self._own(b, d[1])
            owner, num = d[2]
            if cargo != D.EMPTY or owner != b.actor:
                raise CodecError("an empty own tribe picks up an own offering")
            return a["offering"].index(slot, spent, num - 1)
        if kind in ("hut", "holy"):
            slot = b.slot(d[1])
            return a[kind].index(slot, *self._group(b, d[1], d[2], d[3]))
        if kind == "grow":
            o, k = self._hut(d[2])
            if b.huts.get(d[2]) != d[1]:
                raise CodecError(f"hut {d[2]} is not on {d[1]}")
            return a["grow"].index(o, k, *self._group(b, d[1], d[3], d[4]), int(d[5]))
        if kind in ("volcano",):
            return a["volcano"].index(*b.space(d[1]))
        if kind in ("share", "to"):
            return a[kind].index(b.slot(d[1]))
        if kind in ("pile",):
            return a["pile"].index(d[1] - 1)
        if kind == "offer":
            return a["offer"].index(self.offer_values.index(d[1]))
        if kind == "first":
            return a["first"].index(d[1])
        if kind == "order":
            kinds = d[1]
            return a[f"order/{len(kinds)}"].index(*(D.DRAWABLE.index(t) for t in kinds))
        if kind == "play":
            return self._play(d, b)
        if len(d) == 1 and kind in ("end", "draw", "pass", "stop", "income"):
            return a[kind].index()
        raise CodecError(f"{kind!r} is not a player action of mesopotamia")

    def _group(self, b: _Board, c: Coord, t1: tuple[Any, ...], t2: tuple[Any, ...]) -> tuple[int, int]:
        out = []
        for t in (t1, t2):
            slot, cargo, spent = self._own(b, t)
            if t[1] != c or spent:
                raise CodecError("a group is two unspent own tribes on the group's tile")
            out.append(self._cargo(cargo))
        return out[0], out[1]

    def _play(self, d: tuple[Any, ...], b: _Board) -> int:
        a = self.actions
        name = D.CARD_TYPES[d[1]]
        block = a[f"play {name}"]
        if name in ("endurance", "holy_stone"):
            return block.index()
        if name == "priest":
            return block.index(b.slot(d[2]))
        if name == "mana_theft":
            return block.index(d[2])
        if name == "land":
            return block.index(d[2] - 1)
        if name == "teleport":
            seat, c, cargo, spent = d[2]
            return block.index(seat, b.slot(c), self._cargo(cargo), bool(spent))
        return block.index(*self._hut(d[2]))  # expulsion

    def _decode(self, index: int, state: State | None) -> str:
        block, x = self.actions.locate(index)
        b = _Board(state)
        kind = block.kind
        me = b.actor
        if me < 0:
            raise CodecError("no player is to move")

        def own(slot: int, cargo: int, spent: int) -> tuple[Any, ...]:
            return (me, b.slots[slot], cargo, bool(spent))

        def tile(slot: int) -> Coord:
            if slot >= len(b.slots):
                raise CodecError(f"tile slot {slot} is empty: the map has {len(b.slots)} tiles")
            return b.slots[slot]

        d: tuple[Any, ...]
        if kind in ("end", "draw", "pass", "stop", "income"):
            d = (kind,)
        elif kind == "first":
            d = ("first", x[0])
        elif kind == "move":
            tile(x[0])
            d = ("move", own(x[0], self._uncargo(x[1]), x[2]), b.hex_of_space(x[0], x[3]))
        elif kind == "pickup":
            tile(x[0])
            d = ("pickup", own(x[0], D.EMPTY, x[1]), _RES[x[2]])
        elif kind == "drop":
            tile(x[0])
            d = ("drop", own(x[0], _CARRIED[x[1]], x[2]))
        elif kind == "exchange":
            tile(x[0])
            d = ("exchange", own(x[0], _CARRIED[x[1]], x[2]), _RES[1 - x[1]])
        elif kind == "handoff":
            tile(x[0])
            d = ("handoff", own(x[0], _CARRIED[x[1]], x[2]), own(x[0], D.EMPTY, x[3]))
        elif kind == "steal":
            c = tile(x[0])
            d = ("steal", (x[1], c, _CARRIED[x[2]], bool(x[3])), own(x[0], D.EMPTY, x[4]))
        elif kind == "offering":
            tile(x[0])
            d = ("offering", own(x[0], D.EMPTY, x[1]), (me, x[2] + 1))
        elif kind == "donate":
            tile(x[0])
            d = ("donate", own(x[0], D.STONE, x[1]))
        elif kind == "pile":
            d = ("pile", x[0] + 1)
        elif kind == "volcano":
            tile(x[0])
            c = b.hex_of_space(x[0], x[1])
            if c in b.slot_of or b.space(c) != (x[0], x[1]):
                raise CodecError(f"index {index} names no empty space (a space is its lowest adjacent slot)")
            d = ("volcano", c)
        elif kind in ("share", "to"):
            d = (kind, tile(x[0]))
        elif kind in ("hut", "holy"):
            c = tile(x[0])
            d = (kind, c, own(x[0], self._uncargo(x[1]), 0), own(x[0], self._uncargo(x[2]), 0))
        elif kind == "grow":
            hut = self._unhut(x[0], x[1])
            if hut not in b.huts:
                raise CodecError(f"hut {hut} is not on the map")
            c = b.huts[hut]
            t1 = (me, c, self._uncargo(x[2]), False)
            t2 = (me, c, self._uncargo(x[3]), False)
            d = ("grow", c, hut, t1, t2, bool(x[4]))
        elif kind == "offer":
            d = ("offer", self.offer_values[x[0]])
        elif kind.startswith("order/"):
            d = ("order", tuple(D.DRAWABLE[i] for i in x))
        else:
            name = kind.split(" ")[1]
            card = D.CARD_INDEX[name]
            if name in ("endurance", "holy_stone"):
                d = ("play", card)
            elif name == "priest":
                d = ("play", card, tile(x[0]))
            elif name in ("mana_theft",):
                d = ("play", card, x[0])
            elif name == "land":
                d = ("play", card, x[0] + 1)
            elif name == "teleport":
                d = ("play", card, (x[0], tile(x[1]), self._uncargo(x[2]), bool(x[3])))
            else:
                d = ("play", card, self._unhut(*x))
        text = unparse(d)
        if parse(text) != d:  # a group's tribes in the other order: not the canonical text
            raise CodecError(f"index {index} is not canonical: {text!r} is written {unparse(parse(text))!r}")
        return text

    # -- chance --------------------------------------------------------------------------
    def _encode_chance(self, outcome: str, state: State | None) -> int:
        d = parse(outcome)
        c = self.chance
        kind = d[0]
        if kind == "first":
            return c["first"].index(d[1])
        if kind == "deal":
            return c["deal"].index(d[1], d[2])
        if kind in ("tile", "peek"):
            return c[kind].index(D.DRAWABLE.index(d[1]))
        if kind == "card":
            return c["card"].index(d[1])
        raise CodecError(f"{kind!r} is not a chance outcome of mesopotamia")

    def _decode_chance(self, index: int, state: State | None) -> str:
        block, x = self.chance.locate(index)
        kind = block.kind
        if kind == "first":
            return f"first {D.COLOUR_LETTERS[x[0]]}"
        if kind == "deal":
            return f"deal {D.COLOUR_LETTERS[x[0]]} {D.CARD_TYPES[x[1]]}"
        if kind in ("tile", "peek"):
            return f"{kind} {D.DRAWABLE[x[0]]}"
        return f"card {D.CARD_TYPES[x[0]]}"
