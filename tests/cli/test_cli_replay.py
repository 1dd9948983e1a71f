"""``ziggurat replay``: the log and final board when piped, stepping when interactive, --seat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_helpers import invoke, load, secret_lines


def test_piped_replay_prints_the_log_and_the_final_board(records: list[Path]) -> None:
    rec = load(records[0])
    result = invoke(["replay", str(records[0])])
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "as a spectator sees it" in out
    assert "plays first" in out
    plies = len(rec["actions"])
    assert re.search(rf"^ *{plies} ", out, re.M), "every ply is numbered, the last one too"
    assert f"Board at ply {plies}" in out
    assert "Tile piles" in out and "Your secret offerings" not in out
    assert secret_lines(out) == []  # a spectator is told no secret


@pytest.mark.slow
def test_seat_replay_is_redacted_for_that_seat(records: list[Path]) -> None:
    told_secrets = 0
    for path in records[:2]:
        rec = load(path)
        assert any(a.startswith("card ") for a in rec["actions"]), "fixture games draw cards"
        result = invoke(["replay", str(path), "--seat", "1"])
        assert result.exit_code == 0, result.output
        assert "as Yellow saw it" in result.stdout
        assert "Yellow (you)" in result.stdout and "Your secret offerings" in result.stdout
        for line in secret_lines(result.stdout):
            assert re.match(r"^ *(\d+ )?(· )?Yellow", line), line
            told_secrets += 1
    assert told_secrets, "Yellow is told its own secrets"


def test_replay_up_to_a_ply(records: list[Path]) -> None:
    result = invoke(["replay", str(records[1]), "--ply", "40", "--seat", "0"])
    assert result.exit_code == 0
    assert "Board at ply 40" in result.stdout
    assert not re.search(r"^ *41 ", result.stdout, re.M)


def test_interactive_stepping(records: list[Path]) -> None:
    result = invoke(["replay", str(records[0]), "--interactive"], stdin="\n\nb\n5\nxyz\nq\n")
    out = result.stdout
    assert result.exit_code == 0, result.output
    shown = re.findall(r"Ply (\d+) of", out)
    assert shown == ["0", "1", "2", "1", "5", "5"]
    assert "unknown command 'xyz'" in out


def test_replay_in_french(records: list[Path]) -> None:
    """--lang fr: the header, the step rules, the prompt's answers and the log read in French."""
    result = invoke(
        ["replay", str(records[0]), "--interactive", "--seat", "0", "--lang", "fr"], stdin="\nxyz\nq\n"
    )
    out = result.stdout
    assert result.exit_code == 0, result.output
    assert "Partie de Mésopotamie :" in out and "telle que Bleu l'a vue" in out
    assert re.findall(r"Coup (\d+) sur", out) == ["0", "1", "1"]
    assert "commande inconnue 'xyz'" in out
    assert "Ply " not in out and "record:" not in out


def test_bad_ply_and_seat(records: list[Path]) -> None:
    assert invoke(["replay", str(records[0]), "--ply", "999999"]).exit_code == 2
    assert invoke(["replay", str(records[0]), "--seat", "3"]).exit_code == 2


def test_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    result = invoke(["replay", str(path)])
    assert result.exit_code == 2
    assert "not a Ziggurat game record" in result.stderr
