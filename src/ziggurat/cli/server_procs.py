"""Real ``ziggurat serve`` processes for benchmarks and reliability harnesses.

:class:`ServerProcess` runs the console script's ``serve`` in a subprocess of this interpreter
(the tree this package was imported from, bound to 127.0.0.1 on a port of its own, bots without
delay), waits until ``/healthz`` answers, and stops, kills or restarts it on the same port; it
reads the CPU time the process and its children used (``/proc``) and the largest event-loop
stall its ``/metrics`` report. :func:`scratch_database` gives a database to throw away: a SQLite
file, or a PostgreSQL database created for the run and dropped after it. ``bench-server`` and
``benchmarks/reliability/`` use them.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import ziggurat

POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"
"""The PostgreSQL server (an admin URL) in which ``--db postgres`` makes its throw-away database."""

SERVE_CODE = "import sys; from ziggurat.cli.main import app; sys.argv[0] = 'ziggurat'; app()"
"""The console script's entry point, run by this interpreter so the tree under test is served."""

SERVER_ENV = {
    "ZIGGURAT_TABLE_RATE": "off",
    "ZIGGURAT_WS_CONNECT_RATE": "off",
    "ZIGGURAT_WS_MESSAGE_RATE": "off",
}
"""What the benchmark's servers run with: every client connects from 127.0.0.1, so the limits
per client address (tables created, sockets opened, messages sent) would refuse a benchmark of
more than a few tables."""

DROPPED_ENV = ("ZIGGURAT_DATABASE_URL", "ZIGGURAT_SMTP_HOST", "ZIGGURAT_PUBLIC_URL")
"""Settings of the caller's own server that a benchmark server must not take up."""


