"""The heuristic bot's fast paths give exactly what the plain computations give.

Search plays whole games of the heuristic bot as playouts, so its picture of a position
(:class:`~ziggurat.games.mesopotamia_epochs.bots_model.Picture`) builds what several answers
share once, and the playouts read a cheaper view (``evaluate.rollout_view``). Each is checked
here against the plain computation, written out as the rules and the bot's docstrings state
it, at positions of seeded heuristic games: the bot must decide exactly as before.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from epochs_helpers import GAME

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia_epochs import evaluate
from ziggurat.games.mesopotamia_epochs.bots import reinforce_value, reinforce_values
from ziggurat.games.mesopotamia_epochs.bots_model import (
    FUTURE_KEEP,
    HEURISTIC,
    LOSS,
    SUCCESSOR,
    THREAT,
    URBAN_LOSS,
    Judgement,
    Picture,
    bits,
)
from ziggurat.games.mesopotamia_epochs.view import bot_view


def _plain_bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_bits_lists_the_set_bits_lowest_first() -> None:
    rng = random.Random(5)
    masks = [0, 1, 1 << 63, 1 << 64, (1 << 130) - 1] + [
        rng.getrandbits(rng.randrange(1, 90)) for _ in range(500)
    ]
    for mask in masks:
        assert bits(mask) == _plain_bits(mask)


def _positions(players: int, seed: int, every: int = 3, **options: Any) -> list[Any]:
    """Clones of every ``every``-th decision of a seeded game of heuristic bots."""
    game = ziggurat.load(GAME, players=players, **options)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    k = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        k += 1
        if k % every == 0:
            out.append(state.clone())
        state.apply(bots[seat].choose(state.view(seat), list(state.legal_actions()), rng))
    out.append(state)
    return out


def _bot_fields(view: dict[str, Any]) -> dict[str, Any]:
    """What the heuristic bot reads of a view (or of a full position)."""
    return {
        "num_players": view["num_players"],
        "epoch": view["epoch"],
        "phase": view["phase"],
        "players": [
            {"vp": pl["vp"], "cards": [{"epoch": c["epoch"], "people": c["people"]} for c in pl["cards"]]}
            for pl in view["players"]
        ],
        "set_aside": [{"epoch": c["epoch"], "people": c["people"]} for c in view["set_aside"]],
        "areas": view["areas"],
        "round": view["round"],
        "pending": view["pending"],
    }


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_rollout_view_is_what_the_bot_reads_of_the_view(players: int, seed: int) -> None:
    """§6: the playout view hides exactly what the view hides, for every seat."""
    for state in _positions(players, seed, card_reveal="after_allocation"):
        for seat in range(players):
            assert evaluate.rollout_view(state, seat) == _bot_fields(state.view(seat))
        assert bot_view(state, None) == _bot_fields(state.to_position())


# --- the plain threat model (bots_model's module docstring) -------------------------------
def _acts_later(pic: Picture, p: int) -> bool:
    if pic.phase == "allocation":
        return True
    return pic.peoples.order(p, pic.epoch) > pic.order or (p == pic.active and pic.pending is not None)


def _value(pic: Picture, p: int, a: int) -> int:
    v = 2 if pic.map.double[a] else 1
    return 2 * v if pic.peoples.bonus[p] == a else v


def _alpha(pic: Picture, q: int) -> float:
    if not pic.held[q] or pic.owner[q] == pic.seat or pic.owner[q] < 0:
        return 0.0
    if pic.epoch >= pic.epochs and not _acts_later(pic, q):
        return 0.0
    pool = pic.next_pool(q)
    if pool <= 0:
        return 0.0
    threat = pic.judgement.threat
    a = threat[0] + threat[1] * pool
    if pic.peoples.military[q]:
        a *= 1.25
    return min(0.9, a)


def _reach(pic: Picture, q: int) -> int:
    m = pic.map
    held = pic.held[q]
    reach = 0
    for a in _plain_bits(held):
        reach |= m.adj_mask[a]
    if pic.peoples.seafaring[q] and held & m.coastal_mask:
        reach |= m.coastal_mask
    return reach & ~m.desert_mask & ~held


def _threat(pic: Picture, a: int, p: int) -> float:
    m = pic.map
    me = pic.owner[p]
    bit = 1 << a
    safe = 1.0
    if not m.desert[a]:
        for q in range(pic.peoples.size):
            al = _alpha(pic, q)
            if al <= 0 or q == p or pic.owner[q] == me or not _reach(pic, q) & bit:
                continue
            src = pic.held[q] & m.adj_mask[a]
            if src and not src & ~m.difficult_into[a]:
                if not (m.coastal[a] and pic.peoples.seafaring[q] and pic.held[q] & m.coastal_mask):
                    al *= 0.6
            safe *= 1.0 - al
    for q, prob in pic.entries:
        if pic.owner[q] == me and me >= 0:
            continue
        start = pic.peoples.start[q]
        if start == a:
            safe *= 1.0 - prob * 0.9
        elif pic.peoples.sea_start[q]:
            if m.coastal[a] and not m.desert[a]:
                safe *= 1.0 - prob * 0.25
        elif m.adj_mask[start] & bit and not m.desert[a]:
            safe *= 1.0 - prob * 0.5
    return 1.0 - safe


def _hold_value(pic: Picture, p: int, a: int, tribes: int) -> float:
    f = pic.epochs - pic.epoch
    if f <= 0:
        return 0.0
    loss = pic.judgement.loss[min(tribes, 3)]
    if pic.peoples.urbanisation[p]:
        loss *= URBAN_LOSS
    s = max(0.0, 1.0 - _threat(pic, a, p) * loss)
    total, keep = 0.0, 1.0
    for _ in range(f):
        keep *= s * (0.85 if keep < 1.0 else 1.0)
        total += keep
    return _value(pic, p, a) * total


def _denial_lost(pic: Picture, a: int) -> float:
    q = pic.occ[a]
    later = sum(pic.judgement.future_keep**j for j in range(1, pic.epochs - pic.epoch + 1))
    return _value(pic, q, a) * ((1.0 if _acts_later(pic, q) else 0.0) + later)


def _weights(pic: Picture) -> list[float]:
    if pic.n == 2:
        return [0.0 if s == pic.seat else 1.0 for s in range(2)]
    proj = [float(v) for v in pic.vp]
    left = pic.epochs - pic.epoch + 1
    for q, s in enumerate(pic.owner):
        if s >= 0 and pic.held[q]:
            proj[s] += sum(_value(pic, q, a) for a in _plain_bits(pic.held[q])) * left * 0.6
    others = sorted((s for s in range(pic.n) if s != pic.seat), key=lambda s: -proj[s])
    w = [0.7] * pic.n
    w[pic.seat] = 0.0
    w[others[0]] = 1.0
    return w


def test_the_heuristic_judges_with_the_modules_constants() -> None:
    """The heuristic's Judgement holds the module's constants, which the plain computations use."""
    assert Judgement() == HEURISTIC
    assert (HEURISTIC.loss, HEURISTIC.threat, HEURISTIC.future_keep) == (LOSS, THREAT, FUTURE_KEEP)
    assert HEURISTIC.losses == (LOSS, tuple(x * URBAN_LOSS for x in LOSS))
    assert HEURISTIC.denial == (2.0, 1.0)


@pytest.mark.parametrize(
    ("players", "seed", "options", "judgement"),
    [
        (2, 1, {}, HEURISTIC),
        (3, 2, {}, HEURISTIC),
        (4, 3, {"stack_limit": 5}, HEURISTIC),
        (5, 4, {"sea_attack_extra_defender_die": True}, HEURISTIC),
        (2, 5, {}, SUCCESSOR),
        (
            3,
            6,
            {},
            Judgement(loss=(1.0, 0.7, 0.5, 0.3), future_keep=0.5, threat=(0.3, 0.1), denial=(3.0, 1.5)),
        ),
    ],
)
def test_picture_answers_as_the_plain_threat_model(
    players: int, seed: int, options: dict[str, Any], judgement: Judgement
) -> None:
    limit = options.get("stack_limit", 3)
    states = _positions(players, seed, **options)
    for state in states[:: max(1, len(states) // 8)]:  # some 8 positions over the game
        mover = state.current_player()
        for seat in {max(mover, 0), (max(mover, 0) + 1) % players}:  # the seat to move, another
            pic = Picture(state.game, evaluate.rollout_view(state, seat), seat, judgement)
            assert pic.weights == _weights(pic)
            on_map = [p for p in range(pic.peoples.size) if pic.held[p] or p == pic.active]
            for p in range(pic.peoples.size):
                assert pic.acts_later(p) == _acts_later(pic, p)
            for a in range(pic.map.size):
                for p in on_map:
                    assert pic.value(p, a) == _value(pic, p, a)
                    assert pic.threat(a, p) == _threat(pic, a, p)
                    holds = [_hold_value(pic, p, a, t) for t in range(limit + 2)]
                    assert [pic.hold_value(p, a, t) for t in range(limit + 2)] == holds
                    assert pic.hold_values(p, a, 0, limit + 2) == holds
                    gains = reinforce_values(pic, p, a, 0, limit + 2)
                    assert gains == [reinforce_value(pic, p, a, t) for t in range(limit + 2)]
                    assert gains[limit:] == [0.0, 0.0]  # E13: no tribe beyond the limit
                q = pic.occ[a]
                if q >= 0:
                    lost = _denial_lost(pic, a)
                    s = pic.owner[q]
                    if s == seat:
                        assert pic.denial(a) == -lost
                    else:
                        scale = judgement.denial[0 if players == 2 else 1]
                        assert pic.denial(a) == scale * lost * (_weights(pic)[s] if s >= 0 else 0.5)
