"""The short version of ``benchmarks/soak.py``: a seeded game of every game and player count
keeps its invariants, its positions load again as the same state, and the states sampled from
every seat's view show the same view, keep the invariants, offer the mover the same legal
actions and play on; a game with a random option set too; and the script reports a fault it is
shown."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.registry import game_class

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"
CASES = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


def _soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module
    spec.loader.exec_module(module)
    return module


soak = _soak()


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_sampled_states_of_a_seeded_game_are_sound(game_id: str, players: int) -> None:
    tally = soak.Tally()
    soak.soak_game(game_id, players, seed=7, tally=tally, every=23, samples=1, playout=10, plies=1500)
    assert tally.failures == []
    assert tally.games == 1 and tally.decisions > 2 and tally.samples == tally.decisions * players


def test_a_sampler_that_breaks_an_invariant_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ziggurat.load("mare-nostrum", players=3)
    real = type(game).sample_state

    def duplicating(self: Any, view: dict[str, Any], seat: int, rng: Any) -> Any:
        """A sampler that turns one of the next seat's ordinary tokens into a legendary gold
        (the same count: the view is the same)."""
        world = real(self, view, seat, rng)
        screen = world.d["res"][(seat + 1) % 3]
        plain = next((t for t in screen if not t.startswith("leg:")), None)
        if plain is not None:
            screen[plain] -= 1
            if not screen[plain]:
                del screen[plain]
            screen["leg:gold"] = screen.get("leg:gold", 0) + 1
        return world

    monkeypatch.setattr(type(game), "sample_state", duplicating)
    tally = soak.Tally()
    soak.soak_game("mare-nostrum", 3, seed=1, tally=tally, every=5, samples=1, playout=0)
    assert len(tally.failures) == 1
    assert "breaks invariants" in tally.failures[0] and "legendary gold" in tally.failures[0]


def test_the_script_prints_a_row_per_player_count_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        soak.main(["--games", "mesopotamia-epochs", "--seeds", "1", "--every", "50", "--playout", "5"]) == 0
    )
    out = capsys.readouterr().out
    assert out.count("mesopotamia-epochs") == 4 and "no failure" in out


def test_a_position_that_does_not_load_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ziggurat.load("mesopotamia", players=2)

    def refusing(self: Any, position: dict[str, Any]) -> Any:
        raise ziggurat.InvalidPosition("mesopotamia position: piles: planted")

    monkeypatch.setattr(type(game), "state_from_position", refusing)
    tally = soak.Tally()
    soak.soak_game("mesopotamia", 2, seed=1, tally=tally, every=5, samples=1, playout=0)
    assert len(tally.failures) == 1 and "its position does not load" in tally.failures[0]


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_a_game_with_a_random_option_set_is_sound(game_id: str) -> None:
    import random

    players = game_class(game_id).min_players
    options = soak.random_options(game_id, players, random.Random(3), most=6)
    assert options and all(name in dict(soak.option_choices(game_id)) for name in options)
    tally = soak.Tally()
    soak.soak_game(
        game_id, players, seed=3, tally=tally, every=31, samples=1, playout=10, plies=1200, options=options
    )
    assert tally.failures == [] and tally.decisions > 1
