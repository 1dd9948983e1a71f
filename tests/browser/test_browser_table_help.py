"""The table page's help for a new player: confirmations of final moves and the setting that
turns them off, "why can't I play there?" (ctx.explain), spectators without Send or Undo, the
reason a disabled Undo gives, the bot-thinking indicator, the game-over box and the lobby saying
how the game was won, seats named by empire, the French connection badge, 44 px tap targets.

A server of this module's own creates tables from positions (``allow_positions``), so a test
starts one move before the end of a game; its bots wait 1.5 s, so a bot is seen thinking.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    HEURISTIC,
    HUMAN,
    click_and_wait,
    full_shot,
    open_table,
    state,
    version,
    wait_my_turn,
)
from playwright.sync_api import Page, expect

from endgame_positions import endgame, epochs_attack

ROOT = Path(__file__).resolve().parents[2]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    with start_server(tmp_path_factory.mktemp("pserver"), "bot_delay=1.5, allow_positions=True") as srv:
        yield srv


def _from_position(server: Any, game: str, position: dict[str, Any], human: int) -> dict[str, Any]:
    players = int(position["num_players"])
    seats = [HUMAN if s == human else HEURISTIC for s in range(players)]
    body = {"game": game, "players": players, "seats": seats, "seed": 3, "position": position}
    answer: dict[str, Any] = server.request("POST", "/api/tables", body)
    return answer


def _legal_button(page: Page, action: str) -> Any:
    return page.locator(f'#legal .legal-act[data-action="{action}"]')


def test_a_final_move_asks_first_then_the_game_over_box_says_how_it_was_won_M16_1(
    new_page: Any, pserver: Any, shots: Path
) -> None:
    end = endgame("mesopotamia", 3, 1)
    t = _from_position(pserver, "mesopotamia", end.position, end.seat)
    page = new_page(confirm_final_moves=True)
    open_table(page, pserver.url(t["seats"][end.seat]["link"]))
    assert wait_my_turn(page)
    assert state(page)["final"][end.action] == "ends_turn"
    before = version(page)
    _legal_button(page, end.action).click()
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "ends_turn")
    expect(dialog.locator(".confirm-why")).to_contain_text("ends your turn")
    expect(dialog.locator(".confirm-move")).to_contain_text(end.action)
    page.screenshot(path=str(shots / "table_confirm_final_move.png"))
    page.locator("#confirm-no").click()
    expect(dialog).to_be_hidden()
    assert version(page) == before  # Cancel sent nothing
    _legal_button(page, end.action).click()
    page.locator("#confirm-yes").click()
    page.wait_for_selector("body[data-status='over']")
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result).to_have_attribute("data-condition", "fourth_offering")
    expect(result).to_have_attribute("data-rule", "M16.1")
    expect(result.locator(".outcome-summary")).to_contain_text(
        "delivered all 4 offerings to the temple (M16.1)"
    )
    rows = result.locator(".outcome-scores tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_have_class("winner-row")
    expect(rows.first).to_have_attribute("data-seat", str(end.seat))
    expect(result.locator("thead")).to_contain_text("offerings delivered")
    full_shot(page, shots / "table_game_over_outcome.png")
    # French, then the lobby's finished table says it too
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(result.locator(".outcome-summary")).to_contain_text("a livré ses 4 offrandes au temple (M16.1)")
    page.goto(pserver.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    line = page.locator(f".my-tables li[data-table='{t['table']}'] .outcome")
    expect(line).to_have_attribute("data-rule", "M16.1")
    expect(line).to_contain_text("offrandes")
    page.screenshot(path=str(shots / "lobby_finished_outcome_fr.png"))


def test_an_attack_asks_first_and_the_setting_turns_questions_off_E12_1(new_page: Any, pserver: Any) -> None:
    position, seat, attack = epochs_attack()
    t = _from_position(pserver, "mesopotamia-epochs", position, seat)
    page = new_page(confirm_final_moves=True)
    open_table(page, pserver.url(t["seats"][seat]["link"]))
    assert wait_my_turn(page)
    assert state(page)["final"][attack] == "irreversible"
    before = version(page)
    _legal_button(page, attack).click()
    dialog = page.locator("#confirm")
    expect(dialog).to_have_attribute("data-kind", "irreversible")
    expect(dialog.locator(".confirm-why")).to_contain_text("dice")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert version(page) == before
    setting = page.locator("#confirm-setting")
    expect(setting).to_be_checked()
    setting.uncheck()
    assert page.evaluate("localStorage.getItem('ziggurat.confirm')") == "off"
    click_and_wait(page, _legal_button(page, attack))
    expect(dialog).to_be_hidden()
    assert version(page) > before
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#confirm-setting")).not_to_be_checked()


def test_explain_shows_the_refusal_with_its_rule_or_says_the_move_is_legal(
    new_page: Any, pserver: Any
) -> None:
    end = endgame("mesopotamia", 3, 1)
    t = _from_position(pserver, "mesopotamia", end.position, end.seat)
    page = new_page()
    open_table(page, pserver.url(t["seats"][end.seat]["link"]))
    assert wait_my_turn(page)
    before = version(page)
    tribe = end.action.split(" ")[1]
    answer = page.evaluate("(a) => window.__ziggurat.explain(a)", f"move {tribe} 6,6")
    assert answer["legal"] is False and answer["code"] == "illegal"
    box = page.locator("#error")
    expect(box).to_be_visible()
    expect(box.locator(".reason")).to_contain_text("(")
    assert answer["message"].split(": ")[-1].split(" (")[0] in box.locator(".reason").inner_text()
    answer = page.evaluate("(a) => window.__ziggurat.explain(a)", end.action)
    assert answer["legal"] is True
    expect(box).to_have_class("error-banner info")
    expect(box).to_contain_text("that move is legal")
    assert version(page) == before and page.evaluate("document.body.dataset.status") == "playing"
    # a parse error sends the browser user to the list of legal actions, not to the terminal's help
    page.locator("#notation").fill("fly")
    page.locator("#notation-form button[type=submit]").click()
    expect(box).to_contain_text("unknown action 'fly'")
    expect(box).to_contain_text("the list of legal actions")
    expect(box).not_to_contain_text("--help")
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(box).to_contain_text("la liste des actions possibles")


def test_a_spectator_has_no_send_box_and_no_undo(page: Page, pserver: Any) -> None:
    answer = pserver.create_table([HUMAN, HEURISTIC])
    open_table(page, pserver.url(answer["spectator_link"]))
    expect(page.locator("#notation-form")).to_be_hidden()
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#confirm-setting-row")).to_be_hidden()
    expect(page.locator("#legal")).to_contain_text("You are watching")
    assert page.evaluate("document.body.dataset.role") == "spectator"


def test_a_disabled_undo_says_why(page: Page, pserver: Any, shots: Path) -> None:
    answer = pserver.create_table([HUMAN, HUMAN], seed=11)
    link = next(s["link"] for s in answer["seats"])
    open_table(page, pserver.url(link))
    st = state(page)
    if not st["legal"]:  # the other seat starts: open its link instead
        open_table(page, pserver.url(answer["seats"][1]["link"]))
        st = state(page)
    undo, why = page.locator("#undo"), page.locator("#undo-why")
    expect(undo).to_be_disabled()
    expected = {"nothing": "Nothing to undo yet.", "chance": "Dice were rolled or something was drawn"}
    expect(why).to_be_visible()
    expect(why).to_contain_text(expected[st["undo_block"]])
    assert undo.get_attribute("title") == why.inner_text()
    page.screenshot(path=str(shots / "table_undo_reason.png"))
    quiet = next(a for a in st["legal"] if a not in st["final"] and a.startswith(("move", "pickup", "drop")))
    click_and_wait(page, _legal_button(page, quiet))
    if state(page)["can_undo"]:
        expect(undo).to_be_enabled()
        expect(why).to_be_hidden()
    else:
        expect(why).to_be_visible()
    page.locator(".lang-btn[data-lang='fr']").click()
    if not state(page)["can_undo"]:
        expect(why).not_to_contain_text("undo")


def test_a_thinking_bot_shows_it_in_its_panel(page: Page, pserver: Any, shots: Path) -> None:
    answer = pserver.create_table([HUMAN, HEURISTIC], seed=5)
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    for _ in range(60):
        if page.evaluate("document.body.dataset.thinking") == "1":
            break
        assert wait_my_turn(page, timeout=30000)
        st = state(page)
        ends = [a for a in st["legal"] if st["final"].get(a) == "ends_turn"]
        click_and_wait(page, _legal_button(page, (ends or st["legal"])[0]))
        page.wait_for_function(
            "() => document.body.dataset.thinking === '1' || document.querySelector('#legal .legal-act')"
        )
    badge = page.locator(".thinking-badge[data-seat='1']")
    expect(badge).to_be_visible()
    assert page.locator("#players .player .thinking-badge, #thinking .thinking-badge").count() == 1
    page.wait_for_function(
        "() => /[1-9] s/.test(document.querySelector('.thinking-badge')?.textContent || '')"
        " || document.body.dataset.thinking !== '1'"
    )
    page.screenshot(path=str(shots / "table_bot_thinking.png"))
    page.wait_for_function("() => document.body.dataset.thinking !== '1'", timeout=30000)
    expect(page.locator(".thinking-badge")).to_have_count(0)


def test_mare_nostrum_seats_are_named_by_empire_S2(page: Page, pserver: Any) -> None:
    answer = pserver.create_table([HUMAN, HEURISTIC, HEURISTIC], game="mare-nostrum", seed=3)
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    empire = state(page)["view"]["empires"][0]
    names = {
        "rome": "Rome",
        "greece": "Greece",
        "carthage": "Carthage",
        "egypt": "Egypt",
        "babylon": "Babylon",
    }
    expect(page.locator("#who")).to_contain_text(f"You play {names[empire]}")
    page.goto(pserver.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(f".my-tables li[data-table='{answer['table']}']")).to_contain_text(
        f"Play {names[empire]}"
    )


def test_the_connection_badge_speaks_french(page: Page, pserver: Any) -> None:
    answer = pserver.create_table([HUMAN, HEURISTIC])
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    conn = page.locator("#conn")
    expect(conn).to_have_text("Connected")
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(conn).to_have_text("Connecté")
    expect(page.locator("#undo")).to_have_text("Annuler")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(conn).to_have_text("Connecté")


def _small_targets(page: Page) -> list[str]:
    """Visible buttons, links, legal actions, selects and summaries smaller than 44 px either way."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, a, .legal-act, select, summary')]
            .filter((el) => el.offsetParent !== null && !el.closest('svg, dialog:not([open])'))
            // a link inside a sentence is exempt, as in WCAG 2.5.8: it is as tall as its text
            .filter((el) => !(el.tagName === 'A' && getComputedStyle(el).display === 'inline'))
            .map((el) => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => r.width > 0 && (r.height < 44 || r.width < 44))
            .map(([el, r]) => `${el.tagName}#${el.id}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


def test_tap_targets_are_44px_on_a_phone(new_page: Any, pserver: Any, shots: Path) -> None:
    page = new_page(**PHONE)
    answer = pserver.create_table([HUMAN, HEURISTIC], seed=9)
    page.goto(pserver.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert _small_targets(page) == []
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    assert _small_targets(page) == []
    full_shot(page, shots / "phone_table_tap_targets.png")
    # a refusal's banner does not squeeze the board beside its dismiss button
    page.locator("#notation").fill("fly")
    page.locator("#notation-form button[type=submit]").click()
    expect(page.locator("#error")).to_be_visible()
    assert page.evaluate("document.querySelector('.layout').getBoundingClientRect().width") == 390
    assert _small_targets(page) == []
