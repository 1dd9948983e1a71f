"""The public lobby (docs/server.md, "Public lobby"): public tables with open seats, joining
them as a guest or an account, the host starting them, every refusal, and the last-seat race."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from server_helpers import (
    TestClient,
    live_table,
    open_client,
    receive,
    receive_state,
    wait_idle,
    ws_url,
)

from ziggurat.server.accounts import CSRF_HEADER
from ziggurat.server.lobby import LobbyRefusal, take_seat
from ziggurat.server.manager import hash_token

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
BOT = {"kind": "bot", "bot": "random"}


def public_table(
    client: TestClient, seats: list[dict[str, Any]], host_name: str | None = "Ada", **extra: Any
) -> dict[str, Any]:
    body = {"game": "mesopotamia", "players": len(seats), "seats": seats, "seed": 3, "public": True, **extra}
    if host_name is not None:
        body["host_name"] = host_name
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def join(client: TestClient, table_id: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table_id}/join", json=body)


def start(client: TestClient, table_id: str, token: str | None, fill: str | None = None) -> Any:
    headers = {} if token is None else {"X-Ziggurat-Token": token}
    return client.post(f"/api/tables/{table_id}/start", json={"fill": fill}, headers=headers)


def signup(client: TestClient, name: str) -> str:
    r = client.post("/api/account/signup", json={"name": name, "password": "cedar forest 7"})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def lobby_entry(client: TestClient, table_id: str) -> dict[str, Any] | None:
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    return next((t for t in r.json() if t["table"] == table_id), None)


def test_public_table_is_listed_with_its_seats_and_only_the_host_gets_a_token(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, BOT], options={"round_limit": 10})
    assert t["seats"][0]["token"] and t["seats"][0]["link"]
    assert [s["token"] for s in t["seats"][1:]] == [None, None]  # free seats get tokens when taken
    assert t["spectator_token"]
    info = client.get(
        f"/api/tables/{t['table']}", headers={"X-Ziggurat-Token": t["seats"][0]["token"]}
    ).json()
    assert (info["status"], info["public"], info["host_seat"]) == ("open", True, 0)
    assert [(s["kind"], s["name"]) for s in info["seats"]] == [
        ("human", "Ada"),
        ("open", None),
        ("bot", None),
    ]

    r = client.get("/api/lobby")
    entry = lobby_entry(client, t["table"])
    assert entry is not None
    assert entry["game"] == "mesopotamia" and entry["players"] == 3 and entry["host"] == "Ada"
    assert entry["free"] == 1 and entry["options"] == {"round_limit": 10}
    assert [(s["seat"], s["kind"], s["bot"], s["name"], s["free"]) for s in entry["seats"]] == [
        (0, "human", None, "Ada", False),
        (1, "open", None, None, True),
        (2, "bot", "random", None, False),
    ]
    assert [s["colour"] for s in entry["seats"]] == [s["colour"] for s in t["seats"]]
    assert t["seats"][0]["token"] not in r.text and t["spectator_token"] not in r.text
    assert "token" not in r.text


def test_lobby_lists_open_public_tables_newest_first_and_never_private_or_started_ones(
    client: TestClient,
) -> None:
    r = client.post("/api/tables", json={"game": "mesopotamia", "players": 2, "seed": 1})
    private = r.json()["table"]
    older = public_table(client, [HUMAN, OPEN])["table"]
    full = public_table(client, [HUMAN, BOT])  # no free seat: it starts at once
    newer = public_table(client, [OPEN, HUMAN, OPEN], host_name="Bea")["table"]
    listed = [t["table"] for t in client.get("/api/lobby").json()]
    assert listed == [newer, older]
    assert private not in listed and full["table"] not in listed
    full_info = client.get(
        f"/api/tables/{full['table']}", headers={"X-Ziggurat-Token": full["seats"][0]["token"]}
    )
    assert full_info.json()["status"] == "playing"
    newer_entry = lobby_entry(client, newer)
    assert newer_entry is not None and newer_entry["host"] == "Bea" and newer_entry["free"] == 2


def test_creation_refusals_store_nothing(client: TestClient) -> None:
    def create(**body: Any) -> Any:
        return client.post("/api/tables", json={"game": "mesopotamia", "players": 3, "seed": 1, **body})

    private_open = create(seats=[HUMAN, OPEN, BOT])
    assert (
        private_open.status_code == 400 and "private table has no open seats" in private_open.json()["detail"]
    )
    no_name = create(seats=[HUMAN, OPEN, BOT], public=True)
    assert no_name.status_code == 400 and "host_name" in no_name.json()["detail"]
    blank = create(seats=[HUMAN, OPEN, BOT], public=True, host_name="   ")
    assert blank.status_code == 400 and "empty" in blank.json()["detail"]
    two_hosts = create(seats=[HUMAN, HUMAN, OPEN], public=True, host_name="Ada")
    assert two_hosts.status_code == 400 and "exactly one human seat" in two_hosts.json()["detail"]
    no_host = create(seats=[OPEN, OPEN, BOT], public=True, host_name="Ada")
    assert no_host.status_code == 400 and "exactly one human seat" in no_host.json()["detail"]
    assert client.get("/api/lobby").json() == []
    assert client.app.state.manager.tables == {}  # type: ignore[attr-defined]


def test_signed_in_host_sits_as_the_account_and_needs_csrf(client: TestClient) -> None:
    csrf = signup(client, "Gilgamesh")
    body = {
        "game": "mesopotamia",
        "players": 3,
        "seats": [HUMAN, OPEN, BOT],
        "public": True,
        "host_name": "Ada",
    }
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 403 and CSRF_HEADER in refused.json()["detail"]
    assert client.get("/api/lobby").json() == []
    r = client.post("/api/tables", json=body, headers={CSRF_HEADER: csrf})
    assert r.status_code == 201, r.text
    entry = lobby_entry(client, r.json()["table"])
    assert entry is not None and entry["host"] == "Gilgamesh"  # the account's name, not host_name
    assert entry["seats"][0]["account"] is True
    # a private table is created as before: no CSRF asked, nobody named
    plain = client.post("/api/tables", json={"game": "mesopotamia", "players": 2, "seed": 1})
    assert plain.status_code == 201 and [s["token"] is not None for s in plain.json()["seats"]] == [
        True,
        True,
    ]


def test_guest_and_account_join_and_every_socket_sees_the_seating(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, OPEN])
    host = t["seats"][0]["token"]
    with client.websocket_connect(ws_url(t, host)) as ws:
        first = receive_state(ws)
        assert first["status"] == "open" and first["legal"] == [] and first["host_seat"] == 0
        assert [s["free"] for s in first["seats"]] == [False, True, True]

        guest = join(client, t["table"], name="  Bea   the  Scribe ")
        assert guest.status_code == 200, guest.text
        g = guest.json()
        assert g["seat"] == 1 and g["link"] == f"http://testserver/table/{t['table']}#token={g['token']}"
        seen = receive_state(ws)
        assert seen["seats"][1] == {
            "seat": 1,
            "kind": "human",
            "bot": None,
            "name": "Bea the Scribe",
            "account": False,
            "free": False,
        }

        csrf = signup(client, "Gilgamesh")
        no_csrf = join(client, t["table"])
        assert no_csrf.status_code == 403 and CSRF_HEADER in no_csrf.json()["detail"]
        mine = client.post(
            f"/api/tables/{t['table']}/join", json={"name": "ignored"}, headers={CSRF_HEADER: csrf}
        )
        assert mine.status_code == 200, mine.text
        assert mine.json()["seat"] == 2
        seen = receive_state(ws)
        assert (seen["seats"][2]["name"], seen["seats"][2]["account"]) == ("Gilgamesh", True)

    # the guest's token opens its seat, still waiting for the host
    with client.websocket_connect(ws_url(t, g["token"])) as ws:
        msg = receive_state(ws)
        assert (msg["seat"], msg["status"], msg["legal"]) == (1, "open", [])


def test_join_refusals_change_nothing(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, BOT])
    table_id = t["table"]
    before = lobby_entry(client, table_id)
    cases = [
        ({}, 400, "gives a name"),
        ({"name": " \t "}, 400, "empty"),
        ({"name": "x" * 33}, 400, "too long"),
        ({"name": "Bea\u0007"}, 400, "control"),
        ({"name": "Bea\u200b"}, 400, "invisible"),
        ({"name": "ada"}, 409, "taken at table"),  # the host's name, in any case
        ({"name": "Bea", "seat": 5}, 400, "seats 1 to 3"),
        ({"name": "Bea", "seat": 0}, 409, "seat 1 of table"),
        ({"name": "Bea", "seat": 2}, 409, "seat 3 of table"),
    ]
    for body, code, reason in cases:
        r = join(client, table_id, **body)
        assert r.status_code == code and reason in r.json()["detail"], (body, r.text)
    signup(client, "Gilgamesh")
    client.cookies.clear()
    impostor = join(client, table_id, name="GILGAMESH")
    assert impostor.status_code == 400 and "an account's" in impostor.json()["detail"]
    assert lobby_entry(client, table_id) == before

    assert join(client, table_id, name="Bea").status_code == 200
    full = join(client, table_id, name="Cyd")
    assert full.status_code == 409 and "no free seat" in full.json()["detail"]

    private = client.post("/api/tables", json={"game": "mesopotamia", "players": 2, "seed": 1}).json()
    hidden = join(client, private["table"], name="Cyd")
    assert hidden.status_code == 404 and "no public table" in hidden.json()["detail"]
    assert join(client, "nosuchtable", name="Cyd").status_code == 404


def test_account_holds_one_seat_per_table(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, OPEN])
    csrf = signup(client, "Gilgamesh")
    headers = {CSRF_HEADER: csrf}
    assert client.post(f"/api/tables/{t['table']}/join", json={}, headers=headers).status_code == 200
    again = client.post(f"/api/tables/{t['table']}/join", json={"seat": 2}, headers=headers)
    assert again.status_code == 409 and "already holds seat 2" in again.json()["detail"]
    entry = lobby_entry(client, t["table"])
    assert entry is not None and entry["free"] == 1


def test_actions_wait_for_the_host_who_starts_with_bots_in_the_free_seats(client: TestClient) -> None:
    # the host chooses the first player: seat 1 decides first, and "first b" would be legal at once
    t = public_table(client, [HUMAN, OPEN, OPEN], options={"first_player": "chosen"})
    table_id, host = t["table"], t["seats"][0]["token"]
    guest = join(client, table_id, name="Bea").json()
    with client.websocket_connect(ws_url(t, host)) as ws:
        receive_state(ws)
        ws.send_json({"type": "action", "action": "first b"})
        err = receive(ws)
        assert err["type"] == "error" and err["code"] == "not_started"
        assert err["message"] == "the game has not started: the host starts it once the seats are taken"
        ws.send_json({"type": "undo"})
        assert receive(ws)["code"] == "not_started"
        asked = client.post(
            f"/api/tables/{table_id}/explain", json={"action": "first b"}, headers={"X-Ziggurat-Token": host}
        ).json()
        assert (asked["legal"], asked["code"]) == (False, "not_started")
        looked = client.post("/api/tables/lookup", json={"tokens": [host]}).json()
        assert (looked[0]["status"], looked[0]["to_move"]) == ("open", None)
        assert live_table(client, table_id).version == 0

        no_token = start(client, table_id, None, "random")
        assert no_token.status_code == 403
        not_host = start(client, table_id, guest["token"], "random")
        assert not_host.status_code == 403 and "only the host (seat 1)" in not_host.json()["detail"]
        watcher = start(client, table_id, t["spectator_token"], "random")
        assert watcher.status_code == 403
        waiting = start(client, table_id, host, None)
        assert waiting.status_code == 409 and "seats 3 are still free" in waiting.json()["detail"]
        unknown = start(client, table_id, host, "grandmaster")
        assert unknown.status_code == 400 and "unknown bot 'grandmaster'" in unknown.json()["detail"]
        assert live_table(client, table_id).status == "open"
        assert lobby_entry(client, table_id) is not None

        r = start(client, table_id, host, "random")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "playing"
        assert [(s["kind"], s["bot"], s["name"]) for s in r.json()["seats"]] == [
            ("human", None, "Ada"),
            ("human", None, "Bea"),
            ("bot", "random", None),
        ]
        begun = receive_state(ws)
        assert begun["status"] == "playing" and begun["seats"][2]["bot"] == "random"
        assert begun["legal"] == ["first b", "first y", "first r"]
        ws.send_json({"type": "action", "action": "first b"})
        assert receive_state(ws)["version"] == 1
    assert lobby_entry(client, table_id) is None
    again = start(client, table_id, host, "random")
    assert again.status_code == 409 and "already started" in again.json()["detail"]
    late = join(client, table_id, name="Cyd")
    assert late.status_code == 409 and "not waiting for players" in late.json()["detail"]
    info = client.get(f"/api/tables/{table_id}", headers={"X-Ziggurat-Token": host}).json()
    assert info["status"] == "playing" and info["seats"][2]["kind"] == "bot"


def test_host_starts_a_full_table_without_bots_and_chance_begins(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN])
    join(client, t["table"], name="Bea")
    r = client.post(f"/api/tables/{t['table']}/start", headers={"X-Ziggurat-Token": t["seats"][0]["token"]})
    assert r.status_code == 200 and r.json()["status"] == "playing"
    wait_idle(client, t["table"])
    assert live_table(client, t["table"]).version > 0  # the set-up's chance was played


def test_two_joins_racing_for_the_last_seat_one_wins(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, BOT])
    names = [f"Racer {i}" for i in range(6)]
    barrier = threading.Barrier(len(names))
    answers: list[Any] = []

    def go(name: str) -> None:
        barrier.wait()
        answers.append(join(client, t["table"], name=name))

    threads = [threading.Thread(target=go, args=(n,)) for n in names]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * (len(names) - 1)
    winner = next(a.json() for a in answers if a.status_code == 200)
    table = live_table(client, t["table"])
    assert table.tokens[hash_token(winner["token"])] == 1
    assert sum(1 for seat in table.tokens.values() if seat == 1) == 1
    entry = lobby_entry(client, t["table"])
    assert entry is not None and entry["free"] == 0 and entry["seats"][1]["name"] in names


def test_taking_a_seat_is_conditional_in_the_database(client: TestClient) -> None:
    """Without the live table's lock (another server process), the second taker of a seat is refused."""
    t = public_table(client, [HUMAN, OPEN, BOT])
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    assert take_seat(store, t["table"], 1, None, "Bea", "a" * 64) == 1
    with pytest.raises(LobbyRefusal) as refused:
        take_seat(store, t["table"], 1, None, "Cyd", "b" * 64)
    assert refused.value.code == 409 and "is taken" in refused.value.detail
    assert store.load_table(t["table"]).tokens.get("b" * 64) is None


