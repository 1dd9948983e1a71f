"""Ratings in the browser (docs/server.md, "Ratings"): the game-over box of a rated table shows
each account's change and the bot's fixed rating, the leaderboard page lists the accounts with
the bot levels between them in English and French, and the lobby links to every game's board.

The module's server creates tables from positions (``allow_positions``), so a game is one move
from its end; the seats are given to accounts by writing ``seats.user_id`` in the server's
database, as a seat claim does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import HUMAN, open_table, wait_my_turn
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, select, update

from endgame_positions import endgame
from ziggurat.server.db import SeatRow, UserRow
from ziggurat.server.ratings import bot_levels, shown

HARD = {"kind": "bot", "bot": "hard"}


@pytest.fixture(scope="module")
def rserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp("rserver")
    with start_server(tmp, "bot_delay=0, allow_positions=True") as srv:
        srv.db = tmp / "ziggurat.sqlite"
        yield srv


def _sit(server: Any, table_id: str, names: dict[int, str]) -> None:
    """Sign the names up and give each its seat."""
    for name in names.values():
        server.request("POST", "/api/account/signup", {"name": name, "password": "cedar forest 7"})
    engine = create_engine(f"sqlite:///{server.db}")
    try:
        with engine.begin() as conn:
            ids = {name: user_id for user_id, name in conn.execute(select(UserRow.id, UserRow.name))}
            for seat, name in names.items():
                conn.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(user_id=ids[name])
                )
    finally:
        engine.dispose()


def test_after_a_rated_game_the_box_shows_both_changes_and_the_leaderboard_lists_them(
    page: Page, new_page: Any, rserver: Any, shots: Path
) -> None:
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    seats = [HUMAN if s in (end.seat, other) else HARD for s in range(3)]
    body = {"game": "mesopotamia", "players": 3, "seats": seats, "position": end.position}
    t = rserver.request("POST", "/api/tables", body)
    _sit(rserver, t["table"], {end.seat: "Gilgamesh", other: "Enkidu"})
    open_table(page, rserver.url(t["seats"][end.seat]["link"]))
    assert wait_my_turn(page)
    page.locator(f'#legal .legal-act[data-action="{end.action}"]').click()
    page.wait_for_selector("body[data-status='over']")
    box = page.locator("#result .rating-changes")
    expect(box).to_be_visible()
    expect(box.locator("li")).to_have_count(3)
    winner = box.locator(f'li[data-seat="{end.seat}"]')
    expect(winner).to_contain_text("Gilgamesh")
    expect(winner).to_contain_text("0.0 → ")
    expect(winner.locator(".delta.up")).to_have_count(1)  # the winner's rating rises
    loser = box.locator(f'li[data-seat="{other}"]')
    expect(loser).to_contain_text("Enkidu")
    for li in (winner, loser):  # both ratings change (the shown one may round to the same)
        before, after = li.locator(".mu").inner_text().removeprefix("μ ").split(" → ")
        assert before == "25.0" and after != before
    hard = bot_levels("mesopotamia")["hard"]
    bot = box.locator('li[data-kind="bot"]')
    expect(bot).to_contain_text(f"hard bot fixed rating {shown(hard['mu'], hard['sigma']):.1f}")
    page.locator("#result").screenshot(path=str(shots / "ratings_game_over.png"))

    box.locator("a.leaderboard-link").click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#board-title")).to_have_text("Leaderboard: Mesopotamia")
    expect(page.locator("#board-scale")).to_contain_text("μ − 3σ")
    rows = page.locator("#board-table tbody tr")
    expect(rows).to_have_count(2 + len(bot_levels("mesopotamia")))
    accounts = page.locator('#board-table tbody tr[data-kind="account"]')
    expect(accounts.first).to_have_attribute("data-name", "Gilgamesh")
    expect(accounts.nth(1)).to_have_attribute("data-name", "Enkidu")
    expect(accounts.first.locator("td").first).to_have_text("1")
    ratings = [
        float(r.replace("−", "-")) for r in page.locator("#board-table tbody td.rating").all_inner_texts()
    ]
    assert ratings == sorted(ratings, reverse=True)
    expect(page.locator('#board-table tbody tr[data-kind="bot"][data-name="hard"]')).to_contain_text(
        "hard bot"
    )
    expect(page.locator("#board-bots")).to_contain_text("bot tournament games of 4 players")
    page.screenshot(path=str(shots / "ratings_leaderboard.png"), full_page=True)

    fr = new_page(locale="fr-FR")
    fr.goto(rserver.url("/leaderboard/mesopotamia"))
    fr.wait_for_selector("body[data-ready='1']")
    expect(fr.locator("#board-title")).to_have_text("Classement : Mésopotamie")
    expect(fr.locator("#board-table thead")).to_contain_text("Cote")
    expect(fr.locator('#board-table tbody tr[data-name="hard"]')).to_contain_text("bot difficile")
    expect(fr.locator("#board-table tbody td.rating").first).to_contain_text(",")  # 3,3: French decimals
    fr.screenshot(path=str(shots / "ratings_leaderboard_fr.png"), full_page=True)


def test_the_lobby_links_every_games_leaderboard_and_an_unknown_game_says_so(
    page: Page, rserver: Any
) -> None:
    page.goto(rserver.url("/"))
    links = page.locator("#leaderboard-links a")
    expect(links).to_have_count(3)
    assert sorted(links.evaluate_all("els => els.map((a) => a.getAttribute('href'))")) == [
        "/leaderboard/mare-nostrum",
        "/leaderboard/mesopotamia",
        "/leaderboard/mesopotamia-epochs",
    ]
    page.locator('#leaderboard-links a[data-leaderboard="mare-nostrum"]').click()
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#board-title")).to_have_text("Leaderboard: Mare Nostrum: Empires")
    expect(page.locator('#board-table tbody tr[data-kind="bot"]')).to_have_count(
        len(bot_levels("mare-nostrum"))
    )
    expect(page.locator("#board-empty")).to_be_visible()  # no account has a rated game there yet
    page.goto(rserver.url("/leaderboard/chess"))
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#board-error")).to_have_text("There is no game called chess.")
    expect(page.locator("#board-table")).to_be_hidden()
