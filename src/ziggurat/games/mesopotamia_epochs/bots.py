"""Mesopotamia: Epochs' heuristic bot: sensible, fast play from a seat's view only.

Strategy, in the game's terms (rules spec ``docs/rules/mesopotamia-epochs.md``):

- **Placement** (D4, E8-E13). Each tribe of the pool is a resource; the bot values every use
  of one (:func:`plan_placement`):

  * an **empty area**: what it scores now (E14: 1, 2 for double-value, twice that for the
    People's bonus area; a People scores at the end of its own round, so a capture always
    scores once), plus what it should score in later Epochs given the threats around it
    (:class:`~.bots_model.Picture`), plus growth (E6: areas, not tribes, make growth), plus
    what it opens up for the tribes still in the pool;
  * an **attack** (E12) on another player's People: the same, times the exact chance of
    taking the area with the pool left (attacker keeps the higher of two dice, +1 Military;
    defender one die, two when every route is difficult; Urbanisation wins ties), plus what
    the area is worth to its holder (more if that People scores it again this Epoch, and
    weighted towards the leading opponent), for the tribes the capture is expected to cost.
    The bot never attacks its own Peoples;
  * a **reinforcement** (up to the three-tribe limit, E13): how much a larger stack raises
    the chance of keeping a threatened area (and of denying it to the attacker).

  A greedy fill of the pool by value per expected tribe picks the uses worth their tribes
  (the pool left is what the capture odds are computed with). Attacks in the plan go first
  (while the pool can still pay for a second try), unless an empty area first turns a
  difficult attack into a normal one (R40); after each combat the plan is made again, so the
  bot stops attacking when the odds have turned or the pool no longer pays for it. It stops
  only when no use of a tribe is worth anything.
- **Keep or pass** (D1, :mod:`.bots_cards`): a card is worth what a quick greedy expansion
  from its start area would score over the Epochs left; a good card is kept, a weak one is
  passed to the strongest opponent (the leader, or its rival when the bot leads), and a card
  that must be passed goes where it helps least.
- **Displacement** (D2, E7.2): the displaced tribe goes where it is worth most to its People:
  a new area if one is safe enough, else onto a stack that the newcomer threatens.
- **Sea start** (D3, E7.5): land where the free, dice-less displacement takes the most
  valuable area from an opponent, else on the best coast.

The weights of what opponents lose (``bots_model.DENIAL``, ``OTHER_WEIGHT``) were chosen by
seeded self-play matches of variants against this bot; the other constants made no measurable
difference within the range tried. Every decision is a pure function of ``(view, legal)``: the
bot reads no hidden information (the view's nulls), and the RNG only breaks exact ties, so a seed
gives the same game. In search playouts the view is a :class:`~.bots_view.PlayoutView` (the
view's facts read straight from the sampled world) and the bot makes a placement's Picture from
its previous one when only its own placements came between
(:meth:`~.bots_model.Picture.after_placements`): the same Picture, so the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final

from ziggurat.bots.compiled import mypyc_attr
from ziggurat.games.mesopotamia_epochs.bots_cards import keep_or_pass
from ziggurat.games.mesopotamia_epochs.bots_model import (
    HEURISTIC,
    SUCCESSOR,
    Judgement,
    Picture,
    bits,
    capture,
    capture_of,
    roll_odds,
)
from ziggurat.games.mesopotamia_epochs.bots_view import PlayoutView

EPS = 1e-6
GROWTH_RATE = {"standard": 1 / 3, "fast": 1 / 2, "slow": 0.0}  # E6: tribes per extra area


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """Greedy valuation of each decision from the seat's view (see the module docstring)."""

    name = "heuristic"
    needs_view = True
    repeatable = True  # its choice depends on the view and legal list only (search playouts remember it)
    attack_own = False  # D4: never attack the player's own older Peoples (R20 allows it)
    judgement: Judgement = HEURISTIC  # the constants of its valuations (bots_model.Judgement)

    def __init__(self, game: Any, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._last: Picture | None = None  # the Picture of the last playout view (_picture)

    def choose(self, view: Any, legal: Sequence[str], rng: Any) -> str:
        """The choice from ``view`` (a view, or in playouts a :class:`~.bots_view.PlayoutView`)
        and ``legal``; ``rng`` (a ``random.Random``, or whatever stands for one in playouts)
        breaks exact ties. Typed ``Any``: the compiled build checks arguments against their
        declared types."""
        if len(legal) == 1:
            return legal[0]
        if view is None:
            raise ValueError("the heuristic bot decides from the view (needs_view = True)")
        pic = self._picture(view)
        pend = pic.pending  # in index form (bots_view.Facts)
        options = list(legal)
        if pend is not None and pend[0] == "keep":
            return keep_or_pass(pic, pend[1], options)
        if pend is not None and pend[0] == "displace":
            return _best(options, lambda a: displacement_value(pic, pend[1], a), rng)
        if pend is not None and pend[0] == "landing":
            return _best(options, lambda a: landing_value(pic, a), rng)
        return plan_placement(pic, options, rng, self.attack_own)

    def _picture(self, view: Any) -> Picture:
        """The Picture of ``view``; in a search's playouts (a :class:`~.bots_view.PlayoutView`),
        made from the last one when only this seat's placements came between
        (:meth:`~.bots_model.Picture.after_placements`: the same Picture, made for less)."""
        if type(view) is not PlayoutView:  # not isinstance: see bots_view.facts_of_view
            return Picture(self.game, view, self.seat, self.judgement)
        last = self._last
        pic = last.after_placements(view.facts) if last is not None else None
        if pic is None:
            pic = Picture(self.game, view, self.seat, self.judgement)
        self._last = pic
        return pic


class SuccessorBot(HeuristicBot):
    """The heuristic with two changes, a playout policy the search may follow for its own seat
    (``evaluate.SEARCH_DEFAULTS_BY_PLAYERS``, ``bots.POLICIES``; docs/bots.md, "Own-seat
    policy"), not an opponent anyone picks:

    * the active People may attack the player's own older Peoples (R20). Only the active
      People scores at the end of its round (E14.1), so an area taken from an older People
      that has had its round this Epoch scores a second time; the older People's loss counts
      against the gain (:meth:`~.bots_model.Picture.denial` is negative for one's own
      Peoples), so a People still to act this Epoch is rarely attacked;
    * its own constants (``bots_model.SUCCESSOR``): with two players, what the opponent loses
      weighs twice as much (4 instead of ``bots_model.DENIAL``'s 2); the share of an area
      opened up, the spare tribe, the threat model and a card's keep rate and reinforcement
      value were tuned together against the heuristic (docs/bots.md, "Own-seat policy").

    In seeded 2-player games against the heuristic (``benchmarks/plans.py``, 2,000 seeds, in
    each seat) it wins 56.3% (± 0.8); with the heuristic's constants but the denial weight 55.0%
    (52.7% from attacking its own Peoples alone, 51.4% from the denial weight alone)."""

    name = "successor"
    attack_own = True
    judgement = SUCCESSOR


POLICIES: dict[str, Any] = {"successor": SuccessorBot}
"""Other playout policies the search may follow for its own seat (``own=NAME``)."""


def _best(options: list[str], score: Any, rng: Any) -> str:
    """The option with the highest ``score(area id)`` (the text's argument); exact ties are
    broken by ``rng``."""
    scored = []
    for text in options:
        area = text.split(" ", 1)[1] if " " in text else ""
        scored.append((score(area), text))
    top = max(v for v, _ in scored)
    ties = [t for v, t in scored if v >= top - EPS]
    return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]


