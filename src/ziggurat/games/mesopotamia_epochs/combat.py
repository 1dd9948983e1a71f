"""Combat (E12, C3; R15-R18, R36, R37): dice as chance nodes and the resolution of one roll.

A roll is one chance event recording every die face: ``roll <a>,<b> <d>`` (normal) or
``roll <a>,<b> <d>,<e>`` (difficult, E12.3). Its outcomes are all ordered faces, each with
probability ``1/sides^k``; the lists are built once per (die sides, defender dice) and shared.
After a roll the engine removes tribes (E12.5) and either rolls again (E12.6: a surviving
attacking tribe never withdraws) or ends the combat (E12.7 capture, E12.8 back to D4).
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from ziggurat.games.mesopotamia_epochs.notation import roll_text
from ziggurat.games.mesopotamia_epochs.state import EpochsState

ATTACKER, DEFENDER, BOTH = 1, 2, 3


@cache
def roll_outcomes(
    sides: int, defender_dice: int
) -> tuple[list[tuple[str, float]], list[str], frozenset[str], list[float]]:
    """C3: (outcomes with probabilities, their texts, the texts as a set, the running sums of
    the probabilities added in order: what ``sample_chance`` bisects instead of scanning
    216 or 1,296 outcomes)."""
    faces = range(1, sides + 1)
    p = 1.0 / sides ** (2 + defender_dice)
    pairs = [
        (roll_text(att, dfn), p)
        for att in itertools.product(faces, repeat=2)
        for dfn in itertools.product(faces, repeat=defender_dice)
    ]
    texts = [t for t, _ in pairs]
    sums = []
    acc = 0.0
    for _, q in pairs:
        acc += q
        sums.append(acc)
    return pairs, texts, frozenset(texts), sums


def roll_winner(s: EpochsState, attacker: tuple[int, ...], defender: tuple[int, ...]) -> int:
    """E12.2-E12.5, R16-R18: who wins one roll (ATTACKER, DEFENDER or BOTH lose one)."""
    peoples = s.rules.peoples
    assert s.pending is not None
    p, q = s.active, s.occ[s.pending[1]]
    att = _highest(attacker) + (s.rules.military_bonus if peoples.military[p] else 0)
    dfn = _highest(defender)  # Military never helps in defence (R18)
    if att > dfn:
        return ATTACKER
    if att < dfn:
        return DEFENDER
    urb_a, urb_d = peoples.urbanisation[p], peoples.urbanisation[q]
    if urb_a and not urb_d:  # R17: Urbanisation breaks a tie of the modified scores
        return ATTACKER
    if urb_d and not urb_a:
        return DEFENDER
    return BOTH  # neither, or both cancel (R16): each side removes one tribe


def _highest(faces: tuple[int, ...]) -> int:
    """``max(faces)`` of a roll's faces, as a loop (the builtin is a generic call in compiled
    code)."""
    top = faces[0]
    for face in faces:
        if face > top:
            top = face
    return top


def resolve(s: EpochsState, attacker: tuple[int, ...], defender: tuple[int, ...]) -> bool:
    """Apply one roll; returns True while the combat goes on (E12.6)."""
    assert s.pending is not None
    t = s.pending[1]
    p, q = s.active, s.occ[t]
    winner = roll_winner(s, attacker, defender)
    last = s.last_attack
    if last is not None:  # what the view tells of this combat (None: loaded mid-combat)
        rolls: tuple[Any, ...] = last[-1]
        s.last_attack = last[:-1] + (rolls + ((attacker, defender, winner),),)
    if winner != ATTACKER:  # the attacking tribe is removed (E12.5)
        s.removed[p] += 1
    if winner != DEFENDER:  # one defender is removed (R37)
        s.removed[q] += 1
        s.cnt[t] -= 1
        if s.cnt[t] == 0:
            s.held[q] &= ~(1 << t)
            s.occ[t] = -1
            if winner == ATTACKER:  # E12.7: capture
                s.occ[t] = p
                s.cnt[t] = 1
                s.held[p] |= 1 << t
            s.pending = None
            return False
    if winner == ATTACKER:
        return True  # E12.6: defenders remain and the attacking tribe survives
    s.pending = None  # E12.8: the attacking tribe is gone; back to D4
    return False
