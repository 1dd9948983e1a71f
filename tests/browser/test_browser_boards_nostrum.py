"""The Mare Nostrum: Empires board read by a player: the table draws it once its stylesheet has
arrived (and without it if it never comes), the zoom scales the map, the choices for a clicked
province open next to it, a click on an unlit area asks the engine why, a level above
15 reads "15+" (W11, N0.7.5), log lines name their step in English and French, and at a phone's
size every button the board offers is a 44 px tap target."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browser_helpers import (
    NOSTRUM_MAP_MEASURES,
    full_shot,
    open_table,
    render_in_english_and_french,
    state,
    version,
    wait_my_turn,
)
from playwright.sync_api import Page, expect

import ziggurat
from ziggurat.games.mare_nostrum import describe as DS
from ziggurat.games.mare_nostrum.position import load_position

GAME = "mare-nostrum"
BOT = {"kind": "bot", "bot": "random"}
HUMAN = {"kind": "human"}

MOUNT = """
async ([view, legal, seat, styled]) => {
  const board = await import('/boards/mare-nostrum.js');
  const { t } = await import('/i18n.js');
  // as on the table page, which draws the board once its stylesheet has arrived
  if (styled) await board.styled;
  document.body.innerHTML = `<div id="board-wrap" class="board-wrap"><div id="hb-board" class="board"></div></div>
    <div id="hb-choice" class="choice panel"></div><div id="hb-status" class="turnbar"></div>
    <div id="hb-players" class="players"></div><div id="hb-general"></div>`;
  const $ = (id) => document.getElementById(id);
  window.sent = [];
  window.explained = [];
  const els = { board: $('hb-board'), choice: $('hb-choice'), status: $('hb-status'), players: $('hb-players'),
                general: $('hb-general') };
  const ctx = { t: () => t, send: (a) => { window.sent.push(a); return true; },
                explain: (a) => { window.explained.push(a); } };
  window.hb = board.createBoard(els, ctx);
  window.hb.update({ type: 'state', seat, colour: null, version: 1, view, legal, log: [], can_undo: false,
                     status: 'playing', result: null }, { options: {} });
}
"""


def _played_until(stage: str, want: Any, seed: int = 3, n: int = 3) -> tuple[Any, int]:
    """A seeded game played at random until ``stage`` with ``want(state, seat)`` true."""
    rng = random.Random(seed)
    state = ziggurat.load(GAME, players=n).new_initial_state()
    for _ in range(3000):
        if state.is_terminal():
            break
        who = state.current_player()
        if who >= 0 and state.view(who)["stage"] == stage and want(state, who):
            return state, who
        if who == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    raise LookupError(f"no {stage} found")


def _areas_with(state: Any, k: int) -> list[str]:
    """Provinces named by at least ``k`` legal purchases."""
    count: dict[str, int] = {}
    for a in state.legal_actions():
        w = a.split(" ")
        if w[0] == "build" or (w[0] == "buy" and w[1] in ("marker", "legion", "fortress")):
            area = w[2]
            count[area] = count.get(area, 0) + 1
    return sorted(p for p, c in count.items() if c >= k)


@pytest.fixture(scope="module")
def buying() -> tuple[Any, int]:
    """A Buy turn (N3) where some province offers several purchases."""
    return _played_until("buy_turn", lambda s, who: bool(_areas_with(s, 2)))


@pytest.fixture
def harness(page: Page, server) -> Page:
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


def _mount(page: Page, state: Any, seat: int, styled: bool = True) -> None:
    """The board of ``state`` for ``seat`` in the page, once its stylesheet has arrived
    (``styled=False``: at once)."""
    page.evaluate(MOUNT, [state.view(seat), [str(a) for a in state.legal_actions()], seat, styled])


def _rect(page: Page, selector: str) -> dict[str, float]:
    rect: dict[str, float] = page.evaluate(
        "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; }",
        selector,
    )
    return rect


def _beside(page: Page, area: str) -> tuple[float, float]:
    """The gaps (x, y) between the open popover and the box of ``area``."""
    box = _rect(page, ".mn-popover")
    prov = _rect(page, f"#hb-board [data-area='{area}'] rect.box")
    return (
        max(0.0, box["left"] - prov["right"], prov["left"] - box["right"]),
        max(0.0, box["top"] - prov["bottom"], prov["top"] - box["bottom"]),
    )


def test_zoom_scales_the_map_and_the_board_scrolls(page: Page, server, shots) -> None:
    answer = server.create_table([HUMAN, BOT, BOT], game=GAME, seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    page.wait_for_selector(".mn-map")
    before = _rect(page, ".mn-map")["width"]
    page.click("#zoom-in")
    page.click("#zoom-in")
    expect(page.locator("#zoom-reset")).to_have_text("156%")
    after = _rect(page, ".mn-map")["width"]
    assert after == pytest.approx(before * 1.5625, rel=0.02)
    scroll = page.evaluate(
        "(() => { const b = document.getElementById('board'); return [b.scrollWidth, b.clientWidth]; })()"
    )
    assert scroll[0] > scroll[1] + 100  # larger than its box: the board scrolls
    full_shot(page, shots / "boards_nostrum_zoomed.png")
    page.click("#zoom-out")
    page.click("#zoom-out")
    page.click("#zoom-out")
    assert _rect(page, ".mn-map")["width"] == pytest.approx(before * 0.8, rel=0.02)


def test_choices_open_next_to_the_clicked_province(harness: Page, buying, shots) -> None:
    state, seat = buying
    _mount(harness, state, seat)
    for area in _areas_with(state, 2)[:3]:
        harness.locator(f"#hb-board [data-area='{area}']").click()
        pop = harness.locator(".mn-popover")
        expect(pop).to_be_visible()
        assert pop.get_attribute("data-area") == area
        box = _rect(harness, ".mn-popover")
        # beside the province: the gap between the two boxes is small on both axes
        gap_x, gap_y = _beside(harness, area)
        assert gap_x <= 24 and gap_y <= 24, (area, box)
        vw, vh = harness.evaluate("[document.documentElement.clientWidth, innerHeight]")
        assert box["left"] >= 0 and box["right"] <= vw and box["top"] >= 0 and box["bottom"] <= vh
        assert box["width"] <= 340  # board.css's widest box; the script's own limit keeps it
        labels = pop.locator("button[data-action]")
        assert labels.count() >= 2
        assert {labels.nth(i).get_attribute("data-action") for i in range(labels.count())} <= set(
            state.legal_actions()
        )
        full_shot(harness, shots / "boards_nostrum_popover.png")
        harness.keyboard.press("Escape")
        expect(pop).to_be_hidden()
    area = _areas_with(state, 2)[0]
    harness.locator(f"#hb-board [data-area='{area}']").click()
    choice = harness.locator(".mn-popover button[data-action]").first
    action = choice.get_attribute("data-action")
    choice.click()
    assert harness.evaluate("window.sent") == [action]


def test_choices_open_next_to_the_province_while_the_stylesheet_is_still_loading(
    harness: Page, buying
) -> None:
    """The board's stylesheet is loaded by its module; a click before it has arrived still opens
    the choices beside the province, and they are placed again once it arrives."""
    state, seat = buying
    held: list[Any] = []
    harness.route("**/mare-nostrum/board.css", lambda route: held.append(route))
    _mount(harness, state, seat, styled=False)
    area = _areas_with(state, 2)[0]
    harness.locator(f"#hb-board [data-area='{area}']").click()
    expect(harness.locator(".mn-popover")).to_be_visible()
    assert held, "the stylesheet was requested and is held back"
    styled = "getComputedStyle(document.querySelector('.mn-popover')).borderTopWidth === '2px'"
    assert not harness.evaluate(styled)
    gap_x, gap_y = _beside(harness, area)
    assert gap_x <= 24 and gap_y <= 24
    held[0].continue_()
    harness.wait_for_function(styled)
    gap_x, gap_y = _beside(harness, area)
    assert gap_x <= 24 and gap_y <= 24


def test_the_table_draws_the_board_once_its_stylesheet_has_arrived(page: Page, server) -> None:
    """The board's module loads its own stylesheet; the table page waits for it before drawing
    the board, so the first layout a player sees (and clicks) is the styled one."""
    answer = server.create_table([HUMAN, BOT, BOT], game=GAME, seed=5)
    held: list[Any] = []
    page.route("**/mare-nostrum/board.css", lambda route: held.append(route))
    page.goto(server.url(answer["seats"][0]["link"]))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the stylesheet was requested and is held back"
    page.wait_for_timeout(400)
    assert page.locator(".mn-map").count() == 0
    assert page.evaluate("document.body.dataset.ready") != "1"
    held[0].continue_()
    page.wait_for_selector("body[data-ready='1']")
    background = page.evaluate("getComputedStyle(document.querySelector('.mn-map')).backgroundColor")
    assert background == "rgb(230, 215, 179)"  # board.css's #e6d7b3


@pytest.mark.parametrize("fate", ["fails", "never comes"])
def test_the_table_still_draws_the_board_when_its_stylesheet_does_not_come(
    page: Page, server, fate: str
) -> None:
    answer = server.create_table([HUMAN, BOT, BOT], game=GAME, seed=5)
    held: list[Any] = []
    page.route("**/mare-nostrum/board.css", lambda r: r.abort() if fate == "fails" else held.append(r))
    page.goto(server.url(answer["seats"][0]["link"]))
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    expect(page.locator(".mn-map")).to_be_visible()
    assert fate == "fails" or held


def test_a_click_on_an_unlit_area_asks_why(harness: Page, buying) -> None:
    """N3: a province where nothing can be bought: the board asks the engine about buying an
    influence marker there, and the engine refuses it with a reason."""
    state, seat = buying
    _mount(harness, state, seat)
    lit = set(harness.eval_on_selector_all("#hb-board .area.lit", "els => els.map(e => e.dataset.area)"))
    unlit = harness.eval_on_selector_all(
        "#hb-board .prov.area:not(.lit)", "els => els.map(e => e.dataset.area)"
    )
    area = next(a for a in unlit if a not in lit)
    harness.locator(f"#hb-board [data-area='{area}']").click()
    asked = harness.evaluate("window.explained")
    assert len(asked) == 1 and asked[0].split(" ")[-1] == area
    assert asked[0] not in state.legal_actions()
    with pytest.raises(ziggurat.IllegalAction) as refused:
        state.clone().apply(asked[0], seat)
    assert "(N" in str(refused.value) or "(R" in str(refused.value) or "(D" in str(refused.value)
    assert harness.evaluate("window.sent") == []


def test_a_click_means_the_action_of_the_stage(harness: Page) -> None:
    """What a click on an area asks about, stage by stage: a purchase there (N3), a move to it
    from the selected area (N4.4, N4.6), a battle or a conversion there (N4.5, N4.7, N4.3)."""
    cases = harness.evaluate(
        """async () => {
            const { intentOf } = await import('/boards/mare-nostrum.js');
            const v = (stage, extra = {}) => ({ stage, markers: { latium: 0 }, legions: { gallia: [0, 2, 0] },
                                                triremes: {}, ...extra });
            return [
              intentOf(v('buy_turn'), 'latium', null, 0),
              intentOf(v('buy_turn'), 'gallia', null, 0),
              intentOf(v('buy_turn'), 'mare_tyrrhenum', null, 0),
              intentOf(v('mil_march'), 'gallia', 'latium', 0),
              intentOf(v('mil_row'), 'mare_ionium', 'mare_tyrrhenum', 0),
              intentOf(v('mil_fight'), 'gallia', null, 0),
              intentOf(v('mil_conv'), 'gallia', null, 0),
              intentOf(v('trade_offer'), 'gallia', null, 0),
            ];
        }"""
    )
    assert cases == [
        "buy legion latium",
        "buy marker gallia",
        "buy trireme mare_tyrrhenum",
        "march latium gallia",
        "row mare_tyrrhenum mare_ionium",
        "fight gallia 1",
        "convert gallia",
        None,
    ]


def _with_legions(state: Any, seat: int, legions: int) -> Any:
    """The position with ``legions`` legions of ``seat`` in the first province it controls."""
    pos = state.to_position()
    prov = next(p for p, owner in sorted(pos["markers"].items()) if owner == seat)
    pos["legions"].setdefault(prov, [0] * pos["n"])[seat] = legions
    return load_position(state.game, pos, strict=False)


def test_a_level_above_15_reads_15_plus_W11(harness: Page, buying, shots) -> None:
    """W11 / N0.7.5: a Military level of 16 is the "15+" marker on space 1."""
    state, seat = buying
    level = harness.locator(f"#hb-players [data-seat='{seat}'] [data-track='military']")
    harness.evaluate(MOUNT, [_with_legions(state, seat, 0).view(seat), [], seat])
    others = int(level.get_attribute("data-level") or "0")  # triremes, fortresses, tiles' bonuses
    harness.evaluate(MOUNT, [_with_legions(state, seat, 16 - others).view(seat), [], seat])
    assert level.get_attribute("data-level") == "16"
    expect(level).to_contain_text("15+")
    assert "16" not in level.inner_text()
    assert "Level 16" in (level.locator(".mn-plus").get_attribute("title") or "")
    full_shot(harness, shots / "boards_nostrum_15plus.png")
    # the engine's levels, when the view carries them, are what is drawn
    view = state.view(seat)
    view["tracks"] = [{"trade": 17, "culture": 3, "military": 2} for _ in range(view["n"])]
    harness.evaluate(MOUNT, [view, [], seat])
    trade = harness.locator(f"#hb-players [data-seat='{seat}'] [data-track='trade']")
    expect(trade).to_contain_text("15+")
    assert "space 2" in (trade.locator(".mn-plus").get_attribute("title") or "")
    culture = harness.locator(f"#hb-players [data-seat='{seat}'] [data-track='culture']")
    expect(culture).to_have_text("Culture 3")


def test_log_lines_name_the_step_in_english_and_french(page: Page, server) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    view = {"empires": ["rome", "carthage", "greece"], "n": 3, "viewer": None}
    events = [
        DS.describe_event((0, "end", False, 0), {**view, "stage": "buy_turn"}, view).to_json(),
        DS.describe_event((1, "done", False, 1), {**view, "stage": "mil_sea"}, view).to_json(),
        DS.describe_event((2, "next 0", False, 2), {**view, "stage": "buy_order"}, view).to_json(),
    ]
    assert render_in_english_and_french(page, events) == [
        ["Rome is done with the Buy step", "Rome a fini l'étape d'achat"],
        ["Carthage is done with the Sea battle step", "Carthage a fini l'étape des batailles navales"],
        ["Greece lets Rome buy next", "La Grèce laisse Rome acheter ensuite"],
    ]


def test_phone_tap_targets_are_44_px(new_page, server, buying, shots) -> None:
    state, seat = buying
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    _mount(page, state, seat)
    area = _areas_with(state, 2)[0]
    page.locator(f"#hb-board [data-area='{area}']").dispatch_event("click")
    expect(page.locator(".mn-popover")).to_be_visible()
    sizes = page.eval_on_selector_all(
        "#hb-choice button, .mn-popover button",
        "els => els.filter(e => e.offsetParent).map(e => [e.dataset.action || e.textContent, e.getBoundingClientRect().height, e.getBoundingClientRect().width])",
    )
    assert sizes
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small
    box = _rect(page, ".mn-popover")
    assert box["left"] >= 0 and box["right"] <= 390
    full_shot(page, shots / "boards_nostrum_phone.png")


def test_the_choices_are_reached_from_the_keyboard(harness: Page, buying) -> None:
    """Enter on a lit province opens its choices with the first one focused; Escape closes
    them and gives the focus back to the province."""
    state, seat = buying
    _mount(harness, state, seat)
    area = _areas_with(state, 2)[0]
    harness.locator(f"#hb-board [data-area='{area}']").focus()
    harness.keyboard.press("Enter")
    expect(harness.locator(".mn-popover")).to_be_visible()
    focused = harness.evaluate("document.activeElement.closest('.mn-popover') !== null")
    assert focused
    harness.keyboard.press("Escape")
    expect(harness.locator(".mn-popover")).to_be_hidden()
    assert harness.evaluate("document.activeElement.dataset.area") == area


def test_an_unlit_province_shows_the_engines_refusal_on_a_live_table_N3(page: Page, server, shots) -> None:
    """The player's Buy turn on a live table: a click on a province where nothing can be bought
    shows, in the refusal box, why an influence marker (or a legion) may not be bought there."""
    answer = server.create_table([HUMAN, BOT, BOT], game=GAME, seed=6)
    open_table(page, server.url(answer["seats"][0]["link"]))
    rng = random.Random(2)
    for _ in range(300):
        assert wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["view"]["stage"] == "buy_turn":
            break
        before = version(page)
        page.evaluate(
            "(a) => window.__ziggurat.socket.send({ type: 'action', action: a })", rng.choice(st["legal"])
        )
        page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
    assert state(page)["view"]["stage"] == "buy_turn"
    legal = set(state(page)["legal"])
    unlit = page.eval_on_selector_all(".mn-map .prov.area:not(.lit)", "els => els.map(e => e.dataset.area)")
    area = unlit[0]
    before = version(page)
    page.locator(f".mn-map [data-area='{area}']").click()
    box = page.locator("#error")
    expect(box).to_be_visible()
    expect(box).to_contain_text(area)
    expect(box.locator(".reason")).to_contain_text("(N")
    # the refused action is shown once, after the reason, not also quoted inside it
    reason = box.locator(".reason").inner_text()
    assert "'buy " not in reason and not reason.startswith(("buy ", "'")), reason
    page.screenshot(path=str(shots / "boards_nostrum_unlit_refusal.png"))
    assert version(page) == before and set(state(page)["legal"]) == legal


def _found_stage(stage: str, players: int) -> tuple[Any, int]:
    for seed in range(60):
        try:
            return _played_until(stage, lambda s, who: True, seed=seed, n=players)
        except LookupError:
            continue
    raise LookupError(stage)


def test_the_conquest_question_names_the_province_N4_10(harness: Page) -> None:
    """A conquest option (convert, pillage, occupy: N4.10) is asked for a province the prompt
    names."""
    state, seat = _found_stage("mil_circe", 4)
    conquest = next(q for q in state.view(seat)["queue"] if q[0] == "conquest" and q[1] == seat)
    name = harness.evaluate(
        "async (id) => (await import('/boards/mare-nostrum/labels.js')).areaName(id)", conquest[2]
    )
    _mount(harness, state, seat)
    expect(harness.locator("#hb-choice .prompt")).to_contain_text(
        f"Choose what to do with the province you conquered: {name}."
    )


def test_the_tie_question_names_the_title_and_the_tied_seats_N5_2(harness: Page) -> None:
    """A tie for a title (N5.2) says which title and who is tied."""
    state, seat = _found_stage("claim_tie", 3)
    claim = state.view(seat)["claim"]
    _mount(harness, state, seat)
    prompt = harness.locator("#hb-choice .prompt")
    title = {"trade": "Trade leader", "culture": "Culture leader", "military": "Military leader"}[
        claim["track"]
    ]
    expect(prompt).to_contain_text(f"Break the tie for the title {title}: ")
    empires = {
        "rome": "Rome",
        "greece": "Greece",
        "carthage": "Carthage",
        "egypt": "Egypt",
        "babylon": "Babylon",
    }
    for s in claim["tied"]:
        expect(prompt).to_contain_text(empires[state.view(seat)["empires"][s]])


def test_a_purchase_chosen_low_in_the_list_shows_its_payment_N3_2(harness: Page) -> None:
    """A purchase chosen far down a long list: the payment that follows (what it costs, what
    is paid so far: N3.2) comes into sight instead of staying above the scrolled page."""

    def paid_for(s: Any, who: int) -> list[str]:
        """The purchases of ``who`` that ask for a payment next, last in the list first."""
        out = []
        for a in reversed(sorted(s.legal_actions())):
            if a.startswith(("buy ", "build ")):
                after = s.clone()
                after.apply(a)
                if after.current_player() == who and after.view(who)["buy"].get("paying"):
                    out.append(a)
        return out

    state, seat = _played_until("buy_turn", lambda s, who: bool(paid_for(s, who)))
    action = paid_for(state, seat)[0]
    _mount(harness, state, seat)
    harness.evaluate("document.body.style.paddingBottom = '3000px'")
    button = harness.locator(f"#hb-choice button[data-action='{action}']")
    button.scroll_into_view_if_needed()
    harness.evaluate("window.scrollBy(0, 400)")
    button.click()
    assert harness.evaluate("window.sent") == [action]
    state.apply(action)
    harness.evaluate(
        """([view, legal]) => window.hb.update({ type: 'state', seat: view.viewer, colour: null, version: 2, view,
            legal, log: [], can_undo: false, status: 'playing', result: null }, { options: {} })""",
        [state.view(seat), [str(a) for a in state.legal_actions()]],
    )
    head = harness.locator("#hb-choice .mn-buy h4").bounding_box()
    assert head is not None and head["y"] >= 0


LABELS = (
    """
