"""What the server tells a table page so a new player does not trip: which legal actions are
final (``final``), why an action would be refused (``POST /api/tables/{id}/explain``), why
Undo is off (``undo_block``), which bot is thinking, how each seat is named (``seat_labels``),
and tables started from a position (``allow_positions``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    TestClient,
    create_app,
    live_table,
    new_table,
    receive,
    receive_state,
    settle,
    token,
    wait_idle,
    ws_url,
)

import ziggurat
from endgame_positions import endgame, epochs_attack
from ziggurat.server import live
from ziggurat.server.gamekit import final_flags
from ziggurat.server.tabletypes import Shown


@pytest.fixture
def pclient(db_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """A server that creates tables from positions."""
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", allow_positions=True)
    with TestClient(app) as c:
        yield c


def _from_position(
    client: TestClient, game: str, position: dict[str, Any], human: int, seed: int = 5
) -> dict[str, Any]:
    players = int(position["num_players"])
    seats = [{"kind": "human"} if s == human else {"kind": "bot", "bot": "heuristic"} for s in range(players)]
    r = client.post(
        "/api/tables",
        json={"game": game, "players": players, "seats": seats, "seed": seed, "position": position},
    )
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _explain(client: TestClient, table_id: str, action: str, tok: str | None) -> Any:
    headers = {} if tok is None else {"X-Ziggurat-Token": tok}
    return client.post(f"/api/tables/{table_id}/explain", json={"action": action}, headers=headers)


# --- final flags ---------------------------------------------------------------------------


def test_the_winning_delivery_is_final_and_an_ordinary_step_is_not_M16_1(pclient: TestClient) -> None:
    """The move that delivers the fourth offering ends the game (M16.1): flagged ``ends_turn``;
    a step that leaves the seat to move (M4) carries no flag."""
    end = endgame("mesopotamia", 3, 1)
    t = _from_position(pclient, "mesopotamia", end.position, end.seat)
    with pclient.websocket_connect(ws_url(t, token(t, end.seat))) as ws:
        msg = settle(ws, pclient, t["table"])
    assert end.action in msg["legal"]
    assert msg["final"][end.action] == "ends_turn"
    assert set(msg["final"]) <= set(msg["legal"])
    assert set(msg["final"].values()) <= {"ends_turn", "irreversible"}
    quiet = [a for a in msg["legal"] if a not in msg["final"]]
    assert quiet, "some legal steps keep the turn"
    state = live_table(pclient, t["table"]).state.clone()
    state.apply(quiet[0], seat=end.seat)
    assert state.current_player() == end.seat


def test_the_final_flags_of_a_step_give_the_event_loop_to_other_work(
    pclient: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final flags play every legal action on a copy, on the event loop: they let other
    work run every ``FLAGS_SLICE`` seconds of theirs (here after each action), and come out the
    same as the flags the socket was sent."""
    end = endgame("mesopotamia", 3, 1)
    t = _from_position(pclient, "mesopotamia", end.position, end.seat)
    with pclient.websocket_connect(ws_url(t, token(t, end.seat))) as ws:
        msg = settle(ws, pclient, t["table"])
        table = live_table(pclient, t["table"])
        state = table.state
        legal = list(state.legal_actions())
        assert len(legal) > 3

        async def flags_and_ticks() -> tuple[dict[str, str] | None, int]:
            ticks = 0
            done = False

            async def other_work() -> None:
                nonlocal ticks
                while not done:
                    ticks += 1
                    await asyncio.sleep(0)

            task = asyncio.create_task(other_work())
            shown = Shown({end.seat: state.view(end.seat)}, {}, None, None, None)
            final = (await table._step_flags(state, shown)).final
            done = True
            await task
            return final, ticks

        monkeypatch.setattr(live, "FLAGS_SLICE", 0.0)
        final, ticks = pclient.portal.call(flags_and_ticks)  # type: ignore[union-attr]
        assert final == msg["final"] == final_flags(state, end.seat)
        assert ticks >= len(legal) - 1  # a turn of the loop after each action played
        monkeypatch.setattr(live, "FLAGS_SLICE", 3600.0)
        final, ticks = pclient.portal.call(flags_and_ticks)  # type: ignore[union-attr]
        assert final == msg["final"]
        assert ticks <= 1  # all in one go: the other work waited


def test_an_attack_that_rolls_dice_is_irreversible_E12_2(pclient: TestClient) -> None:
    """An Epochs attack sets off the dice (a chance node): ``irreversible``; the undo that
    follows it is refused as a chance event (``undo_block``)."""
    position, seat, attack = epochs_attack()
    t = _from_position(pclient, "mesopotamia-epochs", position, seat)
    with pclient.websocket_connect(ws_url(t, token(t, seat))) as ws:
        msg = settle(ws, pclient, t["table"])
        assert msg["final"][attack] == "irreversible"
        ws.send_json({"type": "action", "action": attack})
        after = settle(ws, pclient, t["table"], receive_state(ws))
    rows = live_table(pclient, t["table"]).rows
    assert rows[-1].actor != seat or rows[-1].barrier
    assert after["can_undo"] is False and after["undo_block"] in {"chance", "barrier", "bot"}


