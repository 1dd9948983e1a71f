"""Mesopotamia view encoder (layout in ``docs/interop.md``).

Tiles use the action codec's *slots* (rank on the current map by distance from ``0,0``, then
``q``, ``r``), so the observation and the action indices name the same tiles; each slot also
carries its coordinates. Empty spaces (a pending discovery target) are a slot and a direction,
as in the codec. Seats are colours in seat order (blue, yellow, red, green).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ziggurat.games.mesopotamia import data as D
from ziggurat.interop.codecs.mesopotamia import Coord, slot_order
from ziggurat.interop.observe import COUNT, Fields, ViewEncoder, one_hot

_PHASES = ("setup", "movement", "action", "mana", "over")
_ACTIONS = ("huts", "holy", "grow", "draw")
_PENDING = ("first", "deal", "pile", "draw", "volcano", "shares", "offer", "card_draw", "peek", "order", "teleport", "expel")  # fmt: skip
_TILE_TYPES = D.TILE_TYPES
MAPS_KEPT = 256
"""Maps whose tile fields an encoder keeps (a game's map grows one tile at a time)."""


class MesopotamiaEncoder(ViewEncoder):
    def _build(self) -> None:
        game: Any = self.game
        opts = game.opts
        n = self.num_players
        self.T = T = len(opts["start_tiles"]) + sum(game.pool.values())
        self.H = H = max(D.PIECES["huts"], len(opts["neutral_huts"]))
        self.HO = HO = n + (1 if opts["neutral_huts"] else 0)
        self.K = K = D.PIECES["huts"] - 1
        self.C = C = 3 + K
        self.P = P = opts["tile_pile_count"]
        self.L = L = opts["land_peek_count"]
        self.values = sorted(set(D.OFFERING_VALUES))
        V = len(self.values)
        cards = len(D.CARD_TYPES)
        self.colour = {c: i for i, c in enumerate(D.COLOURS[:n])}
        self._maps: dict[
            tuple[tuple[int, int, str], ...], tuple[list[Coord], dict[Coord, int], Any, Any]
        ] = {}
        self.field("viewer", n)
        self.field("to_move", n + 1)  # seats, then chance
        self.field("turn_order", n, n)
        self.field("turn", n)
        self.field("round", high=COUNT)
        self.field("phase", len(_PHASES))
        self.field("mp", high=COUNT)
        self.field("discoveries", high=COUNT)
        self.field("action", len(_ACTIONS))
        self.field("income_done")
        self.field("priests", T, high=COUNT)
        self.field("used_huts", HO, H)
        self.field("supply", 3, high=COUNT)  # wood, stone, stones removed
        self.field("deck_size", high=COUNT)
        self.field("discard", cards, high=COUNT)
        self.field("removed_cards", cards, high=COUNT)
        self.field("pile_size", P, high=COUNT)
        self.field("pile_top", P, L, len(D.DRAWABLE) + 1)  # tile type, or "unknown to me"
        self.field("pile_top_known_by", P, L, n)
        self.field("remaining_tiles", len(D.DRAWABLE), high=COUNT)
        self.field("winner", n)
        self.field("pending", len(_PENDING))
        self.field("pending_origin", T)
        self.field("pending_target", T, 6)
        self.field("pending_cargo", C)
        self.field("pending_spent")
        self.field("pending_pile", P)
        self.field("pending_count", high=COUNT)
        self.field("pending_new_tile", T)
        self.field("pending_kind", 2)  # forest, quarry
        self.field("pending_picked", T)
        self.field("pending_hut", HO, H)
        self.field("pending_seat", n)
        self.field("tile_present", T)
        self.field("tile_coords", T, 2, low=-COUNT, high=COUNT)
        self.field("tile_type", T, len(_TILE_TYPES))
        self.field("loose", T, 2, high=COUNT)
        self.field("tribes", T, n, C, 2, high=COUNT)  # count per colour, cargo, * flag
        self.field("holy_place", T, n)
        self.field("hut_tile", HO, H, T)
        self.field("hut_offering", HO, H, K)  # public id of the offering under it
        self.field("mana", n, high=COUNT)
        self.field("limit", n, high=COUNT)
        self.field("tribes_in_supply", n, high=COUNT)
        self.field("hand_size", n, high=COUNT)
        self.field("new_count", n, high=COUNT)
        self.field("hand_known", n)
        self.field("hand", n, cards, high=COUNT)
        self.field("new_cards", n, cards, high=COUNT)
        self.field("unplaced_count", n, high=COUNT)
        self.field("unplaced", n, V, high=COUNT)  # own values only
        self.field("offering_placed", n, K)
        self.field("offering_value", n, K, V)  # when the viewer knows it
        self.field("offering_revealed", n, K)
        self.field("offering_delivered", n, K)
        self.field("next_offering_id", n, high=COUNT)

    def _cargo(self, text: str) -> int:
        if text in ("", "w", "s"):
            return ("", "w", "s").index(text)
        return 2 + int(text[1:])

    def _cargo_code(self, code: int) -> int:
        return code if code < D.OFFERING else 2 + code - D.OFFERING

    def _hut(self, owner: Any, num: int) -> tuple[int, int]:
        o = (
            self.num_players
            if owner in ("neutral", -1)
            else (self.colour[owner] if isinstance(owner, str) else owner)
        )
        return o, num - 1

    def _map(self, tiles: list[Any]) -> tuple[list[Coord], dict[Coord, int], Any, Any]:
        """The map of a view's ``tiles`` (``[q, r, type]`` each): the slots in order, each
        tile's slot, and where and what the map's own fields (``tile_present``,
        ``tile_coords``, ``tile_type``) hold in the vector, worked out once per map (a map
        changes only when a tile is placed; these are a third of a view's writes)."""
        key = tuple([(q, r, kind) for q, r, kind in tiles])
        hit = self._maps.get(key)
        if hit is None:
            slots, slot_of = slot_order(tuple([(q, r) for q, r, _ in key]))
            scratch = np.zeros(self._size, dtype=np.float32)
            f = Fields(scratch, self.split(scratch))
            for i, (q, r) in enumerate(slots):
                f["tile_present"][i] = 1
                f["tile_coords"][i] = (q, r)
            for q, r, kind in key:
                f["tile_type"][slot_of[(q, r)], _TILE_TYPES.index(kind)] = 1
            at = np.flatnonzero(scratch)
            if len(self._maps) >= MAPS_KEPT:
                self._maps.clear()
            hit = self._maps[key] = (slots, slot_of, at, scratch[at])
        return hit

    def _fill(self, v: dict[str, Any], seat: int, f: Fields) -> None:
        n = self.num_players
        col = self.colour
        slots, slot_of, tile_at, tile_values = self._map(v["tiles"])

        def space(c: list[int]) -> tuple[int, int] | None:
            best = None
            for d, (dq, dr) in enumerate(D.DIRECTIONS):
                k = slot_of.get((c[0] - dq, c[1] - dr))
                if k is not None and (best is None or k < best[0]):
                    best = (k, d)
            return best

        one_hot(f["viewer"], seat)
        to_move = v.get("to_move")
        one_hot(f["to_move"], n if to_move == "chance" else col.get(to_move) if to_move else None)
        for i, c in enumerate(v["turn_order"]):
            f["turn_order"][i, col[c]] = 1
        if v["turn_order"]:
            one_hot(f["turn"], v["turn"])
        f["round"][0] = v["round"]
        one_hot(f["phase"], _PHASES.index(v["phase"]))
        f["mp"][0] = v["mp"]
        f["discoveries"][0] = v["discoveries"]
        if v["action"] is not None:
            one_hot(f["action"], _ACTIONS.index(v["action"]))
        f["income_done"][0] = float(v["income_done"])
        for q, r in v["priests"]:
            f["priests"][slot_of[(q, r)]] += 1
        for owner, num in v["used_huts"]:
            f["used_huts"][self._hut(owner, num)] = 1
        sup = v["supply"]
        f["supply"][:] = (sup["wood"], sup["stone"], sup["stones_removed"])
        f["deck_size"][0] = v["deck_size"]
        for name, k in v["discard"].items():
            f["discard"][D.CARD_INDEX[name]] = k
        for name, k in v["removed_cards"].items():
            f["removed_cards"][D.CARD_INDEX[name]] = k
        for p, pile in enumerate(v["piles"]):
            f["pile_size"][p] = pile["size"]
            for k, (kind, knowers) in enumerate(pile["top"][: self.L]):
                f["pile_top"][p, k, len(D.DRAWABLE) if kind is None else D.DRAWABLE.index(kind)] = 1
                for c in knowers:
                    f["pile_top_known_by"][p, k, col[c]] = 1
        for kind, k in v["remaining_tiles"].items():
            f["remaining_tiles"][D.DRAWABLE.index(kind)] = k
        if v["winner"] is not None:
            one_hot(f["winner"], col[v["winner"]])
        pend = v["pending"]
        if pend is not None:
            self._pending(pend, v, f, slot_of, space)
        f.buf[tile_at] = tile_values  # tile_present, tile_coords, tile_type
        for q, r, wood, stone in v["loose"]:
            f["loose"][slot_of[(q, r)]] = (wood, stone)
        for q, r, c in v["holy_places"]:
            f["holy_place"][slot_of[(q, r)], col[c]] = 1
        for owner, num, q, r, pub in v["huts"]:
            o, k = self._hut(owner, num)
            f["hut_tile"][o, k, slot_of[(q, r)]] = 1
            if pub:
                f["hut_offering"][o, k, pub - 1] = 1
        vindex = {x: i for i, x in enumerate(self.values)}
        for pl in v["players"]:
            s = col[pl["colour"]]
            for q, r, cargo, spent in pl["tribes"]:
                f["tribes"][slot_of[(q, r)], s, self._cargo(cargo), int(bool(spent))] += 1
            f["mana"][s] = pl["mana"]
            f["limit"][s] = pl["limit"]
            f["tribes_in_supply"][s] = pl["tribes_in_supply"]
            f["hand_size"][s] = pl["hand_size"]
            f["new_count"][s] = pl["new_count"]
            if pl["hand"] is not None:
                f["hand_known"][s] = 1
                for name, k in pl["hand"].items():
                    f["hand"][s, D.CARD_INDEX[name]] = k
                for name, k in (pl["new_cards"] or {}).items():
                    f["new_cards"][s, D.CARD_INDEX[name]] = k
            off = pl["offerings"]
            f["unplaced_count"][s] = off["unplaced_count"]
            for value in off["unplaced"] or ():
                f["unplaced"][s, vindex[value]] += 1
            for pub, value in off["placed"].items():
                f["offering_placed"][s, int(pub) - 1] = 1
                if value is not None:
                    f["offering_value"][s, int(pub) - 1, vindex[value]] = 1
            for pub in off["revealed"]:
                f["offering_revealed"][s, pub - 1] = 1
            for pub in off["delivered"]:
                f["offering_delivered"][s, pub - 1] = 1
            f["next_offering_id"][s] = off["next_id"]

    def _pending(
        self, pend: list[Any], v: dict[str, Any], f: Fields, slot_of: dict[Any, int], space: Any
    ) -> None:
        kind = pend[0]
        one_hot(f["pending"], _PENDING.index(kind))
        if kind == "deal":
            f["pending_count"][0] = pend[1]  # turn position being dealt
        elif kind in ("pile", "draw", "volcano"):
            f["pending_origin"][slot_of[tuple(pend[1])]] = 1
            f["pending_cargo"][self._cargo_code(pend[2])] = 1
            f["pending_spent"][0] = float(bool(pend[3]))
            target = space(pend[4])
            if target is not None:
                f["pending_target"][target] = 1
            if kind == "draw":
                f["pending_pile"][pend[5]] = 1
        elif kind == "shares":
            f["pending_new_tile"][slot_of[tuple(pend[1])]] = 1
            one_hot(f["pending_kind"], ("forest", "quarry").index(pend[2]))
            f["pending_count"][0] = pend[3]
            for c in pend[4]:
                f["pending_picked"][slot_of[tuple(c)]] = 1
        elif kind == "offer":
            mover = self.colour[v["turn_order"][v["turn"]]]
            f["pending_hut"][mover, pend[1] - 1] = 1
        elif kind in ("peek", "order"):
            f["pending_pile"][pend[1]] = 1
            f["pending_count"][0] = pend[2]
        elif kind == "teleport":
            f["pending_seat"][pend[1]] = 1
            f["pending_origin"][slot_of[tuple(pend[2])]] = 1
            f["pending_cargo"][self._cargo_code(pend[3])] = 1
            f["pending_spent"][0] = float(bool(pend[4]))
        elif kind == "expel":
            f["pending_hut"][self._hut(pend[1][0], pend[1][1])] = 1
