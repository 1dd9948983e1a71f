"""``ziggurat bench``: prints its figures (nothing is asserted on timing)."""

from __future__ import annotations

import pytest
from cli_helpers import invoke


@pytest.mark.slow
def test_bench_prints_its_figures() -> None:
    result = invoke(["bench", "mesopotamia", "--seconds", "0.05", "--players", "2", "--max-plies", "300"])
    assert result.exit_code == 0, result.output
    for measure in ("random play", "decisions/s", "clone", "clones/s", "heuristic game"):
        assert measure in result.stdout
