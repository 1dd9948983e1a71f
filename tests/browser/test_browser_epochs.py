"""Mesopotamia: Epochs in the browser: a table made in the lobby and played by clicking the map
and the decision panel through whole Epochs; a bots-only game watched to its end; the phone
layout in French; the client's copies of the game data."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

import ziggurat

ROOT = Path(__file__).resolve().parents[2]
GAME = "mesopotamia-epochs"
BOT = {"kind": "bot", "bot": "heuristic"}


def area_point(page: Page, area: str) -> tuple[float, float]:
    """Screen position of a spot of `area` on the map where a click reaches that area."""
    point: list[float] = page.evaluate(
        """(area) => {
            const g = document.querySelector(`.epochs-map .area[data-area="${area}"]`);
            if (!g) throw new Error('no area ' + area);
            const shape = g.querySelector('.shape');
            g.scrollIntoView({block: 'center', inline: 'center'});
            const box = shape.getBBox();
            const m = shape.getScreenCTM();
            const p = shape.ownerSVGElement.createSVGPoint();
            const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
            for (const k of [0, 0.15, 0.3, 0.45]) {
                for (let i = 0; i < 12; i++) {
                    const a = Math.PI / 6 * i;
                    p.x = cx + k * box.width * Math.cos(a); p.y = cy + k * box.height * Math.sin(a);
                    const s = p.matrixTransform(m);
                    const hit = document.elementFromPoint(s.x, s.y);
                    if (hit && hit.closest('[data-area]')?.dataset.area === area) return [s.x, s.y];
                }
            }
            throw new Error('no free spot in ' + area);
        }""",
        area,
    )
    return point[0], point[1]


def settle(page: Page, before: int, timeout: float = 10000) -> None:
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) !== {before} || !document.getElementById('error').hidden",
        timeout=timeout,
    )


def click_area(page: Page, area: str, tap: bool = False) -> None:
    """Click (or tap) an area of the map and wait for the action's answer."""
    before = version(page)
    x, y = area_point(page, area)
    if tap:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    settle(page, before)


def click_button(page: Page, selector: str) -> None:
    before = version(page)
    page.locator(selector).first.click()
    settle(page, before)


