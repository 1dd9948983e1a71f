"""Snapshots (docs/server.md, "Snapshots and memory"): a table stores its position every
:data:`~ziggurat.server.store.SNAPSHOT_EVERY` plies and resumes from the latest one, replaying
only the actions after it; what its players are sent is the same as after replaying the whole
game, and idle tables leave memory and come back on first use."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from server_helpers import TestClient, live_table, open_client, receive_state, token, wait_idle, ws_url
from sqlalchemy import create_engine, func, select

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.server.db import SnapshotRow
from ziggurat.server.live import LiveTable
from ziggurat.server.store import SNAPSHOT_EVERY

GAMES = {"mesopotamia": 3, "mesopotamia-epochs": 4, "mare-nostrum": 4}


def _play_humans(client: TestClient, game: str, players: int, plies: int, seed: int) -> dict[str, object]:
    """A table of human seats played ``plies`` actions by seeded random choices over HTTP."""
    body = {"game": game, "players": players, "seats": [{"kind": "human"}] * players, "seed": seed}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()
    rng = random.Random(seed)
    live = live_table(client, table["table"])
    while wait_idle(client, table["table"]) < plies and not live.state.is_terminal():
        seat = live.state.current_player()
        legal = live.state.legal_actions()
        with client.websocket_connect(ws_url(table, token(table, seat))) as ws:
            receive_state(ws)
            ws.send_json({"type": "action", "action": legal[rng.randrange(len(legal))]})
            receive_state(ws)
    return table


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_table_resumed_from_its_snapshot_shows_what_a_full_replay_shows(
    db_url: str, tmp_path: Path, game: str
) -> None:
    players = GAMES[game]
    with open_client(db_url) as first:
        table = _play_humans(first, game, players, SNAPSHOT_EVERY + 7, seed=11)
        tid = table["table"]
    engine = create_engine(db_url)
    with engine.connect() as conn:
        snaps = conn.scalar(select(func.count()).select_from(SnapshotRow).where(SnapshotRow.table_id == tid))
    engine.dispose()
    assert snaps and snaps >= 1
    with open_client(db_url) as second:
        wait_idle(second, tid)
        resumed = live_table(second, tid)
        assert resumed.snapshot is not None and not resumed.history_ready  # nothing replayed from ply 1
        full = LiveTable.__new__(LiveTable)
        full.id, full.game, full.start_position = tid, resumed.game, None
        full.viewers, full.writer, full.open = resumed.viewers, resumed.writer, False
        LiveTable.rebuild(full, resumed.rows)  # the whole game, the old way
        assert all(resumed.views[v] == full.views[v] for v in resumed.views)
        assert resumed.state.legal_actions() == full.state.legal_actions()
        assert resumed.state.current_player() == full.state.current_player()
        seat = resumed.state.current_player()
        with second.websocket_connect(ws_url(table, token(table, seat))) as ws:
            msg = receive_state(ws)  # the first socket builds the log
            assert resumed.history_ready
            assert msg["view"] == full.views[seat]
            assert resumed.logs[seat] == full.logs[seat]
            assert msg["legal"] == full.state.legal_actions()
            ws.send_json({"type": "action", "action": msg["legal"][0]})
            assert receive_state(ws)["version"] == len(full.rows) + 1
        record = second.get(f"/api/tables/{tid}/record", headers={"X-Ziggurat-Token": token(table, seat)})
        assert record.status_code == 200
        assert len(record.json()["actions"]) >= len(full.rows)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_positions_continue_the_game_exactly(game: str) -> None:
    """What the snapshots rest on: a state made from ``to_position`` answers every viewer,
    legal action and continuation as the state it was taken from."""
    state = ziggurat.load(game, players=GAMES[game]).new_initial_state()
    rng = random.Random(5)
    viewers = [*range(GAMES[game]), None]
    for ply in range(400):
        if state.is_terminal():
            break
        if ply % 23 == 0:
            copy = state.game.state_from_position(state.to_position())
            assert [copy.view(v) for v in viewers] == [state.view(v) for v in viewers]
            assert copy.current_player() == state.current_player()
            if state.current_player() != CHANCE:
                assert copy.legal_actions() == state.legal_actions()
            twin, probe = copy, state.clone()
            twin_rng, probe_rng = random.Random(ply), random.Random(ply)
            for _ in range(10):
                if probe.is_terminal():
                    break
                if probe.current_player() == CHANCE:
                    a, b = sample_chance(probe, probe_rng), sample_chance(twin, twin_rng)
                else:
                    legal = probe.legal_actions()
                    assert twin.legal_actions() == legal
                    a = b = legal[probe_rng.randrange(len(legal))]
                    twin_rng.randrange(len(legal))
                assert a == b
                probe.apply(a)
                twin.apply(b)
                assert [twin.view(v) for v in viewers] == [probe.view(v) for v in viewers]
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_idle_tables_leave_memory_and_come_back_on_first_use(db_url: str) -> None:
    with open_client(db_url) as client:
        table = _play_humans(client, "mesopotamia", 2, 3, seed=2)
        tid = table["table"]
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert tid in manager.tables
        evicted = client.portal.call(manager.evict, 0.0)  # type: ignore[union-attr]
        assert evicted >= 1 and tid not in manager.tables
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            msg = receive_state(ws)  # loaded again on first use
            assert msg["version"] >= 3
        assert tid in manager.tables
        # a table somebody watches, or whose bots play, stays
        with client.websocket_connect(ws_url(table, token(table, 0))) as ws:
            receive_state(ws)
            assert client.portal.call(manager.evict, 0.0) == 0  # type: ignore[union-attr]
            assert tid in manager.tables