def test_a_spectator_and_a_seat_not_to_move_get_no_flags(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    wait_idle(client, t["table"])
    with client.websocket_connect(ws_url(t, t["spectator_token"])) as ws:
        msg = receive_state(ws)
    assert msg["legal"] == [] and msg["final"] == {}
    assert msg["undo_block"] == "spectator" and msg["can_undo"] is False


# --- explain -------------------------------------------------------------------------------


def test_explain_gives_the_engine_refusal_and_changes_nothing(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    version = wait_idle(client, t["table"])
    live = live_table(client, t["table"])
    seat = live.state.current_player()
    before = live.state.fingerprint()
    legal = list(live.state.legal_actions())
    r = _explain(client, t["table"], "move b@9,9 9,8", token(t, seat))  # no tribe there (M4)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["legal"] is False and body["code"] in {"illegal", "invalid"}
    assert body["message"] and body["event"]["key"]
    with client.websocket_connect(ws_url(t, token(t, seat))) as ws:
        receive_state(ws)
        for action in legal[:3]:
            answer = _explain(client, t["table"], action, token(t, seat)).json()
            assert answer == {"action": action, "legal": True, "code": None, "message": None, "event": None}
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}  # nobody was sent anything meanwhile
    assert live.state.fingerprint() == before and live.version == version


def test_explain_names_the_rule_of_the_refusal_M16_1(pclient: TestClient) -> None:
    """A move the rules forbid is answered with the engine's reason, naming its rule."""
    end = endgame("mesopotamia", 3, 1)
    t = _from_position(pclient, "mesopotamia", end.position, end.seat)
    wait_idle(pclient, t["table"])
    live = live_table(pclient, t["table"])
    state = live.state
    tribe = end.action.split(" ")[1]
    # the same tribe onto a tile it cannot reach in one step
    refused = f"move {tribe} 6,6"
    with pytest.raises(ziggurat.IllegalAction) as engine:
        state.clone().apply(refused, seat=end.seat)
    answer = _explain(pclient, t["table"], refused, token(t, end.seat)).json()
    assert answer["legal"] is False and answer["code"] == "illegal"
    assert answer["message"] == str(engine.value)
    assert "(" in answer["message"] and ")" in answer["message"]  # the reason cites its rule
    assert answer["event"]["key"]
    assert live.state is state and not live.state.is_terminal()


def test_explain_of_another_seat_says_not_your_turn(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    wait_idle(client, t["table"])
    live = live_table(client, t["table"])
    other = 1 - live.state.current_player()
    answer = _explain(client, t["table"], live.state.legal_actions()[0], token(t, other)).json()
    assert answer["legal"] is False and answer["code"] == "not_your_turn"


def test_explain_refuses_spectators_and_wrong_tokens(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    assert _explain(client, t["table"], "end", t["spectator_token"]).status_code == 403
    assert _explain(client, t["table"], "end", "not-a-token-of-this-table").status_code == 403
    assert _explain(client, t["table"], "end", None).status_code == 403
    assert _explain(client, "nosuchtable", "end", token(t, 0)).status_code == 404
    r = client.post(
        f"/api/tables/{t['table']}/explain", json={"action": ""}, headers={"X-Ziggurat-Token": token(t, 0)}
    )
    assert r.status_code == 400


def test_explain_is_rate_limited_per_token(client: TestClient) -> None:
    t = new_table(client, seats="hh")
    answers = [_explain(client, t["table"], "end", token(t, 0)).status_code for _ in range(31)]
    assert answers[:30] == [200] * 30
    assert answers[30] == 429
    r = _explain(client, t["table"], "end", token(t, 0))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert _explain(client, t["table"], "end", token(t, 1)).status_code == 200  # another seat's own budget


# --- undo reasons, bots thinking -------------------------------------------------------------


def test_undo_block_says_why(client: TestClient) -> None:
    t = new_table(client, seats="hb", bot="random")
    wait_idle(client, t["table"])
    live = live_table(client, t["table"])
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = settle(ws, client, t["table"])
        expected = live.undo_block(0)
        assert msg["undo_block"] == expected
        if not any(row.actor == 0 for row in live.rows):
            assert expected == "nothing"  # this seat has not acted yet
        elif live.rows[-1].actor == 1:
            assert expected == "bot"
        elif live.rows[-1].actor < 0:
            assert expected == "chance"
        # a step that keeps the turn can be taken back
        quiet = next(
            (a for a in msg["legal"] if a not in msg["final"] and not live.game.undo_barrier(live.state, a)),
            None,
        )
        if quiet is not None:
            ws.send_json({"type": "action", "action": quiet})
            after = settle(ws, client, t["table"], receive_state(ws))
            assert after["undo_block"] is None and after["can_undo"] is True
            later = after
            for _ in range(100):  # play on (ending the turn when possible) until someone else moved
                ends = [a for a in later["legal"] if later["final"].get(a) == "ends_turn"]
                ws.send_json({"type": "action", "action": (ends or later["legal"])[0]})
                later = settle(ws, client, t["table"], receive_state(ws))
                if live.rows[-1].actor != 0 or later["status"] == "over":
                    break
            last_actor = live.rows[-1].actor
            if later["status"] != "over":
                assert later["undo_block"] == {1: "bot"}.get(last_actor, "chance")
            assert later["can_undo"] is False


def _play_until_the_bot_stopped_thinking(client: TestClient, t: dict[str, Any]) -> list[dict[str, Any]]:
    """The human seat (0) plays until a bot's stop notice has come and it may move again:
    every message its socket got."""
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = receive_state(ws)
        for _ in range(200):
            if any(m["type"] == "thinking" and m["seat"] is None for m in seen) and msg["legal"]:
                break
            if msg["status"] == "over":
                break
            if msg["legal"]:
                ends = [a for a in msg["legal"] if msg["final"].get(a) == "ends_turn"]
                ws.send_json({"type": "action", "action": (ends or msg["legal"])[0]})
            while True:
                m = receive(ws, thinking=True)
                seen.append(m)
                if m["type"] == "state":
                    msg = m
                    break
    return seen


def test_a_bot_says_when_it_starts_and_stops_thinking(db_url: str, tmp_path: Path) -> None:
    """A bot that takes longer than a quarter of a second (here its 0.4 s delay): the socket
    is told the bot is thinking (seat 1), then that it stopped, before the state after its
    move."""
    app = create_app(db_url, bot_delay=0.4, static_dir=tmp_path / "no-static")
    with TestClient(app) as client:
        t = new_table(client, seats="hb", bot="heuristic")
        wait_idle(client, t["table"])
        live = live_table(client, t["table"])
        seen = _play_until_the_bot_stopped_thinking(client, t)
    notices = [m for m in seen if m["type"] == "thinking"]
    assert notices and notices[0]["seat"] == 1 and notices[0]["elapsed"] >= 0
    stop = next(i for i, m in enumerate(seen) if m["type"] == "thinking" and m["seat"] is None)
    assert seen[stop - 1]["type"] == "thinking" and seen[stop - 1]["seat"] == 1
    assert live.thinking is None or live.thinking[0] == 1


def test_thinking_notices_come_in_pairs(client: TestClient) -> None:
    """However quickly the bots decide, a stop notice only ever follows a start notice for that
    bot (a bot that decides within a quarter of a second sends neither)."""
    t = new_table(client, seats="hbb", bot="random")
    wait_idle(client, t["table"])
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = receive_state(ws)
        notices: list[dict[str, Any]] = []
        for _ in range(30):
            if msg["status"] == "over":
                break
            if msg["legal"]:
                ws.send_json({"type": "action", "action": msg["legal"][0]})
            while (m := receive(ws, thinking=True))["type"] != "state":
                notices.append(m)
            msg = m
    for i, notice in enumerate(notices):
        if i % 2 == 0:
            assert notice["seat"] in (1, 2)
        else:
            assert notice["seat"] is None


# --- seat labels, positions ------------------------------------------------------------------


def test_mare_nostrum_seats_are_named_by_empire_S2(client: TestClient) -> None:
    """Once the empires are dealt, the state message and the lobby name each seat by its
    empire (the game's seat label), not "seat 1"."""
    r = client.post(
        "/api/tables",
        json={"game": "mare-nostrum", "players": 3, "seats": [{"kind": "human"}] * 3, "seed": 3},
    )
    t = r.json()
    wait_idle(client, t["table"])
    empires = live_table(client, t["table"]).state.to_position()["empires"]
    assert all(empires), "the empires are dealt at the set-up (S2)"
    with client.websocket_connect(ws_url(t, token(t, 0))) as ws:
        msg = receive_state(ws)
    assert [label["key"] for label in msg["seat_labels"]] == [f"mn.whom.{e}" for e in empires]
    found = client.post("/api/tables/lookup", json={"tokens": [token(t, 0)]}).json()[0]
    assert found["seat_label"] == msg["seat_labels"][0]
    assert found["to_move_label"] == msg["seat_labels"][live_table(client, t["table"]).state.current_player()]


def test_a_table_from_a_position_needs_the_server_option(client: TestClient) -> None:
    end = endgame("mesopotamia", 3, 1)
    body = {"game": "mesopotamia", "players": 3, "position": end.position}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 403 and "position" in r.json()["detail"]


def test_a_bad_position_is_refused_with_its_fault(pclient: TestClient) -> None:
    end = endgame("mesopotamia", 3, 1)
    broken = dict(end.position, players="nobody")
    r = pclient.post("/api/tables", json={"game": "mesopotamia", "players": 3, "position": broken})
    assert r.status_code == 400 and "players" in r.json()["detail"]
