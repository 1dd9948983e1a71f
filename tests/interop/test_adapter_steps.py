"""What the adapters' fast steps keep: a PettingZoo step is the engine's game driven plainly
(the same agent to move, mask, rewards, terminations, truncations and infos at every step,
for every game and player count); masks are fresh arrays whether the codec keeps them or not;
legal tables shared by equal legal lists decode for each state; OpenSpiel's ``apply_action``
decodes the same with or without ``legal_actions`` first, on clones too."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.engine.contract import CHANCE  # noqa: E402
from ziggurat.engine.registry import game_class  # noqa: E402
from ziggurat.interop.codec import MASKS_KEPT_UP_TO, codec_for  # noqa: E402
from ziggurat.interop.pettingzoo import env  # noqa: E402

CONFIGS = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


class PlainDriver:
    """The environment's rules written out on the engine alone: chance drawn from one
    ``np_random`` draw each (first running sum above it), single-choice decisions played."""

    def __init__(self, game_id: str, players: int, seed: int, max_steps: int | None) -> None:
        self.game = ziggurat.load(game_id, players=players)
        self.codec = codec_for(self.game)
        self.draws, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.max_steps = max_steps
        self.steps = 0
        self.advance()

    def advance(self) -> None:
        s = self.state
        while True:
            player = s.current_player()
            if player == CHANCE:
                r, total, pick = float(self.draws.random()), 0.0, None
                for outcome, p in s.chance_outcomes():
                    total += p
                    if r < total:
                        pick = outcome
                        break
                s.apply(pick if pick is not None else s.chance_outcomes()[-1][0])
                continue
            if player < 0 or len(s.legal_actions()) != 1:
                return
            s.apply(s.legal_actions()[0])

    def play(self, index: int) -> None:
        legal = self.state.legal_actions()
        [text] = [a for a in legal if self.codec.encode(a, self.state) == index]
        self.state.apply(text)
        self.steps += 1
        self.advance()

    def expected(self, agents: list[str]) -> tuple[str | None, dict[str, float], bool, bool]:
        """(agent to move or None, rewards, terminated, truncated) the environment must show."""
        s = self.state
        if s.is_terminal():
            return None, {a: float(r) for a, r in zip(agents, s.returns(), strict=True)}, True, False
        if self.max_steps is not None and self.steps >= self.max_steps:
            return None, dict.fromkeys(agents, 0.0), False, True
        return agents[s.current_player()], dict.fromkeys(agents, 0.0), False, False


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_a_step_is_the_engines_game_driven_plainly(game_id: str, players: int) -> None:
    max_steps = 150 if game_id == "mesopotamia" else None  # Mesopotamia's random games are long
    e = env(game_id, players=players, max_steps=max_steps)
    e.reset(seed=players)
    plain = PlainDriver(game_id, players, players, max_steps)
    rng = random.Random(players)
    agents = list(e.possible_agents)
    for _ in range(3000):
        mover, rewards, terminated, truncated = plain.expected(agents)
        assert e.rewards == rewards
        assert e.infos == {a: {} for a in agents}
        assert e.terminations == dict.fromkeys(agents, terminated)
        assert e.truncations == dict.fromkeys(agents, truncated)
        assert e.state.history() == plain.state.history()
        if mover is None:
            assert not e.action_mask().any()
            break
        assert e.agent_selection == mover
        mask = e.action_mask()
        assert np.flatnonzero(mask).tolist() == plain.codec.legal_indices(plain.state)
        index = int(np.flatnonzero(mask)[rng.randrange(int(mask.sum()))])
        e.step(index)
        plain.play(index)
    else:
        pytest.fail("the game neither ended nor was truncated")
    paid = {}
    for agent in e.agent_iter():  # every agent is told its reward, then leaves
        _, reward, done, cut, _ = e.last()
        assert (done, cut) == (terminated, truncated)
        paid[agent] = reward
        e.step(None)
    assert paid == rewards and not e.agents


@pytest.mark.parametrize(
    ("game_id", "players"), [("mesopotamia", 2), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]
)
def test_masks_are_fresh_arrays_kept_or_not(game_id: str, players: int) -> None:
    e = env(game_id, players=players)
    e.reset(seed=4)
    codec = e.codec
    rng = random.Random(4)
    for _ in range(60):
        first = e.action_mask()
        want = codec.legal_indices(e.state)
        assert first.flags.writeable and first.dtype == np.int8 and first.shape == (codec.num_actions,)
        assert np.flatnonzero(first).tolist() == want
        first[:] = 1  # the caller's own array: nothing kept changes
        again, observed = e.action_mask(), e.observe(e.agent_selection)["action_mask"]
        assert again is not observed
        assert np.flatnonzero(again).tolist() == np.flatnonzero(observed).tolist() == want
        assert np.flatnonzero(codec.legal_mask(e.state)).tolist() == want
        e.step(want[rng.randrange(len(want))])
    assert (codec.num_actions <= MASKS_KEPT_UP_TO) == (game_id == "mesopotamia-epochs")


def test_equal_legal_lists_share_a_table_and_decode_for_each_state() -> None:
    """Two states with equal legal lists get the same indices, and each decodes an index to
    its own legal text whichever table was encoded last."""
    game = ziggurat.load("mesopotamia-epochs", players=3)
    codec = codec_for(game)
    a = game.new_initial_state()
    while a.current_player() < 0:
        a.apply(a.chance_outcomes()[0][0])
    b = game.state_from_position(a.to_position())
    assert b.legal_actions() == a.legal_actions()
    table_a = codec.legal_table(a)
    table_b = codec.legal_table(b)
    assert table_b.indices == table_a.indices
    for index, text in zip(table_a.indices, sorted(a.legal_actions(), key=codec.encode), strict=True):
        assert codec.decode(index, a) == codec.decode(index, b) == text
    a.apply(codec.decode(table_a.indices[-1], a))  # a moves on; b's list is still b's
    assert codec.legal_table(b).indices == table_b.indices


@pytest.mark.parametrize(
    ("game_id", "players"), [("mesopotamia", 3), ("mesopotamia-epochs", 4), ("mare-nostrum", 4)]
)
def test_openspiel_apply_action_decodes_alike_with_or_without_legal_actions(
    game_id: str, players: int
) -> None:
    pytest.importorskip("pyspiel")
    from ziggurat.interop import openspiel as zo

    game = zo.load(game_id, players)
    codec = game.codec()
    asked, unasked = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(7)
    for _ in range(300):
        if asked.is_terminal():
            break
        if asked.is_chance_node():
            outcomes = asked.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = asked.legal_actions()
            action = legal[rng.randrange(len(legal))]
            text = codec.decode(action, asked.ziggurat_state())
            fork = asked.clone()  # made after legal_actions: the clone decodes as well
            fork.apply_action(action)
            assert fork.ziggurat_state().history()[-1] == text
        asked.apply_action(action)
        unasked.apply_action(action)  # never asked for its legal actions
        assert asked.history() == unasked.history()
        assert asked.ziggurat_state().history() == unasked.ziggurat_state().history()
    assert len(asked.history()) > 100
