"""Shared hooks of the whole suite: the ``browser`` marker for everything under tests/browser,
and the slow tests first.

The ``slow`` marker is set by hand on the tests that take the longest, so that
``pytest -m "not slow and not browser"`` is the quick loop (see README). They are also run
first (in their own order; the rest keep theirs): with ``pytest -n 2`` each worker takes the
next test from the front as it becomes free, so a long test started last would leave the
other worker idle at the end (the compiled build's test runs for minutes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow ones first
