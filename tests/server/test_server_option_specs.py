"""``GET /api/games`` sends, next to each option's default, what its declaration allows: the
closed set of texts, a number's bounds and the rule numbers it belongs to (``option_specs``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ziggurat.games.mare_nostrum.data import DEFAULT_OPTIONS
from ziggurat.games.mesopotamia.data import OPTION_DEFAULTS as MESOPOTAMIA_DEFAULTS
from ziggurat.server.gamekit import lobby_option_specs


def _games(client: TestClient) -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in client.get("/api/games").json()}


def test_games_give_mare_nostrum_closed_values_and_bounds(client: TestClient) -> None:
    game = _games(client)["mare-nostrum"]
    assert game["options"] == DEFAULT_OPTIONS  # the defaults are unchanged
    specs = game["option_specs"]
    assert specs["empire_assignment"] == {"values": ["random", "choice"]}
    assert specs["hannibal_reading"]["values"] == ["one_pair", "any"]
    assert specs["tiles_to_win"] == {"min": 1, "max": 22}
    assert "trade_token_faces" not in specs  # a list: nothing the form can use
    assert set(specs) <= set(game["options"])


def test_games_give_mesopotamia_rule_numbers(client: TestClient) -> None:
    game = _games(client)["mesopotamia"]
    assert game["options"] == MESOPOTAMIA_DEFAULTS
    specs = game["option_specs"]
    assert specs["first_player"] == {"values": ["random", "chosen"], "rules": "S2, R1"}
    assert specs["tile_pile_count"] == {"min": 1, "max": 28, "rules": "S7, R12"}


def test_every_game_sends_option_specs_only_for_its_options(client: TestClient) -> None:
    for game in _games(client).values():
        assert set(game["option_specs"]) <= set(game["options"]), game["id"]
        assert "players_min" not in game["option_specs"]


def test_lobby_option_specs_keeps_only_what_the_form_uses() -> None:
    specs = {
        "mode": {"default": "a", "type": "str", "values": ["a", "b"]},
        "free": {"default": "x", "type": "str", "max_length": 20},
        "table": {"default": {}, "type": "dict", "values": {"type": "int", "min": 1}},
        "count": {"default": 2, "type": "int", "min": 0},
        "flag": {"default": True, "type": "bool"},
    }
    names = ["mode", "free", "table", "count", "flag", "undeclared"]
    assert lobby_option_specs(names, specs, {"flag": "M1"}) == {
        "mode": {"values": ["a", "b"]},
        "count": {"min": 0},
        "flag": {"rules": "M1"},
    }
    assert lobby_option_specs(names, {}, {}) == {}
