"""Derived board facts: control, tracks, province states, connection, supplies (N0.4-N0.11)."""

from __future__ import annotations

from typing import Any, Final

from ziggurat.games.mare_nostrum import data as D

State = dict[str, Any]


def has(d: State, seat: int, tile: str) -> bool:
    """``seat`` has ``tile``'s ability: he owns it or copies it this round (N0.12)."""
    tiles: list[str] = d["tiles"][seat]
    if tile in tiles:
        return True
    copied: str | None = d["copy"][seat]
    return copied == tile


def owns(d: State, seat: int, tile: str) -> bool:
    return tile in d["tiles"][seat]


def legions(d: State, prov: str) -> list[int]:
    """Legion counts per seat in ``prov`` (read only)."""
    got: list[int] | None = d["legions"].get(prov)
    return got if got is not None else [0] * d["n"]


def triremes(d: State, sea: str) -> list[int]:
    """Trireme counts per seat in ``sea`` (read only)."""
    got: list[int] | None = d["triremes"].get(sea)
    return got if got is not None else [0] * d["n"]


def move_unit(d: State, kind: str, area: str, seat: int, k: int) -> None:
    """Add ``k`` (may be negative) units of ``seat`` to ``area``; kind is legions or triremes.

    The table and its row are replaced, never changed in place: clones share them
    (``state.copy_state``).
    """
    before: dict[str, list[int]] = d[kind]
    table = before.copy()
    d[kind] = table
    old = table.get(area)
    n: int = d["n"]
    row: list[int] = [0] * n if old is None else old.copy()
    row[seat] += k
    if row.count(0) != len(row):  # some units left there
        table[area] = row
    elif old is not None:
        del table[area]
    seen = _ON_BOARD.get(kind)
    if seen is not None and seen[0] is before:  # the count kept for the table replaced: carried on
        counts = seen[1].copy()
        counts[seat] += k
        _ON_BOARD[kind] = (table, counts)


def put(d: State, part: str, key: Any, value: Any) -> None:
    """``d[part][key] = value`` on a new copy of ``d[part]``: clones share the parts play seldom
    changes (``state.copy_state``), so those are replaced whole, never changed in place."""
    new = d[part].copy()
    new[key] = value
    d[part] = new


def drop(d: State, part: str, key: str) -> None:
    """``d[part].pop(key, None)`` on a new copy of ``d[part]`` (see :func:`put`)."""
    if key in d[part]:
        new = d[part].copy()
        del new[key]
        d[part] = new


def unoccupy(d: State, prov: str, slot: str) -> None:
    """The legion on building ``slot`` of ``prov`` steps off it: ``occupy`` and the province's
    row are replaced (see :func:`put`)."""
    row = d["occupy"][prov].copy()
    del row[slot]
    if row:
        put(d, "occupy", prov, row)
    else:
        drop(d, "occupy", prov)


def control(d: State, prov: str, slot: str) -> int | None:
    """N0.5: the occupier of a building, otherwise the marker owner."""
    occ = d["occupy"].get(prov, {}).get(slot)
    if occ is not None:
        return int(occ)
    owner = d["markers"].get(prov)
    return None if owner is None else int(owner)


def built(d: State, prov: str) -> list[str]:
    return list(d["buildings"].get(prov, []))


def present(d: State, prov: str) -> list[int]:
    """Seats with legions in ``prov``."""
    return [s for s, c in enumerate(legions(d, prov)) if c > 0]


def at_war(d: State, prov: str) -> bool:
    """N0.11.1."""
    return len(present(d, prov)) >= 2


def has_capital(d: State, prov: str) -> bool:
    return "capital" in built(d, prov)


def placed(d: State, prov: str, seat: int) -> int:
    """Legions of ``seat`` standing on a building or on the marker in ``prov``."""
    n = sum(1 for s in d["occupy"].get(prov, {}).values() if s == seat)
    return n + (1 if d["on_marker"].get(prov) == seat else 0)


def free_legions(d: State, prov: str, seat: int) -> int:
    return legions(d, prov)[seat] - placed(d, prov, seat)


def tracks(d: State, seat: int) -> dict[str, int]:
    """N0.7: levels computed from control, pieces on the board and owned tiles' bonuses."""
    level = {"trade": 0, "culture": 0, "military": 0}
    for prov, slots in d["buildings"].items():
        for slot in slots:
            if control(d, prov, slot) != seat:
                continue
            kind = D.building_kind(slot)
            level["trade" if kind in ("caravan", "market") else "culture"] += 1
    level["military"] += sum(v[seat] for v in d["legions"].values())
    level["military"] += sum(v[seat] for v in d["triremes"].values())
    level["military"] += sum(1 for s in d["fortresses"].values() if s == seat)
    for tile in d["tiles"][seat]:
        bonus = D.TILES[tile]["track_bonus"] if tile in D.TILES else {}
        for t in D.TRACKS:
            level[t] += bonus.get(t, 0)
    return level


