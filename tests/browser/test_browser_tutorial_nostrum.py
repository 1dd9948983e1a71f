"""Mare Nostrum's tutorial in the browser: a newcomer completes every lesson by clicking (in
English), the trade lesson in French, and a wrong move is answered with the step's hint."""

from __future__ import annotations

from browser_helpers import full_shot
from playwright.sync_api import expect
from tutorial_helpers import (
    click_and_wait_answer,
    complete_lesson,
    complete_tutorial,
    current,
    open_tutorial,
)

from ziggurat.tutorials import load_tutorial

GAME = "mare-nostrum"


def test_lobby_links_to_the_nostrum_tutorial(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    link = page.locator(f"#tutorial-links a[data-tutorial='{GAME}']")
    expect(link).to_have_text("Tutorial: Mare Nostrum: Empires")


def test_the_notation_example_is_in_this_games_notation(page, server):
    open_tutorial(page, server.base, GAME, "buy_place")
    legal = current(page)["table"]["legal"]
    placeholder = page.locator("#notation").get_attribute("placeholder") or ""
    assert placeholder.startswith("e.g. ")
    assert placeholder.removeprefix("e.g. ") in legal


def test_newcomer_completes_every_nostrum_lesson_N6(page, server, shots):
    done = complete_tutorial(page, server.base, GAME)
    assert done == [lesson.id for lesson in load_tutorial(GAME).lessons]
    # the last lesson is a win: five heroes and wonders (N6.2)
    assert current(page)["table"]["status"] == "over"
    expect(page.locator("#done")).to_contain_text("Rome owns five tiles and wins.")
    expect(page.locator("#lessons .lesson-link.completed")).to_have_count(len(done))
    full_shot(page, shots / "tutorial_nostrum_won.png")


def test_trade_lesson_in_french_N2_3(new_page, server, shots):
    page = new_page(locale="fr-FR")
    open_tutorial(page, server.base, GAME, "trade")
    expect(page.locator("#lesson-title")).to_have_text("Leçon 2 sur 8 : Le Commerce")
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='token b 4']"))
    # a legal offer that is not the one asked: the hint, in French, and nothing played
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='offer gold']"))
    expect(page.locator("#feedback")).to_contain_text("Offrez un mouton.")
    assert current(page)["step"] == 1
    full_shot(page, shots / "tutorial_nostrum_fr_hint.png")
    click_and_wait_answer(page, page.locator("#restart"))
    complete_lesson(page, load_tutorial(GAME).lesson("trade"))
    expect(page.locator("#done")).to_contain_text("reviennent à leurs propriétaires")
    full_shot(page, shots / "tutorial_nostrum_fr_done.png")


def test_military_lesson_shows_the_battle_N4_7(page, server, shots):
    open_tutorial(page, server.base, GAME, "military")
    full_shot(page, shots / "tutorial_nostrum_military.png")
    to_move = page.locator("#players .mn-player.to-move")
    expect(to_move).to_have_count(1)  # the learner, while the lesson goes on
    complete_lesson(page, load_tutorial(GAME).lesson("military"))
    assert current(page)["table"]["status"] != "over"
    assert current(page)["table"]["view"]["to_move"] >= 0  # a real game would go on
    expect(to_move).to_have_count(0)  # nothing moves after a lesson
    expect(page.locator("#log-list li").first).to_be_visible()
    full_shot(page, shots / "tutorial_nostrum_military_done.png")
