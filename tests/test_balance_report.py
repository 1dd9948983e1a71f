"""Mare Nostrum's balance report is what ``benchmarks/balance.py`` measured: the "Balance"
section of docs/mare-nostrum.md is the rendering of the stored results, never typed by hand, and
the rendering shows every stored row (wins by empire and by victory condition per row)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _balance() -> ModuleType:
    spec = importlib.util.spec_from_file_location("balance", ROOT / "benchmarks" / "balance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["balance"] = module  # its dataclass looks its module up while being made
    spec.loader.exec_module(module)
    return module


def test_the_docs_section_is_the_rendering_of_the_stored_results() -> None:
    balance = _balance()
    rows = json.loads((ROOT / "benchmarks" / "results" / "mare-nostrum-balance.json").read_text("utf-8"))
    doc = (ROOT / "docs" / "mare-nostrum.md").read_text(encoding="utf-8")
    assert balance.BEGIN in doc and balance.END in doc
    section = doc.split(balance.BEGIN, 1)[1].split(balance.END, 1)[0].strip("\n")
    assert section == balance.render(rows)


def test_the_stored_rows_cover_3_4_and_5_players_before_and_after_with_300_games() -> None:
    rows = json.loads((ROOT / "benchmarks" / "results" / "mare-nostrum-balance.json").read_text("utf-8"))
    heuristic = {(r["label"], r["players"]) for r in rows if r["bot"] == "heuristic"}
    assert heuristic == {(label, n) for label in ("before", "after") for n in (3, 4, 5)}
    for r in rows:
        assert r["games"] >= 300 and r["finished"] == r["games"] and not r["errors"], r
        assert sum(r["wins_by_condition"].values()) == r["finished"]


def test_write_doc_replaces_the_section_and_keeps_the_rest(tmp_path: Path) -> None:
    balance = _balance()
    doc = tmp_path / "doc.md"
    doc.write_text("# Title\n\nText before.\n", encoding="utf-8")
    row = {
        "label": "after",
        "bot": "heuristic",
        "ismcts_seats": "",
        "players": 3,
        "games": 2,
        "finished": 2,
        "errors": [],
        "wins_by_empire": {"carthage": 1.5, "rome": 0.5},
        "wins_by_condition": {"titles": 2},
        "searcher_games_by_empire": {},
        "searcher_wins_by_empire": {},
        "average_rounds": 4.0,
        "cpu_seconds_per_game": 0.1,
        "commit": "abc1234",
    }
    balance.write_doc([row], doc)
    first = doc.read_text(encoding="utf-8")
    assert first.startswith("# Title\n\nText before.\n\n## Balance\n")
    assert "| after | heuristic | 3 | 2 | carthage 1.5 (75%), rome 0.5 (25%) | titles 2 (100%) |" in first
    balance.write_doc([{**row, "commit": "def5678"}], doc)
    second = doc.read_text(encoding="utf-8")
    assert second.count("## Balance") == 1 and "def5678" in second and "abc1234" not in second


def test_a_row_goes_on_from_the_games_kept_by_an_interrupted_run(tmp_path: Path) -> None:
    balance = _balance()
    results = tmp_path / "results.json"
    args = ["--label", "t", "--games", "2", "--players", "3", "--workers", "1", "--results", str(results)]
    # a run stopped after its first game kept it (here marked, to see it is reused, not replayed)
    first = balance._play((3, 1, "heuristic", "one"))
    first.how = "kept"
    partial = balance.partial_path(results, "t", "heuristic", "one", 3)
    partial.parent.mkdir(parents=True)
    commit = balance._commit(ROOT / "src" / "ziggurat")
    partial.write_text(json.dumps({**first.__dict__, "commit": commit}) + "\n", encoding="utf-8")
    assert balance.main(args) == 0
    (row,) = json.loads(results.read_text(encoding="utf-8"))
    assert row["games"] == 2 and row["finished"] == 2 and row["seeds"] == [1, 2]
    assert row["wins_by_condition"].get("kept") == 1
    assert not partial.exists()  # the row is stored: nothing left to go on from


def test_games_kept_by_other_code_are_not_mixed_into_a_row(tmp_path: Path) -> None:
    balance = _balance()
    results = tmp_path / "results.json"
    partial = balance.partial_path(results, "t", "heuristic", "one", 3)
    partial.parent.mkdir(parents=True)
    kept = {**balance.Game1(seed=1, players=3).__dict__, "commit": "0000000"}
    partial.write_text(json.dumps(kept) + "\n", encoding="utf-8")
    args = ["--label", "t", "--games", "2", "--players", "3", "--workers", "1", "--results", str(results)]
    with pytest.raises(SystemExit, match="other code"):
        balance.main(args)
    assert not results.exists()


def test_a_partial_file_restored_while_a_row_runs_still_gets_the_next_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file of kept games is opened for each game: a copy put in its place between two
    games (a version control restore) gets the next game, which a file kept open would miss."""
    balance = _balance()
    results = tmp_path / "results.json"
    partial = balance.partial_path(results, "t", "heuristic", "one", 3)
    played: list[int] = []

    def play(job: tuple[int, int, str, str]) -> object:
        if played:  # between two games: the file is replaced by a copy of itself
            text = partial.read_text(encoding="utf-8")
            partial.unlink()
            partial.write_text(text, encoding="utf-8")
        if len(played) == 2:
            raise KeyboardInterrupt  # the run is stopped before its third game
        played.append(job[1])
        return balance.Game1(seed=job[1], players=3)

    monkeypatch.setattr(balance, "_play", play)
    args = ["--label", "t", "--games", "3", "--players", "3", "--workers", "1", "--results", str(results)]
    with pytest.raises(KeyboardInterrupt):
        balance.main(args)
    kept = [json.loads(line)["seed"] for line in partial.read_text(encoding="utf-8").splitlines()]
    assert kept == [1, 2] and not results.exists()
