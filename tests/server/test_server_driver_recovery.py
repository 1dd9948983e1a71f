"""The bot driver outlives a failure: a table whose store fails once under a bot's move goes on
and ends as the same game would have without the failure."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import live_table, new_table, open_client, wait_idle
from sqlalchemy.exc import OperationalError

from ziggurat.server import driver

OPTIONS = {"round_limit": 3}

Store = Callable[..., Awaitable[Any]]


def _game(client: Any, table_id: str) -> tuple[str, list[str]]:
    table = live_table(client, table_id)
    return table.state.fingerprint(), [row.text for row in table.rows]


def _uninterrupted(tmp_path: Path, seed: int) -> tuple[str, list[str]]:
    """The all-bot game of ``seed`` played to its end with nothing failing."""
    with open_client(f"sqlite:///{tmp_path / 'reference.db'}") as ref:
        t = new_table(ref, seats="bbb", options=OPTIONS, seed=seed)
        wait_idle(ref, t["table"])
        return _game(ref, t["table"])


def _played_with(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    seed: int,
    failing: Callable[[Store], Store],
) -> tuple[str, list[str]]:
    """The same game, its store's ``add_action`` replaced by ``failing(add_action)``; fails the
    test if the table does not finish within a minute (it stopped)."""
    monkeypatch.setattr(driver, "RETRY_AFTER", (0.05,))
    with open_client(f"sqlite:///{tmp_path / 'failing.db'}") as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        monkeypatch.setattr(store, "add_action", failing(store.add_action))
        with caplog.at_level(logging.ERROR, logger="ziggurat.server.live"):
            t = new_table(client, seats="bbb", options=OPTIONS, seed=seed)
            deadline = time.monotonic() + 60
            while not live_table(client, t["table"]).state.is_terminal():
                assert time.monotonic() < deadline, "the table stopped after the failure"
                time.sleep(0.01)
        return _game(client, t["table"])


def _failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "the bot driver failed" in r.getMessage()]


def test_a_store_failure_under_a_bot_move_does_not_stop_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0

    def fails_once(stored: Store) -> Store:
        async def add_action(*args: Any, **kwargs: Any) -> Any:
            """The database out of reach for the tenth action's commit (nothing stored)."""
            nonlocal calls
            calls += 1
            if calls == 10:
                raise OperationalError("INSERT", {}, ConnectionError("the database went away"))
            return await stored(*args, **kwargs)

        return add_action

    assert _played_with(tmp_path, monkeypatch, caplog, 21, fails_once) == _uninterrupted(tmp_path, 21)
    assert calls > 10
    failures = _failures(caplog)
    assert len(failures) == 1 and "reads the table again" in failures[0]


def test_an_action_stored_before_a_failure_is_not_played_twice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure comes after the commit: the copy here reads the stored action back."""
    calls = 0

    def fails_after_commit(stored: Store) -> Store:
        async def add_action(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            kept = await stored(*args, **kwargs)
            if calls == 10:
                raise OperationalError("COMMIT", {}, ConnectionError("the answer was lost"))
            return kept

        return add_action

    assert _played_with(tmp_path, monkeypatch, caplog, 22, fails_after_commit) == _uninterrupted(tmp_path, 22)
    assert len(_failures(caplog)) == 1
