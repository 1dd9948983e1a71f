"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game
and player count, reproducible resets, rewards from ``returns()``, truncation and rendering."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.engine.registry import game_class  # noqa: E402
from ziggurat.interop.pettingzoo import env  # noqa: E402

CONFIGS = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


def run(e, steps: int, seed: int) -> list[int]:
    """Play ``steps`` masked-random decisions; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for agent in e.agent_iter(steps):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert agent == e.possible_agents[e.state.current_player()]
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return taken


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_pettingzoo_api_and_seed_tests(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        # dict observations with masks warn, as in PettingZoo's own classic games
        warnings.simplefilter("ignore")
        api_test(env(game_id, players=players), num_cycles=40)
        seed_test(lambda: env(game_id, players=players), num_cycles=40)


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_reset_seed_reproduces_the_game(game_id: str) -> None:
    a, b = env(game_id, players=3), env(game_id, players=3)
    a.reset(seed=7)
    b.reset(seed=7)
    assert run(a, 120, 1) == run(b, 120, 1)
    assert a.state.history() == b.state.history()
    b.reset(seed=7)  # a second reset with the same seed replays the same chance
    run(b, 120, 1)
    assert a.state.history() == b.state.history()
    c = env(game_id, players=3)
    c.reset(seed=8)
    run(c, 120, 1)
    assert c.state.history() != a.state.history()


def test_observations_and_masks() -> None:
    e = env("mare-nostrum", players=4)
    e.reset(seed=3)
    for _ in range(40):
        agent = e.agent_selection
        for other in e.agents:
            obs = e.observe(other)
            assert e.observation_space(other).contains(obs)
            if other != agent:
                assert not obs["action_mask"].any()
        obs = e.observe(agent)
        legal = sorted(e.codec.encode(a, e.state) for a in e.state.legal_actions())
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert sorted(e.legal_actions()) == sorted(e.state.legal_actions())
        e.step(legal[0])


def test_a_whole_game_pays_the_returns() -> None:
    """Rewards are zero until the end, then ``returns()``; every agent terminates."""
    e = env("mesopotamia-epochs", players=2)
    e.reset(seed=2)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    finished = []
    for agent in e.agent_iter(20_000):
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            finished.append(agent)
            e.step(None)
            continue
        assert reward == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.state.is_terminal() and not e.agents
    assert sorted(finished) == e.possible_agents
    assert [total[a] for a in e.possible_agents] == e.state.returns()
    assert sum(total.values()) == pytest.approx(1.0)


def test_max_steps_truncates() -> None:
    e = env("mesopotamia", players=2, max_steps=30)
    e.reset(seed=1)
    run(e, 10_000, 4)
    assert e.steps == 30 and not e.agents
    assert not e.state.is_terminal()


def test_illegal_actions_and_arguments_are_refused() -> None:
    e = env("mesopotamia", players=3)
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="only for terminated"):
        e.step(None)
    with pytest.raises(ValueError, match="render_mode"):
        env("mesopotamia", render_mode="human")
    with pytest.raises(ValueError, match="unknown option"):
        env("mesopotamia", players=2, noSuchOption=True)
    assert env("mesopotamia-epochs", players=4, die_sides=8).game.rules.die_sides == 8


@pytest.mark.parametrize("game_id", ziggurat.games())
@pytest.mark.slow
def test_render_modes(game_id: str) -> None:
    e = env(game_id, players=3, render_mode="ansi")
    e.reset(seed=5)
    run(e, 20, 0)
    text = e.render()
    assert isinstance(text, str) and "\x1b[" in text and len(text.splitlines()) > 5
    e.render_mode = "rgb_array"
    image = e.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 100 and image.shape[1] > 300
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 3  # text in colours on a background
    e.close()
