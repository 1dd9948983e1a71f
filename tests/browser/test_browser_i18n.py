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
    expect(page.locator("h2 >> nth=0")).to_have_text("Nouvelle table")
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


def _log_sentences(games: int = 4, plies: int = 1500) -> list[str]:
    """English log sentences of random games, as seat 0 and as a spectator read them."""
    import random

    import ziggurat
    from ziggurat.games.mesopotamia.describe import describe_step, events_since, log_mark

    out: set[str] = set()
    for seed in range(games):
        game = ziggurat.load("mesopotamia", players=3, variant_start_with_one_card=seed % 2 == 0)
        s = game.new_initial_state()
        rng = random.Random(seed)
        for _ in range(plies):
            if s.is_terminal():
                break
            before = [s.view(0), s.view(None)]
            mark = log_mark(s)
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
            events = events_since(s, mark)
            for viewer, b in zip((0, None), before, strict=True):
                out.update(text for text, _ in describe_step(events, b, s.view(viewer)))
    return sorted(out)


def test_every_log_sentence_has_a_french_translation(page, server):
    sentences = _log_sentences()
    assert len(sentences) > 200
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    untranslated = page.evaluate(
        """async (sentences) => {
            const board = await import('/boards/mesopotamia.js');
            const i18n = await import('/i18n.js');
            i18n.setLang('fr');
            const bad = [];
            for (const s of sentences) {
              const fr = board.translateSentence(i18n.t, 'fr', s);
              if (fr === s || /\\{\\w+\\}|meso\\./.test(fr)) bad.push([s, fr]);
            }
            return bad;
        }""",
        sentences,
    )
    assert untranslated == []
