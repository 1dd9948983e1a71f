"""The lock file the README's test command installs from covers what pyproject.toml asks for:
every runtime dependency and every one of the ``dev`` extra (with the extras it pulls in), each
pinned to a version its declared floor admits. A dependency added to pyproject.toml without
refreshing the lock (README, "Refresh the lock file") fails here rather than in a fresh clone."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "requirements" / "dev.lock").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;]+)", line)
        if m:
            pins[_norm(m.group(1))] = Version(m.group(2))
    return pins


def _required() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    out = [Requirement(r) for r in project["dependencies"]]
    todo = ["dev"]
    seen: set[str] = set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in extras[extra]:
            req = Requirement(text)
            if _norm(req.name) == "ziggurat":
                todo.extend(req.extras)
            else:
                out.append(req)
    return out


def test_every_dependency_is_pinned_within_its_range() -> None:
    pins = _pins()
    missing = [str(r) for r in _required() if _norm(r.name) not in pins]
    assert not missing, f"not in requirements/dev.lock (refresh it): {missing}"
    outside = [
        f"{r} (locked {pins[_norm(r.name)]})" for r in _required() if pins[_norm(r.name)] not in r.specifier
    ]
    assert not outside, f"locked outside the declared range: {outside}"
