"""The compiled build (docs/speed.md): ``ZIGGURAT_COMPILE=1 pip install .`` compiles the engine's
rules with mypyc, and the compiled engine passes the engine's and the games' tests (the
conformance suite, the golden playthroughs, records, each game's rules, views and bots) as the
plain Python one does. The test builds at the C compiler's ``-O1`` (``ZIGGURAT_COMPILE_OPT``):
what the code does is the same at every level. A test that replaces a function inside a
compiled module (``monkeypatch``) could not reach its compiled callers; none of these does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ziggurat.engine.build import COMPILED, build_name, compiled_modules

ROOT = Path(__file__).resolve().parents[2]

RULES_TESTS = [
    "tests/engine",
    "tests/games",
]
"""What the compiled engine must pass (run in one process: this test has a worker to itself)."""

LEFT_TO_THE_PLAIN_BUILD = [
    # builds the compiled engine itself
    "tests/engine/test_compiled_build.py",
    # the longest (a minute and more each), left out for time: what views show, which the
    # other view tests check on the compiled views too
    "tests/games/mare_nostrum/test_mn_secret_substitution.py",
    "tests/games/mesopotamia/test_meso_secret_substitution.py",
    "tests/games/mesopotamia_epochs/test_epochs_secret_substitution.py",
]


def test_the_plain_install_runs_every_module_as_python() -> None:
    # the editable install the tests run: nothing compiled, whatever a compiled build left around
    assert compiled_modules() == []
    assert build_name() == "plain Python"


def test_every_compiled_module_exists() -> None:
    for package, modules in COMPILED.items():
        for name in modules:
            assert (ROOT / "src" / Path(*package.split(".")) / f"{name}.py").is_file(), (package, name)


def test_a_wrong_optimisation_level_stops_the_build_and_says_why() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    run = subprocess.run(
        [sys.executable, "setup.py", "--version"],
        env={**env, "ZIGGURAT_COMPILE": "1", "ZIGGURAT_COMPILE_OPT": "fast"},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode != 0
    assert "ZIGGURAT_COMPILE_OPT must be 0, 1, 2 or 3, not 'fast'" in run.stderr


@pytest.mark.slow
@pytest.mark.timeout(2400)
def test_the_compiled_build_passes_the_rules_tests(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(ROOT)],
        # at the C compiler's -O1: the same code, built in about half the C compiler's time
        env={**env, "ZIGGURAT_COMPILE": "1", "ZIGGURAT_COMPILE_OPT": "1"},
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert list(site.glob("ziggurat/engine/state.*.so")), "the base state was not compiled"
    run = {**env, "PYTHONPATH": str(site)}
    which = subprocess.run(
        [sys.executable, "-c", "from ziggurat.engine.build import build_name; print(build_name())"],
        env=run,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert which.stdout.strip() == "compiled", which.stdout + which.stderr
    ignored = [f"--ignore={path}" for path in LEFT_TO_THE_PLAIN_BUILD]
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *ignored, *RULES_TESTS],
        env=run,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=2400,
    )
    assert tested.returncode == 0, tested.stdout[-6000:] + tested.stderr[-2000:]