def lit_areas(page: Page) -> dict[str, str]:
    """Lit areas of the map and how: place, attack or choice."""
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.epochs-map .area.lit')].map(
            e => [e.dataset.area, [...e.classList].find(c => c.startsWith('lit-')).slice(4)]))"""
    )
    return found


MOUNT = """
async ([msgs, seat]) => {
  const board = await import('/boards/mesopotamia-epochs.js');
  const { t } = await import('/i18n.js');
  document.body.innerHTML = `<div id="hb-board" class="board" style="width:900px"></div>
    <div id="hb-choice" class="choice panel"></div><div id="hb-status" class="turnbar"></div>
    <div id="hb-players" class="players"></div><div id="hb-general" class="general"></div>`;
  const $ = (id) => document.getElementById(id);
  window.sent = [];
  const els = { board: $('hb-board'), choice: $('hb-choice'), status: $('hb-status'), players: $('hb-players'),
                general: $('hb-general') };
  window.hb = board.createBoard(els, { t: () => t, send: (a) => { window.sent.push(a); return true; } });
  msgs.forEach((m, i) => window.hb.update({ type: 'state', seat, colour: m.view.viewer, version: i + 1, view: m.view,
    legal: m.legal, log: m.log, can_undo: false, status: m.view.phase === 'over' ? 'over' : 'playing', result: null },
    { options: {} }));
}
"""

SYMBOLS = ("brooch", "head", "mask", "statue", "urn")


def _scenarios() -> dict[str, Any]:
    """Engine states for each decision of §7 (as the seat deciding sees them), and combats
    (as the attacker sees them, with the state after one roll)."""
    found: dict[str, Any] = {}
    for seed in range(40):
        game = ziggurat.load(GAME, players=3 + seed % 3)
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            who = s.current_player()
            pend = s.view(None)["pending"]
            if who == ziggurat.CHANCE:
                if pend and pend[0] == "combat" and "combat" not in found:
                    seat = SYMBOLS.index(
                        next(p["symbol"] for p in s.view(None)["players"]
                             for c in p["cards"] if c["people"] == s.view(None)["round"]["people"])
                    )  # fmt: skip
                    roll = ziggurat.sample_chance(s, rng)
                    after = s.clone()
                    after.apply(roll)
                    found["combat"] = (s.view(seat), after.view(seat), str(roll), seat)
                    s = after
                    continue
                s.apply(ziggurat.sample_chance(s, rng))
                continue
            legal = [str(a) for a in s.legal_actions()]
            kind = pend[0] if pend else "place"
            if kind not in found and (kind != "place" or len(legal) > 4):
                found[kind] = (s.view(who), legal, who)
            s.apply(rng.choice(legal))
        if {"keep", "landing", "displace", "place", "combat"} <= set(found):
            break
    return found


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Any]:
    return _scenarios()


@pytest.fixture
def harness(page: Page, server) -> Page:
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


@pytest.mark.parametrize("kind", ["landing", "displace", "place"])
def test_map_choices_light_up_and_a_click_sends_them(harness, scenarios, shots, kind):
    """D2, D3, D4: the legal areas light up; clicking one sends its action."""
    view, legal, seat = scenarios[kind]
    harness.evaluate(MOUNT, [[{"view": view, "legal": legal, "log": []}], seat])
    targets = {a.split(" ")[1]: a for a in legal if a.split(" ")[0] in ("land", "displace", "place")}
    assert set(lit_areas(harness)) == set(targets)
    assert harness.locator("#hb-choice .prompt").inner_text()
    if kind == "displace":
        expect(
            harness.locator(f"#hb-board .area.displacing[data-area='{view['pending'][1]}']")
        ).to_have_count(1)
    full_shot(harness, shots / f"epochs_pending_{kind}.png")
    area = sorted(targets)[0]
    x, y = area_point(harness, area)
    harness.mouse.click(x, y)
    assert harness.evaluate("window.sent") == [targets[area]]


def test_keep_or_pass_panel_offers_exactly_the_legal_choices(harness, scenarios):
    """D1: the drawn card is shown to its drawer, with keep and one button per receiver."""
    view, legal, seat = scenarios["keep"]
    harness.evaluate(MOUNT, [[{"view": view, "legal": legal, "log": []}], seat])
    buttons = harness.eval_on_selector_all(
        "#hb-choice .keep-panel button[data-action]", "els => els.map(e => e.dataset.action)"
    )
    assert sorted(buttons) == sorted(legal)
    expect(harness.locator("#hb-choice .keep-panel .people-card")).to_have_attribute(
        "data-people", view["pending"][1]
    )
    harness.locator(f"#hb-choice button[data-action='{legal[-1]}']").click()
    assert harness.evaluate("window.sent") == [legal[-1]]


def test_combat_shows_the_attacker_and_the_roll_with_its_outcome(harness, scenarios, shots):
    """E12: the attacked area and the attacking tribe during the combat, then the dice of the
    roll and what it did, as the engine decided it."""
    before, after, roll, seat = scenarios["combat"]
    area = before["pending"][1]
    sym = SYMBOLS[seat]
    place = {"ply": 1, "colour": sym, "text": f"place {area}", "sentence": ""}
    rolled = {"ply": 2, "colour": None, "text": roll, "sentence": ""}
    harness.evaluate(MOUNT, [[{"view": before, "legal": [], "log": [place]}], seat])
    expect(harness.locator(f"#hb-board .area.combat[data-area='{area}']")).to_have_count(1)
    expect(harness.locator("#hb-board .tribe.attacker")).to_have_count(1)
    harness.evaluate(MOUNT, [[{"view": before, "legal": [], "log": [place]},
                              {"view": after, "legal": [], "log": [place, rolled]}], seat])  # fmt: skip
    attacker = before["round"]["people"]
    defender = next(p for a, p, _ in before["areas"] if a == area)
    lost = {p: after["peoples"][p]["removed"] - before["peoples"][p]["removed"] for p in (attacker, defender)}
    result = harness.locator("#hb-choice .attack-box .roll-result").inner_text()
    if lost[attacker] and lost[defender]:
        assert "each side loses a tribe" in result
    elif lost[defender]:
        assert (
            "lose a tribe" in result
            and harness.locator("#hb-choice .attack-box .roll.w-attacker").count() == 1
        )
    else:
        assert (
            "lose a tribe" in result
            and harness.locator("#hb-choice .attack-box .roll.w-defender").count() == 1
        )
    kept = harness.locator("#hb-choice .attack-box .die.kept")
    expect(kept).to_have_count(2)
    full_shot(harness, shots / "epochs_pending_combat.png")


def test_client_data_files_are_the_engines():
    """The browser draws the map and the cards from copies of the engine's data files (§9)."""
    engine = ROOT / "src/ziggurat/games/mesopotamia_epochs"
    client = ROOT / "src/ziggurat/server/static/boards/mesopotamia-epochs"
    for name in ("map.json", "peoples.json"):
        assert json.loads((client / name).read_text()) == json.loads((engine / name).read_text()), name


