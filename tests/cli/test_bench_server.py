"""``ziggurat bench-server`` through the real CLI: it starts real ``serve`` processes, plays every
game on them for a second, prints its figures and writes them as JSON. Only the shape of the
output is checked, never a figure."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import invoke

from ziggurat.cli.bench_server import _latency_buckets, _stall_buckets, _summed, percentile
from ziggurat.cli.server_procs import POSTGRES_ENV, bucket_quantile

GAMES = {"mesopotamia", "mesopotamia-epochs", "mare-nostrum"}
ROWS = (
    "actions / s",
    "human actions / s",
    "latency p50",
    "latency p90",
    "latency p99",
    "latency max",
    "spectator latency p50",
    "spectator latency p99",
    "server latency p50, p99 (arrival to broadcast)",
    "server CPU",
    "largest loop stall",
    "largest loop stall measuring",
    "tables finished",
    "load average",
)
SHORT = ["--tables", "2", "--seconds", "1", "--round-limit", "2"]
DATABASES = ["sqlite"] + (["postgres"] if os.environ.get(POSTGRES_ENV) else [])


def _check_run(run: dict[str, Any], database: str, processes: int) -> None:
    assert run["database"] == database and run["processes"] == processes
    assert run["seconds"] > 0 and run["actions"] >= 0 and run["tables_finished"] >= 0
    assert set(run["latency_seconds"]) == {"p50", "p90", "p99", "max", "count"}
    assert run["latency_seconds"]["count"] == run["human_actions"]
    assert set(run["spectator_latency_seconds"]) == {"p50", "p99", "count", "other_process"}
    assert len(run["server_cpu_cores"]) == processes and len(run["loop_stall_seconds"]) == processes
    own = run["server_latency_at_most_seconds"]
    assert set(own) == {"p50", "p99"}
    if run["human_actions"]:  # the servers counted the human actions they played
        assert own["p50"] is not None and own["p99"] is not None and 0 < own["p50"] <= own["p99"]
    window = run["window_loop_stall_at_most_seconds"]
    assert len(window) == processes and all(s is None or s >= 0 for s in window)
    assert len(run["load_average"]) == 3


@pytest.mark.slow
@pytest.mark.parametrize("database", DATABASES)
def test_bench_server_plays_every_game_and_reports(database: str, tmp_path: Path) -> None:
    """On SQLite; with a PostgreSQL server, ``--compare``: the same workload on SQLite and on
    PostgreSQL, each game's two runs side by side."""
    out = tmp_path / "bench.json"
    where = ["--db", "sqlite"] if database == "sqlite" else ["--compare"]
    result = invoke(["bench-server", "--game", "all", *where, *SHORT, "--json", str(out)])
    assert result.exit_code == 0, result.output
    for row in ROWS:
        assert row in result.output, row
    runs = json.loads(out.read_text())["runs"]
    databases = ["sqlite"] if database == "sqlite" else ["sqlite", "postgresql"]
    assert sorted((r["game"], r["database"]) for r in runs) == sorted(
        (g, d) for g in GAMES for d in databases
    )
    if database != "sqlite":  # side by side: a game's SQLite run, then its PostgreSQL run
        assert [r["database"] for r in runs] == databases * 3
    for run in runs:
        _check_run(run, run["database"], 1)
        assert run["offered_human_actions_per_second"] is None and run["kept_up"] is None


@pytest.mark.slow
def test_bench_server_at_a_rate_says_whether_it_kept_up(tmp_path: Path) -> None:
    out = tmp_path / "rate.json"
    args = [
        "bench-server",
        "--game",
        "mare-nostrum",
        "--rate",
        "0.5",
        "--humans",
        "2",
        *SHORT,
        "--json",
        str(out),
    ]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert "kept up" in result.output and "human actions offered / s" in result.output
    (run,) = json.loads(out.read_text())["runs"]
    _check_run(run, "sqlite", 1)
    assert run["offered_human_actions_per_second"] == 4.0  # 2 tables, one action each every 0.5 s
    assert isinstance(run["kept_up"], bool)
    assert run["workload"]["humans"] == 2 and run["workload"]["rate"] == 0.5


