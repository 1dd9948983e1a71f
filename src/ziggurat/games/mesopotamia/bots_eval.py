"""The heuristic bot's evaluation: how good a position is for the bot, in points.

The value of a position is its *progress* (offerings delivered, Mana limit, Mana, huts
built, holy places, population) plus the *potential* of every own tribe: the job it is best
placed to do next, minus the walk to get there. Jobs follow the game's production chains:

- an offering carrier walks to the temple and waits next to it until Mana covers the value
  (M6.4); once it does, the pull is strong;
- a wood carrier walks to a plains with room for a hut (M9), a stone carrier to the temple
  while the limit is short (M5.5) or to an empty plains for a holy place (M10). Each such
  project needs a second own tribe on the site (M8.2): the partner's walk counts as much as
  the carrier's, a pair standing ready earns a bonus, and a missing partner is a job;
- an own holy place counts as paying while some tribe can still reach it with the MP left
  this turn (M13.2);
- the next growth (M11) needs two own tribes on a tile with an own hut and no offering
  under a hut; it is worth what a tribe more is worth beyond drawing a card, and the pair's
  empty tribes are then kept from other jobs;
- an empty tribe picks up an offering, fetches wood or stone (valued as the carrier it
  becomes, with a partner other than itself), joins a carrier, or walks to the edge of the
  map to discover land;
- wood that no carrier can walk to a hut site from (the temple and volcanoes cut it off:
  a wood carrier may not enter the temple, M5.3, nobody a volcano, M2.4) is worth a
  carrier ``teleport_walk`` away from every site while a Teleport is in hand (M15.7), and a
  partner waiting on the site is worth what walking there was: the bot then teleports the
  carrier to it (``HeuristicBot._teleport``). Valued as worthless, such wood stalled the
  game when it was the last: no hut, no last offering, and no other end (M16.2).

Empty tribes are matched to jobs greedily (best value first, each job has a capacity), so two
tribes do not chase the same single wood. Every job value is "what completing it is worth
minus ``k`` points per distance unit", and each completed step (a pickup, a donation, a
delivery, a build) is worth more than the job that led to it, so a greedy choice of the best
next action walks the chains to their end. Equal positions get equal values (tribes are kept
sorted), so improving actions never cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from ziggurat.games.mesopotamia.bots_model import FAR, STEP, Board, Coord, Distances, Mine, Tribe, huts_of
from ziggurat.games.mesopotamia.data import (
    CARD_INDEX,
    EMPTY,
    FOREST,
    OFFERING,
    PLAINS,
    QUARRY,
    STONE,
    WOOD,
)


@dataclass(slots=True)
class Weights:
    """The evaluation's points (one step of progress on known land is ``4 * k`` points)."""

    k: float = 1.5  # per distance unit (a step on known land is 4 units)
    k_ready: float = 5.0  # per distance unit, for a carrier whose delivery Mana covers
    deliver: float = 400.0  # an offering delivered (M6.4)
    limit_needed: float = 45.0  # a limit step up to the highest offering left (M5.5)
    limit_extra: float = 4.0  # a limit step beyond it
    mana: float = 12.0
    hut: float = 150.0  # a hut built, with its offering on the map (M9)
    holy: float = 115.0  # a holy place (M10)
    occ: float = 22.0  # a holy place that will pay this turn (M13.2)
    occ_capped: float = 6.0  # the same when Mana already sits at the limit (M13.7)
    # the n-th tribe on the map: the third keeps growth easy (two tribes pair, M11.1)
    pop: tuple[float, ...] = (100.0, 100.0, 150.0, 60.0, 40.0, 30.0, 18.0, 6.0)
    stranded: float = 1500.0  # fewer than 2 tribes out: growth is impossible for good (M11)
    pop_wanted: int = 7
    carry: float = 70.0  # an offering carried (on top of the hut it came from)
    carry_ready: float = 40.0  # ... when Mana covers its value
    wood_c: float = 60.0  # a wood carrier at a hut site
    wood_no_site: float = 25.0  # a wood carrier with no site on the map yet
    ready_hut: float = 45.0  # a hut group standing ready for Phase II
    stone_d: float = 50.0  # a stone carrier at the temple door, limit short
    stone_h: float = 60.0  # a stone carrier on a holy site
    stone_spare: float = 12.0  # a stone nobody needs, except for a little Mana
    ready_holy: float = 45.0  # a holy-place group standing ready for Phase II
    partner: float = 20.0  # an empty tribe walking to join a carrier on its site
    w_partner: float = 1.0  # a project's partner walk, relative to the carrier's own
    grow: float = 0.95  # of a growth's worth, for a pair standing on a growth tile
    grow_gap: float = 0.2  # ... less this share while the pair is not yet together
    fetch: float = 0.8  # an empty tribe's job is worth this share of the carrier it becomes
    holy_max: int = 3  # holy places wanted (two with four players)
    # a hut site no wood carrier can walk to (the temple and volcanoes cut the wood off, M5.3,
    # M2.4) is this far for one while a Teleport is in hand (M15.7: it takes the carrier there)
    teleport_walk: int = 24
    holy_limit_gap: int = 3  # no holy place beyond (limit - 3): it would pay into a full scale
    # a card in hand, by type: endurance, priest, fertility, holy stone, land, mana theft,
    # teleport, expulsion
    card_value: tuple[float, ...] = (18.0, 10.0, 10.0, 50.0, 4.0, 22.0, 35.0, 8.0)


