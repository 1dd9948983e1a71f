"""Time controls chosen when a table is created (docs/server.md, "Time controls"): stored with
the table, shown by ``GET /api/tables/{id}``, kept by a restart and a rematch; bad ones refused
with the reason and nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import TestClient, open_client, token
from sqlalchemy import func, select

from ziggurat.server.db import TableRow
from ziggurat.server.timecontrol import TimeControl, duration


def create(client: TestClient, time_control: dict[str, Any] | None) -> Any:
    body: dict[str, Any] = {"game": "mesopotamia", "players": 3, "seed": 1}
    if time_control is not None:
        body["time_control"] = time_control
    return client.post("/api/tables", json=body)


def test_no_time_control_is_the_default(client: TestClient) -> None:
    t = create(client, None).json()
    info = client.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
    assert info["time_control"] is None
    none = create(client, {"kind": "none"}).json()
    info = client.get(f"/api/tables/{none['table']}", headers={"X-Ziggurat-Token": token(none, 0)}).json()
    assert info["time_control"] is None


def test_a_real_time_and_a_turn_based_clock_are_stored_and_survive_a_restart(db_url: str) -> None:
    with open_client(db_url) as client:
        fast = create(client, {"kind": "realtime", "budget": 900, "increment": 20}).json()
        slow = create(client, {"kind": "turn_based", "per_turn": 86400, "takeover": "medium"}).json()
    with open_client(db_url) as client:
        got = client.get(f"/api/tables/{fast['table']}", headers={"X-Ziggurat-Token": token(fast, 0)})
        assert got.json()["time_control"] == {
            "kind": "realtime",
            "budget": 900.0,
            "increment": 20.0,
            "grace": 15.0,
            "takeover": "easy",
        }
        got = client.get(f"/api/tables/{slow['table']}", headers={"X-Ziggurat-Token": token(slow, 0)})
        assert got.json()["time_control"] == {
            "kind": "turn_based",
            "per_turn": 86400.0,
            "grace": 15.0,
            "takeover": "medium",
        }


@pytest.mark.parametrize(
    ("time_control", "reason"),
    [
        ({"kind": "realtime"}, "needs a budget"),
        ({"kind": "turn_based"}, "needs per_turn"),
        ({"kind": "realtime", "budget": 60, "per_turn": 60}, "per_turn is for turn-based"),
        ({"kind": "turn_based", "per_turn": 60, "budget": 60}, "budget and increment are for real-time"),
        ({"kind": "realtime", "budget": 60, "takeover": "grandmaster"}, "unknown bot level 'grandmaster'"),
        ({"kind": "realtime", "budget": -5}, "budget"),
        ({"kind": "realtime", "budget": 60, "grace": -1}, "grace"),
        ({"kind": "blitz", "budget": 60}, "kind"),
    ],
)
def test_a_bad_time_control_is_refused_and_nothing_is_stored(
    client: TestClient, time_control: dict[str, Any], reason: str
) -> None:
    r = create(client, time_control)
    assert r.status_code == 400, r.text
    assert reason in r.json()["detail"]
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.sessions() as s:
        assert s.scalar(select(func.count()).select_from(TableRow)) == 0
    assert client.app.state.manager.tables == {}  # type: ignore[attr-defined]


def test_a_rematch_keeps_the_time_control(client: TestClient) -> None:
    t = create(client, {"kind": "turn_based", "per_turn": 3600}).json()
    again = client.post(f"/api/tables/{t['table']}/rematch", headers={"X-Ziggurat-Token": token(t, 0)}).json()
    info = client.get(f"/api/tables/{again['table']}", headers={"X-Ziggurat-Token": token(again, 0)}).json()
    assert info["time_control"]["kind"] == "turn_based" and info["time_control"]["per_turn"] == 3600.0


def test_time_controls_describe_themselves() -> None:
    assert TimeControl("realtime", budget=900, increment=20).describe() == "15 min + 20 s"
    assert TimeControl("realtime", budget=300).describe() == "5 min"
    assert TimeControl("turn_based", per_turn=86400).describe() == "1 d per turn"
    assert duration(90) == "1 min 30 s" and duration(0) == "0 s" and duration(3 * 86400 + 3600) == "3 d 1 h"
    stored = TimeControl("turn_based", per_turn=7200, grace=60, takeover="hard")
    assert TimeControl.from_json(stored.to_json()) == stored
    assert TimeControl.from_json(None) is None and TimeControl.from_json({"kind": "none"}) is None
