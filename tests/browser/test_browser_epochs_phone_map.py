"""The Mesopotamia: Epochs map on a phone (375 x 740, touch): drawn large enough to read its
names and tribe counts (about 9 CSS px or more) inside the board's box, which scrolls both ways
while the page does not scroll sideways; the zoom buttons still scale it (two steps out show it
whole); a seated player's board opens on their own tribes, once: a new state leaves the board
where the player scrolled it. A desktop's map is drawn as before: the whole map in the board.

A server of this module's own creates tables from positions (``allow_positions``), so a test
starts where the player's tribes stand far from the map's top left corner."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import HEURISTIC, HUMAN, full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect
from websockets.sync.client import connect

import ziggurat

ROOT = Path(__file__).resolve().parents[2]
GAME = "mesopotamia-epochs"
PHONE = {
    "viewport": {"width": 375, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# the rendered size (CSS px) of an area's name and of a tribe count's digits, the boxes of the
# board and of the map, and whether the page scrolls sideways
MEASURE = """() => {
  const svg = document.querySelector('#board svg.epochs-map');
  const board = document.getElementById('board');
  const k = svg.getScreenCTM().a;
  const name = svg.querySelector('.area-label.k-land');
  const count = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  count.setAttribute('font-size', '10.5');  // as draw.js draws a tribe count
  svg.querySelector('.pieces').append(count);
  const countPx = parseFloat(getComputedStyle(count).fontSize) * k;
  count.remove();
  const r = (e) => { const b = e.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height }; };
  return {
    namePx: parseFloat(getComputedStyle(name).fontSize) * k,
    countPx,
    board: r(board), map: r(svg),
    scroll: { width: board.scrollWidth, height: board.scrollHeight, client: board.clientWidth,
              clientHeight: board.clientHeight, left: board.scrollLeft, top: board.scrollTop },
    pageWidth: document.documentElement.scrollWidth,
  };
}"""

# which of the viewer's tribes are in sight in the board's box (above its legend)
MINE_IN_SIGHT = """(symbol) => {
  const board = document.getElementById('board');
  const b = board.getBoundingClientRect();
  const bottom = b.top + board.clientHeight - board.querySelector('.epochs-legend').offsetHeight;
  return [...board.querySelectorAll(`.pieces .tribe.p-${symbol}`)].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.dataset.area, r.left >= b.left && r.right <= b.left + board.clientWidth && r.top >= b.top && r.bottom <= bottom];
  });
}"""


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    with start_server(tmp_path_factory.mktemp("pserver"), "bot_delay=0.05, allow_positions=True") as srv:
        yield srv


def _measure(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def _no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_phone_draws_the_map_readable_and_scrolls_it_inside_the_board(
    new_page, server, shots: Path
) -> None:
    """At 375 x 740 an area's name reads at 9 CSS px or more (about 4 px when the whole map was
    squeezed into the screen's width), and so does a tribe count; the board's box scrolls the
    map both ways and the page does not scroll sideways; zooming in enlarges the map further,
    two steps of zooming out show it all in the box; a tap on a lit area plays there."""
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], game=GAME, seed=2)
    page = new_page(**PHONE)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    found = _measure(page)
    assert found["namePx"] >= 9, found
    assert found["countPx"] >= 9, found
    _no_sideways_scroll(page, 375)
    board, scroll = found["board"], found["scroll"]
    assert board["left"] >= 0 and board["right"] <= 375, board
    assert scroll["width"] > scroll["client"] + 200, scroll  # the map scrolls sideways in the box
    assert scroll["height"] > scroll["clientHeight"] + 100, scroll  # and up and down
    assert board["height"] <= 740 * 0.75 + 1, board  # the box, zoom buttons and all, fit on the screen
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "epochs_phone_map.png"))
    full_shot(page, shots / "epochs_phone_map_full.png")

    page.click("#zoom-in")
    bigger = _measure(page)
    assert bigger["namePx"] == pytest.approx(found["namePx"] * 1.25, rel=0.02), bigger
    _no_sideways_scroll(page, 375)
    for _ in range(3):  # back to 100%, then two steps out
        page.click("#zoom-out")
    expect(page.locator("#zoom-reset")).to_have_text("64%")
    whole = _measure(page)
    assert whole["map"]["width"] <= whole["scroll"]["client"] + 1, whole
    assert whole["map"]["height"] <= whole["scroll"]["clientHeight"] + 1, whole
    _no_sideways_scroll(page, 375)
    page.screenshot(path=str(shots / "epochs_phone_map_zoomed_out.png"))
    page.click("#zoom-reset")
    expect(page.locator("#zoom-reset")).to_have_text("100%")

    # a tap on a lit area plays there
    st = state(page)
    targets = [a.split(" ")[1] for a in st["legal"] if a.startswith(("place ", "land ", "displace "))]
    if not targets:  # a keep or pass first: take it from the panel
        before = version(page)
        page.locator("#choice .keep-panel button").first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
        assert wait_my_turn(page)
        st = state(page)
        targets = [a.split(" ")[1] for a in st["legal"] if a.startswith(("place ", "land ", "displace "))]
    area = targets[0]
    page.locator(f".epochs-map .area[data-area='{area}']").evaluate(
        "(e) => e.scrollIntoView({ block: 'center', inline: 'center' })"
    )
    before = version(page)
    entries = page.locator("#log-list li").count()
    point = page.evaluate(
        """(area) => {
            const g = document.querySelector(`.epochs-map .area[data-area="${area}"]`);
            const r = g.getBoundingClientRect();
            for (const k of [0, 0.15, 0.3, 0.45]) for (let i = 0; i < 12; i++) {
                const x = r.left + r.width * (0.5 + k * Math.cos(i * Math.PI / 6));
                const y = r.top + r.height * (0.5 + k * Math.sin(i * Math.PI / 6));
                if (document.elementFromPoint(x, y)?.closest('[data-area]')?.dataset.area === area) return [x, y];
            }
            return null;
        }""",
        area,
    )
    assert point is not None
    page.touchscreen.tap(point[0], point[1])
    page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
    expect(page.locator("#error")).to_be_hidden()
    assert page.locator("#log-list li").count() > entries
    _no_sideways_scroll(page, 375)


ANCHORS = {
    a["id"]: (a["x"], a["y"])
    for a in json.loads((ROOT / "src/ziggurat/games/mesopotamia_epochs/map.json").read_text())["areas"]
}


def _decisions(plies: int) -> Iterator[tuple[Any, int]]:
    """Seeded random games of three players, seeds 0-39, up to ``plies`` plies each: every
    state with a seat to move, and that seat."""
    data = ziggurat.load(GAME, players=3)
    for seed in range(40):
        rng = random.Random(seed)
        s = data.new_initial_state()
        for _ in range(plies):
            if s.is_terminal():
                break
            who = s.current_player()
            if who == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
                continue
            yield s, who
            s.apply(rng.choice(list(s.legal_actions())))


def _own_peoples(view: dict[str, Any]) -> set[str]:
    """The Peoples of the viewer's cards."""
    me = next(p for p in view["players"] if p["symbol"] == view["viewer"])
    return {c["people"] for c in me["cards"] if c["people"]}


