"""Shared hooks of the whole suite: the ``browser`` marker for everything under tests/browser,
and the longest test (the compiled build's, about ten minutes on two cores) collected first, so
that the workers start it at once instead of waiting for it at the end.

The ``slow`` marker is set by hand on the tests that take the longest, so that
``pytest -m "not slow and not browser"`` is the quick loop (see README).
"""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
FIRST = ("test_compiled_build.py::test_the_compiled_build_passes_the_rules_tests",)
"""The tests collected before all others (the longest)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: not item.nodeid.endswith(FIRST))  # stable: the rest keep their order
