"""The Mesopotamia board on a phone: a piece the player may tap answers a finger (about 32 CSS
px) even when the map is drawn small, the board looks the same, and on a lit tile a tap beside
a piece still means the tile (the selected tribe's step there, M2)."""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import Page
from test_browser_boards_meso import _found, _mount, _moves

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
FINGER = 32  # CSS px

# what a tap at (x, y) reaches, as the board reads it: a tribe, a hut or a hex
REACHED = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const touch = el.closest('[data-touch-tribe], [data-touch-hut]')?.dataset;
  const tribe = el.closest('[data-tribe]')?.dataset.tribe ?? touch?.touchTribe;
  if (tribe) return 'tribe ' + tribe;
  const hut = el.closest('[data-hut]')?.dataset.hut ?? touch?.touchHut;
  if (hut) return 'hut ' + hut;
  const hex = el.closest('[data-hex]')?.dataset.hex;
  return hex ? 'hex ' + hex : null;
}"""

# screen centres of the tribes and of the tiles, the hex's inner radius on screen
GEOMETRY = """() => {
  const svg = document.querySelector('#hb-board svg');
  const centre = (el) => { const b = el.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const tribes = [...svg.querySelectorAll('.tribe')].map((g) => [g.dataset.tribe, ...centre(g.querySelector('.hit'))]);
  const tiles = Object.fromEntries([...svg.querySelectorAll('.tile')].map((g) => [g.dataset.hex, centre(g.querySelector('.hexshape'))]));
  const unit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return { tribes, tiles, inner: 50 * Math.sqrt(3) / 2 * unit, unit };
}"""


def _phone(new_page: Any, server: Any, s: Any, seat: int) -> Page:
    page: Page = new_page(**PHONE)
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    _mount(page, "mesopotamia", s, seat)
    return page


def _late_with_two_on_a_tile(s: Any, who: int) -> bool:
    """Phase I of round 6 or later (a wide map, drawn small), with two of the player's tribes
    that can step standing apart on one tile."""
    v = s.view(who)
    if v["phase"] != "movement" or v["pending"] is not None or v["round"] < 6:
        return False
    tiles: dict[str, int] = {}
    for tok in _moves(s):
        key = tok.split("@")[1].rstrip("*")
        tiles[key] = tiles.get(key, 0) + 1
    return any(n >= 2 for n in tiles.values())


def _ring(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [
        (x + radius * math.cos(a * math.pi / 4), y + radius * math.sin(a * math.pi / 4)) for a in range(8)
    ]


def _meant(geo: dict[str, Any], tok: str, x: float, y: float) -> bool:
    """Whether a tap at ``x, y`` plainly means tribe ``tok``: inside its tile and nearer to it
    than to any other piece drawn there."""
    key = tok.split("@")[1].rstrip("*")
    cx, cy = geo["tiles"][key]
    if math.dist((x, y), (cx, cy)) > geo["inner"] - 2:
        return False
    own = next(math.dist((x, y), (tx, ty)) for t, tx, ty in geo["tribes"] if t == tok)
    return all(math.dist((x, y), (tx, ty)) > own + 4 for t, tx, ty in geo["tribes"] if t != tok)


def test_a_tribe_is_a_finger_wide_to_tap_on_a_phone_M2(new_page, server, shots) -> None:
    s, seat = _found("mesopotamia", 4, _late_with_two_on_a_tile)
    page = _phone(new_page, server, s, seat)
    geo = page.evaluate(GEOMETRY)
    assert 10.5 * 1.45 * 2 * geo["unit"] < FINGER  # the map is drawn small: a tribe is narrower than a finger
    movable = set(_moves(s))
    checked = 0
    for tok, x, y in geo["tribes"]:
        if tok not in movable:
            continue
        for px, py in _ring(x, y, FINGER / 2 - 3):
            if _meant(geo, tok, px, py):
                assert page.evaluate(REACHED, [px, py]) == f"tribe {tok}", (tok, px - x, py - y)
                checked += 1
    assert checked >= 4
    # a real tap beside the first tribe selects it, as a tap on it would
    tok, x, y = next((t, x, y) for t, x, y in geo["tribes"] if t in movable)
    px, py = next(p for p in _ring(x, y, FINGER / 2 - 3) if _meant(geo, tok, *p))
    page.touchscreen.tap(px, py)
    assert page.eval_on_selector_all("#hb-board .tribe.selected", "els => els.map(e => e.dataset.tribe)") == [
        tok
    ]
    assert page.evaluate("window.sent") == []


def test_the_touch_targets_do_not_change_the_picture(new_page, server) -> None:
    s, seat = _found("mesopotamia", 4, _late_with_two_on_a_tile)
    page = _phone(new_page, server, s, seat)
    board = page.locator("#hb-board svg")
    assert page.locator("#hb-board .touch-hit").count() > 0
    with_targets = board.screenshot(animations="disabled")
    page.add_style_tag(content="#hb-board .touch-hit { display: none !important; }")
    assert board.screenshot(animations="disabled") == with_targets


def test_a_tap_beside_a_tribe_on_a_lit_tile_means_the_tile_M2(new_page, server) -> None:
    """With a tribe selected, the tiles it may step to are lit: a tap beside another of the
    player's tribes standing on one of them is the step (a tap on that tribe itself selects
    it, M2.3)."""

    def other_on_a_target(s: Any, who: int) -> bool:
        moves = _moves(s)
        v = s.view(who)
        return (
            v["phase"] == "movement"
            and v["round"] >= 6
            and any(
                other != tok and other.split("@")[1].rstrip("*") in dests
                for tok, dests in moves.items()
                for other in moves
            )
        )

    s, seat = _found("mesopotamia", 4, other_on_a_target)
    page = _phone(new_page, server, s, seat)
    moves = _moves(s)
    tok, other = next(
        (tok, other)
        for tok, dests in sorted(moves.items())
        for other in sorted(moves)
        if other != tok and other.split("@")[1].rstrip("*") in dests
    )
    page.locator(f"#hb-board [data-tribe='{tok}']").click()
    target = other.split("@")[1].rstrip("*")
    geo = page.evaluate(GEOMETRY)
    assert 10.5 * 1.45 * geo["unit"] < FINGER / 2 - 3  # the ring below lies outside the tribe's own hit
    _t, x, y = next(t for t in geo["tribes"] if t[0] == other)
    beside = [p for p in _ring(x, y, FINGER / 2 - 3) if _meant(geo, other, *p)]
    reached = {page.evaluate(REACHED, [px, py]) for px, py in beside}
    assert f"tribe {other}" not in reached, reached
    assert f"hex {target}" in reached
    px, py = next(p for p in beside if page.evaluate(REACHED, list(p)) == f"hex {target}")
    page.touchscreen.tap(px, py)
    assert page.evaluate("window.sent") == [f"move {tok} {target}"]
