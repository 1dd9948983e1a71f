"""The PettingZoo environment's ``action_mask()`` is its observation's mask, and its chance
draws are the running-sum picks of one ``np_random`` draw each (so a seed replays the same
game whichever way the pick is found)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils import seeding  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.interop.pettingzoo import env  # noqa: E402

GAMES = [("mesopotamia", 2), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]


def masked_random_game(e, seed: int, steps: int) -> int:
    """Play up to ``steps`` masked-random decisions, checking every agent's mask; the steps."""
    rng = random.Random(seed)
    played = 0
    while played < steps:
        for agent in e.possible_agents:
            assert (e.action_mask(agent) == e.observe(agent)["action_mask"]).all()
        _, _, terminated, truncated, _ = e.last(observe=False)
        if terminated or truncated:
            assert not e.action_mask().any()
            break
        mask = e.action_mask()
        assert mask.dtype.name == "int8" and mask.shape == (e.codec.num_actions,)
        assert list(mask.nonzero()[0]) == e.codec.legal_indices(e.state)
        mask[:] = 0  # a copy: the environment's own mask is untouched
        legal = e.action_mask().nonzero()[0]
        e.step(int(legal[rng.randrange(len(legal))]))
        played += 1
    return played


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_action_mask_is_the_observations(game_id: str, players: int) -> None:
    e = env(game_id, players=players, max_steps=60)
    e.reset(seed=5)
    assert masked_random_game(e, 5, 100) == 60
    assert all(e.truncations.values())
    with pytest.raises(KeyError):
        e.action_mask("player_9")


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_chance_draws_are_running_sum_picks(game_id: str, players: int) -> None:
    e = env(game_id, players=players)
    e.reset(seed=11)
    masked_random_game(e, 11, 400)
    draws, _ = seeding.np_random(11)  # the same stream, drawn once per chance node
    replay = ziggurat.load(game_id, players=players).new_initial_state()
    chance = 0
    for action in e.state.history():
        if replay.is_chance_node():
            r, total, pick = float(draws.random()), 0.0, None
            for outcome, p in replay.chance_outcomes():
                total += p
                if r < total:
                    pick = outcome
                    break
            assert action == (pick if pick is not None else replay.chance_outcomes()[-1][0])
            chance += 1
        replay.apply(action)
    assert chance > 10
