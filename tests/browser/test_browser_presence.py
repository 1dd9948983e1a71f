"""Who is connected, as the players see it (docs/server.md, "Presence"): two people at a table,
each in a browser of their own; the one to move closes their only page, and the other's page
shows them "not connected" (the hollow dot) within a few seconds, though nothing was played;
when they come back it shows them connected again."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_helpers import HUMAN, open_table
from playwright.sync_api import expect

GAMES = [
    # game, how its player panels mark a seat, a time control
    ("mesopotamia-epochs", "data-symbol", {"kind": "realtime", "budget": 600, "increment": 20}),
    ("mesopotamia", "data-colour", None),
]


def waiting_for_a_person(server: Any, table_id: str, tok: str) -> dict[str, Any]:
    """The table's info once its set-up (chance) is played and a seat is to move."""
    for _ in range(200):
        info: dict[str, Any] = server.request("GET", f"/api/tables/{table_id}", token=tok)
        if info["to_move"] is not None:
            return info
        time.sleep(0.05)
    raise AssertionError(f"nobody is to move at {table_id}")


@pytest.mark.parametrize(("game", "attribute", "time_control"), GAMES, ids=[g[0] for g in GAMES])
def test_a_player_who_leaves_shows_as_not_connected_and_again_as_connected(
    new_page: Any, server: Any, shots: Any, game: str, attribute: str, time_control: dict[str, Any] | None
) -> None:
    body = {"game": game, "players": 2, "seats": [HUMAN, HUMAN], "seed": 4, "time_control": time_control}
    table = server.request("POST", "/api/tables", body)
    info = waiting_for_a_person(server, table["table"], table["seats"][0]["token"])
    mover = next(s["seat"] for s in info["seats"] if s["colour"] == info["to_move"])
    stays = 1 - mover
    links = {seat: server.url(table["seats"][seat]["link"]) for seat in (0, 1)}
    name = info["seats"][mover]["colour"]

    alice = new_page()
    open_table(alice, links[stays])
    bob = new_page()
    open_table(bob, links[mover])
    dot = alice.locator(f"#players [{attribute}='{name}'] .conn")
    expect(dot).to_have_text("●", timeout=5000)
    expect(dot).to_have_class("conn on")

    bob.close()  # the player to move closes their only page: no move comes
    expect(dot).to_have_text("○", timeout=5000)
    expect(dot).to_have_class("conn off")
    expect(dot).to_have_attribute("title", "not connected")
    seen = server.request("GET", f"/api/tables/{table['table']}", token=table["seats"][stays]["token"])
    assert seen["seats"][mover]["connected"] is False
    alice.locator("#players").screenshot(path=str(shots / f"presence_{game}_away.png"))

    back = new_page()
    open_table(back, links[mover])
    expect(dot).to_have_text("●", timeout=5000)
    expect(dot).to_have_class("conn on")
    # the page that came back shows both players connected, itself too
    for seat in (0, 1):
        mark = info["seats"][seat]["colour"]
        expect(back.locator(f"#players [{attribute}='{mark}'] .conn")).to_have_text("●", timeout=5000)
