"""The legal-actions list (legal.js, on the table and tutorial pages) holds its buttons a moment
after the actions changed under them: a step may end by itself and the next decision's button sit
where the last one's was, so a tap meant for the step that just ended is not taken for the next.
The buttons are disabled for STEP_HOLD_MS (the one constant the Mare Nostrum board's own buttons
hold for too), a click then sends nothing, and they are drawn enabled after it; a list redrawn
with the same actions is never held."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import HUMAN, nostrum_conversion_step, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

GAME = "mare-nostrum"
BOT = {"kind": "bot", "bot": "random"}

MOUNT = """
async () => {
  const L = await import('/legal.js');
  const board = await import('/boards/mare-nostrum.js');
  document.body.innerHTML = '<div id="lst"></div>';
  const el = document.getElementById('lst');
  window.sent = [];
  window.draw = (legal) => {
    el.replaceChildren();
    L.renderLegalGroups(el, legal, { group: (a) => a.split(' ')[0], label: (a) => a,
                                     send: (a) => { window.sent.push(a); return true; } });
    window.drawnAt = performance.now();
  };
  return [L.STEP_HOLD_MS, board.STEP_HOLD_MS];
}
"""

HELD = "() => [...document.querySelectorAll('#lst .legal-act')].map((b) => b.disabled)"


@pytest.fixture
def harness(new_page: Any, server: Any) -> Page:
    page: Page = new_page(step_hold=True)
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


def _button(page: Page, action: str) -> Any:
    return page.locator(f"#lst .legal-act[data-action='{action}']")


def test_a_changed_list_is_held_then_plays_and_an_unchanged_one_is_never_held(harness: Page) -> None:
    page = harness
    hold = page.evaluate(MOUNT)
    assert hold == [700, 700]  # one constant: the board's buttons hold as long
    page.evaluate("window.draw(['done', 'convert dalmatia'])")
    assert page.evaluate(HELD) == [False, False]  # the first list is not held
    page.evaluate("window.draw(['done', 'convert dalmatia'])")
    assert page.evaluate(HELD) == [False, False]  # the same actions again: not held

    # the step ended by itself: the next step's Done is drawn where the last one was
    page.evaluate("window.draw(['done', 'row mare_ionium mare_aegaeum'])")
    changed = page.evaluate("window.drawnAt")
    done = _button(page, "done")
    expect(done).to_be_disabled()
    expect(done).to_have_class("act legal-act legal-held")
    # drawn as waiting, like the Mare Nostrum board's held buttons, not as refused
    look = "(b) => [getComputedStyle(b).opacity, getComputedStyle(b).cursor]"
    assert done.evaluate(look) == ["0.7", "wait"]
    box = done.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.evaluate(
        "document.querySelector('#lst .legal-act').dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    assert page.evaluate("window.sent") == []
    # redrawn with the same actions during the hold (another state, the language): still held,
    # until the hold that began with the change ends
    page.evaluate("window.draw(['done', 'row mare_ionium mare_aegaeum'])")
    assert page.evaluate(HELD) == [True, True]
    page.wait_for_function(
        "() => !document.querySelector('#lst .legal-act').disabled && (window.enabledAt = performance.now())"
    )
    assert page.evaluate("window.enabledAt") - changed >= 690
    assert page.evaluate(HELD) == [False, False]
    done.click()
    assert page.evaluate("window.sent") == ["done"]

    # no actions, then actions again (the turn came back): held
    page.evaluate("window.draw([])")
    page.evaluate("window.draw(['done', 'row mare_ionium mare_aegaeum'])")
    assert page.evaluate(HELD) == [True, True]
    expect(done).to_be_enabled()


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    """A server that creates tables from positions (a Military turn under way)."""
    with start_server(tmp_path_factory.mktemp("legal-hold"), "bot_delay=0.05, allow_positions=True") as srv:
        yield srv


def test_a_tap_on_the_lists_done_just_after_the_step_ended_by_itself_sends_nothing(
    new_page: Any, pserver: Any, shots: Any
) -> None:
    """Rome converts Dalmatia from the legal list: the Conversion step, with only Done left, ends
    by itself and the trireme step's list comes, its Done where the last one was. A tap on it at
    once sends nothing; a moment later Done ends the trireme step."""
    body = {
        "game": GAME,
        "players": 3,
        "seats": [HUMAN, BOT, BOT],
        "seed": 3,
        "position": nostrum_conversion_step(),
    }
    answer = pserver.request("POST", "/api/tables", body)
    page: Page = new_page(step_hold=True)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(str(text))))
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    assert state(page)["legal"] == ["done", "convert dalmatia"]
    done = page.locator("#legal .legal-act[data-action='done']")
    done.scroll_into_view_if_needed()
    first = done.bounding_box()
    assert first is not None
    first_y = first["y"] + page.evaluate("scrollY")
    before = version(page)
    page.locator("#legal .legal-act[data-action='convert dalmatia']").click()
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    box = done.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # at once
    after = version(page)
    assert state(page)["view"]["stage"] == "mil_row"  # the Conversion step ended by itself
    # its Done in the same place on the page
    assert abs(box["y"] + page.evaluate("scrollY") - first_y) < 1 and abs(box["x"] - first["x"]) < 1
    expect(done).to_be_disabled()
    page.screenshot(path=str(shots / "legal_done_held.png"))
    page.wait_for_timeout(300)
    assert version(page) == after and state(page)["view"]["stage"] == "mil_row"
    assert [m for m in sent if '"action"' in m] == ['{"type":"action","action":"convert dalmatia"}']
    expect(done).to_be_enabled()
    done.click()  # the trireme step's own Done, once the list takes taps
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {after}")
    assert state(page)["view"]["stage"] != "mil_row"
    expect(page.locator("#error")).to_be_hidden()
