"""Wins, places, ranks and Wilson intervals from returns (ziggurat.arena.stats)."""

from __future__ import annotations

import pytest

from ziggurat.arena import places, ranks, wilson, win_shares


def test_wilson_interval_known_values() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    assert wilson(0, 10)[0] == 0.0


def test_win_shares_split_a_shared_victory() -> None:
    assert win_shares([0.0, 1.0, 0.0]) == [0.0, 1.0, 0.0]
    assert win_shares([0.5, 0.5, 0.0]) == [0.5, 0.5, 0.0]
    assert win_shares([1.0, 1.0]) == [0.5, 0.5]
    assert win_shares([0.0, 0.0, 0.0]) == [0.0, 0.0, 0.0]  # no winner (not finished)


def test_places_share_ties_and_sum_like_distinct_places() -> None:
    assert places([1.0, 0.0, 0.0, 0.0]) == [1.0, 3.0, 3.0, 3.0]
    assert places([0.5, 0.5, 0.0]) == [1.5, 1.5, 3.0]
    assert places([0.0, 0.2, 0.7]) == [3.0, 2.0, 1.0]
    for returns in ([1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0]):
        assert sum(places(returns)) == sum(range(1, len(returns) + 1))


def test_ranks_are_competition_ranks() -> None:
    assert ranks([1.0, 0.0, 0.0]) == [1, 2, 2]
    assert ranks([0.0, 0.5, 0.5, 0.2]) == [4, 1, 1, 3]
