"""``ziggurat games`` and the CLI's common error handling (exit code 2, one line, no traceback)."""

from __future__ import annotations

import pytest
from cli_helpers import invoke


def test_games_lists_registered_games_with_player_counts() -> None:
    result = invoke(["games"])
    assert result.exit_code == 0
    assert "mesopotamia" in result.stdout
    assert "Mesopotamia" in result.stdout
    assert "2-4" in result.stdout


def test_every_command_has_help() -> None:
    for command in ("games", "play", "simulate", "replay", "render", "bench"):
        result = invoke([command, "--help"])
        assert result.exit_code == 0, command
        assert "Usage" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["simulate", "nope", "--players", "random,random"], "unknown game 'nope'"),
        (["play", "mesopotamia", "--players", "human,robot"], "unknown player kind 'robot'"),
        (["simulate", "mesopotamia", "--players", "random"], "for 2 to 4 players"),
        (
            ["simulate", "mesopotamia", "--players", "random,random", "--option", "colour=1"],
            "unknown option 'colour'",
        ),
        (
            ["simulate", "mesopotamia", "--players", "random,random", "--option", "land_peek_count=many"],
            "land_peek_count",
        ),
        (["simulate", "mesopotamia", "--players", "random,random", "--option", "novalue"], "key=value"),
        (["replay", "/no/such/record.json"], "no such file"),
        (["render", "/no/such/record.json", "--out", "x.svg"], "no such file"),
        (["bench", "mesopotamia", "--players", "7"], "for 2 to 4 players"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ziggurat: error:")
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_option_values_are_json_when_they_parse() -> None:
    from ziggurat.cli.common import parse_options

    assert parse_options(["round_limit=3", "first_player=chosen", "x=[1, 2]", "y=true", "z=null"]) == {
        "round_limit": 3,
        "first_player": "chosen",
        "x": [1, 2],
        "y": True,
        "z": None,
    }
