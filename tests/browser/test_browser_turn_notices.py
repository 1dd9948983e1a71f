"""Being told it is your turn on the table page (notify.js): the tab's title and favicon, the
optional chime, and the browser notification that is asked for by a click, never on load.

Each page gets an init script that counts what the page does with the browser: calls to
``Notification.requestPermission`` and to the ``Notification`` constructor, ``AudioContext``s made
and notes played, and every title and favicon the page sets; it can also make the page hidden
(``document.visibilityState``) as a tab in the background is.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import HEURISTIC, HUMAN, click_and_wait, full_shot, open_table, state, wait_my_turn
from playwright.sync_api import Page, expect

WATCH = """
(() => {
  const seen = { asks: 0, notices: [], contexts: 0, notes: 0, titles: [], icons: [], states: 0 };
  window.__turn = seen;
  if (window.Notification) {
    const Real = window.Notification;
    function Counted(title, options) {
      seen.notices.push(title);
      return new Real(title, options);
    }
    Counted.prototype = Real.prototype;
    Object.defineProperty(Counted, "permission", { get: () => Real.permission });
    Counted.requestPermission = (...args) => {
      seen.asks += 1;
      return Real.requestPermission(...args);
    };
    window.Notification = Counted;
  }
  if (window.AudioContext) {
    const RealAudio = window.AudioContext;
    window.AudioContext = class extends RealAudio {
      constructor(...args) {
        super(...args);
        seen.contexts += 1;
      }
      createOscillator() {
        seen.notes += 1;
        return super.createOscillator();
      }
    };
  }
  const title = Object.getOwnPropertyDescriptor(Document.prototype, "title");
  Object.defineProperty(Document.prototype, "title", {
    configurable: true,
    get() { return title.get.call(this); },
    set(value) {
      if (seen.titles.at(-1) !== value) seen.titles.push(value);
      title.set.call(this, value);
    },
  });
  new MutationObserver(() => {
    const href = document.querySelector("link[rel~='icon']")?.getAttribute("href");
    if (href && seen.icons.at(-1) !== href) seen.icons.push(href);
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["href"] });
  const RealSocket = window.WebSocket;
  window.WebSocket = class extends RealSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        try {
          if (JSON.parse(ev.data).type === "state") seen.states += 1;
        } catch (e) { /* not JSON */ }
      });
    }
  };
  let hidden = !!window.__startHidden;
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

TURN = "(Your turn) Mesopotamia — Ziggurat"
NORMAL = "Mesopotamia — Ziggurat"
QUICK = ("end", "pass", "income", "stop")


def _watched(page: Page, hidden: bool = False) -> Page:
    """Count what ``page`` does (WATCH); ``hidden``: its tab opens in the background."""
    if hidden:
        page.context.add_init_script("window.__startHidden = true")
    page.context.add_init_script(WATCH)
    return page


