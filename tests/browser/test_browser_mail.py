""" "Your turn" mails in the browser (docs/server.md, "Mail"): the preferences page, reached from
the lobby's account area, sets the address and the checkbox; the unsubscribe link of a real
mail (a local aiosmtpd server) opens a page whose button stops the mails; an unknown link
says so. English and French."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from browser_helpers import full_shot
from playwright.sync_api import Page, expect

from live_server import free_port

PASSWORD = "hanging gardens 11"


class Inbox:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.mails.append(msg)
        return "250 OK"


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mail_server(
    start_server: Any, tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]
) -> Iterator[Any]:
    """A server of this module's own that mails through the local SMTP server."""
    port = inbox[1]
    smtp = f"__import__('ziggurat.server.mail', fromlist=['SmtpSettings']).SmtpSettings(host='127.0.0.1', port={port}, tls='none', sender='tables@ziggurat.example')"
    with start_server(tmp_path_factory.mktemp("mail"), f"bot_delay=0.05, smtp={smtp}") as srv:
        yield srv


def sign_up(page: Page, base: str, name: str) -> str:
    """Sign up through the API in the page's browser context (its cookie); the CSRF token."""
    r = page.request.post(base + "/api/account/signup", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    csrf: str = r.json()["csrf"]
    return csrf


def test_the_preferences_page_sets_the_address_and_the_checkbox(
    page: Page, mail_server: Any, shots: Any
) -> None:
    base = mail_server.base
    sign_up(page, base, "Nabu")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#mail-link")).to_have_text("Mail settings")
    page.click("#mail-link")
    page.wait_for_selector("body[data-ready='1']")
    assert urlsplit(page.url).path == "/account/preferences"
    expect(page.locator("#prefs h2")).to_have_text("Mail when it is your turn")
    expect(page.locator("#mail-off")).to_be_hidden()  # this server has SMTP settings
    expect(page.locator("#prefs-email")).to_have_value("")
    expect(page.locator("#prefs-turns")).to_be_checked()

    page.fill("#prefs-email", "nabu at borsippa")
    page.click("#prefs-save")
    expect(page.locator("#prefs-status")).to_have_text("This is not an e-mail address (name@example.org).")
    expect(page.locator("#prefs-email")).to_have_attribute("aria-invalid", "true")
    full_shot(page, shots / "mail_preferences_error.png")

    page.fill("#prefs-email", "nabu@borsippa.example")
    page.uncheck("#prefs-turns")
    page.click("#prefs-save")
    expect(page.locator("#prefs-status")).to_have_text("Saved.")
    full_shot(page, shots / "mail_preferences_saved.png")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#prefs-email")).to_have_value("nabu@borsippa.example")
    expect(page.locator("#prefs-turns")).not_to_be_checked()
    answer = page.request.get(base + "/api/account/preferences").json()
    assert answer == {"email": "nabu@borsippa.example", "mail_turns": False, "mail_enabled": True}

    page.click("button.lang-btn[data-lang='fr']")
    expect(page.locator("#prefs h2")).to_have_text("Courriel quand c'est votre tour")
    expect(page.locator("label[for='prefs-turns']")).to_have_text("M'écrire quand c'est mon tour")
    full_shot(page, shots / "mail_preferences_fr.png")


def test_signed_out_the_preferences_page_asks_to_sign_in(page: Page, mail_server: Any) -> None:
    page.goto(mail_server.base + "/account/preferences")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#fatal")).to_have_text(
        "Sign in first (in the lobby, top right) to choose your mail settings."
    )
    expect(page.locator("#prefs")).to_be_hidden()


def test_the_unsubscribe_link_of_a_real_mail_stops_the_mails(
    page: Page, mail_server: Any, inbox: tuple[Inbox, int], shots: Any
) -> None:
    base = mail_server.base
    csrf = sign_up(page, base, "Ishtar")
    prefs = {"email": "ishtar@uruk.example", "mail_turns": True}
    r = page.request.post(
        base + "/api/account/preferences",
        data=json.dumps(prefs),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )
    assert r.status == 200, r.text()
    # a guest hosts a turn-based table; Ishtar takes the seat that moves first; the host starts
    table = mail_server.request(
        "POST",
        "/api/tables",
        {
            "game": "mesopotamia",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "seed": 3,
            "public": True,
            "host_name": "Ada",
            "time_control": {"kind": "turn_based", "per_turn": 86400},
        },
    )
    joined = page.request.post(
        f"{base}/api/tables/{table['table']}/join", data={"seat": 1}, headers={"X-CSRF-Token": csrf}
    )
    assert joined.status == 200, joined.text()
    mail_server.request("POST", f"/api/tables/{table['table']}/start", {}, token=table["seats"][0]["token"])
    while not [m for m in inbox[0].mails if m["To"] == "ishtar@uruk.example"]:
        time.sleep(0.05)  # the suite's per-test timeout catches a mail that never comes
    (mail,) = [m for m in inbox[0].mails if m["To"] == "ishtar@uruk.example"]
    unsubscribe = mail["List-Unsubscribe"].strip().strip("<>")
    assert unsubscribe in mail.get_content()

    fresh = page.context.browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})  # type: ignore[union-attr]
    other = fresh.new_page()  # no sign-in: a mail program's browser
    try:
        other.goto(unsubscribe)
        other.wait_for_selector("body[data-ready='1']")
        expect(other.locator("#unsub-text")).to_have_text("Stop the “your turn” mails of the account Ishtar?")
        full_shot(other, shots / "mail_unsubscribe_ask.png")
        other.click("#unsub-button")
        expect(other.locator("#unsub-text")).to_contain_text(
            "Done: the account Ishtar gets no more turn mails."
        )
        expect(other.locator("#unsub-button")).to_be_hidden()
        full_shot(other, shots / "mail_unsubscribe_done.png")

        other.goto(base + "/unsubscribe/0.00000000000000000000000000000000")
        other.wait_for_selector("body[data-ready='1']")
        expect(other.locator("#fatal")).to_have_text(
            "This unsubscribe link is unknown or out of date: nothing was changed."
        )
        expect(other.locator("#unsub")).to_be_hidden()
        other.click("button.lang-btn[data-lang='fr']")
        expect(other.locator("#fatal")).to_have_text(
            "Ce lien de désabonnement est inconnu ou périmé : rien n'a été changé."
        )
        full_shot(other, shots / "mail_unsubscribe_unknown_fr.png")
    finally:
        fresh.close()
    assert page.request.get(base + "/api/account/preferences").json()["mail_turns"] is False
