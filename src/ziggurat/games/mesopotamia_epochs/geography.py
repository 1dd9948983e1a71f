"""The map (rules spec §3, data appendix §9.1): areas, kinds, borders, validated once.

A map is data: the default one is ``map.json``, and a replacement (game option ``map``) must
satisfy the invariants of §3.6, which :class:`Map` checks on load. The rules work on the
compiled form: areas are integer indices, sets of areas are ``int`` bitmasks (bit ``a`` is
area ``a``), and the lists below are precomputed so that finding legal targets (E8.2) is a few
mask operations.
"""

from __future__ import annotations

from typing import Any, Final

KINDS = ("land", "island", "desert", "sea", "uninhabited")
MEMO_LIMIT = 1 << 14
"""How many masks a memo (reaches here, legal lists in the notation) keeps at most: a full memo
is emptied and fills again with the masks in use (a few megabytes at most)."""
PLACEABLE_KINDS = frozenset(("land", "island", "desert"))  # E8.2 (1), E8.4, E11


class Map:
    """A validated map with its lookup tables (areas by index, masks, directed difficult borders)."""

    __slots__ = (
        "data", "map_id", "ids", "index", "names", "kinds", "double", "coastal", "xy", "size",
        "placeable", "desert", "sea", "land_adj", "adj_mask", "placeable_mask", "desert_mask",
        "coastal_mask", "double_mask", "difficult", "difficult_into", "all_neighbours", "_reach",
    )  # fmt: skip

    def __init__(self, data: dict[str, Any]) -> None:
        """:raises ValueError: if the map breaks an invariant of §3.6 (the message says which)."""
        try:
            self._load(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed map: {exc!r}") from exc

    def _load(self, data: dict[str, Any]) -> None:
        self.data = data
        self.map_id = str(data.get("map_id", "custom"))
        areas = data["areas"]
        if not isinstance(areas, list) or not areas:
            raise ValueError("map: 'areas' must be a non-empty list")
        self.ids = [a["id"] for a in areas]
        self.index = {a: i for i, a in enumerate(self.ids)}
        if len(self.index) != len(self.ids):  # §3.6 (1)
            dup = sorted({a for a in self.ids if self.ids.count(a) > 1})
            raise ValueError(f"map: area id {dup[0]!r} is used twice (§3.6 1)")
        for a in self.ids:
            if not isinstance(a, str) or not a or a != a.lower() or " " in a:
                raise ValueError(f"map: area id {a!r} must be lower-case snake case")
        self.size = len(self.ids)
        self.names = [str(a.get("name", a["id"])) for a in areas]
        self.kinds = [a["kind"] for a in areas]
        for a, kind in zip(self.ids, self.kinds, strict=True):
            if kind not in KINDS:
                raise ValueError(f"map: area {a!r} has unknown kind {kind!r} (one of {', '.join(KINDS)})")
        self.double = [a.get("double_value", False) for a in areas]
        self.coastal = [a.get("coastal", False) for a in areas]
        for a, dv, co in zip(self.ids, self.double, self.coastal, strict=True):
            if not isinstance(dv, bool) or not isinstance(co, bool):  # §3.6 (7)
                raise ValueError(f"map: area {a!r}: double_value and coastal must be true or false")
        self.xy = [(a.get("x", 0), a.get("y", 0)) for a in areas]
        nbrs: list[list[int]] = []
        for a in areas:
            row = []
            for b in a["neighbours"]:
                if b not in self.index:  # §3.6 (1)
                    raise ValueError(f"map: area {a['id']!r} has unknown neighbour {b!r} (§3.6 1)")
                if b == a["id"]:
                    raise ValueError(f"map: area {b!r} cannot be its own neighbour")
                row.append(self.index[b])
            if len(set(row)) != len(row):
                raise ValueError(f"map: area {a['id']!r} lists a neighbour twice")
            nbrs.append(row)
        for i, row in enumerate(nbrs):
            for j in row:
                if i not in nbrs[j]:  # §3.6 (2)
                    raise ValueError(
                        f"map: {self.ids[i]!r} lists {self.ids[j]!r} as a neighbour but not the "
                        "reverse; neighbour relations must be symmetric (§3.6 2)"
                    )
        self.all_neighbours = [tuple(sorted(row)) for row in nbrs]
        self.sea = [k == "sea" for k in self.kinds]
        for i, row in enumerate(nbrs):
            touches_sea = any(self.sea[j] for j in row)
            if self.coastal[i] != touches_sea:  # §3.6 (3)
                raise ValueError(
                    f"map: area {self.ids[i]!r} has coastal={self.coastal[i]} but "
                    f"{'touches' if touches_sea else 'does not touch'} a sea (§3.6 3)"
                )
        self.placeable = [k in PLACEABLE_KINDS for k in self.kinds]
        self.desert = [k == "desert" for k in self.kinds]
        # E8.3: adjacency is a land border; seas and uninhabited areas can never be held,
        # so they never link anything (R22) and are left out of the adjacency lists.
        self.land_adj = [
            tuple(j for j in nbrs[i] if self.placeable[j]) if self.placeable[i] else ()
            for i in range(self.size)
        ]
        self.adj_mask = [_mask(row) for row in self.land_adj]
        self.placeable_mask = _mask(i for i in range(self.size) if self.placeable[i])
        self.desert_mask = _mask(i for i in range(self.size) if self.desert[i])
        self.coastal_mask = _mask(i for i in range(self.size) if self.coastal[i] and self.placeable[i])
        self.double_mask = _mask(i for i in range(self.size) if self.double[i])
        difficult = set()
        for entry in data.get("difficult_borders", []):
            a, b = entry["attacker_area"], entry["defender_area"]
            for x in (a, b):
                if x not in self.index:  # §3.6 (4)
                    raise ValueError(f"map: difficult border names unknown area {x!r} (§3.6 4)")
            i, j = self.index[a], self.index[b]
            if j not in nbrs[i]:
                raise ValueError(
                    f"map: difficult border {a} -> {b} joins areas that are not neighbours (§3.6 4)"
                )
            if not (self.placeable[i] and self.placeable[j]):
                raise ValueError(
                    f"map: difficult border {a} -> {b} must join land, island or desert areas (§3.6 4)"
                )
            if (i, j) in difficult:
                raise ValueError(f"map: difficult border {a} -> {b} is listed twice")
            difficult.add((i, j))
        self.difficult = frozenset(difficult)
        # difficult_into[t]: the areas from which an attack into t is difficult (§3.3, E12.4)
        self.difficult_into = [_mask(i for (i, j) in difficult if j == t) for t in range(self.size)]
        if not any(self.placeable):
            raise ValueError("map: no area can hold tribes")
        self._reach: dict[int, tuple[int, list[int]]] = {}

    def area(self, area_id: str) -> int:
        """Index of ``area_id``; :raises KeyError: if the map has no such area."""
        return self.index[area_id]

    def bits(self, mask: int) -> list[int]:
        """The areas of a bitmask, in index order."""
        return bits(mask)

    def reach(self, held: int) -> tuple[int, list[int]]:
        """E8.2 (b) for a People holding the areas of ``held``: the land neighbours of those
        areas that are no desert (E11.2), and the areas of ``held`` in index order.

        Remembered per mask (see :data:`MEMO_LIMIT`): a People's areas change far less often
        than its legal targets are asked for. The list is shared: never mutate it.
        """
        hit = self._reach.get(held)
        if hit is None:
            areas = bits(held)
            near = 0
            adj = self.adj_mask
            for a in areas:
                near |= adj[a]
            hit = (near & ~self.desert_mask, areas)
            if len(self._reach) >= MEMO_LIMIT:
                self._reach = {}
            self._reach[held] = hit
        return hit


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (areas of a map), lowest first."""
    out: list[int] = []
    k = 0
    while mask:
        byte = mask & 255
        if byte:
            if k >= len(_BYTE_BITS):
                _BYTE_BITS.append(_byte_bits(8 * k))
            out += _BYTE_BITS[k][byte]
        mask >>= 8
        k += 1
    return out


def _byte_bits(base: int) -> tuple[tuple[int, ...], ...]:
    """For each byte value, its set bits as indices from ``base``."""
    return tuple(tuple(base + i for i in range(8) if b >> i & 1) for b in range(256))


_BYTE_BITS: Final = [_byte_bits(8 * k) for k in range(8)]  # [k][byte]: the bits of the k-th byte


def _mask(indices: Any) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m
