"""The engine's fast paths give exactly what the rules, written out plainly, give (§7, E8.2, C3).

Legal targets come from remembered reaches and shared legal lists (``Map.reach``,
``Notation.placements``), a combat roll is sampled by bisecting running sums of its outcome
probabilities, and the legal set of a shared list is found with the list. Each is checked here
against a plain computation at every decision of seeded random games, for each player count and
for the rule variants that change E8.2; and seeded random play is pinned to the games the
engine played before it had these fast paths.
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import pytest
from epochs_helpers import GAME

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia_epochs import flow
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_PEOPLES, MAP_DATA
from ziggurat.games.mesopotamia_epochs.geography import MEMO_LIMIT, Map
from ziggurat.games.mesopotamia_epochs.notation import Notation

VARIANTS: list[dict[str, Any]] = [
    {},
    {"attack_own_peoples": False, "reinforce_own_desert": False},
    {"seafaring_chain": False, "sea_start_all_coastal": False},
]


def _random_states(players: int, seed: int, games: int, **options: Any) -> Any:
    """Every state of ``games`` seeded random games (chance through ``sample_chance``)."""
    game = ziggurat.load(GAME, players=players, **options)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply(action)


def _plain_targets(s: Any) -> list[str]:
    """E8.2 area by area: own areas below the stack limit (E13.1; an own desert only with R39),
    other areas on a land border of the People or, with Seafaring or a sea-start round, on a
    coast (E9.3, R13, R31); never a sea, uninhabited area or foreign desert (E8.4, E11.2);
    with R20, never another People of the same player. Then ``stop`` (E8.6)."""
    rules = s.rules
    m = rules.map
    p = s.active
    if s.pool <= 0:
        return ["stop"]
    if s.sea_round:
        by_sea = True
    elif rules.peoples.seafaring[p]:
        by_sea = bool(s.held[p] & m.coastal_mask) if rules.seafaring_chain else s.coast_held
    else:
        by_sea = False
    out = []
    for a in range(m.size):
        if not m.placeable[a]:
            continue
        if s.occ[a] == p:
            if (m.desert[a] and not rules.reinforce_desert) or s.cnt[a] >= rules.stack_limit:
                continue
        else:
            if m.desert[a]:
                continue
            if not (any(s.occ[b] == p for b in m.land_adj[a]) or (by_sea and m.coastal[a])):
                continue
            q = s.occ[a]
            if q >= 0 and not rules.attack_own and s.owner[q] == s.owner[p]:
                continue
        out.append(f"place {m.ids[a]}")
    out.append("stop")
    return out


def _plain_sample(state: Any, rng: random.Random) -> str:
    """The linear scan over ``chance_outcomes()`` that bisection replaces."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return str(action)
    return str(outcomes[-1][0])


class _Fixed(random.Random):
    """A random source whose next draw is ``value``: to sample exactly at a boundary."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "R20-R39", "R13-sea"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_targets_are_E8_2_written_out(players: int, options: dict[str, Any]) -> None:
    """D4 lists exactly the plain E8.2 targets in area order, then ``stop``; every legal list's
    set is the list's set, and a clone lists the same actions."""
    placements = 0
    for state in _random_states(players, 10 + players, 6, **options):
        legal = list(state.legal_actions())
        if state.pending is None and state.active >= 0:
            assert legal == _plain_targets(state)
            placements += 1
        assert flow.legal_set(state) == frozenset(legal)
        assert list(state.clone().legal_actions()) == legal
    assert placements > 100


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_combat_rolls_are_sampled_as_a_scan_samples_them_C3(players: int) -> None:
    """C3: bisecting the running sums picks the outcome the linear scan picks, for seeded draws
    and for draws exactly at, just below and just above every running sum."""
    seen: dict[int, Any] = {}
    draws = 0
    for state in _random_states(players, 20 + players, 5):
        if state.current_player() != CHANCE or state.pending[0] != "combat":
            continue
        for k in range(5):
            assert sample_chance(state, random.Random(k + draws)) == _plain_sample(
                state, random.Random(k + draws)
            )
        draws += 1
        seen.setdefault(len(state.chance_outcomes()), state.clone())
    assert draws > 20
    sides = ziggurat.load(GAME, players=players).rules.die_sides
    assert sides**3 in seen  # one defender die (E12.2)
    for state in seen.values():
        acc = 0.0
        values = [0.0, math.nextafter(1.0, 0.0)]
        for _, p in state.chance_outcomes():
            acc += p
            values += [acc, math.nextafter(acc, 0.0), math.nextafter(acc, 2.0)]
        for r in values:
            assert sample_chance(state, _Fixed(r)) == _plain_sample(state, _Fixed(r))


