"""Who decides, legal actions, their effects and refusals (§7: D1-D4, C1-C3).

The engine's ``State.apply`` checks an action against the (cached) legal list, so legality
has one source of truth; :func:`refusal` and the ``*_refusal`` functions only explain a
refusal in a player's words, naming the rule. After every action, decisions with exactly one
legal alternative (a forced pass, a displacement with one destination, a removal, the last
card of a deck) are applied by the engine (E3.4 "forced"); they are logged as ``auto``
events and left out of ``history()``, since replaying the chosen actions reproduces them.
"""

from __future__ import annotations

from ziggurat.engine.contract import CHANCE
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs import allocation, combat, placement, rounds
from ziggurat.games.mesopotamia_epochs.state import EpochsState
from ziggurat.games.mesopotamia_epochs.words import area_the_of, people_of, seat_word

_CHANCE = frozenset(("deal", "draw", "combat"))


def actor(s: EpochsState) -> int:
    """The seat to decide, or CHANCE (§7: D1 drawer, D2 displaced owner, D3/D4 active owner)."""
    pend = s.pending
    if pend is None:
        return s.owner[s.active] if s.active >= 0 else CHANCE
    kind = pend[0]
    if kind in _CHANCE:
        return CHANCE
    if kind == "keep":
        return s.draw_order[s.draw_idx]
    if kind == "displace":
        return s.owner[s.occ[pend[1]]]
    return s.owner[s.active]  # landing


def concerned(s: EpochsState) -> int:
    """The seat an event concerns (for logs and redaction): dealt seat, drawer, or active owner."""
    pend = s.pending
    if pend is not None:
        if pend[0] == "deal":
            return int(pend[1])
        if pend[0] in ("draw", "keep"):
            return s.draw_order[s.draw_idx]
    return s.owner[s.active] if s.active >= 0 else -1


def compute_legal(s: EpochsState) -> list[str]:
    if s.phase == "over":
        return []
    pend = s.pending
    if pend is None:
        return placement.placement_legal(s) if s.active >= 0 else []
    kind = pend[0]
    if kind == "combat":
        return combat.roll_outcomes(s.rules.die_sides, pend[2])[1]
    if kind in ("deal", "draw"):
        return [a for a, _ in chance_outcomes(s)]
    if kind == "keep":
        return allocation.keep_or_pass(s)
    if kind == "displace":
        return placement.displacement_legal(s)
    ids = s.rules.map.ids
    return [f"land {ids[a]}" for a in placement.landing_areas(s)]


def chance_outcomes(s: EpochsState) -> list[tuple[str, float]]:
    pend = s.pending
    if pend is None or s.phase == "over":
        return []
    kind = pend[0]
    if kind == "combat":
        return combat.roll_outcomes(s.rules.die_sides, pend[2])[0]
    if kind == "deal":
        return allocation.deal_outcomes(s)
    if kind == "draw":
        return allocation.draw_outcomes(s)
    return []


def legal_set(s: EpochsState) -> frozenset[str]:
    """The legal actions as a set; a combat roll's is precomputed with its outcomes, and a
    remembered placement list's with the list (:meth:`.Notation.placements`)."""
    pend = s.pending
    if pend is not None and pend[0] == "combat":
        return combat.roll_outcomes(s.rules.die_sides, pend[2])[2]
    legal = s.legal_actions()
    found = s.game.notation.legal_set(legal)
    return frozenset(legal) if found is None else found


def perform(s: EpochsState, d: tuple) -> None:  # type: ignore[type-arg]
    """Play decoded action ``d``, known to be legal (the engine's ``State.apply`` checked it)."""
    kind = d[0]
    pend = s.pending
    if pend is None:
        if kind == "stop":  # E8.6: leftover tribes are discarded (R14)
            s.pool = 0
            rounds.finish_round(s)
        elif not placement.place(s, d[1]):
            rounds.after_step(s)
        return
    pk = pend[0]
    if pk == "combat":
        if not combat.resolve(s, d[1], d[2]):
            rounds.after_step(s)
    elif pk == "deal":
        allocation.apply_deal(s, d[1], d[2])
    elif pk == "draw":
        allocation.apply_draw(s, d[1])
    elif pk == "keep":
        allocation.apply_keep(s, allocation.drawer(s) if kind == "keep" else d[1])
    elif pk == "displace":
        placement.apply_displace(s, -1 if kind == "remove" else d[1])
        if s.pending is None:
            rounds.after_step(s)
    else:  # landing (D3)
        placement.begin_start(s, d[1])
        if s.pending is None:
            rounds.after_step(s)


_PENDING_NAMES = {
    "deal": message("epochs.refusal.chance.deal"),
    "draw": message("epochs.refusal.chance.draw"),
    "combat": message("epochs.refusal.chance.combat"),
}


def refusal(s: EpochsState, who: int, d: tuple) -> str:  # type: ignore[type-arg]
    """A player-readable reason why decoded action ``d`` is not legal now, with its rule."""
    pend = s.pending
    kind = d[0]
    if who == CHANCE:
        assert pend is not None
        what = _PENDING_NAMES[pend[0]]
        if pend[0] == "combat" and kind == "roll":
            n = pend[2]
            return message("epochs.refusal.rollDice", n=n, sides=s.rules.die_sides)
        if kind == "deal" == pend[0] and d[1] != pend[1]:
            return message("epochs.refusal.dealOrder", seat=seat_word(pend[1]))
        if kind in ("deal", "draw") and kind == pend[0]:
            return message("epochs.refusal.notUndealt", epoch=s.epoch)
        return message("epochs.refusal.chanceOnly", what=what)
    if pend is None:
        if kind == "place":
            return placement.target_refusal(s, d[1])
        return message("epochs.refusal.placing", people=people_of(s.rules.peoples, s.active))
    pk = pend[0]
    if pk == "keep":
        return allocation.keep_refusal(s, d)
    if pk == "displace":
        return placement.displacement_refusal(s, d)
    # landing (D3)
    if kind == "land":
        return message("epochs.refusal.notCoastal", area_the=area_the_of(s.rules.map, d[1]))
    return message("epochs.refusal.landFirst")
