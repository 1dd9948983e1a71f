"""The table page: moves by clicking the board, refusals, reload, undo and reconnection."""

from __future__ import annotations

import re

from browser_helpers import (
    HEURISTIC,
    HUMAN,
    click_and_wait,
    click_hex_and_wait,
    lit_hexes,
    open_table,
    own_movable_tribes,
    state,
    version,
    wait_my_turn,
)
from playwright.sync_api import expect

NEIGHBOURS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def _tribe_tiles(view, colour):
    pl = next(p for p in view["players"] if p["colour"] == colour)
    return [(t[0], t[1]) for t in pl["tribes"]]


def _click_tribe_then_lit_tile(page):
    """Click one of our tribes on the board, then a lit tile it may move to; returns (tribe, dest)."""
    for tok in own_movable_tribes(page):
        piece = page.locator(f".board-svg [data-tribe='{tok}']")
        piece.click()
        lit_tiles = lit_hexes(page, ".board-svg .tile.lit")
        if not lit_tiles:
            piece.click()  # deselect: this one can only explore
            continue
        dest = lit_tiles[0]
        click_hex_and_wait(page, dest)
        return tok, dest
    raise AssertionError("no tribe with an ordinary move")


def test_play_moves_by_clicking_the_board(page, server, shots):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=11)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    expect(page.locator("#status")).to_contain_text("Your turn")

    tok = own_movable_tribes(page)[0]
    page.locator(f".board-svg [data-tribe='{tok}']").click()
    expect(page.locator(f".board-svg [data-tribe='{tok}']")).to_have_class(re.compile(r"\bselected\b"))
    lit = page.locator(".board-svg .lit[data-hex]")
    assert lit.count() >= 1
    moves = {a.split(" ")[2] for a in state(page)["legal"] if a.startswith(f"move {tok} ")}
    assert {lit.nth(i).get_attribute("data-hex") for i in range(lit.count())} == moves
    page.screenshot(path=str(shots / "table_tribe_selected.png"))
    page.locator(f".board-svg [data-tribe='{tok}']").click()  # deselect again
    expect(page.locator(".board-svg .tile.lit")).to_have_count(0)

    before = version(page)
    tok, dest = _click_tribe_then_lit_tile(page)
    assert version(page) == before + 1
    q, r = (int(x) for x in dest.split(","))
    assert (q, r) in _tribe_tiles(state(page)["view"], "blue")
    expect(page.locator("#log-list li").last).to_contain_text(f"Blue moves a tribe from {tok.split('@')[1]}")
    expect(page.locator("#log-list li").last).to_contain_text(dest)
    # the moved tribe stays selected, so the next step is one click
    page.screenshot(path=str(shots / "table_after_move.png"))

    # a discovery: click a lit empty space, then answer the pile question on the board's panel
    while state(page)["view"]["phase"] == "movement" and state(page)["view"]["mp"] > 0:
        explorers = [a for a in state(page)["legal"] if a.startswith("move ")]
        spaces = {a.split(" ")[2] for a in explorers} - {
            f"{t[0]},{t[1]}" for t in state(page)["view"]["tiles"]
        }
        if not spaces:
            break
        tok = next(a.split(" ")[1] for a in explorers if a.split(" ")[2] in spaces)
        page.locator(f".board-svg [data-tribe='{tok}']").click()
        click_hex_and_wait(page, lit_hexes(page, ".board-svg .space.lit")[0])
        pend = state(page)["view"]["pending"]
        assert pend and pend[0] == "pile"
        expect(page.locator("#choice")).to_contain_text("choose the pile")
        page.screenshot(path=str(shots / "table_discovery_pile.png"))
        click_and_wait(page, page.locator("#choice button[data-action^='pile ']").first)
        # a volcano asks where it goes: click a lit space on the board
        for _ in range(10):
            pend = state(page)["view"]["pending"]
            if not pend:
                break
            if pend[0] == "volcano":
                page.screenshot(path=str(shots / "table_volcano.png"))
                click_hex_and_wait(page, lit_hexes(page, ".board-svg .space.lit")[0])
            elif pend[0] == "shares":
                click_hex_and_wait(page, lit_hexes(page, ".board-svg .tile.lit")[0])
            else:
                click_and_wait(page, page.locator("#choice button[data-action]").first)
        break
    page.screenshot(path=str(shots / "table_after_discovery.png"))


