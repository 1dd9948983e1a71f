"""The CLI commands on Mesopotamia: Epochs (``mesopotamia-epochs``, 2 to 5 players): play through
a pipe, simulate, replay, render and bench find the game's board, map and sentences through
the registry exactly as for Mesopotamia. Bots are ``random`` (the heuristic one is the game's own)."""

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
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_PEOPLES

GAME = "mesopotamia-epochs"
SVG = "{http://www.w3.org/2000/svg}"
PLAY = ["play", GAME, "--players", "human,random,random", "--seed", "3"]
SIM = ["simulate", GAME, "--games", "4", "--players", "random,random,random", "--seed", "7"]
PEOPLE = "|".join(DEFAULT_PEOPLES.names)


@pytest.fixture(scope="module")
def epochs_records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("epochs")
    result = invoke([*SIM, "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return sorted(out.glob("game-*.json"))


def test_play_numbers_typed_actions_refusals_and_quit() -> None:
    result = invoke(PLAY, stdin="1\nplace kaldu\nfrobnicate\n99\nhelp\nboard\n2\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "Mesopotamia: Epochs, 3 players, seed 3: Brooch = human, Head = random, Mask = random" in out
    # the start is told from Brooch's seat: its own card named, the others' not
    assert "Brooch is dealt the Elamites" in out and "Head is dealt a card" in out
    assert "Round #2: the Elamites (Brooch), enter at Elam" in out
    # the board from Brooch's view: status, the map by region, the VP track, the Peoples
    assert "Epoch 1 of 5 · Strategy · round #2: the Elamites (Brooch) · pool 4 · Brooch to decide" in out
    assert re.search(r"^Elam +Elamites B +●(?!●)", out, re.M)
    assert "Brooch (you)" in out and "Head (random)" in out
    assert "place: place the next tribe" in out and "  1 place ur" in out
    # "1" placed into Ur; a refused typed action shows the engine's reason, with its rule
    assert "• The Elamites place a tribe in Ur" in out
    flat = " ".join(out.split())  # long messages wrap at 100 columns
    assert "refused: illegal: place kaldu: Kaldu is a desert" in flat and "(E11.2, R21)" in flat
    assert "refused: unknown action 'frobnicate'" in out
    assert "no action number 99: choose 1 to 8" in out
    assert "Notation (docs/mesopotamia-epochs.md)" in out  # help
    assert "• The Elamites place a tribe in Uruk" in out  # "2" after the refusals
    assert "Game left at ply 5." in out


def test_play_bots_to_the_end_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = invoke(["play", GAME, "--players", "random,random", "--seed", "2", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert re.search(r"(Brooch|Head)( and Head)? wins after \d+ plies", result.stdout)
    rec = load(save)
    assert rec["game"] == GAME and rec["players"] == ["random", "random"]
    assert ziggurat.replay(rec).fingerprint() == rec["final_fingerprint"]


def test_simulate_jobs_do_not_change_the_table() -> None:
    one = invoke([*SIM, "--jobs", "1"])
    two = invoke([*SIM, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert "Mesopotamia: Epochs: 4 games" in one.stdout and "Wins per seat" in one.stdout
    assert re.search(r"│ finished +│ +4 │", one.stdout)
    assert one.stdout == two.stdout


def test_replay_piped_prints_log_and_final_board(epochs_records: list[Path]) -> None:
    rec = load(epochs_records[0])
    result = invoke(["replay", str(epochs_records[0])])
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "Mesopotamia: Epochs record" in out and "as a spectator sees it" in out
    plies = len(rec["actions"])
    assert re.search(rf"^ *{plies} ", out, re.M)
    assert f"Board at ply {plies}" in out
    assert "Epoch 5 of 5 · Game over: " in out and "Your secrets" not in out
    # a spectator is never told a card before it is face up
    assert not re.search(rf"(is dealt|draws|keeps|passes) the ({PEOPLE})\b", out)
    assert "is dealt a card" in out


def test_replay_for_a_seat_tells_only_its_own_cards(epochs_records: list[Path]) -> None:
    result = invoke(["replay", str(epochs_records[1]), "--seat", "1", "--ply", "60"])
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "as Head saw it" in out and "Board at ply 60" in out and "Head (you)" in out
    told = re.findall(rf"(\w+) (?:is dealt|draws|keeps|passes) the ({PEOPLE})\b", out)
    assert told and {who for who, _ in told} == {"Head"}


def test_render_a_record_and_a_position(epochs_records: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    result = invoke(["render", str(epochs_records[0]), "--ply", "80", "--seat", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    state = ziggurat.replay(load(epochs_records[0]), upto=80)
    drawn = {
        g.get("data-area"): g.get("data-tribes") for g in root.iter(f"{SVG}g") if g.get("class") == "area"
    }
    for area, _people, count in state.view(2)["areas"]:
        assert drawn[area] == str(count)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(state.to_position()))
    result = invoke(["render", str(pos), "--out", str(tmp_path / "pos.svg")])
    assert result.exit_code == 0, result.output
    assert ET.parse(tmp_path / "pos.svg").getroot().tag == f"{SVG}svg"


def test_bench_prints_its_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    def make(kind: str, game: Any, seat: int) -> Any:  # the heuristic bot is timed elsewhere
        return RandomBot(game, seat)

    monkeypatch.setattr(bench, "make_bot", make)
    result = invoke(
        [
            "bench",
            GAME,
            "--seconds",
            "0.05",
            "--players",
            "5",
            "--max-plies",
            "200",
            "--heuristic",
            "--no-chess",
        ]
    )
    assert result.exit_code == 0, result.output
    for measure in ("Mesopotamia: Epochs", "decisions/s", "clone/s", "heuristic game"):
        assert measure in result.stdout
