"""The clocks of timed tables (docs/server.md, "Time controls"; server/clocks.py): they count only
for the seat with a decision, never go below 0, add the increment, start a fresh turn; a seat
whose clock ran out is played by a bot (reading only that seat's view) after the grace period,
until its player takes it back; a restart charges nobody for the time the server was down.

Counting is checked with a clock the test moves by hand (``clocks.CLOCK``); running out uses the
event loop's real clock with budgets under a second, and asserts only what happened, never how
long it took.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from server_helpers import (
    TestClient,
    arrive,
    create_app,
    live_table,
    open_client,
    receive,
    token,
    wait_idle,
    ws_url,
)
from sqlalchemy import update

from ziggurat.bots.base import make_bot
from ziggurat.engine.messages import from_json, render
from ziggurat.engine.records import apply_recorded
from ziggurat.server import clocks
from ziggurat.server.db import HeartbeatRow, SeatClockRow
from ziggurat.server.store import now

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
BOT = {"kind": "bot", "bot": "random"}


class HandClock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def hand(monkeypatch: pytest.MonkeyPatch) -> HandClock:
    clock = HandClock()
    monkeypatch.setattr(clocks, "CLOCK", clock)
    return clock


def timed(
    client: TestClient,
    time_control: dict[str, Any],
    seats: list[dict[str, Any]],
    come: bool = True,
    **extra: Any,
) -> Any:
    """A timed table; unless ``come`` is false, every player of a private one has come to the
    table once (a socket opened and closed), so its clocks count from there."""
    body = {
        "game": "mesopotamia",
        "players": len(seats),
        "seats": seats,
        "seed": 1,
        "time_control": time_control,
    }
    r = client.post("/api/tables", json={**body, **extra})
    assert r.status_code == 201, r.text
    if not extra.get("public"):
        wait_idle(client, r.json()["table"])  # chance sets the game up first
        if come:
            arrive(client, r.json())
    return r.json()


def clocks_of(client: TestClient, table_id: str) -> list[dict[str, Any] | None]:
    """The clocks as the next ``state`` message would carry them (read between changes)."""
    t = live_table(client, table_id)
    while t.lock.locked():
        time.sleep(0.001)
    out: list[dict[str, Any] | None] = t.clocks.payload()
    return out


def mover(client: TestClient, table_id: str) -> int:
    who: int = live_table(client, table_id).state.current_player()
    return who


def play(client: TestClient, table_id: str, sockets: dict[int, Any]) -> int:
    """The seat to move plays its first legal action through its socket; the seat that played."""
    t = live_table(client, table_id)
    who = t.state.current_player()
    version = t.version
    sockets[who].send_json({"type": "action", "action": t.state.legal_actions()[0]})
    while (msg := receive(sockets[who]))["type"] != "state" or msg["version"] <= version:
        assert msg["type"] != "error", msg
    wait_idle(client, table_id)  # chance, if it follows, is played
    return who


@pytest.fixture
def seated(client: TestClient) -> Iterator[Any]:
    """A function opening one socket per human seat of a table (closed after the test)."""
    opened: list[Any] = []

    def open_all(t: dict[str, Any], seats: list[int]) -> dict[int, Any]:
        out = {}
        for seat in seats:
            ws = client.websocket_connect(ws_url(t, token(t, seat))).__enter__()
            opened.append(ws)
            assert receive(ws)["type"] == "state"
            out[seat] = ws
        return out

    yield open_all
    for ws in opened:
        ws.__exit__(None, None, None)


def test_real_time_clock_counts_only_for_the_seat_to_move_and_adds_the_increment(
    client: TestClient, hand: HandClock, seated: Any
) -> None:
    t = timed(client, {"kind": "realtime", "budget": 60, "increment": 5}, [HUMAN, HUMAN, HUMAN])
    table_id = t["table"]
    sockets = seated(t, [0, 1, 2])
    first = mover(client, table_id)
    got = clocks_of(client, table_id)
    assert [c and (c["remaining"], c["running"]) for c in got] == [(60.0, s == first) for s in range(3)]
    hand.t += 7
    assert clocks_of(client, table_id)[first]["remaining"] == 53.0  # type: ignore[index]
    played = {s: 0 for s in range(3)}
    spent = {s: 0.0 for s in range(3)}
    for _ in range(12):
        who = play(client, table_id, sockets)
        played[who] += 1
        hand.t += 2  # every seat to move thinks 2 s
        nxt = mover(client, table_id)
        spent[nxt] += 2
        for seat, clock in enumerate(clocks_of(client, table_id)):
            assert clock is not None
            assert clock["running"] == (seat == nxt)
            # the budget, less the time it had a decision, plus 5 s per decision
            extra = 7 if seat == first else 0
            assert clock["remaining"] == 60 - extra - spent[seat] + 5 * played[seat]


def test_clocks_never_go_below_zero(client: TestClient, hand: HandClock) -> None:
    t = timed(client, {"kind": "realtime", "budget": 30, "grace": 600}, [HUMAN, HUMAN, HUMAN])
    who = mover(client, t["table"])
    hand.t += 3600
    clock = clocks_of(client, t["table"])[who]
    assert clock is not None and clock["remaining"] == 0.0


def test_no_clock_counts_at_an_open_table_nor_for_bot_seats(client: TestClient, hand: HandClock) -> None:
    body = {"kind": "realtime", "budget": 60}
    t = timed(client, body, [HUMAN, OPEN, BOT], public=True, host_name="Ada")
    hand.t += 50
    got = clocks_of(client, t["table"])
    assert got[2] is None  # a bot seat has no clock
    assert [(c["remaining"], c["running"]) for c in got[:2] if c] == [(60.0, False), (60.0, False)]
    r = client.post(
        f"/api/tables/{t['table']}/start", json={"fill": "random"}, headers={"X-Ziggurat-Token": token(t, 0)}
    )
    assert r.status_code == 200, r.text
    wait_idle(client, t["table"])  # the bots and chance play until the host decides
    assert mover(client, t["table"]) == 0
    hand.t += 4
    got = clocks_of(client, t["table"])
    assert got[0] == {**got[0], "remaining": 56.0, "running": True}  # type: ignore[dict-item]
    assert got[1] is None and got[2] is None  # the free seat became a bot


def test_a_real_time_clock_waits_until_every_player_has_come_to_the_table(
    client: TestClient, hand: HandClock
) -> None:
    """A private table's links go out when it is created: nobody's time runs before every
    player has opened theirs once; the seat to move's clock starts then, with its whole budget."""
    t = timed(client, {"kind": "realtime", "budget": 60, "increment": 5}, [HUMAN, HUMAN, BOT], come=False)
    table_id = t["table"]
    who = mover(client, table_id)
    assert who in (0, 1)  # chance set the game up; a person has the first decision
    hand.t += 600
    got = clocks_of(client, table_id)
    assert got[2] is None  # a bot is never awaited
    assert [c and (c["remaining"], c["running"], c["arrived"]) for c in got[:2]] == [(60.0, False, False)] * 2
    arrive(client, t, [who])
    hand.t += 30
    got = clocks_of(client, table_id)
    assert [c and (c["remaining"], c["running"], c["arrived"]) for c in got[:2]] == [
        (60.0, False, s == who) for s in range(2)
    ]  # the other player is still awaited: the seat to move's clock waits too
    other = 1 - who
    with client.websocket_connect(ws_url(t, token(t, other))) as ws:
        msg = receive(ws)
        while not (msg["type"] == "state" and msg["clocks"][other]["arrived"]):
            msg = receive(ws)  # every socket, the arriving one too, hears the clocks start
        assert msg["clocks"][who] == {**msg["clocks"][who], "running": True, "remaining": 60.0}
    hand.t += 7
    got = clocks_of(client, table_id)
    assert got[who] == {**got[who], "remaining": 53.0, "running": True}  # type: ignore[dict-item]