# --- D4: placement --------------------------------------------------------------------------
def _growth_rate(pic: Picture, p: int) -> float:
    if pic.future <= 0:
        return 0.0
    peoples = pic.peoples
    return GROWTH_RATE["slow" if peoples.slow[p] else "fast" if peoples.fast[p] else "standard"]


def _sea_reach(pic: Picture) -> bool:
    """E8.2 (c)/(d) for the active People, as the engine reads it (R13, R31)."""
    p = pic.active
    if pic.sea_round:
        return True
    if not pic.peoples.seafaring[p]:
        return False
    if pic.rules.seafaring_chain:
        return bool(pic.held[p] & pic.map.coastal_mask)
    return pic.coast_held


def defender_dice(pic: Picture, a: int) -> int:
    """E12.3, E12.4, R40: the defender's dice for an attack by the active People on ``a``."""
    return _defender_dice(pic, a, _sea_reach(pic))


def _defender_dice(pic: Picture, a: int, sea: bool) -> int:
    """:func:`defender_dice`, given :func:`_sea_reach` (``sea``)."""
    m = pic.map
    src = pic.held[pic.active] & m.adj_mask[a]
    best = 3
    if src:
        best = 1 if src & ~m.difficult_into[a] else 2
    if m.coastal[a] and sea:
        best = min(best, 2 if pic.rules.sea_extra_die else 1)
    return best if best < 3 else 1


