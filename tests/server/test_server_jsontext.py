"""The server's JSON text (orjson) holds the same values as the standard library's."""

from __future__ import annotations

import json
import random
from typing import Any, NamedTuple

import pytest

import ziggurat
from ziggurat.engine.contract import sample_chance
from ziggurat.server import gamekit, jsontext


class Pair(NamedTuple):
    left: int
    right: str


def _same(value: Any, sortable: bool = True) -> None:
    text = jsontext.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    if sortable:  # json cannot sort keys of mixed kinds
        assert json.loads(jsontext.sorted_bytes(value)) == json.loads(json.dumps(value, sort_keys=True))


def test_keys_that_are_not_texts_and_named_tuples_read_as_json_writes_them() -> None:
    _same({0: "a", 1: [1, 2.5, None], None: True, "x": {"y": (1, 2)}}, sortable=False)
    _same({2: "a", 1: [1, 2.5, None], 0: {"y": (1, 2)}})
    _same({"event": Pair(3, "move"), "events": [Pair(1, "a"), Pair(2, "b")]})
    _same({"name": "l'Égypte", "big": 10**17, "float": 1e16, "small": -0.5})


def test_a_value_json_refuses_is_refused() -> None:
    with pytest.raises(TypeError):
        jsontext.dumps({"set": {1, 2}})


def test_sorted_bytes_do_not_depend_on_key_order() -> None:
    assert jsontext.sorted_bytes({"b": 1, "a": {"d": 2, "c": 3}}) == jsontext.sorted_bytes(
        {"a": {"c": 3, "d": 2}, "b": 1}
    )


@pytest.mark.parametrize(
    ("game_id", "players"), [("mesopotamia", 3), ("mesopotamia-epochs", 4), ("mare-nostrum", 3)]
)
def test_every_view_and_final_flags_of_a_seeded_game_read_the_same(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(120):
        if state.is_terminal():
            break
        for seat in [None, *range(players)]:
            _same(state.view(seat))
        who = state.current_player()
        if who >= 0:
            # the flags from a view the caller already has are the flags from the state
            assert gamekit.final_flags(state, who, state.view(who)) == gamekit.final_flags(state, who)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(sample_chance(state, rng))
