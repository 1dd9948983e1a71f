"""The rules at hand: the table's Rules button and panel, rule numbers in refusals and in the log
that open the panel at their rule, the /rules/<game> page, in English and in French."""

from __future__ import annotations

from browser_helpers import HEURISTIC, HUMAN, full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

NEIGHBOURS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def _refuse_a_step_into_a_volcano(page: Page) -> None:
    """Type a move of one of our tribes onto a volcano next to it: refused by M2.4."""
    view = state(page)["view"]
    tiles = {(t[0], t[1]): t[2] for t in view["tiles"]}
    blue = next(p for p in view["players"] if p["colour"] == "blue")
    for q, r, *_ in blue["tribes"]:
        volcano = next(
            ((q + dq, r + dr) for dq, dr in NEIGHBOURS if tiles.get((q + dq, r + dr)) == "volcano"), None
        )
        if volcano is not None:
            break
    assert volcano is not None
    before = version(page)
    page.fill("#notation", f"move b@{q},{r} {volcano[0]},{volcano[1]}")
    page.click("#notation-form button[type=submit]")
    expect(page.locator("#error")).to_contain_text("a tribe may never enter a volcano (M2.4)")
    assert version(page) == before


def _highlighted(page: Page) -> str | None:
    rule: str | None = page.locator("#rules-panel .rule-hl").get_attribute("id")
    return rule