def _east_position() -> tuple[dict[str, Any], int]:
    """A seeded game's position where the seat to move places tribes and holds areas only in
    the east or the south of the map (out of sight of a board scrolled to its top left)."""
    for s, who in _decisions(400):
        v = s.view(who)
        mine = _own_peoples(v)
        held = [a for a, people, _n in v["areas"] if people in mine]
        if v["pending"] is None and v["phase"] == "strategy" and held:
            if all(ANCHORS[a][0] > 600 or ANCHORS[a][1] > 700 for a in held):
                return s.to_position(), who
    raise LookupError("no position with the seat to move in the east")


def _open_on_phone(
    new_page: Any, pserver: Any, position: dict[str, Any], seat: int, others: dict[str, str]
) -> tuple[dict[str, Any], Page]:
    """A table created from ``position`` (seed 3), ``seat`` a person and the other seats
    ``others``, opened by that seat on a phone: the server's answer and the page."""
    seats = [HUMAN if s == seat else others for s in range(int(position["num_players"]))]
    answer: dict[str, Any] = pserver.request(
        "POST",
        "/api/tables",
        {"game": GAME, "players": len(seats), "seats": seats, "seed": 3, "position": position},
    )
    page: Page = new_page(**PHONE)
    open_table(page, pserver.url(answer["seats"][seat]["link"]))
    return answer, page


def test_a_seated_players_board_opens_on_their_tribes_and_stays_where_they_scroll(
    new_page, pserver, shots: Path
) -> None:
    """The player's tribes stand far from the map's top left corner: their board opens scrolled
    so that one of them is in sight (on the first draw only); once the player has scrolled the
    board elsewhere, the next state leaves it there."""
    position, seat = _east_position()
    _, page = _open_on_phone(new_page, pserver, position, seat, HEURISTIC)
    assert wait_my_turn(page)
    symbol = state(page)["view"]["viewer"]
    seen = page.evaluate(MINE_IN_SIGHT, symbol)
    assert seen and any(ok for _a, ok in seen), seen
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "epochs_phone_opens_on_own_tribes.png"))

    # the player scrolls the board back to its top left corner and plays: it stays there
    page.evaluate(
        "(() => { const b = document.getElementById('board'); b.scrollLeft = 0; b.scrollTop = 0; })()"
    )
    legal = state(page)["legal"]
    action = next((a for a in legal if a.startswith("place ")), legal[0])
    before = version(page)
    page.evaluate("(a) => window.__ziggurat.socket.send({ type: 'action', action: a })", action)
    page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
    expect(page.locator("#error")).to_be_hidden()
    found = _measure(page)
    assert (found["scroll"]["left"], found["scroll"]["top"]) == (0, 0), found["scroll"]


