"""``ziggurat simulate``: seeded games, same table for any --jobs, records, counted errors."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import invoke, load

import ziggurat
from ziggurat.bots import RandomBot
from ziggurat.cli import simulate as sim

ARGS = ["simulate", "mesopotamia", "--games", "4", "--players", "random,random,random", "--seed", "7",
        "--max-plies", "400"]  # fmt: skip


def test_jobs_do_not_change_the_table() -> None:
    one = invoke([*ARGS, "--jobs", "1"])
    two = invoke([*ARGS, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert "Wins per seat" in one.stdout and "95% CI" in one.stdout
    assert "not finished (hit --max-plies)" in one.stdout
    assert one.stdout == two.stdout


def test_out_writes_records_that_replay(tmp_path: Path) -> None:
    result = invoke([*ARGS, "--jobs", "2", "--out", str(tmp_path / "runs")])
    assert result.exit_code == 0, result.output
    paths = sorted((tmp_path / "runs").glob("*.json"))
    assert [p.name for p in paths] == [f"game-0000{i}.json" for i in range(1, 5)]
    for i, path in enumerate(paths):
        rec = load(path)
        assert rec["seed"] == 7 + i
        assert rec["players"] == ["random", "random", "random"]
        assert len(rec["actions"]) == 400
        assert ziggurat.replay(rec).fingerprint() == rec["final_fingerprint"]


def test_game_i_is_the_seeded_game_seed_plus_i(tmp_path: Path) -> None:
    invoke([*ARGS, "--out", str(tmp_path)])
    game = ziggurat.load("mesopotamia", players=3)
    bots = [RandomBot(game, s) for s in range(3)]
    result = ziggurat.bots.play_game(game, bots, seed=9, max_plies=400)
    assert load(tmp_path / "game-00003.json")["actions"] == result.state.history()


class _Crashing(RandomBot):
    """A bot that raises on its 30th decision, to exercise error counting."""

    def __init__(self, game: Any, seat: int) -> None:
        super().__init__(game, seat)
        self.calls = 0

    def choose(self, view: Any, legal: Sequence[str], rng: random.Random) -> str:
        self.calls += 1
        if self.calls == 30:
            raise RuntimeError("bot exploded")
        return super().choose(view, legal, rng)


def test_errors_are_counted_with_the_first_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def make(kind: str, game: Any, seat: int) -> Any:
        return _Crashing(game, seat) if seat == 1 else RandomBot(game, seat)

    monkeypatch.setattr(sim, "make_bot", make)
    result = invoke([*ARGS, "--jobs", "1"])
    assert result.exit_code == 1
    assert "First error: game 1 (seed 7)" in result.stdout
    assert "RuntimeError: bot exploded" in result.stdout
    assert re.search(r"│ errors +│ +4 │", result.stdout), result.stdout


def test_wilson_interval() -> None:
    lo, hi = sim.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    assert sim.wilson(0, 10)[0] == 0.0
    assert sim.wilson(0, 0) == (0.0, 1.0)


def test_table_counts_wins_per_seat() -> None:
    outcomes = [
        sim.Outcome(0, 1, [1.0, 0.0], plies=10, rounds=2, finished=True),
        sim.Outcome(1, 2, [0.0, 1.0], plies=20, rounds=4, finished=True),
        sim.Outcome(2, 3, [0.0, 1.0], plies=30, rounds=6, finished=True),
        sim.Outcome(3, 4, [0.0, 0.0], plies=99, finished=False),
        sim.Outcome(4, 5, error="Traceback ..."),
    ]
    assert [o.winner for o in outcomes] == [0, 1, 1, None, None]
    wins, summary = sim.results_tables(outcomes, ["random", "heuristic"], ["blue", "yellow"])
    assert list(wins.columns[3].cells) == ["1", "2"]
    plies = list(summary.columns[1].cells)
    assert plies[:5] == ["5", "3", "0", "1", "1"]
    assert "20.0" in plies  # average plies of finished games


def test_progress_bar_goes_to_stderr_so_piped_results_stay_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    """With output redirected to a file, the bar still shows: it is drawn on standard error
    (forced to count as a terminal here), and standard output holds the tables only."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    result = invoke(ARGS)
    assert result.exit_code == 0, result.output
    assert "simulating" in result.stderr
    assert "simulating" not in result.stdout
    assert "Wins per seat" in result.stdout
