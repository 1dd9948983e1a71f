"""The tutorial API (docs/tutorials.md): a lesson is started, a right move advances it, a legal
but wrong move gets the step's hint and changes nothing, an illegal one the engine's refusal,
the last step ends it, and it can be restarted."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import TestClient

MOVEMENT = "/api/tutorials/mesopotamia/lessons/movement"


def _start(client: TestClient, lesson: str = "movement") -> dict[str, Any]:
    r = client.post(f"/api/tutorials/mesopotamia/lessons/{lesson}")
    assert r.status_code == 200, r.text
    return r.json()


def _move(client: TestClient, session: str, action: str) -> dict[str, Any]:
    r = client.post(f"/api/tutorials/sessions/{session}/actions", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def test_lists_mesopotamia_lessons(client: TestClient) -> None:
    listed = client.get("/api/tutorials").json()
    meso = next(t for t in listed if t["game"] == "mesopotamia")
    assert [x["id"] for x in meso["lessons"]][:2] == ["movement", "carry"]
    assert meso["lessons"][0]["title"]["fr"] == "Se déplacer et découvrir"
    full = client.get("/api/tutorials/mesopotamia").json()
    assert full["players"] == 3
    assert full["lessons"][0]["steps"][0]["rules"] == ["M2.2", "M2.6"]


def test_start_shows_first_step_and_board(client: TestClient) -> None:
    a = _start(client)
    assert a["outcome"] == "started" and a["step"] == 0 and a["steps"] == 4
    assert a["say"]["en"].startswith("Move a blue tribe") and a["say"]["fr"]
    table = a["table"]
    assert table["seat"] == 0 and table["colour"] == "blue"
    assert "move b@1,-1 1,0" in table["legal"]
    assert table["view"]["viewer"] == "blue"
    assert not a["finished"] and a["next"] == "carry"


def test_right_move_advances_M2_2(client: TestClient) -> None:
    a = _start(client)
    b = _move(client, a["session"], "move b@1,-1 1,0")
    assert b["outcome"] == "played" and b["step"] == 1
    assert b["table"]["version"] == 1
    assert [1, 0, "", False] in b["table"]["view"]["players"][0]["tribes"]
    assert b["table"]["log"][-1]["text"] == "move b@1,-1 1,0"


def test_loose_text_is_read_as_the_engine_reads_it(client: TestClient) -> None:
    a = _start(client)
    b = _move(client, a["session"], "move b@(1, -1) (1, 0)")
    assert b["outcome"] == "played" and b["step"] == 1


def test_legal_but_wrong_move_gets_hint_and_changes_nothing(client: TestClient) -> None:
    a = _start(client)
    b = _move(client, a["session"], "move b@1,-1 0,0")  # legal (into the temple), not what step 1 asks
    assert b["outcome"] == "hint"
    assert b["hint"] == {"en": "Move a tribe from 1,-1 to 1,0.", "fr": "Déplacez une tribu de 1,-1 vers 1,0."}
    assert b["step"] == 0
    assert b["table"]["view"] == a["table"]["view"] and b["table"]["version"] == 0


def test_illegal_move_gets_engine_refusal_M2_4(client: TestClient) -> None:
    a = _start(client)
    b = _move(client, a["session"], "move b@1,-1 0,-1")  # 0,-1 is a volcano
    assert b["outcome"] == "refused"
    assert b["error"]["code"] == "illegal"
    assert "M2.4" in b["error"]["message"]
    assert b["error"]["event"]["key"]
    assert b["step"] == 0 and b["table"]["view"] == a["table"]["view"]


def test_unparsable_move_is_invalid(client: TestClient) -> None:
    a = _start(client)
    b = _move(client, a["session"], "fly b@1,-1 to the moon")
    assert b["outcome"] == "refused" and b["error"]["code"] == "invalid"


def test_lesson_ends_after_last_step_M2_7(client: TestClient) -> None:
    a = _start(client)
    sid = a["session"]
    _move(client, sid, "move b@1,-1 1,0")
    _move(client, sid, "move b@1,-1 2,-1")
    c = _move(client, sid, "pile 2")
    # the scripted chance reply (the tile) was played before the learner's next step
    assert c["step"] == 3 and [2, -1, "plains"] in c["table"]["view"]["tiles"]
    assert any(e["text"] == "tile plains" for e in c["table"]["log"])
    d = _move(client, sid, "end")
    assert d["finished"] and d["say"] is None and d["table"]["legal"] == []
    assert d["done"]["en"].startswith("Well done")
    r = client.post(f"/api/tutorials/sessions/{sid}/actions", json={"action": "draw"})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_victory_lesson_ends_the_game_M16_1(client: TestClient) -> None:
    a = _start(client, "deliver")
    sid = a["session"]
    for action in ("offering b@2,-1 b2", "move bo4@2,-1 1,-1", "move bo4@1,-1 0,0"):
        last = _move(client, sid, action)
    assert last["finished"] and last["next"] is None
    assert last["table"]["status"] == "over" and last["table"]["result"] == [1.0, 0.0, 0.0]
    assert last["table"]["view"]["winner"] == "blue"


def test_restart_goes_back_to_the_position(client: TestClient) -> None:
    a = _start(client)
    sid = a["session"]
    _move(client, sid, "move b@1,-1 1,0")
    r = client.post(f"/api/tutorials/sessions/{sid}/restart")
    assert r.status_code == 200
    b = r.json()
    assert b["session"] == sid and b["step"] == 0 and b["table"]["view"] == a["table"]["view"]
    assert b["table"]["log"] == a["table"]["log"]
    assert client.get(f"/api/tutorials/sessions/{sid}").json()["step"] == 0


def test_unknown_game_lesson_or_session_is_404(client: TestClient) -> None:
    assert client.post("/api/tutorials/chess/lessons/movement").status_code == 404
    assert client.post("/api/tutorials/mesopotamia/lessons/castling").status_code == 404
    r = client.post("/api/tutorials/sessions/nope/actions", json={"action": "end"})
    assert r.status_code == 404
    assert client.get("/api/tutorials/sessions/nope").status_code == 404


def test_two_learners_do_not_share_a_lesson(client: TestClient) -> None:
    a, b = _start(client), _start(client)
    assert a["session"] != b["session"]
    _move(client, a["session"], "move b@1,-1 1,0")
    assert client.get(f"/api/tutorials/sessions/{b['session']}").json()["step"] == 0


def test_tutorial_page_is_served(client: TestClient) -> None:
    # the client fixture has no static directory: the page route answers that it is missing
    r = client.get("/tutorial/mesopotamia")
    assert r.status_code == 404 and "browser client" in r.text


def test_sessions_forget_the_least_recently_used() -> None:
    """Lessons live in memory only, bounded: past the limit the least recently used goes."""
    from fastapi import HTTPException

    from ziggurat.server.tutorial import Sessions
    from ziggurat.tutorials import load_tutorial

    sessions = Sessions(limit=2)
    tutorial = load_tutorial("mesopotamia")
    first = sessions.open(tutorial, "movement")
    second = sessions.open(tutorial, "carry")
    sessions.get(first.id)  # used: now the second is the least recently used
    sessions.open(tutorial, "temple")
    assert len(sessions) == 2
    assert sessions.get(first.id) is first
    with pytest.raises(HTTPException) as caught:
        sessions.get(second.id)
    assert caught.value.status_code == 404
