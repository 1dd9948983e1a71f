"""The rules specs ship with the package: ``src/ziggurat/specs`` is a link to ``docs/rules`` (the
one copy people edit), a wheel built from the checkout holds the files themselves, and an
installed wheel reads them with ``importlib.resources``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ziggurat import rules

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(p.name for p in (ROOT / "docs" / "rules").glob("*.md"))


def test_the_package_specs_are_the_docs_folder_itself() -> None:
    link = ROOT / "src" / "ziggurat" / "specs"
    assert link.is_symlink()
    assert link.resolve() == (ROOT / "docs" / "rules").resolve()
    assert SPECS == ["mare-nostrum.md", "mesopotamia-epochs.md", "mesopotamia.md"]


@pytest.mark.slow
def test_a_wheel_holds_the_specs_and_the_installed_package_reads_them(tmp_path: Path) -> None:
    # build from a copy of what the wheel needs, so the checkout gets no build/ or egg-info
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, checkout / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "tools" / "build_backend", checkout / "tools" / "build_backend", ignore=ignore)
    shutil.copytree(ROOT / "src", checkout / "src", symlinks=True, ignore=ignore)
    shutil.copytree(ROOT / "docs" / "rules", checkout / "docs" / "rules")
    out = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"]
        + ["-w", str(out), str(checkout)],
        check=True,
        cwd=tmp_path,
        capture_output=True,
    )
    (wheel,) = out.glob("ziggurat-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        shipped = sorted(n.rsplit("/", 1)[1] for n in zf.namelist() if n.startswith("ziggurat/specs/"))
        assert shipped == SPECS
        for name in SPECS:
            assert zf.read(f"ziggurat/specs/{name}") == (ROOT / "docs" / "rules" / name).read_bytes()
        site = tmp_path / "site"
        zf.extractall(site)
    assert not (site / "ziggurat" / "specs").is_symlink()

    # the installed package, first on the path, reads its own copy
    probe = (
        "import json, ziggurat, ziggurat.rules as r;"
        "print(json.dumps([ziggurat.__file__, r.spec_names(), len(r.index('mesopotamia').rules),"
        " r.spec_text('mare-nostrum')[:40]]))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    answer = subprocess.run(
        [sys.executable, "-c", probe], check=True, cwd=tmp_path, env=env, capture_output=True, text=True
    )
    where, names, count, head = json.loads(answer.stdout)
    assert Path(where).is_relative_to(site)
    assert names == ["mare-nostrum", "mesopotamia", "mesopotamia-epochs"]
    assert count == len(
        rules.parse((ROOT / "docs" / "rules" / "mesopotamia.md").read_text(encoding="utf-8")).rules
    )
    assert head == (ROOT / "docs" / "rules" / "mare-nostrum.md").read_text(encoding="utf-8")[:40]
