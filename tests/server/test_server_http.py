"""HTTP endpoints of docs/server.md: health, lobby, tables, lookup, records, limits, OpenAPI."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_table, token, wait_idle

from ziggurat.server import create_app


def test_healthz(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "tables": {"resumed": 0, "failed": []}}


def test_games_lists_mesopotamia_with_options_and_bots(client: TestClient) -> None:
    games = client.get("/api/games").json()
    meso = next(g for g in games if g["id"] == "mesopotamia")
    assert meso["name"] == "Mesopotamia"
    assert (meso["min_players"], meso["max_players"]) == (2, 4)
    assert meso["options"]["round_limit"] is None
    assert meso["options"]["first_player"] == "random"
    assert "random" in meso["bots"]


def test_messages_catalogue_per_language(client: TestClient) -> None:
    """The browser renders log events and refusals from these patterns (engine and games)."""
    fr = client.get("/api/messages/fr").json()
    en = client.get("/api/messages/en").json()
    assert fr["engine.illegal"] == "coup illégal : {action} : {reason}"
    assert en["engine.illegal"] == "illegal: {action}: {reason}"
    assert {k.split(".", 1)[0] for k in en} >= {"engine", "colour", "meso", "epochs", "mn"}
    assert set(en) == {k for k in fr if "@" not in k} | {k for k in en if "@" in k}
    r = client.get("/api/messages/de")
    assert r.status_code == 404 and "languages: en, fr" in r.json()["detail"]


@pytest.mark.sqlite_only
def test_create_table_gives_seat_and_spectator_tokens(client: TestClient, db_url: str) -> None:
    t = new_table(client, seats="hbh", options={"round_limit": 20})
    assert t["game"] == "mesopotamia"
    seats = t["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert [s["colour"] for s in seats] == ["blue", "yellow", "red"]
    assert seats[1]["token"] is None and seats[1]["link"] is None and seats[1]["bot"] == "random"
    tokens = [seats[0]["token"], seats[2]["token"], t["spectator_token"]]
    assert all(len(tok) == 32 for tok in tokens)
    assert len(set(tokens)) == 3
    # links are absolute: the test client asks http://testserver/ (docs/server.md, "Hosting")
    assert seats[0]["link"] == f"http://testserver/table/{t['table']}#token={seats[0]['token']}"
    assert t["spectator_link"] == f"http://testserver/table/{t['table']}#token={t['spectator_token']}"
    # the database keeps only SHA-256 hashes of tokens
    raw = Path(db_url.removeprefix("sqlite:///")).read_bytes()
    for path in Path(db_url.removeprefix("sqlite:///")).parent.glob("ziggurat.db*"):
        raw += path.read_bytes()
    for tok in tokens:
        assert tok.encode() not in raw
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    hashes = {row[0] for row in con.execute("select hash from tokens")}
    con.close()
    assert {hashlib.sha256(tok.encode()).hexdigest() for tok in tokens} <= hashes


def test_create_table_refusals_are_400_or_422_with_a_reason(client: TestClient) -> None:
    """A malformed request is a 400; a well-formed one with a bad option a 422."""

    def post(body: dict[str, object]) -> tuple[int, str]:
        r = client.post("/api/tables", json=body)
        return r.status_code, r.json()["detail"]

    code, why = post({"game": "chess", "players": 2})
    assert code == 400 and "unknown game" in why
    code, why = post({"game": "mesopotamia", "players": 3, "options": {"nonsense": 1}})
    assert code == 422 and "nonsense" in why
    code, why = post({"game": "mesopotamia", "players": 3, "options": {"round_limit": -2}})
    assert code == 422 and "round_limit" in why
    code, why = post({"game": "mesopotamia", "players": 7})
    assert code == 400 and "2 to 4" in why
    code, why = post({"game": "mesopotamia", "players": 3, "seats": [{"kind": "human"}]})
    assert code == 400 and "seats" in why
    code, why = post(
        {"game": "mesopotamia", "players": 2, "seats": [{"kind": "bot", "bot": "x"}, {"kind": "human"}]}
    )
    assert code == 400 and "unknown bot" in why
    code, why = post({"game": "mesopotamia", "players": 2, "seats": [{"kind": "alien"}, {"kind": "human"}]})
    assert code == 400 and "kind" in why
    code, why = post({"game": "mesopotamia", "players": 2, "seed": -1})
    assert code == 400 and "seed" in why
    code, why = post({"players": 2})
    assert code == 400 and "game" in why


def test_lookup_finds_tables_by_seat_and_spectator_token(client: TestClient) -> None:
    t1 = new_table(client, seats="hh")
    t2 = new_table(client, seats="bh")
    wait_idle(client, t1["table"])  # the set-up's chance draws played: a person is to move
    r = client.post("/api/tables/lookup", json={"tokens": [token(t1, 1), t2["spectator_token"], "x" * 32]})
    assert r.status_code == 200
    found = {(a["table"], a["seat"]): a for a in r.json()}
    assert set(found) == {(t1["table"], 1), (t2["table"], None)}
    a = found[(t1["table"], 1)]
    assert a["game"] == "mesopotamia" and a["status"] == "playing" and a["colour"] == "yellow"
    assert a["to_move"] in ("blue", "yellow")
    assert found[(t2["table"], None)]["colour"] is None
    assert client.post("/api/tables/lookup", json={"tokens": []}).json() == []


def test_get_table_needs_a_token(client: TestClient) -> None:
    t = new_table(client, seats="hb")
    wait_idle(client, t["table"])
    url = f"/api/tables/{t['table']}"
    assert client.get(url).status_code == 403
    assert client.get(url, headers={"X-Ziggurat-Token": "wrong"}).status_code == 403
    assert client.get("/api/tables/nope", headers={"X-Ziggurat-Token": token(t, 0)}).status_code == 404
    for tok in (token(t, 0), t["spectator_token"]):
        r = client.get(url, headers={"X-Ziggurat-Token": tok})
        assert r.status_code == 200
        info = r.json()
        assert info["table"] == t["table"] and info["players"] == 2 and info["status"] == "playing"
        assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
        assert info["seats"][0]["connected"] is False
        assert info["to_move"] == "blue"  # the bot has played up to the human's turn
        assert info["rematch"] is None


def test_record_is_redacted_and_hides_the_seed_while_playing(client: TestClient) -> None:
    t = new_table(client, seats="hb", seed=42)
    wait_idle(client, t["table"])
    url = f"/api/tables/{t['table']}/record"
    assert client.get(url).status_code == 403
    mine = client.get(url, headers={"X-Ziggurat-Token": token(t, 0)}).json()
    public = client.get(url, headers={"X-Ziggurat-Token": t["spectator_token"]}).json()
    assert mine["format"] == "ziggurat-record/1" and mine["redacted_for"] == "blue"
    assert public["redacted_for"] is None
    assert mine["seed"] is None and public["seed"] is None
    assert "final_fingerprint" not in mine
    assert len(mine["actions"]) == len(public["actions"]) >= 1


def test_request_body_too_large_is_413(client: TestClient) -> None:
    r = client.post("/api/tables/lookup", json={"tokens": ["x" * 70_000]})
    assert r.status_code == 413
    assert "larger" in r.json()["detail"]


def test_openapi_lists_every_endpoint(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    expected = {
        ("/healthz", "get"),
        ("/api/games", "get"),
        ("/api/tables", "post"),
        ("/api/tables/lookup", "post"),
        ("/api/tables/{table_id}", "get"),
        ("/api/tables/{table_id}/record", "get"),
        ("/api/tables/{table_id}/rematch", "post"),
    }
    listed = {(p, m) for p, methods in paths.items() for m in methods}
    assert expected <= listed
    assert not any(p.startswith(("/table/", "/static")) or p == "/" for p in paths)
    create = paths["/api/tables"]["post"]
    assert "201" in create["responses"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("TableIn")


def test_static_client_is_served_and_optional(db_url: str, tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<h1>lobby</h1>")
    (static / "table.html").write_text("<h1>table</h1>")
    (static / "app.js").write_text("export const x = 1;")
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static)) as c:
        assert "lobby" in c.get("/").text
        assert "table" in c.get("/table/abc").text
        assert c.get("/app.js").text.startswith("export")
        assert c.get("/static/app.js").status_code == 200
        assert c.get("/missing.js").status_code == 404
    with TestClient(create_app(db_url, bot_delay=0, static_dir=tmp_path / "absent")) as c:
        assert c.get("/healthz").status_code == 200
        assert c.get("/").status_code == 404
        assert c.get("/app.js").status_code == 404
