"""Mesopotamia: Epochs in French in the browser: the log and the refusals come as messages
(``event``) rendered from the game's catalogue by messages.js, exactly as the engine renders
them; switched to French, a table shows no English sentence in its log and a French refusal."""

from __future__ import annotations

import random
from typing import Any

from browser_helpers import open_table, render_in_english_and_french, state, wait_my_turn
from playwright.sync_api import expect

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.games.mesopotamia_epochs.describe import describe_step, events_since, log_mark

GAME = "mesopotamia-epochs"
BOT = {"kind": "bot", "bot": "heuristic"}


def _log_events(games: int = 4) -> list[dict[str, Any]]:
    """The log messages of seeded random games, as seat 0 and a spectator read them (JSON)."""
    out: dict[str, dict[str, Any]] = {}
    for seed in range(games):
        s = ziggurat.load(GAME, players=(3, 5, 2, 4)[seed % 4]).new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            before = [s.view(0), s.view(None)]
            mark = log_mark(s)
            if s.current_player() == ziggurat.CHANCE:
                s.apply(ziggurat.sample_chance(s, rng))
            else:
                s.apply(rng.choice(s.legal_actions()))
            events = events_since(s, mark)
            for viewer, b in zip((0, None), before, strict=True):
                for msg, _ in describe_step(events, b, s.view(viewer)):
                    out.setdefault(str(msg), msg.to_json())
    return list(out.values())


def test_the_browser_renders_every_log_message_as_the_engine_does(page, server):
    events = _log_events()
    assert len(events) > 500
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    rendered = render_in_english_and_french(page, events)
    expected = [[M.render(e, "en"), M.render(e, "fr")] for e in events]
    assert rendered == expected
    assert all(fr != en and "{" not in fr for en, fr in rendered)


def _refusal(view: dict[str, Any], action: str) -> M.Message:
    """The reason the engine gives for ``action`` at the position of this view."""
    game = ziggurat.load(GAME, players=len(view["players"]))
    s = game.sample_state(view, 0, random.Random(1))
    try:
        s.apply(action, seat=0)
    except ziggurat.IllegalAction as exc:
        reason: M.Message = exc.args[0].params["reason"]
        return reason
    raise AssertionError(f"{action} was not refused")


def test_a_french_table_shows_a_french_log_and_a_french_refusal(page, server, shots):
    answer = server.create_table([{"kind": "human"}, BOT, BOT], seed=2, game=GAME)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#who")).to_contain_text("Broche")
    expect(page.locator("#log-list li").first).to_contain_text("Broche reçoit les")
    st = state(page)
    log = st["log"]
    assert log and all("event" in e for e in log)
    shown = page.locator("#log-list li .sentence").all_inner_texts()
    assert shown == [M.render(e["event"], "fr") for e in log]
    english = (" is dealt", " place a tribe", "Round #", " score ")
    assert not [s for s in shown if any(w in s for w in english)]
    # the panels name the Peoples in French too, once the French catalogue has come
    known = sorted({c["people"] for p in st["view"]["players"] for c in p["cards"] if c["people"]})
    changed = [(en, en.render("fr")) for en in (M.noun("epochs.people", p) for p in known)]
    changed = [(en, fr) for en, fr in changed if en not in fr]
    assert changed
    for en, fr in changed:
        expect(page.locator("#players")).to_contain_text(fr)
        expect(page.locator("#players")).not_to_contain_text(str(en))

    # a refused move: the reason in French, as the engine words it
    action = next(a for a in ("place kaldu", "place great_green", "remove") if a not in st["legal"])
    reason = _refusal(st["view"], action)
    assert reason.key.startswith("epochs.refusal.") and reason.render("fr") != str(reason)
    page.fill("#notation", action)
    page.press("#notation", "Enter")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error .reason")).to_have_text(reason.render("fr"))
    page.screenshot(path=str(shots / "epochs_refusal_fr.png"))
    page.click(".lang-btn[data-lang='en']")