@pytest.mark.slow
def test_bench_server_at_a_pace_paces_every_action(tmp_path: Path) -> None:
    """``--pace``: the bots wait as long before each move, so every action of a table comes
    about that long after the one before; the report counts everyone's actions against it."""
    out = tmp_path / "pace.json"
    args = ["bench-server", "--game", "mesopotamia", "--pace", "0.2", *SHORT, "--json", str(out)]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    assert "actions offered / s (everyone's)" in result.output and "kept up" in result.output
    (run,) = json.loads(out.read_text())["runs"]
    _check_run(run, "sqlite", 1)
    assert run["offered_actions_per_second"] == 10.0  # 2 tables, each one action every 0.2 s
    assert run["offered_human_actions_per_second"] is None and isinstance(run["kept_up"], bool)
    assert run["workload"]["pace"] == 0.2 and run["workload"]["rate"] is None
    # paced: far fewer than the hundreds a second two tables play without a pace (chance
    # outcomes are not delayed, hence the margin)
    assert 0 < run["actions_per_second"] < 25


def test_rate_and_pace_are_refused_together() -> None:
    result = invoke(["bench-server", "--rate", "1", "--pace", "1"])
    assert result.exit_code == 2 and "--rate" in result.output and "--pace" in result.output


def test_sqlite_is_refused_more_than_one_process() -> None:
    result = invoke(["bench-server", "--processes", "2", "--db", "sqlite"])
    assert result.exit_code == 2
    assert "SQLite stays a single process" in result.output and "PostgreSQL" in result.output


def test_bench_server_refuses_a_bad_workload_before_starting() -> None:
    result = invoke(["bench-server", "--game", "chess"])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output
    result = invoke(["bench-server", "--game", "mare-nostrum", "--players", "2"])
    assert result.exit_code == 2 and "3 to 5 players" in result.output
    result = invoke(["bench-server", "--players", "2", "--humans", "3"])
    assert result.exit_code == 2 and "--humans 3" in result.output


def test_help_explains_every_option() -> None:
    result = invoke(["bench-server", "--help"])
    assert result.exit_code == 0
    for option in (
        "--game",
        "--tables",
        "--seconds",
        "--players",
        "--humans",
        "--bot",
        "--rate",
        "--pace",
        "--processes",
        "--db",
        "--postgres-url",
        "--compare",
        "--round-limit",
        "--seed",
        "--json",
    ):
        assert option in result.output, option


def test_percentiles_by_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (
        percentile(values, 50) == 50.0 and percentile(values, 99) == 99.0 and percentile(values, 100) == 100.0
    )
    assert percentile([3.0], 99) == 3.0 and percentile([], 50) is None


def test_the_servers_own_latency_is_read_from_their_histograms_between_two_readings() -> None:
    """A histogram's cumulative buckets read before and after the window: the quantiles of what
    was counted in between, as the upper bound of the bucket holding each; the processes'
    readings added up; a process without a reading (no human action yet) adds nothing."""
    before = [(0.01, 50), (0.05, 60), (0.1, 60), (float("inf"), 60)]
    after = [(0.01, 140), (0.05, 159), (0.1, 160), (float("inf"), 160)]  # 90, 9, 1 more
    assert bucket_quantile(before, after, 0.5) == 0.01
    assert bucket_quantile(before, after, 0.9) == 0.01
    assert bucket_quantile(before, after, 0.99) == 0.05
    assert bucket_quantile(before, after, 1.0) == 0.1
    assert bucket_quantile(None, after, 0.5) == 0.01  # nothing counted before the first reading
    assert bucket_quantile(after, after, 0.5) is None  # nothing in the window
    assert bucket_quantile(before, None, 0.5) is None
    assert bucket_quantile(before, after[:-1], 0.5) is None  # the buckets do not match
    slow = [(0.01, 50), (0.05, 60), (0.1, 60), (float("inf"), 70)]
    assert bucket_quantile(before, slow, 0.99) == float("inf")
    assert _summed([before, None, after]) == [(0.01, 190), (0.05, 219), (0.1, 220), (float("inf"), 220)]
    assert _summed([None, None]) is None and _summed([before, after[:2]]) is None
    assert _latency_buckets((0.0075, 0.05)) == "≤ 7.5 ms, ≤ 50 ms"
    assert _latency_buckets((None, float("inf"))) == "-, > 10 s"
    assert _stall_buckets([0.05, float("inf"), None]) == "≤ 50 ms, > 5000 ms, -"
