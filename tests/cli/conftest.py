"""Shared fixture of the CLI tests: a few saved game records."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import invoke


@pytest.fixture(scope="session")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three records of seeded 3-player random games, long enough to hold huts with offerings."""
    out = tmp_path_factory.mktemp("records")
    args = ["simulate", "mesopotamia", "--games", "3", "--players", "random,random,random", "--seed", "17"]
    result = invoke([*args, "--max-plies", "2500", "--out", str(out)])
    assert result.exit_code == 0, result.output
    paths = sorted(out.glob("game-*.json"))
    assert [p.name for p in paths] == ["game-00001.json", "game-00002.json", "game-00003.json"]
    return paths
