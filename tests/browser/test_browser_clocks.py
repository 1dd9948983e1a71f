"""Time controls in the browser (docs/server.md, "Time controls"): a short real-time clock runs
out, a bot takes the seat over and the game goes on (the log says so), then the player takes
the seat back and plays; the lobby's time control choice creates a timed table."""

from __future__ import annotations

import re
import time

from browser_helpers import HEURISTIC, HUMAN, click_and_wait, open_table, state, version, wait_my_turn
from playwright.sync_api import expect


def test_a_clock_runs_out_a_bot_takes_over_and_the_player_takes_the_seat_back(page, server, shots):
    body = {
        "game": "mesopotamia",
        "players": 3,
        "seats": [HUMAN, HEURISTIC, HEURISTIC],
        "seed": 5,
        "time_control": {"kind": "realtime", "budget": 3, "increment": 1, "grace": 1, "takeover": "easy"},
    }
    answer = server.request("POST", "/api/tables", body)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    mine = page.locator("#clocks .clock[data-seat='0']")
    expect(mine).to_be_visible()
    expect(mine).to_have_class(re.compile(r"^(?=.*\brunning\b)(?=.*\blow\b)"))  # 3 s: under 30 s, so red
    expect(page.locator("#clocks .clock")).to_have_count(1)  # bot seats have no clock
    expect(page.locator("#clocks .clocks-tc")).to_contain_text("3 s + 1 s")
    page.screenshot(path=str(shots / "clocks_running.png"))

    # the player does nothing: the clock runs out, and after the grace a bot plays the seat
    log = page.locator("#log-list")
    expect(log).to_contain_text("Blue's time ran out: a bot (easy) plays for them", timeout=20000)
    badge = mine.locator(".clock-bot-badge")
    expect(badge).to_contain_text("bot playing (easy) since move")
    entries = state(page)["log"]
    takeover = next(e for e in entries if e.get("event", {}).get("key") == "clock.takeover")
    assert takeover["colour"] == state(page)["colour"]
    # the game goes on: the bot plays the seat (an action of its colour after the announcement)
    page.wait_for_function(
        """(ply) => window.__ziggurat.state.log.some(
            (e) => e.ply >= ply && e.colour === window.__ziggurat.state.colour && !e.event?.key?.startsWith('clock.'))""",
        arg=takeover["ply"],
        timeout=20000,
    )
    page.screenshot(path=str(shots / "clocks_bot_playing.png"))

    # the player comes back
    page.locator("#clocks .take-back").click()
    expect(log).to_contain_text("Blue takes their seat back from the bot")
    expect(page.locator("#clocks .take-back")).to_have_count(0)
    assert wait_my_turn(page)
    clock = state(page)["clocks"][0]
    assert clock["bot"] is None and clock["running"] and not clock["timed_out"]
    assert 0 < clock["remaining"] <= 30  # taking the seat back gives at least 30 s (clocks.py)
    expect(mine).to_have_class(re.compile(r"\brunning\b"))
    before = version(page)
    click_and_wait(page, page.locator("#legal .legal-act").first)
    assert version(page) > before
    assert page.locator("#error").is_hidden()
    page.screenshot(path=str(shots / "clocks_taken_back.png"))


