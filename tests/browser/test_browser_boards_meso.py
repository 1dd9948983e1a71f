"""The Mesopotamia board read by a player: a click on a hex that is not lit asks the engine why
(the selected tribe's step there, M2; a pending volcano's hex, D14), and at a phone's size the
board's buttons are 44 px tap targets; the Epochs board's too."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from browser_helpers import click_hex, full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

import ziggurat

MOUNT = """
async ([game, view, legal, seat]) => {
  const board = await import(`/boards/${game}.js`);
  const { t } = await import('/i18n.js');
  document.body.innerHTML = `<div id="hb-board" class="board" style="max-width:900px;background:#26323c"></div>
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
  window.hb.update({ type: 'state', seat, colour: view.viewer, version: 1, view, legal, log: [], can_undo: false,
                     status: 'playing', result: null }, { options: {} });
}
"""


def _found(game_id: str, players: int, want: Any) -> tuple[Any, int]:
    for seed in range(30):
        rng = random.Random(seed)
        s = ziggurat.load(game_id, players=players).new_initial_state()
        for _ in range(3000):
            if s.is_terminal():
                break
            who = s.current_player()
            if who >= 0 and want(s, who):
                return s, who
            if who == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                s.apply(rng.choice(list(s.legal_actions())))
    raise LookupError(game_id)


def _moves(s: Any) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a in s.legal_actions():
        w = a.split(" ")
        if w[0] == "move":
            out.setdefault(w[1], set()).add(w[2])
    return out


@pytest.fixture
def harness(page: Page, server) -> Page:
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


def _mount(page: Page, game: str, s: Any, seat: int | None) -> None:
    legal = [str(a) for a in s.legal_actions()] if seat is not None else []
    page.evaluate(MOUNT, [game, s.view(seat), legal, seat])


def test_an_unlit_hex_asks_why_the_selected_tribe_may_not_go_there_M2(harness: Page) -> None:
    s, seat = _found(
        "mesopotamia",
        3,
        lambda s, who: s.view(who)["phase"] == "movement" and s.view(who)["pending"] is None and _moves(s),
    )
    _mount(harness, "mesopotamia", s, seat)
    tok, dests = sorted(_moves(s).items())[0]
    harness.locator(f"#hb-board [data-tribe='{tok}']").click()
    tiles = [f"{q},{r}" for q, r, _kind in s.view(seat)["tiles"]]
    key = next(k for k in tiles if k not in dests and k != tok.split("@")[1].rstrip("*"))
    click_hex(harness, key, root="#hb-board")
    assert harness.evaluate("window.explained") == [f"move {tok} {key}"]
    assert harness.evaluate("window.sent") == []
    with pytest.raises(ziggurat.IllegalAction) as refused:
        s.clone().apply(f"move {tok} {key}", seat)
    assert "(M" in str(refused.value) or "(D" in str(refused.value) or "(R" in str(refused.value)


def test_an_unlit_hex_asks_about_the_pending_volcano_D14(harness: Page) -> None:
    s, seat = _found("mesopotamia", 3, lambda s, who: (s.view(who)["pending"] or [None])[0] == "volcano")
    _mount(harness, "mesopotamia", s, seat)
    legal = {str(a) for a in s.legal_actions()}
    lit = set(harness.eval_on_selector_all("#hb-board .lit[data-hex]", "els => els.map(e => e.dataset.hex)"))
    key = next(f"{q},{r}" for q, r, _k in s.view(seat)["tiles"] if f"{q},{r}" not in lit)
    click_hex(harness, key, root="#hb-board")
    assert harness.evaluate("window.explained") == [f"volcano {key}"]
    assert f"volcano {key}" not in legal


def test_intent_of_a_click_on_the_mesopotamia_board(harness: Page) -> None:
    cases = harness.evaluate(
        """async () => {
            const { intentOf } = await import('/boards/mesopotamia.js');
            return [
              intentOf({ phase: 'movement', pending: null }, '1,-1', 'b@0,0'),
              intentOf({ phase: 'movement', pending: null }, '1,-1', null),
              intentOf({ phase: 'action', pending: ['shares'] }, '2,0', null),
              intentOf({ phase: 'action', pending: ['teleport', 0, [0, 0], 0, 0] }, '2,0', null),
              intentOf({ phase: 'action', pending: null }, '2,0', 'b@0,0'),
            ];
        }"""
    )
    assert cases == ["move b@0,0 1,-1", None, "share 2,0", "to 2,0", None]


@pytest.mark.parametrize("game", ["mesopotamia", "mesopotamia-epochs"])
def test_phone_tap_targets_are_44_px(new_page, server, shots, game: str) -> None:
    if game == "mesopotamia":
        s, seat = _found(
            game, 3, lambda s, who: len(list(s.legal_actions())) >= 3 and s.view(who)["phase"] == "action"
        )
    else:
        s, seat = _found(
            game, 3, lambda s, who: s.view(who)["pending"] is None and s.view(who)["phase"] == "strategy"
        )
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    _mount(page, game, s, seat)
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('#hb-choice button')).minHeight === '44px'"
    )
    sizes = page.eval_on_selector_all(
        "#hb-choice button",
        "els => els.filter(e => e.offsetParent).map(e => [e.dataset.action || e.textContent,"
        " e.getBoundingClientRect().height, e.getBoundingClientRect().width])",
    )
    assert sizes
    small = [x for x in sizes if x[1] < 44 or x[2] < 44]
    assert not small, small
    full_shot(page, shots / f"boards_phone_{game}.png")


def test_an_unlit_hex_shows_the_engines_refusal_on_a_live_table_M2(page: Page, server) -> None:
    """Phase I on a live table: a tribe selected, a click on a hex it cannot reach shows the
    engine's reason in the refusal box; nothing is played."""
    answer = server.create_table(
        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}], seed=4
    )
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    st = state(page)
    moves: dict[str, set[str]] = {}
    for a in st["legal"]:
        w = a.split(" ")
        if w[0] == "move":
            moves.setdefault(w[1], set()).add(w[2])
    tok, dests = sorted(moves.items())[0]
    page.locator(f".board-svg [data-tribe='{tok}']").first.click()
    here = tok.split("@")[1].rstrip("*")
    key = next(
        f"{q},{r}" for q, r, _k in st["view"]["tiles"] if f"{q},{r}" not in dests and f"{q},{r}" != here
    )
    before = version(page)
    board_top = page.locator(".board-svg").bounding_box()["y"]
    click_hex(page, key)
    box = page.locator("#error")
    expect(box).to_be_visible()
    assert page.locator(".board-svg").bounding_box()["y"] == board_top  # the refusal does not push the map
    expect(box).to_contain_text(f"move {tok} {key}")
    expect(box.locator(".reason")).to_contain_text("(")
    assert version(page) == before


def test_a_click_on_another_own_tribe_selects_it_even_where_the_selected_one_could_go_M2_3(
    harness: Page,
) -> None:
    """Steps may be spread over any tribes (M2.3): with one tribe selected, a click on another of
    the player's tribes selects that one, even on a hex the first could step to; nothing moves."""

    def other_on_a_target(s: Any, who: int) -> bool:
        moves = _moves(s)
        return s.view(who)["phase"] == "movement" and any(
            other != tok and other.split("@")[1].rstrip("*") in dests
            for tok, dests in moves.items()
            for other in moves
        )

    s, seat = _found("mesopotamia", 3, other_on_a_target)
    _mount(harness, "mesopotamia", s, seat)
    moves = _moves(s)
    tok, other = next(
        (tok, other)
        for tok, dests in sorted(moves.items())
        for other in sorted(moves)
        if other != tok and other.split("@")[1].rstrip("*") in dests
    )
    harness.locator(f"#hb-board [data-tribe='{tok}']").click()
    expect(harness.locator(f"#hb-board [data-tribe='{tok}']")).to_have_class(re.compile(r"\bselected\b"))
    harness.locator(f"#hb-board [data-tribe='{other}']").click()
    expect(harness.locator(f"#hb-board [data-tribe='{other}']")).to_have_class(re.compile(r"\bselected\b"))
    expect(harness.locator(f"#hb-board [data-tribe='{tok}']")).not_to_have_class(re.compile(r"\bselected\b"))
    assert harness.evaluate("window.sent") == []


UPDATE = """
([view, legal, version]) => window.hb.update({ type: 'state', seat: view.viewer, colour: view.viewer, version,
  view, legal, log: [], can_undo: false, status: 'playing', result: null }, { options: {} })
"""


@pytest.mark.parametrize("verb", ["pickup", "move"])
def test_the_tribe_that_acted_stays_selected_M3_1(harness: Page, verb: str) -> None:
    """A tribe that picks up a resource (free, M2.8, M3.1) or steps (M2) is still selected once
    the new position comes, under its new token: the player goes on with it."""
    s, seat = _found(
        "mesopotamia",
        3,
        lambda s, who: (
            s.view(who)["phase"] == "movement" and any(a.startswith(f"{verb} ") for a in s.legal_actions())
        ),
    )
    _mount(harness, "mesopotamia", s, seat)
    action = next(a for a in sorted(s.legal_actions()) if a.startswith(f"{verb} "))
    tok = action.split(" ")[1]
    harness.locator(f"#hb-board [data-tribe='{tok}']").click()
    if verb == "move":
        click_hex(harness, action.split(" ")[2], root="#hb-board")
    else:
        harness.locator(f"#hb-choice button[data-action='{action}']").click()
    assert harness.evaluate("window.sent") == [action]
    s.apply(action)
    harness.evaluate(UPDATE, [s.view(seat), [str(a) for a in s.legal_actions()], 2])
    colour, rest = tok.split("@")
    key = action.split(" ")[2] if verb == "move" else rest.rstrip("*")
    cargo = {"wood": "w", "stone": "s"}[action.split(" ")[2]] if verb == "pickup" else colour[1:]
    expected = f"{colour[0]}{cargo}@{key}{'*' if rest.endswith('*') else ''}"
    selected = harness.eval_on_selector_all(
        "#hb-board .tribe.selected", "els => els.map(e => e.dataset.tribe)"
    )
    assert selected == [expected]


def _boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const b = e.getBoundingClientRect();"
        " return { left: b.left, top: b.top, right: b.right, bottom: b.bottom }; })",
    )


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def test_badges_markers_and_coordinates_do_not_cover_each_other(harness: Page, shots) -> None:
    """A tile with two huts (an offering under the owner's), a holy place next door, two alike
    tribes and loose wood: the tribes' count badge, the offering's value, the holy place, the
    tile's coordinates and the loose resources' badge are all in sight."""
    s = ziggurat.load("mesopotamia", players=3).new_initial_state()
    view = s.view(0)
    (q, r, _), (hq, hr, _) = [t for t in view["tiles"] if t[2] not in ("temple", "volcano")][:2]
    view["huts"] = [["blue", 1, q, r, 5], ["red", 1, q, r, 0]]
    view["holy_places"] = [[hq, hr, "blue"]]
    view["loose"] = [[q, r, 2, 0], [hq, hr, 1, 0]]
    blue = next(p for p in view["players"] if p["colour"] == "blue")
    blue["tribes"] = [[q, r, "", False], [q, r, "", False], [hq, hr, "w", False]]
    blue["offerings"]["placed"] = {"5": 7}
    harness.evaluate(MOUNT, ["mesopotamia", view, [], None])
    full_shot(harness, shots / "boards_meso_crowded_tile.png")
    tile = f"#hb-board .tile-pieces[data-hex='{q},{r}']"
    holy_tile = f"#hb-board .tile-pieces[data-hex='{hq},{hr}']"
    [count] = _boxes(harness, f"{tile} .tribe .count")
    [offering] = _boxes(harness, f"{tile} .hut .offering")
    assert not _overlap(count, offering)
    for where in (f"{q},{r}", f"{hq},{hr}"):
        [coord] = _boxes(harness, f"#hb-board .tile[data-hex='{where}'] .coord")
        pieces = f"#hb-board .tile-pieces[data-hex='{where}'] .piece"
        for piece in _boxes(harness, f"{pieces} polygon, {pieces} path, {pieces} rect:not(.hit)"):
            assert not _overlap(coord, piece)
    [holy] = _boxes(harness, f"{holy_tile} .piece.holy")
    [loose] = _boxes(harness, f"{holy_tile} .loose > rect")
    for piece in _boxes(harness, f"{holy_tile} .tribe path"):
        assert not _overlap(loose, piece)
        assert not _overlap(holy, piece)


def test_two_growths_with_the_same_hut_read_apart_M11_1(harness: Page) -> None:
    """Two growth groups on one tile with one hut differ only by their tribes (M8.2, M11.1): the
    labels name the tribes, so the player can tell them apart."""
    labels = harness.evaluate(
        """async () => {
            const { actionLabel } = await import('/boards/mesopotamia.js');
            const { t } = await import('/i18n.js');
            return ['grow 1,0 b1 b@1,0 b@1,0', 'grow 1,0 b1 b@1,0 bw@1,0'].map((a) => actionLabel(t, a, null));
        }"""
    )
    assert labels[0] != labels[1]
    assert "wood" in labels[1] and "wood" not in labels[0]


def test_a_refused_step_leaves_the_tribe_selected_M2(harness: Page) -> None:
    """A step the server refuses (the refusal box explains why) leaves the tribe selected, its
    steps still lit: no new position came, so the player's choice stands. A hut's selection
    stays too; the next position, once an action is played, ends a selection as before."""
    s, seat = _found(
        "mesopotamia",
        3,
        lambda s, who: s.view(who)["phase"] == "movement" and s.view(who)["pending"] is None and _moves(s),
    )
    _mount(harness, "mesopotamia", s, seat)
    tok, dests = sorted(_moves(s).items())[0]
    dest = sorted(dests)[0]
    harness.locator(f"#hb-board [data-tribe='{tok}']").click()
    click_hex(harness, dest, root="#hb-board")
    assert harness.evaluate("window.sent") == [f"move {tok} {dest}"]
    # the server answers with a refusal: no new position
    selected = "els => els.map(e => e.dataset.tribe)"
    assert harness.eval_on_selector_all("#hb-board .tribe.selected", selected) == [tok]
    assert dest in harness.eval_on_selector_all(
        "#hb-board .lit[data-hex]", "els => els.map(e => e.dataset.hex)"
    )
    expect(harness.locator("#hb-choice .selection")).to_be_visible()
    # the same position again (a reconnection, a refreshed table) keeps it as well
    harness.evaluate(UPDATE, [s.view(seat), [str(a) for a in s.legal_actions()], 1])
    assert harness.eval_on_selector_all("#hb-board .tribe.selected", selected) == [tok]
    # an action played: the position after it ends the selection unless the tribe goes on
    harness.locator("#hb-choice button[data-action='end']").click()
    assert harness.evaluate("window.sent")[-1] == "end"
    s.apply("end")
    harness.evaluate(UPDATE, [s.view(seat), [str(a) for a in s.legal_actions()], 2])
    assert harness.eval_on_selector_all("#hb-board .tribe.selected", selected) == []
