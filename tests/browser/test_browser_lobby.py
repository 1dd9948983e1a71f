"""Lobby: create a table by clicking, see and copy the invite links, find it again in "my tables"."""

from __future__ import annotations

from browser_helpers import full_shot, open_table
from playwright.sync_api import expect


def test_create_table_in_lobby_by_clicking(new_page, server, shots):
    page = new_page(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#game")).to_have_value("mesopotamia")
    page.select_option("#players", "3")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot:heuristic")
    page.select_option("#seat-2", "bot:heuristic")
    # the advanced options are collapsed until asked for
    expect(page.locator("#opt-round_limit")).to_be_hidden()
    page.click("#advanced summary")
    expect(page.locator("#opt-round_limit")).to_be_visible()
    full_shot(page, shots / "lobby_form.png")
    page.click("#create")

    created = page.locator("#created")
    expect(created).to_be_visible()
    # one invite link for the human seat, none for the bots, and a spectator link
    expect(created.locator("[data-link]")).to_have_count(2)
    seat_link = page.locator("[data-link='seat-0']").input_value()
    spectator_link = page.locator("[data-link='spectator']").input_value()
    assert "/table/" in seat_link and "#token=" in seat_link
    assert "#token=" in spectator_link and spectator_link != seat_link
    expect(created).to_contain_text("Bot (heuristic)")

    page.click("[data-copy='seat-0']")
    expect(created.locator(".copy-status").first).to_have_text("Copied!")
    assert page.evaluate("navigator.clipboard.readText()") == seat_link
    full_shot(page, shots / "lobby_created.png")

    # opening the seat link plays that seat and remembers the token
    page.click("[data-open='seat-0']")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#who")).to_have_text("You play Blue")
    tokens = page.evaluate("JSON.parse(localStorage.getItem('ziggurat.tokens'))")
    assert any(seat_link.endswith(t["token"]) for t in tokens)

    # back in the lobby, "my tables" lists it with a link to play Blue and one to watch
    page.goto(server.base + "/")
    table_id = seat_link.split("/table/")[1].split("#")[0]
    row = page.locator(f"#my-tables-list li[data-table='{table_id}']")
    expect(row).to_be_visible()
    expect(row.get_by_role("link", name="Play Blue")).to_be_visible()
    expect(row.get_by_role("link", name="Watch")).to_be_visible()
    full_shot(page, shots / "lobby_my_tables.png")


def test_spectator_link_shows_the_game_without_actions(page, server):
    answer = server.create_table([{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    open_table(page, server.url(answer["spectator_link"]))
    expect(page.locator("#who")).to_have_text("Spectator")
    expect(page.locator(".board-svg")).to_be_visible()
    expect(page.locator("#legal .legal-act")).to_have_count(0)
    expect(page.locator("#choice")).to_contain_text("watching")


def test_bad_token_is_explained(page, server):
    answer = server.create_table([{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page.goto(server.base + f"/table/{answer['table']}#token=" + "x" * 32)
    expect(page.locator("#fatal")).to_be_visible()
    expect(page.locator("#fatal")).to_contain_text("not valid")


def test_the_lobby_form_reads_whole_in_both_languages(new_page, server):
    """The name box's hint is not cut in English or French, and the form's two groups of
    fields (seats, time control) are framed alike."""
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    hint_fits = """e => {
        const style = getComputedStyle(e);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [ctx.measureText(e.placeholder).width, room];
    }"""
    for lang in ("en", "fr"):
        page.click(f".lang-btn[data-lang='{lang}']")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        text, room = page.locator("#guest-name").evaluate(hint_fits)
        assert text <= room, (lang, text, room)
    frame = "e => { const s = getComputedStyle(e); return [s.borderTopStyle, s.borderTopWidth, s.borderTopColor, s.borderRadius]; }"
    assert page.locator("#seats").evaluate(frame) == page.locator("#time-control").evaluate(frame)


def test_an_option_with_a_closed_set_of_values_is_a_choice(new_page, server):
    """Mare Nostrum's empire assignment is offered as its two values, under a readable name;
    the table created with "choice" plays with it."""
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "mare-nostrum")
    page.click("#advanced summary")
    page.click("#options .more-options summary")
    field = page.locator("#opt-empire_assignment")
    expect(field).to_be_visible()
    assert field.evaluate("el => el.tagName") == "SELECT"
    values = field.evaluate("el => [...el.options].map((o) => o.value)")
    assert values == ["random", "choice"]
    expect(field).to_have_value("random")
    label = page.locator("label[for='opt-empire_assignment']")
    expect(label).to_have_text("Empire assignment")
    # a bounded number keeps its declared range
    expect(page.locator("#opt-tiles_to_win")).to_have_attribute("min", "1")
    expect(page.locator("#opt-tiles_to_win")).to_have_attribute("max", "22")

    field.select_option("choice")
    page.click("#create")
    expect(page.locator("#created")).to_be_visible()
    seat_link = page.locator("[data-link='seat-0']").input_value()
    table_id = seat_link.split("/table/")[1].split("#")[0]
    token = seat_link.split("#token=")[1]
    table = server.request("GET", f"/api/tables/{table_id}", token=token)
    assert table["game"] == "mare-nostrum"
    assert table["options"]["empire_assignment"] == "choice"


def test_other_rule_defaults_show_readable_names_and_rule_numbers(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#game")).to_have_value("mesopotamia")
    labels = page.locator("#options .more-options label").all_text_contents()
    assert labels and not any("_" in text for text in labels)
    assert "Tile pile count (S7, R12)" in labels