class ServerFailed(RuntimeError):
    """A server process exited or did not answer ``/healthz`` in time (the end of its log says why)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clock_ticks() -> int:
    """Clock ticks per second of ``/proc/<pid>/stat`` times."""
    try:
        return int(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """``(parent pid, CPU seconds)`` of a live process from ``/proc``, or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: split after it
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / clock_ticks()


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by ``pid`` and its live descendants (a server's
    worker processes count as its own), or None where ``/proc`` cannot tell (not Linux)."""
    own = _proc_stat(pid)
    if own is None:
        return None
    total = own[1]
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat is not None:
                children.setdefault(stat[0], []).append(int(entry.name))
                cpu[int(entry.name)] = stat[1]
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        total += cpu.get(child, 0.0)
        todo.extend(children.get(child, []))
    return total


def loop_stall_seconds(base: str) -> float | None:
    """The largest event-loop stall the server at ``base`` reports in ``/metrics``
    (``ziggurat_loop_stall_seconds``), or None when it does not report one."""
    try:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as res:
            text = res.read().decode()
    except (urllib.error.URLError, OSError, ValueError):
        return None
    from prometheus_client.parser import text_string_to_metric_families

    values: list[float] = []
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name in ("ziggurat_loop_stall_seconds", "ziggurat_loop_stall_seconds_max"):
                    values.append(float(sample.value))
    except ValueError:
        return None
    return max(values) if values else None


def loop_stall_buckets(base: str) -> list[tuple[float, int]] | None:
    """The event-loop stalls the server at ``base`` counted since it started, as the
    cumulative buckets ``(upper bound in seconds, stalls up to it)`` of its
    ``ziggurat_loop_stalls_seconds`` histogram in ``/metrics``; None when it does not report
    them."""
    return histogram_buckets(base, "ziggurat_loop_stalls_seconds")


def human_action_buckets(base: str) -> list[tuple[float, int]] | None:
    """The human actions the server at ``base`` played since it started, as the cumulative
    buckets of seconds from each one's arrival (its socket message) to its broadcast
    (``ziggurat_action_seconds{kind="human"}``, every game together); None when it does not
    report them."""
    return histogram_buckets(base, "ziggurat_action_seconds", {"kind": "human"})


def histogram_buckets(
    base: str, name: str, labels: dict[str, str] | None = None
) -> list[tuple[float, int]] | None:
    """The cumulative buckets ``(upper bound in seconds, count up to it)`` of the histogram
    ``name`` in the ``/metrics`` of the server at ``base``, summed over the samples whose
    labels include ``labels``; None when it does not report that histogram."""
    try:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as res:
            text = res.read().decode()
    except (urllib.error.URLError, OSError, ValueError):
        return None
    from prometheus_client.parser import text_string_to_metric_families

    summed: dict[float, int] = {}
    wanted = (labels or {}).items()
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == name + "_bucket" and wanted <= sample.labels.items():
                    bound = float(sample.labels["le"])
                    summed[bound] = summed.get(bound, 0) + int(sample.value)
    except (ValueError, KeyError):
        return None
    return sorted(summed.items()) or None


def bucket_quantile(
    before: list[tuple[float, int]] | None, after: list[tuple[float, int]] | None, q: float
) -> float | None:
    """The upper bound (seconds, ``inf`` above the last bound) of the bucket holding the
    ``q``-quantile (0 < q <= 1) of what a histogram counted between two readings of
    :func:`histogram_buckets` (a reading taken before anything was counted may be None);
    None if nothing was counted, the last reading is missing or the two do not match."""
    if after is None:
        return None
    counted = _counted_between([(bound, 0) for bound, _ in after] if before is None else before, after)
    if counted is None:
        return None
    total = counted[-1][1] if counted else 0
    if total <= 0:
        return None
    for bound, n in counted:
        if n >= q * total:
            return bound
    return math.inf


def largest_stall_between(
    before: list[tuple[float, int]] | None, after: list[tuple[float, int]] | None
) -> float | None:
    """The upper bound (seconds, ``inf`` above the last bucket) of the largest stall counted
    between two readings of :func:`loop_stall_buckets`, 0.0 if none was counted, None if a
    reading is missing or the two do not match."""
    counted = None if before is None or after is None else _counted_between(before, after)
    if counted is None:
        return None
    largest = 0.0
    below = 0
    for bound, n in counted:
        if n > below:
            largest = bound
        below = n
    return largest


def _counted_between(
    before: list[tuple[float, int]], after: list[tuple[float, int]]
) -> list[tuple[float, int]] | None:
    """The cumulative buckets of what a histogram counted between two readings of
    :func:`histogram_buckets`; None if their buckets do not match."""
    if [b for b, _ in before] != [b for b, _ in after]:
        return None
    return [(bound, n1 - n0) for (bound, n0), (_, n1) in zip(before, after, strict=True)]


def healthy(base: str, timeout: float = 1.0) -> bool:
    """Whether the server at ``base`` answers ``/healthz`` with status ok."""
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=timeout) as res:
            return bool(json.loads(res.read()).get("status") == "ok")
    except (urllib.error.URLError, OSError, ValueError):
        return False


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a server process: this one's, serving the package tree this module
    was imported from, without the caller's own server settings, plus :data:`SERVER_ENV`."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    tree = str(Path(ziggurat.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (tree, env.get("PYTHONPATH", "")) if p)
    env.update(SERVER_ENV)
    env.update(extra or {})
    return env


class ServerProcess:
    """One ``ziggurat serve`` process on 127.0.0.1: started, killed and restarted on one port.

    Its output goes to ``log_path``; :meth:`start` returns once ``/healthz`` answers ok and
    raises :class:`ServerFailed` (with the end of the log) if the process exits first or does
    not answer within ``start_timeout`` seconds.
    """

    def __init__(
        self,
        db_url: str,
        log_path: Path,
        port: int | None = None,
        bot_delay: float = 0.0,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        start_timeout: float = 120.0,
    ) -> None:
        self.db_url = db_url
        self.log_path = log_path
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.env = server_env(env)
        self.args = args
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> float:
        """Start the process and wait until it answers ``/healthz``; the seconds that took."""
        if self.alive():
            raise ServerFailed(f"the server on port {self.port} is already running")
        command = [
            sys.executable,
            "-c",
            SERVE_CODE,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            *self.args,
        ]
        began = time.monotonic()
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts + 1}\n".encode())
            log.flush()
            # a session of its own: a Ctrl-C meant for the harness does not stop its servers
            self.proc = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self.env,
                start_new_session=True,
            )
        self.starts += 1
        self.wait_healthy(began)
        return time.monotonic() - began

    def wait_healthy(self, began: float) -> None:
        while not healthy(self.base):
            if self.proc is None or self.proc.poll() is not None:
                code = None if self.proc is None else self.proc.returncode
                raise ServerFailed(f"the server on port {self.port} exited ({code}):\n{self.log_tail()}")
            if time.monotonic() - began > self.start_timeout:
                raise ServerFailed(
                    f"the server on port {self.port} did not answer /healthz within "
                    f"{self.start_timeout:.0f} s:\n{self.log_tail()}"
                )
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: the process ends at once, without closing anything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def restart(self) -> float:
        """Kill the process if it runs, start it again on the same port; the seconds from the
        start to its first healthy ``/healthz``."""
        self.kill()
        return self.start()

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM (a graceful stop), then SIGKILL if it has not stopped within ``timeout``."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def cpu_seconds(self) -> float | None:
        """CPU seconds the process (with its children) used so far; None if not known."""
        return process_cpu_seconds(self.proc.pid) if self.alive() and self.proc is not None else None

    def loop_stall(self) -> float | None:
        """The largest event-loop stall its ``/metrics`` report (None: not reported)."""
        return loop_stall_seconds(self.base)

    def loop_stall_buckets(self) -> list[tuple[float, int]] | None:
        """Its event-loop stalls so far, as :func:`loop_stall_buckets` reads them."""
        return loop_stall_buckets(self.base)

    def human_action_buckets(self) -> list[tuple[float, int]] | None:
        """Its human actions' times so far, as :func:`human_action_buckets` reads them."""
        return human_action_buckets(self.base)

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


@contextlib.contextmanager
def scratch_database(db: str, folder: Path, postgres_url: str | None = None) -> Iterator[str]:
    """A database URL for one run: ``sqlite`` a new file in ``folder``; ``postgres`` a database
    created in the PostgreSQL server ``postgres_url`` names (else ``$ZIGGURAT_TEST_POSTGRES_URL``)
    and dropped at the end; any other value is a database URL used as it is (nothing dropped).

    :raises ValueError: for ``postgres`` without a PostgreSQL server URL.
    """
    if db == "sqlite":
        yield f"sqlite:///{folder / f'bench-{uuid.uuid4().hex[:8]}.db'}"
        return
    if db != "postgres":
        yield db
        return
    admin = postgres_url or os.environ.get(POSTGRES_ENV)
    if not admin:
        raise ValueError(
            f"--db postgres needs a PostgreSQL server: give --postgres-url or set {POSTGRES_ENV}"
        )
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"ziggurat_bench_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield make_url(admin).set(database=name).render_as_string(hide_password=False)
        finally:
            with engine.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        engine.dispose()


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")
