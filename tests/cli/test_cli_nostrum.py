"""The CLI commands on Mare Nostrum: Empires (``mare-nostrum``, 3 to 5 players): play through a
pipe, simulate, replay, render and bench find the game's board, map and sentences through the
registry as for the other games. Bots are ``random`` only."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import invoke, load

import ziggurat
from ziggurat.bots import RandomBot
from ziggurat.cli import bench
from ziggurat.games.mare_nostrum import data as D

GAME = "mare-nostrum"
SVG = "{http://www.w3.org/2000/svg}"
PLAY = ["play", GAME, "--players", "human,random,random", "--seed", "3"]
SIM = ["simulate", GAME, "--games", "3", "--players", "random,random,random", "--seed", "7"]
GOODS = r"(grain|sheep|wine|oil|metal|timber|marble|gems|gold|perfume|papyrus|pottery|gladiators)"


@pytest.fixture(scope="module")
def nostrum_records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("nostrum")
    result = invoke([*SIM, "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return sorted(out.glob("game-*.json"))


def test_play_numbers_typed_actions_refusals_and_quit() -> None:
    result = invoke(PLAY, stdin="1\nbuy legion latium\nfrobnicate\n99\nhelp\nboard\n2\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Mare Nostrum: Empires, 3 players, seed 3" in out
    assert "Empires are dealt: Rome to seat 1, Carthage to seat 2, Greece to seat 3" in out
    assert "Mare Nostrum: Empires  round 1  trade: secret offers  to decide: Rome" in out
    assert "Your screen grain x1, metal x3" in out  # seat 0's own screen, and only that one
    assert out.count("Your screen") >= 2
    assert "offer: your secret offer" in out and "  1 offer grain" in out
    assert "• Rome offers grain" in out  # "1"
    flat = " ".join(out.split())
    assert "refused: 'buy legion latium' is not legal now (N2.3" in flat
    assert "refused: unknown action 'frobnicate'" in out
    assert "no action number 99: choose 1 to 5" in out
    assert "Notation (docs/mare-nostrum.md)" in out
    assert "• Rome offers oil" in out  # "2" after the refusals
    assert "Game left at ply" in out
    for line in out.splitlines():
        assert len(line) <= 100


def test_simulate_jobs_do_not_change_the_table() -> None:
    one = invoke([*SIM, "--jobs", "1"])
    two = invoke([*SIM, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert "Mare Nostrum: Empires: 3 games" in one.stdout and "Wins per seat" in one.stdout
    assert re.search(r"│ finished +│ +3 │", one.stdout)
    assert one.stdout == two.stdout


def test_replay_piped_as_spectator_and_as_a_seat(nostrum_records: list[Path]) -> None:
    rec = load(nostrum_records[0])
    result = invoke(["replay", str(nostrum_records[0])])
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "Mare Nostrum: Empires record" in out and "as a spectator sees it" in out
    plies = len(rec["actions"])
    assert f"Board at ply {plies}" in out and "game over" in out
    assert "Your screen" not in out
    assert "adds a token to its secret offer" in out and "Offers revealed:" in out
    assert not re.search(rf"draws a legendary {GOODS}", out)  # a spectator never sees a draw
    result = invoke(["replay", str(nostrum_records[1]), "--seat", "1", "--ply", "60"])
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "Board at ply 60" in out and "Your screen" in out
    names = [
        str(D.EMPIRES[e]["name"])
        for e in ziggurat.replay(load(nostrum_records[1]), upto=60).view(1)["empires"]
    ]
    assert re.search(names[1] + r" offers (tax|" + GOODS + ")", out)  # its own offers, named
    assert not re.search(rf"({names[0]}|{names[2]}) keeps " + GOODS, out)


def test_render_a_record_and_a_position(nostrum_records: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    result = invoke(["render", str(nostrum_records[0]), "--ply", "200", "--seat", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    state = ziggurat.replay(load(nostrum_records[0]), upto=200)
    drawn = {g.get("id") for g in root.iter(f"{SVG}g") if g.get("class") == "province"}
    assert drawn == {f"p-{p}" for p in state.game.board.provinces}  # type: ignore[attr-defined]
    assert any(t.get("class") == "secrets" for t in root.iter(f"{SVG}text"))


def test_render_a_raw_position(nostrum_records: list[Path], tmp_path: Path) -> None:
    """A position file is ``state.to_position()`` as it is: its header names the game and count."""
    state = ziggurat.replay(load(nostrum_records[0]), upto=150)
    position = state.to_position()
    assert position["format"] == f"ziggurat-position/{GAME}/1" and position["num_players"] == 3
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(position))
    result = invoke(["render", str(pos), "--seat", "1", "--out", str(tmp_path / "pos.svg")])
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "pos.svg").getroot()
    assert root.tag == f"{SVG}svg"
    drawn = {g.get("id") for g in root.iter(f"{SVG}g") if g.get("class") == "province"}
    assert drawn == {f"p-{p}" for p in state.game.board.provinces}  # type: ignore[attr-defined]
    assert (
        "--ply applies to records"
        in invoke(["render", str(pos), "--ply", "3", "--out", str(tmp_path / "x.svg")]).output
    )
    pos.write_text(json.dumps({**position, "num_players": 4}))
    result = invoke(["render", str(pos), "--out", str(tmp_path / "bad.svg")])
    assert result.exit_code != 0 and "header says 4 players but its state is for 3" in result.output


def test_bench_prints_its_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    def make(kind: str, game: Any, seat: int) -> Any:  # random bots only
        return RandomBot(game, seat)

    monkeypatch.setattr(bench, "make_bot", make)
    result = invoke(
        [
            "bench",
            GAME,
            "--seconds",
            "0.05",
            "--players",
            "4",
            "--max-plies",
            "200",
            "--heuristic",
            "--no-chess",
        ]
    )
    assert result.exit_code == 0, result.output
    for measure in ("Mare Nostrum: Empires", "decisions/s", "clone/s", "heuristic game"):
        assert measure in result.stdout


def test_simulate_shows_which_empires_and_victories_win() -> None:
    """The simulate table tells which empires and which victory conditions win."""
    from ziggurat.cli.simulate import Job, run_one

    result = invoke(
        ["simulate", GAME, "--games", "3", "--players", "heuristic,heuristic,heuristic", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "How the games were won" in result.output
    assert "winning empire" in result.output and "victory" in result.output
    for seed in (3, 4, 5):
        out = run_one(Job(GAME, 3, {}, ("heuristic",) * 3, seed - 3, seed, 100_000, None))
        assert out.facets["winning empire"] in {"rome", "greece", "carthage", "egypt", "babylon"}
        assert out.facets["victory"] in {"pyramids", "heroes_wonders", "capitals", "titles", "other"}
        assert out.facets["winning empire"] in result.output
