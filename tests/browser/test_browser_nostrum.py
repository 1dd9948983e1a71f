"""Mare Nostrum: Empires in the browser: a table made in the lobby and played by clicking the map
and the decision panels through two full rounds; a bots-only game watched to its end; the phone
layout in French."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import full_shot, nostrum_conversion_step, open_table, state, version, wait_my_turn
from playwright.sync_api import Page, expect

GAME = "mare-nostrum"
BOT = {"kind": "bot", "bot": "random"}


def settle(page: Page, before: int, timeout: float = 10000) -> None:
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) !== {before} || !document.getElementById('error').hidden",
        timeout=timeout,
    )


def click_area(page: Page, area: str) -> None:
    page.locator(f".mn-map [data-area='{area}']").click()


def sent_or_choices(page: Page, before: int) -> None:
    """After a click on the map: the action went out (a new version) or the panel offers the choices;
    in the second case click the first choice."""
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) !== {before} || document.body.dataset.busy"
        " || document.querySelector('.mn-popover button[data-action]')"
    )
    # only click a choice that is there: "busy" may clear without a new version (a reply that
    # changes nothing), in which case settle() waits for the version
    choices = page.locator(".mn-popover button[data-action]")
    if version(page) == before and choices.count():
        choices.first.click()


def lit(page: Page, how: str = "") -> list[str]:
    sel = f".mn-map .area.lit{'-' + how if how else ''}"
    found: list[str] = page.eval_on_selector_all(sel, "els => els.map(e => e.dataset.area)")
    return found


def play_one(page: Page, rng: random.Random, seen: dict[str, int]) -> None:
    """One decision of the human seat, by clicking the map or the panels."""
    st = state(page)
    legal = st["legal"]
    stage = st["view"]["stage"]
    kinds = {a.split(" ")[0] for a in legal}
    before = version(page)
    seen[stage] = seen.get(stage, 0) + 1
    moves = [a for a in legal if a.split(" ")[0] in ("row", "march", "sail")]
    if moves and seen[stage] <= 2:
        src = moves[0].split(" ")[1]
        click_area(page, src)
        expect(page.locator(f".mn-map .area.selected[data-area='{src}']")).to_have_count(1)
        dests = lit(page, "move")
        assert dests and set(dests) <= {a.split(" ")[2] for a in moves if a.split(" ")[1] == src}
        click_area(page, dests[0])
        sent_or_choices(page, before)
        settle(page, before)
        return
    if "offer" in kinds and page.locator("#choice .mn-offer-buttons button").count():
        page.locator("#choice .mn-offer-buttons button").first.click()
    elif "take" in kinds:
        page.locator("#choice .mn-offer button[data-action^='take']").first.click()
    elif "pay" in kinds:
        expect(page.locator("#choice .mn-buy h4")).to_contain_text("cost")
        page.locator("#choice .globals button[data-action^='pay']").first.click()
    elif (
        stage == "buy_turn"
        and seen[stage] <= 3
        and any(a.startswith(("buy marker", "build", "buy legion")) for a in legal)
    ):
        # a purchase on the map: the lit areas are the purchase places; the cost is previewed
        expect(page.locator("#choice .mn-buylist .mn-cost").first).to_contain_text("costs")
        areas = lit(page, "choice")
        assert areas
        target = rng.choice(areas)
        click_area(page, target)
        sent_or_choices(page, before)
    elif page.locator("#choice .globals button.primary").count():
        page.locator("#choice .globals button.primary").first.click()
    elif page.locator("#choice .globals button").count():
        page.locator("#choice .globals button").first.click()
    else:
        page.locator("#legal .legal-act").first.click()
    settle(page, before)


def test_lobby_table_played_by_clicking_through_two_rounds(page, server, shots):
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", GAME)
    page.select_option("#players", "3")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot:random")
    page.select_option("#seat-2", "bot:random")
    page.click("#advanced summary")
    page.fill("#seed", "4")
    page.click("#create")
    # no seat colours in Mare Nostrum: the invitations say each seat once, with no raw key
    expect(page.locator(".invites .seat-head strong").first).to_have_text("Seat 1")
    expect(page.locator(".invites")).not_to_contain_text("colour.")
    page.click("[data-open='seat-0']")
    page.wait_for_selector("body[data-ready='1']")
    # the header names the seat by the empire dealt to it (S2), not "seat 0"
    empire = state(page)["view"]["empires"][0]
    expect(page.locator("#who")).to_have_text(f"You play {empire.capitalize()}")
    expect(page.locator(".mn-map .prov")).to_have_count(21)  # 29 provinces less the 8 covered at 3 players
    expect(page.locator(".mn-map .sea")).to_have_count(9)
    expect(page.locator(".mn-map .marker")).to_have_count(9)
    expect(page.locator(".mn-map .prov-out")).to_have_count(8)  # greyed out where they lie
    # drawn at the places of map.json: Gallia north-west, Numidia south-west, Aegyptus south-east
    box = {a: page.locator(f".mn-map [data-area='{a}'], .mn-map [data-covered='{a}']").bounding_box() for a in ("gallia", "numidia", "aegyptus")}  # fmt: skip
    assert box["gallia"] and box["numidia"] and box["aegyptus"]
    assert box["gallia"]["y"] < box["numidia"]["y"] and box["numidia"]["x"] < box["aegyptus"]["x"]
    expect(page.locator("#players .mn-player")).to_have_count(3)
    expect(page.locator("#players .mn-screen")).to_have_count(1)  # only our own screen is open
    rng = random.Random(1)
    seen: dict[str, int] = {}
    shot_stages: set[str] = set()
    last_round = 0
    for _ in range(400):
        if not wait_my_turn(page, timeout=30000):
            break
        st = state(page)
        rnd = st["view"]["round"]
        if rnd != last_round:
            seen.clear()
            last_round = rnd
        if rnd >= 3:
            break
        stage = st["view"]["stage"]
        if stage not in shot_stages and stage in (
            "trade_offer",
            "trade_draft",
            "buy_turn",
            "mil_march",
            "mil_row",
        ):
            shot_stages.add(stage)
            full_shot(page, shots / f"nostrum_{stage}.png")
        play_one(page, rng, seen)
        expect(page.locator("#error")).to_be_hidden()
    st = state(page)
    assert st["view"]["round"] >= 3 or st["status"] == "over"
    assert {"trade_offer", "buy_turn"} <= shot_stages
    full_shot(page, shots / "nostrum_round3.png")
    expect(page.locator("#general .mn-title-row li")).to_have_count(3)
    page.click(".lang-btn[data-lang='fr']")
    expect(page.locator("#general h4").first).to_have_text("Titres")
    expect(page.locator("#who")).to_have_text(
        re.compile(r"^Vous jouez (Rome|la Grèce|Carthage|l'Égypte|Babylone)$")
    )


def test_bots_only_game_watched_to_the_end(page, server, shots):
    answer = server.create_table([BOT, BOT, BOT], seed=5, game=GAME)
    page.goto(server.url(answer["spectator_link"]))
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    expect(page.locator("#who")).to_have_text("Spectator")
    expect(page.locator("#players .mn-screen")).to_have_count(0)
    page.wait_for_selector("body[data-status='over']", timeout=600_000)  # a net for a hang, not a speed check
    st = state(page)
    assert st["seat"] is None and st["legal"] == []
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result .winner")).to_contain_text("wins")
    expect(page.locator("#choice")).to_be_hidden()
    expect(page.locator("#status")).not_to_contain_text("to move")
    rolls = [e for e in st["log"] if e["text"].startswith("roll ")]
    if rolls:  # battle results come from the log: the attack, both rolls and what followed
        expect(page.locator("#general .mn-battles li").first).to_contain_text("attacks")
        expect(page.locator("#general .mn-battles li").first).to_contain_text("hits taken")
        expect(page.locator("#log-list")).not_to_contain_text("(seat ")
        for text in page.locator("#general .mn-battles li").all_inner_texts():  # each result is its battle's
            m = re.match(r"[^\n]* in ([^\n]+)\nResult in ([^:]+):", text)
            assert m is None or m.group(1) == m.group(2), text
    full_shot(page, shots / "nostrum_over.png")


def test_phone_layout_in_french(new_page, server, shots):
    answer = server.create_table([{"kind": "human"}, BOT, BOT], seed=2, game=GAME)
    page = new_page(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True, has_touch=True)
    open_table(page, server.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    expect(page.locator("#status")).to_contain_text("Tour")
    expect(page.locator("#status")).to_contain_text("de jouer")
    expect(page.locator("#log-list")).to_contain_text("Empires distribués")  # the log in French
    expect(page.locator("#general .mn-title-row")).to_contain_text("Chef du commerce :")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()  # the map, wider, scrolls inside the board box
    assert box and box["x"] + box["width"] <= 390
    full_shot(page, shots / "nostrum_phone_fr.png")


def test_board_data_is_the_engines(server):
    """The board draws with what the server serves (GET /api/games/mare-nostrum/board-data): the
    engine's map with its layout, tiles and goods; the client keeps no copy of its own."""
    import json
    from pathlib import Path

    data = server.request("GET", "/api/games/mare-nostrum/board-data")
    engine = Path(__file__).resolve().parents[2] / "src/ziggurat/games/mare_nostrum"
    m = json.loads((engine / "map.json").read_text())
    # slots as the engine names them (lower case, like the views' buildings)
    slots = {p["id"]: [x.lower() for x in p["slots"]] for p in m["provinces"]}
    assert slots == {k: v["slots"] for k, v in data["provinces"].items()}
    assert {p["id"]: (p["x"], p["y"]) for p in m["provinces"]} == {
        k: (v["x"], v["y"]) for k, v in data["provinces"].items()
    }
    assert {s["id"]: (s["land"], s["shape"]) for s in m["seas"]} == {
        k: (v["land"], v["shape"]) for k, v in data["seas"].items()
    }
    assert m["out_of_play"] == data["out_of_play"]
    assert (
        data["layout"]["width"] == m["layout"]["width"]
        and data["layout"]["link_via"] == m["layout"]["link_via"]
    )
    tiles = json.loads((engine / "tiles.json").read_text())["tiles"]
    assert {x["id"]: x["track_bonus"] for x in tiles} == {k: v["bonus"] for k, v in data["tiles"].items()}
    assert set(data["empires"]) == {"rome", "greece", "carthage", "egypt", "babylon"}
    assert server.request("GET", "/api/games/mesopotamia/board-data") == {}
    static = Path(__file__).resolve().parents[2] / "src/ziggurat/server/static/boards/mare-nostrum"
    assert "gallia" not in (static / "data.js").read_text()  # no copy of the map in the client