DEFAULT_WEIGHTS = Weights()


CONTEXTS = 256
"""Contexts whose evaluations a shared store keeps at most (:class:`Ctx`)."""


class Ctx:
    """Per-decision facts shared by every candidate's evaluation."""

    def __init__(
        self,
        b: Board,
        dist: Distances,
        weights: Weights = DEFAULT_WEIGHTS,
        values: dict[tuple[object, ...], dict[tuple[object, ...], float]] | None = None,
    ) -> None:
        """``values``: evaluations kept from decision to decision (:meth:`key`); the
        distances must then be those of ``b``'s exact tiles (``SharedDistances``)."""
        self.b = b
        self.dist = dist
        self.w = weights
        me = b.seat
        remaining = [v for v in b.values.values()] + list(b.unplaced)
        self.need_lim = max(remaining) if remaining else 3
        self.holy_stones = b.hand[CARD_INDEX["holy_stone"]]
        self.teleports = b.hand[CARD_INDEX["teleport"]]
        self._teleported: dict[Coord, list[tuple[int, Coord]]] = {}
        # hut sites: plains with room and no holy place -> free slots
        hut_count: dict[Coord, int] = {}
        for h in b.huts:
            hut_count[h[2]] = hut_count.get(h[2], 0) + 1
        self.hut_count = hut_count
        plains = [c for c, kind in b.tiles.items() if kind == PLAINS]
        self.hut_sites = {
            c: 2 - hut_count.get(c, 0) for c in plains if c not in b.holy and hut_count.get(c, 0) < 2
        }
        opp_at = {t[0] for tribes in b.opp_tribes for t in tribes}
        self.opp_at = opp_at
        self.holy_sites = [c for c in plains if c not in b.holy and c not in hut_count and c not in opp_at]
        # growth: own huts per tile, except where another colour's offering lies under a hut
        # (M11.2; own offerings are checked per position, they may be picked up)
        own_huts: dict[Coord, int] = {}
        other_offer: set[Coord] = set()
        for owner, _, c, pub in b.huts:
            if owner == me:
                own_huts[c] = own_huts.get(c, 0) + 1
            elif pub:
                other_offer.add(c)
        self.grow_huts = {c: n for c, n in own_huts.items() if c not in other_offer}
        huts_left = min(b.huts_in_supply, len(b.unplaced))
        self.huts_left0 = huts_left
        # are plains scarce? every player still needs hut slots; holy places eat plains
        free_slots = sum(self.hut_sites.values())
        pool_plains = b.remaining.get(PLAINS, 0)
        others_need = 0
        for q in range(b.n):
            if q != me:
                others_need += max(0, 4 - huts_of(b.huts, q) + 1)
        self.plains_scarce = free_slots + 2 * pool_plains < huts_left + others_need + 2
        self.holy_target = weights.holy_max if b.n < 4 else min(weights.holy_max, 2)
        self.frontier_map = dist.frontier_map(b)  # distance to unexplored land
        self.explore = self._explore_value()
        self.draw_value = self._draw_value()
        self.temple = b.temple
        self.temple_map = dist.to(b.temple, True)  # carriers walk round the temple (M5.3)
        # nearest sites per tile, shared by the decisions on this map with these sites
        self._nearest = (dist.by_distance(self.hut_sites), dist.by_distance(self.holy_sites))
        self._holy_maps: list[tuple[Coord, dict[Coord, int]]] | None = None
        self._grow_maps: list[tuple[Coord, dict[Coord, int], dict[Coord, int]]] | None = None
        self.hut_order = {c: i for i, c in enumerate(self.hut_sites)}
        # nearest-first site scans may stop early: a partner's walk only lowers a value
        self.prune = weights.k >= 0 and weights.w_partner >= 0
        self.partner_maps: dict[Coord, tuple[dict[Coord, int], dict[Coord, int]]] = {}  # for Partners
        self.limit_values: dict[int, float] = {}  # limit -> limit_value, as they come
        self.memo: dict[tuple[object, ...], float] = {}  # evaluate's values, by position key
        if values is not None and weights is DEFAULT_WEIGHTS:
            key = self.key()
            got = values.get(key)
            if got is None:
                if len(values) >= CONTEXTS:
                    values.clear()
                got = values[key] = {}
            self.memo = got

    def key(self) -> tuple[object, ...]:
        """Everything of this context that :func:`evaluate` reads beside the position: two
        decisions with equal keys give a position the same value (the next steps of one
        turn often agree, while their moves change nothing of it)."""
        b = self.b
        return (
            b.layout_key, tuple(b.values.items()), self.need_lim, self.holy_stones,
            self.teleports, tuple(self.hut_sites.items()), tuple(self.holy_sites),
            self.plains_scarce, self.holy_target, self.draw_value,
            tuple(self.grow_huts.items()), self.explore,
        )  # fmt: skip

    def grow_site_maps(self) -> list[tuple[Coord, dict[Coord, int], dict[Coord, int]]]:
        """``(tile, empty tribes' distance map to it, carriers')`` for the growth tiles, in
        their order: computed once per decision, for :func:`_growth`."""
        got = self._grow_maps
        if got is None:
            to = self.dist.to
            got = self._grow_maps = [(c, to(c, False), to(c, True)) for c in self.grow_huts]
        return got

    def holy_site_maps(self) -> list[tuple[Coord, dict[Coord, int]]]:
        """``(site, carriers' distance map to it)`` for the holy sites, in their order:
        computed once per decision, for :func:`_carriers`."""
        if self._holy_maps is None:
            self._holy_maps = [(s, self.dist.to(s, True)) for s in self.holy_sites]
        return self._holy_maps

    def sites_by_distance(self, c: Coord, holy: bool) -> list[tuple[int, Coord]]:
        """``(carrier's distance from c, site)`` for the hut sites (or, ``holy``, the holy
        sites), nearest first: computed once per decision, for :class:`_Fetch`."""
        nearest = self._nearest[holy]
        got = nearest.get(c)
        if got is None:
            sites = self.holy_sites if holy else self.hut_sites
            got = nearest[c] = sorted((self.dist.d(c, site, True), site) for site in sites)
        if self.teleports and not holy and got and got[-1][0] >= FAR:
            return self._teleport_sites(c, got)
        return got

    def _teleport_sites(self, c: Coord, walks: list[tuple[int, Coord]]) -> list[tuple[int, Coord]]:
        """Hut sites by distance for a wood carrier on ``c`` that cannot walk to some of them
        (the temple and volcanoes cut it off, M5.3, M2.4), with a Teleport in hand (M15.7):
        those are ``teleport_walk`` away. Kept for this decision only (the walks are shared
        by every seat, the cards are not)."""
        got = self._teleported.get(c)
        if got is None:
            far = self.w.teleport_walk
            got = self._teleported[c] = sorted((d if d < FAR else far, s) for d, s in walks)
        return got

    def _explore_value(self) -> float:
        """What one more discovered tile is worth now (M7): land, wood or stone where short."""
        b = self.b
        if not b.spaces or b.disc >= 3:
            return 0.0
        need_plains = 6.0
        if sum(self.hut_sites.values()) < self.huts_left0 + 1:
            need_plains = 45.0
        elif len(self.holy_sites) < 2:
            need_plains = 20.0
        loose_wood = sum(b.wood.values()) + sum(1 for t in b.tribes if t[1] == WOOD)
        need_wood = 45.0 if loose_wood < self.huts_left0 + b.n - 1 else 8.0
        loose_stone = sum(b.stone.values()) + sum(1 for t in b.tribes if t[1] == STONE)
        stone_need = max(0, self.need_lim - b.limit[b.seat]) + 2
        need_stone = 40.0 if loose_stone < stone_need + b.n - 1 else 8.0
        return 2.0 + (
            b.p_tile(PLAINS) * need_plains + b.p_tile(FOREST) * need_wood + b.p_tile(QUARRY) * need_stone
        )

    def _draw_value(self) -> float:
        """Expected value of action D (draw a card) from the cards nobody has shown."""
        w = self.w
        b = self.b
        if b.deck_size == 0:
            unseen = list(b.discard)  # R51: the discard pile is reshuffled into the deck
        else:
            counts = (3, 3, 2, 2, 2, 2, 2, 2)
            unseen = [max(0, counts[i] - b.removed[i] - b.discard[i] - b.hand[i]) for i in range(len(counts))]
        total = sum(unseen)
        if not total:
            return 12.0
        vals = list(w.card_value)
        if b.limit[b.seat] >= self.need_lim:
            vals[CARD_INDEX["holy_stone"]] = 14.0
        return sum(u * v for u, v in zip(unseen, vals, strict=True)) / total


