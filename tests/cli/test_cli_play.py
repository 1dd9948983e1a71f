"""``ziggurat play``: a human seat driven through stdin, bots, refusals, quitting, records."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cli_helpers import invoke, load

import ziggurat

PLAY = ["play", "mesopotamia", "--players", "human,random,random", "--seed", "3"]


def test_numbers_typed_actions_refusals_and_quit() -> None:
    result = invoke(PLAY, stdin="1\nmove b@9,9 9,8\nfrobnicate\n99\nhelp\nboard\n2\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, out
    # the board, from Blue's view: status, axial coordinates on tiles, players, Blue's secrets
    assert "Round 1 · Blue's turn · Phase I (movement)" in out
    for tile in (r"0,0 +TEM", r"1,-1 +PLA", r"-1,0 +FOR", r"-1,1 +QUA", r"0,-1 +VOL"):
        assert re.search(tile, out), tile
    assert "Blue (you)" in out and "Yellow (random)" in out
    assert "Your secret offerings in supply: 2, 4, 6, 7" in out
    # the legal actions, numbered and grouped by kind
    assert "move: step a tribe" in out and "  1 move b@1,-1 1,-2" in out
    # "1" applied the first listed action and told it as a sentence
    assert "Blue explores from 1,-1 towards 1,-2" in out
    # a typed action the engine refuses prints the engine's reason and asks again
    assert "refused: illegal: move b@9,9 9,8: a decision is pending" in out
    assert "refused: unknown action 'frobnicate'" in out
    assert "no action number 99" in out
    assert "board    draw the board again" in out  # help
    # "2" after the refusals chose pile 2, then the chance draw was told
    assert "Blue draws a tile from pile 2" in out
    assert "The tile is a" in out
    assert "Game left at ply" in out


def test_input_running_dry_leaves_the_game() -> None:
    result = invoke(PLAY, stdin="1\n")
    assert result.exit_code == 0
    assert "Game left at ply" in result.stdout


def test_same_seed_same_game() -> None:
    first = invoke(PLAY, stdin="1\n1\n1\nend\nquit\n").stdout
    second = invoke(PLAY, stdin="1\n1\n1\nend\nquit\n").stdout
    assert first == second


def test_bots_moves_are_told_and_redacted_for_the_human() -> None:
    """A human seat late in turn order watches the bots' first turns; nothing hidden is named."""
    result = invoke(
        ["play", "mesopotamia", "--players", "random,random,human", "--seed", "5"], stdin="quit\n"
    )
    out = result.stdout
    assert result.exit_code == 0
    assert "plays first" in out
    told = [line for line in out.splitlines() if line.startswith("  • ") or line.startswith("  · ")]
    assert told, out
    for line in told:
        if "draws a card:" in line or "offering worth" in line and "puts" in line:
            assert line[4:].startswith("Red"), line


def test_watching_bots_to_the_end_and_saving_the_record(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "mesopotamia", "--players", "random,random", "--seed", "2", "--option", "round_limit=3"]
    result = invoke([*args, "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert "no winner" in result.stdout
    rec = load(save)
    assert rec["players"] == ["random", "random"]
    assert rec["options"] == {"round_limit": 3}
    assert ziggurat.replay(rec).fingerprint() == rec["final_fingerprint"]


def test_refusals_and_sentences_in_french() -> None:
    """--lang fr: the game's sentences and the engine's refusals are read in French."""
    result = invoke([*PLAY, "--lang", "fr"], stdin="1\nmove b@9,9 9,8\nfrobnicate\nquit\n")
    out = result.stdout
    assert result.exit_code == 0, out
    assert "refusé : coup illégal : move b@9,9 9,8 :" in out
    assert "refusé : action inconnue" in out
    assert "refused:" not in out and "explores from" not in out
    # the terminal's own words too: the header, whose decision it is, leaving the game
    assert "Mésopotamie, 3 joueurs, graine 3 : Bleu = human, Jaune = random, Rouge = random" in out
    assert "À Bleu de décider" in out and "Partie quittée au coup" in out
    assert "to decide" not in out and "Game left" not in out


def test_an_unknown_language_is_a_usage_error() -> None:
    result = invoke([*PLAY, "--lang", "de"], stdin="quit\n")
    assert result.exit_code == 2
    assert "--lang de: languages are en, fr" in result.output


def test_leaving_the_game_is_told_on_a_line_of_its_own() -> None:
    """A "quit" read from a real pipe is not echoed, and Ctrl-D (input running dry) leaves the
    prompt's line open: the farewell starts a new line either way."""
    cli = "import sys; from ziggurat.cli.main import app; sys.argv[0] = 'ziggurat'; app()"
    for stdin in ("quit\n", ""):
        run = subprocess.run(
            [sys.executable, "-c", cli, *PLAY], input=stdin, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stderr
        assert re.search(r"^Game left at ply \d+\.$", run.stdout, re.M), run.stdout[-200:]
        assert "> Game left" not in run.stdout
