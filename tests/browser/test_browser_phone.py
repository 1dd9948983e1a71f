"""Phone-sized screen (390x844): nothing overflows sideways, the board fits, pieces can be tapped."""

from __future__ import annotations

from browser_helpers import (
    HEURISTIC,
    HUMAN,
    click_hex_and_wait,
    full_shot,
    lit_hexes,
    open_table,
    own_movable_tribes,
    version,
    wait_my_turn,
)
from playwright.sync_api import expect

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide"


def test_phone_lobby_and_table(new_page, server, shots):
    page = new_page(**PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    _no_sideways_scroll(page)
    full_shot(page, shots / "phone_lobby.png")

    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=9)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    _no_sideways_scroll(page)
    board = page.locator(".board-svg").bounding_box()
    assert board is not None and board["width"] <= 390 and board["width"] >= 300
    # the zoom buttons (44 px on a phone) sit above the map, hiding none of it
    zoom = page.locator(".zoom").bounding_box()
    assert zoom is not None and zoom["y"] + zoom["height"] <= board["y"] + 1
    # on the page's own background, not a dark strip of the board's
    page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert page.evaluate("getComputedStyle(document.querySelector('.zoom')).backgroundColor") == page_bg
    # panels stack under the board
    players = page.locator("#players").bounding_box()
    assert players is not None and players["y"] > board["y"] + board["height"] - 1
    page.screenshot(path=str(shots / "phone_table.png"))
    full_shot(page, shots / "phone_table_full.png")

    tok = own_movable_tribes(page)[0]
    page.locator(f".board-svg [data-tribe='{tok}']").tap()
    lit = page.locator(".board-svg .lit[data-hex]")
    expect(lit.first).to_be_visible()
    page.screenshot(path=str(shots / "phone_tribe_selected.png"))
    before = version(page)
    tiles = lit_hexes(page, ".board-svg .tile.lit")
    click_hex_and_wait(page, tiles[0] if tiles else lit_hexes(page)[0], tap=True)
    assert version(page) == before + 1
    _no_sideways_scroll(page)

    # zooming in makes the board scroll inside its frame, not the page
    page.click("#zoom-in")
    page.click("#zoom-in")
    expect(page.locator("#zoom-reset")).to_have_text("156%")
    _no_sideways_scroll(page)
    assert page.evaluate(
        "document.getElementById('board').scrollWidth > document.getElementById('board').clientWidth"
    )
    page.screenshot(path=str(shots / "phone_zoomed.png"))
