"""Mare Nostrum: Empires in the terminal in French: ``ziggurat replay --lang fr`` tells a
recorded game in French, as a seat and as a spectator read it (section 7), and ``ziggurat play
--lang fr`` through a pipe tells the moves in French."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import ziggurat
from ziggurat.cli.main import app


def _record(tmp_path: Path) -> Path:
    state = ziggurat.load("mare-nostrum", players=3).new_initial_state()
    rng = random.Random(3)
    for _ in range(150):
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ziggurat.record(state, seed=3)), encoding="utf-8")
    return path


def test_replay_tells_the_game_in_french(tmp_path: Path) -> None:
    path = _record(tmp_path)
    result = CliRunner().invoke(app, ["replay", str(path), "--lang", "fr", "--seat", "0"])
    assert result.exit_code == 0, result.output
    out = result.stdout.split("Board at ply")[0]  # the told game; the board below is drawn in English
    assert "Empires distribués : " in out and "Début du tour 2" in out
    assert "offre un jeton " in out  # seat 0's own offers are named to it
    for english in ("Empires are dealt", "Round 2 begins", " offers ", " takes ", " is done with this step"):
        assert english not in out
    spectator = CliRunner().invoke(app, ["replay", str(path), "--lang", "fr"]).stdout
    assert "ajoute un jeton à son offre secrète" in spectator and "Offres révélées : " in spectator


def test_play_through_a_pipe_tells_the_moves_in_french() -> None:
    args = ["play", "mare-nostrum", "--players", "human,random,random", "--seed", "3", "--lang", "fr"]
    result = CliRunner().invoke(app, args, input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert (
        "Empires distribués : Rome à la place 1, Carthage à la place 2, la Grèce à la place 3"
        in result.stdout
    )
    assert "• Rome offre un jeton de céréales" in result.stdout
