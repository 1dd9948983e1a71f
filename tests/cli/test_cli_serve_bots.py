"""``ziggurat serve --bot-workers N`` (docs/server.md, "Bots and the event loop"): the worker
processes where thinking bots decide; 0 starts none (bots decide in threads), which the help
says; a negative count is refused before anything starts."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from ziggurat.cli.main import app


def _serve(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["serve", *args], env={"COLUMNS": "200"})
    return result.exit_code, " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


def test_help_explains_the_bot_workers() -> None:
    code, out = _serve(["--help"])
    assert code == 0, out
    assert "--bot-workers" in out
    assert "0 starts no process: bots decide in threads of the server's own process, for tiny machines" in out


def test_a_negative_count_of_bot_workers_is_refused_before_the_server_starts() -> None:
    code, out = _serve(["--db", "sqlite://", "--bot-workers", "-1"])
    assert code == 2, out
    assert "Invalid value" in out and "--bot-workers" in out
    assert "Ziggurat server" not in out
