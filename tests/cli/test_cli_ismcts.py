"""``play`` and ``simulate`` accept ISMCTS bot specs (docs/bots.md) and refuse malformed ones."""

from __future__ import annotations

import pytest
from cli_helpers import invoke

FAST = "ismcts:3:rollout=random:plies=0"


def test_simulate_with_an_ismcts_seat() -> None:
    result = invoke(
        ["simulate", "mesopotamia-epochs", "--games", "1", "--players", f"{FAST},random", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    assert FAST in result.stdout and "errors" in result.stdout


def test_play_with_ismcts_bots_only() -> None:
    result = invoke(["play", "mesopotamia-epochs", "--players", f"random,{FAST}", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("ismcts:fast,random", "bad bot spec 'ismcts:fast'"),
        ("ismcts:1s:workers=0,random", "workers must be a whole number from 1"),
        ("robot,random", "unknown player kind 'robot'"),
    ],
)
def test_bad_specs_are_usage_errors(command: str, players: str, message: str) -> None:
    result = invoke([command, "mesopotamia", "--players", players])
    assert result.exit_code == 2
    assert message in result.stderr


def test_help_names_the_spec_syntax() -> None:
    for command in ("play", "simulate"):
        text = " ".join(invoke([command, "--help"]).stdout.split())
        assert "ismcts[:BUDGET][:OPTION=VALUE...]" in text and "workers=N" in text
