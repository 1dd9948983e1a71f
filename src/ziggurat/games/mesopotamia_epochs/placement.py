"""Placing tribes: start placement and displacement (E7), legal targets (E8), seas and
Seafaring (E9), uninhabited areas (E10), deserts (E11) and stacking (E13).

Sets of areas are bitmasks, so E8.2 is a handful of mask operations:

    reach = (land neighbours of P's areas, no desert)          (b)
          | (every coastal area, no desert)  if Seafaring      (c) or a sea-start round (d)
          | P's own areas (own deserts only with R39)          (a)
    targets = reach minus P's full areas (E13) [minus its player's other Peoples (R20 variant)]
"""

from __future__ import annotations

from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs.geography import bits
from ziggurat.games.mesopotamia_epochs.state import EpochsState
from ziggurat.games.mesopotamia_epochs.words import area_in_of, area_the_of, people_of


def seafaring_reach(s: EpochsState, p: int) -> bool:
    """E8.2 (c)/(d), E9.3, R13, R31: may ``p`` reach every coastal area now?"""
    if s.sea_round and p == s.active:
        return True
    if not s.rules.peoples.seafaring[p]:
        return False
    if s.rules.seafaring_chain:
        return bool(s.held[p] & s.rules.map.coastal_mask)
    return s.coast_held


def target_mask(s: EpochsState) -> int:
    """E8.2: the areas where the active People may place its next tribe."""
    rules = s.rules
    m = rules.map
    p = s.active
    held = s.held[p]
    reach, areas = m.reach(held)  # (b) without deserts (E11.2), and the areas held
    if seafaring_reach(s, p):
        reach |= m.coastal_mask & ~m.desert_mask  # E11.2: no entry into a desert by sea either
    reach |= held if rules.reinforce_desert else held & ~m.desert_mask  # (a), R39
    limit = rules.stack_limit
    cnt = s.cnt
    for a in areas:
        if cnt[a] >= limit:  # E13.1
            reach &= ~(1 << a)
    if not rules.attack_own:  # R20 variant: no attack on the same player's other Peoples
        me = s.owner[p]
        for q, o in enumerate(s.owner):
            if o == me and q != p:
                reach &= ~s.held[q]
    return reach


def placement_legal(s: EpochsState) -> list[str]:
    """D4: each legal target (E8.2), then ``stop`` (E8.6)."""
    if s.pool <= 0:
        return ["stop"]
    return s.game.notation.placements(target_mask(s))


def target_refusal(s: EpochsState, a: int) -> str:
    """Why the active People may not place into area ``a`` now (E8-E13, R20, R39)."""
    rules = s.rules
    m = rules.map
    peoples = rules.peoples
    p = s.active
    name, pname = area_the_of(m, a), people_of(peoples, p)
    if s.pool <= 0:
        return message("epochs.refusal.poolEmpty", people=pname)
    kind = m.kinds[a]
    if kind == "sea":
        return message("epochs.refusal.sea", area_the=name)
    if kind == "uninhabited":
        return message("epochs.refusal.uninhabited", area_the=name)
    if m.desert[a] and s.occ[a] != p:
        return message("epochs.refusal.desert", area_the=name)
    if m.desert[a] and not rules.reinforce_desert:
        return message("epochs.refusal.ownDesert", people=pname)
    if s.occ[a] == p and s.cnt[a] >= rules.stack_limit:
        return message("epochs.refusal.stackLimit", area_in=area_in_of(m, a), n=s.cnt[a], people=pname)
    q = s.occ[a]
    if q >= 0 and q != p and s.owner[q] == s.owner[p] and not rules.attack_own:
        return message("epochs.refusal.samePlayer", area_the=name, other=people_of(peoples, q))
    if not s.held[p] and not s.sea_round:
        return message("epochs.refusal.nowhere", people=pname)
    if peoples.seafaring[p] and m.coastal[a]:
        began = "no" if rules.seafaring_chain else "yes"
        return message("epochs.refusal.seafaring", area_the=name, people=pname, began=began)
    return message("epochs.refusal.noBorder", area_the=name, people=pname)


# --- E12.4: the route of an attack ------------------------------------------------------


def defender_dice(s: EpochsState, t: int) -> int:
    """E12.3, E12.4, R40: 2 if every route into ``t`` is difficult, else 1 (fewest dice wins)."""
    m = s.rules.map
    p = s.active
    best = 3
    sources = s.held[p] & m.adj_mask[t]
    if sources:
        best = 1 if sources & ~m.difficult_into[t] else 2
    if m.coastal[t] and seafaring_reach(s, p):
        # E9.4: a sea route crosses no border, so it is never difficult; the HOTW variant
        # gives the defender two dice against it (R13)
        best = min(best, 2 if s.rules.sea_extra_die else 1)
    return best if best < 3 else 1


