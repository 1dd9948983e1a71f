"""A whole game through the UI: created in the lobby with a round limit, played to the end, rematch."""

from __future__ import annotations

import random

from browser_helpers import (
    HEURISTIC,
    HUMAN,
    click_and_wait,
    click_hex_and_wait,
    full_shot,
    open_table,
    state,
    wait_my_turn,
)
from playwright.sync_api import expect

QUICK = ("end", "pass", "income", "stop")


def _choose(legal: list[str], rng: random.Random, moves_this_turn: int) -> str:
    """A quick, varied policy: some moves and free actions, then finish the phase."""
    quick = [a for a in legal if a.split(" ")[0] in QUICK]
    if quick and (moves_this_turn >= 8 or rng.random() < 0.1):
        return quick[0]
    others = [a for a in legal if a.split(" ")[0] not in QUICK] or legal
    return rng.choice(others)


def test_whole_game_to_the_end_and_rematch(page, server, shots):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#players", "3")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot:heuristic")
    page.select_option("#seat-2", "bot:heuristic")
    page.click("#advanced summary")
    page.fill("#opt-round_limit", "4")
    page.fill("#seed", "42")
    page.click("#create")
    page.click("[data-open='seat-0']")
    page.wait_for_selector("body[data-ready='1']")

    rng = random.Random(1)
    clicks = 0
    turn_key = None
    moves_this_turn = 0
    board_moves = 0
    while wait_my_turn(page, timeout=30000):
        st = state(page)
        key = (st["view"]["round"], st["view"]["phase"])
        if key != turn_key:
            turn_key, moves_this_turn = key, 0
        action = _choose(st["legal"], rng, moves_this_turn)
        moves_this_turn += 1
        if action.startswith("move ") and rng.random() < 0.5:
            # on the board: select the tribe (unless it still is, after its last step), click the hex
            _, tribe, dest = action.split(" ")
            piece = page.locator(f".board-svg [data-tribe='{tribe}']")
            if "selected" not in (piece.get_attribute("class") or ""):
                piece.click()
            board_moves += 1
            click_hex_and_wait(page, dest)
        else:
            click_and_wait(page, page.locator(f"#legal button[data-action='{action}']"))
        expect(page.locator("#error")).to_be_hidden()
        clicks += 1
        assert clicks < 400, "the game did not end"
    assert clicks >= 20 and board_moves >= 3, (clicks, board_moves)

    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result")).to_contain_text("Game over")
    expect(page.locator("#status")).to_contain_text("Game over")
    st = state(page)
    assert st["status"] == "over" and st["result"] is not None and len(st["result"]) == 3
    assert st["legal"] == []
    expect(page.locator("#log-list li").last).to_be_visible()
    full_shot(page, shots / "game_over.png")

    # a rematch: same game and seats, a new table, this seat's new token
    old_url = page.url
    expect(page.locator("#rematch")).to_be_visible()
    page.click("#rematch")
    page.wait_for_url(lambda url: url != old_url and "#token=" in url)
    page.wait_for_selector("body[data-ready='1']")
    st = state(page)
    assert st["status"] == "playing" and st["seat"] == 0
    expect(page.locator("#who")).to_have_text("You play Blue")


def test_rematch_invitation_reaches_the_other_player(new_page, server):
    answer = server.create_table([HUMAN, HUMAN, HEURISTIC], options={"round_limit": 1}, seed=8)
    pages = [new_page(), new_page()]
    for pg, seat in zip(pages, answer["seats"][:2], strict=True):
        open_table(pg, server.url(seat["link"]))
    # both humans finish their single turn as fast as the rules allow
    for _ in range(40):
        if all(pg.evaluate("document.body.dataset.status") == "over" for pg in pages):
            break
        for pg in pages:
            legal = state(pg)["legal"]
            if legal:
                quick = [a for a in legal if a.split(" ")[0] in QUICK] or legal
                click_and_wait(pg, pg.locator(f"#legal button[data-action='{quick[0]}']"))
        pages[0].wait_for_timeout(100)
    for pg in pages:
        expect(pg.locator("#result")).to_be_visible(timeout=15000)
    pages[0].click("#rematch")
    pages[0].wait_for_url(lambda url: "#token=" in url and answer["table"] not in url)
    offer = pages[1].locator("#rematch-offer")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("A rematch is ready.")
    pages[1].click("#go-rematch")
    pages[1].wait_for_selector("body[data-ready='1']")
    expect(pages[1].locator("#who")).to_have_text("You play Yellow")
    assert state(pages[1])["status"] == "playing"
    assert pages[0].url.split("#")[0] == pages[1].url.split("#")[0]