_TRACK_OF_KIND: Final = {
    kind: "trade" if kind in ("caravan", "market") else "culture" for kind in D.BUILDING_KINDS
}

_TRACK_OF_SLOT: Final[dict[str, int]] = {}
"""The track a building slot counts for (0 trade, 1 culture: N0.7), by slot name, worked out once."""

_TILE_BONUS: Final[dict[str, tuple[int, int, int]]] = {
    tile: (
        int(spec["track_bonus"].get("trade", 0)),
        int(spec["track_bonus"].get("culture", 0)),
        int(spec["track_bonus"].get("military", 0)),
    )
    for tile, spec in D.TILES.items()
}
"""Each tile's bonus on the trade, culture and military tracks (N0.7)."""


def all_tracks(d: State) -> list[dict[str, int]]:
    """:func:`tracks` of every seat, in one pass over the board (N0.7); the Claim phase asks
    for every seat's levels on each track."""
    n: int = d["n"]
    trade = [0] * n
    culture = [0] * n
    military = [0] * n
    occupy: dict[str, dict[str, int]] = d["occupy"]
    markers: dict[str, int] = d["markers"]
    buildings: dict[str, list[str]] = d["buildings"]
    track_of = _TRACK_OF_SLOT
    for prov, slots in buildings.items():
        owner = markers.get(prov)
        occ = occupy.get(prov)
        for slot in slots:
            who = occ.get(slot, owner) if occ else owner  # N0.5: the occupier, else the marker's owner
            if who is not None:
                track = track_of.get(slot)
                if track is None:
                    kind = _TRACK_OF_KIND.get(slot.split(":")[0], "culture")
                    track = track_of[slot] = 0 if kind == "trade" else 1
                if track == 0:
                    trade[who] += 1
                else:
                    culture[who] += 1
    legions: dict[str, list[int]] = d["legions"]
    triremes: dict[str, list[int]] = d["triremes"]
    for table in (legions, triremes):
        for row in table.values():
            for s in range(n):
                military[s] += row[s]
    fortresses: dict[str, int] = d["fortresses"]
    for s in fortresses.values():
        military[s] += 1
    tiles: list[list[str]] = d["tiles"]
    levels: list[dict[str, int]] = []
    for s in range(n):
        t, c, m = trade[s], culture[s], military[s]
        for tile in tiles[s]:
            bonus = _TILE_BONUS.get(tile)
            if bonus is not None:
                t += bonus[0]
                c += bonus[1]
                m += bonus[2]
        levels.append({"trade": t, "culture": c, "military": m})
    return levels


_ON_BOARD: Final[dict[str, tuple[Any, list[int]]]] = {}
"""The last :func:`on_board` count of each unit table: the table read and every seat's count."""


def on_board(d: State, kind: str) -> list[int]:
    """Every seat's units on the board, ``kind`` ``legions`` or ``triremes`` (read only).

    Asked several times per buy turn's legal list, and the answer seldom changes: the unit
    tables are replaced whole whenever they change (:func:`move_unit`), never changed in place,
    so the counts of the same table are those worked out last; :func:`move_unit` carries the
    counts kept for the table it replaces on to the new one."""
    table = d[kind]
    seen = _ON_BOARD.get(kind)
    if seen is not None and seen[0] is table:
        return seen[1]
    n: int = d["n"]
    counts = [0] * n
    rows: dict[str, list[int]] = table
    for row in rows.values():
        for s in range(n):
            counts[s] += row[s]
    _ON_BOARD[kind] = (table, counts)
    return counts


def supply(d: State, seat: int, piece: str) -> int:
    """N0.9: pieces of ``piece`` left in ``seat``'s supply."""
    limits: dict[str, int] = d["limits"]
    # counts kept per table, and loops: this is asked several times per legal list
    if piece == "legion":
        return limits["legion"] - on_board(d, "legions")[seat]
    if piece == "trireme":
        return limits["trireme"] - on_board(d, "triremes")[seat]
    table: dict[str, int] = d["fortresses"] if piece == "fortress" else d["markers"]
    used = 0
    for owner in table.values():
        if owner == seat:
            used += 1
    return limits[piece if piece == "fortress" else "influence_marker"] - used