def test_who_has_come_is_kept_by_a_restart(db_url: str, hand: HandClock) -> None:
    with open_client(db_url) as client:
        t = timed(client, {"kind": "realtime", "budget": 60}, [HUMAN, HUMAN, HUMAN], come=False)
        who = mover(client, t["table"])
        arrive(client, t, [0, 1])
    with open_client(db_url) as client:
        hand.t += 100
        got = clocks_of(client, t["table"])
        assert [c and (c["arrived"], c["running"]) for c in got] == [
            (True, False),
            (True, False),
            (False, False),
        ]
        arrive(client, t, [2])
        hand.t += 10
        got = clocks_of(client, t["table"])
        assert got[who] == {**got[who], "remaining": 50.0, "running": True}  # type: ignore[dict-item]
        arrive(client, t, [2])  # coming again changes nothing
        assert clocks_of(client, t["table"])[who]["remaining"] == 50.0  # type: ignore[index]


def test_a_turn_based_clock_does_not_wait_for_the_players(client: TestClient, hand: HandClock) -> None:
    t = timed(client, {"kind": "turn_based", "per_turn": 3600}, [HUMAN, HUMAN, HUMAN], come=False)
    who = mover(client, t["table"])
    hand.t += 100
    got = clocks_of(client, t["table"])[who]
    assert got is not None and got["running"] and got["remaining"] == 3500.0 and got["arrived"]


