"""OpenSpiel's own checks and bots on the Ziggurat games.

- ``pyspiel.random_sim_test`` (legal actions sorted and only for the player to move, the
  legal-action mask, chance outcomes summing to 1, clone and serialisation round trips,
  returns within the utility range, the game length within ``max_game_length``) on every
  game at two player counts. Random Mesopotamia play runs for thousands of decisions, so
  these games are capped by the ``max_game_length`` parameter (a truncated game is terminal,
  as GameInfo promises); games that end by their own rules are checked too: Epochs in full,
  Mesopotamia with the ``round_limit`` option.
- OpenSpiel's ``ISMCTSBot`` and ``MCTSBot`` (random-rollout evaluator, tiny budgets) finish
  a game of each: from a position a few decisions before a random game's end, with a
  ``max_game_length`` a few dozen decisions later (bots may avoid the end random play hit).
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from ziggurat.interop import openspiel as zo  # noqa: E402

# (game id, players, parameters): capped random games at two player counts, and games that
# end by their own rules.
SIMS = [
    ("mesopotamia", 2, {"max_game_length": 60}),
    ("mesopotamia", 4, {"max_game_length": 60}),
    ("mesopotamia", 3, {"options": {"round_limit": 1, "rank_non_winners": True}}),
    ("mesopotamia-epochs", 2, {}),
    ("mesopotamia-epochs", 5, {"max_game_length": 60}),
    ("mare-nostrum", 3, {"max_game_length": 60}),
    ("mare-nostrum", 5, {"max_game_length": 60}),
]


@pytest.mark.parametrize(
    ("game_id", "n", "params"), SIMS, ids=[f"{g}-{n}p-{i}" for i, (g, n, _) in enumerate(SIMS)]
)
@pytest.mark.slow
def test_openspiel_random_sim_test(game_id: str, n: int, params: dict) -> None:
    game = zo.load(game_id, n, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_games_end_by_their_rules_within_max_game_length() -> None:
    for game_id, n, params in [SIMS[2], SIMS[3]]:
        game = zo.load(game_id, n, **params)
        state = play_random(game, random.Random(1))
        assert state.is_terminal() and not state.is_truncated()
        assert state.decisions() <= game.max_game_length()
        returns = state.returns()
        assert all(0.0 <= r <= 1.0 for r in returns)


def play_random(game: zo.ZigguratGame, rng: random.Random, decisions: int | None = None) -> zo.ZigguratState:
    """A seeded random playout to the end, or until ``decisions`` player decisions."""
    state = game.new_initial_state()
    while not state.is_terminal() and (decisions is None or state.decisions() < decisions):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def near_end(
    game_id: str, n: int, params: dict, seed: int, left: int = 6, slack: int = 30
) -> zo.ZigguratState:
    """The state ``left`` decisions before the end of a seeded random game, in a game whose
    ``max_game_length`` leaves ``slack`` decisions more than the random game took (bots may
    play longer than random play did; the cap bounds their rollouts and the game)."""
    length = play_random(zo.load(game_id, n, **params), random.Random(seed)).decisions()
    game = zo.load(game_id, n, **{**params, "max_game_length": length + slack})
    state = play_random(game, random.Random(seed), max(0, length - left))
    while state.is_chance_node():  # the same seed replays the same game: finish at a decision
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_terminal()
    return state


# Epochs and Mare Nostrum end by their rules in a few hundred random decisions; Mesopotamia
# needs thousands, so it plays one round (``round_limit``, ranked by M16.2).
BOT_GAMES = [
    ("mesopotamia", 2, {"options": {"round_limit": 1, "rank_non_winners": True}}),
    ("mesopotamia-epochs", 3, {}),
    ("mare-nostrum", 3, {}),
]


def finish(state: zo.ZigguratState, bots: list, rng: np.random.RandomState) -> int:
    """Play ``state`` to its end with one bot per seat; the number of bot decisions."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
        made += 1
    return made


@pytest.mark.parametrize(("game_id", "n", "params"), BOT_GAMES, ids=[g for g, _, _ in BOT_GAMES])
def test_openspiel_ismcts_bot_plays(game_id: str, n: int, params: dict) -> None:
    state = near_end(game_id, n, params, seed=2)
    game = state.get_game()
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(s)) for s in range(n)
    ]
    assert finish(state, bots, rng) >= 1
    assert state.is_terminal() and state.decisions() <= game.max_game_length()
    assert sum(state.returns()) <= 1.0


@pytest.mark.parametrize(("game_id", "n", "params"), BOT_GAMES, ids=[g for g, _, _ in BOT_GAMES])
def test_openspiel_mcts_bot_plays(game_id: str, n: int, params: dict) -> None:
    state = near_end(game_id, n, params, seed=3)
    game = state.get_game()
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(s)) for s in range(n)]
    assert finish(state, bots, rng) >= 1
    assert state.is_terminal() and state.decisions() <= game.max_game_length()
