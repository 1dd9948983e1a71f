"""The Strategy segment: People rounds in order (E4), tribal pools (E5, E6), scoring (E14),
the end of an Epoch (E2.3) and of the game with its ranking (E15).

Rounds run by ascending order number of the current Epoch (E4.2, E4.3), re-scheduled Peoples
at their new number. A round that needs no decision (an empty pool, R5, or no legal target,
E8.6) is played through at once; the engine stops only at real decisions.
"""

from __future__ import annotations

from ziggurat.games.mesopotamia_epochs import placement
from ziggurat.games.mesopotamia_epochs.state import EpochsState


def start_strategy(s: EpochsState) -> None:
    """E4: the first People round of the Epoch."""
    s.order = 0
    s.active = -1
    _advance(s)


def after_step(s: EpochsState) -> None:
    """A placement, combat or start placement is complete: the next D4, or the round ends."""
    if not _waits(s):
        finish_round(s)


def finish_round(s: EpochsState) -> None:
    """E14: the active People scores; then the following rounds start."""
    score(s)
    _advance(s)


def _waits(s: EpochsState) -> bool:
    """E8.6: placement ends when the pool is empty or no legal target remains."""
    if s.pool > 0:
        legal = placement.placement_legal(s)
        if len(legal) > 1:
            s._legal = legal  # the next D4, computed anyway: keep it, with its set if shared
            s._legal_set = s.game.notation.legal_set(legal)
            return True
    return False


def _advance(s: EpochsState) -> None:
    """Start rounds after the current one until one awaits a decision or the Epoch ends."""
    schedule = s.rules.peoples.schedule[s.epoch]
    for order, p in schedule:
        if order <= s.order or s.owner[p] < 0:  # E4.3: Peoples not in play are skipped
            continue
        s.order = order
        status = _begin_round(s, p)
        if status == "wait":
            return
        if status == "play":
            if _waits(s):
                return
            score(s)
    end_epoch(s)


def pool_for(s: EpochsState, p: int) -> int:
    """E5, E6 (R1-R5): the tribal pool of ``p`` at the start of its round this Epoch."""
    rules = s.rules
    peoples = rules.peoples
    if peoples.card_epoch[p] == s.epoch:
        return peoples.initial[p]  # E5.1, R4 (growth after the start tribe: see place_start_tribe)
    reinforcements = peoples.reinforcements[p].get(s.epoch, 0)
    if peoples.slow[p] and not rules.slow_keeps_reinforcements:
        reinforcements = 0
    return rules.growth(p, s.areas_of(p)) + reinforcements


def _begin_round(s: EpochsState, p: int) -> str:
    """E4.4, E4.5: ``skip`` (no round), ``wait`` (a start decision), or ``play`` (to D4)."""
    rules = s.rules
    peoples = rules.peoples
    s.active = p
    s.sea_round = False
    new = peoples.card_epoch[p] == s.epoch
    if new:
        s.public[p] = True  # E3.7, R42: the card is turned face up as its first round begins
    elif s.held[p] == 0:
        # E4.5, R6: no tribes, no round; the re-entry variant restarts a re-scheduled People
        if not (rules.reenter and peoples.rescheduled(p, s.epoch)):
            return "skip"
        new = True
    s.pool = pool_for(s, p)
    if new:
        if s.pool <= 0:
            return "skip"
        if peoples.sea_start[p]:  # E7.5, R12, R28
            s.sea_round = rules.sea_start_all_coastal
            s.pending = ("landing",)
            return "wait"
        placement.begin_start(s, peoples.start[p])
        return "wait" if s.pending is not None else "play"
    if s.pool == 0 and not rules.empty_pool_scores:  # R5 variant
        return "skip"
    s.coast_held = bool(s.held[p] & rules.map.coastal_mask)
    return "play"


def round_score(s: EpochsState, p: int) -> int:
    """E14.2 (R35): 2 per double-value area, 1 per other area; double for the bonus area."""
    m = s.rules.map
    bonus = s.rules.peoples.bonus[p]
    held = s.held[p]
    total = held.bit_count() + (held & m.double_mask).bit_count()
    if held >> bonus & 1:
        total += 2 if m.double[bonus] else 1
    return total


def score(s: EpochsState) -> None:
    """E14.1, E14.4, R24: only the active People scores, for its owner."""
    p = s.active
    points = round_score(s, p)
    s.pvp[p] += points
    s.vp[s.owner[p]] += points


def end_epoch(s: EpochsState) -> None:
    """E2.3: set-aside cards become public (R42); then the next Epoch, or the end (E15.1, R26)."""
    for card in s.set_aside:
        if s.rules.set_aside_public and s.rules.peoples.card_epoch[card] == s.epoch:
            s.public[card] = True
    s.active = -1
    s.order = 0
    s.pool = 0
    s.sea_round = False
    s.coast_held = False
    s.pending = None
    if s.epoch >= s.rules.peoples.epochs:
        s.phase = "over"
        return
    s.epoch += 1
    from ziggurat.games.mesopotamia_epochs.allocation import start_epoch

    start_epoch(s)


# --- E15: the end of the game ---------------------------------------------------------------


def standing(s: EpochsState, seat: int) -> tuple[int, ...]:
    """E15.2, R25: VP, then the tie-break keys of ``end_tiebreak`` (areas, double-value areas)."""
    m = s.rules.map
    areas = 0
    doubles = 0
    for p, o in enumerate(s.owner):
        if o == seat:
            areas += s.held[p].bit_count()
            doubles += (s.held[p] & m.double_mask).bit_count()
    keys = {"most_areas_held": areas, "most_double_value_areas_held": doubles}
    return (s.vp[seat], *(keys[k] for k in s.rules.tiebreak))


def ranking(s: EpochsState) -> list[list[int]]:
    """E15.3: seats grouped by rank, best first; a group of several shares that place."""
    keyed = sorted(range(s.n), key=lambda q: standing(s, q), reverse=True)
    groups: list[list[int]] = []
    for q in keyed:
        if groups and standing(s, groups[-1][0]) == standing(s, q):
            groups[-1].append(q)
        else:
            groups.append([q])
    return groups


def returns(s: EpochsState) -> list[float]:
    """1.0 for the winner and 0.0 for the others; a shared victory splits the 1.0 evenly."""
    out = [0.0] * s.n
    if s.phase != "over":
        return out
    winners = ranking(s)[0]
    for q in winners:
        out[q] = 1.0 / len(winners)
    return out
