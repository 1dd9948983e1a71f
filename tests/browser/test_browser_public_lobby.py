"""The public lobby in the browser: a host lists a table, a guest takes a free seat from
"Public tables" in another browser, the host starts it with a bot in the last seat, and both
see the game begin."""

from __future__ import annotations

from browser_helpers import full_shot
from playwright.sync_api import expect


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
