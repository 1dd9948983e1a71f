"""An ISMCTS entrant with a tiny iteration budget plays its games and reports its search figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app


@pytest.mark.slow
def test_ismcts_entrant_with_an_iteration_budget(tmp_path: Path) -> None:
    args = ["tournament", "mesopotamia-epochs", "-p", "ismcts:4,random", "-n", "2", "-j", "2", "--seed", "2"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    assert "ismcts:4: " in result.stdout and "search iterations/s" in result.stdout
    data = json.loads((tmp_path / "t" / "results.json").read_text())
    assert data["counts"]["finished"] == 2
    stats = data["standings"][0]["bot_stats"]
    assert stats["decisions"] > 10 and stats["searched"] > 0
    assert stats["iterations"] == 4 * stats["searched"]  # one worker, 4 iterations a search
    assert data["standings"][1]["bot_stats"] == {}  # the random bot reports nothing
