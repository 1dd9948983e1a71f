"""Mare Nostrum: Empires on a phone: the map is drawn wider than the screen and scrolls in its
box; a seated player's board opens scrolled so that their own capital is in view, once (a player
who scrolled away is not brought back by the next state); a spectator's opens at the map's
corner."""

from __future__ import annotations

from typing import Any

from browser_helpers import HUMAN, full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page

GAME = "mare-nostrum"
BOT = {"kind": "bot", "bot": "random"}
PHONE = {
    "viewport": {"width": 375, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
# five players, seed 4: seat 0 is dealt Babylon, whose capital (Babylonia) is at the map's far right
SEED = 4

IN_VIEW = """
(area) => {
  const box = document.getElementById('board');
  const frame = box.getBoundingClientRect();
  const inner = { left: frame.left + box.clientLeft, top: frame.top + box.clientTop };
  inner.right = inner.left + box.clientWidth;
  inner.bottom = inner.top + box.clientHeight;
  const card = document.querySelector(`.mn-map .prov[data-area="${area}"] > rect.box`).getBoundingClientRect();
  return {
    inside: card.left >= inner.left - 0.5 && card.right <= inner.right + 0.5
      && card.top >= inner.top - 0.5 && card.bottom <= inner.bottom + 0.5,
    card: [card.left, card.right, card.top, card.bottom],
    box: [inner.left, inner.right, inner.top, inner.bottom],
    scroll: [box.scrollLeft, box.scrollWidth, box.clientWidth],
  };
}
"""


def _phone_table(new_page: Any, server: Any, link_of: str = "seat") -> tuple[Page, dict[str, Any]]:
    answer = server.create_table([HUMAN] + [BOT] * 4, game=GAME, seed=SEED)
    page: Page = new_page(**PHONE)
    link = answer["seats"][0]["link"] if link_of == "seat" else answer["spectator_link"]
    open_table(page, server.url(link))
    page.wait_for_selector(".mn-map .prov")
    return page, answer


def test_a_seats_board_opens_on_its_own_capital_on_a_phone(new_page: Any, server: Any, shots: Any) -> None:
    page, _ = _phone_table(new_page, server)
    assert wait_my_turn(page)
    view = state(page)["view"]
    assert view["empires"][0] == "babylon"
    assert "capital" in view["buildings"]["babylonia"] and view["markers"]["babylonia"] == 0
    found = page.evaluate(IN_VIEW, "babylonia")
    assert found["scroll"][1] > found["scroll"][2] + 100, found  # the map scrolls in its box
    assert found["inside"], found
    page.screenshot(path=str(shots / "nostrum_phone_opens_home.png"))

    # the player scrolls to the map's corner: the next state leaves the map there
    page.evaluate("document.getElementById('board').scrollLeft = 0")
    before = version(page)
    page.evaluate("window.__ziggurat.send(window.__ziggurat.state.legal[0])")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    page.wait_for_timeout(200)
    assert page.evaluate("document.getElementById('board').scrollLeft") == 0
    assert not page.evaluate(IN_VIEW, "babylonia")["inside"]


def test_a_spectators_board_opens_at_the_maps_corner_on_a_phone(
    new_page: Any, server: Any, shots: Any
) -> None:
    page, _ = _phone_table(new_page, server, link_of="spectator")
    assert page.evaluate("document.getElementById('board').scrollLeft") == 0
    assert not page.evaluate(IN_VIEW, "babylonia")["inside"]
    full_shot(page, shots / "nostrum_phone_spectator.png")
