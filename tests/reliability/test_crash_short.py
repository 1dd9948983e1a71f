"""The crash harness (``benchmarks/reliability/crash.py``), short: real server processes are
SIGKILLed a few times while scripted clients play, and restarted; no acknowledged action is
lost, every table (the all-bot ones too) finishes, and every game replays from its stored
actions. On SQLite, and on PostgreSQL when ``ZIGGURAT_TEST_POSTGRES_URL`` names a server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ziggurat

CRASH = Path(__file__).resolve().parents[2] / "benchmarks" / "reliability" / "crash.py"
POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"
DATABASES = ["sqlite"] + (["postgres"] if os.environ.get(POSTGRES_ENV) else [])
PROCESSES = {"sqlite": 1, "postgres": 2}
"""Server processes per database: SQLite stays one process; on PostgreSQL two processes share
the database, so a killed one's tables are adopted by the other (docs/server.md, "Several
processes")."""


def _run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``crash.py ARGS`` in a process of its own, importing the package tree under test."""
    env = dict(os.environ)
    tree = str(Path(ziggurat.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tree, env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, str(CRASH), *args], capture_output=True, text=True, env=env, cwd=cwd
    )


@pytest.mark.slow
@pytest.mark.parametrize("database", DATABASES)
def test_kills_lose_no_acknowledged_action(database: str, tmp_path: Path) -> None:
    out = tmp_path / "crash.json"
    kills = 2
    args = ["--db", database, "--processes", str(PROCESSES[database]), "--kills", str(kills)]
    args += [
        "--tables",
        "3",
        "--bot-tables",
        "2",
        "--round-limit",
        "2",
        "--gap-min",
        "0.2",
        "--gap-max",
        "0.6",
    ]
    logs = tmp_path / "logs"
    args += ["--finish-timeout", "300", "--json", str(out), "--logs", str(logs)]
    done = _run(args, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr + _server_lines(logs, done.stdout)
    verdict = json.loads(out.read_text())
    assert verdict["kills"] == kills and len(verdict["restart_seconds"]) == kills
    assert verdict["lost"] == 0 and verdict["acknowledged"] > 0
    assert verdict["finished"] == verdict["tables"] >= 3 and verdict["unfinished"] == []
    assert verdict["replay_failures"] == [] and verdict["ok"] is True
    assert f"kills: {kills}" in done.stdout and "lost: 0" in done.stdout


def _server_lines(logs: Path, verdict: str) -> str:
    """The servers' log lines about the tables left unfinished, and their errors (a failure's
    evidence: the harness's temporary folder is gone by then)."""
    tables = re.findall(r"not finished: (\S+)", verdict)
    out = []
    for log in sorted(logs.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if any(t in line for t in tables) or "Traceback" in line or "ERROR" in line:
                out.append(f"{log.name}: {line}")
    return "\n" + "\n".join(out[-80:])


def test_sqlite_is_refused_two_processes() -> None:
    done = _run(["--db", "sqlite", "--processes", "2"])
    assert done.returncode == 2 and "SQLite stays a single process" in done.stderr


def test_help_explains_the_harness() -> None:
    done = _run(["--help"])
    assert done.returncode == 0
    for option in ("--kills", "--processes", "--db", "--postgres-url", "--tables", "--bot-tables", "--json"):
        assert option in done.stdout, option
