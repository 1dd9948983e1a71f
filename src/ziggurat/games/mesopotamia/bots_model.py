"""The heuristic bot's picture of the game: a light board built from a seat's view.

The bot never sees the true state (docs/architecture.md): everything here is read from
``state.view(seat)``. :class:`Board` holds what the bot reasons about (tiles, loose resources,
pieces, its own Mana and offering values); :class:`Mine` is the small mutable part that one
candidate action changes (own tribes, loose resources, Mana, limit, deliveries, huts, holy
places), so a candidate is simulated by copying a few short lists instead of a whole state.
:class:`Distances` answers "how far is this tile from that one for a tribe carrying X" with
cached Dijkstra maps over the known tiles plus the unexplored hexes around them.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import Any

from ziggurat.games.mesopotamia.data import (
    CARD_INDEX,
    COLOURS,
    DIRECTIONS,
    DRAWABLE,
    EMPTY,
    OFFERING,
    PLAINS,
    STONE,
    TEMPLE,
    VOLCANO,
    WOOD,
    any_left,
    sum_of,
)
from ziggurat.games.mesopotamia.position import cargo_text, parse_cargo, to_position
from ziggurat.games.mesopotamia.state import MesoState, TribeT

# tuples of any length, as the rules' own (state.py): a compiled build keeps them as objects
Coord = tuple[Any, ...]
"""A tile ``(q, r)``."""
Tribe = tuple[Any, ...]
"""A tribe: ``(tile, cargo code, spent flag)`` (as in the notation's '*')."""

_LAND, _THEFT, _TELEPORT = CARD_INDEX["land"], CARD_INDEX["mana_theft"], CARD_INDEX["teleport"]
STEP = 4  # distance units of one step onto a known tile
UNKNOWN_STEP = 5  # one step onto an unexplored hex (a discovery: the tile type is unknown)
FAR = 10_000


class Board:
    """Everything the bot reads from one view (immutable while a decision is made)."""

    __slots__ = (
        "seat", "n", "tiles", "temple", "phase", "mp", "disc", "action", "pending", "round",
        "piles", "pile_tops", "remaining", "huts", "holy", "opp_tribes", "mana", "limit",
        "delivered", "hand", "discard", "removed", "deck_size", "values", "unplaced",
        "supply_tribes", "income_done", "priests", "huts_in_supply", "tribes", "wood", "stone",
        "spaces", "frontier", "layout_key",
    )  # fmt: skip

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        if type(view) is WorldView:
            self._read_state(view.state, seat, view.mp)
            return
        self.seat = seat
        self.n = view["num_players"]
        self.piles: list[int] = [p["size"] for p in view["piles"]]
        # the map's facts (tiles, temple, unexplored spaces, frontier) depend on the tiles
        # alone, and the playouts of a search meet few layouts: they are read from a cache
        land = _land(view["tiles"], any(self.piles))
        self.tiles: dict[Coord, str] = land.tiles
        self.temple = land.temple
        self.layout_key = land.key
        # spaces: unexplored hexes next to the map; frontier: tiles next to one
        self.spaces: set[Coord] = land.spaces
        self.frontier: set[Coord] = land.frontier
        self.phase: str = view["phase"]
        self.mp: int = view["mp"]
        self.disc: int = view["discoveries"]
        self.action: str | None = view["action"]
        self.pending: Sequence[Any] | None = view["pending"]
        self.round: int = view["round"]
        me = COLOURS[seat]
        self.pile_tops: list[str | None] = [
            (p["top"][0][0] if p["top"] and me in p["top"][0][1] else None) for p in view["piles"]
        ]
        self.remaining: dict[str, int] = dict(view["remaining_tiles"])
        # huts: (owner seat or -1, number, tile, offering public id or 0)
        self.huts: list[tuple[Any, ...]] = [
            (-1 if o == "neutral" else COLOURS.index(o), num, (q, r), off)
            for o, num, q, r, off in view["huts"]
        ]
        self.holy: dict[Coord, int] = {(q, r): COLOURS.index(c) for q, r, c in view["holy_places"]}
        players = view["players"]
        self.opp_tribes: list[list[tuple[Coord, int]]] = []
        self.mana = [pl["mana"] for pl in players]
        self.limit = [pl["limit"] for pl in players]
        self.delivered = [len(pl["offerings"]["delivered"]) for pl in players]
        for i, pl in enumerate(players):
            self.opp_tribes.append(
                [] if i == seat else [((q, r), parse_cargo(c)) for q, r, c, _ in pl["tribes"]]
            )
        mine = players[seat]
        off = mine["offerings"]
        delivered = set(off["delivered"])
        # own offering values by public id, for the offerings still on the board
        self.values: dict[int, int] = {int(k): v for k, v in off["placed"].items() if int(k) not in delivered}
        self.unplaced: list[int] = list(off["unplaced"] or [])
        self.hand = [mine["hand"].get(t, 0) for t in CARD_INDEX]
        self.discard = [view["discard"].get(t, 0) for t in CARD_INDEX]
        self.removed = [view["removed_cards"].get(t, 0) for t in CARD_INDEX]
        self.deck_size: int = view["deck_size"]
        self.supply_tribes: int = mine["tribes_in_supply"]
        self.income_done: bool = view["income_done"]
        self.priests = len(view["priests"])
        self.huts_in_supply = 5 - sum(1 for h in self.huts if h[0] == seat)
        self.tribes: list[Tribe] = [((q, r), parse_cargo(c), bool(sp)) for q, r, c, sp in mine["tribes"]]
        self.wood: dict[Coord, int] = {}
        self.stone: dict[Coord, int] = {}
        for q, r, w, s in view["loose"]:
            if w:
                self.wood[(q, r)] = w
            if s:
                self.stone[(q, r)] = s

    def _read_state(self, s: MesoState, seat: int, mp: int | None) -> None:
        """The board of ``s.view(seat)`` read from the state itself (a :class:`WorldView`):
        the same fields, in the same orders, as :meth:`__init__` makes of the position,
        without writing the position out first (``mp``: Movement points read instead of
        the state's, if not None)."""
        self.seat = seat
        n = self.n = s.n
        self.piles = list(s.pile_sizes)
        tiles = s.tiles
        drawing = any_left(self.piles)
        got = _BY_TILES.get(id(tiles))
        if got is not None and got[0] is tiles and got[1] == len(tiles) and got[2] == drawing:
            land = got[3]
        else:
            land = _land(sorted([(c[0], c[1], kind) for c, kind in tiles.items()]), drawing)
            if len(_BY_TILES) >= LAND_MEMORY:
                _BY_TILES.clear()
            _BY_TILES[id(tiles)] = (tiles, len(tiles), drawing, land)
        self.tiles = land.tiles
        self.temple = land.temple
        self.layout_key = land.key
        self.spaces = land.spaces
        self.frontier = land.frontier
        self.phase = s.phase
        self.mp = s.mp if mp is None else mp
        self.disc = s.disc
        self.action = s.action
        self.pending = s.pending
        self.round = s.round
        self.pile_tops = [(tops[0][0] if tops and tops[0][1] >> seat & 1 else None) for tops in s.pile_tops]
        remaining = s.remaining
        self.remaining = {k: remaining.get(k, 0) for k in DRAWABLE}
        self.huts = sorted(s.huts, key=_hut_order)
        self.holy = dict(sorted(s.holy.items()))
        self.mana = list(s.mana)
        self.limit = list(s.limit)
        self.delivered = [len(d) for d in s.delivered]
        self.opp_tribes = [
            [] if i == seat else [(t[0], t[1]) for t in _on_map(s.tribes[i])] for i in range(n)
        ]
        delivered = set(s.delivered[seat])
        self.values = {k: v for k, v in sorted(s.offer_val[seat].items()) if k not in delivered}
        self.unplaced = sorted(s.unplaced[seat])
        self.hand = list(s.hand[seat])
        self.discard = list(s.discard)
        self.removed = list(s.removed)
        self.deck_size = sum_of(s.deck)
        self.supply_tribes = s.supply_tribes(seat)
        self.income_done = s.income_done
        self.priests = len(s.priests)
        self.huts_in_supply = 5 - huts_of(self.huts, seat)
        self.tribes = _on_map(s.tribes[seat])
        self.wood = {c: k for c, k in sorted(s.wood.items()) if k}
        self.stone = {c: k for c, k in sorted(s.stone.items()) if k}

    def key(self) -> tuple[object, ...]:
        """Everything of this board the heuristic reads (its decisions and evaluation), as
        one hashable value: boards with equal keys are decided and valued alike. The map
        enters through ``layout_key`` (its unexplored spaces and frontier follow from it).

        Of the other seats' tribes only the tiles they stand on are read, and only where a
        holy place could be built (a plains with no hut or holy place, M10.1), except for
        sharing out a discovery's resources, which looks at them all (D15): so a board
        where another seat's tribes moved elsewhere, or picked something up, has the same
        key, and the decisions of one world after each candidate move of a search are
        worked out once. Likewise a sub-decision under way is read only by its kind, but for
        a Teleport's or an Expulsion's (M15.7, M15.8), the piles' sizes only when a pile is
        to be chosen or a Land card is in hand (M7, M15.5), and the other seats' Mana and
        deliveries only with a card to aim at them. The round is left out (the bot's memory
        of its turn is keyed apart, see ``HeuristicBot.choose``), and so is the Phase II
        action under way, which the heuristic does not read."""
        pending = self.pending
        kind = None if pending is None else pending[0]
        others = {t[0] for tribes in self.opp_tribes for t in tribes}
        if kind != "shares":
            tiles, holy = self.tiles, self.holy
            huts = {h[2] for h in self.huts}
            others = {c for c in others if tiles.get(c) == PLAINS and c not in holy and c not in huts}
        piles = (tuple(self.piles), tuple(self.pile_tops)) if kind == "pile" or self.hand[_LAND] else None
        # the other seats' Mana and deliveries are read only to aim a Mana Theft or a
        # Teleport at one of them (M15.6, M15.7); their limits never
        me = self.seat
        if self.hand[_THEFT] or self.hand[_TELEPORT]:
            rivals: tuple[object, ...] = (tuple(self.mana), tuple(self.delivered))
        else:
            rivals = (self.mana[me], self.delivered[me])
        return (
            self.seat, self.n, self.layout_key, self.phase, self.mp, self.disc,
            _frozen(pending) if kind in ("teleport", "expel") else kind, piles,
            tuple(self.remaining.items()), tuple(self.huts),
            tuple(self.holy.items()), frozenset(others),
            rivals, self.limit[me],
            tuple(self.values.items()), tuple(self.unplaced), tuple(self.hand),
            tuple(self.discard), tuple(self.removed), self.deck_size, self.supply_tribes,
            self.income_done, self.priests, self.huts_in_supply, tuple(self.tribes),
            tuple(self.wood.items()), tuple(self.stone.items()),
        )  # fmt: skip

    def p_tile(self, kind: str) -> float:
        """Chance that a discovery lands this (non-volcano) tile type."""
        total = sum(v for k, v in self.remaining.items() if k != VOLCANO)
        return self.remaining.get(kind, 0) / total if total else 0.0


class WorldView(dict[str, Any]):
    """A seat's view of a sampled world that the heuristic reads from the world's state
    (:meth:`Board._read_state`) instead of from its position: what a search's playouts and
    evaluation hand their boards (``evaluate.rollout_view``), where every secret is a
    sample. Any other reader gets the position's entries on its first look-up by key
    (``mp`` then still the state's)."""

    __slots__ = ("state", "mp")

    def __init__(self, state: MesoState, mp: int | None = None) -> None:
        super().__init__()
        self.state = state
        self.mp = mp

    def __missing__(self, key: str) -> Any:
        if not self:
            self.update(to_position(self.state))
            return self[key]
        raise KeyError(key)


_BY_TILES: dict[int, tuple[dict[Coord, str], int, bool, Land]] = {}
"""The :class:`Land` of a state's tiles by the identity of its tile table, which the rules
replace rather than change in place (a clone shares it): checked against the table itself
and its size, so a table changed in place after all is read again."""


def _hut_order(h: tuple[Any, ...]) -> tuple[str, int, int, int, int]:
    """A hut's place in a position's list (by owner's name, number, tile, offering)."""
    return ("neutral" if h[0] < 0 else COLOURS[h[0]], h[1], h[2][0], h[2][1], h[3])


def huts_of(huts: list[tuple[Any, ...]], seat: int) -> int:
    """How many of ``huts`` are ``seat``'s (a loop, which compiles to C: no generator)."""
    n = 0
    for h in huts:
        if h[0] == seat:
            n += 1
    return n


def _on_map(tribes: list[TribeT]) -> list[Tribe]:
    """A seat's tribes on the map, in a position's order (tile, cargo's text, spent)."""
    out: list[Tribe] = []
    for t in tribes:
        c = t[0]
        if c is not None:
            out.append((c, t[1], t[2]))
    out.sort(key=lambda t: (t[0], cargo_text(t[1]), t[2]))
    return out


def _frozen(x: Any) -> Any:
    """``x`` with its lists turned into tuples, all the way down (hashable)."""
    if isinstance(x, list | tuple):
        return tuple([_frozen(v) for v in x])
    return x


class Land:
    """A map's facts that depend on its tiles alone (shared by every :class:`Board` of the
    layout, never changed): tiles, temple, the unexplored hexes next to the map and the
    tiles next to one (while tiles are left to draw, M7), and ``key``, the layout's identity
    (the tiles and whether tiles are left)."""

    __slots__ = ("tiles", "temple", "spaces", "frontier", "key")

    def __init__(self, raw: list[Any], drawing: bool) -> None:
        self.tiles: dict[Coord, str] = {(q, r): kind for q, r, kind in raw}
        self.temple = next(c for c, kind in self.tiles.items() if kind == TEMPLE)
        self.spaces: set[Coord] = set()
        self.frontier: set[Coord] = set()
        if drawing:
            tiles = self.tiles
            for (q, r), kind in tiles.items():
                edge = False
                for dq, dr in DIRECTIONS:
                    c = (q + dq, r + dr)
                    if c not in tiles:
                        self.spaces.add(c)
                        edge = True
                if edge and kind != VOLCANO and kind != TEMPLE:
                    self.frontier.add((q, r))
        self.key = (frozenset(self.tiles.items()), bool(self.spaces))


_LANDS: dict[tuple[Any, ...], Land] = {}
LAND_MEMORY = 512
"""Layouts whose :class:`Land` is kept (then the cache starts afresh): a search meets a few
dozen, a game a few more."""


def _land(raw: list[Any], drawing: bool) -> Land:
    """The :class:`Land` of the view's tiles (``[q, r, kind]`` rows), from the cache."""
    key = (drawing, *map(tuple, raw))
    got = _LANDS.get(key)
    if got is None:
        if len(_LANDS) >= LAND_MEMORY:
            _LANDS.clear()
        got = _LANDS[key] = Land(raw, drawing)
    return got


class Mine:
    """The part of the board one candidate action can change (copied per candidate)."""

    __slots__ = ("tribes", "wood", "stone", "mana", "limit", "delivered", "hut_offers",
                 "huts_built", "holy", "unplaced", "supply_tribes", "bonus", "mp")  # fmt: skip

    def __init__(self, b: Board | None = None) -> None:
        if b is None:
            return
        self.tribes: list[Tribe] = sorted(b.tribes)
        self.wood = dict(b.wood)
        self.stone = dict(b.stone)
        self.mana = b.mana[b.seat]
        self.limit = b.limit[b.seat]
        self.delivered = b.delivered[b.seat]
        # own huts holding an own offering: tile -> list of offering values
        self.hut_offers: dict[Coord, list[int]] = {}
        for owner, _, c, pub in b.huts:
            if owner == b.seat and pub:
                self.hut_offers.setdefault(c, []).append(b.values[pub])
        self.huts_built = huts_of(b.huts, b.seat) - 1
        self.holy = {c for c, o in b.holy.items() if o == b.seat}
        self.unplaced = list(b.unplaced)
        self.supply_tribes = b.supply_tribes
        self.bonus = 0.0  # one-off value of the action itself (a discovery, a steal)
        self.mp = b.mp

    def copy(self) -> Mine:
        m = Mine()
        m.tribes = list(self.tribes)
        m.wood = self.wood
        m.stone = self.stone
        m.mana = self.mana
        m.limit = self.limit
        m.delivered = self.delivered
        m.hut_offers = self.hut_offers
        m.huts_built = self.huts_built
        m.holy = self.holy
        m.unplaced = self.unplaced
        m.supply_tribes = self.supply_tribes
        m.bonus = 0.0
        m.mp = self.mp
        return m


def take(loose: dict[Coord, int], c: Coord) -> dict[Coord, int]:
    out = dict(loose)
    out[c] -= 1
    if not out[c]:
        del out[c]
    return out


def put(loose: dict[Coord, int], c: Coord) -> dict[Coord, int]:
    out = dict(loose)
    out[c] = out.get(c, 0) + 1
    return out


def donate(m: Mine) -> None:
    """M5.5: the limit rises (to 8), then Mana rises (to the limit)."""
    m.limit = min(8, m.limit + 1)
    m.mana = min(m.limit, m.mana + 1)


def enter_temple(b: Board, m: Mine, i: int, origin: Coord) -> None:
    """Own tribe ``i`` arrives on the temple (M5.4, M6.4, M6.5)."""
    _, cargo, spent = m.tribes[i]
    if cargo == STONE:
        donate(m)
        m.tribes[i] = (b.temple, EMPTY, spent)
    elif cargo >= OFFERING:
        value = b.values[cargo - OFFERING]
        if m.mana >= value:
            m.mana -= value
            m.delivered += 1
            del m.tribes[i]
            m.supply_tribes += 1
        # a failed delivery sends the tribe back where it came from (M6.5)
    else:
        m.tribes[i] = (b.temple, cargo, spent)


class Layout:
    """One map layout's step graph, with the distance maps found on it so far.

    Hexes are numbered and each keeps its list of passable neighbours, per carrying class,
    so a search walks lists of small integers instead of building coordinate tuples and
    probing dicts at every step (the search runs thousands of times per decision of ISMCTS).
    """

    __slots__ = ("temple", "coords", "index", "step", "around", "maps", "frontier", "sites")

    def __init__(self, b: Board) -> None:
        self.temple = b.temple
        cost: dict[Coord, int] = {c: STEP for c, kind in b.tiles.items() if kind != VOLCANO}
        if b.spaces:
            ring = set(b.spaces)
            for c in b.spaces:
                cost[c] = UNKNOWN_STEP
            for c in ring:
                for dq, dr in DIRECTIONS:
                    n = (c[0] + dq, c[1] + dr)
                    if n not in cost and n not in b.tiles:
                        cost[n] = UNKNOWN_STEP + 1
        self.coords: list[Coord] = list(cost)
        self.index: dict[Coord, int] = {c: i for i, c in enumerate(self.coords)}
        self.step: list[int] = list(cost.values())  # the cost of stepping onto each hex
        temple = self.index.get(self.temple, -1)
        empty: list[list[int]] = []
        carrier: list[list[int]] = []
        for q, r in self.coords:
            near = [self.index[n] for n in ((q + dq, r + dr) for dq, dr in DIRECTIONS) if n in self.index]
            empty.append(near)
            carrier.append([i for i in near if i != temple])  # carriers never enter the temple
        self.around = (empty, carrier)  # indexed by the carrying class (False, True)
        self.maps: tuple[dict[Coord, dict[Coord, int]], dict[Coord, dict[Coord, int]]] = ({}, {})
        self.frontier: dict[Coord, int] | None = None
        self.sites: dict[frozenset[Coord], dict[Coord, list[tuple[int, Coord]]]] = {}

    def search(self, targets: list[Coord], carrier: bool) -> dict[Coord, int]:
        """Map hex -> cost of walking from that hex to the nearest of ``targets`` (Dijkstra).

        Heap entries are single integers ``distance << shift | hex`` (no tuples); a target
        off the graph (a volcano, or beyond the unexplored rings) is reached from nowhere.
        """
        index = self.index
        step = self.step
        around = self.around[carrier]
        shift = len(self.coords).bit_length()
        mask = (1 << shift) - 1
        best = [FAR] * len(self.coords)
        heap: list[int] = []
        out: dict[Coord, int] = {}
        for c in targets:
            i = index.get(c)
            if i is None:
                out[c] = 0
            elif best[i]:
                best[i] = 0
                heap.append(i)
        heapq.heapify(heap)
        while heap:
            x = heapq.heappop(heap)
            d = x >> shift
            u = x & mask
            if d > best[u]:
                continue
            nd = d + step[u]
            for w in around[u]:
                if nd < best[w]:
                    best[w] = nd
                    heapq.heappush(heap, nd << shift | w)
        coords = self.coords
        for i, d in enumerate(best):
            if d < FAR:
                out[coords[i]] = d
        return out


_LAYOUTS: dict[tuple[frozenset[tuple[Coord, str]], bool], Layout] = {}
LAYOUTS = 256
"""Map layouts whose step graphs and distance maps are kept at most (then the table starts
afresh): a search meets a few dozen (each discovery of a playout, with each tile it may
draw, is one)."""


class Distances:
    """Shortest step costs between hexes, per carrying class, kept per map layout.

    Class ``True`` (a carrier) may not cross the temple (M5.3-M5.6); class ``False`` (an
    empty tribe) may. Unexplored hexes up to two rings beyond the map count as passable at
    a slightly higher cost while tiles are left to draw (a discovery always lands the tribe
    on its target hex, M7.3-M7.4).

    Distances depend on the tiles alone (public), so every instance reads one table of
    layouts keyed by the exact tiles (:data:`LAYOUTS`): the worlds of a search, its
    evaluation and playout bots, and the searches of every seat share their maps.

    Call :meth:`update` with the board before asking for distances on it.
    """

    def __init__(self) -> None:
        self._key: tuple[frozenset[tuple[Coord, str]], bool] | None = None
        self._layout: Layout | None = None
        # the current layout's maps per class, held here for the cache hit (the hot path)
        self._empty: dict[Coord, dict[Coord, int]] = {}
        self._carrier: dict[Coord, dict[Coord, int]] = {}

    def update(self, b: Board) -> None:
        key = b.layout_key
        if key == self._key:
            return
        self._key = key
        got = _LAYOUTS.get(key)
        if got is None:
            if len(_LAYOUTS) >= LAYOUTS:
                _LAYOUTS.clear()
            got = _LAYOUTS[key] = Layout(b)
        self._use(got)

    def _use(self, layout: Layout) -> None:
        self._layout = layout
        self._empty, self._carrier = layout.maps

    def to(self, target: Coord, carrier: bool) -> dict[Coord, int]:
        """Map tile -> cost of walking from that tile to ``target``."""
        maps = self._carrier if carrier else self._empty
        got = maps.get(target)
        if got is None:
            assert self._layout is not None, "Distances.update(board) comes first"
            got = maps[target] = self._layout.search([target], carrier)
        return got

    def maps(self, carrier: bool) -> dict[Coord, dict[Coord, int]]:
        """The maps found so far on the current layout, by target (what :meth:`to` answers
        from, for a hot loop to read directly; a missing target is asked of :meth:`to`)."""
        return self._carrier if carrier else self._empty

    def d(self, a: Coord, target: Coord, carrier: bool) -> int:
        got = (self._carrier if carrier else self._empty).get(target)
        if got is None:
            got = self.to(target, carrier)
        return got.get(a, FAR)

    def by_distance(self, sites: Iterable[Coord]) -> dict[Coord, list[tuple[int, Coord]]]:
        """A cache for these sites on the current layout: tile -> ``(carrier's distance,
        site)`` for every site, nearest first (filled by the caller). Sites are hut or holy
        sites, the same for many decisions on one map."""
        layout = self._layout
        assert layout is not None, "Distances.update(board) comes first"
        key = frozenset(sites)
        got = layout.sites.get(key)
        if got is None:
            got = layout.sites[key] = {}
        return got

    def frontier_map(self, b: Board) -> dict[Coord, int]:
        """Map tile -> cost of walking (empty) to the nearest frontier tile of ``b``, the
        board last given to :meth:`update`; computed once per layout."""
        layout = self._layout
        assert layout is not None, "Distances.update(board) comes first"
        if layout.frontier is None:
            layout.frontier = layout.search(sorted(b.frontier), False) if b.frontier else {}
        return layout.frontier


def _index(m: Mine, t: tuple) -> int:  # type: ignore[type-arg]
    """Index of own tribe ``t`` = (seat, tile, cargo, spent) from the notation."""
    return m.tribes.index((t[1], t[2], t[3]))


def simulate(b: Board, m: Mine, d: tuple, explore: float = 0.0) -> Mine | None:  # type: ignore[type-arg]
    """The light position after own decoded action ``d``, or None if the model cannot tell.

    ``explore`` is the one-off value of a discovery (the tribe lands on the new hex, M7.4).
    Tribes are kept sorted: tribes with the same tile and cargo are interchangeable, so equal
    positions must have equal lists (a hand-off between two such tribes changes nothing).
    """
    out = _simulate(b, m, d, explore)
    if out is not None:
        out.tribes.sort()
    return out


def _simulate(b: Board, m: Mine, d: tuple, explore: float) -> Mine | None:  # type: ignore[type-arg]
    kind = d[0]
    out = m.copy()
    if kind == "move":
        i = _index(out, d[1])
        c, cargo, spent = out.tribes[i]
        dest = d[2]
        out.mp -= 1
        if dest == b.temple:
            enter_temple(b, out, i, c)
        else:
            out.tribes[i] = (dest, cargo, spent)
            if dest not in b.tiles:
                out.bonus = explore
        return out
    if kind == "pickup":
        i = _index(out, d[1])
        c, _, spent = out.tribes[i]
        if d[2] == "wood":
            out.wood = take(out.wood, c)
            out.tribes[i] = (c, WOOD, spent)
        else:
            out.stone = take(out.stone, c)
            out.tribes[i] = (c, STONE, spent)
        return out
    if kind in ("drop", "exchange"):
        i = _index(out, d[1])
        c, cargo, spent = out.tribes[i]
        if cargo == WOOD:
            out.wood = put(out.wood, c)
        else:
            out.stone = put(out.stone, c)
        new = EMPTY
        if kind == "exchange":
            if d[2] == "wood":
                out.wood = take(out.wood, c)
                new = WOOD
            else:
                out.stone = take(out.stone, c)
                new = STONE
        out.tribes[i] = (c, new, spent)
        return out
    if kind == "handoff":
        i = _index(out, d[1])
        c, cargo, spent = out.tribes[i]
        out.tribes[i] = (c, EMPTY, spent)
        j = _index(out, d[2])
        if j == i:
            j = out.tribes.index((c, EMPTY, d[2][3]), i + 1)
        out.tribes[j] = (c, cargo, d[2][3])
        return out
    if kind == "steal":
        j = _index(out, d[2])
        c = d[2][1]
        out.tribes[j] = (c, d[1][2], True)
        out.bonus = 8.0
        return out
    if kind == "offering":
        i = _index(out, d[1])
        c, _, spent = out.tribes[i]
        hut = next(h for h in b.huts if (h[0], h[1]) == d[2])
        pub = hut[3]
        out.tribes[i] = (c, OFFERING + pub, spent)
        offers = dict(out.hut_offers)
        vals = list(offers[c])
        vals.remove(b.values[pub])
        if vals:
            offers[c] = vals
        else:
            del offers[c]
        out.hut_offers = offers
        return out
    if kind in ("hut", "holy"):
        c = d[1]
        i = _index(out, d[2])
        out.tribes[i] = (c, EMPTY, True)
        j = _index(out, d[3])
        out.tribes[j] = (c, out.tribes[j][1], True)
        if kind == "hut":
            out.huts_built += 1
            value = min(out.unplaced)
            out.unplaced = [v for k, v in enumerate(out.unplaced) if k != out.unplaced.index(value)]
            offers = dict(out.hut_offers)
            offers[c] = [*offers.get(c, []), value]
            out.hut_offers = offers
        else:
            out.holy = out.holy | {c}
        return out
    if kind == "grow":
        c = d[1]
        for t in (d[3], d[4]):
            j = _index(out, t)
            out.tribes[j] = (c, out.tribes[j][1], True)
        for _ in range(2 if d[5] else 1):
            if out.supply_tribes:
                out.supply_tribes -= 1
                out.tribes.append((c, EMPTY, True))
        return out
    if kind == "end":
        out.mp = 0  # unused MP are lost (M2.7)
        return out
    if kind in ("pass", "stop", "draw"):
        return out
    return None


def followups(b: Board, m: Mine, t: Tribe) -> list[tuple]:  # type: ignore[type-arg]
    """Decoded own actions for tribe ``t`` in position ``m``: pickups and steps on known land."""
    c, cargo, spent = t
    me = (b.seat, c, cargo, spent)
    out: list[tuple] = []  # type: ignore[type-arg]
    if cargo == EMPTY:
        if m.wood.get(c):
            out.append(("pickup", me, "wood"))
        if m.stone.get(c):
            out.append(("pickup", me, "stone"))
    if m.mp >= 1:
        for dq, dr in DIRECTIONS:
            n = (c[0] + dq, c[1] + dr)
            kind = b.tiles.get(n)
            if kind is None or kind == VOLCANO or (kind == TEMPLE and cargo == WOOD):
                continue
            out.append(("move", me, n))
    return out


__all__ = ["Board", "Mine", "Distances", "Layout", "PLAINS", "STEP", "FAR", "simulate", "followups"]
