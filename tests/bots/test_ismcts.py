"""The ISMCTS bot: legal answers, determinism for an iteration budget, the one-legal shortcut,
root parallelism and whole games of each game (docs/bots.md)."""

from __future__ import annotations

import random

import pytest
from bot_helpers import GAMES, mid_game

import ziggurat
from ziggurat.bots import close_bot, make_bot, play_game
from ziggurat.bots.ismcts import DecisionStats, ISMCTSBot
from ziggurat.bots.spec import parse_ismcts


def _decide(spec: str, game_id: str, players: int, plies: int, seed: int = 5) -> tuple[str, ISMCTSBot]:
    game, state = mid_game(game_id, players, plies)
    seat = state.current_player()
    bot = make_bot(spec, game, seat)
    assert isinstance(bot, ISMCTSBot)
    action = bot.choose(state.view(seat), state.legal_actions(), random.Random(seed))
    assert action in state.legal_actions()
    return action, bot


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_same_seed_same_decision_and_statistics(game_id: str, players: int) -> None:
    """An iteration budget makes the search a function of (view, legal, seed)."""
    spec = "ismcts:24:rollout=random:plies=4"
    first, bot = _decide(spec, game_id, players, 40)
    second, other = _decide(spec, game_id, players, 40)
    assert first == second
    assert bot.last_stats is not None and other.last_stats is not None
    assert bot.last_stats.root == other.last_stats.root
    assert bot.last_stats.iterations == 24 and bot.last_stats.searched
    assert sum(n for n, _, _ in bot.last_stats.root.values()) == 24  # every iteration leaves the root


def test_search_uses_its_seed() -> None:
    game, state = mid_game("mesopotamia", 2, 30)
    seat = state.current_player()
    bot = make_bot("ismcts:30:rollout=random:plies=3", game, seat)
    roots = []
    for seed in (1, 2):
        bot.choose(state.view(seat), state.legal_actions(), random.Random(seed))
        assert bot.last_stats is not None
        roots.append(bot.last_stats.root)
    assert roots[0] != roots[1]


def test_one_legal_action_is_answered_without_search() -> None:
    game = ziggurat.load("mesopotamia", players=2)
    bot = make_bot("ismcts:1000", game, 0)
    assert isinstance(bot, ISMCTSBot)
    # the view is not even read: there is nothing to decide
    assert bot.choose({}, ["end"], random.Random(1)) == "end"
    assert bot.last_stats is not None and not bot.last_stats.searched and bot.last_stats.iterations == 0


class SteppingClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def _timed_decision(step: float, root: str) -> tuple[DecisionStats, SteppingClock]:
    game, state = mid_game("mesopotamia-epochs", 3, 30)
    seat = state.current_player()
    clock = SteppingClock(step)
    bot = ISMCTSBot(game, seat, parse_ismcts(f"ismcts:1s:rollout=random:plies=2:root={root}"), clock=clock)
    action = bot.choose(state.view(seat), state.legal_actions(), random.Random(5))
    assert action in state.legal_actions()
    assert bot.last_stats is not None
    return bot.last_stats, clock


@pytest.mark.parametrize("root", ["uct", "paired"])
def test_time_budget_is_kept_and_reported(root: str) -> None:
    """A time budget stops the search once the bot's clock passes the deadline, and the
    decision reports the time its clock measured: one second of a clock that moves on a tenth
    of a second per reading holds fewer iterations than one that moves on a hundredth."""
    coarse, clock = _timed_decision(0.1, root)
    assert coarse.searched and coarse.iterations >= 1
    assert 1.0 <= coarse.seconds <= 1.0 + 3 * clock.step + 1e-9  # stopped at the deadline
    assert coarse.seconds < clock.now  # the first reading starts the budget
    assert coarse.iterations_per_second == pytest.approx(coarse.iterations / coarse.seconds)
    fine, _ = _timed_decision(0.01, root)
    assert 1.0 <= fine.seconds <= 1.03 + 1e-9
    assert fine.iterations > coarse.iterations
    again, _ = _timed_decision(0.01, root)
    assert again.root == fine.root  # the same clock readings make the same search


def test_a_bot_with_workers_keeps_the_monotonic_clock() -> None:
    game = ziggurat.load("mesopotamia", players=2)
    with pytest.raises(ValueError, match="time.monotonic"):
        ISMCTSBot(game, 0, parse_ismcts("ismcts:1s:workers=2"), clock=SteppingClock(0.1))


def test_two_workers_sum_two_trees_deterministically() -> None:
    """Root parallelism: worker 0 here, worker 1 in a spawned process; with an iteration budget
    each searches its own tree and the sums are the same every time, with any pool."""
    game, state = mid_game("mare-nostrum", 3, 30)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    spec = "ismcts:12:rollout=random:plies=3"
    single = make_bot(spec, game, seat)
    double = make_bot(spec + ":workers=2", game, seat)
    again = make_bot(spec + ":workers=2", game, seat)
    try:
        single.choose(view, legal, random.Random(9))
        a = double.choose(view, legal, random.Random(9))
        b = again.choose(view, legal, random.Random(9))
        assert a == b and a in legal
        s1, s2 = single.last_stats, again.last_stats
        double.choose(view, legal, random.Random(9))  # the pool is reused
        s3 = double.last_stats
        assert s1 is not None and s2 is not None and s3 is not None
        assert s2.iterations == 24 and s2.workers == 2 and s2.root == s3.root
        # worker 0's tree is the single-worker search: the sum holds it and one tree more
        for action, (n, w, _) in s1.root.items():
            assert s2.root[action][0] >= n and s2.root[action][1] >= w - 1e-9
    finally:
        close_bot(double)
        close_bot(again)
    assert double._pool is None


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("mesopotamia", 2, {"round_limit": 3}),
        ("mesopotamia-epochs", 3, {}),
        ("mare-nostrum", 3, {"max_rounds": 3}),
    ],
)
@pytest.mark.slow
def test_games_with_a_small_budget_finish(game_id: str, players: int, options: dict[str, object]) -> None:
    game = ziggurat.load(game_id, players=players, **options)
    specs = ["ismcts:3:plies=0", *(["heuristic", "random"] * 3)][:players]
    bots = [make_bot(spec, game, seat) for seat, spec in enumerate(specs)]
    searched = 0
    original = bots[0].choose

    def counting(view, legal, rng):  # type: ignore[no-untyped-def]
        nonlocal searched
        action = original(view, legal, rng)
        searched += bots[0].last_stats.searched  # type: ignore[attr-defined]
        assert action in legal
        return action

    bots[0].choose = counting  # type: ignore[method-assign]
    result = play_game(game, bots, seed=3, max_plies=4000)
    assert not result.truncated and result.state.is_terminal()
    assert searched > 5
