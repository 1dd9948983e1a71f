"""An account's games (docs/server.md, "Accounts"): seat claims, "My games", seat links on any
device and public profiles; every refusal changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    TestClient,
    create_app,
    live_table,
    new_table,
    receive_state,
    settle,
    token,
    wait_idle,
    ws_url,
)
from sqlalchemy import func, select

from endgame_positions import endgame
from ziggurat.server.accounts import CSRF_HEADER
from ziggurat.server.db import RatingRow, SeatRow, TableRow, TokenRow, UserRow

TOKEN = "X-Ziggurat-Token"


@pytest.fixture
def pclient(db_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """A server that creates tables from positions (to reach a game's end in one move)."""
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", allow_positions=True)
    with TestClient(app) as c:
        yield c


def signup(client: TestClient, name: str) -> str:
    """Sign up (and in) as ``name``; the CSRF token."""
    r = client.post("/api/account/signup", json={"name": name, "password": "ziggurat of Ur 9"})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def signin(client: TestClient, name: str) -> str:
    client.cookies.clear()
    r = client.post("/api/account/signin", json={"name": name, "password": "ziggurat of Ur 9"})
    assert r.status_code == 200, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def claim(client: TestClient, table_id: str, tok: str | None, csrf: str | None) -> Any:
    headers = {}
    if tok is not None:
        headers[TOKEN] = tok
    if csrf is not None:
        headers[CSRF_HEADER] = csrf
    return client.post(f"/api/tables/{table_id}/claim", headers=headers)


def store(client: TestClient) -> Any:
    return client.app.state.manager.store  # type: ignore[attr-defined]


def owners(client: TestClient, table_id: str) -> list[str | None]:
    """The account name each seat of the table is saved to (``None``: no account)."""
    with store(client).sessions() as s:
        rows = s.execute(
            select(SeatRow.seat, UserRow.name)
            .outerjoin(UserRow, SeatRow.user_id == UserRow.id)
            .where(SeatRow.table_id == table_id)
            .order_by(SeatRow.seat)
        )
        return [name for _, name in rows]


def token_count(client: TestClient) -> int:
    with store(client).sessions() as s:
        return int(s.scalar(select(func.count()).select_from(TokenRow)) or 0)


def finish_from_position(client: TestClient) -> dict[str, Any]:
    """A table started one move before the end of a Mesopotamia game (all seats human), played
    to its end by the seat that ends it (M16.1)."""
    end = endgame("mesopotamia", 3, 1)
    body = {"game": "mesopotamia", "players": 3, "seats": [{"kind": "human"}] * 3, "seed": 5}
    r = client.post("/api/tables", json={**body, "position": end.position})
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    with client.websocket_connect(ws_url(t, token(t, end.seat))) as ws:
        settle(ws, client, t["table"])
        ws.send_json({"type": "action", "action": end.action})
        while receive_state(ws)["status"] != "over":
            pass
    t["ender"] = end.seat
    t["final"] = end.final
    return t


# --- claims ------------------------------------------------------------------------------------


def test_claiming_a_seat_saves_it_to_the_account_and_again_is_fine(client: TestClient) -> None:
    csrf = signup(client, "Gilgamesh")
    t = new_table(client, "hhh")
    r = claim(client, t["table"], token(t, 1), csrf)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "table": t["table"],
        "seat": 1,
        "colour": t["seats"][1]["colour"],
        "saved": True,
        "taken": False,
    }
    assert owners(client, t["table"]) == [None, "Gilgamesh", None]
    again = claim(client, t["table"], token(t, 1), csrf)
    assert again.status_code == 200 and again.json()["saved"] is True
    assert owners(client, t["table"]) == [None, "Gilgamesh", None]
    state = client.get(f"/api/tables/{t['table']}/claim", headers={TOKEN: token(t, 1)})
    assert state.status_code == 200 and state.json()["saved"] is True and state.json()["taken"] is False


def test_a_claimed_seat_is_named_at_the_table_at_once(client: TestClient) -> None:
    csrf = signup(client, "Gilgamesh")
    t = new_table(client, "hhh")
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        first = receive_state(ws)
        assert first["seats"][1]["name"] is None and first["seats"][1]["account"] is False
        assert claim(client, t["table"], token(t, 1), csrf).status_code == 200
        after = receive_state(ws)
        assert after["seats"][1]["name"] == "Gilgamesh" and after["seats"][1]["account"] is True
    table = client.app.state.manager.tables[t["table"]]  # type: ignore[attr-defined]
    assert table.seats[1].user_id is not None  # the end of the game rates it without a reload


