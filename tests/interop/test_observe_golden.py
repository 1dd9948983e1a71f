"""Observation vectors are a format: an agent trained on them reads them again after an upgrade.
Every game configuration's vectors over a seeded random game (every seat at every decision)
hash to the values recorded here. A change to a layout or to what a field holds is a change of
format: it goes in CHANGELOG.md and docs/interop.md, with the new values here. (A change to the
games' legal-action order or chance draws also changes the game played, and so these values.)"""

from __future__ import annotations

import hashlib
import random

import pytest

pytest.importorskip("numpy")

import ziggurat  # noqa: E402
from ziggurat.interop.observe import encoder_for  # noqa: E402

RECORDED = {
    ("mare-nostrum", 3): ("a1d072920b7b533c", 376),
    ("mare-nostrum", 4): ("0a4b35e772dd9086", 382),
    ("mare-nostrum", 5): ("8d82b785e2e72792", 368),
    ("mesopotamia", 2): ("5c6cf3cc3a0143c3", 357),
    ("mesopotamia", 3): ("6fba47da7556fce1", 354),
    ("mesopotamia", 4): ("cdd7867623fbe582", 347),
    ("mesopotamia-epochs", 2): ("9551d7e67c36dad3", 85),
    ("mesopotamia-epochs", 3): ("6dd41895eab703ef", 122),
    ("mesopotamia-epochs", 4): ("43e84228d9bf65c1", 153),
    ("mesopotamia-epochs", 5): ("0b67158918d34067", 202),
}
"""(game, players) -> (first 16 hex digits of the SHA-256 of the vectors, decisions seen)."""


def vectors_digest(game_id: str, players: int, seed: int = 5, plies: int = 400) -> tuple[str, int]:
    game = ziggurat.load(game_id, players=players)
    enc = encoder_for(game)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    state = game.new_initial_state()
    decisions = 0
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(ziggurat.sample_chance(state, rng))
            continue
        for seat in range(players):
            digest.update(enc.encode(state.view(seat), seat).tobytes())
        decisions += 1
        state.apply(rng.choice(state.legal_actions()))
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