def test_two_defender_dice_are_sampled_as_a_scan_samples_them_E12_3() -> None:
    """E12.3: a roll with two defender dice (1,296 outcomes) is sampled like the scan samples it."""
    for state in _random_states(4, 31, 40):
        if state.current_player() == CHANCE and state.pending[0] == "combat" and state.pending[2] == 2:
            break
    else:
        pytest.fail("no attack across a difficult border in 40 seeded games")
    assert len(state.chance_outcomes()) == state.rules.die_sides**4
    for k in range(300):
        assert sample_chance(state, random.Random(k)) == _plain_sample(state, random.Random(k))
    for r in (0.0, 0.5, math.nextafter(1.0, 0.0)):
        assert sample_chance(state, _Fixed(r)) == _plain_sample(state, _Fixed(r))


def test_full_memos_are_emptied_and_still_answer_right() -> None:
    """Past ``MEMO_LIMIT`` masks the memos start again; reaches and placement lists stay what the
    map gives, and a list the placement memo forgot gets no set (nor another list's)."""
    board = Map(MAP_DATA)
    notation = Notation(board, DEFAULT_PEOPLES)
    placeable = board.placeable_mask
    rng = random.Random(7)
    masks = [rng.getrandbits(board.size) & placeable for _ in range(MEMO_LIMIT + 50)]
    first = notation.placements(masks[0])
    for mask in masks:
        listed = notation.placements(mask)
        assert listed == [f"place {board.ids[a]}" for a in range(board.size) if mask >> a & 1] + ["stop"]
        assert notation.legal_set(listed) == frozenset(listed)
        near, held = board.reach(mask)
        plain = 0
        for a in range(board.size):
            if mask >> a & 1:
                plain |= board.adj_mask[a]
        assert held == [a for a in range(board.size) if mask >> a & 1]
        assert near == plain & ~board.desert_mask
    assert notation.legal_set(first) in (None, frozenset(first))
    assert notation.legal_set(list(first)) is None  # an equal list it did not give


# Digests of seeded random games (histories with the engine's forced actions, and final
# fingerprints) as the engine played them before its fast paths: order of the legal lists,
# legality and chance sampling are unchanged.
PINNED = {
    (2, ()): "5d2de773a791b38b",
    (3, ()): "423dc58a4061856b",
    (4, ()): "c547ee49230da440",
    (5, ()): "46a326526be39ca7",
    (3, ("attack_own_peoples", "reinforce_own_desert", "seafaring_chain", "sea_start_all_coastal")): (
        "7e1cd266900dadf0"
    ),
}


@pytest.mark.parametrize(("players", "off"), list(PINNED))
def test_seeded_random_play_is_pinned(players: int, off: tuple[str, ...]) -> None:
    game = ziggurat.load(GAME, players=players, **dict.fromkeys(off, False))
    rng = random.Random(9 if off else players)
    digest = hashlib.sha256()
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply(action)
        digest.update("\n".join(e[1] for e in state.events()).encode())
        digest.update(state.fingerprint().encode())
    assert digest.hexdigest()[:16] == PINNED[(players, off)]