def attack_odds(pic: Picture, a: int, dice: int) -> tuple[float, float, float]:
    peoples = pic.peoples
    p, q = pic.active, pic.occ[a]
    bonus = pic.rules.military_bonus if peoples.military[p] else 0
    return roll_odds(pic.rules.die_sides, bonus, dice, peoples.urbanisation[p], peoples.urbanisation[q])


def _stake(pic: Picture) -> float:
    """How much an area an opponent takes from us counts beyond our own loss (it scores for
    them): fully with two players, less when the taker may not be the strongest opponent."""
    return 1.0 if pic.n == 2 else 0.6


def reinforce_value(pic: Picture, p: int, a: int, tribes: int) -> float:
    """A tribe more on ``a`` (held with ``tribes``): the surer future rounds, the denial."""
    return reinforce_values(pic, p, a, tribes, tribes + 1)[0]


def reinforce_values(pic: Picture, p: int, a: int, tribes: int, upto: int) -> list[float]:
    """:func:`reinforce_value` of each stack from ``tribes`` up to ``upto`` (excluded) tribes
    on ``a``: the tribes a reinforcement may add one after another (E13: 0 at the limit)."""
    key = (a, p, tribes, upto)
    known = pic._book.reinforce  # the answer reads the threat model's inputs alone
    hit = known.get(key)
    if hit is None:
        hit = known[key] = tuple(_reinforce_values(pic, p, a, tribes, upto))
    return list(hit)


def _reinforce_values(pic: Picture, p: int, a: int, tribes: int, upto: int) -> list[float]:
    limit = pic.rules.stack_limit
    out = []
    f = pic.future
    threat = pic.threat(a, p)
    value = pic.values[p][a]
    stake = _stake(pic)
    judgement = pic.judgement
    loss_of = judgement.loss
    spare = judgement.spare if f > 0 else 0.0
    holds = pic.hold_values(p, a, tribes, min(upto, limit) + 1) if tribes < limit else []
    for i, t in enumerate(range(tribes, upto)):
        if t >= limit:
            out.append(0.0)
            continue
        keep = holds[i + 1] - holds[i]
        loss = loss_of[min(t, 3)] - loss_of[min(t + 1, 3)]
        deny = threat * loss * value * stake * (1.0 + 0.5 * f)
        out.append(keep + deny + spare)
    return out


def area_value(pic: Picture, p: int, a: int, pool_after: int, reach: int) -> float:
    """Holding ``a`` from now on (a single tribe), for active People ``p``."""
    s = pic.survival(a, p, 1)
    hold = pic.values[p][a] * pic.kept(s) if pic.future > 0 else 0.0  # hold_value(p, a, 1)
    v = pic.values[p][a] + hold + _growth_rate(pic, p) * s
    if pool_after > 0:
        v += pic.judgement.open_share * _opened(pic, p, a, reach)
    return v


def _opened(pic: Picture, p: int, a: int, reach: int) -> float:
    """The best area that holding ``a`` makes reachable (not reachable now)."""
    m = pic.map
    new = m.adj_mask[a] & ~reach & ~m.desert_mask & ~pic.held[p] & ~(1 << a)
    if not new:
        return 0.0
    return _opened_in(pic, new, pic.values[p], 1.0 + 0.5 * pic.future, pic.seat)


def _opened_in(pic: Picture, new: int, values: Sequence[int], later: float, seat: int) -> float:
    """:func:`_opened` of the areas ``new`` (not empty), for the active People's ``values``."""
    occ, owner = pic.occ, pic.owner
    best = 0.0
    for b in bits(new):
        q = occ[b]
        if q < 0:
            v = values[b] * later
        elif owner[q] == seat:
            continue
        else:
            v = 0.5 * (values[b] * later + pic.denial(b))
        if v > best:
            best = v
    return best


