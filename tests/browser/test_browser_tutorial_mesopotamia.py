"""Mesopotamia's tutorial in the browser: a newcomer finds it in the lobby and completes every
lesson by clicking (in English), one lesson in French, one by clicking the board itself; a
legal move the step does not ask for shows the step's hint, an illegal one the engine's reason,
and a lesson can be restarted."""

from __future__ import annotations

from browser_helpers import click_hex, full_shot
from playwright.sync_api import expect
from tutorial_helpers import (
    click_and_wait_answer,
    complete_lesson,
    complete_tutorial,
    current,
    open_tutorial,
)

from ziggurat.tutorials import load_tutorial

GAME = "mesopotamia"


def test_lobby_links_to_the_tutorial(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    link = page.locator("#tutorial-links a[data-tutorial='mesopotamia']")
    expect(link).to_have_text("Tutorial: Mesopotamia")
    link.click()
    page.wait_for_selector("body[data-ready='1']")
    assert page.url.endswith("/tutorial/mesopotamia#lesson=movement")
    expect(page.locator("#lesson-title")).to_have_text("Lesson 1 of 8: Moving and discovering")


def test_newcomer_completes_every_lesson_in_english(page, server, shots):
    done = complete_tutorial(page, server.base, GAME)
    assert done == [lesson.id for lesson in load_tutorial(GAME).lessons]
    # the last lesson is the win: four offerings delivered (M16.1)
    assert current(page)["table"]["status"] == "over"
    expect(page.locator("#done")).to_contain_text("you win (M16.1)")
    expect(page.locator("#lessons .lesson-link.completed")).to_have_count(len(done))
    full_shot(page, shots / "tutorial_mesopotamia_won.png")


def test_one_lesson_in_french(new_page, server, shots):
    page = new_page(locale="fr-FR")
    open_tutorial(page, server.base, GAME, "carry")
    expect(page.locator("#lesson-title")).to_have_text("Leçon 2 sur 8 : Porter et voler")
    expect(page.locator("#step .say")).to_have_text(
        "Votre tribu en -1,0 est sur une forêt où traîne du bois. Ramassez un bois (M3.2)."
    )
    # a legal move that is not the step's: the hint, in French
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='move b@1,0 1,1']"))
    expect(page.locator("#feedback")).to_contain_text("Ramassez le bois en -1,0.")
    full_shot(page, shots / "tutorial_mesopotamia_fr_hint.png")
    complete_lesson(page, load_tutorial(GAME).lesson("carry"))
    expect(page.locator("#done")).to_have_text(
        "Deux de vos tribus portent maintenant du bois : le bois sert à bâtir des huttes en phase II (M9)."
    )
    expect(page.locator("#choice .prompt")).to_have_text("La leçon est finie.")
    expect(page.locator("#next")).to_have_text("Leçon suivante")
    # the log is written from the message catalogues, in French too
    expect(page.locator("#log-list li").first).to_be_visible()
    full_shot(page, shots / "tutorial_mesopotamia_fr_done.png")


def test_language_switch_changes_the_lesson_texts(page, server):
    open_tutorial(page, server.base, GAME)
    expect(page.locator("#step .say")).to_contain_text("Move a blue tribe from 1,-1")
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(page.locator("#step .say")).to_contain_text("Déplacez une tribu bleue de 1,-1")
    expect(page.locator("#restart")).to_have_text("Recommencer la leçon")


def test_wrong_and_illegal_moves_then_restart_M2_4(page, server, shots):
    open_tutorial(page, server.base, GAME)
    start = current(page)
    # legal, but not what step 1 asks: the hint, nothing played
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='move b@1,-1 0,0']"))
    expect(page.locator("#feedback")).to_have_attribute("data-kind", "hint")
    expect(page.locator("#feedback .hint")).to_have_text("Move a tribe from 1,-1 to 1,0.")
    assert current(page)["step"] == 0 and current(page)["table"]["view"] == start["table"]["view"]
    full_shot(page, shots / "tutorial_mesopotamia_hint.png")
    # illegal (a volcano), typed as the table's notation box allows: the engine's reason
    page.fill("#notation", "move b@1,-1 0,-1")
    click_and_wait_answer(page, page.locator("#notation-form button[type=submit]"))
    expect(page.locator("#feedback")).to_have_attribute("data-kind", "refused")
    expect(page.locator("#feedback .reason")).to_contain_text("(M2.4)")
    assert current(page)["step"] == 0 and current(page)["table"]["view"] == start["table"]["view"]
    full_shot(page, shots / "tutorial_mesopotamia_refused.png")
    # a right move, then restart: back at step 1 with the first position
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='move b@1,-1 1,0']"))
    assert current(page)["step"] == 1
    expect(page.locator("#feedback")).to_be_hidden()
    click_and_wait_answer(page, page.locator("#restart"))
    assert current(page)["step"] == 0 and current(page)["table"]["view"] == start["table"]["view"]


def test_movement_lesson_by_clicking_the_board_M7_1(page, server, shots):
    """Select a tribe, click the hex to go to, click the empty space to discover, choose a pile
    and end the phase, all on the board and its choice panel."""
    open_tutorial(page, server.base, GAME, "movement")
    full_shot(page, shots / "tutorial_mesopotamia_start.png")
    page.locator(".board-svg [data-tribe='b@1,-1']").first.click()
    before = int(page.evaluate("document.body.dataset.answers"))
    click_hex(page, "1,0")
    page.wait_for_function(f"() => Number(document.body.dataset.answers) > {before}")
    assert current(page)["step"] == 1
    # the tribe that moved stays selected; a click on the other tribe selects that one instead
    page.locator(".board-svg [data-tribe='b@1,-1']").first.click()
    before = int(page.evaluate("document.body.dataset.answers"))
    click_hex(page, "2,-1")
    page.wait_for_function(f"() => Number(document.body.dataset.answers) > {before}")
    assert current(page)["step"] == 2
    full_shot(page, shots / "tutorial_mesopotamia_pile.png")
    click_and_wait_answer(page, page.locator("#choice button.act[data-action='pile 1']"))
    assert current(page)["step"] == 3
    click_and_wait_answer(page, page.locator("#choice button.act[data-action='end']"))
    assert current(page)["finished"]
    expect(page.locator("#done")).to_contain_text("Well done")
    expect(page.locator("#next")).to_be_visible()


def test_a_rule_number_in_a_lesson_opens_the_rules_panel_M2_6(page, server):
    open_tutorial(page, server.base, GAME, "movement")
    link = page.locator("#step a.rule-link", has_text="M2.6")
    expect(link).to_have_count(1)
    assert link.get_attribute("href") == "/rules/mesopotamia#rule-M2.6"
    link.click()
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".rule-hl")).to_have_attribute("id", "rule-M2.6")
    expect(panel.locator("#rule-M2\\.6")).to_be_in_viewport()


def test_a_finished_lesson_shows_no_one_to_move_in_the_players_panel(page, server):
    """After the carry lesson's last step a seat would move next in a real game, but nothing
    moves after a lesson: the players panel marks no one as to move."""
    open_tutorial(page, server.base, GAME, "carry")
    badges = page.locator("#players .to-move-badge")
    expect(badges).to_have_count(1)  # the learner, while the lesson goes on
    complete_lesson(page, load_tutorial(GAME).lesson("carry"))
    expect(page.locator("#done")).to_be_visible()
    assert current(page)["table"]["view"]["to_move"] in ("red", "blue", "yellow", "green")
    expect(badges).to_have_count(0)
    expect(page.locator("#players .player.active")).to_have_count(0)
