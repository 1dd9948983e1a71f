"""Rule coverage (``tools/rule_coverage.py``): the tool reads the rules specs right, can fail,
and finds every numbered rule and ruling of the specs cited by a test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_coverage", ROOT / "tools" / "rule_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


rc = _tool()

# spec -> (fewest, most) ids a complete spec plausibly defines, and prefixes it may use
PLAUSIBLE = {
    "docs/rules/mesopotamia.md": (150, 300, set("SMRDE")),
    "docs/rules/mesopotamia-epochs.md": (100, 250, set("ERDCX")),
    "docs/rules/mare-nostrum.md": (150, 300, set("SNRDW")),
}

TINY_SPEC = """# Tiny game

| ID | Decision |
|---|---|
| D1 | Which piece |

### T1 Moving
- **T1.1 Step.** A piece steps to a neighbour.
- **T1.2 Jump.** A piece may jump. [not testable: the jump is described by its picture only]

**T2 Winning.** The last piece standing wins.

| Piece | Owner |
|---|---|
| H1 | Red |

```
T9 inside fenced code
```
"""


def _tiny(tmp_path: Path, tests: str) -> Any:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "tiny.md").write_text(TINY_SPEC, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_tiny.py").write_text(tests, encoding="utf-8")
    [result] = rc.coverage(tmp_path, {"docs/tiny.md": ("tests",)})
    return result


def test_every_spec_defines_a_plausible_number_of_ids() -> None:
    assert set(rc.SPECS) == set(PLAUSIBLE)
    for spec, (low, high, prefixes) in PLAUSIBLE.items():
        defined, _ = rc.definitions((ROOT / spec).read_text(encoding="utf-8"))
        assert low <= len(defined) <= high, (spec, len(defined))
        assert len(set(defined)) == len(defined)
        assert {rule[0] for rule in defined} <= prefixes, (spec, {r for r in defined if r[0] not in prefixes})


def test_definitions_skip_other_tables_and_fenced_code() -> None:
    defined, exempt = rc.definitions(TINY_SPEC)
    assert defined == ["D1", "T1", "T1.1", "T1.2", "T2"]
    assert exempt == {"T1.2"}
    # a worked example's table of holy places names H1-H4: they are not rules
    meso, _ = rc.definitions((ROOT / "docs/rules/mesopotamia.md").read_text(encoding="utf-8"))
    assert "H1" not in meso and "D29" in meso and "E12" in meso


def test_an_id_cited_only_in_a_test_folder_is_covered(tmp_path: Path) -> None:
    result = _tiny(
        tmp_path,
        'def test_step_T1_1() -> None:\n    """D1 and T2 as well."""\n',
    )
    assert result.uncited() == []
    assert {"T1.1", "D1", "T2"} <= result.cited


def test_an_uncited_id_fails_the_check(tmp_path: Path) -> None:
    result = _tiny(tmp_path, 'def test_step_T1_1() -> None:\n    """D1 only; x = 1  # noqa: T2"""\n')
    assert result.uncited() == ["T2"]  # T1 by its sub-id T1.1, T1.2 is not testable


def test_the_script_exits_with_1_and_lists_the_uncited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _tiny(tmp_path, '"""T1.1 and D1."""\n')
    assert rc.main([], tmp_path, {"docs/tiny.md": ("tests",)}) == 1
    out = capsys.readouterr().out
    assert "docs/tiny.md: 5 ids, 3 cited by tests, 1 not testable, 1 uncited" in out
    assert "uncited: T2" in out
    assert rc.main(["--json"], tmp_path, {"docs/tiny.md": ("tests",)}) == 1
    assert '"uncited": [\n      "T2"\n    ]' in capsys.readouterr().out
    (tmp_path / "tests" / "test_more.py").write_text("def test_win_T2() -> None: ...\n", encoding="utf-8")
    assert rc.main([], tmp_path, {"docs/tiny.md": ("tests",)}) == 0


def test_a_range_cites_every_id_between_its_ends(tmp_path: Path) -> None:
    result = _tiny(tmp_path, '"""T1.1–T1.2, D1 and T2."""\n')
    assert {"T1.1", "T1.2"} <= result.cited
    assert result.uncited() == []


@pytest.mark.parametrize("spec", sorted(rc.SPECS))
def test_the_project_cites_every_id_of_its_specs(spec: str) -> None:
    [result] = rc.coverage(rc.ROOT, {spec: rc.SPECS[spec]})
    assert result.uncited() == [], f"{spec}: uncited {' '.join(result.uncited())}"