def limit_value(ctx: Ctx, limit: int) -> float:
    w = ctx.w
    return sum(w.limit_needed if lv <= ctx.need_lim else w.limit_extra for lv in range(4, limit + 1))


def carrier_value(ctx: Ctx, m: Mine, pos: Coord, value: int) -> float:
    """An offering carrier: walk to the temple, or wait next to it for Mana (M6.4).

    Once Mana covers the value the pull toward the temple is strong, so nothing on the
    way (a growth pair, a holy place to sit on) keeps the carrier from delivering.
    """
    w = ctx.w
    d = min(ctx.temple_map.get(pos, FAR), 60)
    waiting = w.carry - w.k * max(0, d - STEP)
    if m.mana >= value:
        return max(waiting + 10.0, w.carry + w.carry_ready - w.k_ready * d)
    return waiting


class Partners:
    """Distance from each site to the nearest own tribe, for one evaluation (M8.2).

    ``get(site, pos)`` leaves out one tribe standing on ``pos`` (the carrier itself), so a
    carrier alone on a site still needs someone else to come. Carriers walk round the
    temple (M5.3), empty tribes may cross it.
    """

    __slots__ = ("dist", "tribes", "table", "maps")

    def __init__(
        self,
        dist: Distances,
        tribes: list[Tribe],
        maps: dict[Coord, tuple[dict[Coord, int], dict[Coord, int]]] | None = None,
    ) -> None:
        self.dist = dist
        self.tribes = [(t[0], t[1] != EMPTY) for t in tribes]
        # site -> (empty tribes', carriers' distance map to it): ``maps`` may be shared by
        # the evaluations of one decision (the same distances)
        self.maps = maps if maps is not None else {}
        # site -> (nearest distance, that tribe's tile, second nearest distance); hot loops
        # read it directly: ``got = table.get(s) or best(s)``, then ``got[2] if got[1] == pos
        # else got[0]`` is ``get(s, pos)``
        self.table: dict[Coord, tuple[int, Coord | None, int]] = {}

    def best(self, s: Coord) -> tuple[int, Coord | None, int]:
        """The entry of ``table`` for site ``s`` (computed and kept)."""
        maps = self.maps.get(s)
        if maps is None:
            maps = self.maps[s] = (self.dist.to(s, False), self.dist.to(s, True))
        empty, carried = maps[0], maps[1]
        d1, p1, d2 = PARTNER_CAP, None, PARTNER_CAP
        for c, carrier in self.tribes:
            d = carried.get(c, FAR) if carrier else empty.get(c, FAR)
            if d < d1:
                d1, p1, d2 = d, c, d1
            elif d < d2:
                d2 = d
        got = self.table[s] = (d1, p1, d2)
        return got

    def get(self, s: Coord, pos: Coord) -> int:
        got = self.table.get(s) or self.best(s)
        return got[2] if got[1] == pos else got[0]


