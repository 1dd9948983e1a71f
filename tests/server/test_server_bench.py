"""``bench-server`` runs a real uvicorn server on 127.0.0.1, plays, reports and stops it."""

from __future__ import annotations

import io
import socket
from pathlib import Path

from rich.console import Console

from ziggurat.cli.bench_server import ServerThread, report, run_bench


def test_bench_server_plays_and_reports() -> None:
    result = run_bench(tables=2, seconds=1.5, round_limit=2)
    assert result.actions > 0 and result.human_actions > 0
    assert len(result.latencies) == result.human_actions
    out = io.StringIO()
    report(result, Console(file=out, width=100))
    text = out.getvalue()
    assert "actions / s" in text and "latency p99" in text


def test_bench_server_bots_only() -> None:
    result = run_bench(tables=1, seconds=1.0, humans=False, round_limit=2)
    assert result.actions > 0 and result.human_actions == 0 and result.percentile(50) is None


def test_server_thread_binds_localhost_and_stops(tmp_path: Path) -> None:
    from ziggurat.server import create_app

    app = create_app(f"sqlite:///{tmp_path}/s.db", bot_delay=0, static_dir="/nonexistent")
    with ServerThread(app) as server:
        port = server.port
        host = server.server.servers[0].sockets[0].getsockname()[0]
        assert host == "127.0.0.1"
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    assert not server.thread.is_alive()


def test_commands_register_with_typer() -> None:
    import typer
    from typer.testing import CliRunner

    from ziggurat.cli.bench_server import bench_server
    from ziggurat.cli.serve import serve

    app = typer.Typer()
    app.command("serve")(serve)
    app.command("bench-server")(bench_server)
    runner = CliRunner()
    help_text = runner.invoke(app, ["serve", "--help"]).output
    assert "--db" in help_text and "--bot-delay" in help_text and "--port" in help_text
    result = runner.invoke(app, ["bench-server", "--tables", "1", "--seconds", "0.5", "--round-limit", "1"])
    assert result.exit_code == 0, result.output
    assert "actions / s" in result.output
