"""Fixtures for the Mesopotamia tests; the helpers themselves live in ``meso_helpers``."""

from __future__ import annotations

import pytest
from meso_helpers import Board


@pytest.fixture
def board() -> Board:
    """A 4-player board, Blue first (turn order blue, yellow, red, green)."""
    return Board()
