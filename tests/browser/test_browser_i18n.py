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


# --- counts: one and other forms by the page's language (Intl.PluralRules) ----------------------

SAY = """
async ([lang, cases]) => {
  const m = await import('/i18n.js');
  m.setLang(lang);
  return cases.map(([key, params]) => m.t(key, params));
}
"""

COUNTS = [
    # key, params, English, French
    (
        "epochs.peopleStats",
        {"areas": 1, "tribes": 1, "vp": 0},
        "1 area · 1 tribe · 0 VP",
        "1 région · 1 tribu · 0 PV",
    ),
    (
        "epochs.peopleStats",
        {"areas": 2, "tribes": 3, "vp": 4},
        "2 areas · 3 tribes · 4 VP",
        "2 régions · 3 tribus · 4 PV",
    ),
    (
        "epochs.peopleStats",
        {"areas": 0, "tribes": 0, "vp": 0},
        "0 areas · 0 tribes · 0 VP",
        "0 région · 0 tribu · 0 PV",
    ),
    (
        "epochs.act.stopLosing",
        {"n": 1},
        "Stop placing (1 tribe left in the pool is lost)",
        "Arrêter de placer (1 tribu de la réserve perdue)",
    ),
    (
        "epochs.act.stopLosing",
        {"n": 4},
        "Stop placing (4 tribes left in the pool are lost)",
        "Arrêter de placer (4 tribus de la réserve perdues)",
    ),
    (
        "epochs.hiddenRounds",
        {"n": 1},
        "and 1 face-down card whose People will have a round",
        "et 1 carte face cachée dont le peuple jouera",
    ),
    (
        "epochs.hiddenRounds",
        {"n": 2},
        "and 2 face-down cards whose Peoples will have a round",
        "et 2 cartes face cachée dont les peuples joueront",
    ),
    (
        "epochs.rankLine",
        {"player": "Head", "vp": 5, "areas": 1, "d": 0},
        "Head: 5 VP, 1 area (0 double value)",
        "Head : 5 PV, 1 région (0 de valeur double)",
    ),
    ("meso.pile", {"n": 2, "size": 1}, "Pile 2: 1 tile", "Pile 2 : 1 tuile"),
    ("meso.act.pile", {"n": 1, "size": 3}, "Draw from pile 1 (3 tiles)", "Piocher dans la pile 1 (3 tuiles)"),
    ("meso.deck", {"n": 1}, "Deck: 1 card", "Pioche : 1 carte"),
    ("meso.deck", {"n": "?"}, "Deck: ? cards", "Pioche : ? cartes"),
    ("meso.looseStone", {"n": 1, "c": "0,1"}, "1 loose stone on 0,1", "1 pierre au sol en 0,1"),
    (
        "meso.supply",
        {"wood": 1, "stone": 1},
        "General supply: 1 wood, 1 stone",
        "Réserve générale : 1 bois, 1 pierre",
    ),
    ("mn.secretOffer", {"n": 1}, "Secret offer: 1 token committed", "Offre secrète : 1 jeton engagé"),
    ("mn.secretOffer", {"n": 0}, "Secret offer: 0 tokens committed", "Offre secrète : 0 jeton engagé"),
    ("mn.youHold", {"n": 1}, "You hold 1 token.", "Vous avez 1 jeton."),
    ("mn.tokensHeld", {"n": 3}, "3 tokens behind the screen", "3 jetons derrière le paravent"),
    ("mn.pool", {"n": 1}, "Legendary pool: 1 token", "Réserve légendaire : 1 jeton"),
    ("mn.act.offerSize", {"n": "1"}, "Offer 1 token", "Offrir 1 jeton"),
    ("pub.players", {"n": 2}, "2 players", "2 joueurs"),
]