def test_lobby_table_played_by_clicking_through_two_epochs(page, server, shots):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", GAME)
    page.select_option("#players", "3")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot:heuristic")
    page.select_option("#seat-2", "bot:heuristic")
    page.click("#advanced summary")
    page.fill("#seed", "12")
    page.click("#create")
    page.click("[data-open='seat-0']")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#who")).to_have_text("You play Brooch")
    expect(page.locator(".epochs-map .area")).to_have_count(38)  # every area but the sea
    expect(page.locator(".epochs-map .difficult-mark")).to_have_count(17)  # §3.3
    expect(page.locator(".epochs-map .double-mark")).to_have_count(9)  # the seed's nine

    rng = random.Random(3)
    seen: dict[str, int] = {"board": 0, "keep": 0, "pass": 0, "stop": 0, "attack": 0, "dice": 0, "again": 0}
    shot: set[str] = set()
    actions = 0
    while wait_my_turn(page, timeout=30000):
        st = state(page)
        view: dict[str, Any] = st["view"]
        if view["epoch"] >= 3:
            break
        legal: list[str] = st["legal"]
        pending = view["pending"]
        if pending and pending[0] == "keep":
            # the secret choice in its panel: the drawn card is shown to its drawer only
            expect(page.locator("#choice .keep-panel .people-card")).to_be_visible()
            if "keep-panel" not in shot:
                shot.add("keep-panel")
                full_shot(page, shots / "epochs_keep_or_pass.png")
            if "keep" in legal and (seen["keep"] == 0 or rng.random() < 0.5):
                click_button(page, "#choice .keep-panel button.keep")
                seen["keep"] += 1
            else:
                target = rng.choice([a for a in legal if a.startswith("pass ")])
                click_button(page, f"#choice .keep-panel button[data-action='{target}']")
                seen["pass"] += 1
        else:
            lit = lit_areas(page)
            targets = [a.split(" ")[1] for a in legal if a.split(" ")[0] in ("place", "land", "displace")]
            assert sorted(lit) == sorted(targets), (lit, legal)
            attacks = [a for a, how in lit.items() if how == "attack"]
            pool = (view["round"] or {}).get("pool", 0)
            again = page.locator("#choice button.attack-again")
            if again.count() and rng.random() < 0.7:
                # the attacking tribe was lost and the area still holds: attack again (E12.8)
                if "again" not in shot:
                    shot.add("again")
                    full_shot(page, shots / "epochs_attack_again.png")
                click_button(page, "#choice button.attack-again")
                seen["again"] += 1
            elif "stop" in legal and (pool <= 2 and view["epoch"] == 2 or rng.random() < 0.08):
                click_button(page, "#choice button.stop")
                seen["stop"] += 1
            elif targets:
                area = rng.choice(attacks) if attacks and rng.random() < 0.8 else rng.choice(targets)
                if area in attacks:
                    seen["attack"] += 1
                if "placing" not in shot and lit:
                    shot.add("placing")
                    full_shot(page, shots / "epochs_placing.png")
                click_area(page, area)
                seen["board"] += 1
            else:
                click_button(page, f"#legal button[data-action='{legal[0]}']")
        expect(page.locator("#error")).to_be_hidden()
        if page.locator("#choice .attack-box .roll").count():
            seen["dice"] += 1
            if "dice" not in shot:
                shot.add("dice")
                full_shot(page, shots / "epochs_attack_dice.png")
        actions += 1
        assert actions < 300, "two Epochs did not end"

    st = state(page)
    assert st["view"]["epoch"] >= 3 or st["status"] == "over", st["view"]["epoch"]
    # the count of placements the human gets depends on the bots' play: ask for a handful
    assert seen["board"] >= 5 and seen["keep"] + seen["pass"] >= 1 and seen["stop"] >= 1, seen
    assert seen["attack"] >= 1 and seen["dice"] >= 1 and seen["again"] >= 1, seen
    # the panels: VP track with a marker per player, the cards of the Epoch, the log in sentences
    expect(page.locator(".vp-track .vp-marker")).to_have_count(3)
    expect(page.locator("#general > .card-grid .people-card")).to_have_count(5)
    expect(page.locator("#log-list li").first).to_contain_text("Brooch is dealt the")
    expect(page.locator("#log-list")).to_contain_text("score")
    full_shot(page, shots / "epochs_after_two_epochs.png")

    # the same table in French
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#status")).to_contain_text("Époque")
    expect(page.locator("#log-list li").first).to_contain_text("Broche reçoit les")
    expect(page.locator(".vp-box h3")).to_have_text("Points de victoire")
    full_shot(page, shots / "epochs_fr.png")
    page.click(".lang-btn[data-lang='en']")


