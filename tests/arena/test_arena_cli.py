"""``ziggurat tournament``: end to end, and every bad input is exit code 2 with nothing written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

ARGS = ["tournament", "mesopotamia-epochs", "--players", "heuristic,random,random", "--seed", "3"]


def invoke(args: list[str]) -> object:
    return CliRunner().invoke(app, args)


def test_small_tournament_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(app, [*ARGS, "--games", "5", "--jobs", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "rounded up to 6" in result.stdout
    assert "Standings: Mesopotamia: Epochs, 3 players" in result.stdout
    for text in ("heuristic", "random#1", "random#2", "95% CI", "avg place", "Plackett-Luce"):
        assert text in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "ratings.png", "records", "results.csv", "results.json", "summary.md", "winrate.png"
    ]  # fmt: skip
    assert len(list((out / "records").glob("game-*.json"))) == 6
    data = json.loads((out / "results.json").read_text())
    assert data["tournament"]["games"] == 6 and data["run"]["runner"] == "2 local processes"


def test_progress_bar_goes_to_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar is drawn on standard error (forced to count as a terminal here), so standings
    redirected to a file hold no bar."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    result = CliRunner().invoke(app, [*ARGS, "-n", "3", "--no-records", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    assert "tournament" in result.stderr and "Plackett-Luce" in result.stdout
    assert "tournament" not in result.stdout.lower()


def test_no_records(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [*ARGS, "-n", "3", "--no-records", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "t" / "records").exists() and (tmp_path / "t" / "results.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "chess", "-p", "random,random"], "unknown game 'chess'"),
        (["tournament", "mesopotamia", "-p", "random,wizard"], "bad bot spec 'wizard'"),
        (["tournament", "mesopotamia", "-p", "random,ismcts:fast"], "bad bot spec 'ismcts:fast'"),
        (["tournament", "mesopotamia", "-p", "random,random", "-n", "0"], "--games must be at least 1"),
        (["tournament", "mare-nostrum", "-p", "random,random"], "3 to 5 players"),
        (["tournament", "mesopotamia", "-p", "random,random", "-o", "nonsense=1"], "nonsense"),
        (["tournament", "mesopotamia", "-p", "random,random", "--jobs", "-1"], "--jobs"),
    ],
)
def test_bad_input_is_exit_2_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "ziggurat: error:" in result.stderr and message in result.stderr
    assert not out.exists()


def test_unwritable_or_used_out_is_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(app, [*ARGS, "-n", "3", "--out", str(blocker / "t")])
    assert result.exit_code == 2 and "not a writable directory" in result.stderr
    used = tmp_path / "used"
    used.mkdir()
    (used / "old.json").write_text("{}")
    result = CliRunner().invoke(app, [*ARGS, "-n", "3", "--out", str(used)])
    assert result.exit_code == 2 and "not empty" in result.stderr
    assert [p.name for p in used.iterdir()] == ["old.json"]


def test_ray_missing_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" raise ImportError
    out = tmp_path / "t"
    result = CliRunner().invoke(app, [*ARGS, "-n", "3", "--ray", "local", "--out", str(out)])
    assert result.exit_code == 2
    assert "pip install 'ziggurat[cluster]'" in result.stderr
    assert not out.exists()