def test_open_table_resumes_after_a_restart(db_url: str) -> None:
    with open_client(db_url) as first:
        t = public_table(first, [HUMAN, OPEN, OPEN])
        guest = join(first, t["table"], name="Bea").json()
    with open_client(db_url) as second:
        assert second.get("/healthz").json()["tables"]["resumed"] == 1
        entry = lobby_entry(second, t["table"])
        assert entry is not None and [s["name"] for s in entry["seats"]] == ["Ada", "Bea", None]
        assert live_table(second, t["table"]).status == "open"
        with second.websocket_connect(ws_url(t, guest["token"])) as ws:
            msg = receive_state(ws)
            assert (msg["seat"], msg["status"], msg["seats"][1]["name"]) == (1, "open", "Bea")
            r = start(second, t["table"], t["seats"][0]["token"], "random")
            assert r.status_code == 200, r.text
            assert receive_state(ws)["status"] == "playing"
        wait_idle(second, t["table"])
        assert live_table(second, t["table"]).version > 0


def test_my_tables_lookup_says_open_and_a_rematch_is_private_with_the_same_seats(client: TestClient) -> None:
    t = public_table(client, [HUMAN, OPEN, OPEN])
    host = t["seats"][0]["token"]
    seen = client.post("/api/tables/lookup", json={"tokens": [host]}).json()
    assert [(a["table"], a["status"], a["seat"]) for a in seen] == [(t["table"], "open", 0)]
    join(client, t["table"], name="Bea")
    assert start(client, t["table"], host, "random").status_code == 200
    r = client.post(f"/api/tables/{t['table']}/rematch", headers={"X-Ziggurat-Token": host})
    assert r.status_code == 201, r.text
    rematch = r.json()
    assert [(s["kind"], s["bot"]) for s in rematch["seats"]] == [
        ("human", None),
        ("human", None),
        ("bot", "random"),
    ]
    info = client.get(
        f"/api/tables/{rematch['table']}", headers={"X-Ziggurat-Token": rematch["seats"][0]["token"]}
    )
    assert info.json()["status"] == "playing" and info.json()["public"] is False
    assert lobby_entry(client, rematch["table"]) is None