def test_counts_read_in_the_singular_and_the_plural_in_both_languages(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    cases = [[key, params] for key, params, _en, _fr in COUNTS]
    assert page.evaluate(SAY, ["en", cases]) == [en for _k, _p, en, _fr in COUNTS]
    assert page.evaluate(SAY, ["fr", cases]) == [fr for _k, _p, _en, fr in COUNTS]


def test_t_picks_a_plural_form_by_the_language_and_keeps_plain_strings_as_they_were(page, server):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    said = page.evaluate(
        """async () => {
            const m = await import('/i18n.js');
            const pattern = "{n, plural, =0 {nothing} one {# cup{k, plural, one { and # spoon} other { and # spoons}}} other {# cups}}";
            m.STRINGS.en["test.cups"] = pattern;
            m.STRINGS.fr["test.cups"] = "{n, plural, =0 {rien} one {# tasse} other {# tasses}}";
            const out = {};
            for (const lang of ["en", "fr"]) {
                m.setLang(lang);
                out[lang] = [0, 1, 1.5, 2, "3"].map((n) => m.t("test.cups", { n, k: 2 }));
                out[lang].push(m.t("test.cups", {}), m.t("test.cups", { n: null }));
                out[lang].push(m.t("ui.wins", { colour: "Red" }), m.t("ui.wins"), m.t("no.such.key"));
            }
            m.setLang("en");
            return out;
        }"""
    )
    assert said["en"] == [
        "nothing", "1 cup and 2 spoons", "1.5 cups", "2 cups", "3 cups", "{n} cups", "{n} cups",
        "Red wins!", "{colour} wins!", "no.such.key",
    ]  # fmt: skip
    # French: 0 is matched exactly here; 1.5 is singular (CLDR "one": 0 <= n < 2)
    assert said["fr"] == [
        "rien", "1 tasse", "1.5 tasse", "2 tasses", "3 tasses", "{n} tasses", "{n} tasses",
        "Red gagne !", "{colour} gagne !", "no.such.key",
    ]  # fmt: skip


def test_no_string_counts_with_a_plural_noun_left_unchanged_in_the_singular(page, server):
    """A count followed by a countable noun says it with the count's plural form: no "1 areas",
    "1 régions" or "token(s)" anywhere in either catalogue."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    wrong = page.evaluate(
        r"""async () => {
            const { STRINGS } = await import('/i18n.js');
            const noun = /\{\w+\} (areas|tribes|tiles|cards|tokens|players|stones|régions|tribus|tuiles|cartes|jetons|joueurs|pierres)\b|\w\((s|es)\)/;
            return Object.entries(STRINGS).flatMap(([lang, all]) =>
                Object.entries(all).filter(([, v]) => typeof v === "string" && noun.test(v)).map(([k, v]) => `${lang} ${k}: ${v}`));
        }"""
    )
    assert wrong == []


def test_the_french_confirmation_and_undo_have_different_words(new_page, server):
    """French, at a Mesopotamia table (no dice there): the confirmation's way out is not called
    "Annuler" like the Undo button it mentions, and its reason does not say dice are rolled in
    every game."""
    page = new_page(locale="fr-FR", confirm_final_moves=True)
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=4)
    open_table(page, server.url(answer["seats"][0]["link"]))
    final = None
    for _ in range(40):  # towards a discovery: its pile draw sets off chance (M7.2)
        assert wait_my_turn(page)
        st = page.evaluate("window.__ziggurat.state")
        final = next((a for a in st["legal"] if st["final"].get(a) == "irreversible"), None)
        if final:
            break
        quiet = [a for a in st["legal"] if a not in st["final"]]
        step = next((a for a in quiet if a.startswith("explore")), quiet[0] if quiet else st["legal"][0])
        page.evaluate("(a) => window.__ziggurat.socket.send({ type: 'action', action: a })", step)
        page.wait_for_function(f"() => Number(document.body.dataset.version) !== {st['version']}")
    assert final, "no move setting off chance came"
    page.locator(f'#legal .legal-act[data-action="{final}"]').click()
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(page.locator("#undo")).to_have_text("Annuler")
    expect(dialog.locator("#confirm-no")).to_have_text("Retour")
    expect(dialog.locator("#confirm-yes")).to_have_text("Jouer")
    why = dialog.locator(".confirm-why")
    expect(why).to_contain_text("le bouton Annuler ne pourra pas le reprendre")
    expect(why).to_contain_text("(dés ou pioche, selon le jeu)")
    dialog.locator("#confirm-no").click()
    expect(dialog).to_be_hidden()
