"""The Mesopotamia board module on real engine views: drawing, hidden values, and the interaction
layer (what lights up and which action a click sends), for every kind of pending decision."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browser_helpers import click_hex, full_shot
from playwright.sync_api import Page

import ziggurat
from ziggurat.games.mesopotamia.position import load_position

KINDS = (
    "hut",
    "holy",
    "grow",
    "steal",
    "offering",
    "handoff",
    "exchange",
    "play teleport",
    "play expulsion",
    "play priest",
    "play mana_theft",
    "play land",
    "income",
)
PENDING = ("pile", "volcano", "shares", "offer", "teleport", "expel", "order")

MOUNT = """
async ([view, legal, seat]) => {
  const board = await import('/boards/mesopotamia.js');
  const { t } = await import('/i18n.js');
  document.body.innerHTML = `<div id="hb-board" class="board" style="width:900px;background:#26323c"></div>
    <div id="hb-choice" class="choice panel"></div><div id="hb-status" class="turnbar"></div>
    <div id="hb-players" class="players"></div><div id="hb-general"></div>`;
  const $ = (id) => document.getElementById(id);
  window.sent = [];
  const els = { board: $('hb-board'), choice: $('hb-choice'), status: $('hb-status'), players: $('hb-players'),
                general: $('hb-general') };
  window.hb = board.createBoard(els, { t: () => t, send: (a) => { window.sent.push(a); return true; } });
  window.hb.update({ type: 'state', seat, colour: view.viewer, version: 1, view, legal, log: [], can_undo: false,
                     status: view.phase === 'over' ? 'over' : 'playing', result: null }, null);
}
"""


def _kind(action: str) -> str:
    words = action.split(" ")
    return " ".join(words[:2]) if words[0] == "play" else words[0]


def _collect() -> dict[str, tuple[dict[str, Any], list[str], int]]:
    """First state (as the player to move sees it) for each pending decision and action kind."""
    wanted = set(KINDS) | set(PENDING)
    found: dict[str, tuple[dict[str, Any], list[str], int]] = {}
    for seed in range(60):
        game = ziggurat.load("mesopotamia", players=3)
        s = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(2500):
            if s.is_terminal():
                break
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
                continue
            seat = s.current_player()
            legal = [str(a) for a in s.legal_actions()]
            view = s.view(seat)
            keys = {view["pending"][0]} if view["pending"] else {_kind(a) for a in legal}
            for k in keys & (wanted - set(found)):
                found[k] = (view, legal, seat)
            s.apply(rng.choice(legal))
        if len(s.history()) > 300 and "late" not in found:
            found["late"] = (s.view(0), [], 0)
        if wanted <= set(found) and "late" in found:
            break
    return found


@pytest.fixture(scope="module")
def scenarios() -> dict[str, tuple[dict[str, Any], list[str], int]]:
    return _collect()


def _mount(page: Page, view: dict[str, Any], legal: list[str], seat: int) -> None:
    page.evaluate(MOUNT, [view, legal, seat])


@pytest.fixture
def harness(page: Page, server) -> Page:
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


def _lit(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("#hb-board .lit[data-hex]", "els => els.map(e => e.dataset.hex)"))


def _sent(page: Page) -> list[str]:
    result: list[str] = page.evaluate("window.sent")
    return result


def test_every_scenario_is_found(scenarios):
    assert set(PENDING) <= set(scenarios), sorted(set(PENDING) - set(scenarios))
    assert {"hut", "grow", "steal", "play teleport", "play expulsion", "late"} <= set(scenarios)


def test_board_draws_every_piece(harness, scenarios, shots):
    view, legal, seat = scenarios["late"]
    _mount(harness, view, legal, seat)
    board = harness.locator("#hb-board")
    assert board.locator(".tile").count() == len(view["tiles"])
    assert board.locator(".hut").count() == len(view["huts"])
    assert board.locator(".holy").count() == len(view["holy_places"])
    groups = {(p["colour"], t[0], t[1], t[2], t[3]) for p in view["players"] for t in p["tribes"]}
    assert board.locator(".tribe").count() == len(groups)
    for q, r, kind in view["tiles"]:
        tile = board.locator(f".tile[data-hex='{q},{r}']")
        assert tile.get_attribute("data-type") == kind
    # every piece explains itself in a tooltip
    assert board.locator(".tribe > title").count() == len(groups)
    assert board.locator(".hut > title").count() == len(view["huts"])
    full_shot(harness, shots / "board_late_game.png")


def test_hidden_offering_values_show_only_for_their_owner(harness):
    game = ziggurat.load("mesopotamia", players=3)
    s = game.new_initial_state()
    pos = s.to_position()
    pos["turn_order"] = ["blue", "yellow", "red"]
    pos["pending"] = None
    pos["phase"] = "movement"
    pos["mp"] = 2
    pos["tiles"].append([2, -1, "plains"])
    pos["tiles"].sort()
    for colour, value in (("blue", 6), ("yellow", 4)):
        pl = next(p for p in pos["players"] if p["colour"] == colour)
        pl["offerings"]["unplaced"].remove(value)
        pl["offerings"]["unplaced_count"] -= 1
        pl["offerings"]["placed"] = {"1": value}
        pl["offerings"]["next_id"] = 2
        pos["huts"].append([colour, 2, 2, -1, 1])
    pos["huts"].sort()
    # a hand-set situation (a tile and two huts from nowhere): loaded without conservation
    state = load_position(game, pos, strict=False)
    view = state.view(0)
    _mount(harness, view, [], 0)
    own = harness.locator("#hb-board .hut[data-hut='b2'] > title").text_content()
    other = harness.locator("#hb-board .hut[data-hut='y2'] > title").text_content()
    assert "offering 6 under it" in own
    assert "an offering lies under it" in other and "4" not in other
    assert harness.locator("#hb-board .hut[data-hut='y2'] .offering text").text_content() == "?"
    # the player panel lists the own values, and only counts for the others
    assert "6" in harness.locator("#hb-players [data-colour='blue']").inner_text()
    assert "Offerings to place: 3" in harness.locator("#hb-players [data-colour='yellow']").inner_text()


def test_clicking_a_tribe_lights_its_moves_and_a_lit_hex_sends_the_move(harness, scenarios):
    view, legal, seat = max(scenarios.values(), key=lambda sc: sum(a.startswith("move ") for a in sc[1]))
    _mount(harness, view, legal, seat)
    moves: dict[str, set[str]] = {}
    for a in legal:
        if a.startswith("move "):
            moves.setdefault(a.split(" ")[1], set()).add(a.split(" ")[2])
    tok, dests = next(iter(sorted(moves.items())))
    harness.locator(f"#hb-board [data-tribe='{tok}']").click()
    assert _lit(harness) == dests
    dest = sorted(dests)[0]
    click_hex(harness, dest, root="#hb-board")
    assert _sent(harness) == [f"move {tok} {dest}"]


@pytest.mark.parametrize("kind", ["volcano", "shares", "teleport", "expel"])
def test_pending_board_choices_light_up_and_send(harness, scenarios, shots, kind):
    view, legal, seat = scenarios[kind]
    _mount(harness, view, legal, seat)
    hexes = {a.split(" ")[1] for a in legal}
    assert _lit(harness) == hexes
    assert harness.locator("#hb-choice .prompt").inner_text()
    full_shot(harness, shots / f"board_pending_{kind}.png")
    target = sorted(hexes)[0]
    click_hex(harness, target, root="#hb-board")
    assert _sent(harness) == [next(a for a in legal if a.split(" ")[1] == target)]


@pytest.mark.parametrize("kind", ["pile", "offer", "order"])
def test_pending_panel_choices_are_buttons(harness, scenarios, kind):
    view, legal, seat = scenarios[kind]
    _mount(harness, view, legal, seat)
    buttons = harness.eval_on_selector_all(
        "#hb-choice button[data-action]", "els => els.map(e => e.dataset.action)"
    )
    assert sorted(buttons) == sorted(legal)
    harness.locator(f"#hb-choice button[data-action='{legal[-1]}']").click()
    assert _sent(harness) == [legal[-1]]


@pytest.mark.parametrize("kind", ["hut", "grow", "holy"])
def test_phase_two_groups_are_chosen_on_their_tile(harness, scenarios, kind):
    if kind not in scenarios:
        pytest.fail(f"no {kind} scenario found")
    view, legal, seat = scenarios[kind]
    _mount(harness, view, legal, seat)
    acts = [a for a in legal if a.startswith(kind + " ")]
    where = acts[0].split(" ")[1]
    assert where in _lit(harness)
    click_hex(harness, where, root="#hb-board")
    here = [a for a in legal if a.split(" ")[0] in ("hut", "holy", "grow") and a.split(" ")[1] == where]
    if len(here) == 1 and not _sent(harness):
        pytest.fail("a single action on a lit tile should be sent at once")
    if _sent(harness):
        assert _sent(harness) == here
    else:
        shown = harness.eval_on_selector_all(
            "#hb-choice .selection button[data-action]", "els => els.map(e => e.dataset.action)"
        )
        assert set(here) <= set(shown)


@pytest.mark.parametrize("kind", ["play teleport", "play expulsion", "steal", "offering"])
def test_actions_on_pieces_are_offered_when_the_piece_is_clicked(harness, scenarios, kind):
    if kind not in scenarios:
        pytest.fail(f"no {kind} scenario found")
    view, legal, seat = scenarios[kind]
    _mount(harness, view, legal, seat)
    action = next(a for a in legal if _kind(a) == kind)
    piece = action.split(" ")[2] if kind.startswith("play") else action.split(" ")[1]
    attr = "hut" if kind == "play expulsion" else "tribe"
    harness.locator(f"#hb-board [data-{attr}='{piece}']").click()
    button = harness.locator(f"#hb-choice button[data-action='{action}']")
    button.click()
    assert _sent(harness) == [action]


def test_every_legal_action_has_a_readable_label(harness, scenarios):
    missing = harness.evaluate(
        """async (all) => {
            const board = await import('/boards/mesopotamia.js');
            const { t } = await import('/i18n.js');
            const bad = [];
            for (const [view, legal] of all) for (const a of legal) {
              const label = board.actionLabel(t, a, view);
              if (!label || label === a || /\\{\\w+\\}|meso\\./.test(label)) bad.push([a, label]);
            }
            return bad;
        }""",
        [[v, legal] for v, legal, _ in scenarios.values()],
    )
    assert missing == []


def test_the_board_works_from_the_keyboard(harness, scenarios):
    view, legal, seat = max(scenarios.values(), key=lambda sc: sum(a.startswith("move ") for a in sc[1]))
    _mount(harness, view, legal, seat)
    move = next(a for a in legal if a.startswith("move "))
    _, tok, dest = move.split(" ")
    piece = harness.locator(f"#hb-board [data-tribe='{tok}']")
    assert piece.get_attribute("role") == "button" and piece.get_attribute("tabindex") == "0"
    piece.focus()
    harness.keyboard.press("Enter")
    assert dest in _lit(harness)
    # focus stays on the piece after the board re-rendered
    assert harness.evaluate("document.activeElement.dataset.tribe") == tok
    harness.locator(f"#hb-board .lit[data-hex='{dest}']").focus()
    harness.keyboard.press(" ")
    assert _sent(harness) == [move]