def test_the_players_boxes_show_who_is_connected(new_page, server, shots):
    """Presence (docs/server.md): each person's box has the dot of the other games' player
    panels, ● while a page of the seat is open and ○ once its last page is closed, then ●
    again when the player comes back; a bot's box has none."""
    answer = server.create_table([{"kind": "human"}, {"kind": "human"}, BOT], seed=4, game=GAME)
    links = [server.url(answer["seats"][seat]["link"]) for seat in (0, 1)]
    alice = new_page()
    open_table(alice, links[0])
    bob = new_page()
    open_table(bob, links[1])
    dot = alice.locator("#players .mn-player[data-seat='1'] .conn")
    expect(dot).to_have_text("●", timeout=5000)
    expect(dot).to_have_class("conn on")
    expect(dot).to_have_attribute("title", "connected")
    expect(alice.locator("#players .mn-player[data-seat='0'] .conn")).to_have_text("●")
    expect(alice.locator("#players .mn-player[data-seat='2'] .conn")).to_have_count(0)  # a bot

    bob.close()
    expect(dot).to_have_text("○", timeout=5000)
    expect(dot).to_have_class("conn off")
    expect(dot).to_have_attribute("title", "not connected")
    alice.locator("#players").screenshot(path=str(shots / "nostrum_presence_away.png"))

    back = new_page()
    open_table(back, links[1])
    expect(dot).to_have_text("●", timeout=5000)
    for seat in (0, 1):
        expect(back.locator(f"#players .mn-player[data-seat='{seat}'] .conn")).to_have_text("●", timeout=5000)


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    """A server that creates tables from positions (a Military turn under way)."""
    with start_server(
        tmp_path_factory.mktemp("nostrum-positions"), "bot_delay=0.05, allow_positions=True"
    ) as srv:
        yield srv