def test_the_lobby_creates_a_table_with_a_time_control(page, server, shots):
    page.goto(server.url("/"))
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#tc-realtime")).to_be_hidden()
    page.select_option("#tc-kind", "realtime")
    expect(page.locator("#tc-realtime")).to_be_visible()
    page.fill("#tc-minutes", "10")
    page.fill("#tc-increment", "5")
    page.select_option("#tc-takeover", "medium")
    page.locator("#time-control").screenshot(path=str(shots / "lobby_time_control_realtime.png"))
    page.select_option("#tc-kind", "turn_based")
    expect(page.locator("#tc-turn")).to_be_visible()
    expect(page.locator("#tc-realtime")).to_be_hidden()
    page.fill("#tc-per-turn", "2")
    page.select_option("#tc-unit", "86400")
    page.locator("#time-control").screenshot(path=str(shots / "lobby_time_control_turn_based.png"))
    page.locator("#create").click()
    link = page.locator("#created [data-link]").first
    expect(link).to_be_visible()
    found = re.search(r"/table/([^#]+)#token=(.+)$", link.input_value())
    assert found is not None
    info = server.request("GET", f"/api/tables/{found.group(1)}", token=found.group(2))
    assert info["time_control"] == {
        "kind": "turn_based",
        "per_turn": 172800.0,
        "grace": 15.0,
        "takeover": "medium",
    }

    page.context.add_init_script("try { localStorage.setItem('ziggurat.lang', 'fr') } catch (e) {}")
    page.goto(server.url("/"))
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#tc-kind", "realtime")
    expect(page.locator("#time-control legend")).to_have_text("Cadence")
    expect(page.locator("label[for='tc-minutes']")).to_have_text("Minutes par joueur")
    page.locator("#time-control").screenshot(path=str(shots / "lobby_time_control_fr.png"))


def test_the_clocks_name_the_seats_in_the_language_chosen(page, server, shots):
    """Switching to French draws the clocks at once, before the game's French names have come
    (here they come late); once they are here the clocks show them, never a message key."""
    body = {
        "game": "mesopotamia-epochs",
        "players": 2,
        "seats": [HUMAN, HUMAN],
        "seed": 4,
        "time_control": {"kind": "realtime", "budget": 600, "increment": 20},
    }
    answer = server.request("POST", "/api/tables", body)

    def late(route):
        time.sleep(0.5)
        route.continue_()

    page.route("**/api/messages/fr", late)
    open_table(page, server.url(answer["seats"][0]["link"]))
    names = page.locator("#clocks .clock .clock-name")
    expect(names).to_have_text(["Brooch", "Head"])

    page.click(".lang-btn[data-lang='fr']")
    expect(names).to_have_text(["Broche", "Tête"])
    expect(page.locator("#clocks")).not_to_contain_text("epochs.")
    assert "epochs." not in (page.locator("#clocks .clock").first.get_attribute("aria-label") or "")
    page.locator("#clocks").screenshot(path=str(shots / "clocks_fr.png"))

    page.click(".lang-btn[data-lang='en']")
    expect(names).to_have_text(["Brooch", "Head"])


def test_the_clocks_wait_until_every_player_has_come_to_the_table(new_page, server, shots):
    """A private real-time table's links go out when it is created: until each player has
    opened theirs, no clock counts, and the bar says who is awaited (in both languages)."""
    body = {
        "game": "mesopotamia-epochs",
        "players": 2,
        "seats": [HUMAN, HUMAN],
        "seed": 4,
        "time_control": {"kind": "realtime", "budget": 600, "increment": 20},
    }
    answer = server.request("POST", "/api/tables", body)
    first = new_page()
    open_table(first, server.url(answer["seats"][0]["link"]))
    bar = first.locator("#clocks")
    expect(bar.locator(".clocks-waiting")).to_have_text(
        "The clocks start when every player has come to the table"
    )
    expect(bar.locator(".clock[data-seat='1'] .clock-away")).to_have_text("not at the table yet")
    expect(bar.locator(".clock[data-seat='0'] .clock-away")).to_have_count(0)
    expect(bar.locator(".clock.running")).to_have_count(0)
    first.click(".lang-btn[data-lang='fr']")
    expect(bar.locator(".clock[data-seat='1'] .clock-away")).to_have_text("pas encore à la table")
    bar.screenshot(path=str(shots / "clocks_waiting_fr.png"))
    first.click(".lang-btn[data-lang='en']")
    bar.screenshot(path=str(shots / "clocks_waiting.png"))
    assert all(c["remaining"] == 600 and not c["running"] for c in state(first)["clocks"])

    second = new_page()
    open_table(second, server.url(answer["seats"][1]["link"]))
    expect(bar.locator(".clocks-waiting")).to_have_count(0)
    expect(bar.locator(".clock-away")).to_have_count(0)
    expect(bar.locator(".clock.running")).to_have_count(1)
    expect(second.locator("#clocks .clock.running")).to_have_count(1)
