"""Restart and resume: a new app on the same database continues every unfinished game identically."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import live_table, new_table, open_client, receive_state, settle, token, wait_idle, ws_url

OPTIONS = {"round_limit": 4}


def _play_human(client: TestClient, t: dict[str, Any], rng: random.Random, moves: int | None) -> None:
    """Seat 0 plays ``moves`` random legal actions (all of its actions if ``None``)."""
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = settle(ws, client, t["table"], receive_state(ws))
        done = 0
        while msg["status"] == "playing" and (moves is None or done < moves):
            ws.send_json({"type": "action", "action": rng.choice(msg["legal"])})
            msg = settle(ws, client, t["table"], receive_state(ws))
            done += 1


def _texts(client: TestClient, table_id: str) -> list[str]:
    return [row.text for row in live_table(client, table_id).rows]


def test_restart_continues_the_same_game(db_url: str, tmp_path: Path) -> None:
    with open_client(f"sqlite:///{tmp_path / 'reference.db'}") as ref:
        t = new_table(ref, seats="hbb", options=OPTIONS, seed=77)
        _play_human(ref, t, random.Random(5), None)
        reference = live_table(ref, t["table"])
        assert reference.status == "over"
        want = (reference.state.fingerprint(), _texts(ref, t["table"]))

    rng = random.Random(5)
    with open_client(db_url) as first:
        t = new_table(first, seats="hbb", options=OPTIONS, seed=77)
        _play_human(first, t, rng, 12)
        middle = live_table(first, t["table"])
        at_stop = (middle.version, middle.state.fingerprint())
    with open_client(db_url) as second:
        resumed = second.app.state.manager.tables[t["table"]]  # type: ignore[attr-defined]
        assert (resumed.version, resumed.state.fingerprint()) == at_stop
        _play_human(second, t, rng, None)
        got = (live_table(second, t["table"]).state.fingerprint(), _texts(second, t["table"]))
    assert got == want


def test_bots_resume_after_a_stop_in_the_middle(db_url: str, tmp_path: Path) -> None:
    """An all-bot table stopped at any moment finishes exactly as an uninterrupted one."""
    with open_client(f"sqlite:///{tmp_path / 'reference.db'}") as ref:
        t = new_table(ref, seats="bbb", options={"round_limit": 6}, seed=9)
        wait_idle(ref, t["table"])
        want = (live_table(ref, t["table"]).state.fingerprint(), _texts(ref, t["table"]))

    with open_client(db_url) as first:
        t = new_table(first, seats="bbb", options={"round_limit": 6}, seed=9)
        while live_table(first, t["table"]).version < 20:
            time.sleep(0.001)
        stopped_at = live_table(first, t["table"]).version
    with open_client(db_url) as second:
        wait_idle(second, t["table"])
        table = live_table(second, t["table"])
        assert table.status == "over"
        assert (table.state.fingerprint(), _texts(second, t["table"])) == want
    assert 20 <= stopped_at < len(want[1])