def test_lobby_says_each_tables_time_control(client: TestClient) -> None:
    """A stranger sees before joining whether a table is played on a real-time clock, a clock
    per turn or none (docs/server.md, "Time controls")."""
    realtime = public_table(
        client, [HUMAN, OPEN], time_control={"kind": "realtime", "budget": 600, "increment": 20}
    )
    turn_based = public_table(
        client, [HUMAN, OPEN], host_name="Bea", time_control={"kind": "turn_based", "per_turn": 86400}
    )
    untimed = public_table(client, [HUMAN, OPEN], host_name="Cy")
    fast, slow, free = (lobby_entry(client, t["table"]) for t in (realtime, turn_based, untimed))
    assert fast is not None and slow is not None and free is not None
    assert fast["time_control"] == {
        "kind": "realtime",
        "budget": 600.0,
        "increment": 20.0,
        "grace": 15.0,
        "takeover": "easy",
    }
    assert slow["time_control"] == {
        "kind": "turn_based",
        "per_turn": 86400.0,
        "grace": 15.0,
        "takeover": "easy",
    }
    assert free["time_control"] is None
    host_token = realtime["seats"][0]["token"]
    info = client.get(f"/api/tables/{realtime['table']}", headers={"X-Ziggurat-Token": host_token}).json()
    assert info["time_control"] == fast["time_control"]  # as the table itself says