PARTNER_CAP = 40


def position_key(m: Mine) -> tuple[object, ...]:
    """Everything of ``m`` that :func:`evaluate` reads, in the order it reads it: positions
    with equal keys get equal values. Spent flags and the offerings' values in hand are not
    read (only how many are left), nor Movement points without a holy place to reach (M13.2);
    so a step and a step back, or the same position reached through two orders of actions,
    are valued once per decision."""
    return (
        tuple([(t[0], t[1]) for t in m.tribes]),
        tuple(m.wood.items()),
        tuple(m.stone.items()),
        m.mana,
        m.limit,
        m.delivered,
        tuple([(c, tuple(values)) for c, values in m.hut_offers.items()]),
        m.huts_built,
        frozenset(m.holy),
        len(m.unplaced),
        m.supply_tribes,
        m.bonus,
        m.mp if m.holy else 0,
    )


def evaluate(ctx: Ctx, m: Mine) -> float:
    """Points for position ``m`` (see the module docstring), remembered for the decision:
    the candidates of one decision often reach the same position (see :func:`position_key`)."""
    key = position_key(m)
    got = ctx.memo.get(key)
    if got is None:
        got = ctx.memo[key] = _evaluate(ctx, m)
    return got


def _evaluate(ctx: Ctx, m: Mine) -> float:
    """:func:`evaluate` without the memory."""
    w = ctx.w
    b = ctx.b
    pop = len(m.tribes)
    lv = ctx.limit_values.get(m.limit)
    if lv is None:
        lv = ctx.limit_values[m.limit] = limit_value(ctx, m.limit)
    v = w.deliver * m.delivered + lv + w.mana * m.mana + w.hut * m.huts_built
    v += w.holy * len(m.holy) + sum(w.pop[:pop]) + m.bonus
    at: dict[Coord, int] = {}
    empties: list[Coord] = []
    woods: list[Coord] = []
    stones: list[Coord] = []
    for c, cargo, _ in m.tribes:
        at[c] = at.get(c, 0) + 1
        if cargo == EMPTY:
            empties.append(c)
        elif cargo == WOOD:
            woods.append(c)
        elif cargo == STONE:
            stones.append(c)
        else:
            v += carrier_value(ctx, m, c, b.values[cargo - OFFERING])
    jobs: list[tuple[float, Coord, int, str]] = []  # base value, target, capacity, cap group
    if m.holy:
        v += _occupancy(ctx, m, w.occ if m.mana < m.limit else w.occ_capped)
    partners = Partners(ctx.dist, m.tribes, ctx.partner_maps)
    cv, wood_missing, stone_missing, don_need, holy_need = _carriers(
        ctx, m, at, woods, stones, partners, jobs
    )
    v += cv

    # growth (M11): a pair of own tribes on a tile with an own hut and no offering under
    # huts. Only the next growth counts, and only for what it beats drawing a card by in
    # Phase II (M8.1), so the pair's potential never exceeds the growth itself. The pair's
    # empty tribes do nothing else meanwhile, so growth is weighed against their other jobs.
    if pop < 2 and m.delivered < 4:
        v -= w.stranded
    grow_value, pair = 0.0, (-1, -1)
    if m.supply_tribes > 0 and pop < w.pop_wanted and pop >= 2:
        worth = w.pop[pop] - ctx.draw_value
        if worth > 0:
            grow_value, pair = _growth(ctx, m, worth)
    if not empties:
        return v + grow_value
    for c, values in m.hut_offers.items():
        for value in values:
            jobs.append((w.fetch * carrier_value(ctx, m, c, value), c, 1, ""))
    # fetch jobs are valued per tribe (see _pairs): the fetcher cannot be its own partner
    if wood_missing > 0:
        for c, n in m.wood.items():
            jobs.append((1.0, c, n, "w"))
    if stone_missing > 0:
        for c, n in m.stone.items():
            jobs.append((1.0, c, n, "s"))
    if ctx.explore > 0:
        jobs.append((ctx.explore, (FAR, FAR), 1, "x"))
    caps = {"w": wood_missing, "s": stone_missing, "x": 1}
    fetch = _Fetch(ctx, partners, don_need > 0, holy_need > 0)
    pairs = _pairs(ctx, empties, jobs, fetch)
    done = [False] * len(empties)
    best = _assign(pairs, jobs, caps, done)
    if grow_value > 0:
        # the pair's empty tribes (the first ones on their tiles) grow instead; the other
        # tribes' pairs are the same, in the same order, so they are matched again as such
        for i in pair:
            c, cargo, _ = m.tribes[i]
            if cargo == EMPTY:
                for k, e in enumerate(empties):
                    if e == c and not done[k]:
                        done[k] = True
                        break
        best = max(best, grow_value + _assign(pairs, jobs, caps, done))
    return v + best


