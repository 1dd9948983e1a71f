"""A quick command line: ``import ziggurat``, ``ziggurat --help`` and ``ziggurat games`` import
no server, plotting or rating library, and the top-level help lists every command with the
summary its own help starts with (the commands' modules are imported only when they run).

Structure only: how long anything takes is printed by ``benchmarks/startup.py``.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pytest
from cli_helpers import invoke

from ziggurat.cli.main import COMMANDS, app, load_command

HEAVY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "matplotlib", "openskill", "argon2",
         "schemathesis", "numpy", "pyspiel", "ziggurat.server", "ziggurat.arena")  # fmt: skip

LOADED = "import json, sys; {run}; print(json.dumps(sorted(sys.modules)))"
CLI = "from ziggurat.cli.main import app; sys.argv[1:] = {args!r}; app(standalone_mode=False)"


def modules_after(run: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``run`` (its last output line)."""
    out = subprocess.run(
        [sys.executable, "-c", LOADED.format(run=run)], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_import_ziggurat_imports_no_heavy_library() -> None:
    assert heavy_in(modules_after("import ziggurat")) == []


@pytest.mark.parametrize("args", [["--help"], ["games"]])
def test_quick_commands_import_no_heavy_library(args: list[str]) -> None:
    modules = modules_after(CLI.format(args=args))
    assert heavy_in(modules) == []
    assert not any(m.startswith("ziggurat.cli.") and m not in ("ziggurat.cli.main", "ziggurat.cli.games",
                   "ziggurat.cli.common") for m in modules)  # fmt: skip


def test_a_command_module_is_imported_when_it_runs() -> None:
    assert "ziggurat.cli.render" in modules_after(CLI.format(args=["render", "--help"]))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_top_level_summary_is_the_commands_own(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    docstring = inspect.getdoc(command.callback) or ""
    first = " ".join(docstring.split("\n\n")[0].split())
    assert COMMANDS[name][1] == first


def test_top_level_help_lists_every_command() -> None:
    result = invoke(["--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.replace("│", " ").split())
    for name, (_, summary) in COMMANDS.items():
        assert f"{name} {summary.split()[0]}" in text


def test_an_unknown_command_is_a_usage_error() -> None:
    result = invoke(["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output
    assert app.info.name == "ziggurat"
