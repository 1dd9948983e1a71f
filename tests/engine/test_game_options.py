"""Game options: every option of every game declares its type and range, ``ziggurat.load()``
refuses anything else with a readable ``ValueError`` naming the option, and each game's docs
page lists the same declarations. Mesopotamia's old camelCase names are read as aliases.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.errors import OptionError
from ziggurat.engine.options import check_spec, check_value, markdown_table
from ziggurat.engine.registry import game_class

DOCS = Path(__file__).resolve().parents[2] / "docs"
BEGIN = "<!-- options table:"
END = "<!-- end of options table -->"


def _data(game_id: str) -> Any:
    return importlib.import_module(game_class(game_id).__module__.rpartition(".")[0] + ".data")


def _specs(game_id: str) -> dict[str, dict[str, Any]]:
    specs: dict[str, dict[str, Any]] = _data(game_id).OPTION_SPECS
    return specs


def _players(game_id: str) -> int:
    return game_class(game_id).max_players


OPTIONS = [(g, name) for g in ziggurat.games() for name in sorted(_specs(g))]
INTS = [(g, n) for g, n in OPTIONS if _specs(g)[n].get("type") == "int"]
BOOLS = [(g, n) for g, n in OPTIONS if _specs(g)[n].get("type") == "bool"]
CHOICES = [(g, n) for g, n in OPTIONS if _specs(g)[n].get("type") == "str" and "values" in _specs(g)[n]]
LISTS = [(g, n) for g, n in OPTIONS if _specs(g)[n].get("type") == "list"]


def _refused(game_id: str, name: str, value: Any) -> str:
    """The message ``ziggurat.load`` refuses ``name=value`` with (it must name the option)."""
    with pytest.raises(ValueError) as caught:
        ziggurat.load(game_id, players=_players(game_id), **{name: value})
    assert isinstance(caught.value, OptionError)
    message = str(caught.value)
    assert name in message, message
    return message


@pytest.mark.parametrize(("game_id", "name"), OPTIONS)
def test_every_default_is_within_its_declaration(game_id: str, name: str) -> None:
    spec = _specs(game_id)[name]
    check_value(name, spec["default"], spec)
    assert spec.get("type") in {"int", "bool", "str", "formula", "list", "dict", "object"} or "one_of" in spec


@pytest.mark.parametrize(("game_id", "name"), INTS)
@pytest.mark.parametrize("kind", ["float", "text", "list", "nested dict", "bool", "below", "above"])
def test_a_whole_number_option_refuses_other_types_and_values_out_of_range(
    game_id: str, name: str, kind: str
) -> None:
    spec = _specs(game_id)[name]
    low, high = spec["min"], spec["max"]
    value = {
        "float": low + 0.5,
        "text": str(low),
        "list": [low],
        "nested dict": {"value": {"value": low}},
        "bool": True,
        "below": low - 1,
        "above": high + 1,
    }[kind]
    message = _refused(game_id, name, value)
    assert f"from {low} to {high}" in message, message
    assert repr(value)[:20] in message, message


def test_an_integral_float_is_not_a_whole_number() -> None:
    message = _refused("mesopotamia", "round_limit", 3.0)
    assert message == "option round_limit=3.0: must be null or a whole number from 1 to 1000"


@pytest.mark.parametrize(("game_id", "name"), BOOLS)
@pytest.mark.parametrize("value", [1, "true", None, [True]])
def test_a_true_false_option_refuses_anything_else(game_id: str, name: str, value: Any) -> None:
    assert "true or false" in _refused(game_id, name, value)


@pytest.mark.parametrize(("game_id", "name"), CHOICES)
@pytest.mark.parametrize("value", ["nonsense", 5, ["random"], {"any": 1}])
def test_a_text_option_refuses_what_it_does_not_list(game_id: str, name: str, value: Any) -> None:
    message = _refused(game_id, name, value)
    assert repr(_specs(game_id)[name]["values"][0]) in message, message


@pytest.mark.parametrize(("game_id", "name"), LISTS)
def test_a_list_option_refuses_a_non_list_and_too_many_items(game_id: str, name: str) -> None:
    spec = _specs(game_id)[name]
    assert "a list" in _refused(game_id, name, {"0": spec["default"]})
    too_many = [spec["default"][0] if spec["default"] else None] * (spec["max_items"] + 1)
    _refused(game_id, name, too_many)


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_unknown_option_names_are_refused_naming_them(game_id: str) -> None:
    with pytest.raises(OptionError, match=f"unknown option 'bogus_option' for {game_id}"):
        ziggurat.load(game_id, players=_players(game_id), bogus_option=1)


@pytest.mark.parametrize(
    ("game_id", "options", "words"),
    [
        # a float where a list of tiles is wanted was accepted, and failed building the state
        ("mesopotamia", {"start_tiles": 1.5}, "option start_tiles=1.5: must be null or a list"),
        ("mesopotamia", {"neutral_huts": 1.5}, "option neutral_huts=1.5"),
        ("mesopotamia", {"seat_tiles": {"1": "plainsA"}}, "each of seats 1 to 4"),
        (
            "mesopotamia",
            {"seat_tiles": {"1": "temple", "2": "plainsA", "3": "plainsB", "4": "plainsB"}},
            "seat 1",
        ),
        (
            "mesopotamia",
            {"holy_stone_effect": {"limit_gain": 1.5, "mana_gain": 1}},
            "holy_stone_effect.limit_gain",
        ),
        ("mesopotamia", {"holy_stone_effect": {"limit_gain": 1}}, "holy_stone_effect"),
        ("mesopotamia", {"land_peek_count": 10**9}, "from 1 to 10"),
        ("mesopotamia", {"two_player_removed_cards": ["priest-3", "priest-3"]}, "distinct"),
        ("mesopotamia-epochs", {"die_sides": 1_000_000}, "option die_sides=1000000"),
        (
            "mesopotamia-epochs",
            {"growth_slow": "n*n"},
            "gives 64 for n=8; growth must be a whole number from 0 to 60",
        ),
        ("mesopotamia-epochs", {"growth_fast": "x" * 81}, "growth_fast"),
        (
            "mesopotamia-epochs",
            {"end_tiebreak": ["shared", "most_areas_held"]},
            "'shared' can only come last",
        ),
        ("mesopotamia-epochs", {"map": {"a": [[[[[[[[[1]]]]]]]]]}}, "at most 8 levels deep"),
        ("mare-nostrum", {"trade_token_faces": [[1.5]]}, "exactly 3"),
        ("mare-nostrum", {"die_faces": [1, 2, 2.5]}, "die_faces[2]=2.5"),
        ("mare-nostrum", {"building_supply_limit": 4.5}, "building_supply_limit=4.5"),
        ("mare-nostrum", {"unit_limits": {"legion": 8}}, "unit_limits"),
    ],
)
def test_nested_and_structured_values_are_checked(game_id: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError) as caught:
        ziggurat.load(game_id, players=_players(game_id), **options)
    assert words in str(caught.value)


def test_ranges_follow_the_components() -> None:
    """A pile count no larger than the smallest draw pool (S7); no more face-up tiles than can
    be bought; no more tiles to win than there are."""
    meso = _data("mesopotamia")
    smallest_pool = min(v["total"] for v in meso.DATA["drawPoolByPlayerCount"].values())
    assert _specs("mesopotamia")["tile_pile_count"]["max"] == smallest_pool
    ziggurat.load("mesopotamia", players=2, tile_pile_count=smallest_pool).new_initial_state()
    nostrum = _data("mare-nostrum")
    assert _specs("mare-nostrum")["face_up_tiles"]["max"] == len(nostrum.PURCHASABLE)
    assert _specs("mare-nostrum")["tiles_to_win"]["max"] == len(nostrum.TILES)
    assert _specs("mesopotamia-epochs")["die_sides"]["max"] == 20


@pytest.mark.parametrize(
    ("game_id", "page"),
    [
        ("mesopotamia", "mesopotamia.md"),
        ("mesopotamia-epochs", "mesopotamia-epochs.md"),
        ("mare-nostrum", "mare-nostrum.md"),
    ],
)
def test_the_docs_options_table_is_the_declarations(game_id: str, page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    start = text.index(BEGIN)
    table = text[text.index("\n", start) + 1 : text.index(END)]
    data = _data(game_id)
    want = markdown_table(data.OPTION_SPECS, data.OPTION_DEFAULTS, getattr(data, "OPTION_RULES", None))
    assert table == want, f"regenerate the table of docs/{page} with ziggurat.engine.options.markdown_table"


# --- names: snake_case everywhere, old camelCase names read as aliases ------------------------
@pytest.mark.parametrize("game_id", ziggurat.games())
def test_every_option_name_is_snake_case(game_id: str) -> None:
    assert [n for n in _specs(game_id) if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", n)] == []


def test_old_camel_case_names_load_and_new_names_are_written() -> None:
    aliases = _data("mesopotamia").OPTION_ALIASES
    assert aliases["roundLimit"] == "round_limit"
    assert aliases["teleportOpponentOntoTempleOnlyIfEmpty"] == "teleport_opponent_onto_temple_only_if_empty"
    assert set(aliases.values()) == set(_specs("mesopotamia"))
    game = ziggurat.load(
        "mesopotamia", players=3, roundLimit=4, holyStoneEffect={"limitGain": 2, "manaGain": 0}
    )
    assert game.options == {"round_limit": 4, "holy_stone_effect": {"limit_gain": 2, "mana_gain": 0}}
    assert ziggurat.record(game.new_initial_state())["options"] == game.options


def test_an_old_and_a_new_name_for_one_option_are_refused() -> None:
    with pytest.raises(OptionError, match="round_limit is given twice"):
        ziggurat.load("mesopotamia", players=3, roundLimit=4, round_limit=5)


def test_a_record_written_with_old_names_replays() -> None:
    game = ziggurat.load("mesopotamia", players=3, round_limit=2, rank_non_winners=True, tile_pile_count=4)
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        if state.current_player() == ziggurat.CHANCE:
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(actions, weights)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    new = ziggurat.record(state)
    assert new["options"] == {"round_limit": 2, "rank_non_winners": True, "tile_pile_count": 4}
    old = dict(new, options={"roundLimit": 2, "rankNonWinners": True, "tilePileCount": 4})
    replayed = ziggurat.replay(old)
    assert replayed.fingerprint() == state.fingerprint()
    assert ziggurat.record(replayed)["options"] == new["options"]


# --- the declarations themselves ------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"type": "int", "min": 1}, "needs max"),
        ({"type": "integer", "min": 1, "max": 2}, "type 'integer' is not one of"),
        ({"type": "str"}, "needs values or max_length"),
        ({"type": "list", "items": {"type": "bool"}}, "needs max_items"),
        (
            {"type": "list", "items": {"type": "int"}, "max_items": 3},
            "option x[]: a int option needs min, max",
        ),
        (
            {"type": "dict", "keys": {"type": "str", "max_length": 3}},
            "needs fields, or keys, values and max_items",
        ),
        ({"type": "object"}, "needs max_depth, max_items"),
    ],
)
def test_a_declaration_without_a_range_is_refused(spec: dict[str, Any], words: str) -> None:
    """Every option must say how far it goes: a game with such a declaration does not import."""
    with pytest.raises(ValueError, match=re.escape(words)):
        check_spec("x", spec)


def test_a_refused_value_is_quoted_short() -> None:
    with pytest.raises(OptionError) as caught:
        check_value("x", "y" * 1000, {"type": "str", "max_length": 10})
    assert str(caught.value) == f"option x='{'y' * 56}...: must be a text of at most 10 characters"
