"""``ziggurat bench``: the shape of what it prints and writes (nothing is asserted on timing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import invoke

import ziggurat
from ziggurat.engine.registry import game_class

FIGURES = ("decisions", "apply", "legal_actions", "clone")


def test_bench_prints_a_row_per_player_count_beside_chess(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = invoke(["bench", "mesopotamia", "--seconds", "0.01", "--json", str(out)])
    assert result.exit_code == 0, result.output
    for column in ("game", "players", "decisions/s", "apply/s", "legal_actions/s", "clone/s"):
        assert column in result.stdout
    assert "chess" in result.stdout and "ours / chess" in result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["clock"] == "process_time" and report["seconds"] == 0.01 and len(report["load"]) == 3
    assert [r["players"] for r in report["results"]] == [2, 3, 4]
    chess = report["chess"]
    assert chess["subject"] == "chess (OpenSpiel)" and chess["played"] > 0
    for row in report["results"]:
        assert row["subject"] == "Mesopotamia" and row["played"] > 0 and row["games"] >= 1
        for name in FIGURES:
            assert row[name] > 0
            assert row["ratio"][name] == pytest.approx(row[name] / chess[name])
    assert report["heuristic"] == []


@pytest.mark.slow
def test_bench_all_measures_every_game_at_every_count(tmp_path: Path) -> None:
    out = tmp_path / "all.json"
    result = invoke(["bench", "all", "--seconds", "0.01", "--no-chess", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    want = [(game_class(g).name, n) for g in ziggurat.games()
            for n in range(game_class(g).min_players, game_class(g).max_players + 1)]  # fmt: skip
    assert [(r["subject"], r["players"]) for r in report["results"]] == want
    assert report["chess"] is None
    assert all(row["ratio"] == {} for row in report["results"])


def test_bench_heuristic_line_is_an_option() -> None:
    result = invoke(
        ["bench", "mesopotamia", "-p", "2", "-t", "0.01", "--no-chess", "--heuristic", "--max-plies", "30"]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic game" in result.stdout and "stopped at --max-plies 30" in result.stdout
    assert "chess" not in result.stdout


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["bench", "chess"], "unknown game 'chess'"),
        (["bench", "mesopotamia", "-p", "7"], "mesopotamia is for 2 to 4 players"),
        (["bench", "all", "-p", "3"], "--option and --players need one game"),
    ],
)
def test_bench_usage_errors(args: list[str], error: str) -> None:
    result = invoke([*args, "-t", "0.01", "--no-chess"])
    assert result.exit_code == 2
    assert error in result.output
