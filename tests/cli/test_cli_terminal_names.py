"""The terminal names players as their game does: by colour (Mesopotamia), by symbol (Epochs),
by empire once dealt (Mare Nostrum), in prompts, the player to decide, results and replay
headers, in English and French; a seat across many games (``simulate``) is ``seat 1``."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import invoke

from ziggurat.engine.messages import message, render

EMPIRES = "Rome|Greece|Carthage|Egypt|Babylon"


def test_mesopotamia_prompt_and_turn_by_colour_in_french() -> None:
    args = ["play", "mesopotamia", "-p", "human,random,random", "--seed", "3", "--lang", "fr"]
    result = invoke(args, stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert "À Bleu de décider" in result.stdout
    assert "Bleu> " in result.stdout and "blue>" not in result.stdout


def test_epochs_prompt_by_symbol() -> None:
    result = invoke(
        ["play", "mesopotamia-epochs", "-p", "human,random,random", "--seed", "2"], stdin="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Brooch to decide" in result.stdout and "Brooch> " in result.stdout


def test_mare_nostrum_prompt_and_turn_by_empire() -> None:
    args = ["play", "mare-nostrum", "-p", "human,random,random", "--seed", "1"]
    result = invoke(args, stdin="1\n" * 6 + "quit\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    prompts = re.findall(rf"^({EMPIRES})> ", out, re.MULTILINE)
    assert prompts and len(set(prompts)) == 1  # seat 0's empire, every time it decides
    assert f"{prompts[0]} to decide" in out
    assert "seat 0>" not in out and "Seat 1 to decide" not in out
    assert not re.search(r"^0 human", out, re.MULTILINE)  # the empires table: a role, no seat number
    french = invoke([*args, "--lang", "fr"], stdin="quit\n").stdout
    assert re.search(r"À (la |l')?\w+ de décider", french)


def test_replay_header_names_empires(tmp_path: Path) -> None:
    sim = [
        "simulate",
        "mare-nostrum",
        "-n",
        "1",
        "-p",
        "random,random,random",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
    ]
    assert invoke(sim).exit_code == 0
    result = invoke(["replay", str(tmp_path / "game-00001.json"), "--ply", "0", "--seat", "1"])
    assert result.exit_code == 0, result.output
    header = " ".join(" ".join(result.stdout.splitlines()[:3]).split())  # the header wraps at 100
    assert len(re.findall(rf"\b({EMPIRES}) = random", header)) == 3, header
    assert re.search(rf"as ({EMPIRES}) saw it", header), header
    assert "Seat 1" not in header


def test_simulate_names_a_seat_across_games_from_one() -> None:
    result = invoke(["simulate", "mesopotamia-epochs", "-n", "1", "-p", "random,random,random"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"seat 1 +│ Brooch +│ random", out) and re.search(r"seat 3 +│ Mask", out)
    assert ": 1 game," in out
    nostrum = invoke(["simulate", "mare-nostrum", "-n", "1", "-p", "random,random,random"]).stdout
    assert re.search(r"seat 1 +│ random", nostrum)  # no name: the empires change from game to game


def test_several_winners_take_a_plural_verb() -> None:
    two = message("cli.wins", winners="Red and Blue", count=2, plies=80, returns="[1, 1, 0]")
    assert two == "Red and Blue win after 80 plies (returns [1, 1, 0])"
    one = message("cli.wins", winners="Red", count=1, plies=80, returns="[1, 0, 0]")
    assert one == "Red wins after 80 plies (returns [1, 0, 0])"
    assert render(two, "fr").startswith("Red and Blue gagnent")
    won = message("cli.replay.won", winners="Rouge et Bleu", count=2)
    assert render(won, "fr") == "Rouge et Bleu ont gagné"