def test_turn_based_clock_gives_each_turn_its_time(client: TestClient, hand: HandClock, seated: Any) -> None:
    t = timed(client, {"kind": "turn_based", "per_turn": 100}, [HUMAN, HUMAN, HUMAN])
    table_id = t["table"]
    sockets = seated(t, [0, 1, 2])
    turns = 0
    for _ in range(15):
        before = clocks_of(client, table_id)
        version = live_table(client, table_id).version
        hand.t += 5
        who = play(client, table_id, sockets)
        nxt = mover(client, table_id)
        after = clocks_of(client, table_id)[nxt]
        assert after is not None and after["running"]
        actors = {row.actor for row in live_table(client, table_id).rows[version:]}
        if nxt == who and actors == {who}:  # the same seat goes on (no chance between): one turn
            prior = before[who]
            assert prior is not None and after["remaining"] == prior["remaining"] - 5
        else:  # a new turn (after another seat or chance): its whole time
            turns += 1
            assert after["remaining"] == 100.0
    assert turns >= 2


class Watching:
    """A real bot that also keeps every view and legal list it was given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.needs_view = inner.needs_view
        self.seen: list[tuple[Any, list[str]]] = []

    def choose(self, view: Any, legal: list[str], rng: Any) -> str:
        self.seen.append((view, list(legal)))
        choice: str = self.inner.choose(view, legal, rng)
        return choice


def log_keys(msg: dict[str, Any]) -> list[str]:
    return [e["event"]["key"] for e in msg.get("log", []) if "event" in e]


def test_a_timed_out_seat_is_played_by_a_bot_with_only_its_view_then_taken_back(
    db_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    watchers: list[Watching] = []

    def watched_bot(spec: str, game: Any, seat: int) -> Any:
        bot = Watching(make_bot(spec, game, seat))
        watchers.append(bot)
        return bot

    monkeypatch.setattr(clocks, "make_bot", watched_bot)
    # the watched bot decides in the server's process (no worker process: bot_workers=0)
    app = create_app(db_url, bot_delay=0.02, static_dir=tmp_path / "none", bot_workers=0)
    tc = {"kind": "realtime", "budget": 0.4, "increment": 0.1, "grace": 0.3, "takeover": "easy"}
    with TestClient(app) as client:
        t = timed(client, tc, [HUMAN, BOT, BOT])
        table_id = t["table"]
        live = live_table(client, table_id)
        with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
            keys: list[str] = []
            timed_out_seen = False
            while "clock.takeover" not in keys:
                msg = receive(ws)
                if msg["type"] == "state":
                    keys += log_keys(msg)
                    mine = msg["clocks"][0]
                    assert mine["remaining"] >= 0
                    if mine["timed_out"] and mine["bot"] is None:
                        timed_out_seen = True
                        assert mine["remaining"] == 0.0 and not mine["running"]
            assert timed_out_seen
            # the bot plays seat 0 and the game goes on
            while not any(r.actor == 0 for r in live.rows[live.clocks.seats[0].bot_since_ply - 1 :]):
                msg = receive(ws)
                if msg["type"] == "state":
                    assert msg["clocks"][0]["bot"] == "easy" and not msg["clocks"][0]["running"]
            assert watchers and watchers[0].seen
            # everything the bot was given is seat 0's view of a position it had to decide in;
            # what it saw is read first: its last decision may not be stored yet (the table's
            # rows are read after, and the position they lead to is one it may be deciding in)
            seen_so_far = list(watchers[0].seen)
            rows = list(live.rows)
            state = live.initial_state()
            views = []
            for row in rows:
                if state.current_player() == 0:
                    views.append((state.view(0), list(state.legal_actions())))
                apply_recorded(state, row.text)
            if state.current_player() == 0:
                views.append((state.view(0), list(state.legal_actions())))
            for seen in seen_so_far:
                assert seen in views
            # the player's own moves wait until they take the seat back
            ws.send_json({"type": "action", "action": "end"})
            while (msg := receive(ws))["type"] != "error":
                assert msg["type"] != "state" or msg["legal"] == []
            assert msg["code"] == "bot_plays" and "take your seat back first" in msg["message"]
            ws.send_json({"type": "take_back"})
            while "clock.takeBack" not in keys:
                msg = receive(ws)
                if msg["type"] == "state":
                    keys += log_keys(msg)
            # from the seat's next decision on, the table waits for its player
            while not (msg["type"] == "state" and msg["legal"]):
                msg = receive(ws)
            assert 0 not in live.bots
            mine = msg["clocks"][0]
            assert mine["bot"] is None and mine["running"] and not mine["timed_out"]
            ws.send_json({"type": "action", "action": msg["legal"][0]})
            version = msg["version"]
            while not (msg["type"] == "state" and msg["version"] > version):
                msg = receive(ws)
                assert msg["type"] != "error", msg
            assert live.rows[version].actor == 0  # the player's own move
            r = client.post(f"/api/tables/{table_id}/take-back", headers={"X-Ziggurat-Token": token(t, 0)})
            assert r.status_code == 409 and "no bot plays your seat" in r.json()["detail"]


def test_a_restart_charges_a_running_clock_only_up_to_the_last_heartbeat(
    db_url: str, hand: HandClock
) -> None:
    with open_client(db_url) as client:
        t = timed(client, {"kind": "realtime", "budget": 100}, [HUMAN, HUMAN, HUMAN])
        who = mover(client, t["table"])
        store = live_table(client, t["table"]).store
    # the server went down an hour ago, 3 s after the clock started; nothing was alive since
    started = now() - timedelta(hours=1)
    with store.engine.begin() as conn:
        conn.execute(
            update(SeatClockRow)
            .where(SeatClockRow.table_id == t["table"], SeatClockRow.seat == who)
            .values(running_since=started, remaining_ms=100_000)
        )
        conn.execute(update(HeartbeatRow).values(seen=started + timedelta(seconds=3)))
    with open_client(db_url) as client:
        got = clocks_of(client, t["table"])[who]
        assert got is not None and got["running"] and got["remaining"] == 97.0
        others = [c for s, c in enumerate(clocks_of(client, t["table"])) if s != who]
        assert all(c is not None and (c["remaining"], c["running"]) == (100.0, False) for c in others)


def test_a_restart_after_a_change_newer_than_the_heartbeat_charges_nothing(
    db_url: str, hand: HandClock
) -> None:
    with open_client(db_url) as client:
        t = timed(client, {"kind": "turn_based", "per_turn": 3600}, [HUMAN, HUMAN, HUMAN])
        who = mover(client, t["table"])
        store = live_table(client, t["table"]).store
    with store.engine.begin() as conn:
        conn.execute(
            update(SeatClockRow)
            .where(SeatClockRow.table_id == t["table"], SeatClockRow.seat == who)
            .values(running_since=now() - timedelta(minutes=10), remaining_ms=1_200_000)
        )
        conn.execute(update(HeartbeatRow).values(seen=now() - timedelta(hours=2)))
    with open_client(db_url) as client:
        got = clocks_of(client, t["table"])[who]
        assert got is not None and got["running"] and got["remaining"] == 1200.0


def test_my_games_shows_the_clock_of_my_seat(client: TestClient, hand: HandClock) -> None:
    r = client.post("/api/account/signup", json={"name": "Enki", "password": "ziggurat of Ur 9"})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    t = timed(client, {"kind": "turn_based", "per_turn": 86400}, [HUMAN, HUMAN, HUMAN])
    untimed = client.post("/api/tables", json={"game": "mesopotamia", "players": 3, "seed": 1}).json()
    who = mover(client, t["table"])
    for table, seat in ((t, who), (untimed, 0)):
        headers = {"X-Ziggurat-Token": token(table, seat), "X-CSRF-Token": csrf}
        claimed = client.post(f"/api/tables/{table['table']}/claim", headers=headers)
        assert claimed.status_code == 200, claimed.text
    hand.t += 3600
    games = {g["table"]: g for g in client.get("/api/account/games").json()}
    assert games[untimed["table"]]["clock"] is None
    clock = games[t["table"]]["clock"]
    assert clock["remaining"] == 82800.0 and clock["running"] and clock["bot"] is None
    assert clock["time_control"] == {
        "kind": "turn_based",
        "per_turn": 86400.0,
        "grace": 15.0,
        "takeover": "easy",
    }


def test_taking_back_a_seat_no_bot_plays_is_refused_and_changes_nothing(
    client: TestClient, hand: HandClock
) -> None:
    t = timed(client, {"kind": "realtime", "budget": 60}, [HUMAN, HUMAN, HUMAN])
    url = f"/api/tables/{t['table']}/take-back"
    before = clocks_of(client, t["table"])
    r = client.post(url, headers={"X-Ziggurat-Token": token(t, 1)})
    assert r.status_code == 409 and r.json()["detail"] == "no bot plays your seat: it is yours already"
    r = client.post(url, headers={"X-Ziggurat-Token": t["spectator_token"]})
    assert r.status_code == 403 and "spectator" in r.json()["detail"]
    assert client.post(url).status_code == 403
    assert clocks_of(client, t["table"]) == before
    untimed = client.post("/api/tables", json={"game": "mesopotamia", "players": 3, "seed": 1}).json()
    r = client.post(
        f"/api/tables/{untimed['table']}/take-back", headers={"X-Ziggurat-Token": token(untimed, 0)}
    )
    assert r.status_code == 409 and "no clock" in r.json()["detail"]
    with client.websocket_connect(ws_url(untimed, token(untimed, 0))) as ws:
        assert receive(ws)["type"] == "state"
        ws.send_json({"type": "take_back"})
        while (msg := receive(ws))["type"] != "error":
            pass
        assert msg["code"] == "no_takeover"


def test_a_player_may_still_move_in_the_grace_period(
    client: TestClient, hand: HandClock, seated: Any
) -> None:
    t = timed(
        client, {"kind": "realtime", "budget": 0.2, "increment": 5, "grace": 600}, [HUMAN, HUMAN, HUMAN]
    )
    table_id = t["table"]
    sockets = seated(t, [0, 1, 2])
    who = mover(client, table_id)
    hand.t += 1  # the clock is out; the table's timer sees it when it fires
    while not (clock := clocks_of(client, table_id)[who]) or not clock["timed_out"]:
        time.sleep(0.01)
    assert clock["remaining"] == 0.0 and not clock["running"] and clock["grace"] == 600.0
    assert who not in live_table(client, table_id).bots
    assert play(client, table_id, sockets) == who  # accepted: no bot has the seat
    after = clocks_of(client, table_id)[who]
    assert after is not None and not after["timed_out"] and after["bot"] is None
    assert after["remaining"] == 5.0  # 0 plus the increment
    assert after["running"] == (mover(client, table_id) == who)


def test_taking_the_seat_back_while_the_bot_decides_drops_the_bot_move(db_url: str, tmp_path: Any) -> None:
    """The bot waits ``bot_delay`` (3 s here) before it decides; the player takes the seat back
    as soon as it starts: its move is dropped and the player makes that decision."""
    app = create_app(db_url, bot_delay=3.0, static_dir=tmp_path / "none")
    tc = {"kind": "realtime", "budget": 0.2, "grace": 0.1, "takeover": "random"}
    with TestClient(app) as client:
        t = timed(client, tc, [HUMAN, HUMAN, HUMAN])
        live = live_table(client, t["table"])
        who = mover(client, t["table"])
        with client.websocket_connect(ws_url(t, token(t, who))) as ws:
            while (msg := receive(ws, thinking=True))["type"] != "thinking" or msg["seat"] != who:
                pass
            version = live.version
            ws.send_json({"type": "take_back"})
            keys: list[str] = []
            while not (msg["type"] == "state" and "clock.takeBack" in keys and msg["legal"]):
                msg = receive(ws)
                if msg["type"] == "state":
                    keys += log_keys(msg)
            assert live.version == version  # the bot's move never landed
            assert msg["clocks"][who]["bot"] is None and msg["clocks"][who]["running"]
            ws.send_json({"type": "action", "action": msg["legal"][0]})
            while not (msg["type"] == "state" and msg["version"] > version):
                msg = receive(ws)
                assert msg["type"] != "error", msg
            assert live.rows[version].actor == who


def test_listeners_hear_each_change_of_the_seat_to_move(client: TestClient, seated: Any) -> None:
    t = timed(client, {"kind": "turn_based", "per_turn": 3600}, [HUMAN, HUMAN, HUMAN])
    live = live_table(client, t["table"])
    heard: list[int | None] = []
    live.mover_listeners.append(lambda table, seat: heard.append(seat))
    sockets = seated(t, [0, 1, 2])
    expected: list[int | None] = []
    for _ in range(8):
        before = mover(client, t["table"])
        version = live.version
        play(client, t["table"], sockets)
        seen = [before]
        state = live.initial_state()
        for i, row in enumerate(live.rows):
            apply_recorded(state, row.text)
            if i >= version:
                who = state.current_player()
                seen.append(who if who >= 0 else None)
        for a, b in zip(seen, seen[1:], strict=False):
            if b != a:
                expected.append(b)
    # every change of the seat with a decision, in order (chance counts as nobody)
    assert heard == expected
    assert heard and all(s is None or 0 <= s < 3 for s in heard)


def test_a_seat_a_bot_took_over_is_still_the_bots_after_a_restart(db_url: str, tmp_path: Any) -> None:
    tc = {"kind": "realtime", "budget": 0.2, "grace": 0.1, "takeover": "random"}
    with TestClient(create_app(db_url, bot_delay=30.0, static_dir=tmp_path / "none")) as client:
        t = timed(client, tc, [HUMAN, HUMAN, HUMAN])
        live = live_table(client, t["table"])
        who = mover(client, t["table"])
        while live.clocks.seats[who].bot_since_ply is None:  # the bot takes over, and waits 30 s
            time.sleep(0.01)
        since = live.clocks.seats[who].bot_since_ply
        assert live.version == since - 1  # it has not moved yet
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        while True:  # the takeover is stored (the timer's task commits it a moment after)
            with store.sessions() as s:
                row = s.get(SeatClockRow, (t["table"], who))
                if row is not None and row.bot_since_ply == since:
                    break
            time.sleep(0.01)
    with open_client(db_url) as client:
        live = live_table(client, t["table"])
        with client.websocket_connect(ws_url(t, token(t, who))) as ws:
            msg = receive(ws)
            assert msg["type"] == "state"
            takeover = [e for e in msg["log"] if e.get("event", {}).get("key") == "clock.takeover"]
            assert [(e["ply"], e["colour"]) for e in takeover] == [(since, live.colours[who])]
            assert msg["clocks"][who]["bot"] == "random" and not msg["clocks"][who]["running"]
            assert msg["legal"] == []  # the bot has the decision, not the player
            while not any(row.actor == who for row in live.rows[since - 1 :]):
                msg = receive(ws)  # the bot plays the seat (bot_delay 0 here)


def test_the_log_names_a_timed_out_seat_as_its_other_sentences_do(db_url: str, tmp_path: Any) -> None:
    """Epochs names its seats in lowercase inside a sentence ("head", as its notation writes
    them); the lines of a takeover and a take-back start with the seat, as "Head" (French
    "Tête"), like the game's own log lines, and the game's other sentences keep "head"."""
    tc = {"kind": "realtime", "budget": 0.2, "grace": 0.1, "takeover": "random"}
    with TestClient(create_app(db_url, bot_delay=30.0, static_dir=tmp_path / "none")) as client:
        t = timed(client, tc, [HUMAN, HUMAN, HUMAN], game="mesopotamia-epochs")
        live = live_table(client, t["table"])
        who = mover(client, t["table"])
        name = ["Brooch", "Head", "Mask"][who]
        french = ["Broche", "Tête", "Masque"][who]
        with client.websocket_connect(ws_url(t, token(t, who))) as ws:
            log: list[dict[str, Any]] = []
            msg = receive(ws)
            while True:
                if msg["type"] == "state":
                    log = log[: msg["log_start"]] + msg["log"]
                    if "clock.takeover" in log_keys({"log": log}):
                        break
                msg = receive(ws)
            # a sentence of the game's that names the seat inside it keeps the lowercase name
            refusal = live.explain((who + 1) % 3, live.state.legal_actions()[0])
            assert refusal is not None and f": {name.lower()} is to move" in refusal.message
            ws.send_json({"type": "take_back"})
            while "clock.takeBack" not in log_keys({"log": log}):
                msg = receive(ws)
                if msg["type"] == "state":
                    log = log[: msg["log_start"]] + msg["log"]
    lines = {e["event"]["key"]: e for e in log if e.get("event", {}).get("key", "").startswith("clock.")}
    takeover, back = lines["clock.takeover"], lines["clock.takeBack"]
    assert takeover["sentence"].startswith(f"{name}'s time ran out: a bot (random) plays for them")
    assert back["sentence"] == f"{name} takes their seat back from the bot"
    assert render(from_json(takeover["event"]), "fr").startswith(f"Le temps de {french} est écoulé")
    assert render(from_json(back["event"]), "fr") == f"{french} reprend sa place au robot"
    # the game's own log lines name the seat the same way
    assert any(
        e["sentence"].startswith(f"{name} ")
        for e in log
        if e["ply"] and not e.get("event", {}).get("key", "").startswith("clock.")
    )