() => {"""
    + NOSTRUM_MAP_MEASURES
    + """
  const names = [...svg.querySelectorAll('text.name')];
  const counts = [...svg.querySelectorAll('text.unit-txt')];
  const pieces = [...svg.querySelectorAll('.piece')];
  const cards = [...svg.querySelectorAll('.prov > rect.box, .prov-out > rect')];
  const labels = [...names, ...counts];
  const clashes = [];
  labels.forEach((p, i) => labels.slice(i + 1).forEach((q) => {
    if (hit(box(p), box(q))) clashes.push(`${p.textContent}@${where(p)} / ${q.textContent}@${where(q)}`);
  }));
  for (const p of labels) for (const q of pieces) {
    const own = p.classList.contains('unit-txt') && p.previousSibling === q;  // a count on its own piece
    if (!own && hit(box(p), box(q))) clashes.push(`${p.textContent}@${where(p)} / a piece@${where(q)}`);
  }
  for (const p of [...labels, ...pieces]) for (const c of cards) {
    if (where(p) !== where(c) && hit(box(p), box(c))) clashes.push(`${p.textContent || 'a piece'}@${where(p)} / card ${where(c)}`);
  }
  for (const n of names.filter((e) => e.closest('.prov, .prov-out'))) {
    const card = box(n.closest('.prov, .prov-out').querySelector('rect.box, rect'));
    if (box(n).x < card.x - 0.5 || box(n).r > card.r + 0.5) clashes.push(`${n.textContent} leaves its card`);
  }
  const halo = counts.map((e) => getComputedStyle(e)).filter((c) => c.paintOrder.startsWith('stroke') && c.stroke !== 'none' && parseFloat(c.strokeWidth) > 0);
  return {
    province: Math.min(...names.filter((e) => e.closest('.prov')).map(px)),
    sea: Math.min(...names.filter((e) => e.closest('.sea')).map(px)),
    count: Math.min(...counts.map(px)),
    counts: counts.length, haloed: halo.length, clashes,
  };
}
"""
)


@pytest.mark.parametrize("players", [3, 5])
def test_names_and_unit_counts_read_at_11_px_on_a_desktop_without_overlapping(
    new_page, server, shots, players
) -> None:
    """At 100% on a 1280 x 800 screen the provinces' and seas' names and the unit counts are
    about 11 CSS px, each count with a halo of the opposite of its ink; no name or count covers
    another, a unit or another area's card, and each province's name stays on its card."""
    seats = [HUMAN] + [BOT] * (players - 1)
    answer = server.create_table(seats, game=GAME, seed=5)
    page = new_page(viewport={"width": 1280, "height": 800})
    open_table(page, server.url(answer["seats"][0]["link"]))
    page.wait_for_selector(".mn-map .unit-txt")
    found = page.evaluate(LABELS)
    assert found["province"] >= 10.8 and found["sea"] >= 10.8 and found["count"] >= 10.8, found
    assert found["counts"] >= players and found["haloed"] == found["counts"], found
    assert found["clashes"] == [], found["clashes"]
    page.locator(".mn-map").screenshot(path=str(shots / f"boards_nostrum_labels_{players}p.png"))


def test_a_phone_shows_the_map_readable_and_scrolls_it(new_page, server, shots) -> None:
    """At 390 x 844 the map is drawn wider than the screen with its names and counts about 11
    CSS px, inside the board box, which scrolls (the page itself does not); zooming out shows
    the whole map again."""
    answer = server.create_table([HUMAN, BOT, BOT], game=GAME, seed=5)
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    open_table(page, server.url(answer["seats"][0]["link"]))
    page.wait_for_selector(".mn-map .unit-txt")
    found = page.evaluate(LABELS)
    assert found["province"] >= 10.5 and found["count"] >= 10.5, found
    assert found["clashes"] == [], found["clashes"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    board = _rect(page, "#board")
    assert board["right"] <= 390
    scroll = page.evaluate(
        "(() => { const b = document.getElementById('board'); return [b.scrollWidth, b.clientWidth]; })()"
    )
    assert scroll[0] > scroll[1] + 100  # the board box scrolls the map
    full_shot(page, shots / "boards_nostrum_phone_map.png")
    page.click("#zoom-out")
    page.click("#zoom-out")
    assert _rect(page, ".mn-map")["width"] <= board["width"] + 1
