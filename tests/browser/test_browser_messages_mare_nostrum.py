"""Mare Nostrum: Empires log and refusals in the browser come from the message catalogues: after
switching to French every log line is the French rendering of its event (as the Python
renderer gives it, so no English sentence is left), and a refused action reads in French."""

from __future__ import annotations

import re

from browser_helpers import open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

from ziggurat.engine.messages import render

GAME = "mare-nostrum"
BOT = {"kind": "bot", "bot": "random"}


def _log(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all("#log-list .sentence", "els => els.map(e => e.textContent)")
    return texts


def test_log_and_refusal_in_french(page, server, shots):
    answer = server.create_table([{"kind": "human"}, BOT, BOT], seed=4, game=GAME)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    expect(page.locator("#log-list")).to_contain_text("Empires are dealt: ")
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#log-list")).to_contain_text("Empires distribués : ")
    log = state(page)["log"]
    assert log and all("event" in e for e in log)
    expected = [render(e["event"], "fr") for e in log]
    assert _log(page) == expected
    for entry, french in zip(log, expected, strict=True):
        assert french != entry["sentence"] and "{" not in french
    assert any(s.startswith("Nouvelle tuile face visible : ") for s in expected)

    before = version(page)
    page.fill("#notation", "buy legion latium")
    page.press("#notation", "Enter")
    banner = page.locator("#error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("'buy legion latium' n'est pas permis maintenant (")
    expect(banner).to_contain_text(re.compile(r"décision en cours : (le|la|les|un|une) "))
    expect(banner).not_to_contain_text("is not legal now")
    assert version(page) == before
    page.screenshot(path=str(shots / "nostrum_refusal_fr.png"))

    # a decision of this seat is told in French too, its empire with its article
    st = state(page)
    me = {"rome": "Rome", "greece": "La Grèce", "carthage": "Carthage"}[st["view"]["empires"][0]]
    action = st["legal"][0]
    page.fill("#notation", action)
    page.press("#notation", "Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    expect(banner).to_be_hidden()
    told = _log(page)[len(expected) :]
    assert told and re.match(me + r" (joue|offre|annonce|ajoute|prend|donne|désigne) ", told[0]), told
    # read after the page's log: a bot may have moved since, so the page shows a prefix of it
    rendered = [render(e["event"], "fr") for e in state(page)["log"]]
    assert told == rendered[len(expected) : len(expected) + len(told)]


def test_the_take_back_line_starts_with_the_empire_capitalised_in_french(page, server, shots):
    """The log line of a seat taken back from the bot that played it since its clock ran out
    starts with the empire, capitalised as a sentence's start ("La Grèce reprend sa place au
    robot"); the takeover line names it inside its sentence ("Le temps de la Grèce ...")."""
    body = {
        "game": GAME,
        "players": 3,
        "seats": [{"kind": "human"}, BOT, BOT],
        "seed": 1,
        "time_control": {"kind": "realtime", "budget": 2, "increment": 1, "grace": 1, "takeover": "random"},
    }
    answer = server.request("POST", "/api/tables", body)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    page.click(".lang-btn[data-lang='fr']")
    empire = state(page)["view"]["empires"][0]
    # seed 1: Greece, a name with its article, which French writes in lower case inside a sentence
    assert empire == "greece"
    log = page.locator("#log-list")
    expect(log).to_contain_text("Le temps de la Grèce est écoulé", timeout=20000)
    page.locator("#clocks .take-back").click()
    expect(log).to_contain_text("reprend sa place au robot")
    lines = [line for line in _log(page) if "reprend sa place au robot" in line]
    assert lines == ["La Grèce reprend sa place au robot"], lines
    log.screenshot(path=str(shots / "nostrum_take_back_fr.png"))
