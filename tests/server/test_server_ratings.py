"""Ratings (docs/server.md, "Ratings"): which finished tables are rated, the openskill update from
the returns, the bot levels' fixed ratings, exactly once per table, and the leaderboards.

Tables start one move before the end (``allow_positions`` and tests/endgame_positions.py). A
seat is given to an account by writing ``seats.user_id`` through the server's store, as a seat
claim does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from server_helpers import TestClient, create_app, receive_state, settle, token, ws_url
from sqlalchemy import select, update

from endgame_positions import Endgame, endgame
from ziggurat.server import gamekit
from ziggurat.server.accounts import find_user
from ziggurat.server.db import RatingChangeRow, RatingRow, SeatRow, TableRow
from ziggurat.server.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    bot_levels,
    bot_rating,
    bot_ratings,
    rate_table,
    shown,
)
from ziggurat.server.store import SeatSpec, Store, StoredTable, now

GAMES = ("mesopotamia", "mesopotamia-epochs", "mare-nostrum")


@pytest.fixture
def pclient(db_url: str, tmp_path: Path) -> Any:
    """A client whose server creates tables from positions."""
    app = create_app(db_url, bot_delay=0, static_dir=tmp_path / "no-static", allow_positions=True)
    with TestClient(app) as c:
        yield c


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.manager.store  # type: ignore[attr-defined]
    return store


def account(client: TestClient, name: str) -> int:
    """Sign up ``name`` (then sign out of it: the client plays by seat tokens) and answer its id."""
    r = client.post("/api/account/signup", json={"name": name, "password": "cedar forest 7"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    found = find_user(store_of(client), name)
    assert found is not None
    return found[0]


def sit(
    client: TestClient, table_id: str, seat: int, user_id: int | None = None, guest: str | None = None
) -> None:
    """Put an account (or a guest's name) on a seat, as a claim or a lobby join does."""
    with store_of(client).sessions.begin() as s:
        s.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(user_id=user_id, name=guest)
        )


def end_table(client: TestClient, end: Endgame, seats: str) -> dict[str, Any]:
    """A table one move before ``end``'s end; ``seats`` has a letter per seat (``h`` human,
    ``e``/``m``/``r`` an easy, medium or random bot), the seat to move is human."""
    kinds = {"e": "easy", "m": "medium", "r": "random"}
    body = {
        "game": end.game,
        "players": end.players,
        "options": dict(end.options),
        "seats": [{"kind": "human"} if c == "h" else {"kind": "bot", "bot": kinds[c]} for c in seats],
        "position": end.position,
    }
    assert seats[end.seat] == "h"
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


def finish(client: TestClient, end: Endgame, table: dict[str, Any]) -> dict[str, Any]:
    """Play the last move; the final ``state`` message."""
    with client.websocket_connect(ws_url(table, token(table, end.seat))) as ws:
        settle(ws, client, table["table"])
        ws.send_json({"type": "action", "action": end.action})
        final = receive_state(ws)
    assert final["status"] == "over"
    return final


def ratings_rows(client: TestClient) -> list[tuple[int, str, float, float, int]]:
    with store_of(client).sessions() as s:
        return [
            (r.user_id, r.game, r.mu, r.sigma, r.games)
            for r in s.scalars(select(RatingRow).order_by(RatingRow.user_id, RatingRow.game))
        ]