_Use = tuple[Any, ...]
"""One use of the pool: (kind, area, ``gain`` expected for ``cost`` expected tribes, its action,
``more``: the gains of further tribes on the same stack, which only count in the fill of the
pool). Plain tuples: a placement weighs a dozen of them (typed of any length: the compiled
build keeps them as the objects they are, docs/speed.md)."""


def _places(m: Any) -> dict[str, int]:
    """Each ``place <area>`` action text of the map, with its area (kept per map)."""
    got = _PLACES.get(id(m))
    if got is None or got[0] is not m:
        if len(_PLACES) >= 8:
            _PLACES.clear()
        got = _PLACES[id(m)] = (m, {f"place {area}": a for a, area in enumerate(m.ids)})
    places: dict[str, int] = got[1]
    return places


_PLACES: Final[dict[int, tuple[Any, ...]]] = {}
""":func:`_places` per map (by id, with the map: its id stays its own while it is kept)."""


def plan_placement(pic: Picture, legal: list[str], rng: Any, attack_own: bool = False) -> str:
    """D4: the next placement, or ``stop`` (see the module docstring); ``attack_own``: the
    player's own older Peoples may be attacked too (:class:`SuccessorBot`)."""
    m = pic.map
    p = pic.active
    k = pic.pool if pic.pool > 1 else 1
    places = _places(m)
    areas: list[int] = []  # the targets: their areas and action texts
    texts: list[str] = []
    reach = pic.held[p]
    for t in legal:
        at = places.get(t)
        if at is not None:
            areas.append(at)
            texts.append(t)
            reach |= 1 << at
    uses: list[_Use] = []
    occ, cnt, owner, limit = pic.occ, pic.cnt, pic.owner, pic.rules.stack_limit
    # what every target's value reads, read once: area_value's and _opened's terms are
    # written out below in the same operations, so the values are the same to the last bit
    row = pic.values[p]
    future = pic.future
    grow = _growth_rate(pic, p)
    loss1 = pic._losses[pic.peoples.urbanisation[p]][1]  # survival(a, p, 1)
    open_share = pic.judgement.open_share
    fresh = ~(reach | m.desert_mask)  # _opened: the areas a new holding may open up
    adj = m.adj_mask
    later = 1.0 + 0.5 * future
    seat = pic.seat
    sea = _sea_reach(pic)
    opened = pic.opened  # _opened_in per set of areas opened up (the active People's)
    reinforced = pic._book.reinforce
    peoples = pic.peoples
    urb = peoples.urbanisation
    sides, bonus = pic.rules.die_sides, pic.rules.military_bonus if peoples.military[p] else 0
    for i, a in enumerate(areas):
        text = texts[i]
        q = occ[a]
        if q < 0 or (q != p and (attack_own or owner[q] != seat)):
            # area_value(pic, p, a, k - 1 or k - 2, reach): its first terms read the threat
            # model alone (a few products, worked out rather than looked up)
            s = 1.0 - pic.threat(a, p) * loss1
            if not s > 0.0:  # max(0.0, s)
                s = 0.0
            hold = row[a] * pic.kept(s) if future > 0 else 0.0
            v = row[a] + hold + grow * s
            if q < 0:
                if k - 1 > 0:
                    new = adj[a] & fresh
                    if new:  # else nothing opens up (0.0)
                        got = opened.get(new)
                        if got is None:
                            got = opened[new] = _opened_in(pic, new, row, later, seat)
                        v += open_share * got
                uses.append(("empty", a, v, 1.0, text, ()))
                continue
            # an attack (on our own People only if attack_own, R20)
            dice = _defender_dice(pic, a, sea)
            chance, spent = capture_of(sides, bonus, dice, urb[p], urb[q], cnt[a], k)  # attack_odds
            if chance > 0:
                if k - 2 > 0:
                    new = adj[a] & fresh
                    if new:
                        got = opened.get(new)
                        if got is None:
                            got = opened[new] = _opened_in(pic, new, row, later, seat)
                        v += open_share * got
                gain = chance * (v + pic.denial(a))
                uses.append(("attack", a, gain, spent, text, ()))
        elif q == p:
            c = cnt[a]
            upto = c + 1 if c + 1 > limit else limit
            gains = reinforced.get((a, p, c, upto))  # reinforce_values(pic, p, a, c, upto)
            if gains is None:
                gains = reinforced[(a, p, c, upto)] = tuple(_reinforce_values(pic, p, a, c, upto))
            uses.append(("stack", a, gains[0], 1.0, text, gains[1:]))
    plan = _fill(uses, k)
    if not plan:
        return "stop"
    first: _Use | None = None  # the attack with the most per tribe (the first such, then by area)
    best_density, best_area = 0.0, 0
    for u in plan:
        if u[0] == "attack":
            density: float = u[2] / u[3]
            area: int = u[1]
            if first is None or density > best_density or (density == best_density and area < best_area):
                first, best_density, best_area = u, density, area
    if first is not None:
        target = first[1]
        if defender_dice(pic, target) == 2:
            # R40: an empty neighbour with a normal border into the target makes it normal
            for u in sorted(plan, key=lambda u: (-u[2], u[1])):
                if u[0] == "empty" and m.adj_mask[u[1]] >> target & 1:
                    if not m.difficult_into[target] >> u[1] & 1:
                        return u[4]
        return first[4]
    top: float = plan[0][2]
    for u in plan:
        if u[2] > top:
            top = u[2]
    best = [u for u in plan if u[2] >= top - EPS]
    if len(best) == 1:
        return str(best[0][4])
    best.sort(key=itemgetter(1))
    return str(best[rng.randrange(len(best))][4])


