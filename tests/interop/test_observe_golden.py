"""Observation vectors are a format: an agent trained on them reads them again after an upgrade.
Every game configuration's vectors over a seeded random game (every seat at every decision)
hash to the values recorded here. A change to a layout or to what a field holds is a change of
format: it goes in CHANGELOG.md and docs/interop.md, with the new values here. (A change to the
games' legal-action order or chance draws also changes the game played, and so these values.)"""

from __future__ import annotations

import hashlib

import pytest

pytest.importorskip("numpy")

from test_observe import states  # noqa: E402

import ziggurat  # noqa: E402
from ziggurat.interop.observe import encoder_for  # noqa: E402

RECORDED = {
    ("mare-nostrum", 3): ("96c40765825e0d01", 377),
    ("mare-nostrum", 4): ("5690ed6ae27b6d99", 383),
    ("mare-nostrum", 5): ("674853fc5a66b5f7", 369),
    ("mesopotamia", 2): ("e04d18831c9efadf", 358),
    ("mesopotamia", 3): ("e4c891e7f18d9adf", 355),
    ("mesopotamia", 4): ("b4b9267504817ec8", 348),
    ("mesopotamia-epochs", 2): ("9551d7e67c36dad3", 85),
    ("mesopotamia-epochs", 3): ("6dd41895eab703ef", 122),
    ("mesopotamia-epochs", 4): ("43e84228d9bf65c1", 153),
    ("mesopotamia-epochs", 5): ("0b67158918d34067", 202),
}
"""(game, players) -> (first 16 hex digits of the SHA-256 of the vectors, decisions seen)."""


def vectors_digest(game_id: str, players: int, seed: int = 5, plies: int = 400) -> tuple[str, int]:
    game = ziggurat.load(game_id, players=players)
    enc = encoder_for(game)
    digest = hashlib.sha256()
    decisions = 0
    for state in states(game, seed, plies):
        if state.is_terminal():
            break
        for seat in range(players):
            digest.update(enc.encode(state.view(seat), seat).tobytes())
        decisions += 1
    return digest.hexdigest()[:16], decisions


def test_every_game_configuration_is_recorded() -> None:
    from ziggurat.engine.registry import game_class

    configs = {
        (g, n)
        for g in ziggurat.games()
        for n in range(game_class(g).min_players, game_class(g).max_players + 1)
    }
    assert configs == set(RECORDED)


@pytest.mark.parametrize(("game_id", "players"), sorted(RECORDED))
def test_observation_vectors_are_those_recorded(game_id: str, players: int) -> None:
    assert vectors_digest(game_id, players) == RECORDED[(game_id, players)]
