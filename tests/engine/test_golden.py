"""Golden playthroughs: seeded random games stored as records (``tests/golden/*.json``).

Each must replay to its stored fingerprint, and the same seeded driver must choose the same
actions again, so a change in rules, legal-action order or chance probabilities shows up here.
After an intended rules change, regenerate with ``python tests/engine/test_golden.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import ziggurat

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = [("mesopotamia", 3), ("mesopotamia-epochs", 4), ("mare-nostrum", 4)]
PLIES = 400


def seeded_game(game_id: str, players: int, seed: int = 2026) -> ziggurat.engine.State:
    game = ziggurat.load(game_id, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(PLIES):
        if state.is_terminal():
            break
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return state


def path_for(game_id: str, players: int) -> Path:
    return GOLDEN / f"{game_id}-{players}p.json"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_golden_record_replays(game_id: str, players: int) -> None:
    rec = json.loads(path_for(game_id, players).read_text())
    assert ziggurat.replay(rec).fingerprint() == rec["final_fingerprint"]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_seeded_driver_reproduces_golden(game_id: str, players: int) -> None:
    rec = json.loads(path_for(game_id, players).read_text())
    state = seeded_game(game_id, players)
    assert state.history() == rec["actions"]
    assert state.fingerprint() == rec["final_fingerprint"]


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for game_id, players in CASES:
        rec = ziggurat.record(seeded_game(game_id, players), seed=2026)
        path_for(game_id, players).write_text(json.dumps(rec, indent=1) + "\n")
        print("wrote", path_for(game_id, players))


if __name__ == "__main__":
    sys.exit(regenerate())
