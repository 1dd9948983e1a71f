"""The public lobby in the browser: a host lists a table, a guest takes a free seat from
"Public tables" in another browser, the host starts it with a bot in the last seat, and both
see the game begin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import full_shot
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def lobby_server(start_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of this module's own, so that its lobby lists only the tables made here."""
    with start_server(tmp_path_factory.mktemp("public-lobby"), "bot_delay=0.05") as srv:
        yield srv


def test_host_and_guest_meet_in_the_public_lobby_and_a_bot_fills_the_last_seat(new_page, server, shots):
    host = new_page(viewport={"width": 1280, "height": 900})
    guest = new_page(viewport={"width": 390, "height": 844}, locale="fr-FR", has_touch=True, is_mobile=True)

    # the host creates a public table with two open seats
    host.goto(server.base + "/")
    host.wait_for_selector("body[data-ready='1']")
    host.select_option("#players", "3")
    host.check("#public")
    expect(host.locator("#host-name")).to_be_visible()
    expect(host.locator("#seat-1")).to_have_value("open")
    expect(host.locator("#seat-2")).to_have_value("open")
    host.fill("#host-name", "Ada")
    full_shot(host, shots / "public_lobby_create.png")
    host.click("#create")
    created = host.locator("#created")
    expect(created).to_be_visible()
    expect(created.locator("[data-link]")).to_have_count(2)  # the host's seat and the spectators'
    expect(created).to_contain_text("Open seat")
    seat_link = host.locator("[data-link='seat-0']").input_value()
    table_id = seat_link.split("/table/")[1].split("#")[0]
    row = host.locator(f"#public-list li[data-table='{table_id}']")
    expect(row).to_contain_text("hosted by Ada")
    full_shot(host, shots / "public_lobby_listed.png")

    host.click("[data-open='seat-0']")
    host.wait_for_selector("body[data-ready='1']")
    room = host.locator("#waiting-room")
    expect(room).to_be_visible()
    expect(room.locator("li[data-free='1']")).to_have_count(2)
    expect(host.locator("#start-game")).to_be_visible()

    # the guest finds it in the lobby, gives a name and joins with one click
    guest.goto(server.base + "/")
    guest.wait_for_selector("body[data-ready='1']")
    public_row = guest.locator(f"#public-list li[data-table='{table_id}']")
    expect(public_row).to_contain_text("organisée par Ada")
    expect(public_row.locator(".pub-seat.free")).to_have_count(2)
    guest.click(f"[data-join='{table_id}']")
    expect(guest.locator("#guest-name-error")).to_be_visible()  # a guest gives a name first
    guest.fill("#guest-name", "Bea")
    full_shot(guest, shots / "public_lobby_phone_fr.png")
    join_box = guest.locator(f"[data-join='{table_id}']").bounding_box()
    assert join_box is not None and join_box["height"] >= 44 and join_box["width"] >= 44
    guest.click(f"[data-join='{table_id}']")
    guest.wait_for_url(f"**/table/{table_id}#token=*")
    guest.wait_for_selector("body[data-ready='1']")
    guest_room = guest.locator("#waiting-room")
    expect(guest_room).to_contain_text("En attente du lancement de la partie par l'hôte (Ada)")
    expect(guest.locator("#start-game")).to_have_count(0)
    assert guest.evaluate("localStorage.getItem('ziggurat.guestName')") == "Bea"
    tokens = guest.evaluate("JSON.parse(localStorage.getItem('ziggurat.tokens'))")
    assert any(t["table"] == table_id and t["seat"] == 1 for t in tokens)
    full_shot(guest, shots / "waiting_room_guest_fr.png")

    # the host sees Bea sit down, and starts with an easy bot in the free seat
    expect(room.locator("li[data-seat='1']")).to_contain_text("Bea")
    expect(room.locator("li[data-free='1']")).to_have_count(1)
    expect(host.locator("#fill-bots")).to_be_checked()
    host.select_option("#fill-level", "easy")
    start_box = host.locator("#start-game").bounding_box()
    assert start_box is not None and start_box["height"] >= 44
    full_shot(host, shots / "waiting_room_host.png")
    host.click("#start-game")

    for page in (host, guest):
        page.wait_for_selector("body[data-status='playing']")
        expect(page.locator("#waiting-room")).to_be_hidden()
        expect(page.locator(".board-svg")).to_be_visible()
        expect(page.locator(".legal-panel")).to_be_visible()
    info = server.request("GET", f"/api/tables/{table_id}", token=seat_link.split("#token=")[1])
    assert [(s["kind"], s["bot"], s["name"]) for s in info["seats"]] == [
        ("human", None, "Ada"),
        ("human", None, "Bea"),
        ("bot", "easy", None),
    ]
    assert table_id not in {t["table"] for t in server.request("GET", "/api/lobby")}
    full_shot(host, shots / "public_table_begun.png")


