"""The replay page: the board at ply N is the board of the game record at ply N, stepping, the
slider, keys and links to a ply, the links from the table page and the lobby, and a seat
stepping back during its game.

The module runs its own server (bots without delay) so that finished bot games are quick, and
reads the stored actions back from its SQLite file: the record built from them, replayed to a
ply, is fed to the game's board module the way the table page mounts it, and the HTML it draws
must be the replay page's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import HEURISTIC, HUMAN, full_shot, open_table, wait_my_turn
from playwright.sync_api import Page, expect
from replay_helpers import record_board, same_drawing, stored_record_states


class Served:
    def __init__(self, server: Any, database: Path) -> None:
        self.server = server
        self.database = database

    def finished_bot_game(self, game: str, seed: int) -> dict[str, Any]:
        table: dict[str, Any] = self.server.create_table([HEURISTIC] * 3, seed=seed, game=game)
        token = table["spectator_token"]
        while self.server.request("GET", f"/api/tables/{table['table']}", token=token)["status"] != "over":
            time.sleep(0.2)
        return table

    def record_states(self, table_id: str) -> list[Any]:
        """The state after each number of stored actions, from a record of the stored actions."""
        return stored_record_states(self.database, table_id)


@pytest.fixture(scope="module")
def served(start_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp = tmp_path_factory.mktemp("replay-server")
    with start_server(tmp, "bot_delay=0") as srv:
        yield Served(srv, tmp / "ziggurat.sqlite")


def _replay_page(page: Page, url: str, ply: int | None = None) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    if ply is not None:
        page.wait_for_selector(f"body[data-ply='{ply}']")


def _shown_ply(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.ply"))


@pytest.mark.parametrize("game", ["mesopotamia", "mesopotamia-epochs", "mare-nostrum"])
def test_the_replay_at_ply_n_shows_the_board_of_the_record_at_ply_n(
    page: Page, served: Served, shots: Path, game: str
) -> None:
    table = served.finished_bot_game(game, seed=3)
    table_id = table["table"]
    states = served.record_states(table_id)
    last = len(states) - 1
    assert states[-1].is_terminal()
    drawings = set()
    for ply in sorted({0, 1, last // 3, (2 * last) // 3, last - 1, last}):
        _replay_page(page, served.server.url(f"/replay/{table_id}?ply={ply}"), ply)
        shown = page.inner_html("#board")
        drawings.add(same_drawing(shown))
        drawn = record_board(page, game, states[ply], ply)
        assert same_drawing(shown) == same_drawing(drawn), f"{game} ply {ply}: not the record's board"
        assert "<svg" in shown
        expect(page.locator("#ply-label")).to_contain_text(f"Ply {ply} of {last}")
        if ply in (last // 3, last):
            full_shot(page, shots / f"replay_{game}_{ply}.png")
        if game == "mare-nostrum" and ply == last:
            # N4.11: each conquest option told under a battle names that battle's province
            battles = page.locator("#general .mn-battles li").all_inner_texts()
            options = [
                (t.split("\n")[0], o)
                for t in battles
                for o in re.split(r"; |\n", t)
                if re.search(r"\b(converts?|pillages|occupies)\b", o)
            ]
            assert any("chooses to convert" in o for _, o in options), battles  # this seeded game has some
            # every battle has its result, with the units lost where a side took more hits (N4.7.6)
            assert battles and all("Result in " in t for t in battles), battles
            assert any("legions lost: Greece 0, Rome 1" in t for t in battles), battles  # in Gallia
            for head, option in options:
                area = head.rsplit(" in ", 1)[1]
                assert re.search(rf"\bconverts? {area}\b", option) or f" in {area}" in option, (head, option)
    assert len(drawings) >= 4  # the plies differ: the comparison can fail
    expect(page.locator("#result")).to_be_visible()  # the last ply shows how the game was won
    expect(page.locator("#choice")).to_be_hidden()


def test_stepping_the_slider_keys_and_links_to_a_ply(page: Page, served: Served, shots: Path) -> None:
    """Buttons, the slider, the arrow keys, Home and End and a click on a log line move through
    the plies; the address keeps the ply, so the link opens it; the lobby's My tables and the
    table page's game-over box link to the replay."""
    table = served.finished_bot_game("mesopotamia", seed=8)
    table_id = table["table"]
    last = len(served.record_states(table_id)) - 1
    # watching the table stores its token: the lobby lists it, finished, with a replay link
    open_table(page, served.server.url(table["spectator_link"]))
    link = page.locator("#replay-link")
    expect(link).to_have_text("Replay the game")
    page.goto(served.server.base + "/")
    page.wait_for_selector(f".my-tables a[data-replay='{table_id}']")
    row = page.locator(f"#my-tables-list li[data-table='{table_id}']")
    expect(row.locator("a[data-replay]")).to_have_count(1)
    expect(row.get_by_role("link", name="See the end")).to_be_visible()  # not "Watch": it is over
    page.click(f".my-tables a[data-replay='{table_id}']")
    page.wait_for_selector(f"body[data-ply='{last}']")
    assert page.evaluate("document.body.dataset.seat") == ""
    expect(page.locator("#who")).to_have_text("Public view")
    expect(page.locator("#next")).to_be_disabled()

    page.click("#first")
    page.wait_for_selector("body[data-ply='0']")
    expect(page.locator("#prev")).to_be_disabled()
    page.click("#next")
    page.wait_for_selector("body[data-ply='1']")
    assert page.url.split("#")[0].endswith(f"/replay/{table_id}?ply=1")
    assert page.url.endswith(f"#token={table['spectator_token']}")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-ply='2']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("body[data-ply='1']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-ply='{last}']")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-ply='0']")
    page.locator("#ply").fill(str(last // 2))
    page.wait_for_selector(f"body[data-ply='{last // 2}']")
    expect(page.locator("#ply-label")).to_have_text(f"Ply {last // 2} of {last} · finished game")
    assert all(
        int(p) <= last // 2
        for p in page.eval_on_selector_all("#log-list li", "els => els.map(e => e.dataset.ply)")
    )
    target = page.locator("#log-list li").nth(3)
    wanted = int(target.get_attribute("data-ply") or "-1")
    target.click()
    page.wait_for_selector(f"body[data-ply='{wanted}']")
    expect(page.locator("#log-list li.current").last).to_have_attribute("data-ply", str(wanted))

    # the address opens that ply, in a new page too; a ply in the hash works as well
    link_to_ply = page.url
    page.goto(served.server.base + "/")
    _replay_page(page, link_to_ply, wanted)
    _replay_page(page, served.server.url(f"/replay/{table_id}#ply=7"), 7)
    assert page.url.split("#")[0].endswith("?ply=7")

    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#ply-label")).to_have_text(f"Coup 7 sur {last} · partie terminée")
    expect(page.locator("#who")).to_have_text("Vue publique")
    full_shot(page, shots / "replay_fr.png")
    page.click(".lang-btn[data-lang='en']")

    # the game-over box of the table page opens the last ply
    open_table(page, served.server.url(table["spectator_link"]))
    page.click("#replay-link")
    page.wait_for_selector(f"body[data-ply='{last}']")


def test_a_seat_steps_back_through_what_it_has_seen(new_page: Any, served: Served, shots: Path) -> None:
    """During a game the seat's Step back opens the replay as that seat saw it, one ply back: its
    own view (its hand, not the others'), up to the current ply; without a token a game in
    progress cannot be replayed."""
    server = served.server
    table = server.create_table([HUMAN, HEURISTIC, HEURISTIC], seed=12)
    page = new_page()
    open_table(page, server.url(table["seats"][0]["link"]))
    assert wait_my_turn(page)
    while int(page.evaluate("document.body.dataset.version")) < 3:
        legal = page.evaluate("window.__ziggurat.state.legal")
        before = page.evaluate("document.body.dataset.version")
        page.evaluate("(a) => window.__ziggurat.send(a)", legal[0])
        page.wait_for_function(f"() => document.body.dataset.version !== '{before}'")
        assert wait_my_turn(page)
    version = int(page.evaluate("document.body.dataset.version"))
    expect(page.locator("#step-back")).to_be_visible()
    with page.expect_popup() as popup:
        page.click("#step-back")
    replay = popup.value
    replay.wait_for_selector(f"body[data-ply='{version - 1}']")
    assert replay.evaluate("document.body.dataset.seat") == "0"
    expect(replay.locator("#who")).to_have_text("As Blue saw it")
    expect(replay.locator("#to-table")).to_have_text("Back to the game")
    token = table["seats"][0]["token"]
    answer = server.request("GET", f"/api/tables/{table['table']}/replay?ply={version - 1}", token=token)
    shown = replay.evaluate("window.__replay.shown")
    assert shown["view"] == answer["view"] and shown["seat"] == 0
    assert all(p["hand"] is None for i, p in enumerate(shown["view"]["players"]) if i != 0)
    assert shown["view"]["players"][0]["hand"] is not None
    # read-only: a click on the board (a piece, a hex) neither plays nor asks anything
    asked: list[str] = []
    replay.on(
        "request",
        lambda r: asked.append(r.url) if "/api/tables" in r.url and "/replay" not in r.url else None,
    )
    replay.on("websocket", lambda ws: asked.append(ws.url))
    for selector in ("[data-tribe]", "[data-hex]"):
        replay.locator(f"#board {selector}").first.dispatch_event("click")
    replay.click("#prev")  # a request the clicks made would have left before this one came back
    replay.wait_for_selector(f"body[data-ply='{version - 2}']")
    assert not asked and replay.locator("#error").count() == 0
    replay.click("#last")
    replay.wait_for_selector(f"body[data-ply='{version}']")
    full_shot(replay, shots / "replay_step_back.png")
    replay.click("#to-table")
    replay.wait_for_selector("body[data-ready='1'][data-version]")
    assert "/table/" in replay.url

    stranger = new_page()
    stranger.goto(server.url(f"/replay/{table['table']}"))
    stranger.wait_for_selector("body[data-failed='1']")
    expect(stranger.locator("#fatal")).to_contain_text("only its players and spectators")
