"""Mesopotamia: Epochs' tutorial in the browser: a newcomer finds it in the lobby and completes
every lesson by clicking (in English), the attack lesson in French, and one placement by
clicking the map itself."""

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

GAME = "mesopotamia-epochs"


def test_lobby_links_to_the_epochs_tutorial(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    link = page.locator(f"#tutorial-links a[data-tutorial='{GAME}']")
    expect(link).to_have_text("Tutorial: Mesopotamia: Epochs")
    link.click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#lesson-title")).to_have_text("Lesson 1 of 7: Epoch 2: drawing a People card")


def test_newcomer_completes_every_epochs_lesson_E3_4_E15_2(page, server, shots):
    done = complete_tutorial(page, server.base, GAME)
    assert done == [lesson.id for lesson in load_tutorial(GAME).lessons]
    # the last lesson ends the game, won by the learner's seat (E15.2)
    assert current(page)["table"]["status"] == "over"
    expect(page.locator("#done")).to_contain_text("you win the game")
    expect(page.locator("#lessons .lesson-link.completed")).to_have_count(len(done))
    full_shot(page, shots / "tutorial_epochs_won.png")


def test_attack_lesson_in_french_E12_5_R17(new_page, server, shots):
    page = new_page(locale="fr-FR")
    open_tutorial(page, server.base, GAME, "attack")
    expect(page.locator("#lesson-title")).to_have_text("Leçon 4 sur 7 : Attaquer")
    expect(page.locator("#step .say")).to_contain_text("Attaquez l'Élam")
    # a legal move that is not the step's: the hint, in French, and nothing played
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='place media']"))
    expect(page.locator("#feedback")).to_contain_text("Cliquez sur l'Élam.")
    assert current(page)["step"] == 0
    full_shot(page, shots / "tutorial_epochs_fr_hint.png")
    complete_lesson(page, load_tutorial(GAME).lesson("attack"))
    expect(page.locator("#done")).to_contain_text("Militaire ajoute 1")
    full_shot(page, shots / "tutorial_epochs_fr_done.png")


def test_growth_lesson_by_clicking_the_map_E8_2(page, server, shots):
    open_tutorial(page, server.base, GAME, "growth")
    full_shot(page, shots / "tutorial_epochs_growth.png")
    click_and_wait_answer(page, page.locator(".board-svg [data-area='yamhad']").first)
    assert current(page)["step"] == 1
    click_and_wait_answer(page, page.locator(".board-svg [data-area='mari']").first)
    assert current(page)["finished"]
    expect(page.locator("#done")).to_contain_text("your Kassites scored every area they hold")


def test_new_people_last_tribe_goes_to_kanesh_by_clicking_the_map_E14_2(page, server, shots):
    """The last step recommends Kanesh, the Phrygians' double-value bonus area, lit on the
    map: clicking it plays the move and ends the lesson, with no "Not this move now"."""
    open_tutorial(page, server.base, GAME, "new_people")
    for move in ("place hatti", "place arzawa", "place ahhiyawa", "place ahhiyawa"):
        click_and_wait_answer(page, page.locator(f"#legal .legal-act[data-action='{move}']"))
        assert current(page)["outcome"] == "played", move
    expect(page.locator("#step .say")).to_contain_text("Kanesh")
    kanesh = page.locator(".board-svg .area.lit[data-area='kanesh']")
    expect(kanesh).to_have_count(1)
    click_and_wait_answer(page, kanesh)
    answer = current(page)
    assert answer["outcome"] == "played" and answer["finished"]
    expect(page.locator("#feedback")).to_be_hidden()
    assert ["kanesh", "phrygians", 1] in answer["table"]["view"]["areas"]
    full_shot(page, shots / "tutorial_epochs_kanesh.png")


def test_a_finished_lesson_says_so_in_the_turn_bar_not_who_draws_next_E3_4(page, server, shots):
    """Nothing moves after a lesson's last step: after the one keep of the allocation lesson the
    next draw (another seat's, a chance event) never comes, so the turn bar says the lesson is
    over instead of "Brooch draws chance…"."""
    open_tutorial(page, server.base, GAME, "allocation")
    status = page.locator("#status")
    expect(status).to_contain_text("Your draw")
    click_and_wait_answer(page, page.locator("#legal .legal-act[data-action='keep']"))
    assert current(page)["finished"]
    assert current(page)["table"]["view"]["to_move"] == "chance"  # the deal would go on
    expect(status).to_have_text("The lesson is over.")
    expect(page.locator("#choice")).to_have_text("The lesson is over.")
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(status).to_have_text("La leçon est finie.")
    full_shot(page, shots / "tutorial_epochs_allocation_over.png")


def test_a_finished_lesson_shows_no_one_to_move_in_the_players_panel(page, server, shots):
    """After the growth lesson's last placement a seat would move next in a real game, but
    nothing moves after a lesson: the players panel marks no one as to move."""
    open_tutorial(page, server.base, GAME, "growth")
    badges = page.locator("#players .to-move-badge")
    expect(badges).to_have_count(1)  # the learner, while the lesson goes on
    complete_lesson(page, load_tutorial(GAME).lesson("growth"))
    assert current(page)["table"]["view"]["to_move"] in ("brooch", "head", "mask", "statue", "urn")
    expect(page.locator("#done")).to_be_visible()
    expect(badges).to_have_count(0)
    expect(page.locator("#players .ep-player.active")).to_have_count(0)
    # a switch of language redraws the panel: still no one to move
    page.locator(".lang-btn[data-lang='fr']").click()
    expect(page.locator("#players .tiebreak").first).to_contain_text("Régions tenues")
    expect(badges).to_have_count(0)
    full_shot(page, shots / "tutorial_epochs_growth_over.png")
