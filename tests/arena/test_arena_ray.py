"""``--ray local``: games as Ray tasks on a local Ray instance give the local run's results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

ray = pytest.importorskip("ray")

ARGS = ["tournament", "mesopotamia-epochs", "--players", "heuristic,random", "--games", "6", "--seed", "11"]


@pytest.fixture
def no_ray_left() -> Iterator[None]:
    """Whatever happens in the test, no Ray instance outlives it."""
    yield
    if ray.is_initialized():
        ray.shutdown()


def comparable(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((path / "results.json").read_text())
    data.pop("run")
    for game in data["games"]:
        game.pop("seconds")
    return data


@pytest.mark.usefixtures("no_ray_left")
@pytest.mark.slow
def test_ray_local_equals_the_local_run(tmp_path: Path) -> None:
    local = CliRunner().invoke(app, [*ARGS, "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    on_ray = CliRunner().invoke(app, [*ARGS, "--ray", "local", "--jobs", "2", "--out", str(tmp_path / "ray")])
    assert on_ray.exit_code == 0, on_ray.output
    assert not ray.is_initialized()  # the instance the command started is gone
    assert comparable(tmp_path / "ray") == comparable(tmp_path / "local")
    assert (
        json.loads((tmp_path / "ray" / "results.json").read_text())["run"]["runner"] == "Ray (local instance)"
    )
    local_records = sorted(p.name for p in (tmp_path / "local" / "records").iterdir())
    assert sorted(p.name for p in (tmp_path / "ray" / "records").iterdir()) == local_records
    for name in local_records:
        assert (tmp_path / "ray" / "records" / name).read_text() == (
            tmp_path / "local" / "records" / name
        ).read_text()
