"""The CI scripts: ``.ci/run`` runs the README's test command word for word, and
``.ci/with-postgres`` gives a command a throw-away PostgreSQL server and deletes it afterwards,
whether the command succeeds or fails (it needs Debian's postgresql, which ``.ci/run``
installs: marked slow, so the quick loop does without)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import os, sys
from sqlalchemy import create_engine, text
url = os.environ["ZIGGURAT_TEST_POSTGRES_URL"]
engine = create_engine(url)
with engine.connect() as conn:
    print(url)
    print(conn.execute(text("show data_directory")).scalar())
    print(conn.execute(text("show listen_addresses")).scalar())
engine.dispose()
sys.exit(int(sys.argv[1]))
"""


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [
        line for line in re.findall(r"```sh\n(.*?)```", readme, re.S) if re.search(r"pytest -n \d", line)
    ]
    assert len(commands) == 1, commands
    return commands[0].strip()


def test_ci_runs_the_readme_test_command_with_a_postgres_server() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f".ci/with-postgres bash -c '{_readme_test_command()}'" in script


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("status", [0, 3])
def test_with_postgres_serves_the_command_then_deletes_the_cluster(status: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ZIGGURAT_TEST_POSTGRES_URL"}
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "with-postgres"), sys.executable, "-c", PROBE, str(status)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == status, done.stderr  # the command's own exit status
    url, data_dir, listening = done.stdout.split()
    named = re.fullmatch(r"postgresql\+psycopg://postgres@127\.0\.0\.1:(\d+)/postgres", url)
    assert named is not None, url
    port = int(named[1])
    assert listening == "127.0.0.1"
    cluster = Path(data_dir).parent
    assert cluster.name.startswith("ziggurat-postgres.")
    assert not cluster.exists()  # stopped and deleted
    assert not _accepts(port)


def test_with_postgres_needs_a_command() -> None:
    done = subprocess.run(["bash", str(ROOT / ".ci" / "with-postgres")], capture_output=True, text=True)
    assert done.returncode == 2 and "usage:" in done.stderr
