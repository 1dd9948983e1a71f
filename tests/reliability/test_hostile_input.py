"""The hostile-input harness (benchmarks/reliability/hostile.py) in short: a few thousand hostile
WebSocket frames and HTTP requests, and a few schemathesis examples per operation, against a
``ziggurat serve`` the harness starts on 127.0.0.1 and stops, on SQLite and, when
``ZIGGURAT_TEST_POSTGRES_URL`` names a PostgreSQL server, on a fresh database of it.

Every count the harness checks must be zero: no 5xx, no close 1011, no Traceback or ERROR line
in the server's log, no stored table changed, no action accepted with a wrong token, no socket
closed or left without an answer by a frame that must not end it, every status documented;
and a new client still plays a move afterwards.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "reliability"
POSTGRES_ENV = "ZIGGURAT_TEST_POSTGRES_URL"
MESSAGES = 2500


def _harness() -> ModuleType:
    """The harness script as a module (its folder on the path, for its sibling modules)."""
    if "hostile" in sys.modules:
        return sys.modules["hostile"]
    if str(HARNESS) not in sys.path:
        sys.path.insert(0, str(HARNESS))
    spec = importlib.util.spec_from_file_location("hostile", HARNESS / "hostile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostile"] = module  # its dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """``None`` (the harness makes a SQLite file of its own), or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    admin = os.environ.get(POSTGRES_ENV)
    if not admin:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"ziggurat_hostile_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


@pytest.mark.slow
def test_hostile_input_changes_nothing_and_fails_nothing(database_url: str | None) -> None:
    hostile = _harness()
    outcome = hostile.run(
        hostile.Options(messages=MESSAGES, examples=1, database_url=database_url, quiet=True)
    )
    report = hostile.report(outcome)
    tally = outcome.tally
    assert tally.total >= MESSAGES, report
    kinds = set(tally.sent)
    for kind in (
        "ws_malformed_json",
        "ws_wrong_types",
        "ws_unknown_type",
        "ws_oversized",
        "ws_deep_nesting",
        "ws_binary",
        "ws_out_of_turn",
        "ws_spectator_action",
        "ws_garbage_action",
        "ws_undo_not_allowed",
        "ws_chat_flood",
        "http_malformed_json",
        "http_oversized_body",
        "http_change_wrong_token",
        "http_lookup_junk",
        "http_odd_path",
        "http_schemathesis",
    ):
        assert kind in kinds, (kind, report)
    assert tally.server_errors() == 0, report
    assert outcome.log_faults == [], report
    assert outcome.tables_checked == 4 and outcome.tables_changed == [], report
    assert tally.faults["accepted_wrong_token"] == 0 and tally.faults["state_changed"] == 0, report
    assert outcome.alive, report
    assert outcome.ok and not tally.faults, report
    assert "FAIL" not in report


def test_each_check_fails_the_run() -> None:
    """One fault of any kind the harness counts, a changed table, a log line or a dead server
    makes the run fail (exit status 1) and is shown in the report."""
    hostile = _harness()
    for fault in ("http_5xx", "ws_close_1011", "accepted_wrong_token", "state_changed", "ws_no_answer"):
        outcome = hostile.Outcome(hostile.Tally(), alive=True)
        assert outcome.ok
        outcome.tally.fault(fault, "an example")
        assert (
            not outcome.ok and "FAIL" in hostile.report(outcome) and "an example" in hostile.report(outcome)
        )
    for changed in (
        {"tables_changed": ["abc"]},
        {"log_faults": ["ERROR:    Exception in ASGI application"]},
        {"alive": False},
    ):
        outcome = hostile.Outcome(hostile.Tally(), alive=True)
        for name, value in changed.items():
            setattr(outcome, name, value)
        assert not outcome.ok and "FAIL" in hostile.report(outcome)


def test_help_names_every_option() -> None:
    import subprocess

    out = subprocess.run(
        [sys.executable, str(HARNESS / "hostile.py"), "--help"], capture_output=True, text=True, check=True
    ).stdout
    for option in (
        "--messages",
        "--examples",
        "--url",
        "--database-url",
        "--server-log",
        "--workers",
        "--seed",
    ):
        assert option in out
