"""Tournaments: entrants, seat rotation, determinism, ratings, records, errors."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import ziggurat
from ziggurat.arena import (
    ArenaError,
    LocalRunner,
    Tournament,
    TournamentResult,
    balanced_games,
    parse_entrants,
    rate_games,
    results_data,
    run_tournament,
    summarize,
)
from ziggurat.arena import runner as arena_runner
from ziggurat.bots import RandomBot, make_bot

GAME = "mesopotamia-epochs"  # the game of the ``played`` fixture (conftest.py)


def comparable(result: TournamentResult) -> dict[str, Any]:
    """results.json without what depends on the machine (runner, timings) or the record files."""
    data = results_data(result)
    data.pop("run")
    for game in data["games"]:
        game.pop("seconds")
        game.pop("record")
    return data


def test_entrants_repeated_specs_are_numbered() -> None:
    names = [e.name for e in parse_entrants("heuristic, random,Heuristic,ismcts:200")]
    assert names == ["heuristic#1", "random", "heuristic#2", "ismcts:200"]
    assert [e.spec for e in parse_entrants(["random", "random"])] == ["random", "random"]
    for bad in ("", "random,,random", " , "):
        with pytest.raises(ArenaError, match="bad player list"):
            parse_entrants(bad)


def test_create_refuses_bad_input() -> None:
    with pytest.raises(ArenaError, match="unknown game 'chess'"):
        Tournament.create("chess", "random,random", games=2)
    with pytest.raises(ArenaError, match="bad bot spec 'wizard'"):
        Tournament.create(GAME, "random,wizard", games=2)
    with pytest.raises(ArenaError, match="at least 1"):
        Tournament.create(GAME, "random,random", games=0)
    with pytest.raises(ArenaError, match="3 to 5 players"):
        Tournament.create("mare-nostrum", "random,random", games=2)
    with pytest.raises(ArenaError, match="nonsense"):
        Tournament.create(GAME, "random,random", games=2, options={"nonsense": 1})


def test_rotation_puts_every_entrant_in_every_seat_equally() -> None:
    assert balanced_games(200, 3) == 201 and balanced_games(200, 4) == 200
    plan = Tournament.create("mesopotamia", "heuristic,random,random,random", games=10, balance=True)
    assert plan.games == 12
    assert plan.seating(0) == (0, 1, 2, 3)
    counts = [[0] * 4 for _ in range(4)]  # counts[entrant][seat]
    for i in range(plan.games):
        seating = plan.seating(i)
        assert sorted(seating) == [0, 1, 2, 3]
        for seat, entrant in enumerate(seating):
            counts[entrant][seat] += 1
    assert counts == [[3] * 4] * 4
    tasks = plan.tasks()
    assert [t.seed for t in tasks] == list(range(1, 13))
    assert tasks[1].names == ("random#1", "random#2", "random#3", "heuristic")


def test_played_games_follow_the_rotation(played: tuple[TournamentResult, Path]) -> None:
    result, out = played
    assert len(result.outcomes) == 9 and len(result.finished) == 9
    for st in result.standings:
        assert st.games == 9 and st.seat_games == [3, 3, 3]
    for o in result.outcomes:
        rec = json.loads((out / "records" / f"game-{o.index + 1:05d}.json").read_text())
        names = [result.tournament.entrants[e].name for e in result.tournament.seating(o.index)]
        assert rec["players"] == names and rec["seed"] == 5 + o.index
        assert rec["bots"] == [n.split("#")[0] for n in names]


def test_records_replay_the_games(played: tuple[TournamentResult, Path]) -> None:
    result, out = played
    for o in result.outcomes:
        rec = json.loads((out / "records" / f"game-{o.index + 1:05d}.json").read_text())
        state = ziggurat.replay(rec)
        assert state.fingerprint() == rec["final_fingerprint"]
        assert state.is_terminal() and state.returns() == o.returns == rec["result"]
        assert len(rec["actions"]) == o.plies
    # The record is the seeded game: the driver with the same bots and seed plays it again.
    o = result.outcomes[4]
    rec = json.loads((out / "records" / "game-00005.json").read_text())
    game = ziggurat.load(GAME, players=3)
    bots = [make_bot(spec, game, seat) for seat, spec in enumerate(rec["bots"])]
    again = ziggurat.bots.play_game(game, bots, o.seed)
    assert again.state.history() == rec["actions"]


def test_results_do_not_depend_on_jobs_or_arrival_order(played: tuple[TournamentResult, Path]) -> None:
    result, _ = played
    two = run_tournament(result.tournament, LocalRunner(2))
    assert comparable(two) == comparable(result)
    shuffled = list(result.outcomes)
    random.Random(3).shuffle(shuffled)
    assert comparable(summarize(result.tournament, shuffled)) == comparable(result)


def test_ratings_rank_the_strong_bot_first(played: tuple[TournamentResult, Path]) -> None:
    result, _ = played
    heuristic, *randoms = result.standings
    assert heuristic.win_rate > 0.5 > max(r.win_rate for r in randoms)
    assert heuristic.mu > 25 > max(r.mu for r in randoms)
    assert heuristic.average_place is not None and heuristic.average_place < 1.5
    assert all(st.sigma < 25 / 3 for st in result.standings)  # every game taught something
    history = result.ratings
    assert history.games == list(range(9)) and all(len(m) == 10 for m in history.mu)


def test_ratings_follow_game_order_and_ties() -> None:
    won = rate_games(2, [(0, (0, 1), [1.0, 0.0])])
    assert won.mu[0][-1] > 25 > won.mu[1][-1]
    tied = rate_games(2, [(0, (0, 1), [0.5, 0.5])])
    assert tied.mu[0][-1] == pytest.approx(tied.mu[1][-1])
    swapped = rate_games(2, [(0, (1, 0), [1.0, 0.0])])  # entrant 1 in seat 0 won
    assert swapped.mu[1][-1] > swapped.mu[0][-1]


class _Crashing(RandomBot):
    """Raises on its 10th decision."""

    def __init__(self, game: Any, seat: int) -> None:
        super().__init__(game, seat)
        self.calls = 0

    def choose(self, view: Any, legal: Sequence[str], rng: random.Random) -> str:
        self.calls += 1
        if self.calls == 10:
            raise RuntimeError("boom")
        return super().choose(view, legal, rng)


def test_errors_and_truncated_games_are_reported_not_counted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def fake_make_bot(spec: str, game: Any, seat: int) -> Any:
        return _Crashing(game, seat) if spec == "heuristic" else RandomBot(game, seat)

    monkeypatch.setattr(arena_runner, "make_bot", fake_make_bot)
    plan = Tournament.create(GAME, "heuristic,random", games=2)
    result = run_tournament(plan, LocalRunner(1), records_dir=tmp_path)
    assert len(result.errors) == 2 and not result.finished
    assert "RuntimeError: boom" in (result.errors[0].error or "")
    assert all(st.games == 0 and st.mu == 25 for st in result.standings)
    rec = json.loads((tmp_path / "game-00001.json").read_text())
    assert "boom" in rec["error"] and ziggurat.replay(rec).history() == rec["actions"]

    short = Tournament.create(GAME, "random,random", games=2, max_plies=5)
    cut = run_tournament(short)
    assert len(cut.truncated) == 2 and not cut.ratings.games
    assert all(o.plies == 5 for o in cut.outcomes)
