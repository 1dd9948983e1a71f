"""Helpers shared by the browser tests (imported by the test modules of this folder)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

import ziggurat

HUMAN = {"kind": "human"}
HEURISTIC = {"kind": "bot", "bot": "heuristic"}


def open_table(page: Page, url: str) -> None:
    """Open a table link and wait for the first state message."""
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def state(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.__ziggurat.state")
    return result


def wait_my_turn(page: Page, timeout: float = 20000) -> bool:
    """Wait until this seat has legal actions (True) or the game is over (False)."""
    page.wait_for_function(
        "() => document.body.dataset.status === 'over' || document.querySelector('#legal .legal-act')",
        timeout=timeout,
    )
    return page.evaluate("document.body.dataset.status") != "over"


def click_and_wait(page: Page, target: Locator, timeout: float = 10000) -> None:
    """Click something that sends an action and wait for the next state (or a refusal)."""
    before = version(page)
    target.click()
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) !== {before} || !document.getElementById('error').hidden",
        timeout=timeout,
    )


def render_in_english_and_french(page: Page, events: list[dict[str, Any]]) -> list[list[str]]:
    """The messages (``event`` JSON) as the client's messages.js renders them, ``[English,
    French]`` for each; ``page`` is any page of the client."""
    rendered: list[list[str]] = page.evaluate(
        """async (events) => {
            const m = await import('/messages.js');
            await m.loadMessages('en');
            await m.loadMessages('fr');
            return events.map((e) => [m.renderMessage('en', e), m.renderMessage('fr', e)]);
        }""",
        events,
    )
    return rendered


def own_movable_tribes(page: Page) -> list[str]:
    """Tokens of this seat's tribes that have a legal move."""
    st = state(page)
    return sorted({a.split(" ")[1] for a in st["legal"] if a.startswith("move ")})


def hex_point(page: Page, key: str, root: str = ".board-svg") -> tuple[float, float]:
    """Screen position of a spot of hex ``key`` where no piece is: clicking there clicks the hex."""
    point: list[float] | None = page.evaluate(
        """([root, key]) => {
            const g = document.querySelector(`${root} .tile[data-hex="${key}"], ${root} .space[data-hex="${key}"]`);
            if (!g) throw new Error('no hex ' + key);
            g.scrollIntoView({block: 'center', inline: 'center'});
            const m = g.getScreenCTM();
            const p = g.ownerSVGElement.createSVGPoint();
            for (const rad of [36, 30, 40, 24, 0]) {
                for (let i = 0; i < 12; i++) {
                    const a = Math.PI / 6 * i + Math.PI / 12;
                    p.x = rad * Math.cos(a); p.y = rad * Math.sin(a);
                    const s = p.matrixTransform(m);
                    const hit = document.elementFromPoint(s.x, s.y);
                    if (hit && !hit.closest('.piece, .loose') && hit.closest('[data-hex]')?.dataset.hex === key) {
                        return [s.x, s.y];
                    }
                }
            }
            return null;  // pieces cover the whole hex
        }""",
        [root, key],
    )
    if point is None:
        raise LookupError(f"no free spot on hex {key}")
    return point[0], point[1]


def click_hex(page: Page, key: str, root: str = ".board-svg", tap: bool = False) -> None:
    try:
        x, y = hex_point(page, key, root)
    except LookupError:
        # a hex crowded with pieces: send the click to the hex itself, as a player's click
        # on its rim would be (the board handles clicks by delegation on the hex)
        hex_el = page.locator(f'{root} .tile[data-hex="{key}"], {root} .space[data-hex="{key}"]').first
        hex_el.dispatch_event("click")
        return
    if tap:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def click_hex_and_wait(page: Page, key: str, tap: bool = False, timeout: float = 10000) -> None:
    before = version(page)
    click_hex(page, key, tap=tap)
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) !== {before} || !document.getElementById('error').hidden",
        timeout=timeout,
    )


def lit_hexes(page: Page, selector: str = ".board-svg .lit[data-hex]") -> list[str]:
    result: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.hex)")
    return result


def full_shot(page: Page, path: Any) -> None:
    """A full-page screenshot taken from the top (so the sticky turn bar sits where it belongs)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)


def nostrum_conversion_step() -> dict[str, Any]:
    """A Mare Nostrum position (3 players): Rome's (seat 0) Military turn of round 2 at its
    Conversion step, Greece and Carthage done: Rome may convert Dalmatia (Greece's marker,
    Rome's legion on it, N4.3), its one conversion; its triremes may row next (N4.2)."""
    st = ziggurat.load("mare-nostrum", players=3).new_initial_state()
    st.apply("empires rome,greece,carthage")
    for tile in ("hercules", "antigone", "spartacus", "colossus", "lighthouse"):
        st.apply(f"reveal {tile}")
    p: dict[str, Any] = st.to_position()
    p.update(trade=None, buy=None, stage="mil_conv", round=2)
    p["mil"] = {"done": [1, 2], "active": 0, "arrived": {}, "fought": [], "zeus_q": [], "circe_used": []}
    p["markers"]["dalmatia"] = 1
    p["legions"]["dalmatia"] = [1, 0, 0]
    p.update(pending={"dalmatia": [0, 1]}, on_marker={"dalmatia": 0}, conqueror={"dalmatia": 0})
    return p


NOSTRUM_MAP_MEASURES = """
  const svg = document.querySelector('.mn-map');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const px = (e) => parseFloat(getComputedStyle(e).fontSize) * k;
  const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const hit = (a, b) => a.x < b.r - 0.5 && b.x < a.r - 0.5 && a.y < b.b - 0.5 && b.y < a.b - 0.5;
  const where = (e) => { const a = e.closest('[data-area], [data-covered]'); return a.dataset.area || a.dataset.covered; };
"""
"""The opening lines of a script measuring the Mare Nostrum map (inside its arrow function): the
map ``svg``, ``k`` (CSS px per map unit), ``px(e)`` (an element's font size in CSS px), ``box(e)``
(its box), ``hit(a, b)`` (two boxes overlap by more than half a pixel), ``where(e)`` (its area)."""
