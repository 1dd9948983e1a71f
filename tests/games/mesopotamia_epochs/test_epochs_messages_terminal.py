"""Mesopotamia: Epochs told in French in the terminal: ``ziggurat replay --lang fr`` and
``ziggurat play --lang fr`` (through a pipe) print the log from the game's catalogue, and the
text board after it is French too."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import ziggurat
from ziggurat.cli.main import app
from ziggurat.engine.records import record

GAME = "mesopotamia-epochs"


def _finished_record(tmp_path: Path) -> Path:
    state = ziggurat.load(GAME, players=2).new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "epochs.json"
    path.write_text(json.dumps(record(state, seed=5, players=["random", "random"])), encoding="utf-8")
    return path


def test_replay_in_french_tells_the_game_in_french(tmp_path: Path) -> None:
    path = _finished_record(tmp_path)
    english = CliRunner().invoke(app, ["replay", str(path), "--seat", "0"])
    french = CliRunner().invoke(app, ["replay", str(path), "--seat", "0", "--lang", "fr"])
    assert english.exit_code == 0 and french.exit_code == 0, french.output
    assert "Brooch is dealt the " in english.stdout and "Head is dealt a card" in english.stdout
    out = french.stdout.split("Plateau au coup")[0]  # the log, before the board
    assert "Broche reçoit les " in out and "Tête reçoit une carte" in out  # its own card only (E1.5)
    assert "La distribution de l'Époque 1 est terminée" in out and "Tour n° " in out
    assert "Partie terminée : " in out and " PV" in out
    for english_words in (" is dealt", " place a tribe", "Round #", " score ", "Game over:"):
        assert english_words not in out, english_words


def test_play_through_a_pipe_in_french() -> None:
    args = ["play", GAME, "--players", "human,random,random", "--seed", "3", "--lang", "fr"]
    result = CliRunner().invoke(app, args, input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Broche reçoit les Élamites" in result.stdout and "Tête reçoit une carte" in result.stdout
    assert "• Les Élamites placent une tribu à Ur" in result.stdout