def test_claim_refusals_change_nothing(client: TestClient) -> None:
    t = new_table(client, "hhh")
    table_id = t["table"]
    nobody = claim(client, table_id, token(t, 0), None)
    assert nobody.status_code == 401 and "sign in" in nobody.json()["detail"]
    csrf = signup(client, "Enkidu")
    no_csrf = claim(client, table_id, token(t, 0), None)
    assert no_csrf.status_code == 403 and CSRF_HEADER in no_csrf.json()["detail"]
    wrong_csrf = claim(client, table_id, token(t, 0), "not-the-token")
    assert wrong_csrf.status_code == 403
    spectator = claim(client, table_id, t["spectator_token"], csrf)
    assert spectator.status_code == 403 and "spectator" in spectator.json()["detail"]
    no_token = claim(client, table_id, None, csrf)
    assert no_token.status_code == 403 and "token" in no_token.json()["detail"]
    other_table = new_table(client, "hh")
    wrong_table = claim(client, table_id, token(other_table, 0), csrf)
    assert wrong_table.status_code == 403
    missing = claim(client, "no-such-table", token(t, 0), csrf)
    assert missing.status_code == 404
    assert owners(client, table_id) == [None, None, None]

    assert claim(client, table_id, token(t, 0), csrf).status_code == 200
    second = claim(client, table_id, token(t, 2), csrf)
    assert second.status_code == 409 and "already holds seat 1" in second.json()["detail"]
    client.cookies.clear()
    other = signup(client, "Humbaba")
    taken = claim(client, table_id, token(t, 0), other)
    assert taken.status_code == 409 and "another account" in taken.json()["detail"]
    assert owners(client, table_id) == ["Enkidu", None, None]
    seen = client.get(f"/api/tables/{table_id}/claim", headers={TOKEN: token(t, 0)}).json()
    assert seen["saved"] is False and seen["taken"] is True


def test_claim_state_needs_a_session_and_a_seat_token(client: TestClient) -> None:
    t = new_table(client, "hh")
    assert client.get(f"/api/tables/{t['table']}/claim", headers={TOKEN: token(t, 0)}).status_code == 401
    signup(client, "Ninsun")
    watch = client.get(f"/api/tables/{t['table']}/claim", headers={TOKEN: t["spectator_token"]})
    assert watch.status_code == 403
    free = client.get(f"/api/tables/{t['table']}/claim", headers={TOKEN: token(t, 1)}).json()
    assert free["saved"] is False and free["taken"] is False


# --- my games ------------------------------------------------------------------------------------


def test_my_games_needs_a_session(client: TestClient) -> None:
    r = client.get("/api/account/games")
    assert r.status_code == 401


def test_my_games_lists_my_turn_first_then_playing_then_finished(pclient: TestClient) -> None:
    done = finish_from_position(pclient)
    csrf = signup(pclient, "Shamhat")
    older = new_table(pclient, "hhh")
    newer = new_table(pclient, "hhh")
    wait_idle(pclient, older["table"])
    wait_idle(pclient, newer["table"])
    mover = live_table(pclient, older["table"]).state.current_player()
    waiting = (live_table(pclient, newer["table"]).state.current_player() + 1) % 3
    assert claim(pclient, older["table"], token(older, mover), csrf).status_code == 200
    assert claim(pclient, newer["table"], token(newer, waiting), csrf).status_code == 200
    assert claim(pclient, done["table"], token(done, 2), csrf).status_code == 200
    unclaimed = new_table(pclient, "hh")

    r = pclient.get("/api/account/games")
    assert r.status_code == 200, r.text
    games = r.json()
    assert [g["table"] for g in games] == [older["table"], newer["table"], done["table"]]
    assert unclaimed["table"] not in {g["table"] for g in games}
    first, second, last = games
    assert first["seat_to_move"] is True and first["status"] == "playing"
    assert first["to_move"] == first["colour"] == older["seats"][mover]["colour"]
    assert first["seat"] == mover and first["game"] == "mesopotamia" and first["players"] == 3
    assert second["seat_to_move"] is False and second["seat"] == waiting
    assert second["to_move"] != second["colour"] and second["to_move_label"] is not None
    assert last["status"] == "over" and last["to_move"] is None and last["finished"] is not None
    assert last["outcome"]["condition"] and last["outcome"]["rule"]
    returns = done["final"].returns()
    assert last["result"] == returns[2]
    assert last["rank"] == 1 + sum(1 for r in returns if r > returns[2])
    assert last["won"] == (2 in last["outcome"]["winners"])
    assert [p["result"] for p in last["seats"]] == returns
    assert [p["name"] for p in last["seats"]] == [None, None, "Shamhat"]
    assert [p["account"] for p in last["seats"]] == [False, False, True]
    assert "token" not in json.dumps(games)


def test_a_finished_game_records_when_it_ended(pclient: TestClient) -> None:
    before = datetime.now(UTC)
    done = finish_from_position(pclient)
    with store(pclient).sessions() as s:
        row = s.get(TableRow, done["table"])
        assert row is not None and row.status == "over" and row.finished is not None
        ended = row.finished if row.finished.tzinfo else row.finished.replace(tzinfo=UTC)
    assert ended >= before.replace(microsecond=0)
    playing = new_table(pclient, "hh")
    with store(pclient).sessions() as s:
        assert s.get(TableRow, playing["table"]).finished is None  # type: ignore[union-attr]


