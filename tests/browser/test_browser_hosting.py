"""Hosting for friends (docs/server.md, "Hosting"): on a server with a public URL, the lobby's
invite links to copy are the public URL's, while "Open" stays on the address this browser
already uses (the public one may be out of this machine's reach)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import full_shot
from playwright.sync_api import Page, expect

PUBLIC = "https://games.example.org"


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    with start_server(tmp_path_factory.mktemp("hosted"), f"bot_delay=0.05, public_url={PUBLIC!r}") as srv:
        yield srv


def test_the_lobby_shares_public_links_and_opens_them_here(new_page: Any, hosted: Any, shots: Path) -> None:
    page: Page = new_page(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    page.goto(hosted.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "human")
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_be_visible()
    seat_link = page.locator("[data-link='seat-1']").input_value()
    spectator_link = page.locator("[data-link='spectator']").input_value()
    assert seat_link.startswith(f"{PUBLIC}/table/") and "#token=" in seat_link
    assert spectator_link.startswith(f"{PUBLIC}/table/")
    page.click("[data-copy='seat-1']")
    expect(created.locator(".copy-status").nth(1)).to_have_text("Copied!")
    assert page.evaluate("navigator.clipboard.readText()") == seat_link  # what a friend receives
    full_shot(page, shots / "lobby_public_links.png")

    path = seat_link.removeprefix(PUBLIC)
    assert page.locator("[data-open='seat-1']").get_attribute("href") == path
    page.click("[data-open='seat-1']")
    page.wait_for_selector("body[data-ready='1']")
    assert page.url == hosted.base + path  # the same table, on this browser's own address
    expect(page.locator("#who")).to_have_text("You play Yellow")
