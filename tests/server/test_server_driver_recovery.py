"""The bot driver outlives a failure: a table whose store fails once under a bot's move goes on
and ends as the same game would have without the failure."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import live_table, new_table, open_client, wait_idle
from sqlalchemy.exc import OperationalError

from ziggurat.server import driver

OPTIONS = {"round_limit": 3}


def _finished(client: Any, table_id: str, within: float) -> bool:
    """Whether the table's game is over within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if live_table(client, table_id).state.is_terminal():
            return True
        time.sleep(0.01)
    return False


def test_a_store_failure_under_a_bot_move_does_not_stop_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_client(f"sqlite:///{tmp_path / 'reference.db'}") as ref:
        t = new_table(ref, seats="bbb", options=OPTIONS, seed=21)
        wait_idle(ref, t["table"])
        table = live_table(ref, t["table"])
        want = (table.state.fingerprint(), [row.text for row in table.rows])

    monkeypatch.setattr(driver, "RETRY_AFTER", (0.05,))
    with open_client(f"sqlite:///{tmp_path / 'failing.db'}") as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        stored = store.add_action
        calls = 0

        async def fails_once(*args: Any, **kwargs: Any) -> Any:
            """The database out of reach for the tenth action's commit (nothing stored)."""
            nonlocal calls
            calls += 1
            if calls == 10:
                raise OperationalError("INSERT", {}, ConnectionError("the database went away"))
            return await stored(*args, **kwargs)

        monkeypatch.setattr(store, "add_action", fails_once)
        with caplog.at_level(logging.ERROR, logger="ziggurat.server.live"):
            t = new_table(client, seats="bbb", options=OPTIONS, seed=21)
            assert _finished(client, t["table"], within=60), "the table stopped after the failure"
        table = live_table(client, t["table"])
        assert calls > 10
        assert (table.state.fingerprint(), [row.text for row in table.rows]) == want
    failures = [r for r in caplog.records if "the bot driver failed" in r.getMessage()]
    assert len(failures) == 1
    assert "reads the table again" in failures[0].getMessage()


def test_an_action_stored_before_a_failure_is_not_played_twice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure comes after the commit: the copy here reads the stored action back."""
    with open_client(f"sqlite:///{tmp_path / 'reference.db'}") as ref:
        t = new_table(ref, seats="bbb", options=OPTIONS, seed=22)
        wait_idle(ref, t["table"])
        table = live_table(ref, t["table"])
        want = (table.state.fingerprint(), [row.text for row in table.rows])

    monkeypatch.setattr(driver, "RETRY_AFTER", (0.05,))
    with open_client(f"sqlite:///{tmp_path / 'failing.db'}") as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        stored = store.add_action
        calls = 0

        async def fails_after_commit(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            kept = await stored(*args, **kwargs)
            if calls == 10:
                raise OperationalError("COMMIT", {}, ConnectionError("the answer was lost"))
            return kept

        monkeypatch.setattr(store, "add_action", fails_after_commit)
        with caplog.at_level(logging.ERROR, logger="ziggurat.server.live"):
            t = new_table(client, seats="bbb", options=OPTIONS, seed=22)
            assert _finished(client, t["table"], within=60), "the table stopped after the failure"
        table = live_table(client, t["table"])
        assert (table.state.fingerprint(), [row.text for row in table.rows]) == want
    assert sum("the bot driver failed" in r.getMessage() for r in caplog.records) == 1
