"""The Mare Nostrum: Empires heuristic bot: full games, strength, view-only decisions, determinism."""

from __future__ import annotations

import random

import pytest

from ziggurat.bots import RandomBot, make_bot, play_game
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum.bots import HeuristicBot, victory_condition


@pytest.mark.parametrize("n", [3, 4, 5])
def test_all_heuristic_games_finish_with_a_winner(n: int) -> None:
    game = MareNostrumGame(n, {})
    for seed in range(3):
        res = play_game(game, [make_bot("heuristic", game, s) for s in range(n)], seed=seed)
        assert not res.truncated
        assert res.state.is_terminal()
        pos = res.state.to_position()
        assert pos["winner"] is not None
        assert victory_condition(pos, game.opts) in ("pyramids", "heroes_wonders", "capitals", "titles")


@pytest.mark.slow
def test_heuristic_beats_random() -> None:
    wins = games = 0
    for n in (3, 4, 5):
        game = MareNostrumGame(n, {})
        for seed in range(8):
            seat = seed % n
            bots = [HeuristicBot(game, s) if s == seat else RandomBot(game, s) for s in range(n)]
            res = play_game(game, bots, seed=100 + seed)
            games += 1
            wins += res.state.to_position()["winner"] == seat
    # random play would win about 1/n of the games
    assert wins / games >= 0.7, (wins, games)


def _midgame_state(game: MareNostrumGame, seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = game.new_initial_state()
    bots = [make_bot("heuristic", game, s) for s in range(game.num_players)]
    for _ in range(150):
        if state.is_terminal():
            break
        who = state.current_player()
        legal = state.legal_actions()
        if who < 0:
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(bots[who].choose(state.view(who), legal, rng))
    return state


def test_decisions_use_only_the_view() -> None:
    game = MareNostrumGame(4, {})
    checked = 0
    for seed in range(6):
        state = _midgame_state(game, seed)
        if state.is_terminal() or state.current_player() < 0:
            continue
        who = state.current_player()
        other = (who + 1) % game.num_players
        twin = state.clone()
        res = twin.d["res"][other]
        res.clear()
        res["tax"] = 2
        res["gold"] = sum(state.d["res"][other].values()) - 2
        if res["gold"] <= 0:
            res.pop("gold")
            res["tax"] = sum(state.d["res"][other].values())
        assert twin.view(who) == state.view(who)
        bot = HeuristicBot(game, who)
        a = bot.choose(state.view(who), state.legal_actions(), random.Random(1))
        b = bot.choose(twin.view(who), state.legal_actions(), random.Random(1))
        assert a == b
        checked += 1
    assert checked >= 2


def test_deterministic_per_seed() -> None:
    game = MareNostrumGame(3, {})
    runs = []
    for _ in range(2):
        res = play_game(game, [make_bot("heuristic", game, s) for s in range(3)], seed=7)
        runs.append((res.state.history(), res.state.to_position()["winner"]))
    assert runs[0] == runs[1]
