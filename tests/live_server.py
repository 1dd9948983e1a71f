"""Helpers of the tests that run a server in a subprocess: a free port, waiting until it
answers, stopping it.

Nothing here waits with a clock: a server that never answers or never stops is caught by the
suite's per-test timeout (``timeout`` in pyproject.toml), and the fixtures kill it then.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(proc: subprocess.Popen[bytes], base: str, log_path: Path) -> None:
    """Return once the server at ``base`` answers ``/healthz`` with status ok; fail the test
    with the end of its log if it exits first."""
    while True:
        if proc.poll() is not None:
            pytest.fail(f"the server exited at start ({proc.returncode}):\n{log_path.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as res:
                if json.loads(res.read()).get("status") == "ok":
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
            pass
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> int:
    """Ask the server to stop (SIGTERM), wait for it and return its exit status."""
    if proc.poll() is None:
        proc.terminate()
    return proc.wait()


def kill(proc: subprocess.Popen[bytes]) -> None:
    """Make sure the server is gone (after a failure)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
