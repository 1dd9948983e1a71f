"""Mesopotamia's log and refusals in the browser come as messages and are rendered in the
reader's language by messages.js from the server's catalogues."""

from __future__ import annotations

import random

from browser_helpers import HEURISTIC, HUMAN, open_table, render_in_english_and_french, state, wait_my_turn
from playwright.sync_api import expect

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia import describe


def test_french_log_and_refusal(page, server):
    answer = server.create_table([HUMAN, HEURISTIC], seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    page.click(".lang-btn[data-lang='fr']")
    log = page.locator("#log-list .sentence")
    expect(log.first).to_contain_text("commence (ordre du tour : ")
    entries = state(page)["log"]
    shown = log.all_inner_texts()
    assert len(shown) == len(entries) > 1
    for text, entry in zip(shown, entries, strict=True):
        assert entry["event"]["key"].startswith("meso.log."), entry
        assert text != entry["sentence"], f"English left in the log: {text!r}"
        assert text == M.render(entry["event"], "fr")

    # a refused action: the reason in French, the action as typed
    page.fill("#notation", "income")
    page.press("#notation", "Enter")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error .reason")).to_have_text(
        "le revenu s'encaisse en phase III ; phase en cours : phase I (mouvement) (M13)"
    )
    expect(page.locator("#error code")).to_have_text("income")

    page.click(".lang-btn[data-lang='en']")
    expect(log.first).to_contain_text("plays first (turn order ")


def _told_messages(players: int, seed: int, plies: int = 600) -> list[dict]:
    """The log of a seeded random game as seat 0 and a spectator read it, as the server sends it."""
    game = ziggurat.load("mesopotamia", players=players)
    s = game.new_initial_state()
    rng = random.Random(seed)
    out = {}
    for _ in range(plies):
        if s.is_terminal():
            break
        before = [s.view(0), s.view(None)]
        mark = describe.log_mark(s)
        s.apply(sample_chance(s, rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
        events = describe.events_since(s, mark)
        for viewer, b in zip((0, None), before, strict=True):
            for text, _ in describe.describe_step(events, b, s.view(viewer)):
                out[str(text)] = text.to_json()
    return list(out.values())


def test_browser_renders_every_log_message_as_python_does(page, server):
    """Every sentence of random games, rendered by messages.js in French and English, reads
    exactly as the Python renderer has it, with nothing left untranslated."""
    events = _told_messages(3, seed=1) + _told_messages(4, seed=2)
    assert len(events) > 200
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    rendered = render_in_english_and_french(page, events)
    for event, (en, fr) in zip(events, rendered, strict=True):
        assert en == M.render(event, "en")
        assert fr == M.render(event, "fr")
        assert fr != en and "{" not in fr and "meso." not in fr, (en, fr)