def test_bots_only_game_watched_to_the_end(page, server, shots):
    answer = server.create_table([BOT, BOT, BOT], seed=5, game=GAME)
    page.goto(server.url(answer["spectator_link"]))
    # the bots start at once: the first state may wait behind a burst of them on a busy machine
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    expect(page.locator("#who")).to_have_text("Spectator")
    expect(page.locator("#choice")).to_contain_text("You are watching this game.")
    page.wait_for_selector("body[data-status='over']", timeout=600_000)  # a net for a hang
    st = state(page)
    assert st["seat"] is None and st["legal"] == [] and st["view"]["phase"] == "over"
    assert len(st["result"]) == 3 and abs(sum(st["result"]) - 1) < 1e-9
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator(".winner")).to_contain_text("VP")
    expect(result.locator(".ranking li")).to_have_count(3)
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#choice")).to_be_hidden()
    expect(page.locator("#log-list li").last).to_contain_text("Game over")
    # every Epoch's cards are public at the end (E2.3): no face-down card is left
    expect(page.locator("#players .people-chip.hidden-card")).to_have_count(0)
    best = max(range(3), key=lambda i: (st["result"][i], st["view"]["players"][i]["vp"]))
    top = st["view"]["players"][best]
    expect(result.locator(".winner")).to_contain_text(f"{top['vp']} VP")
    full_shot(page, shots / "epochs_game_over.png")


def test_phone_layout_in_french(new_page, server, shots):
    answer = server.create_table([{"kind": "human"}, BOT, BOT], seed=2, game=GAME)
    page = new_page(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True, has_touch=True)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    expect(page.locator("#status")).to_contain_text("Époque 1 sur 5")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()  # the map, wider, scrolls inside the board box
    assert box is not None and box["x"] + box["width"] <= 390 and box["width"] > 300
    drawn = page.locator(".epochs-map").bounding_box()
    assert drawn is not None and drawn["width"] > box["width"]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "epochs_phone.png"))
    # a tap on a lit area plays there
    st = state(page)
    targets = [a.split(" ")[1] for a in st["legal"] if a.startswith(("place ", "land ", "displace "))]
    if not targets:  # a keep or pass first: take it from the panel
        click_button(page, "#choice .keep-panel button")
        assert wait_my_turn(page)
        st = state(page)
        targets = [a.split(" ")[1] for a in st["legal"] if a.startswith(("place ", "land ", "displace "))]
    before = version(page)
    entries = page.locator("#log-list li").count()
    click_area(page, targets[0], tap=True)
    assert version(page) > before
    expect(page.locator("#error")).to_be_hidden()
    assert page.locator("#log-list li").count() > entries
    expect(page.locator("#log-list li").last).not_to_contain_text("place ")  # a sentence, not notation
    full_shot(page, shots / "epochs_phone_full.png")
