"""Lobby: bot levels (easy, medium, hard) come first, grouped apart from the plain bot kinds;
a new bot seat is easy; both languages label them (docs/bots.md, "Server levels")."""

from __future__ import annotations

from playwright.sync_api import expect


def test_bot_levels_in_the_lobby(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    seat = page.locator("#seat-1")
    expect(seat).to_have_value("bot:easy")
    expect(seat.locator("optgroup").first).to_have_attribute("label", "Bot levels")
    levels = seat.locator("optgroup").first.locator("option")
    expect(levels).to_have_text(["Bot (easy)", "Bot (medium)", "Bot (hard)"])
    expect(seat.locator("optgroup").nth(1).locator("option")).to_have_text(
        ["Bot (heuristic)", "Bot (random)"]
    )
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#seat-1 optgroup").first.locator("option")).to_have_text(
        ["Robot (facile)", "Robot (moyen)", "Robot (difficile)"]
    )
    page.select_option("#seat-1", "bot:hard")
    page.click(".lang-btn[data-lang='en']")
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_be_visible()
    expect(created).to_contain_text("Bot (hard)")
