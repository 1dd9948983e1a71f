"""Replays (``GET /api/tables/{id}/replay``): each viewer's view at every ply, and nothing more.

Tables are played to the end (or part way) by scripted humans, each choosing its seat's moves
with the heuristic bot from the state messages its socket receives, with bot seats beside
them. The truth is the table's stored actions read back from the database and replayed as a
game record (``ziggurat.record`` / ``ziggurat.replay``): the replay of every ply must show each
seat exactly ``view(seat)`` of that state and everyone else ``view(None)``, with the viewer's
own log up to that ply. Runs on SQLite, and on PostgreSQL with ``ZIGGURAT_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import live_table, receive, receive_state, wait_idle, ws_url

import ziggurat
from ziggurat.bots.base import make_bot
from ziggurat.engine.records import apply_recorded
from ziggurat.server.replay import ReplayCache
from ziggurat.server.store import Store


def _create(client: TestClient, game: str, seats: str, seed: int) -> dict[str, Any]:
    body = {
        "game": game,
        "players": len(seats),
        "seats": [{"kind": "human"} if s == "h" else {"kind": "bot", "bot": "heuristic"} for s in seats],
        "seed": seed,
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _play(client: TestClient, table: dict[str, Any], until: int | None = None) -> None:
    """Play the human seats with the heuristic bot until the game is over, or until a human is
    to move at ``until`` plies or more."""
    humans = [s["seat"] for s in table["seats"] if s["kind"] == "human"]
    game = live_table(client, table["table"]).game
    bots = {seat: make_bot("heuristic", game, seat) for seat in humans}
    rng = random.Random(5)
    wait_idle(client, table["table"])  # connect at a quiet moment: then every socket sees every change
    sockets = {
        seat: client.websocket_connect(ws_url(table, table["seats"][seat]["token"])) for seat in humans
    }
    for ws in sockets.values():
        ws.__enter__()
    try:
        while True:
            batch = {seat: receive_state(ws) for seat, ws in sockets.items()}
            assert len({m["version"] for m in batch.values()}) == 1
            first = next(iter(batch.values()))
            if first["status"] == "over":
                return
            movers = [seat for seat, m in batch.items() if m["legal"]]
            if not movers:
                continue
            if until is not None and first["version"] >= until:
                return
            seat = movers[0]
            msg = batch[seat]
            action = bots[seat].choose(msg["view"], msg["legal"], rng)
            sockets[seat].send_json({"type": "action", "action": action})
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def _record_states(client: TestClient, table_id: str) -> list[Any]:
    """The state after each number of the table's stored actions (index = ply), built from a
    game record of the actions as the database holds them."""
    store: Store = client.app.state.manager.store  # type: ignore[attr-defined]
    stored = store.load_table(table_id)
    assert stored is not None
    game = ziggurat.load(stored.game, players=stored.players, **stored.options)
    final = game.new_initial_state()
    for row in stored.actions:
        apply_recorded(final, row.text)
    record = ziggurat.record(final)
    assert len(record["actions"]) == len(stored.actions)
    states = [game.new_initial_state()]
    for text in record["actions"]:
        state = states[-1].clone()
        state.apply(text)
        states.append(state)
    assert (
        ziggurat.replay(record, upto=len(states) // 2).to_position() == states[len(states) // 2].to_position()
    )
    return states


def _replay(client: TestClient, table_id: str, ply: int | None, token: str | None) -> Any:
    headers = {"X-Ziggurat-Token": token} if token else {}
    query = "" if ply is None else f"?ply={ply}"
    return client.get(f"/api/tables/{table_id}/replay{query}", headers=headers)


def _hidden(full: Any, view: Any, path: str = "") -> set[str]:
    """Paths the view hides (``None`` where the full position has a value)."""
    if view is None and full is not None:
        return {path}
    if isinstance(full, dict) and isinstance(view, dict):
        return set().union(*(_hidden(full[k], view.get(k), f"{path}.{k}") for k in full if k in view))
    if isinstance(full, list) and isinstance(view, list) and len(full) == len(view):
        return set().union(
            *(_hidden(a, b, f"{path}[{i}]") for i, (a, b) in enumerate(zip(full, view, strict=True)))
        )
    return set()


def _at(view: Any, path: str) -> Any:
    """The value at a path of :func:`_hidden` (``None`` if the view stops short of it)."""
    node = view
    for part in path.replace("[", ".[").split(".")[1:]:
        if node is None:
            return None
        node = node[int(part[1:-1])] if part.startswith("[") else node.get(part)
    return node


def test_every_ply_shows_each_seat_its_view_and_everyone_else_the_public_one(client: TestClient) -> None:
    """A finished Mesopotamia game: at every ply the seat tokens get ``view(seat)`` of the state
    the record gives (never another seat's hand, new cards or unplaced offerings), the spectator
    token and no token ``view(None)``; the log is the viewer's own up to that ply; the last ply
    carries the result and how the game was won."""
    table = _create(client, "mesopotamia", "hhb", seed=11)
    table_id = table["table"]
    _play(client, table)
    states = _record_states(client, table_id)
    last = len(states) - 1
    assert states[-1].is_terminal() and last > 100
    live = live_table(client, table_id)
    tokens: dict[int | None, str | None] = {0: table["seats"][0]["token"], 1: table["seats"][1]["token"]}
    rng = random.Random(3)
    hands = 0
    for ply in range(last + 1):
        sample = ply in (0, 1, last) or rng.random() < 0.2
        for viewer, token in [*tokens.items(), (None, table["spectator_token"]), (None, None)]:
            if not sample and (viewer == 1 or token == table["spectator_token"]):
                continue
            r = _replay(client, table_id, ply, token)
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["ply"] == ply and got["last"] == last and got["status"] == "over"
            assert [s["kind"] for s in got["seats"]] == ["human", "human", "bot"]
            assert got["seat"] == viewer
            assert got["view"] == states[ply].view(viewer)
            assert all(e["ply"] <= ply for e in got["log"])
            assert len(got["log"]) == sum(1 for p in live.log_plies[viewer] if p <= ply)
            assert got["over"] == (ply == last)
            for other, player in enumerate(got["view"]["players"]):
                if other != viewer:
                    assert player["hand"] is None and player["new_cards"] is None
                    assert player["offerings"]["unplaced"] is None
                    hands += sum(states[ply].to_position()["players"][other]["hand"].values())
    assert hands > 0  # there were cards to hide
    end = _replay(client, table_id, None, None).json()
    assert end["ply"] == last and end["result"] == states[-1].returns()
    assert end["outcome"] is not None and end["outcome"]["rule"]
    assert end["log"] == [json.loads(e) for e in live.logs[None]]
    assert _replay(client, table_id, last - 1, None).json()["result"] is None


@pytest.mark.parametrize("game", ["mesopotamia-epochs", "mare-nostrum"])
def test_a_seat_never_sees_another_seats_secrets_at_any_ply(client: TestClient, game: str) -> None:
    """Epochs' set-aside cards and deck, Mare Nostrum's resources and face-down tiles (Mesopotamia's
    hands: the test above): whatever the true position hides from a seat at a ply stays hidden
    in that seat's replay of that ply, at every ply of a whole game."""
    table = _create(client, game, "hhb", seed=4)
    table_id = table["table"]
    _play(client, table)
    states = _record_states(client, table_id)
    secrets = 0
    for ply, state in enumerate(states):
        full = state.to_position()
        for seat in (0, 1):
            got = _replay(client, table_id, ply, table["seats"][seat]["token"]).json()
            truth = state.view(seat)
            assert got["view"] == truth
            hidden = _hidden(full, truth)
            secrets += len(hidden)
            assert all(_at(got["view"], path) is None for path in hidden)
    assert secrets > 0


def test_a_game_in_progress_is_replayed_only_with_a_token(client: TestClient) -> None:
    """During a game: no token is 403, a wrong token 403; a seat steps back through the plies
    it has seen (its own view, up to the current ply), a spectator the public view."""
    table = _create(client, "mesopotamia", "hbb", seed=8)
    table_id = table["table"]
    _play(client, table, until=30)
    last = wait_idle(client, table_id)
    states = _record_states(client, table_id)
    assert len(states) - 1 == last
    r = _replay(client, table_id, 0, None)
    assert r.status_code == 403 and "token" in r.json()["detail"]
    assert _replay(client, table_id, None, None).status_code == 403
    assert _replay(client, table_id, 0, "not-a-token-of-this-table").status_code == 403
    seat = table["seats"][0]["token"]
    for ply in range(last + 1):
        got = _replay(client, table_id, ply, seat).json()
        assert got["status"] == "playing" and got["last"] == last and not got["over"]
        assert got["view"] == states[ply].view(0)
    public = _replay(client, table_id, last, table["spectator_token"]).json()
    assert public["seat"] is None and public["view"] == states[last].view(None)
    assert _replay(client, table_id, None, seat).json()["ply"] == last


def test_plies_outside_the_game_are_400_and_unknown_tables_404(client: TestClient) -> None:
    table = _create(client, "mesopotamia", "hbb", seed=2)
    table_id = table["table"]
    last = wait_idle(client, table_id)
    seat = table["seats"][0]["token"]
    for ply in (-1, last + 1, 10**6):
        r = _replay(client, table_id, ply, seat)
        assert r.status_code == 400 and f"between 0 and {last}" in r.json()["detail"]
    assert _replay(client, table_id, "two", seat).status_code == 400  # type: ignore[arg-type]
    r = _replay(client, "no-such-table", 0, None)
    assert r.status_code == 404 and "no table" in r.json()["detail"]
    assert _replay(client, "no-such-table", 0, seat).status_code == 404


def test_undo_replaces_what_a_replay_of_the_undone_ply_shows(client: TestClient) -> None:
    """A replay cached before an undo does not outlive it: the ply of the undone action shows
    the action played instead."""
    table = _create(client, "mesopotamia", "hhh", seed=6)
    table_id = table["table"]
    tokens = [s["token"] for s in table["seats"]]
    wait_idle(client, table_id)
    live = live_table(client, table_id)
    seat = live.state.current_player()
    with client.websocket_connect(ws_url(table, tokens[seat])) as ws:
        first = receive_state(ws)
        ply = first["version"] + 1
        moves = [a for a in first["legal"] if a.startswith("move ")]
        assert len(moves) >= 2
        ws.send_json({"type": "action", "action": moves[0]})
        assert receive_state(ws)["version"] == ply
        before = _replay(client, table_id, ply, tokens[seat]).json()
        ws.send_json({"type": "undo"})
        assert receive(ws)["version"] == ply - 1
        ws.send_json({"type": "action", "action": moves[1]})
        assert receive_state(ws)["version"] == ply
    after = _replay(client, table_id, ply, tokens[seat]).json()
    states = _record_states(client, table_id)
    assert after["view"] == states[ply].view(seat) != before["view"]
    assert after["log"][-1]["text"] != before["log"][-1]["text"]


def test_the_kept_states_and_frames_stay_within_their_bounds(client: TestClient) -> None:
    """A cache holding one table, four frames and three states a table (every 4 plies at first,
    then further apart) still gives every viewer the view of the record's state at every ply,
    in any order, two tables taking turns."""
    tables = [_create(client, "mesopotamia", "hbb", seed=seed) for seed in (21, 22)]
    for table in tables:
        _play(client, table, until=40)
    lives = [live_table(client, t["table"]) for t in tables]
    truths = [_record_states(client, t["table"]) for t in tables]
    cache = ReplayCache(max_tables=1, max_frames=4, spacing=4, max_checkpoints=3)
    rng = random.Random(9)
    asked = [(i, ply, viewer) for i in (0, 1) for ply in range(len(truths[i])) for viewer in (0, 1, None)]
    rng.shuffle(asked)
    stepping = sorted(asked, key=lambda a: (a[0], a[1], -1 if a[2] is None else a[2]))
    for i, ply, viewer in [*asked, *stepping]:
        frame = cache.frame(lives[i], lives[i].rows[:ply], viewer)
        assert json.loads(frame.view) == truths[i][ply].view(viewer)
        held = cache.held()
        assert held["tables"] == 1 and held["frames"] <= 4 and held["states"] <= 3 + 8
