"""The documentation's examples run: every Python block of the README (``>>>`` blocks as
doctests, the others as scripts) and every docstring example of the package's modules."""

from __future__ import annotations

import doctest
import importlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PACKAGE = ROOT / "src" / "ziggurat"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def python_blocks(text: str) -> list[tuple[int, str]]:
    """``(line, code)`` of each fenced ```python block (``line``: 1-based, the code's first)."""
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        blocks.append((text.count("\n", 0, m.start(1)) + 1, m.group(1)))
    return blocks


def modules_with_examples() -> list[str]:
    """The package's modules whose source holds a ``>>>`` example."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def run_doctest(test: doctest.DocTest) -> None:
    out = io.StringIO()
    result = doctest.DocTestRunner(optionflags=FLAGS).run(test, out=out.write)
    assert result.attempted > 0, f"{test.name}: no example ran"
    assert result.failed == 0, out.getvalue()


README_BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_a_doctested_example() -> None:
    assert any(">>>" in code for _, code in README_BLOCKS)


@pytest.mark.parametrize(("line", "code"), README_BLOCKS, ids=[f"README.md:{n}" for n, _ in README_BLOCKS])
def test_readme_python_block_runs(line: int, code: str) -> None:
    name = f"README.md:{line}"
    if ">>>" in code:
        run_doctest(doctest.DocTestParser().get_doctest(code, {}, name, str(README), line - 1))
    else:
        exec(compile(code, name, "exec"), {"__name__": "readme_example"})


def test_module_examples_are_found() -> None:
    assert {"ziggurat", "ziggurat.interop.codec"} <= set(modules_with_examples())


@pytest.mark.parametrize("name", modules_with_examples())
def test_module_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder().find(module) if t.examples]
    assert tests, f"{name} holds '>>>' outside any docstring example doctest finds"
    for test in tests:
        run_doctest(test)
