"""Accounts in the browser: sign up in the lobby, save a table's seat to the account, find it in
"My games" on another device (a fresh browser context) and open it; the profile page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import full_shot
from playwright.sync_api import Page, expect

PASSWORD = "tigris and euphrates 3"


@pytest.fixture(scope="module")
def accounts_server(start_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of this module's own: sign-ups are limited per address, so the accounts made
    here do not count against the shared server's."""
    with start_server(tmp_path_factory.mktemp("accounts"), "bot_delay=0.05") as srv:
        yield srv


def open_lobby(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")


def fill_account_form(page: Page, name: str, password: str) -> None:
    if page.locator("#account").is_hidden():
        page.click("#account-open")
    page.fill("#account-user", name)
    page.fill("#account-password", password)


def test_sign_up_save_a_game_and_open_it_from_my_games_on_another_device(
    new_page: Any, accounts_server: Any, shots: Any
) -> None:
    base = accounts_server.base
    page = new_page()
    open_lobby(page, base)
    expect(page.locator("#account-open")).to_have_text("Sign in")
    expect(page.locator("#my-games")).to_be_hidden()
    full_shot(page, shots / "accounts_lobby_signed_out.png")

    fill_account_form(page, "Gudea", "short")
    page.click("#signup")
    expect(page.locator("#account-error")).to_have_text(
        "The password is too weak: use at least 8 characters."
    )
    full_shot(page, shots / "accounts_signup_error.png")
    page.fill("#account-password", PASSWORD)
    page.click("#signup")
    expect(page.locator("#account-bar .account-label")).to_have_text("Signed in as")
    expect(page.locator("#profile-link")).to_have_text("Gudea")
    expect(page.locator("#account")).to_be_hidden()
    expect(page.locator("#my-games")).to_contain_text("No games in your account yet")

    page.click("#create")  # the default table: seat 1 human, the others bots
    link = page.locator("a[data-open='seat-0']")
    table = link.get_attribute("href").split("/")[2].split("#")[0]  # type: ignore[union-attr]
    link.click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#save-game")).to_have_text("Save this game to my account")
    full_shot(page, shots / "accounts_table_save.png")
    page.click("#save-game")
    expect(page.locator("#account-save .saved-line")).to_contain_text("Saved to your account (Gudea)")

    open_lobby(page, base)
    entry = page.locator(f"#my-games li[data-table='{table}']")
    expect(entry).to_contain_text("You play Blue")
    expect(page.locator("#my-tables-list")).to_contain_text(table)  # the links this browser keeps
    full_shot(page, shots / "accounts_lobby_signed_in.png")
    page.click("#signout")
    expect(page.locator("#account-open")).to_be_visible()
    expect(page.locator("#my-games")).to_be_hidden()

    other = new_page()  # another device: no token, no cookie
    open_lobby(other, base)
    expect(other.locator("#my-tables-list")).to_contain_text("No tables yet")
    fill_account_form(other, "gudea", "not the password")
    other.click("#signin")
    expect(other.locator("#account-error")).to_have_text("Wrong user name or password.")
    other.fill("#account-password", PASSWORD)
    other.click("#signin")
    expect(other.locator("#profile-link")).to_have_text("Gudea")
    other.click(f"#my-games button[data-open='{table}']")
    other.wait_for_url(f"**/table/{table}#token=*")
    other.wait_for_selector("body[data-ready='1']")
    expect(other.locator("#who")).to_have_text("You play Blue")
    expect(other.locator("#account-save .saved-line")).to_be_visible()

    open_lobby(other, base)
    other.click("#profile-link")
    other.wait_for_selector("body[data-ready='1']")
    expect(other.locator("#profile-name")).to_have_text("Profile of Gudea")
    expect(other.locator(f".profile-games li[data-table='{table}']")).to_contain_text("Plays Blue")
    expect(other.locator("#profile-ratings")).to_contain_text("No rated games yet.")
    assert "token" not in other.content()
    full_shot(other, shots / "accounts_profile.png")


def test_account_errors_are_shown_in_place_in_french(new_page: Any, accounts_server: Any, shots: Any) -> None:
    page = new_page(locale="fr-FR")
    open_lobby(page, accounts_server.base)
    expect(page.locator("#account-open")).to_have_text("Se connecter")
    fill_account_form(page, "Naram-Sin", PASSWORD)
    page.click("#signup")
    expect(page.locator("#account-bar .account-label")).to_have_text("Connecté :")
    expect(page.locator("#profile-link")).to_have_text("Naram-Sin")
    expect(page.locator("#my-games h2")).to_contain_text("Mes parties")
    page.click("#signout")
    fill_account_form(page, "naram-sin", PASSWORD)
    page.click("#signup")
    expect(page.locator("#account-error")).to_have_text(
        "Ce nom d'utilisateur est déjà pris : choisissez-en un autre."
    )
    expect(page.locator("#account-open")).to_be_visible()  # nothing signed in on a refusal
    full_shot(page, shots / "accounts_lobby_fr_error.png")
    page.goto(accounts_server.base + "/profile/nobody-of-that-name")
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#fatal")).to_have_text("Aucun joueur ne s'appelle nobody-of-that-name.")


def test_the_account_area_is_44px_on_a_phone(new_page: Any, accounts_server: Any, shots: Any) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    open_lobby(page, accounts_server.base)
    page.click("#account-open")
    for selector in (
        "#account-open",
        "#account-user",
        "#account-password",
        "#signin",
        "#signup",
        ".close-panel",
    ):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["height"] >= 44, (selector, box)
    full_shot(page, shots / "accounts_lobby_phone.png")
    fill_account_form(page, "Lugalbanda", PASSWORD)
    page.click("#signup")
    expect(page.locator("#profile-link")).to_have_text("Lugalbanda")
    for selector in ("#profile-link", "#signout", "#my-games-refresh"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (selector, box)
    full_shot(page, shots / "accounts_lobby_phone_signed_in.png")


def test_every_account_string_has_english_and_french(page: Page, accounts_server: Any) -> None:
    open_lobby(page, accounts_server.base)
    missing = page.evaluate(
        """async () => {
            const { STRINGS } = await import('/i18n.js');
            const ours = (l) => Object.keys(STRINGS[l]).filter((k) => /^(acct|games|save|profile)\\./.test(k));
            const en = ours('en'), fr = ours('fr');
            return { count: en.length, fr: en.filter((k) => !fr.includes(k)), en: fr.filter((k) => !en.includes(k)) };
        }"""
    )
    assert missing["count"] > 40
    assert missing["fr"] == [] and missing["en"] == []
