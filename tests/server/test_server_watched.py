"""Views and logs are kept current only for the viewers someone can look from.

A bot's seat has no token, so nobody sees the game from it: its view and log are not worked
out at every step, and are built (the same as a full replay gives) if they are ever asked for.
"""

from __future__ import annotations

from pathlib import Path

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


def test_a_bots_seat_is_not_watched_and_its_log_is_built_when_asked(db_url: str, tmp_path: Path) -> None:
    with open_client(db_url) as client:
        table = new_table(client, "hbb")
        tid = table["table"]
        live = live_table(client, tid)
        assert live.watched == {0, None}
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            msg = settle(ws, client, tid, receive_state(ws))
            for _ in range(6):
                if live.state.is_terminal():
                    break
                ws.send_json({"type": "action", "action": msg["legal"][0]})
                msg = settle(ws, client, tid)
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