def building_supply(d: State, kind: str) -> int | None:
    """Buildings of ``kind`` left in the common supply (2.4, N0.9, R35), or None when unlimited
    (option ``building_supply_limit``). Built ones are on the board; pillaged ones are back."""
    limit = D.building_limits(d["opts"]).get(kind)
    if limit is None:
        return None
    on_board = sum(1 for slots in d["buildings"].values() for s in slots if D.building_kind(s) == kind)
    return limit - on_board


def building_left(d: State, kind: str) -> bool:
    """N0.9 for buildings: at least one of ``kind`` is left in the common supply."""
    left = building_supply(d, kind)
    return left is None or left > 0


def own_provinces(d: State, seat: int) -> list[str]:
    return sorted(p for p, s in d["markers"].items() if s == seat)


_OWN: Final[list[tuple[Any, list[list[str]]]]] = [(None, [])]
"""The last :func:`owned` answer, one pair stored at once (so that a thread never reads one
table's answer with another's): the ``markers`` table read and every seat's provinces."""


def owned(d: State, seat: int) -> list[str]:
    """:func:`own_provinces` (read only), from every seat's provinces worked out together once
    per ``markers`` table: it is replaced whole whenever it changes (:func:`put`)."""
    markers = d["markers"]
    seen, by_seat = _OWN[0]
    if seen is not markers:
        by_seat = [[] for _ in range(d["n"])]
        for p in sorted(markers):
            by_seat[markers[p]].append(p)
        _OWN[0] = (markers, by_seat)
    return by_seat[seat]


def sea_reach(d: State, seat: int, starts: list[str]) -> set[str]:
    """Seas reachable from provinces ``starts`` along seas holding ``seat``'s triremes (N0.6.2)."""
    b = D.board(d["n"])
    table: dict[str, list[int]] = d["triremes"]
    provinces = b.provinces
    frontier: list[str] = []
    for p in starts:
        for s in provinces[p]["seas"]:
            row = table.get(s)
            if row is not None and row[seat] > 0:
                frontier.append(s)
    seen = set(frontier)
    seas = b.seas
    while frontier:
        sea = frontier.pop()
        for nxt in seas[sea]["seas"]:
            if nxt not in seen:
                row = table.get(nxt)
                if row is not None and row[seat] > 0:
                    seen.add(nxt)
                    frontier.append(nxt)
    return seen


def sea_reach_from(d: State, seat: int, sea: str) -> set[str]:
    """The seas of ``seat``'s trireme chain through ``sea``, which holds one of his triremes:
    every sea linked to it by seas holding his triremes (N0.6.2), ``sea`` included."""
    b = D.board(d["n"])
    table = d["triremes"]
    seen = {sea}
    frontier = [sea]
    while frontier:
        here = frontier.pop()
        for nxt in b.seas[here]["seas"]:
            if nxt not in seen:
                row = table.get(nxt)
                if row is not None and row[seat] > 0:
                    seen.add(nxt)
                    frontier.append(nxt)
    return seen


def connected(d: State, seat: int, prov: str, by_chain: bool) -> bool:
    """N0.6: ``prov`` is not in ``seat``'s empire and touches it by land or trireme chain."""
    if d["markers"].get(prov) == seat:
        return False
    b = D.board(d["n"])
    mine = own_provinces(d, seat)
    if any(p in b.provinces[prov]["land"] for p in mine):
        return True
    if not by_chain:
        return False
    reach = sea_reach(d, seat, mine)
    return any(s in reach for s in b.provinces[prov]["seas"])


def n_tokens(d: State, seat: int) -> int:
    """A player's resource token count (7.1), offered tokens included."""
    n = sum(d["res"][seat].values())
    trade = d.get("trade")
    if trade:
        n += len(trade["offers"][seat] or []) + len(trade["received"][seat])
    return n


def add_res(d: State, seat: int, token: str, k: int = 1) -> None:
    res: dict[str, int] = d["res"][seat]
    left = res.get(token, 0) + k
    if left == 0:
        res.pop(token, None)
    else:
        res[token] = left


def victory_cities(d: State, seat: int) -> int:
    """N6.3: capitals and legendary cities controlled by ``seat``."""
    n = 0
    for prov, slots in d["buildings"].items():
        for slot in slots:
            if D.building_kind(slot) in ("capital", "legendary_city") and control(d, prov, slot) == seat:
                n += 1
    return n


def tiles_counted(d: State, seat: int) -> int:
    """Tiles counted for cost and N6.2 (the Pyramids are never in ``tiles``)."""
    n = len(d["tiles"][seat])
    if not d["opts"]["starting_hero_counts_toward_win"]:
        n -= sum(1 for t in d["tiles"][seat] if not D.TILES[t]["purchasable"])
    return n
