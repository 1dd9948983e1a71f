"""The terminal tells the game in the reader's language: ``ziggurat play`` and ``ziggurat
replay`` with ``--lang fr`` print every log sentence in French (rules spec §6 redaction kept)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from ziggurat.cli.main import app

BOTS = ["--players", "heuristic,heuristic", "--seed", "3"]


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _log(out: str) -> list[str]:
    """The told sentences: lines marked • (chosen) or · (forced)."""
    return [line for line in out.splitlines() if line.lstrip().startswith(("• ", "· "))]


def test_play_through_a_pipe_tells_the_game_in_french() -> None:
    english = _log(_run(["play", "mesopotamia", *BOTS]))
    french = _log(_run(["play", "mesopotamia", *BOTS, "--lang", "fr"]))
    assert len(french) == len(english) > 100
    assert all(fr != en for fr, en in zip(french, english, strict=True))
    assert french[0].strip() == "• Bleu commence (ordre du tour : Bleu, Jaune)"
    assert re.fullmatch(
        r"• (Bleu|Jaune) a livré toutes ses offrandes et gagne la partie \(M16\.1\)", french[-1].strip()
    )


def test_replay_as_a_seat_in_french(tmp_path: Path) -> None:
    _run(["simulate", "mesopotamia", "--games", "1", *BOTS, "--out", str(tmp_path)])
    (record,) = tmp_path.glob("game-*.json")
    out = _run(["replay", str(record), "--seat", "1", "--lang", "fr"])
    assert "Jaune pioche une carte : " in out  # Yellow's own card, named (§6)
    assert "Bleu pioche une carte : " not in out and "Bleu pioche une carte" in out
    assert "gagne la partie (M16.1)" in out
    assert " moves a tribe " not in out and " draws a card" not in out