def test_rules_button_opens_the_panel_at_the_top_of_the_spec(page, server, shots):
    answer = server.create_table([HUMAN, HEURISTIC], seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    button = page.locator("#rules-button")
    expect(button).to_be_visible()
    expect(button).to_have_text("Rules")
    assert button.get_attribute("href") == "/rules/mesopotamia"
    button.click()
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h1")).to_contain_text("Mesopotamia")
    expect(panel.locator("h1")).to_be_in_viewport()
    expect(panel.locator(".rule-hl")).to_have_count(0)
    # the note on the language shows on French pages only
    expect(panel.locator(".rules-lang-note")).to_be_hidden()
    # the contents move the panel, never the table page (whose hash holds the token)
    url = page.url
    panel.locator(".rules-toc summary").click()
    panel.locator(".rules-toc a", has_text="4. Rules").click()
    expect(panel.locator("#sec-4-rules")).to_be_in_viewport()
    assert page.url == url
    page.screenshot(path=str(shots / "rules_panel_top.png"))
    panel.locator(".rules-close").click()
    expect(panel).to_be_hidden()


def test_a_refusal_links_its_rule_M2_4_to_the_panel(page, server, shots):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    _refuse_a_step_into_a_volcano(page)
    link = page.locator("#error a.rule-link")
    expect(link).to_have_count(1)
    expect(link).to_have_text("M2.4")
    assert link.get_attribute("href") == "/rules/mesopotamia#rule-M2.4"
    # the action typed (in <code>) is not scanned for ids
    expect(page.locator("#error code a")).to_have_count(0)

    link.hover()
    tip = page.locator(".rule-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("M2.4")
    expect(tip).to_contain_text("A tribe may never enter a volcano.")
    page.screenshot(path=str(shots / "rules_refusal_tip.png"))

    link.click()
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    assert _highlighted(page) == "rule-M2.4"
    assert panel.locator(".rules-newtab").get_attribute("href") == "/rules/mesopotamia#rule-M2.4"
    rule = panel.locator("#rule-M2\\.4")
    expect(rule).to_contain_text("A tribe may never enter a volcano.")
    expect(rule).to_be_in_viewport()
    page.screenshot(path=str(shots / "rules_panel_at_rule.png"))

    # a reference inside the panel moves the highlight: M2.5 names M5
    panel.locator("#rule-M2\\.5 a.rule-ref", has_text="M5").click()
    assert _highlighted(page) == "rule-M5"
    expect(panel.locator("#rule-M5")).to_be_in_viewport()


def test_a_log_line_links_its_rule_to_the_panel_R9(page, server, shots):
    # Epochs: a player who already holds a card must pass the one drawn, and the log says so (R9)
    answer = server.create_table([HEURISTIC, HEURISTIC], seed=3, game="mesopotamia-epochs")
    page.goto(server.url(answer["spectator_link"]))
    # the bots start at once: the first state may wait behind a burst of them on a busy machine
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    # a log that still grows scrolls under the pointer: click once the bots are done
    page.wait_for_selector("body[data-status='over']", timeout=600_000)  # a net for a hang
    link = page.locator("#log-list a.rule-link").first
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
    rule_id = link.get_attribute("data-rule")
    assert rule_id == "R9"
    expect(link.locator("xpath=ancestor::li")).to_contain_text("already hold a card")
    link.click()
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    assert _highlighted(page) == "rule-R9"
    rule = panel.locator("#rule-R9")
    expect(rule).to_be_visible()
    expect(rule).to_be_in_viewport()
    assert rule.inner_text().startswith("R9")
    page.screenshot(path=str(shots / "rules_panel_from_log.png"))


def test_only_ids_the_spec_defines_are_linked(page, server):
    answer = server.create_table([HUMAN, HEURISTIC], seed=5)
    open_table(page, server.url(answer["seats"][0]["link"]))
    linked = page.evaluate(
        """async () => {
            const { linkRules } = await import('/rules.js');
            const el = document.createElement('p');
            el.innerHTML = 'M2.4, (R21), M2.4.9, M99, XM2, M2x, b3, D15 and <code>M3.1</code>';
            linkRules(el);
            return [...el.querySelectorAll('a.rule-link')].map((a) => a.dataset.rule);
        }"""
    )
    assert linked == ["M2.4", "R21", "D15"]


def test_the_rules_page_in_french_says_the_rules_are_in_english(new_page, server, shots):
    fr = new_page(locale="fr-FR")
    fr.goto(server.url("/rules/mesopotamia#rule-M4.3"))
    note = fr.locator(".rules-lang-note")
    expect(note).to_be_visible()
    expect(note).to_have_text("Les règles sont en anglais.")
    expect(fr.locator(".rules-toc summary")).to_have_text("Sommaire")
    expect(fr.locator("#rule-M4\\.3")).to_be_in_viewport()
    fr.screenshot(path=str(shots / "rules_page_fr.png"))
    fr.evaluate("window.scrollTo(0, 0)")
    fr.screenshot(path=str(shots / "rules_page_fr_top.png"))

    en = new_page()
    en.goto(server.url("/rules/mesopotamia"))
    expect(en.locator("h1")).to_contain_text("Mesopotamia")
    expect(en.locator(".rules-lang-note")).to_be_hidden()
    en.screenshot(path=str(shots / "rules_page_en.png"))
    # switching the page to French shows the note
    en.locator(".lang-btn[data-lang=fr]").click()
    expect(en.locator(".rules-lang-note")).to_be_visible()


def test_the_panel_in_french_says_the_rules_are_in_english(new_page, server):
    pg = new_page(locale="fr-FR")
    answer = server.create_table([HUMAN, HEURISTIC], seed=5)
    open_table(pg, server.url(answer["seats"][0]["link"]))
    expect(pg.locator("#rules-button")).to_have_text("Règles")
    pg.locator("#rules-button").click()
    expect(pg.locator("#rules-panel .rules-lang-note")).to_have_text("Les règles sont en anglais.")
    expect(pg.locator("#rules-panel .rules-lang-note")).to_be_visible()


def test_on_a_phone_the_rules_open_in_a_new_tab(new_page, server, shots):
    phone = new_page(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=5)
    open_table(phone, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(phone)
    _refuse_a_step_into_a_volcano(phone)
    with phone.context.expect_page() as opened:
        phone.locator("#error a.rule-link").click()
    tab = opened.value
    tab.wait_for_load_state()
    assert tab.url.endswith("/rules/mesopotamia#rule-M2.4")
    expect(tab.locator("#rule-M2\\.4")).to_be_in_viewport()
    tab.screenshot(path=str(shots / "rules_page_phone_at_rule.png"))
    full_shot(tab, shots / "rules_page_phone.png")
    expect(phone.locator("#rules-panel")).to_have_count(0)
