"""Every ``--help`` speaks of the game it is given, or of all three games: no command's help
names one game only, unless the command is about that game (none is today); the commands
that take a game give an example per game."""

from __future__ import annotations

import re

import pytest
from cli_helpers import invoke

from ziggurat.cli.main import COMMANDS as LISTED

COMMANDS = sorted(LISTED)
ABOUT: dict[str, set[str]] = {}  # a command about one game only: the game it names
ALL = {"mesopotamia", "mesopotamia-epochs", "mare-nostrum"}


def _help(args: list[str]) -> str:
    result = invoke([*args, "--help"])
    assert result.exit_code == 0, result.output
    text = re.sub(r"[│╭╮╰╯─]", " ", result.stdout)  # the panels' frames
    return " ".join(text.split())  # one line: a name cut by the wrapping reads whole


def games_named(text: str) -> set[str]:
    """The games a text names, by id or by name."""
    named = set()
    if re.search(r"Epochs|mesopotamia-epochs", text):
        named.add("mesopotamia-epochs")
    if re.search(r"Mare Nostrum|mare-nostrum", text):
        named.add("mare-nostrum")
    rest = re.sub(r"Mesopotamia: Epochs|mesopotamia-epochs", "", text)
    if re.search(r"mesopotamia", rest, re.IGNORECASE):
        named.add("mesopotamia")
    return named


def test_games_named_reads_ids_and_names() -> None:
    assert games_named("e.g. mesopotamia") == {"mesopotamia"}
    assert games_named("Brooch in Mesopotamia: Epochs") == {"mesopotamia-epochs"}
    assert games_named("mesopotamia, mesopotamia-epochs or mare-nostrum") == ALL
    assert games_named("seats: random or heuristic") == set()


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_names_no_single_game_unless_about_it(command: str) -> None:
    named = games_named(_help([command] if command else []))
    assert named in (set(), ALL, ABOUT.get(command, ALL)), f"'{command} --help' names only {sorted(named)}"


def test_top_level_help_names_the_three_games() -> None:
    text = _help([])
    assert "Mesopotamia, Mesopotamia: Epochs and Mare Nostrum: Empires" in text


@pytest.mark.parametrize("command", ["play", "simulate", "tournament"])
def test_commands_taking_a_game_give_an_example_per_game(command: str) -> None:
    text = _help([command])
    for game in sorted(ALL):
        assert f"ziggurat {command} {game} " in text, game
    assert "Game id: mesopotamia, mesopotamia-epochs or mare-nostrum" in text


def test_seat_help_names_the_first_seat_of_each_game() -> None:
    for command in ("replay", "render"):
        text = _help([command])
        assert "Blue in Mesopotamia" in text and "Brooch in Mesopotamia: Epochs" in text
        assert "Mare Nostrum: Empires" in text
    assert "(0 = blue" not in _help(["replay"])


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_the_seat_order_help_says_how_mare_nostrum_empires_are_assigned(command: str) -> None:
    """Mare Nostrum: Empires deals the empires at random unless the table's option
    ``empire_assignment`` is ``choice`` (set-up S2): the help says so, naming the option."""
    from ziggurat.games.mare_nostrum import data as D

    text = _help([command])
    assert "Mare Nostrum: Empires the empires are dealt to the seats at random" in text
    assert "-o empire_assignment=choice" in text and "choose their empires in play" not in text
    assert D.OPTION_SPECS["empire_assignment"]["default"] == "random"
    assert "choice" in D.OPTION_SPECS["empire_assignment"]["values"]


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)], ids=["ziggurat", *COMMANDS])
def test_a_flag_shows_no_type_in_the_help(command: list[str]) -> None:
    """A flag takes no value, so its help gives it no type (``--help``, ``--chess/--no-chess``);
    an option that takes one still shows its type."""
    text = _help(command)
    assert "--help" in text
    assert "<bool>" not in text
    if command == ["bench"]:
        assert "--chess --no-chess Measure" in text  # the flag pair, then its help
        assert "--seconds -t <float range>" in text