def _fill(uses: list[_Use], pool: int) -> list[_Use]:
    """The uses a greedy fill of the pool by value per tribe takes (further tribes on a stack
    compete too, but only the next placement is returned); the first use that no longer fits
    is taken if half a tribe is left for it. Uses worth nothing are never taken."""
    # the projects: value per tribe and the use's index (-1: a further tribe, which costs one)
    density: list[float] = []
    index: list[int] = []
    for i in range(len(uses)):
        use = uses[i]
        gain: float = use[2]
        cost: float = use[3]
        if gain > EPS:
            density.append(gain / cost)
            index.append(i)
        more: tuple[float, ...] = use[5]  # typed: its gains compared as numbers
        for g in more:
            if g > EPS:
                density.append(g)
                index.append(-1)
    # by density, highest first, equal densities in their order (a stable sort's order): each
    # project costs a tribe or more, so the few that the pool takes are found one by one; a
    # project taken is marked by a density of 0 (the others are above EPS)
    n = len(density)
    left = float(pool)
    chosen: list[_Use] = []
    while left >= 0.5:
        j = -1
        top = 0.0
        for k in range(n):
            d = density[k]
            if d > top:
                j, top = k, d
        if j < 0:
            break
        density[j] = 0.0
        i = index[j]
        if i >= 0:
            chosen.append(uses[i])
            spent: float = uses[i][3]
            left -= spent
        else:
            left -= 1.0
    return chosen


# --- D2, D3 ---------------------------------------------------------------------------------
def displacement_value(pic: Picture, start: int, dest_id: str) -> float:
    """D2: a displaced tribe of People ``q`` going to ``dest_id`` (E7.2)."""
    m = pic.map
    if dest_id not in m.index:
        return 0.0
    q = pic.occ[start]
    d = m.index[dest_id]
    now = 1.0 if pic.acts_later(q) else 0.0
    if pic.occ[d] == q:
        c = pic.cnt[d]
        gain = pic.value(q, d) * now * (pic.survival(d, q, c + 1) - pic.survival(d, q, c))
        return gain + reinforce_value(pic, q, d, c)
    return pic.value(q, d) * now * pic.survival(d, q, 1) + pic.hold_value(q, d, 1)


def landing_value(pic: Picture, area_id: str) -> float:
    """D3: the sea start's first tribe on ``area_id`` (E7.5: its holders are displaced)."""
    m = pic.map
    p = pic.active
    a = m.index[area_id]
    v = pic.value(p, a) + pic.hold_value(p, a, 1) + pic.denial(a)
    q = pic.occ[a]
    if q >= 0 and pic.owner[q] != pic.seat:
        v += capture(pic.cnt[a], 8, attack_odds(pic, a, 1))[1] - 1.0  # the tribes it saves
    return v


__all__ = ["POLICIES", "HeuristicBot", "SuccessorBot"]
