"""Positions: the full Mesopotamia state as documented JSON (schema in docs/mesopotamia.md).

``to_position`` lists everything in a canonical order (tribes, huts, tiles sorted), so
equal states give equal positions and equal fingerprints.
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mesopotamia.data import CARD_TYPES, COLOURS, DRAWABLE, EMPTY, OFFERING, STONE, WOOD
from ziggurat.games.mesopotamia.state import MesoState, TribeT, tile_memo_for

POSITION_FORMAT = "ziggurat-position/mesopotamia/1"
_CARGO = {EMPTY: "", WOOD: "w", STONE: "s"}


def cargo_text(cargo: int) -> str:
    return _CARGO[cargo] if cargo < OFFERING else f"o{cargo - OFFERING}"


def parse_cargo(text: str) -> int:
    if text.startswith("o"):
        return OFFERING + int(text[1:])
    return {"": EMPTY, "w": WOOD, "s": STONE}[text]


def _hut_owner(seat: int) -> str:
    return "neutral" if seat < 0 else COLOURS[seat]


def _hut_seat(owner: str) -> int:
    return -1 if owner == "neutral" else COLOURS.index(owner)


def _cards(counts: list[int]) -> dict[str, int]:
    return {CARD_TYPES[i]: n for i, n in enumerate(counts) if n}


def _uncards(d: dict[str, int]) -> list[int]:
    return [d.get(name, 0) for name in CARD_TYPES]


def _enc(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_enc(v) for v in x]
    return x


def _pending_out(p: tuple | None) -> Any:  # type: ignore[type-arg]
    return None if p is None else _enc(p)


def _pending_in(p: list | None) -> tuple | None:  # type: ignore[type-arg]
    if p is None:
        return None
    kind = p[0]
    if kind in ("pile", "volcano", "draw"):
        rest = (tuple(p[1]), p[2], p[3], tuple(p[4]))
        return (kind, *rest, *p[5:])
    if kind == "shares":
        return ("shares", tuple(p[1]), p[2], p[3], tuple(tuple(c) for c in p[4]))
    if kind == "teleport":
        return ("teleport", p[1], tuple(p[2]), p[3], p[4])
    if kind == "expel":
        return ("expel", tuple(p[1]))
    return tuple(p)


def to_position(s: MesoState) -> dict[str, Any]:
    players = []
    for seat in range(s.n):
        on_map = sorted(
            [t[0][0], t[0][1], cargo_text(t[1]), t[2]] for t in s.tribes[seat] if t[0] is not None
        )
        players.append(
            {
                "colour": COLOURS[seat],
                "mana": s.mana[seat],
                "limit": s.limit[seat],
                "tribes": on_map,
                "tribes_in_supply": s.supply_tribes(seat),
                "offerings": {
                    "unplaced": sorted(s.unplaced[seat]),
                    "unplaced_count": len(s.unplaced[seat]),
                    "placed": {str(k): v for k, v in sorted(s.offer_val[seat].items())},
                    "next_id": s.next_pub[seat],
                    "revealed": sorted(s.revealed[seat]),
                    "delivered": list(s.delivered[seat]),
                },
                "hand": _cards(s.hand[seat]),
                "new_cards": _cards(s.new[seat]),
                "hand_size": sum(s.hand[seat]),
                "new_count": sum(s.new[seat]),
            }
        )
    loose = sorted([c[0], c[1], s.wood.get(c, 0), s.stone.get(c, 0)] for c in set(s.wood) | set(s.stone))
    return {
        "format": POSITION_FORMAT,
        "num_players": s.n,
        "turn_order": [COLOURS[q] for q in s.turn_order],
        "turn": s.turn_idx,
        "round": s.round,
        "phase": s.phase,
        "mp": s.mp,
        "discoveries": s.disc,
        "action": s.action,
        "used_huts": [_enc(h) for h in s.used_huts],
        "income_done": s.income_done,
        "priests": [list(c) for c in s.priests],
        "pending": _pending_out(s.pending),
        "tiles": sorted([c[0], c[1], kind] for c, kind in s.tiles.items()),
        "loose": loose,
        "supply": {"wood": s.supply_wood, "stone": s.supply_stone, "stones_removed": s.stones_removed},
        "huts": sorted([_hut_owner(h[0]), h[1], h[2][0], h[2][1], h[3]] for h in s.huts),
        "holy_places": sorted([c[0], c[1], COLOURS[o]] for c, o in s.holy.items()),
        "players": players,
        "deck": _cards(s.deck),
        "deck_size": sum(s.deck),
        "discard": _cards(s.discard),
        "removed_cards": _cards(s.removed),
        "piles": [
            {
                "size": size,
                "top": [
                    [kind, [COLOURS[q] for q in range(s.n) if knowers >> q & 1]] for kind, knowers in tops
                ],
            }
            for size, tops in zip(s.pile_sizes, s.pile_tops, strict=True)
        ],
        "remaining_tiles": {k: s.remaining.get(k, 0) for k in DRAWABLE},
        "winner": None if s.winner is None else COLOURS[s.winner],
    }


def load_position(game: Any, pos: Any, *, strict: bool = True) -> MesoState:
    """Inverse of :func:`to_position`, for positions from outside (``game.state_from_position``).

    The position is checked against the schema, then against the rules (:mod:`.schema`);
    nothing is dropped or repaired. ``strict=False`` skips what only play keeps in step (piece
    conservation, counts, hut numbering, what tribes on the temple carry), for test
    situations set up by hand.

    :raises InvalidPosition: (a ``ValueError``) naming the field and, where there is one, the rule.
    """
    from ziggurat.games.mesopotamia.schema import check_lists, check_schema_of, check_state

    check_schema_of(pos)
    check_lists(pos, game.num_players, strict)
    state = _from_position(game, pos)
    check_state(state, strict)
    return state


def from_position(game: Any, pos: dict[str, Any]) -> MesoState:
    """Inverse of :func:`to_position` without the checks of :func:`load_position`: for positions
    built by the engine itself, valid by construction (``sample_state`` fills in a view of a
    real state, and bots call it often, so it stays cheap); raises ``ValueError`` on a
    malformed position."""
    try:
        return _from_position(game, pos)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed mesopotamia position: {exc!r}") from exc


def _from_position(game: Any, pos: dict[str, Any]) -> MesoState:
    if pos.get("format") != POSITION_FORMAT:
        raise ValueError(f"not a mesopotamia position (format {pos.get('format')!r})")
    if pos["num_players"] != game.num_players:
        raise ValueError("position is for a different number of players than the game")
    s = MesoState.__new__(MesoState)
    n = game.num_players
    s.game = game
    s.n = n
    s.opts = game.opts
    s.turn_order = [COLOURS.index(c) for c in pos["turn_order"]]
    s.turn_idx = pos["turn"]
    s.round = pos["round"]
    s.phase = pos["phase"]
    s.mp = pos["mp"]
    s.disc = pos["discoveries"]
    s.action = pos["action"]
    s.used_huts = tuple(tuple(h) for h in pos["used_huts"])
    s.income_done = pos["income_done"]
    s.priests = tuple(tuple(c) for c in pos["priests"])
    s.pending = _pending_in(pos["pending"])
    s.tiles = {(q, r): kind for q, r, kind in pos["tiles"]}
    s.tile_memo = tile_memo_for(game, s.tiles)
    s.seat_memo = (None,) * n
    s.kept = None
    s.wood = {(q, r): w for q, r, w, _ in pos["loose"] if w}
    s.stone = {(q, r): st for q, r, _, st in pos["loose"] if st}
    sup = pos["supply"]
    s.supply_wood, s.supply_stone, s.stones_removed = sup["wood"], sup["stone"], sup["stones_removed"]
    s.huts = [(_hut_seat(o), num, (q, r), off) for o, num, q, r, off in pos["huts"]]
    s.holy = {(q, r): COLOURS.index(c) for q, r, c in pos["holy_places"]}
    s.tribes, s.mana, s.limit, s.unplaced, s.offer_val = [], [], [], [], []
    s.next_pub, s.revealed, s.delivered, s.hand, s.new = [], [], [], [], []
    for pl in pos["players"]:
        tribes: list[TribeT] = [
            ((q, r), parse_cargo(cargo), bool(spent)) for q, r, cargo, spent in pl["tribes"]
        ]
        tribes += [(None, EMPTY, False)] * pl["tribes_in_supply"]
        s.tribes.append(tribes)
        s.mana.append(pl["mana"])
        s.limit.append(pl["limit"])
        off = pl["offerings"]
        s.unplaced.append(sorted(off["unplaced"]))
        s.offer_val.append({int(k): v for k, v in off["placed"].items()})
        s.next_pub.append(off["next_id"])
        s.revealed.append(frozenset(off["revealed"]))
        s.delivered.append(list(off["delivered"]))
        s.hand.append(_uncards(pl["hand"]))
        s.new.append(_uncards(pl["new_cards"]))
    s.deck = _uncards(pos["deck"])
    s.discard = _uncards(pos["discard"])
    s.removed = _uncards(pos["removed_cards"])
    s.pile_sizes = [p["size"] for p in pos["piles"]]
    s.pile_tops = [
        [(kind, sum(1 << COLOURS.index(c) for c in knowers)) for kind, knowers in p["top"]]
        for p in pos["piles"]
    ]
    s.remaining = dict(pos["remaining_tiles"])
    s.winner = None if pos["winner"] is None else COLOURS.index(pos["winner"])
    s.log = None
    s._legal = None
    s._legal_set = None
    return s