# --- E7: start placement and displacement -------------------------------------------------


def landing_areas(s: EpochsState) -> list[int]:
    """D3, E7.5: a sea start lands its first tribe on any coastal area."""
    return bits(s.rules.map.coastal_mask)


def begin_start(s: EpochsState, area: int) -> None:
    """E7.1, E7.2: displace every foreign tribe of the start area, then place the start tribe."""
    s.pending = ("displace", area) if s.cnt[area] else None
    if s.pending is None:
        place_start_tribe(s, area)


def displacement_destinations(s: EpochsState, area: int) -> list[int]:
    """E7.2 (R10, R11, R23, R41): where one tribe displaced from ``area`` may go."""
    rules = s.rules
    m = rules.map
    q = s.occ[area]
    cands = m.adj_mask[area]
    if rules.displace_by_sea and m.coastal[area]:
        cands |= m.coastal_mask  # displacement_uses_sea variant
    cands &= ~(1 << area)
    if not rules.displace_into_desert or m.desert[area]:  # R10; R11: never into the other desert
        cands &= ~m.desert_mask
    out = []
    for d in bits(cands):
        o = s.occ[d]
        if o < 0 or (o == q and s.cnt[d] < rules.stack_limit):
            out.append(d)
    return out


def displacement_legal(s: EpochsState) -> list[str]:
    assert s.pending is not None
    ids = s.rules.map.ids
    dests = displacement_destinations(s, s.pending[1])
    return [f"displace {ids[d]}" for d in dests] if dests else ["remove"]


def displacement_refusal(s: EpochsState, d: tuple) -> str:  # type: ignore[type-arg]
    assert s.pending is not None
    rules = s.rules
    m = rules.map
    area = s.pending[1]
    q = s.occ[area]
    who = people_of(rules.peoples, q)
    if d[0] == "remove":
        return message("epochs.refusal.removeOnly", people=who)
    if d[0] != "displace":
        return message("epochs.refusal.displacing", people=who, area_the=area_the_of(m, area))
    dest = d[1]
    name = area_the_of(m, dest)
    if dest == area:
        return message("epochs.refusal.cannotStay", area_the=name)
    if m.kinds[dest] in ("sea", "uninhabited"):
        return message("epochs.refusal.neverThere", area_the=name, kind=m.kinds[dest])
    if m.desert[dest]:
        return message("epochs.refusal.desertDisplace", area_the=name)
    if not (m.adj_mask[area] >> dest & 1):
        return message("epochs.refusal.noLandBorder", area_the=name, source_the=area_the_of(m, area))
    if s.occ[dest] >= 0 and s.occ[dest] != q:
        return message(
            "epochs.refusal.otherPeople", area_the=name, other=people_of(rules.peoples, s.occ[dest])
        )
    return message("epochs.refusal.displaceLimit", area_in=area_in_of(m, dest), n=s.cnt[dest], people=who)


def apply_displace(s: EpochsState, dest: int) -> None:
    """One displaced tribe moves to ``dest`` (-1: removed, E7.3); no dice are rolled (R10)."""
    assert s.pending is not None
    area = s.pending[1]
    q = s.occ[area]
    s.cnt[area] -= 1
    if dest < 0:
        s.removed[q] += 1
    else:
        if s.occ[dest] < 0:
            s.occ[dest] = q
            s.held[q] |= 1 << dest
        s.cnt[dest] += 1
    if s.cnt[area] == 0:
        s.occ[area] = -1
        s.held[q] &= ~(1 << area)
        place_start_tribe(s, area)


def place_start_tribe(s: EpochsState, area: int) -> None:
    """E7.1, E7.6: the first tribe goes into the start area and leaves the pool."""
    p = s.active
    s.pending = None
    s.occ[area] = p
    s.cnt[area] = 1
    s.held[p] |= 1 << area
    s.pool -= 1
    s.entered[p] += 1
    rules = s.rules
    if rules.new_people_growth:  # R4 variant: growth on the one area now held
        s.pool += rules.growth(p, s.areas_of(p))
    s.coast_held = bool(s.held[p] & rules.map.coastal_mask)


# --- E8.1: one placement ---------------------------------------------------------------------


def place(s: EpochsState, a: int) -> bool:
    """Place one pool tribe into ``a``; returns True if that starts a combat (E8.5, E12.1)."""
    p = s.active
    s.pool -= 1
    s.entered[p] += 1
    q = s.occ[a]
    if q >= 0 and q != p:
        dice = defender_dice(s, a)
        s.pending = ("combat", a, dice)
        s.last_attack = (a, p, q, s.cnt[a], dice, s.epoch, ())
        return True
    if q < 0:
        s.occ[a] = p
        s.held[p] |= 1 << a
    s.cnt[a] += 1
    return False