def _seen(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.__turn")
    return result


@pytest.fixture(scope="module")
def accounts_server(start_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of this module's own for the account made here (sign-ups are limited per address)."""
    with start_server(tmp_path_factory.mktemp("turn-notices"), "bot_delay=0.05") as srv:
        yield srv


def _table(server: Any) -> str:
    """A Mesopotamia table of this seat (Blue) and two fast heuristic bots, once the bots have
    played up to Blue's first turn: the page opens on a turn that is already this seat's."""
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=5)
    seat = answer["seats"][0]
    for _ in range(400):
        if server.request("GET", f"/api/tables/{answer['table']}", token=seat["token"])["to_move"] == "blue":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the bots did not come to Blue's turn")
    url: str = server.url(seat["link"])
    return url


def _play_turn(page: Page) -> None:
    """Play this seat's turn to its end (the first quick action, else the first legal one),
    until the page has set a title other than its turn's."""
    start = len(_seen(page)["titles"])
    for _ in range(80):
        if page.evaluate(f"window.__turn.titles.slice({start}).some((t) => !t.startsWith('(Your turn)'))"):
            return
        legal = state(page)["legal"]
        quick = [a for a in legal if a.split(" ")[0] in QUICK] or legal
        click_and_wait(page, page.locator(f"#legal button[data-action='{quick[0]}']"))
        expect(page.locator("#error")).to_be_hidden()
    raise AssertionError("the turn did not end")


def _wait_turn_again(page: Page) -> None:
    page.wait_for_function("() => document.title.startsWith('(Your turn)')", timeout=30000)


def test_title_and_favicon_mark_the_turn_and_go_back_after_it(page, server, shots):
    _watched(page)
    open_table(page, _table(server))
    assert wait_my_turn(page)
    expect(page).to_have_title(TURN)
    expect(page.locator("link[rel~='icon']")).to_have_attribute("href", "/favicon-turn.svg")
    expect(page.locator("#turn-settings")).to_be_visible()
    full_shot(page, shots / "turn_notices_settings.png")
    page.locator("#turn-settings").screenshot(path=str(shots / "turn_notices_settings_box.png"))

    start = len(_seen(page)["titles"])
    icons_start = len(_seen(page)["icons"])
    _play_turn(page)
    _wait_turn_again(page)
    seen = _seen(page)
    # the bots' turns in between: the title and the favicon went back, then the turn came again
    assert seen["titles"][start:] == [NORMAL, TURN]
    assert seen["icons"][icons_start:] == ["/favicon.svg", "/favicon-turn.svg"]
    expect(page.locator("link[rel~='icon']")).to_have_attribute("href", "/favicon-turn.svg")
    # a visible tab is never marked, and nothing was asked or shown
    assert not [t for t in seen["titles"] if t.startswith("•")]
    assert seen["asks"] == 0 and seen["notices"] == []

    page.click(".lang-btn[data-lang='fr']")
    expect(page).to_have_title("(À vous) Mésopotamie — Ziggurat")
    expect(page.locator("#turn-settings h3")).to_have_text("Quand c'est à moi")
    expect(page.locator("#turn-notify")).to_have_text("Me prévenir")
    page.locator("#turn-settings").screenshot(path=str(shots / "turn_notices_settings_fr.png"))


def test_a_spectator_has_no_turn_and_no_settings(page, server):
    answer = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=5)
    _watched(page)
    open_table(page, server.url(answer["spectator_link"]))
    expect(page).to_have_title(NORMAL)
    expect(page.locator("#turn-settings")).to_be_hidden()
    seen = _seen(page)
    assert not [t for t in seen["titles"] if t.startswith("(Your turn)")]
    assert "/favicon-turn.svg" not in seen["icons"] and seen["asks"] == 0


def test_permission_is_asked_only_by_the_click(page, server, shots):
    _watched(page)
    open_table(page, _table(server))
    assert wait_my_turn(page)
    button = page.locator("#turn-notify")
    expect(button).to_have_text("Notify me")
    expect(button).to_be_enabled()
    assert _seen(page)["asks"] == 0
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44

    button.click()
    page.wait_for_function("() => window.__turn.asks > 0")
    # the browser of the tests answers "blocked": the page says how to allow them
    expect(page.locator("#turn-notify-help")).to_contain_text("Notifications are blocked for this site")
    expect(button).to_be_disabled()
    assert _seen(page)["asks"] == 1
    page.locator("#turn-settings").screenshot(path=str(shots / "turn_notices_blocked.png"))
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#turn-notify-help")).to_contain_text("Notifications are blocked for this site")
    assert _seen(page)["asks"] == 0


