"""The games' search hooks (docs/bots.md, "Playouts and evaluators", "Paired root"): the
evaluators give chances, finished playouts give the returns (Epochs: blended with the VP
margin), and every game's search settings are valid."""

from __future__ import annotations

from typing import Any

import pytest
from bot_helpers import GAMES, mid_game

import ziggurat
from ziggurat.bots import make_bot, play_game
from ziggurat.bots.playout import find_evaluator, find_final, find_policies, search_defaults
from ziggurat.bots.search import Searcher
from ziggurat.bots.spec import ROOTS, ISMCTSConfig


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_evaluator_gives_chances_that_sum_to_one(game_id: str, players: int) -> None:
    game, state = mid_game(game_id, players, 60)
    values = find_evaluator(game)(state)
    assert len(values) == players
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(1.0)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_finished_game_is_valued_by_its_result(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    end = play_game(game, [make_bot("heuristic", game, s) for s in range(players)], seed=3).state
    assert end.is_terminal()
    returns = end.returns()
    assert find_evaluator(game)(end) == returns
    final = find_final(game)(end)
    winner = returns.index(max(returns))
    assert max(final) == final[winner]  # the margin never outweighs the result
    if game_id != "mesopotamia-epochs":
        assert final == returns


def test_epochs_final_reward_blends_the_result_with_the_vp_margin() -> None:
    from ziggurat.games.mesopotamia_epochs import evaluate

    game = ziggurat.load("mesopotamia-epochs", players=3)
    end = play_game(game, [make_bot("heuristic", game, s) for s in range(3)], seed=5).state
    vp = [float(v) for v in end.vp]  # type: ignore[attr-defined]
    soft = evaluate.chances(vp)
    expected = [
        (1 - evaluate.MARGIN) * r + evaluate.MARGIN * c for r, c in zip(end.returns(), soft, strict=True)
    ]
    assert evaluate.final(end) == pytest.approx(expected)
    assert sum(evaluate.final(end)) == pytest.approx(1.0)
    assert evaluate.MARGIN < 1  # a finished game still counts its result


def _every_player_count() -> list[tuple[str, int]]:
    out = []
    for game_id in ("mesopotamia", "mesopotamia-epochs", "mare-nostrum"):
        cls = type(ziggurat.load(game_id))
        out += [(game_id, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


@pytest.mark.parametrize(("game_id", "players"), _every_player_count())
def test_search_defaults_are_valid(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    defaults = search_defaults(game)
    keys = {"c", "plies", "batch", "confidence", "root", "width", "depth", "chance", "sync", "own"}
    assert set(defaults) <= keys
    searcher = Searcher(game, 0, ISMCTSConfig())
    assert searcher.root_mode in ROOTS
    assert searcher.width >= 2 and searcher.depth >= 1 and searcher.plies >= 0
    assert searcher.confidence >= 0 and searcher.batch >= 1 and searcher.rank_chance >= 0
    assert isinstance(defaults.get("sync", True), bool)
    # a default own-seat policy is one the game has (else making the bot would fail)
    assert defaults.get("own", "heuristic") in {"heuristic", *find_policies(game)}
    assert searcher.own == (None if defaults.get("own", "heuristic") == "heuristic" else defaults["own"])


def test_mare_nostrum_values_goods_of_different_types_for_the_pyramids() -> None:
    """The Pyramids cost 12 goods of 12 different types (2.9, N0.8.1): at the start of a buy
    phase, eleven goods of eleven types are one short of winning, eleven grain pay for little."""
    import random

    from ziggurat.engine.contract import CHANCE, sample_chance
    from ziggurat.games.mare_nostrum import data as D
    from ziggurat.games.mare_nostrum import evaluate

    game = ziggurat.load("mare-nostrum", players=4)
    bots = [make_bot("heuristic", game, s) for s in range(4)]
    state = game.new_initial_state()
    rng = random.Random(2)
    d = state.d  # type: ignore[attr-defined]
    while not (d["round"] >= 2 and d["stage"].startswith("buy_") and not d["buy"]["done"]):
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(bots[who].choose(state.view(who), state.legal_actions(), rng))
        assert not state.is_terminal()
        d = state.d  # type: ignore[attr-defined]
    # a seat paying by the common rule (not Hannibal's, which takes goods of one type)
    seat = next(s for s in range(4) if not {"hannibal", "cleopatra"} & set(d["tiles"][s]))
    distinct, same = state.clone(), state.clone()
    distinct.d["res"][seat] = dict.fromkeys(D.GOODS[:11], 1)  # type: ignore[attr-defined]
    same.d["res"][seat] = {"grain": 11}  # type: ignore[attr-defined]
    assert evaluate.evaluate(distinct)[seat] > evaluate.evaluate(same)[seat]
    twelve = state.clone()
    twelve.d["res"][seat] = dict.fromkeys(D.GOODS[:12], 1)  # type: ignore[attr-defined]
    assert evaluate.evaluate(twelve)[seat] > evaluate.evaluate(distinct)[seat]


def test_epochs_evaluator_counts_a_vp_lead_for_more_as_the_game_ends() -> None:
    """Ten VP more, all else equal: late in Epoch 5 the seat is the clear favourite (its odds
    multiplied by more than e^2.5); late in Epoch 1, with four Epochs of scoring and new
    Peoples ahead, the same lead counts for much less."""
    import math
    import random

    from ziggurat.engine.contract import CHANCE, sample_chance
    from ziggurat.games.mesopotamia_epochs import evaluate

    game = ziggurat.load("mesopotamia-epochs", players=2)
    bots = [make_bot("heuristic", game, s) for s in range(2)]
    state = game.new_initial_state()
    rng = random.Random(4)
    late: dict[int, object] = {}  # Epoch: its last People round with a decision
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if state.phase == "strategy":  # type: ignore[attr-defined]
            late[state.epoch] = state.clone()  # type: ignore[attr-defined]
        state.apply(bots[who].choose(state.view(who), state.legal_actions(), rng))

    def lead_gain(position: object) -> float:
        even = position.clone()  # type: ignore[attr-defined]
        even.vp = [max(even.vp)] * 2
        ahead = even.clone()
        ahead.vp[0] += 10
        p, q = evaluate.evaluate(even), evaluate.evaluate(ahead)
        assert q[0] > p[0]
        return math.log(q[0] / q[1]) - math.log(p[0] / p[1])

    assert lead_gain(late[5]) > 2.5
    assert lead_gain(late[1]) < 1.0


def _meso_with_deliveries(players: int) -> tuple[Any, Any]:
    return mid_game(
        "mesopotamia",
        players,
        120,
        where=lambda s: s.phase == "movement" and max(map(len, s.delivered)) >= 1,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mesopotamia_evaluator_measures_each_seat_and_values_it_as_documented(players: int) -> None:
    """Features per seat (points in deliveries, offerings delivered, who has the turn now and
    next, M1.1); a player count with fitted WEIGHTS gets their conditional logit at the
    stage (the most offerings delivered), the others the softmax of the points at T."""
    import math

    from ziggurat.games.mesopotamia import evaluate

    _, state = _meso_with_deliveries(players)
    s: Any = state
    ev = evaluate.make_evaluator()
    rows = ev.features(s)
    assert [len(r) for r in rows] == [len(evaluate.FEATURES)] * players
    to_move, after = s.turn_order[s.turn_idx], s.turn_order[(s.turn_idx + 1) % players]
    assert [r[2] for r in rows] == [float(seat == to_move) for seat in range(players)]
    expected_second = [float(seat == after) for seat in range(players)]
    assert [r[3] for r in rows] == expected_second
    assert [r[1] for r in rows] == [float(len(d)) for d in s.delivered]
    assert ev.points(s) == pytest.approx([r[0] * evaluate.POINT for r in rows])
    chances = ev(s)
    weights = evaluate.WEIGHTS.get(players)
    if weights is None:
        assert chances == pytest.approx(evaluate.chances(ev.points(s)))
    else:
        w = weights[max(len(d) for d in s.delivered)]
        z = [math.exp(sum(a * b for a, b in zip(w, r, strict=True))) for r in rows]
        assert chances == pytest.approx([v / sum(z) for v in z])
    assert sum(chances) == pytest.approx(1.0)


def test_mesopotamia_three_player_evaluator_favours_the_seat_about_to_move() -> None:
    """Fitted on heuristic self-play (docs/bots.md, "Playouts and evaluators"): the same
    board is worth more to a seat whose turn comes now than to it moving last (M1.1)."""
    from ziggurat.games.mesopotamia import evaluate

    _, state = _meso_with_deliveries(3)
    s: Any = state
    for seat in range(3):
        now, last = s.clone(), s.clone()
        now.turn_idx = s.turn_order.index(seat)
        last.turn_idx = (now.turn_idx + 1) % 3  # the seat then moves third
        assert evaluate.evaluate(now)[seat] > evaluate.evaluate(last)[seat]
