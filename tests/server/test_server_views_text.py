"""A live table holds each viewer's current view as JSON text (``tabletypes.Views``): a view
read back is the view that was held, in every game (keys are texts, lists stay lists), and a
``state`` message embeds that text as it is."""

from __future__ import annotations

import random

import pytest

import ziggurat
from ziggurat.server import jsontext
from ziggurat.server.tabletypes import Views

GAMES = [("mesopotamia", 2), ("mesopotamia", 4), ("mesopotamia-epochs", 3), ("mare-nostrum", 4)]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_view_reads_back_as_it_was_held(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    state = game.new_initial_state()
    rng = random.Random(players)
    viewers: list[int | None] = [*range(players), None]
    checked = 0
    for step in range(600):
        if state.is_terminal():
            break
        if step % 9 == 0:
            held = {v: state.view(v) for v in viewers}
            views = Views(held)
            for v in viewers:
                assert views[v] == held[v], (game_id, step, v)
                assert jsontext.loads(views.text(v)) == held[v]
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 10


def test_views_hold_copy_and_drop_texts() -> None:
    views = Views({0: {"a": [1, 2], "b": {"c": None}}})
    assert 0 in views and None not in views and list(views) == [0] and len(views) == 1
    first = views[0]
    first["a"].append(3)  # a read is a new dict: changing it changes nothing held
    assert views[0] == {"a": [1, 2], "b": {"c": None}}
    views.copy_from(Views({None: {"x": "é"}}), None)
    assert views.text(None) == '{"x":"é"}' and views[None] == {"x": "é"}
    views.drop(0)
    views.drop(0)  # dropping a viewer not held is nothing
    assert list(views) == [None]
    # a message embeds the held text as it is
    assert jsontext.dumps({"type": "state", "view": jsontext.raw(views.text(None))}) == (
        '{"type":"state","view":{"x":"é"}}'
    )
