"""Views and logs are kept current only for the viewers someone looks from in this process.

A viewer's view and log are worked out at every step once a socket (or a replay) asked for them
here, built first by replaying the game for that viewer (the same as a full replay gives). A
bot's seat has no token, so nobody sees the game from it; a seat or the spectators served by
another process cost this one nothing either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server_helpers import (
    live_table,
    new_table,
    open_client,
    receive_state,
    settle,
    token,
    ws_url,
)

from ziggurat.server.live import LiveTable


def _full_rebuild(live: LiveTable) -> LiveTable:
    """The table rebuilt from its stored actions for every viewer (what the server did before)."""
    full = LiveTable.__new__(LiveTable)
    full.id, full.game, full.start_position = live.id, live.game, live.start_position
    full.viewers, full.writer, full.open = live.viewers, live.writer, live.open
    LiveTable.rebuild(full, live.rows)
    return full


def _play_first_legal(
    ws: Any, client: Any, tid: str, live: LiveTable, msg: dict[str, Any], times: int
) -> dict[str, Any]:
    """Play the first legal action ``times`` times (fewer if the game ends); the last state."""
    for _ in range(times):
        if live.state.is_terminal():
            break
        ws.send_json({"type": "action", "action": msg["legal"][0]})
        msg = settle(ws, client, tid)
    return msg


def test_a_bots_seat_is_not_watched_and_its_log_is_built_when_asked(db_url: str, tmp_path: Path) -> None:
    with open_client(db_url) as client:
        table = new_table(client, "hbb")
        tid = table["table"]
        live = live_table(client, tid)
        assert live.watched == set()  # nobody looks yet
        with client.websocket_connect(ws_url(table, table["spectator_token"])) as spectator:
            receive_state(spectator)
        assert live.watched == {None}
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            _play_first_legal(ws, client, tid, live, settle(ws, client, tid, receive_state(ws)), 6)
        assert len(live.rows) > 10
        assert set(live.views) == {0, None}
        assert live.logs[1] == [] and live.logs[2] == []
        full = _full_rebuild(live)
        assert live.logs[0] == full.logs[0] and live.logs[None] == full.logs[None]
        assert live.views[0] == full.views[0] and live.views[None] == full.views[None]

        client.portal.call(live.watch, 1)  # type: ignore[union-attr]
        assert live.watched == {0, 1, None}
        assert live.logs[1] == full.logs[1] and live.log_plies[1] == full.log_plies[1]
        assert live.views[1] == full.views[1]


def test_a_spectator_sees_the_log_a_full_replay_gives(db_url: str) -> None:
    with open_client(db_url) as client:
        table = new_table(client, "hbb")
        tid = table["table"]
        live = live_table(client, tid)
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            msg = settle(ws, client, tid, receive_state(ws))
            ws.send_json({"type": "action", "action": msg["legal"][-1]})
            settle(ws, client, tid)
        with client.websocket_connect(ws_url(table, table["spectator_token"])) as spectator:
            seen = receive_state(spectator)
        full = _full_rebuild(live)
        assert seen["view"] == full.views[None]
        assert len(seen["log"]) == len(full.logs[None])


def test_a_spectator_who_comes_late_gets_the_log_a_full_replay_gives_and_is_kept_current(db_url: str) -> None:
    """Nobody watched from the spectators' side while the game went on: their view and log were
    not worked out; the first spectator's socket builds them, and they are kept from then on."""
    with open_client(db_url) as client:
        table = new_table(client, "hbb")
        tid = table["table"]
        live = live_table(client, tid)
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            msg = _play_first_legal(ws, client, tid, live, settle(ws, client, tid, receive_state(ws)), 3)
            assert live.watched == {0}
            assert None not in live.views and live.logs[None] == []
            with client.websocket_connect(ws_url(table, table["spectator_token"])) as spectator:
                seen = receive_state(spectator)
                full = _full_rebuild(live)
                assert live.watched == {0, None}
                assert seen["view"] == full.views[None]
                assert [json.loads(e) for e in live.logs[None]] == seen["log"]
                assert live.logs[None] == full.logs[None]
                if not live.state.is_terminal():
                    _play_first_legal(ws, client, tid, live, msg, 1)
                    full = _full_rebuild(live)
                    assert live.views[None] == full.views[None] and live.logs[None] == full.logs[None]
