"""The games' ``outcome`` hook (how a finished game was won: condition, rule, winners, scores)
and how the server sends it: in the final ``state`` message, stored with the table and listed
by the lobby's lookup, also after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, create_app, receive_state, settle, token, ws_url

import ziggurat
from endgame_positions import endgame
from ziggurat.engine.messages import render
from ziggurat.server import gamekit


def _outcome(state: Any) -> dict[str, Any]:
    hook = state.game.hooks.outcome
    assert hook is not None
    found: dict[str, Any] = dict(hook.get()(state))
    return found


def _check_shape(found: dict[str, Any], players: int) -> None:
    assert len(found["scores"]) == players
    keys = [c["key"] for c in found["scores"][0]]
    assert all([c["key"] for c in row] == keys for row in found["scores"])
    assert set(found["labels"]) == set(keys)
    for label in found["labels"].values():
        assert render(label, "fr") and render(label, "en")
    assert found["rule"] in str(found["summary"]) or found["condition"] == "none"


def test_mesopotamia_fourth_delivery_M16_1() -> None:
    end = endgame("mesopotamia", 3, 1)
    found = _outcome(end.final)
    _check_shape(found, 3)
    pos = end.final.to_position()
    winner = [p["colour"] for p in pos["players"]].index(pos["winner"])
    assert (found["condition"], found["rule"], found["winners"]) == ("fourth_offering", "M16.1", [winner])
    delivered = {c["key"]: c["value"] for c in found["scores"][winner]}
    assert delivered["offerings"] == 4 == len(pos["players"][winner]["offerings"]["delivered"])
    assert [row[1]["value"] for row in found["scores"]] == [p["mana"] for p in pos["players"]]
    assert str(found["summary"]).endswith("(M16.1)")
    assert "offrandes" in render(found["summary"], "fr")


def test_mesopotamia_round_limit_without_a_winner_R57() -> None:
    game = ziggurat.load("mesopotamia", players=3, round_limit=1)
    end = endgame("mesopotamia", 3, 2, round_limit=1)
    assert end.final.game.options == game.options
    found = _outcome(end.final)
    assert (found["condition"], found["rule"], found["winners"]) == ("round_limit", "R57", [])
    assert end.final.returns() == [0.0, 0.0, 0.0]


def test_mesopotamia_round_limit_ranked_M16_2() -> None:
    end = endgame("mesopotamia", 3, 2, round_limit=1, rank_non_winners=True)
    found = _outcome(end.final)
    returns = end.final.returns()
    if found["winners"]:
        assert (found["condition"], found["rule"]) == ("round_limit_ranked", "M16.2")
        assert returns[found["winners"][0]] == 1.0
    else:  # a tie on every key ranks nobody first (M16.2)
        assert found["condition"] == "round_limit" and returns == [0.0, 0.0, 0.0]


def test_epochs_most_victory_points_E15_2() -> None:
    end = endgame("mesopotamia-epochs", 3, 1)
    found = _outcome(end.final)
    _check_shape(found, 3)
    vp = [p["vp"] for p in end.final.to_position()["players"]]
    assert [row[0]["value"] for row in found["scores"]] == vp
    winners = [i for i, r in enumerate(end.final.returns()) if r > 0]
    assert found["winners"] == winners
    if len(winners) == 1 and vp.count(max(vp)) == 1:
        assert (found["condition"], found["rule"]) == ("most_vp", "E15.2")
        assert vp[winners[0]] == max(vp)
    else:
        assert found["rule"] == "R25"


@pytest.mark.parametrize("seed", [1, 2])
def test_mare_nostrum_reads_the_recorded_winner_N6(seed: int) -> None:
    """The winner is the final state's ``winner``; the condition is one of N6.1-N6.4 (or the
    Military leader's tie decision, N6.5.2) and the scores count what the conditions count."""
    end = endgame("mare-nostrum", 3, seed)
    found = _outcome(end.final)
    _check_shape(found, 3)
    pos = end.final.to_position()
    assert found["winners"] == [pos["winner"]]
    rules = {
        "pyramids": "N6.1",
        "heroes_wonders": "N6.2",
        "capitals": "N6.3",
        "titles": "N6.4",
        "tie": "N6.5.2",
    }
    assert rules[found["condition"]] == found["rule"]
    titles = [row[2]["value"] for row in found["scores"]]
    assert titles == [sum(1 for h in pos["titles"].values() if h == s) for s in range(3)]
    if found["condition"] == "titles":
        assert titles[pos["winner"]] == 3
    empire = pos["empires"][pos["winner"]]
    assert found["summary"].params["winner"].key == f"mn.who.{empire}"


def test_mare_nostrum_stopped_by_max_rounds_has_no_winner() -> None:
    """``max_rounds`` (not a rule of the game, section 10) stops the game with no winner: no
    winners, no rule to cite, every return 0."""
    end = endgame("mare-nostrum", 3, 1, max_rounds=1)
    found = _outcome(end.final)
    assert (found["condition"], found["rule"], found["winners"]) == ("none", "", [])
    assert end.final.returns() == [0.0, 0.0, 0.0]
    assert "no winner" in str(found["summary"]) and "sans vainqueur" in render(found["summary"], "fr")


def test_the_server_json_has_no_python_objects() -> None:
    for game in ("mesopotamia", "mesopotamia-epochs", "mare-nostrum"):
        out = gamekit.outcome(endgame(game, 3, 1).final)
        assert out is not None
        assert isinstance(out["summary"], dict) and out["summary"]["key"]
        assert all(isinstance(v, dict) for v in out["labels"].values())


def test_the_game_over_message_and_the_lobby_say_how_it_was_won_M16_1(db_url: str, tmp_path: Path) -> None:
    end = endgame("mesopotamia", 3, 1)
    seats = [{"kind": "human"} if s == end.seat else {"kind": "bot", "bot": "heuristic"} for s in range(3)]
    body = {"game": "mesopotamia", "players": 3, "seats": seats, "position": end.position}
    static = tmp_path / "no-static"
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static, allow_positions=True)) as first:
        t = first.post("/api/tables", json=body).json()
        with first.websocket_connect(ws_url(t, token(t, end.seat))) as ws:
            msg = settle(ws, first, t["table"])
            assert msg["outcome"] is None
            ws.send_json({"type": "action", "action": end.action})
            final = receive_state(ws)
        assert final["status"] == "over"
        outcome = final["outcome"]
        assert (outcome["condition"], outcome["rule"], outcome["winners"]) == (
            "fourth_offering",
            "M16.1",
            [end.seat],
        )
        assert outcome["summary"]["key"] == "meso.outcome.fourth_offering"
        listed = first.post("/api/tables/lookup", json={"tokens": [token(t, end.seat)]}).json()[0]
        assert listed["status"] == "over" and listed["outcome"] == outcome
        record = first.get(
            f"/api/tables/{t['table']}/record", headers={"X-Ziggurat-Token": token(t, end.seat)}
        )
        assert record.status_code == 409
    # a restarted server lists the finished table from the database (finished tables are not loaded)
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static)) as again:
        listed = again.post("/api/tables/lookup", json={"tokens": [token(t, end.seat)]}).json()[0]
        assert listed["outcome"] == outcome
        assert t["table"] not in again.app.state.manager.tables  # type: ignore[attr-defined]