def _carriers(
    ctx: Ctx,
    m: Mine,
    at: dict[Coord, int],
    woods: list[Coord],
    stones: list[Coord],
    partners: Partners,
    jobs: list[tuple[float, Coord, int, str]],
) -> tuple[float, int, int, int, int]:
    """Wood carriers -> hut sites (M9); stone carriers -> temple (M5.5) or holy site (M10).

    A carrier heading for a site is worth less the farther it and its partner (the nearest
    other own tribe) are from that site. Ready pairs on a site earn a bonus; missing partners
    become jobs for empty tribes. Returns the value, how much wood and stone empty tribes
    should still fetch, and the donations and holy places still wanted.
    """
    w = ctx.w
    k = w.k
    w_partner = w.w_partner
    table = partners.table
    v = 0.0
    projects: dict[Coord, list[Coord]] = {}
    kinds: dict[Coord, str] = {}
    teleported: list[Coord] = []  # sites whose wood carrier must be teleported there
    huts_left = min(4 - m.huts_built, len(m.unplaced))
    wood_missing = 0
    if huts_left > 0:
        slots = dict(ctx.hut_sites)
        wood_c, wood_no_site, prune = w.wood_c, w.wood_no_site, ctx.prune
        # Sites are scanned nearest first and the scan stops where no site can do better
        # (as in wood_site_value): the best value, and the first site in the order of ``slots``
        # giving it, are those of a scan over every site.
        ranked: dict[Coord, float] = {}
        vals: list[tuple[float, Coord]] = []
        for c in woods:
            best = ranked.get(c)
            if best is None:
                best = ranked[c] = wood_site_value(ctx, partners, c, c)
            vals.append((best, c))
        vals.sort(reverse=True)
        used = vals[:huts_left]
        order = ctx.hut_order
        for _, c in used:
            best = wood_no_site - k * ctx.frontier_map.get(c, 40)
            site = None
            for d, s in ctx.sites_by_distance(c, holy=False):
                if prune and wood_c - k * d < best:  # a site as good as the best may come first
                    break
                if slots[s] <= 0:
                    continue
                got = table.get(s) or partners.best(s)
                val = wood_c - k * (d + w_partner * (got[2] if got[1] == c else got[0]))
                if val > best or (val == best and site is not None and order[s] < order[site]):
                    best, site = val, s
            v += best
            if site is not None:
                slots[site] -= 1
                projects.setdefault(site, []).append(c)
                kinds[site] = "hut"
                if ctx.teleports and ctx.dist.d(c, site, True) >= FAR:
                    teleported.append(site)
        v += 5.0 * (len(vals) - len(used))
        wood_missing = huts_left - len(used)
    else:
        v += 2.0 * len(woods)

    don_need = max(0, ctx.need_lim - m.limit - ctx.holy_stones)
    holy_need = 0
    if not ctx.plains_scarce or len(m.holy) < 1:
        holy_need = max(0, min(ctx.holy_target, m.limit - w.holy_limit_gap) - len(m.holy))
    temple_map = ctx.temple_map
    for c in stones:
        dt = min(temple_map.get(c, FAR), 60)
        best = w.stone_spare - k * dt if m.limit < 8 else 1.0
        choice = ""
        if don_need > 0 and w.stone_d - k * dt > best:
            best, choice = w.stone_d - k * dt, "don"
        site = None
        if holy_need > 0:
            stone_h = w.stone_h
            for s, carrier_map in ctx.holy_site_maps():
                if s in m.holy or s in projects:
                    continue
                got = table.get(s) or partners.best(s)
                partner = got[2] if got[1] == c else got[0]
                val = stone_h - k * (carrier_map.get(c, FAR) + w_partner * partner)
                if val > best:
                    best, choice, site = val, "holy", s
        v += best
        if choice == "don":
            don_need -= 1
        elif site is not None:
            holy_need -= 1
            projects[site] = [c]
            kinds[site] = "holy"

    for s, carriers in projects.items():
        present = 0
        for c in carriers:
            if c == s:
                present += 1
        here = at.get(s, 0)
        groups = min(present, here // 2)
        if kinds[s] == "hut":
            v += w.ready_hut * min(groups, ctx.hut_sites[s])
            if s in teleported:  # the partner waits there for the carrier's Teleport
                v += w.partner * min(here, len(carriers))
        else:
            v += w.ready_holy * min(groups, 1)
        need = len(carriers) + present - here
        if need > 0:
            jobs.append((w.partner, s, need, ""))
    stone_missing = don_need + (holy_need if ctx.holy_sites else 0)
    return v, wood_missing, stone_missing, don_need, holy_need


def _growth(ctx: Ctx, m: Mine, worth: float) -> tuple[float, tuple[int, int]]:
    """The next growth (M11): the two own tribes nearest a growth tile walk there.

    Returns the pair's value and their indices in ``m.tribes``.
    """
    w = ctx.w
    best, pair = 0.0, (-1, -1)
    offers = m.hut_offers
    for c, empty, carried in ctx.grow_site_maps():
        if offers.get(c):
            continue
        d1 = d2 = FAR
        i1: int = -1
        i2: int = -1
        for i, t in enumerate(m.tribes):
            d = empty.get(t[0], FAR) if t[1] == EMPTY else carried.get(t[0], FAR)
            if d < d1:
                d1, d2, i1, i2 = d, d1, i, i1
            elif d < d2:
                d2, i2 = d, i
        if d2 < FAR:
            val = w.grow * worth - w.k * (d1 + d2)
            if d1 + d2 > 0:
                val -= w.grow_gap * worth  # a pair not yet together grows nothing this turn
            if val > best:
                best, pair = val, (i1, i2)
    return best, pair


def _occupancy(ctx: Ctx, m: Mine, worth: float) -> float:
    """Own holy places pay in Phase III if an own tribe stands there (M13.2).

    Any tribe that can still reach the holy place with the MP left this turn counts, so a
    sitting tribe may leave on an errand and come back (or another take its place); farther
    tribes count less the farther they are. With no MP left only a tribe on the tile counts.
    """
    w = ctx.w
    reach = m.mp * STEP
    claimed: set[int] = set()
    total = 0.0
    for c in sorted(m.holy):
        empty_map = ctx.dist.to(c, False)
        carrier_map = ctx.dist.to(c, True)
        best_i, best_d = -1, FAR
        for i, t in enumerate(m.tribes):
            if i in claimed:
                continue
            d = (empty_map if t[1] == EMPTY else carrier_map).get(t[0], FAR)
            if d < best_d:
                best_i, best_d = i, d
        if best_i < 0:
            continue
        claimed.add(best_i)
        if best_d == 0:
            total += worth + 2.0
        elif reach > 0:
            total += max(0.0, worth - w.k * max(0, best_d - reach))
    return total


def wood_site_value(ctx: Ctx, partners: Partners, c: Coord, pos: Coord) -> float:
    """What wood on ``c`` is worth to a carrier there (M9): the best hut site for it, less the
    carrier's walk and its partner's (the nearest own tribe other than one on ``pos``), else
    the value of wood with no site, farther from the frontier."""
    w = ctx.w
    no_site = w.wood_no_site - w.k * ctx.frontier_map.get(c, 40)
    return best_site(ctx, partners, c, pos, False, w.wood_c, no_site)


def best_site(
    ctx: Ctx, partners: Partners, c: Coord, pos: Coord, holy: bool, worth: float, best: float
) -> float:
    """The best of ``best`` and, over the hut sites (or, ``holy``, the holy sites), ``worth``
    less the walk of a carrier on ``c`` there and its partner's (the nearest own tribe other
    than one on ``pos``, M8.2). Sites come nearest first, and a partner's walk only lowers a
    site's value (``ctx.prune``: weights k and w_partner not negative), so once a site's value
    without any partner walk cannot beat the best, no farther site can: the scan stops there,
    with the same maximum as over every site."""
    w = ctx.w
    k, w_partner, prune = w.k, w.w_partner, ctx.prune
    table = partners.table
    for d, s in ctx.sites_by_distance(c, holy=holy):
        if prune and worth - k * d <= best:
            break
        got = table.get(s) or partners.best(s)
        val = worth - k * (d + w_partner * (got[2] if got[1] == pos else got[0]))
        if val > best:
            best = val
    return best


def best_site_per_tile(
    ctx: Ctx, partners: Partners, c: Coord, tiles: list[Coord], holy: bool, worth: float, best: float
) -> list[float]:
    """:func:`best_site` for a carrier on ``c`` with each of ``tiles`` as ``pos``, in one
    scan: a site's partner walk depends on ``pos`` only where ``pos`` holds the site's
    nearest partner, so the scan is made once leaving out no tribe, noting those tiles, and
    only a tile among them is scanned again on its own (the same sites, the same values,
    in the same order: the same result as :func:`best_site`)."""
    w = ctx.w
    k, w_partner, prune = w.k, w.w_partner, ctx.prune
    table = partners.table
    top = best
    nearest: set[Coord | None] = set()
    for d, s in ctx.sites_by_distance(c, holy=holy):
        if prune and worth - k * d <= top:
            break
        got = table.get(s) or partners.best(s)
        if got[2] != got[0]:
            nearest.add(got[1])
        val = worth - k * (d + w_partner * got[0])
        if val > top:
            top = val
    if not nearest:
        return [top] * len(tiles)
    return [best_site(ctx, partners, c, t, holy, worth, best) if t in nearest else top for t in tiles]


class _Fetch:
    """What an empty tribe on ``pos`` fetching a resource on ``c`` would make of it: the
    carrier it becomes there, with a partner other than itself (M8.2)."""

    __slots__ = ("ctx", "partners", "donate", "holy")

    def __init__(self, ctx: Ctx, partners: Partners, donate: bool, holy: bool) -> None:
        self.ctx = ctx
        self.partners = partners
        self.donate = donate
        self.holy = holy

    def _wood(self, c: Coord, pos: Coord) -> float:
        return self.ctx.w.fetch * wood_site_value(self.ctx, self.partners, c, pos)

    def woods(self, c: Coord, tiles: list[Coord]) -> list[float]:
        """:meth:`_wood` for each of ``tiles`` as ``pos`` (:func:`best_site_per_tile`)."""
        ctx = self.ctx
        w = ctx.w
        no_site = w.wood_no_site - w.k * ctx.frontier_map.get(c, 40)
        got = best_site_per_tile(ctx, self.partners, c, tiles, False, w.wood_c, no_site)
        fetch = w.fetch
        return [fetch * v for v in got]

    def stones(self, c: Coord, tiles: list[Coord]) -> list[float]:
        """:meth:`_stone` for each of ``tiles`` as ``pos`` (:func:`best_site_per_tile`)."""
        ctx = self.ctx
        w = ctx.w
        best = 0.0
        if self.donate:
            best = w.stone_d - w.k * min(ctx.temple_map.get(c, FAR), 60)
        fetch = w.fetch
        if self.holy:
            got = best_site_per_tile(ctx, self.partners, c, tiles, True, w.stone_h, best)
            return [fetch * v for v in got]
        return [fetch * best] * len(tiles)

    def _stone(self, c: Coord, pos: Coord) -> float:
        ctx = self.ctx
        w = ctx.w
        best = 0.0
        if self.donate:
            best = w.stone_d - w.k * min(ctx.temple_map.get(c, FAR), 60)
        if self.holy:
            best = best_site(ctx, self.partners, c, pos, True, w.stone_h, best)
        return w.fetch * best


def _pairs(
    ctx: Ctx, empties: list[Coord], jobs: list[tuple[float, Coord, int, str]], fetch: _Fetch
) -> list[tuple[float, int, int]]:
    """``(value, empty tribe's index, job's index)`` for every worthwhile match, best first.

    A job's value for a tribe depends only on the tribe's tile, so tribes sharing a tile are
    valued once."""
    k = ctx.w.k
    to = ctx.dist.to
    empty_maps = ctx.dist.maps(False)
    tiles = list(dict.fromkeys(empties))
    of_tile = [tiles.index(c) for c in empties] if len(tiles) < len(empties) else None
    pairs: list[tuple[float, int, int]] = []
    for j, (base, target, _, group) in enumerate(jobs):
        if base <= 0:
            continue
        dmap = ctx.frontier_map if group == "x" else (empty_maps.get(target) or to(target, False))
        if group == "w":
            got = fetch.woods(target, tiles)
            vals = [got[i] - k * dmap.get(tiles[i], FAR) for i in range(len(tiles))]
        elif group == "s" and not fetch.holy:  # the temple only: the fetcher's tile is no partner
            one = fetch._stone(target, tiles[0])
            vals = [one - k * dmap.get(c, FAR) for c in tiles]
        elif group == "s":
            got = fetch.stones(target, tiles)
            vals = [got[i] - k * dmap.get(tiles[i], FAR) for i in range(len(tiles))]
        else:
            vals = [base - k * dmap.get(c, FAR) for c in tiles]
        if of_tile is not None:
            vals = [vals[t] for t in of_tile]
        for i, val in enumerate(vals):
            if val > 0:
                pairs.append((val, i, j))
    pairs.sort(reverse=True)
    return pairs


def _assign(
    pairs: list[tuple[float, int, int]],
    jobs: list[tuple[float, Coord, int, str]],
    caps: dict[str, int],
    busy: list[bool],
) -> float:
    """Greedy matching of empty tribes to jobs (``pairs`` from :func:`_pairs`), leaving out
    the tribes marked ``busy``; returns the summed job values."""
    todo = busy.count(False)
    if not todo:
        return 0.0
    left = [job[2] for job in jobs]
    caps = dict(caps)
    done = list(busy)
    total = 0.0
    for val, i, j in pairs:
        if done[i] or left[j] <= 0:
            continue
        group = jobs[j][3]
        if group:
            if caps.get(group, 0) <= 0:
                continue
            caps[group] -= 1
        left[j] -= 1
        done[i] = True
        total += val
        todo -= 1
        if not todo:
            break
    return total