def test_notification_when_the_turn_comes_in_a_hidden_tab(page, server, shots):
    _watched(page, hidden=True)
    page.context.grant_permissions(["notifications"], origin=server.base)
    open_table(page, _table(server))
    assert wait_my_turn(page)
    button = page.locator("#turn-notify")
    expect(button).to_have_text("Notifications on")
    expect(button).to_have_attribute("aria-pressed", "true")
    page.locator("#turn-settings").screenshot(path=str(shots / "turn_notices_granted.png"))
    # the turn that was already this seat's when the (hidden) page opened is not announced
    assert page.evaluate("document.visibilityState") == "hidden"
    assert _seen(page)["notices"] == []
    expect(page).to_have_title(TURN)

    _play_turn(page)
    page.wait_for_function("() => window.__turn.notices.length > 0", timeout=30000)
    assert _seen(page)["notices"] == ["Your turn at Mesopotamia"]
    expect(page).to_have_title(TURN)

    # the turn ends while the tab is still hidden: a marker stays until the tab is seen
    start = len(_seen(page)["titles"])
    _play_turn(page)
    assert _seen(page)["titles"][start] == f"• {NORMAL}"
    page.evaluate("window.__setHidden(false)")
    page.wait_for_function("() => !document.title.startsWith('•')")
    assert _seen(page)["asks"] == 0

    # turned off on this page: no notification for the next turns, even hidden
    button.click()
    expect(button).to_have_text("Notify me")
    expect(button).to_have_attribute("aria-pressed", "false")
    before = len(_seen(page)["notices"])
    page.evaluate("window.__setHidden(true)")
    if not state(page)["legal"]:
        _wait_turn_again(page)
    _play_turn(page)
    _wait_turn_again(page)
    assert len(_seen(page)["notices"]) == before
    assert _seen(page)["asks"] == 0


def test_sound_toggle_persists_and_is_silent_on_load(page, server):
    _watched(page)
    url = _table(server)
    open_table(page, url)
    assert wait_my_turn(page)
    sound = page.locator("#turn-sound")
    expect(sound).not_to_be_checked()
    seen = _seen(page)
    assert seen["contexts"] == 0 and seen["notes"] == 0
    row = page.locator(".turn-sound").bounding_box()
    assert row is not None and row["height"] >= 44

    page.click("label.turn-sound")  # turning it on plays the chime once, so it can be heard
    expect(sound).to_be_checked()
    page.wait_for_function("() => window.__turn.notes > 0")

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert wait_my_turn(page)
    expect(sound).to_be_checked()
    # the turn was already this seat's when the page opened: no sound
    seen = _seen(page)
    assert seen["contexts"] == 0 and seen["notes"] == 0

    _play_turn(page)
    _wait_turn_again(page)
    page.wait_for_function("() => window.__turn.notes > 0")
    assert _seen(page)["contexts"] == 1

    # the socket drops and the page connects again: the turn is still this seat's, no new chime
    seen = _seen(page)
    page.evaluate("window.__ziggurat.socket.ws.close()")
    page.wait_for_function(f"() => window.__turn.states > {seen['states']}", timeout=15000)
    expect(page).to_have_title(TURN)
    assert _seen(page)["notes"] == seen["notes"]

    page.click("label.turn-sound")
    expect(sound).not_to_be_checked()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#turn-sound")).not_to_be_checked()


def test_the_lobby_counts_the_games_waiting_for_my_move(page, accounts_server):
    base = accounts_server.base
    _watched(page)
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#account-open")
    page.fill("#account-user", "Enheduanna")
    page.fill("#account-password", "hymns to inanna 23")
    page.click("#signup")
    expect(page.locator("#my-games")).to_contain_text("No games in your account yet")
    expect(page).to_have_title("Ziggurat")
    expect(page.locator("link[rel~='icon']")).to_have_attribute("href", "/favicon.svg")

    open_table(page, _table(accounts_server))  # Blue's turn, saved to the account
    page.click("#save-game")
    expect(page.locator("#account-save .saved-line")).to_be_visible()
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#my-games [data-group='your-turn'] li")).to_have_count(1)
    expect(page).to_have_title("(Your turn: 1) Ziggurat")
    expect(page.locator("link[rel~='icon']")).to_have_attribute("href", "/favicon-turn.svg")
    page.click(".lang-btn[data-lang='fr']")
    expect(page).to_have_title("(À vous : 1) Ziggurat")