def test_a_desktop_draws_the_whole_map_in_the_board_as_before(new_page, server, shots: Path) -> None:
    """At 1280 x 800 nothing of the phone's drawing applies: the map fills the board's width,
    which does not scroll sideways, at the size it always had, and opens at its top."""
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], game=GAME, seed=2)
    page = new_page(**DESKTOP)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    found = _measure(page)
    scroll = found["scroll"]
    assert scroll["width"] <= scroll["client"] and (scroll["left"], scroll["top"]) == (0, 0), scroll
    assert found["map"]["width"] == pytest.approx(scroll["client"], abs=1), found
    assert found["map"]["height"] <= 800 * 0.8 + 1, found  # and no taller than 80% of the screen
    _no_sideways_scroll(page, 1280)
    page.screenshot(path=str(shots / "epochs_desktop_map.png"))


def _before_the_first_tribe() -> tuple[dict[str, Any], int]:
    """A seeded game's position in the Strategy phase where a seat holds no area yet and every
    People it holds starts far in the east (out of sight of a board waiting on the map's
    middle), another seat to move: the position and that seat."""
    peoples = json.loads((ROOT / "src/ziggurat/games/mesopotamia_epochs/peoples.json").read_text())
    start = {p["id"]: p["start_area"] for p in peoples["peoples"]}
    for s, who in _decisions(300):
        for seat in (x for x in range(3) if x != who):
            v = s.view(seat)
            mine = _own_peoples(v)
            if (
                v["phase"] == "strategy"
                and mine
                and not [a for a, people, _n in v["areas"] if people in mine]
                and all(ANCHORS[start[m]][0] > 800 for m in mine)
            ):
                return s.to_position(), seat
    raise LookupError("no position with a seat whose Peoples all start in the east, not yet entered")


def _latest_state(ws: Any, last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The newest ``state`` message a socket holds (``last`` if none came)."""
    while True:
        try:
            msg = json.loads(ws.recv(timeout=0.3))
        except TimeoutError:
            return last
        if msg.get("type") == "state":
            last = msg


def test_a_board_opened_before_the_players_first_tribe_goes_to_it_when_it_comes(
    new_page, pserver, shots: Path
) -> None:
    """A player who opens the table before any tribe of theirs is on the map sees its middle;
    their People's first tribes, entering in the east, then bring the board to them (the player
    had not scrolled). The other seats are people too, playing over their own sockets here, so
    nothing moves before the page has drawn the map without the player's tribes."""
    position, seat = _before_the_first_tribe()
    answer, page = _open_on_phone(new_page, pserver, position, seat, HUMAN)
    seats = answer["seats"]
    page.wait_for_selector("#board svg.epochs-map .pieces")
    symbol = state(page)["view"]["viewer"]
    assert page.evaluate(MINE_IN_SIGHT, symbol) == []  # no tribe of theirs yet
    middle = _measure(page)["scroll"]
    assert middle["left"] > 0 and middle["top"] > 0, middle  # the board waits on the map's middle

    table = answer["table"]
    ws_base = pserver.base.replace("http://", "ws://")
    own_token = answer["seats"][seat]["token"]
    with contextlib.ExitStack() as stack:
        others = {
            s: stack.enter_context(connect(f"{ws_base}/ws/{table}?token={answer['seats'][s]['token']}"))
            for s in range(len(seats))
            if s != seat
        }
        latest: dict[int, dict[str, Any] | None] = dict.fromkeys(others)
        for _ in range(60):
            if page.evaluate(MINE_IN_SIGHT, symbol):
                break
            facts = pserver.request("GET", f"/api/tables/{table}", token=own_token)
            mover = next(x["seat"] for x in facts["seats"] if x["colour"] == facts["to_move"])
            assert mover in others, f"seat {mover} to move before the player's People entered"
            latest[mover] = _latest_state(others[mover], latest[mover])
            legal = (latest[mover] or {}).get("legal") or []
            assert legal, latest[mover]
            action = "stop" if "stop" in legal else legal[0]  # the Peoples before it stop at once
            before = version(page)
            others[mover].send(json.dumps({"type": "action", "action": action}))
            page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
    seen = page.evaluate(MINE_IN_SIGHT, symbol)
    assert seen and all(ok for _a, ok in seen), seen
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "epochs_phone_first_tribes.png"))