def test_illegal_action_in_the_text_box_is_refused_with_the_reason(page, server, shots):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    view = state(page)["view"]
    tiles = {(t[0], t[1]): t[2] for t in view["tiles"]}
    q, r = _tribe_tiles(view, "blue")[0]
    volcano = next(
        ((q + dq, r + dr) for dq, dr in NEIGHBOURS if tiles.get((q + dq, r + dr)) == "volcano"), None
    )
    assert volcano is not None
    before = version(page)
    page.fill("#notation", f"move b@{q},{r} {volcano[0]},{volcano[1]}")
    page.click("#notation-form button[type=submit]")
    banner = page.locator("#error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Refused (illegal move)")
    expect(banner).to_contain_text("a tribe may never enter a volcano (M2.4)")
    assert version(page) == before
    page.screenshot(path=str(shots / "table_refusal.png"))

    page.fill("#notation", "fly to the moon")
    page.press("#notation", "Enter")
    expect(banner).to_contain_text("Refused (not understood)")
    expect(banner).to_contain_text("unknown action 'fly'")

    # a legal action typed in notation is played, and the refusal goes away
    move = next(a for a in state(page)["legal"] if a.startswith("move "))
    page.fill("#notation", move)
    click_and_wait(page, page.locator("#notation-form button[type=submit]"))
    expect(banner).to_be_hidden()
    assert version(page) == before + 1


def test_reload_continues_the_same_game(page, server):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=3)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    _click_tribe_then_lit_tile(page)
    before = state(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    after = state(page)
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    assert after["legal"] == before["legal"]
    assert [e["sentence"] for e in after["log"]] == [e["sentence"] for e in before["log"]]
    # and play goes on from there
    _click_tribe_then_lit_tile(page)
    assert state(page)["version"] == before["version"] + 1


def test_undo_takes_back_a_move(page, server):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=3)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    start = state(page)
    expect(page.locator("#undo")).to_be_disabled()
    _click_tribe_then_lit_tile(page)
    expect(page.locator("#undo")).to_be_enabled()
    click_and_wait(page, page.locator("#undo"))
    after = state(page)
    assert after["view"] == start["view"]
    assert after["legal"] == start["legal"]


def test_reconnects_when_the_socket_drops(page, server):
    answer = server.create_table([HUMAN, HEURISTIC], seed=2)
    open_table(page, server.url(answer["seats"][0]["link"]))
    expect(page.locator("#conn")).to_have_text("Connected")
    page.evaluate("window.__ziggurat.socket.ws.close()")
    expect(page.locator("#conn")).not_to_have_text("Connected", timeout=3000)
    expect(page.locator("#conn")).to_have_text("Connected", timeout=10000)
    assert wait_my_turn(page)
    _click_tribe_then_lit_tile(page)


def test_the_sentences_of_one_step_share_one_number_in_the_log(page, server):
    """A step can say several things (a bot's growth, its income, the end of its turn): its
    number is shown on its first sentence only, and the others read as its continuation."""
    answer = server.create_table([HEURISTIC, HEURISTIC, HEURISTIC], seed=5)
    open_table(page, server.url(answer["spectator_link"]))
    page.wait_for_function("() => document.querySelectorAll('#log-list li.cont').length >= 3", timeout=60_000)
    # One evaluation in the page: the bots keep playing and the log is redrawn between two
    # round trips, and a detached line has no computed style.
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#log-list li')].map(e => [e.querySelector('.ply').textContent,"
        " e.classList.contains('cont'), getComputedStyle(e.querySelector('.ply')).visibility])",
    )
    previous = None
    for ply, cont, visibility in rows:
        assert cont == (ply == previous), (ply, previous)
        assert (visibility == "hidden") == cont, (ply, cont, visibility)
        previous = ply
