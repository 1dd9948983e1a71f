"""The Mesopotamia: Epochs board read by a player: who holds an area reads at a glance (the
holder's symbol, pattern and outline, and a legend: not only colours, §2.3), the lobby explains
the five symbols, the last attack and its result show from the view alone (after a reload or
for a late spectator, E12), and a click on an unlit area asks the engine why (E8)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from browser_helpers import full_shot, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

import ziggurat

GAME = "mesopotamia-epochs"
SYMBOLS = ("brooch", "head", "mask", "statue", "urn")

MOUNT = """
async ([view, legal, seat, log]) => {
  const board = await import('/boards/mesopotamia-epochs.js');
  const { t } = await import('/i18n.js');
  document.body.innerHTML = `<div id="hb-board" class="board" style="width:900px"></div>
    <div id="hb-choice" class="choice panel"></div><div id="hb-status" class="turnbar"></div>
    <div id="hb-players" class="players"></div><div id="hb-general" class="general"></div>`;
  const $ = (id) => document.getElementById(id);
  window.sent = [];
  window.explained = [];
  const els = { board: $('hb-board'), choice: $('hb-choice'), status: $('hb-status'), players: $('hb-players'),
                general: $('hb-general') };
  const ctx = { t: () => t, send: (a) => { window.sent.push(a); return true; },
                explain: (a) => { window.explained.push(a); } };
  window.hb = board.createBoard(els, ctx);
  window.hb.update({ type: 'state', seat, colour: view.viewer, version: 1, view, legal, log, can_undo: false,
    status: view.phase === 'over' ? 'over' : 'playing', result: null }, { options: {} });
}
"""


def _play(seed: int, players: int, stop: Any) -> tuple[Any, int]:
    """A seeded random game played until ``stop(state)``; the state and the seat deciding."""
    rng = random.Random(seed)
    s = ziggurat.load(GAME, players=players).new_initial_state()
    while not s.is_terminal():
        if stop(s):
            return s, s.current_player()
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    raise LookupError("not found")


def _after_attack(result: str) -> tuple[Any, int]:
    """A placement decision right after an attack of the same People ended with ``result``."""

    def stop(s: Any) -> bool:
        v = s.view(None)
        la = v["last_attack"]
        return (
            s.current_player() >= 0
            and v["pending"] is None
            and la is not None
            and la["result"] == result
            and v["round"] is not None
            and v["round"]["people"] == la["attacker"]
        )

    for seed in range(12):
        try:
            return _play(seed, 3 + seed % 3, stop)
        except LookupError:
            continue
    raise LookupError(result)


@pytest.fixture
def harness(page: Page, server) -> Page:
    page.goto(server.base + "/table/harness")  # the table page with no token: it loads nothing else
    page.wait_for_selector("#fatal:not([hidden])")
    return page


def _mount(page: Page, state: Any, seat: int | None, log: list[Any] | None = None) -> None:
    legal = [str(a) for a in state.legal_actions()] if seat == state.current_player() else []
    page.evaluate(MOUNT, [state.view(seat), legal, seat, log or []])


def test_held_areas_show_their_holder_by_symbol_pattern_and_legend(harness: Page, shots) -> None:
    """§2.3: a tribe's owner reads from its symbol; every held area also carries its holder's
    pattern and outline (colour-blind players tell them apart), and the legend names them."""
    state, seat = _play(4, 4, lambda s: len(s.view(None)["areas"]) >= 12 and s.current_player() >= 0)
    view = state.view(seat)
    _mount(harness, state, seat)
    holders = {p["symbol"]: {c["people"] for c in p["cards"] if c["people"]} for p in view["players"]}
    owner = {people: sym for sym, peoples in holders.items() for people in peoples}
    for area, people, _n in view["areas"]:
        g = harness.locator(f"#hb-board .area[data-area='{area}']")
        sym = owner.get(people)
        if sym is None:  # a face-down card: its holder is not known to this seat
            continue
        assert g.get_attribute("data-owner") == sym
        assert g.locator(".owner-fill").get_attribute("fill") == f"url(#ep-own-{sym})"
        expect(g.locator(f".owner-outline.p-{sym}")).to_have_count(1)
        # the symbol itself is on the tribes there
        expect(harness.locator(f"#hb-board .tribe.p-{sym}[data-area='{area}']")).to_have_count(1)
    assert harness.locator("#hb-board pattern[id^='ep-own-']").count() == 5
    legend = harness.locator("#hb-board .epochs-legend")
    expect(legend).to_contain_text("Who holds the areas")
    for p in view["players"]:
        item = legend.locator(f".legend-item[data-symbol='{p['symbol']}']")
        expect(item).to_have_count(1)
        expect(item.locator(".symbol-icon")).to_have_count(1)
        expect(item.locator(f".owner-swatch .owner-outline.p-{p['symbol']}")).to_have_count(1)
        count = sum(1 for _a, people, _n in view["areas"] if owner.get(people) == p["symbol"])
        expect(item).to_contain_text(f"· {count}")
    expect(legend.locator(f".legend-item[data-symbol='{SYMBOLS[seat]}']")).to_contain_text("(you)")
    # the outline patterns differ from one player to the next
    dashes = harness.evaluate(
        """() => ['brooch', 'head', 'mask', 'statue', 'urn'].map((s) => {
            const el = document.createElementNS('http://www.w3.org/2000/svg', 'path');
            el.setAttribute('class', `owner-outline p-${s}`);
            document.querySelector('#hb-board svg').append(el);
            const d = getComputedStyle(el).strokeDasharray; el.remove(); return d; })"""
    )
    assert len(set(dashes)) == 5, dashes
    full_shot(harness, shots / "boards_epochs_owners.png")
    legend.screenshot(path=str(shots / "boards_epochs_legend.png"))
    harness.locator("#hb-board svg.epochs-map").screenshot(path=str(shots / "boards_epochs_map.png"))


def test_the_lobby_explains_the_symbols(page: Page, server, shots) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator(".symbols-help")).to_have_count(0)
    page.select_option("#game", GAME)
    page.select_option("#players", "4")
    help_ = page.locator(".symbols-help")
    expect(help_).to_be_visible()
    expect(help_).to_contain_text("not a colour but a symbol")
    for i, name in enumerate(("Brooch", "Head", "Mask", "Statue")):
        expect(help_.locator(f"li[data-symbol='{SYMBOLS[i]}']")).to_contain_text(f"Seat {i + 1}: {name}")
    expect(help_.locator("li")).to_have_count(4)
    full_shot(page, shots / "boards_epochs_lobby_symbols.png")
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator(".symbols-help")).to_contain_text("Place 1 : Broche")
    expect(page.locator(".symbols-help")).to_contain_text("pas une couleur mais un symbole")
    page.select_option("#game", "mesopotamia")
    expect(page.locator(".symbols-help")).to_have_count(0)


@pytest.mark.parametrize("result", ["taken", "failed"])
def test_the_last_attack_shows_its_result_from_the_view_alone_E12(harness: Page, shots, result: str) -> None:
    """A page that saw nothing happen (a reload, a late spectator: no log, no live combat)
    shows the attack of the People whose round goes on, each roll and its result."""
    state, seat = _after_attack(result)
    la = state.view(None)["last_attack"]
    for who in (seat, None):  # the player deciding, and a spectator
        _mount(harness, state, who)
        box = harness.locator("#hb-choice .attack-box")
        expect(box).to_have_count(1)
        assert box.get_attribute("data-area") == la["area"]
        expect(box.locator(".roll")).to_have_count(len(la["rolls"]))
        summary = box.locator(".attack-summary")
        if result == "taken":
            expect(summary).to_contain_text("take")
        else:
            expect(summary).to_contain_text("The attacking tribe is lost")
        head = box.locator(".attack-head").inner_text()
        assert "attack" in head
        winners = harness.eval_on_selector_all(
            "#hb-choice .attack-box .roll", "els => els.map(e => e.className)"
        )
        assert [w.split("w-")[1] for w in winners] == [r["winner"] for r in la["rolls"]]
    full_shot(harness, shots / f"boards_epochs_last_attack_{result}.png")


def test_no_attack_box_once_the_attackers_round_is_over(harness: Page) -> None:
    def stop(s: Any) -> bool:
        v = s.view(None)
        la = v["last_attack"]
        return (
            s.current_player() >= 0
            and la is not None
            and v["round"] is not None
            and v["round"]["people"] != la["attacker"]
        )

    state, seat = _play(2, 4, stop)
    _mount(harness, state, seat)
    expect(harness.locator("#hb-choice .attack-box")).to_have_count(0)


def test_a_click_on_an_unlit_area_asks_why_E8(harness: Page) -> None:
    """E8: an area the active People may not place into: the board asks the engine about
    ``place <area>``, which the engine refuses with a reason naming the rule."""
    state, seat = _play(3, 3, lambda s: s.current_player() >= 0 and s.view(None)["pending"] is None
                        and s.view(None)["phase"] == "strategy")  # fmt: skip
    _mount(harness, state, seat)
    legal = {str(a) for a in state.legal_actions()}
    areas = harness.eval_on_selector_all(
        "#hb-board .area[data-area]:not(.lit)", "els => els.map(e => e.dataset.area)"
    )
    area = next(a for a in areas if f"place {a}" not in legal)
    harness.locator(f"#hb-board .area[data-area='{area}']").dispatch_event("click")
    assert harness.evaluate("window.explained") == [f"place {area}"]
    assert harness.evaluate("window.sent") == []
    with pytest.raises(ziggurat.IllegalAction) as refused:
        state.clone().apply(f"place {area}", seat)
    assert "(E" in str(refused.value) or "(R" in str(refused.value)
    # a spectator's click asks nothing
    _mount(harness, state, None)
    harness.locator(f"#hb-board .area[data-area='{area}']").dispatch_event("click")
    assert harness.evaluate("window.explained") == []


def test_the_last_attack_is_still_shown_after_a_reload_E12(page: Page, server, shots) -> None:
    """A live table: the player's People attacks; once the dice have spoken the page is
    reloaded, and the attack box shows the same attack and result (from the view alone)."""
    answer = server.create_table(
        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}],
        game=GAME,
        seed=11,
    )
    open_table(page, server.url(answer["seats"][0]["link"]))
    rng = random.Random(3)
    shown = None
    for _ in range(400):
        if not wait_my_turn(page, timeout=60000):
            break
        st = state(page)
        view, legal = st["view"], st["legal"]
        la = view.get("last_attack")
        rnd = view.get("round")
        if la and la["result"] in ("taken", "failed") and rnd and rnd["people"] == la["attacker"]:
            shown = page.locator("#choice .attack-box")
            expect(shown).to_have_count(1)
            break
        held = {a: p for a, p, _n in view["areas"]}
        attacks = [
            a
            for a in legal
            if a.startswith("place ") and held.get(a.split(" ")[1]) not in (None, rnd and rnd["people"])
        ]
        pick = attacks[0] if attacks and rnd and rnd["pool"] >= 2 else rng.choice(legal)
        before = version(page)
        page.evaluate("(a) => window.__ziggurat.socket.send({ type: 'action', action: a })", pick)
        page.wait_for_function(
            f"() => Number(document.body.dataset.version) !== {before} || !document.getElementById('error').hidden"
        )
    assert shown is not None, "the player's People made no attack with its round going on"
    summary = page.locator("#choice .attack-box .attack-summary").inner_text()
    rolls = page.locator("#choice .attack-box .roll").count()
    assert summary and rolls >= 1
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    box = page.locator("#choice .attack-box")
    expect(box).to_have_count(1)
    expect(box.locator(".attack-summary")).to_have_text(summary)
    expect(box.locator(".roll")).to_have_count(rolls)
    full_shot(page, shots / "boards_epochs_reloaded_attack.png")


def test_an_unlit_area_shows_the_engines_refusal_on_a_live_table_E8(page: Page, server, shots) -> None:
    """The table page's refusal box gives the engine's reason for placing where nothing is lit."""
    answer = server.create_table(
        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}],
        game=GAME,
        seed=11,
    )
    open_table(page, server.url(answer["seats"][0]["link"]))
    rng = random.Random(4)
    for _ in range(200):
        assert wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["view"]["pending"] is None and st["view"]["phase"] == "strategy":
            break
        before = version(page)
        page.evaluate(
            "(a) => window.__ziggurat.socket.send({ type: 'action', action: a })", rng.choice(st["legal"])
        )
        page.wait_for_function(f"() => Number(document.body.dataset.version) !== {before}")
    legal = set(state(page)["legal"])
    unlit = page.eval_on_selector_all(
        ".epochs-map .area[data-area]:not(.lit)", "els => els.map(e => e.dataset.area)"
    )
    area = next(a for a in unlit if f"place {a}" not in legal)
    page.locator(f".epochs-map .area[data-area='{area}']").dispatch_event("click")
    box = page.locator("#error")
    expect(box).to_be_visible()
    expect(box.locator(".reason")).to_contain_text("(")
    expect(box).to_contain_text(f"place {area}")
    page.screenshot(path=str(shots / "boards_epochs_unlit_refusal.png"))
    assert state(page)["legal"] and set(state(page)["legal"]) == legal  # nothing was played


# --- who knows a face-down card (E3.4, E3.5, §6), counts, French placements --------------------

NAMES = {
    "en": {"brooch": "Brooch", "head": "Head", "mask": "Mask"},
    "fr": {"brooch": "Broche", "head": "Tête", "mask": "Masque"},
}


def _speak(page: Page, lang: str) -> None:
    """Open the harness again in ``lang`` (the page's remembered language), with the game's
    catalogue for the names."""
    page.evaluate("(l) => localStorage.setItem('ziggurat.lang', l)", lang)
    page.reload()
    page.wait_for_selector("#fatal:not([hidden])")
    page.evaluate(
        """async (l) => {
            const m = await import('/messages.js');
            await m.loadMessages('en');
            await m.loadMessages(l);
        }""",
        lang,
    )


def _cards(state: Any) -> list[tuple[str, str, list[str], bool]]:
    """Every dealt card: (holder, People, who knows it, face up), from the full position."""
    return [
        (pl["symbol"], c["people"], c["known_by"], c["public"])
        for pl in state.to_position()["players"]
        for c in pl["cards"]
    ]


def _line(page: Page, holder: str, people: str) -> Any:
    return page.locator(f"#hb-players .ep-player[data-symbol='{holder}'] .card-line[data-people='{people}']")


def _after_a_pass(s: Any) -> bool:
    """The deal is over; a card was passed (two seats know it) and a kept one is known to one."""
    cards = [c for c in _cards(s) if not c[3]]
    return (
        s.to_position()["phase"] == "strategy"
        and any(len(known) == 2 for _h, _p, known, _u in cards)
        and any(known == [holder] for holder, _p, known, _u in cards)
    )


def test_a_passed_card_reads_as_known_to_the_passer_and_the_receiver_E3_4_E3_5(harness: Page, shots) -> None:
    """After the deal the passer and the receiver both know a passed card (§6): each sees it as
    known to both of them, not as a secret of their own; a card drawn and kept is the holder's
    secret alone."""
    state, _ = _play(0, 3, _after_a_pass)
    holder, people, known, _ = next(c for c in _cards(state) if not c[3] and len(c[2]) == 2)
    passer = next(sym for sym in known if sym != holder)
    keeper, kept, _, _ = next(c for c in _cards(state) if not c[3] and c[2] == [c[0]])
    for lang, secret in (("en", "(secret: only you know it)"), ("fr", "(secret : vous seul la connaissez)")):
        _speak(harness, lang)
        names = NAMES[lang]
        for viewer, other in ((passer, holder), (holder, passer)):
            _mount(harness, state, SYMBOLS.index(viewer))
            line = _line(harness, holder, people)
            known_to = "(known to you and {})" if lang == "en" else "(connue de vous et de {})"
            expect(line).to_contain_text(known_to.format(names[other]))
            expect(line).not_to_contain_text(secret)
            if viewer == holder:
                note = harness.locator(f"#hb-general .people-card[data-people='{people}'] .card-note")
                also = "yours (also known to {})" if lang == "en" else "à vous (connue aussi de {})"
                expect(note).to_have_text(also.format(names[passer]))
            if lang == "en":
                full_shot(harness, shots / f"boards_epochs_passed_card_{viewer}.png")
        _mount(harness, state, SYMBOLS.index(keeper))
        expect(_line(harness, keeper, kept)).to_contain_text(secret)


def test_a_card_passed_during_the_deal_is_the_passers_alone_until_it_ends_E3_5(harness: Page) -> None:
    """During the deal only the passer knows a passed card; its receiver sees it face down and
    looks at it when the deal ends (E3.5): the passer's page says so."""

    def passed_unseen(s: Any) -> bool:
        p = s.to_position()
        return p["phase"] == "allocation" and any(h not in k and not u for h, _p, k, u in _cards(s))

    state, _ = _play(0, 3, passed_unseen)
    holder, people, known, _ = next(c for c in _cards(state) if c[0] not in c[2] and not c[3])
    (passer,) = known
    _speak(harness, "en")
    _mount(harness, state, SYMBOLS.index(passer))
    line = _line(harness, holder, people)
    expect(line).to_contain_text(
        f"(only you know it until the deal ends; then {NAMES['en'][holder]} sees it too)"
    )
    _mount(harness, state, SYMBOLS.index(holder))
    expect(
        harness.locator(f"#hb-players .ep-player[data-symbol='{holder}'] .card-line[data-people='']")
    ).to_contain_text("(face down)")
    expect(harness.locator(f"#hb-players .card-line[data-people='{people}']")).to_have_count(0)


def _lone(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(holder, People) of each face-up People holding one area with one tribe in it."""
    on_map = [(p, n) for _a, p, n in view["areas"]]
    return [
        (pl["symbol"], c["people"])
        for pl in view["players"]
        for c in pl["cards"]
        if c["public"] and [p for p, _n in on_map].count(c["people"]) == 1 and (c["people"], 1) in on_map
    ]


def test_counts_of_one_read_in_the_singular_in_both_languages(harness: Page) -> None:
    """A People holding one area with one tribe reads "1 area · 1 tribe", not "1 areas · 1
    tribes"; the stop button with one tribe left in the pool says that one tribe is lost."""
    state, seat = _play(0, 3, lambda s: s.current_player() >= 0 and bool(_lone(s.view(None))))
    one = _lone(state.view(seat))[0]
    for lang, words in (("en", " 1 area · 1 tribe · "), ("fr", " 1 région · 1 tribu · ")):
        _speak(harness, lang)
        _mount(harness, state, seat)
        expect(_line(harness, *one)).to_contain_text(words)

    def last_tribe(s: Any) -> bool:
        v = s.view(None)
        return (
            s.current_player() >= 0
            and v["round"] is not None
            and v["round"]["pool"] == 1
            and "stop" in s.legal_actions()
        )

    state, seat = _play(0, 3, last_tribe)
    for lang, words in (
        ("en", "Stop placing (1 tribe left in the pool is lost)"),
        ("fr", "Arrêter de placer (1 tribu de la réserve perdue)"),
    ):
        _speak(harness, lang)
        _mount(harness, state, seat)
        expect(harness.locator("#hb-choice button[data-action='stop']")).to_have_text(words)


def test_a_french_placement_says_the_same_preposition_as_the_log(harness: Page) -> None:
    """French: the button placing a tribe into an empty area and the log line of that placement
    name the area in the same words, with its own preposition ("à Byblos", "à Ougarit": a city,
    never "sur Byblos" nor "en Byblos"); the map's legend and the players' panels call the areas
    by one word, "régions"."""
    from ziggurat.engine import messages as M
    from ziggurat.games.mesopotamia_epochs.describe import describe_step, events_since, log_mark

    def empty_city(s: Any) -> bool:
        v = s.view(None)
        held = {a for a, _p, _n in v["areas"]}
        return (
            s.current_player() >= 0
            and v["pending"] is None
            and any(
                a in ("place ugarit", "place byblos") and a.split()[1] not in held for a in s.legal_actions()
            )
        )

    state, seat = _play(0, 3, empty_city)
    held = {a for a, _p, _n in state.view(None)["areas"]}
    action = next(
        a for a in state.legal_actions() if a in ("place ugarit", "place byblos") and a.split()[1] not in held
    )
    where = {"place ugarit": "à Ougarit", "place byblos": "à Byblos"}[action]
    _speak(harness, "fr")
    _mount(harness, state, seat)
    expect(harness.locator(f"#hb-choice button[data-action='{action}']")).to_have_text(
        f"Placer une tribu {where}"
    )
    before, mark = state.view(seat), log_mark(state)
    after = state.clone()
    after.apply(action)
    said = [
        M.render(msg, "fr") for msg, _ in describe_step(events_since(after, mark), before, after.view(seat))
    ]
    assert any(f"placent une tribu {where}" in line for line in said), said
    expect(harness.locator("#hb-board .epochs-legend")).to_contain_text("Qui tient les régions")
    expect(harness.locator("#hb-players .tiebreak").first).to_contain_text("Régions tenues")
    expect(harness.locator("#hb-board .epochs-legend")).not_to_contain_text("zones")


def test_a_displacement_says_why_the_others_wait_and_lists_its_own_choices_D2(harness: Page) -> None:
    """When a People starts where another seat's tribe stands, that seat chooses where its tribe
    goes (D2): the others read whom they wait for and why; the deciding seat's choices are
    listed under their own heading, not as placements."""

    def displacing(s: Any) -> bool:
        return s.current_player() >= 0 and (s.view(None)["pending"] or [None])[0] == "displace"

    for seed in range(40):
        try:
            s, decider = _play(seed, 3, displacing)
            break
        except LookupError:
            continue
    else:
        raise LookupError("no displacement")
    other = next(seat for seat in range(3) if seat != decider)
    _mount(harness, s, other)
    prompt = harness.locator("#hb-choice .prompt")
    expect(prompt).to_contain_text("must leave it")
    area = s.view(other)["pending"][1]
    name = harness.evaluate(
        """async ([area]) => {
            const { areaName } = await import('/boards/mesopotamia-epochs/labels.js');
            const { defaultData } = await import('/boards/mesopotamia-epochs/data.js');
            const { t } = await import('/i18n.js');
            return areaName(t, defaultData(), area);
        }""",
        [area],
    )
    expect(prompt).to_contain_text(name)
    groups = harness.evaluate(
        "async (acts) => { const m = await import('/boards/mesopotamia-epochs.js');"
        " return acts.map((a) => m.actionGroup(a)); }",
        [str(a) for a in s.legal_actions()],
    )
    assert set(groups) == {"displacement"}


def test_the_turn_bar_names_the_displaced_tribes_owner_as_the_one_deciding_D2(harness: Page) -> None:
    """A People starting where another seat's tribe stands: that seat decides where its tribe
    goes (D2), so the turn bar names it as the one deciding; the active People's owner does not
    read "(yours)" as if it were to decide, and the deciding seat reads that it chooses."""

    def displacing_another_seat(s: Any) -> bool:
        v = s.view(None)
        if s.current_player() < 0 or (v["pending"] or [None])[0] != "displace":
            return False
        active_owner = next(
            i for i, p in enumerate(v["players"]) for c in p["cards"] if c["people"] == v["round"]["people"]
        )
        return active_owner != s.current_player()

    for seed in range(60):
        try:
            s, decider = _play(seed, 3 + seed % 3, displacing_another_seat)
            break
        except LookupError:
            continue
    else:
        raise LookupError("no displacement of another seat's tribe")
    v = s.view(None)
    owner = next(
        i for i, p in enumerate(v["players"]) for c in p["cards"] if c["people"] == v["round"]["people"]
    )
    names = harness.evaluate(
        """async () => {
            const { symbolName } = await import('/boards/mesopotamia-epochs/labels.js');
            const { t } = await import('/i18n.js');
            return ['brooch', 'head', 'mask', 'statue', 'urn'].map((x) => symbolName(t, x));
        }"""
    )
    status = harness.locator("#hb-status")
    # the active People's owner watches another seat decide
    _mount(harness, s, owner)
    expect(status).to_contain_text(f"{names[decider]} chooses where the displaced tribe goes")
    expect(status).not_to_contain_text("(yours)")
    expect(status.locator(f".turn[data-decides='{SYMBOLS[decider]}']")).to_have_count(1)
    # the deciding seat reads that the choice is its own
    _mount(harness, s, decider)
    expect(status).to_contain_text("You choose where your displaced tribe goes")
    expect(status).to_contain_text(f"({names[owner]})")
    expect(status).not_to_contain_text("(yours)")
    # in its own placement turns, the active People's owner reads that the round is its own
    placing, seat = _play(seed, 3, lambda x: x.current_player() >= 0 and x.view(None)["pending"] is None)
    _mount(harness, placing, seat)
    expect(status).to_contain_text("(yours)")


CORNER = ("ur", "uruk", "babylon", "akkad", "kaldu", "elam")

# every area of the corner held, with stacks and counts, and every bonus mark there shown
_CORNER_CARDS = {
    "brooch": [(1, "sumerians"), (2, "amorites")],
    "head": [(1, "elamites"), (2, "kassites")],
    "mask": [(1, "akkadians"), (4, "chaldeans")],
    "statue": [(1, "guti")],
}
_CORNER_AREAS = [
    ["ur", "sumerians", 3],
    ["uruk", "akkadians", 5],
    ["babylon", "amorites", 2],
    ["akkad", "guti", 4],
    ["kaldu", "chaldeans", 1],
    ["elam", "elamites", 3],
    ["gutium", "kassites", 2],
]

DRAW_CORNER = """async ([view, combat]) => {
  const m = await import('/boards/mesopotamia-epochs.js');
  const d = await import('/boards/mesopotamia-epochs/draw.js');
  const { t } = await import('/i18n.js');
  const board = document.getElementById('board');
  board.replaceChildren(d.draw(view, { t, combat, lit: new Map([['babylon', 'attack'], ['kaldu', 'place']]) }), m.legend(t, view));
}"""

# the boxes on screen of the labels, marks and tribes of the corner's areas, and the area under
# the middle of each (what a click or a tap there reaches)
CORNER_BOXES = """(corner) => {
  const svg = document.querySelector('#board svg.epochs-map');
  svg.querySelector('.area[data-area="uruk"]').scrollIntoView({ block: 'center', inline: 'center' });
  const out = [];
  const items = [
    ...[...svg.querySelectorAll('.labels [data-of]')].map((e) => [e, e.dataset.of, e.classList[0]]),
    ...[...svg.querySelectorAll('.pieces .tribe')].map((e) => [e, e.dataset.area, e.dataset.attacker ? 'attacker' : 'tribe']),
  ];
  for (const [el, area, kind] of items) {
    if (!corner.includes(area)) continue;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const under = document.elementsFromPoint(x, y).find((e) => e.closest('.epochs-map .area'));
    out.push({ area, kind, box: [r.left, r.top, r.right, r.bottom], under: under?.closest('.area').dataset.area ?? null });
  }
  return out;
}"""


def _corner_view() -> dict[str, Any]:
    state, seat = _play(5, 4, lambda s: s.current_player() >= 0 and s.view(None)["phase"] == "strategy")
    view: dict[str, Any] = state.view(seat)
    for pl in view["players"]:
        pl["cards"] = [
            {"epoch": e, "people": p, "public": True, "known_by": []} for e, p in _CORNER_CARDS[pl["symbol"]]
        ]
    view["areas"] = _CORNER_AREAS
    view["round"] = {"people": "akkadians", "order": 4, "pool": 3, "sea_start": False, "coast_held": False}
    view["pending"] = None
    view["last_attack"] = None
    return view


@pytest.mark.parametrize(
    ("size", "viewport"),
    [("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})],
)
def test_the_ur_uruk_corner_has_no_piece_label_or_count_over_another(new_page, server, shots, size, viewport):
    """Sumer's corner (Ur, Uruk, Babylon, Akkad, Kaldu, Elam) with every area held, stacks with
    counts, double-value and bonus marks, and an attack under way: on the table page at desktop
    and phone sizes, no label, mark or tribe (with its count) overlaps another, and a click or
    a tap on the middle of any of them reaches its own area."""
    phone = size == "phone"
    page = new_page(viewport=viewport, is_mobile=phone, has_touch=phone)
    table = server.create_table([{"kind": "human"}] * 3, game=GAME, seed=3)
    open_table(page, table["seats"][0]["link"])
    # the seats' facts come after the first state and redraw the board: the corner is drawn
    # over the board once they are here, so nothing of the page's own replaces it
    expect(page.locator("#players .conn").first).to_be_visible()
    view = _corner_view()
    for combat in (None, {"area": "babylon", "dice": 1}):
        view["pending"] = ["combat", "babylon", 1] if combat else None
        page.evaluate(DRAW_CORNER, [view, combat])
        found = page.evaluate(CORNER_BOXES, list(CORNER))
        assert {f["area"] for f in found} == set(CORNER)
        for f in found:
            assert f["under"] == f["area"], f
        for i, a in enumerate(found):
            for b in found[i + 1 :]:
                (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["box"], b["box"]
                apart = ax1 <= bx0 + 0.5 or bx1 <= ax0 + 0.5 or ay1 <= by0 + 0.5 or by1 <= ay0 + 0.5
                assert apart, (a, b)
        name = "combat" if combat else "held"
        page.locator("#board svg.epochs-map").screenshot(
            path=str(shots / f"boards_epochs_corner_{size}_{name}.png")
        )
