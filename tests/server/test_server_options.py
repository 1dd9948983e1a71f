"""Table options on the server: bad ones are refused before anything is stored (422), stored
tables with the old option names resume, and a stored table that cannot be resumed is reported
(one log line, ``/healthz``) while every other table resumes and plays on."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from server_helpers import new_table, open_client, token, wait_idle, ws_url
from sqlalchemy import create_engine, func, select, update

from ziggurat.server.db import ActionRow, TableRow


def _stored_tables(db_url: str) -> int:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            count: int = conn.execute(select(func.count()).select_from(TableRow)).scalar_one()
    finally:
        engine.dispose()
    return count


def _set_options(db_url: str, table_id: str, options: dict[str, Any]) -> None:
    """Rewrite a stored table's options directly in the database."""
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(options=options))
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"start_tiles": 1.5}, "option start_tiles=1.5: must be null or a list"),  # was 201, then lost
        ({"neutral_huts": 1.5}, "option neutral_huts=1.5"),
        ({"round_limit": 2.5}, "option round_limit=2.5: must be null or a whole number from 1 to 1000"),
        ({"round_limit": "3"}, "option round_limit='3'"),
        ({"round_limit": [3]}, "option round_limit=[3]"),
        ({"round_limit": {"a": {"b": 1}}}, "option round_limit={'a': {'b': 1}}"),
        ({"tile_pile_count": True}, "option tile_pile_count=True: must be a whole number from 1 to 28"),
        ({"tile_pile_count": 10**6}, "from 1 to 28"),
        ({"holy_stone_effect": {"limit_gain": 0.5, "mana_gain": 1}}, "holy_stone_effect.limit_gain=0.5"),
        ({"roundLimit": 1.5}, "option round_limit=1.5"),  # an old name is checked like the new one
        ({"no_such_option": 1}, "unknown option 'no_such_option' for mesopotamia"),
    ],
)
def test_a_table_with_a_bad_option_is_refused_with_422_and_nothing_is_stored(
    client: Any, db_url: str, options: dict[str, Any], words: str
) -> None:
    r = client.post("/api/tables", json={"game": "mesopotamia", "players": 3, "options": options})
    assert r.status_code == 422, r.text
    assert words in r.json()["detail"], r.json()
    assert _stored_tables(db_url) == 0


def test_the_openapi_document_lists_the_422(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    responses = spec["paths"]["/api/tables"]["post"]["responses"]
    assert responses["422"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorOut"
    }
    assert "HTTPValidationError" not in str(spec)


def test_a_stored_table_with_old_option_names_resumes_with_the_new_names(db_url: str) -> None:
    with open_client(db_url) as first:
        t = new_table(first, seats="hh", options={"round_limit": 5, "tile_pile_count": 4})
    _set_options(db_url, t["table"], {"roundLimit": 5, "tilePileCount": 4})  # as written before the rename
    with open_client(db_url) as second:
        info = second.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
        assert info["options"] == {"round_limit": 5, "tile_pile_count": 4}
        assert second.get("/healthz").json()["tables"] == {"resumed": 1, "failed": []}


def _play_one(client: Any, t: dict[str, Any]) -> None:
    """The seat to move plays its first legal action; the table's version goes up."""
    wait_idle(client, t["table"])
    info = client.get(f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": token(t, 0)}).json()
    seat = next(s["seat"] for s in info["seats"] if s["colour"] == info["to_move"])
    with client.websocket_connect(ws_url(t, token(t, seat))) as ws:
        state = ws.receive_json()
        ws.send_json({"type": "action", "action": state["legal"][0]})
        while (after := ws.receive_json())["type"] == "state" and after["version"] == state["version"]:
            pass
        assert after["type"] == "state" and after["version"] > state["version"], after


def test_a_table_that_cannot_be_resumed_is_reported_and_the_others_play_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_url = f"sqlite:///{tmp_path / 'resume.db'}"  # a real SQLite file, corrupted behind the server's back
    with open_client(db_url) as first:
        good = new_table(first, seats="hh", seed=1)
        bad_options = new_table(first, seats="hh", seed=2)
        bad_action = new_table(first, seats="hh", seed=3)
        other = new_table(first, seats="hh", seed=4)
        _play_one(first, bad_action)
    _set_options(db_url, bad_options["table"], {"start_tiles": 1.5})
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            update(ActionRow).where(ActionRow.table_id == bad_action["table"]).values(text="fly away")
        )
    engine.dispose()

    caplog.set_level(logging.INFO)
    with open_client(db_url) as second:
        lines = [r for r in caplog.records if r.name == "ziggurat.server.manager"]
        failed = {r.getMessage().split()[1]: r for r in lines}
        assert set(failed) == {bad_options["table"], bad_action["table"]}
        assert all(r.levelno == logging.ERROR and r.exc_info is None for r in lines)
        assert failed[bad_options["table"]].getMessage() == (
            f"table {bad_options['table']} could not be resumed: option start_tiles=1.5: must be null or "
            "a list of 1 to 41 items, each an object with exactly {id: a text of at most 32 characters; "
            "type: one of 'temple', 'volcano', 'forest', 'quarry', 'plains'; q: a whole number from -12 "
            "to 12; r: a whole number from -12 to 12}"
        )
        assert f"table {bad_action['table']}: stored action 1 ('fly away') refused" in (
            failed[bad_action["table"]].getMessage()
        )
        assert "Traceback" not in caplog.text

        health = second.get("/healthz").json()
        assert health["status"] == "ok"
        assert health["tables"]["resumed"] == 2
        reasons = {f["table"]: f["reason"] for f in health["tables"]["failed"]}
        assert set(reasons) == {bad_options["table"], bad_action["table"]}
        assert reasons[bad_options["table"]].startswith("option start_tiles=1.5: must be null or a list")

        r = second.get(
            f"/api/tables/{bad_options['table']}", headers={"X-Ziggurat-Token": token(bad_options, 0)}
        )
        assert r.status_code == 503 and "start_tiles=1.5" in r.json()["detail"]
        with second.websocket_connect(ws_url(bad_action, token(bad_action, 0))) as ws:
            closed = ws.receive()
            assert closed["type"] == "websocket.close" and "fly away" in closed["reason"], closed
        for t in (good, other):
            _play_one(second, t)
        assert len([r for r in caplog.records if r.name == "ziggurat.server.manager"]) == 2  # reported once