def test_the_lobby_says_each_tables_clock_and_offers_the_host_their_own_seat(new_page, lobby_server, shots):
    """A stranger reads each public table's time control before joining, in English and French;
    the host's own table offers "Open my seat" (no Join), and "My tables" lets the host play."""
    server = lobby_server
    daily = server.request(
        "POST",
        "/api/tables",
        {
            "game": "mesopotamia",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "public": True,
            "host_name": "Bea",
            "time_control": {"kind": "turn_based", "per_turn": 86400},
        },
    )["table"]

    # Ada lists a 10 min + 20 s table from the create form
    host = new_page(viewport={"width": 1280, "height": 800})
    host.goto(server.base + "/")
    host.wait_for_selector("body[data-ready='1']")
    host.select_option("#players", "2")
    host.check("#public")
    host.fill("#host-name", "Ada")
    host.select_option("#tc-kind", "realtime")
    host.fill("#tc-minutes", "10")
    host.fill("#tc-increment", "20")
    host.click("#create")
    expect(host.locator("#created")).to_be_visible()
    seat_link = host.locator("[data-link='seat-0']").input_value()
    blitz = seat_link.split("/table/")[1].split("#")[0]
    listed = {t["table"]: t["time_control"] for t in server.request("GET", "/api/lobby")}
    assert listed[blitz]["kind"] == "realtime" and listed[daily]["kind"] == "turn_based"

    own = host.locator(f"#public-list li[data-table='{blitz}']")
    other = host.locator(f"#public-list li[data-table='{daily}']")
    expect(own.locator(".pub-clock")).to_have_text("Time control: 10 min + 20 s")
    expect(other.locator(".pub-clock")).to_have_text("Time control: 1 d per turn")
    expect(own.locator(".pub-rules")).to_have_text("standard rules")
    expect(own.locator("[data-join]")).to_have_count(0)
    expect(own.locator(f"[data-open-seat='{blitz}']")).to_have_text("Open my seat")
    expect(own.locator(".pub-seat[data-mine='1']")).to_contain_text("Ada (you)")
    expect(other.locator(f"[data-join='{daily}']")).to_be_enabled()
    expect(other.locator("[data-open-seat]")).to_have_count(0)

    # "My tables" offers the host's seat to play, not only to watch
    mine = host.locator(f"#my-tables-list li[data-table='{blitz}']")
    expect(mine.get_by_role("link", name="Play Blue")).to_be_visible()
    expect(mine.get_by_role("link", name="Watch")).to_be_visible()
    full_shot(host, shots / "public_lobby_my_tables.png")
    host.goto(server.base + "/")  # the lobby knows the host's seat from the token it keeps
    host.wait_for_selector("body[data-ready='1']")
    expect(own.locator(f"[data-open-seat='{blitz}']")).to_be_visible()
    host.screenshot(path=str(shots / "public_lobby_clocks_host.png"))

    # a stranger, in French, sees the same clocks and may join either table
    stranger = new_page(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    stranger.goto(server.base + "/")
    stranger.wait_for_selector("body[data-ready='1']")
    expect(stranger.locator(f"#public-list li[data-table='{blitz}'] .pub-clock")).to_have_text(
        "Cadence : 10 min + 20 s"
    )
    expect(stranger.locator(f"#public-list li[data-table='{daily}'] .pub-clock")).to_have_text(
        "Cadence : 1 j par tour"
    )
    for table in (blitz, daily):
        expect(stranger.locator(f"[data-join='{table}']")).to_be_enabled()
    expect(stranger.locator("[data-open-seat]")).to_have_count(0)
    stranger.screenshot(path=str(shots / "public_lobby_clocks_fr.png"))

    # the host's "Open my seat" opens the waiting room with the Start button
    host.click(f"[data-open-seat='{blitz}']")
    host.wait_for_url(f"**/table/{blitz}#token=*")
    host.wait_for_selector("body[data-ready='1']")
    expect(host.locator("#waiting-room")).to_be_visible()
    expect(host.locator("#start-game")).to_be_visible()


def test_an_account_opens_its_seat_of_a_public_table_made_elsewhere(new_page, lobby_server):
    """A signed-in host whose seat token this browser does not keep (the table was made on
    another device) gets "Open my seat", which opens the seat through a fresh seat link."""
    base = lobby_server.base
    page = new_page(viewport={"width": 1280, "height": 800})
    r = page.request.post(base + "/api/account/signup", data={"name": "Nabu", "password": "cedar forest 7"})
    assert r.status == 201, r.text()
    made = page.request.post(
        base + "/api/tables",
        data={
            "game": "mesopotamia",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "public": True,
        },
        headers={"X-CSRF-Token": r.json()["csrf"]},
    )
    assert made.status == 201, made.text()
    table = made.json()["table"]
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    row = page.locator(f"#public-list li[data-table='{table}']")
    expect(row.locator(".pub-clock")).to_have_text("Time control: none, play at your own pace")
    expect(row.locator("[data-join]")).to_have_count(0)
    expect(row.locator(".pub-seat[data-mine='1']")).to_contain_text("Nabu (you)")
    # the account's games list it as made and waiting, not as started
    game = page.locator(f"#my-games li[data-table='{table}']")
    expect(game).to_contain_text("waiting for players")
    expect(game).not_to_contain_text("started")
    page.click(f"[data-open-seat='{table}']")
    page.wait_for_url(f"**/table/{table}#token=*")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#start-game")).to_be_visible()
    page.click("#start-game")  # with a bot in the free seat: the table leaves the lobby
    page.wait_for_selector("body[data-status='playing']")