# --- seat links ----------------------------------------------------------------------------------


def test_a_seat_link_opens_the_accounts_seat_on_another_device(client: TestClient) -> None:
    csrf = signup(client, "Siduri")
    t = new_table(client, "hhh")
    assert claim(client, t["table"], token(t, 2), csrf).status_code == 200
    csrf = signin(client, "Siduri")  # another browser: nothing but the account
    r = client.post(f"/api/tables/{t['table']}/seat-link", headers={CSRF_HEADER: csrf})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["seat"] == 2 and answer["colour"] == t["seats"][2]["colour"]
    assert answer["link"] == f"http://testserver/table/{t['table']}#token={answer['token']}"
    assert answer["token"] not in {s["token"] for s in t["seats"]}
    with client.websocket_connect(ws_url(t, answer["token"])) as ws:
        assert receive_state(ws)["seat"] == 2
    old = client.get(f"/api/tables/{t['table']}", headers={TOKEN: token(t, 2)})
    assert old.status_code == 200  # earlier links stay valid


def test_seat_link_refusals_store_no_token(client: TestClient) -> None:
    t = new_table(client, "hh")
    tokens = token_count(client)
    assert client.post(f"/api/tables/{t['table']}/seat-link").status_code == 401
    csrf = signup(client, "Urshanabi")
    no_csrf = client.post(f"/api/tables/{t['table']}/seat-link")
    assert no_csrf.status_code == 403 and CSRF_HEADER in no_csrf.json()["detail"]
    not_mine = client.post(f"/api/tables/{t['table']}/seat-link", headers={CSRF_HEADER: csrf})
    assert not_mine.status_code == 403 and "no seat" in not_mine.json()["detail"]
    missing = client.post("/api/tables/no-such-table/seat-link", headers={CSRF_HEADER: csrf})
    assert missing.status_code == 404
    assert token_count(client) == tokens


def test_seat_links_are_limited_per_account(client: TestClient) -> None:
    csrf = signup(client, "Utnapishtim")
    t = new_table(client, "hh")
    assert claim(client, t["table"], token(t, 0), csrf).status_code == 200
    codes = [
        client.post(f"/api/tables/{t['table']}/seat-link", headers={CSRF_HEADER: csrf}).status_code
        for _ in range(31)
    ]
    assert codes == [200] * 30 + [429]
    tokens = token_count(client)
    limited = client.post(f"/api/tables/{t['table']}/seat-link", headers={CSRF_HEADER: csrf})
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    assert token_count(client) == tokens


# --- profiles ------------------------------------------------------------------------------------


def test_a_profile_shows_games_with_results_and_ratings(pclient: TestClient) -> None:
    done = finish_from_position(pclient)
    csrf = signup(pclient, "Ishtar")
    playing = new_table(pclient, "hhh")
    assert claim(pclient, done["table"], token(done, done["ender"]), csrf).status_code == 200
    assert claim(pclient, playing["table"], token(playing, 0), csrf).status_code == 200
    with store(pclient).sessions.begin() as s:
        user_id = s.scalar(select(UserRow.id).where(UserRow.name == "Ishtar"))
        s.add(
            RatingRow(
                user_id=user_id, game="mesopotamia", mu=27.5, sigma=6.2, games=3, updated=datetime.now(UTC)
            )
        )
    pclient.cookies.clear()  # a profile is public

    r = pclient.get("/api/users/ishtar")
    assert r.status_code == 200, r.text
    prof = r.json()
    assert prof["name"] == "Ishtar" and prof["member_since"]
    assert [g["table"] for g in prof["games"]] == [playing["table"], done["table"]]
    assert prof["games"][0]["status"] == "playing" and prof["games"][0]["result"] is None
    over = prof["games"][1]
    returns = done["final"].returns()
    assert over["status"] == "over" and over["seat"] == done["ender"]
    assert over["result"] == returns[done["ender"]] and over["won"] == (
        done["ender"] in over["outcome"]["winners"]
    )
    assert prof["ratings"] == [{"game": "mesopotamia", "rating": 8.9, "mu": 27.5, "sigma": 6.2, "games": 3}]
    text = json.dumps(prof)
    assert "token" not in text
    assert all(
        tok not in text for tok in [s["token"] for s in playing["seats"]] + [playing["spectator_token"]]
    )


def test_an_unknown_profile_is_404(client: TestClient) -> None:
    r = client.get("/api/users/nobody-here")
    assert r.status_code == 404 and "nobody-here" in r.json()["detail"]


def test_a_new_account_has_an_empty_profile(client: TestClient) -> None:
    signup(client, "Aruru")
    prof = client.get("/api/users/Aruru").json()
    assert prof["games"] == [] and prof["ratings"] == []