def expected(before: list[tuple[float, float]], rank: list[int]) -> list[tuple[float, float]]:
    """openskill's own Plackett-Luce update for one match of one-player teams."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before], ranks=rank)
    return [(t[0].mu, t[0].sigma) for t in rated]


def competition_ranks(returns: list[float]) -> list[int]:
    return [1 + sum(other > value for other in returns) for value in returns]


def test_two_accounts_and_a_bot_finish_a_game_both_ratings_change_the_bot_stays(pclient: TestClient) -> None:
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    letters = ["e"] * 3
    letters[end.seat] = letters[other] = "h"
    table = end_table(pclient, end, "".join(letters))
    ids = {end.seat: account(pclient, "Gilgamesh"), other: account(pclient, "Enkidu")}
    for seat, user_id in ids.items():
        sit(pclient, table["table"], seat, user_id)
    before = pclient.get(f"/api/tables/{table['table']}/ratings").json()
    assert before == {"table": table["table"], "game": "mesopotamia", "rated": False, "changes": []}
    final = finish(pclient, end, table)
    # rated before the end is broadcast: the page asks as soon as it hears of it
    answer = pclient.get(f"/api/tables/{table['table']}/ratings").json()
    assert answer["rated"] is True
    changes = {c["seat"]: c for c in answer["changes"]}
    assert sorted(changes) == [0, 1, 2]
    returns = final["result"]
    bot_seat = ({0, 1, 2} - set(ids)).pop()
    fixed = bot_rating("mesopotamia", "easy")
    assert fixed is not None
    start = [fixed if s == bot_seat else (DEFAULT_MU, DEFAULT_SIGMA) for s in range(3)]
    want = expected(start, competition_ranks(returns))
    for seat in ids:
        c = changes[seat]
        assert c["name"] == ("Gilgamesh" if seat == end.seat else "Enkidu") and c["bot"] is None
        assert (c["mu_before"], c["sigma_before"]) == (DEFAULT_MU, DEFAULT_SIGMA)
        assert c["mu_after"] == pytest.approx(want[seat][0]) and c["sigma_after"] == pytest.approx(
            want[seat][1]
        )
        assert c["mu_after"] != c["mu_before"] and c["sigma_after"] < c["sigma_before"]
        assert (c["before"], c["after"]) == (
            shown(DEFAULT_MU, DEFAULT_SIGMA),
            shown(c["mu_after"], c["sigma_after"]),
        )
        assert c["change"] == pytest.approx(c["after"] - c["before"], abs=0.11)
    winner = returns.index(max(returns))
    assert winner == end.seat and changes[end.seat]["mu_after"] > DEFAULT_MU
    bot = changes[bot_seat]
    assert bot["name"] is None and bot["bot"] == "easy"
    assert (bot["mu_before"], bot["sigma_before"]) == (bot["mu_after"], bot["sigma_after"]) == fixed
    rows = ratings_rows(pclient)
    assert [(u, g, games) for u, g, _, _, games in rows] == sorted(
        (u, "mesopotamia", 1) for u in ids.values()
    )
    with store_of(pclient).sessions() as s:
        assert s.get(TableRow, table["table"]).finished is not None  # type: ignore[union-attr]


@pytest.mark.parametrize("who", ["guest", "link"])
def test_a_guest_or_a_link_only_seat_leaves_the_table_unrated(pclient: TestClient, who: str) -> None:
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    letters = ["r"] * 3
    letters[end.seat] = letters[other] = "h"
    table = end_table(pclient, end, "".join(letters))
    sit(pclient, table["table"], end.seat, account(pclient, "Gilgamesh"))
    if who == "guest":
        sit(pclient, table["table"], other, guest="Humbaba")
    finish(pclient, end, table)
    answer = pclient.get(f"/api/tables/{table['table']}/ratings").json()
    assert answer["rated"] is False and answer["changes"] == []
    assert ratings_rows(pclient) == []


def test_a_game_against_bots_only_is_rated_and_one_account_on_two_seats_is_not(pclient: TestClient) -> None:
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    gilgamesh = account(pclient, "Gilgamesh")
    letters = ["m"] * 3
    letters[end.seat] = "h"
    alone = end_table(pclient, end, "".join(letters))
    sit(pclient, alone["table"], end.seat, gilgamesh)
    finish(pclient, end, alone)
    changes = pclient.get(f"/api/tables/{alone['table']}/ratings").json()["changes"]
    assert [c["bot"] for c in changes if c["seat"] != end.seat] == ["medium", "medium"]
    assert ratings_rows(pclient)[0][4] == 1

    letters[other] = "h"
    twice = end_table(pclient, end, "".join(letters))
    sit(pclient, twice["table"], end.seat, gilgamesh)
    sit(pclient, twice["table"], other, gilgamesh)
    finish(pclient, end, twice)
    assert pclient.get(f"/api/tables/{twice['table']}/ratings").json()["rated"] is False
    assert ratings_rows(pclient)[0][4] == 1  # still one rated game


def _finished_table(store: Store, table_id: str, result: list[float], seats: list[SeatSpec]) -> None:
    """A finished table written as the server stores one."""
    store.create_table(
        StoredTable(table_id, "mesopotamia", len(seats), {}, 1, "playing", None, None, now(), seats)
    )
    with store.sessions.begin() as s:
        s.execute(update(TableRow).where(TableRow.id == table_id).values(status="over", result=result))


def test_ranks_come_from_the_returns_and_tied_seats_share_a_rank(client: TestClient) -> None:
    store = store_of(client)
    users = [account(client, name) for name in ("Gilgamesh", "Enkidu", "Shamhat")]
    # a shared victory: two seats with the best return, one behind
    _finished_table(store, "tie", [0.5, 0.5, 0.0], [SeatSpec(s, "human", None) for s in range(3)])
    for seat, user_id in enumerate(users):
        sit(client, "tie", seat, user_id)
    assert rate_table(store, "tie") is True
    after = {u: (mu, sigma) for u, _, mu, sigma, _ in ratings_rows(client)}
    want = expected([(DEFAULT_MU, DEFAULT_SIGMA)] * 3, [1, 1, 3])
    for seat, user_id in enumerate(users):
        assert after[user_id] == pytest.approx(want[seat])
    assert after[users[0]] == pytest.approx(after[users[1]])
    assert after[users[0]][0] > DEFAULT_MU > after[users[2]][0]
    # the next game starts from the ratings the first one left
    _finished_table(store, "next", [0.0, 1.0, 0.0], [SeatSpec(s, "human", None) for s in range(3)])
    for seat, user_id in enumerate(users):
        sit(client, "next", seat, user_id)
    assert rate_table(store, "next") is True
    again = {u: (mu, sigma, games) for u, _, mu, sigma, games in ratings_rows(client)}
    want = expected([after[u] for u in users], [2, 1, 2])
    for seat, user_id in enumerate(users):
        assert again[user_id][:2] == pytest.approx(want[seat]) and again[user_id][2] == 2


def test_a_table_is_rated_once_however_often_its_end_is_seen(db_url: str, tmp_path: Path) -> None:
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    letters = ["e"] * 3
    letters[end.seat] = letters[other] = "h"
    static = tmp_path / "no-static"
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static, allow_positions=True)) as first:
        table = end_table(first, end, "".join(letters))
        sit(first, table["table"], end.seat, account(first, "Gilgamesh"))
        sit(first, table["table"], other, account(first, "Enkidu"))
        finish(first, end, table)
        rated = ratings_rows(first)
        changes = first.get(f"/api/tables/{table['table']}/ratings").json()
        assert changes["rated"] is True
        assert rate_table(store_of(first), table["table"]) is False  # seen again: nothing changes
        assert ratings_rows(first) == rated
    # a restarted server loads the finished table (its end is seen again when it is replayed)
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static)) as again:
        r = again.get(f"/api/tables/{table['table']}", headers={"X-Ziggurat-Token": token(table, end.seat)})
        assert r.status_code == 200 and r.json()["status"] == "over"
        assert table["table"] in again.app.state.manager.tables  # type: ignore[attr-defined]
        assert ratings_rows(again) == rated
        assert again.get(f"/api/tables/{table['table']}/ratings").json() == changes
        with store_of(again).sessions() as s:
            assert len(list(s.scalars(select(RatingChangeRow)))) == 3


def test_an_end_stored_before_a_stop_is_rated_when_the_table_is_loaded(db_url: str, tmp_path: Path) -> None:
    """The server stopped between storing the last action and rating it: the ratings are made
    when the finished table is next loaded, once."""
    end = endgame("mesopotamia", 3, 1)
    other = next(s for s in range(3) if s != end.seat)
    letters = ["e"] * 3
    letters[end.seat] = letters[other] = "h"
    static = tmp_path / "no-static"
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static, allow_positions=True)) as first:
        table = end_table(first, end, "".join(letters))
        sit(first, table["table"], end.seat, account(first, "Gilgamesh"))
        sit(first, table["table"], other, account(first, "Enkidu"))
        first.app.state.manager.tables[table["table"]].on_end = None  # type: ignore[attr-defined]
        finish(first, end, table)
        assert ratings_rows(first) == []
    with TestClient(create_app(db_url, bot_delay=0, static_dir=static)) as again:
        assert again.get(f"/api/tables/{table['table']}/ratings").json()["rated"] is False
        for _ in range(2):
            again.get(f"/api/tables/{table['table']}", headers={"X-Ziggurat-Token": token(table, end.seat)})
        assert again.get(f"/api/tables/{table['table']}/ratings").json()["rated"] is True
        assert [games for *_, games in ratings_rows(again)] == [1, 1]


def _rating(store: Store, user_id: int, mu: float, sigma: float, games: int) -> None:
    with store.sessions.begin() as s:
        s.add(RatingRow(user_id=user_id, game="mesopotamia", mu=mu, sigma=sigma, games=games, updated=now()))


def test_the_leaderboard_lists_rated_accounts_by_shown_rating_with_the_bot_levels_between(
    client: TestClient,
) -> None:
    store = store_of(client)
    levels = {name: shown(lv["mu"], lv["sigma"]) for name, lv in bot_levels("mesopotamia").items()}
    top, bottom = max(levels.values()), min(levels.values())
    # Enkidu has the higher mu but the wider sigma: the shown rating mu - 3 sigma puts him second
    _rating(store, account(client, "Gilgamesh"), top + 3 * 2.0 + 1.0, 2.0, 7)
    _rating(store, account(client, "Enkidu"), top + 3 * 5.0 + 0.5, 5.0, 2)
    _rating(store, account(client, "Shamhat"), bottom + 3 * 4.0 - 1.0, 4.0, 1)
    _rating(store, account(client, "Humbaba"), 30.0, 1.0, 0)  # no rated game: not listed
    r = client.get("/api/leaderboard/mesopotamia")
    assert r.status_code == 200, r.text
    board = r.json()
    assert board["game"] == "mesopotamia" and "mu - 3 sigma" in board["scale"]
    measured = bot_ratings()["games"]["mesopotamia"]
    assert board["bots"] == {"games": measured["finished"], "players": 4, "date": measured["date"]}
    entries = board["entries"]
    ratings = [e["rating"] for e in entries]
    assert ratings == sorted(ratings, reverse=True)
    accounts = [(e["name"], e["rank"], e["games"]) for e in entries if e["kind"] == "account"]
    assert accounts == [("Gilgamesh", 1, 7), ("Enkidu", 2, 2), ("Shamhat", 3, 1)]
    assert [e["name"] for e in entries[:2]] == ["Gilgamesh", "Enkidu"]
    assert entries[-1]["name"] == "Shamhat"
    bots = {e["name"]: e for e in entries if e["kind"] == "bot"}
    assert set(bots) == set(levels) and all(e["rank"] is None for e in bots.values())
    assert {name: e["rating"] for name, e in bots.items()} == levels
    gilgamesh = entries[0]
    assert gilgamesh["rating"] == shown(gilgamesh["mu"], gilgamesh["sigma"]) == round(top + 1.0, 1)
    # another game's board has no account yet, only its bot levels
    epochs = client.get("/api/leaderboard/mesopotamia-epochs").json()["entries"]
    assert {e["kind"] for e in epochs} == {"bot"}


def test_unknown_game_and_table_answer_404(client: TestClient) -> None:
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and "chess" in r.json()["detail"]
    r = client.get("/api/tables/nosuchtable/ratings")
    assert r.status_code == 404 and "nosuchtable" in r.json()["detail"]


def test_every_bot_a_seat_may_have_has_a_measured_rating_in_every_game() -> None:
    data = bot_ratings()
    assert data["format"] == "ziggurat-bot-ratings/1" and "mu - 3 sigma" in data["scale"]
    assert set(data["games"]) == set(GAMES)
    for game_id in GAMES:
        entry = data["games"][game_id]
        assert entry["command"].startswith("benchmarks/bot_ratings.py") and entry["date"].startswith("20")
        assert entry["finished"] >= 1 and entry["players"] >= 2
        levels = entry["levels"]
        assert set(gamekit.DIFFICULTIES) <= set(levels)
        for level, spec in gamekit.DIFFICULTIES.items():
            assert levels[level]["spec"] == spec
        for rating in levels.values():
            assert rating["sigma"] > 0 and 1 <= rating["games"] <= entry["finished"]
            assert isinstance(rating["mu"], float)
        for kind in gamekit.available_bots(game_id):
            assert bot_rating(game_id, kind) is not None, (game_id, kind)
        assert bot_rating(game_id, "heuristic") == bot_rating(game_id, "easy")
