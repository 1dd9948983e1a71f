"""The lobby's view of Mare Nostrum: Empires' options (spec 10.6): ``/api/games`` lists every
option with its default (``data.OPTION_DEFAULTS``), tables take them, bad values are refused."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ziggurat.games.mare_nostrum.data import DEFAULT_OPTIONS

GAME = "mare-nostrum"


def _nostrum(client: TestClient) -> dict[str, Any]:
    games = client.get("/api/games").json()
    game: dict[str, Any] = next(g for g in games if g["id"] == GAME)
    return game


def _create(client: TestClient, options: dict[str, Any]) -> Any:
    body = {"game": GAME, "players": 3, "options": options, "seats": [{"kind": "human"}] * 3, "seed": 1}
    return client.post("/api/tables", json=body)


def test_games_lists_mare_nostrum_options_with_their_defaults(client: TestClient) -> None:
    game = _nostrum(client)
    assert game["name"] == "Mare Nostrum: Empires"
    assert (game["min_players"], game["max_players"]) == (3, 5)
    options = game["options"]
    assert options == DEFAULT_OPTIONS  # every option of 10.6, nested values included
    assert options["building_supply_limit"] is None
    assert options["starting_title_tie_break"] == "youngest_player"
    assert options["victory_tie_capitals"] == "most_capitals_then_military_leader"
    assert options["unit_limits"] == {"legion": 8, "trireme": 5, "fortress": 8, "influence_marker": 12}
    assert options["trade_token_faces"] == [[0, 5], [1, 4], [2, 3]]
    assert "random" in game["bots"]


def test_a_table_takes_the_listed_options(client: TestClient) -> None:
    options = {
        "building_supply_limit": {"market": 4, "temple": 3},
        "starting_title_tie_break": "random",
        "victory_tie_capitals": "military_leader",
        "max_rounds": 6,
    }
    r = _create(client, options)
    assert r.status_code == 201, r.text
    created = r.json()
    seat_token = created["seats"][0]["token"]
    table = client.get(f"/api/tables/{created['table']}", headers={"X-Ziggurat-Token": seat_token}).json()
    # the given options, and the readings of the rules text every table records (R25, R28, N6.3)
    assert {k: table["options"][k] for k in options} == options, table
    assert table["options"]["hannibal_reading"] == "one_pair", table


def test_bad_option_values_are_refused_naming_the_option(client: TestClient) -> None:
    for options, words in (
        ({"victory_tie_capitals": "shared"}, "victory_tie_capitals"),
        ({"building_supply_limit": {"castle": 2}}, "building_supply_limit: unknown key 'castle'"),
        ({"building_supply_limit": {"capital": 1}}, "fewer than the 3 on the board at set-up"),
        ({"youngest_player_seat": 3}, "youngest_player_seat"),
        ({"face_up_tiles": "five"}, "face_up_tiles"),
    ):
        r = _create(client, options)
        assert r.status_code == 422, (options, r.text)
        assert words in r.json()["detail"], r.json()
