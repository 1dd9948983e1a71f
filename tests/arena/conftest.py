"""Fixtures of the arena tests: one small played tournament, shared by the tests that read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ziggurat.arena import LocalRunner, Tournament, TournamentResult, run_tournament

GAME = "mesopotamia-epochs"  # about 20 ms a game with random and heuristic bots


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[TournamentResult, Path]:
    """Nine games of heuristic against two random bots, records in ``DIR/records``."""
    out = tmp_path_factory.mktemp("arena")
    plan = Tournament.create(GAME, "heuristic,random,random", games=8, seed=5, balance=True)
    result = run_tournament(plan, LocalRunner(1), records_dir=out / "records")
    return result, out
