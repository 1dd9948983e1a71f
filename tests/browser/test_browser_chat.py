"""The table page's chat (static/chat.js): two seats in two browsers write to each other, a
spectator reads, markup is shown as text and never run, refusals show under the input, the
history comes back on reload, French, and on a phone the chat folds under the log."""

from __future__ import annotations

from browser_helpers import HUMAN, full_shot, open_table
from playwright.sync_api import Page, expect

SCRIPT = "<script>window.pwned=1</script>"


def _say(page: Page, text: str, enter: bool = True) -> None:
    page.locator("#chat-input").fill(text)
    if enter:
        page.locator("#chat-input").press("Enter")
    else:
        page.locator(".chat-send").click()


def _texts(page: Page) -> list[str]:
    texts: list[str] = page.locator(".chat-list .chat-text").all_text_contents()
    return texts


def test_two_seats_chat_a_spectator_reads_and_markup_stays_text(server, new_page, shots):
    answer = server.create_table([HUMAN, HUMAN], seed=21)
    blue, yellow, watcher = new_page(), new_page(), new_page()
    open_table(blue, server.url(answer["seats"][0]["link"]))
    open_table(yellow, server.url(answer["seats"][1]["link"]))
    open_table(watcher, server.url(answer["spectator_link"]))
    for page in (blue, yellow, watcher):
        expect(page.locator(".chat-empty")).to_be_visible()

    _say(blue, "Hello from the river")
    _say(yellow, "Hello back\nfrom the desert", enter=False)  # Send button; the line break stays
    for page in (blue, yellow, watcher):
        expect(page.locator(".chat-list .chat-msg")).to_have_count(2)
        assert _texts(page) == ["Hello from the river", "Hello back\nfrom the desert"]
        names = page.locator(".chat-list .chat-name").all_text_contents()
        assert names == ["Blue", "Yellow"]
        times = page.locator(".chat-list .chat-time").all_text_contents()
        assert all(times), times
    expect(blue.locator("#chat-input")).to_have_value("")
    expect(blue.locator(".chat-msg.mine")).to_have_count(1)
    expect(blue.locator(".chat-msg.mine .chat-text")).to_have_text("Hello from the river")

    # the spectator reads and has no input
    expect(watcher.locator(".chat-form")).to_be_hidden()
    expect(watcher.locator(".chat-readonly")).to_be_visible()
    expect(watcher.locator("#chat-input")).to_be_hidden()

    # a script in a message is shown as its characters and never runs
    _say(blue, SCRIPT)
    for page in (blue, yellow, watcher):
        expect(page.locator(".chat-list .chat-text").last).to_have_text(SCRIPT)
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.locator(".chat-list script").count() == 0
    full_shot(yellow, shots / "chat_seat.png")
    full_shot(watcher, shots / "chat_spectator.png")

    # the counter, and a message over the limit cannot be sent
    yellow.locator("#chat-input").fill("x" * 501)
    expect(yellow.locator(".chat-counter")).to_have_text("501/500")
    expect(yellow.locator(".chat-send")).to_be_disabled()
    yellow.locator("#chat-input").fill("  ok  ")
    expect(yellow.locator(".chat-counter")).to_have_text("2/500")
    expect(yellow.locator(".chat-send")).to_be_enabled()
    yellow.locator("#chat-input").fill("")

    # a flood is refused under the input: a seat writes at most 5 messages in 10 seconds, so
    # quick messages are refused at the latest by the sixth (sooner on a fast machine, where
    # blue's first two are still in the window); each send waits for its answer
    refused = None
    for i in range(6):
        shown = blue.locator(".chat-list .chat-msg").count()
        _say(blue, f"quick {i}")
        blue.wait_for_function(
            "(n) => document.querySelectorAll('.chat-list .chat-msg').length > n"
            " || !!document.querySelector('.chat-error')?.offsetParent",
            arg=shown,
        )
        if blue.locator(".chat-error").is_visible():
            refused = f"quick {i}"
            break
    assert refused is not None, "six quick messages were all accepted"
    expect(blue.locator(".chat-error")).to_contain_text("wait")
    expect(blue.locator(".chat-error")).to_contain_text(" s ")
    expect(blue.locator("#chat-input")).to_have_value(refused)  # the refused text is kept
    accepted = blue.locator(".chat-list .chat-msg").count()
    expect(yellow.locator(".chat-list .chat-msg")).to_have_count(accepted)
    expect(yellow.locator(".chat-error")).to_be_hidden()
    blue.screenshot(path=str(shots / "chat_flood.png"))

    # the history comes back on reload, and in French a seat's colour is named in French
    yellow.evaluate("localStorage.setItem('ziggurat.lang', 'fr')")
    yellow.reload()
    yellow.wait_for_selector("body[data-ready='1']")
    expect(yellow.locator(".chat-list .chat-msg")).to_have_count(accepted)
    assert _texts(yellow) == _texts(blue)
    expect(yellow.locator("#chat-title")).to_have_text("Discussion")
    expect(yellow.locator(".chat-list .chat-name").first).to_have_text("Bleu")
    expect(yellow.locator(".chat-list .chat-msg.mine .chat-name")).to_have_text("Jaune")
    expect(yellow.locator(".chat-counter")).to_have_text("0/500")
    assert yellow.evaluate("typeof window.pwned") == "undefined"
    full_shot(yellow, shots / "chat_seat_fr.png")


def test_on_a_phone_the_chat_folds_under_the_log(server, new_page, shots):
    answer = server.create_table([HUMAN, HUMAN], seed=22)
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    other = new_page()
    open_table(phone, server.url(answer["seats"][0]["link"]))
    open_table(other, server.url(answer["seats"][1]["link"]))
    panel = phone.locator("#chat")
    log_box = phone.locator(".log-panel").bounding_box()
    chat_box = panel.bounding_box()
    assert log_box is not None and chat_box is not None
    assert chat_box["y"] >= log_box["y"] + log_box["height"]  # under the log
    expect(phone.locator(".chat-fold")).to_have_attribute("aria-expanded", "false")
    expect(phone.locator(".chat-list")).to_be_hidden()

    _say(other, "Are you there?")
    expect(phone.locator(".chat-unread")).to_have_text("1")
    panel.scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "chat_phone_folded.png"))
    fold = phone.locator(".chat-fold").bounding_box()
    assert fold is not None and fold["height"] >= 44
    phone.locator(".chat-fold").tap()
    expect(phone.locator(".chat-fold")).to_have_attribute("aria-expanded", "true")
    expect(phone.locator(".chat-unread")).to_be_hidden()
    expect(phone.locator(".chat-list .chat-text")).to_have_text(["Are you there?"])
    phone.locator("#chat-input").fill("Yes, thinking.")
    phone.locator(".chat-send").tap()
    expect(other.locator(".chat-list .chat-text")).to_have_text(["Are you there?", "Yes, thinking."])
    send = phone.locator(".chat-send").bounding_box()
    assert send is not None and send["height"] >= 44 and send["width"] >= 44
    panel.scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "chat_phone_open.png"))
