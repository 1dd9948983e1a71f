"""Bot levels of the lobby: easy = the heuristic bot, medium and hard = ISMCTS with a short and
a long time budget (docs/bots.md); stored tables with the plain kinds keep working."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, create_app, live_table, new_table

from ziggurat.bots import RandomBot
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.games.mesopotamia.bots import HeuristicBot
from ziggurat.server import gamekit


def test_levels_are_offered_for_every_game(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        assert game["bots"] == ["easy", "medium", "hard", "heuristic", "random"], game["id"]


def test_levels_map_to_bot_specs() -> None:
    assert gamekit.bot_spec("easy") == "heuristic"
    assert gamekit.bot_spec("medium") == "ismcts:0.3s"
    assert gamekit.bot_spec("hard") == "ismcts:1.5s"
    # the plain kinds (and tables stored before the levels) are their own spec
    assert gamekit.bot_spec("heuristic") == "heuristic"
    assert gamekit.bot_spec("random") == "random"
    assert gamekit.bot_spec(None) == "random"


def test_a_raw_search_spec_is_not_a_seat_kind(client: TestClient) -> None:
    body = {
        "game": "mesopotamia",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:60s"}],
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert "unknown bot 'ismcts:60s'" in r.json()["detail"]


@pytest.mark.parametrize(
    ("kind", "cls", "seconds"),
    [("easy", HeuristicBot, None), ("medium", ISMCTSBot, 0.3), ("hard", ISMCTSBot, 1.5),
     ("heuristic", HeuristicBot, None), ("random", RandomBot, None)],
)  # fmt: skip
def test_seat_kind_makes_its_bot(client: TestClient, kind: str, cls: type, seconds: float | None) -> None:
    # one seat waits for a human who never comes: the game cannot get far
    table = new_table(client, "hb", bot=kind)
    bot = live_table(client, table["table"]).bots[1]
    assert isinstance(bot, cls)
    if seconds is not None:
        assert bot.config.seconds == seconds and bot.config.workers == 1
    seats = client.get(
        f"/api/tables/{table['table']}", headers={"X-Ziggurat-Token": table["spectator_token"]}
    )
    assert seats.json()["seats"][1]["bot"] == kind  # the level's name is stored, not its spec


def test_a_searching_bot_thinks_off_the_event_loop(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search takes its whole budget; without worker processes (``bot_workers=0``) it runs
    in a worker thread so the server keeps answering. A spy records whether each decision ran
    where an event loop runs (test_bot_pool.py: the decisions in worker processes)."""
    monkeypatch.setitem(gamekit.DIFFICULTIES, "medium", "ismcts:3:rollout=random:plies=0")
    on_loop: list[bool] = []
    original = ISMCTSBot.choose

    def spy(self: ISMCTSBot, view: Any, legal: Any, rng: Any) -> str:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return original(self, view, legal, rng)

    monkeypatch.setattr(ISMCTSBot, "choose", spy)
    with TestClient(create_app(db_url, bot_delay=0, static_dir=tmp_path / "none", bot_workers=0)) as client:
        table = new_table(client, "bb", bot="medium")
        live = live_table(client, table["table"])
        while len(on_loop) < 5:  # the server answers while the bots think
            assert client.get("/healthz").status_code == 200
            time.sleep(0.05)
        assert not any(on_loop)
        assert live.version > 0
