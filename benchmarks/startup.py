"""Start-up times: ``import ziggurat``, ``ziggurat --help``, ``ziggurat games`` and how soon a
fresh ``ziggurat serve`` on an empty SQLite database answers ``/healthz``.

Each figure is the median of several runs of a new process: wall time, and for the commands the
CPU time the process used too (steadier on a loaded machine). The machine's load (``uptime``)
is printed beside the figures. Figures only: nothing is asserted.

    PYTHONPATH=src python benchmarks/startup.py --runs 7
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CLI = [sys.executable, "-m", "ziggurat.cli.main"]
COMMANDS: dict[str, list[str]] = {
    "import ziggurat": [sys.executable, "-c", "import ziggurat"],
    "ziggurat --help": [*CLI, "--help"],
    "ziggurat games": [*CLI, "games"],
}


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``args``."""
    cpu = child_cpu()
    start = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start, child_cpu() - cpu


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def process_cpu(pid: int) -> float:
    """CPU seconds process ``pid`` has used so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_serve(timeout: float = 60.0) -> tuple[float, float]:
    """Wall and CPU seconds from starting ``ziggurat serve`` on an empty database to its first
    ``/healthz`` answer."""
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        env = dict(os.environ, ZIGGURAT_DATABASE_URL=f"sqlite:///{Path(folder) / 'empty.db'}")
        start = time.perf_counter()
        server = subprocess.Popen(
            [*CLI, "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while time.perf_counter() - start < timeout:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                        if answer.status == 200:
                            return time.perf_counter() - start, process_cpu(server.pid)
                except OSError:
                    if server.poll() is not None:
                        raise RuntimeError("ziggurat serve stopped before answering") from None
                    time.sleep(0.02)
            raise RuntimeError(f"no /healthz answer within {timeout} s")
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each measure (the median is shown)")
    parser.add_argument("--no-serve", action="store_true", help="skip the server start")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (uptime)")
    print(f"{'measure':<34} {'wall (median)':>14} {'CPU (median)':>14}")
    time_command(COMMANDS["import ziggurat"])  # warm the file cache and the bytecode
    for name, command in COMMANDS.items():
        runs = [time_command(command) for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{name:<34} {wall:>12.3f} s {cpu:>12.3f} s")
    if not args.no_serve:
        runs = [time_serve() for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{'ziggurat serve -> /healthz':<34} {wall:>12.3f} s {cpu:>12.3f} s")
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (uptime)")


if __name__ == "__main__":
    main()
