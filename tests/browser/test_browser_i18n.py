"""English and French: the switch, its memory, and the browser's language."""

from __future__ import annotations

from browser_helpers import HEURISTIC, HUMAN, full_shot, open_table, wait_my_turn
from playwright.sync_api import expect


def test_french_switch_shows_french_and_is_remembered(page, server, shots):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#create")).to_have_text("Create table")
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#create")).to_have_text("Créer la table")
    expect(page.locator("h2[data-i18n='lobby.newTable']")).to_have_text("Nouvelle table")
    expect(page.locator("h2[data-i18n='tut.learn']")).to_have_text("Apprendre à jouer")
    expect(page.locator("#seat-1 option[value='bot:heuristic']")).to_have_text("Robot (heuristique)")
    assert page.evaluate("document.documentElement.lang") == "fr"
    full_shot(page, shots / "lobby_fr.png")

    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=4)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    expect(page.locator("#who")).to_have_text("Vous jouez Bleu")
    expect(page.locator(".legal-panel h3")).to_contain_text("Actions possibles")
    expect(page.locator("#status")).to_contain_text("Phase I : mouvement")
    expect(page.locator("#choice")).to_contain_text("Phase I : cliquez sur une de vos tribus")
    expect(page.locator("#legal")).to_contain_text("Finir la phase I")
    full_shot(page, shots / "table_fr.png")

    page.click(".lang-btn[data-lang='en']")
    expect(page.locator("#legal")).to_contain_text("End Phase I")
    page.click(".lang-btn[data-lang='fr']")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#legal")).to_contain_text("Finir la phase I")


def test_french_browser_gets_french(new_page, server):
    page = new_page(locale="fr-FR")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#create")).to_have_text("Créer la table")
    expect(page.locator(".lang-btn[data-lang='fr']")).to_have_attribute("aria-pressed", "true")