def test_a_tap_on_done_just_after_the_step_ended_by_itself_does_not_end_the_next_N4_2(
    new_page, pserver, shots
):
    """Rome converts Dalmatia, its last conversion: the Conversion step, with only Done left,
    ends by itself and the trireme step begins, its Done where the last step's was (N4.2). A
    tap on Done at once, meant for the step that ended, does not end the trireme step; the
    buttons take taps again a moment later, and Done then ends it."""
    body = {"game": GAME, "players": 3, "seats": [{"kind": "human"}, BOT, BOT], "seed": 3,
            "position": nostrum_conversion_step()}  # fmt: skip
    answer = pserver.request("POST", "/api/tables", body)
    page = new_page(step_hold=True)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(str(text))))
    open_table(page, pserver.url(answer["seats"][0]["link"]))
    assert wait_my_turn(page)
    assert state(page)["view"]["stage"] == "mil_conv" and state(page)["legal"] == ["done", "convert dalmatia"]
    done = page.locator("#choice .globals button[data-action='done']")
    box = done.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = version(page)
    click_area(page, "dalmatia")
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
    after = version(page)
    assert state(page)["view"]["stage"] == "mil_row"  # the Conversion step ended by itself
    assert [e["text"] for e in state(page)["log"][-2:]] == ["convert dalmatia", "done"]
    page.mouse.click(x, y)  # at once, on the next step's Done, where the last one was
    expect(done).to_be_disabled()
    page.screenshot(path=str(shots / "nostrum_done_held.png"))
    page.wait_for_timeout(300)
    assert version(page) == after and state(page)["view"]["stage"] == "mil_row"
    assert [m for m in sent if '"action"' in m] == ['{"type":"action","action":"convert dalmatia"}']
    expect(done).to_be_enabled()
    done.click()  # the trireme step's own Done, once it takes taps
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {after}")
    assert state(page)["view"]["stage"] != "mil_row"
    expect(page.locator("#error")).to_be_hidden()
