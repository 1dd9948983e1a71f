"""Shared hooks of the whole suite: the ``browser`` marker for everything under tests/browser.

The ``slow`` marker is set by hand on the tests that take the longest, so that
``pytest -m "not slow and not browser"`` is the quick loop (see README).
"""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
