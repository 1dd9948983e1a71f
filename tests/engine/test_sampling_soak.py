"""The short version of ``benchmarks/sampling_soak.py``: states sampled from every seat's view,
over a seeded game of every game and player count, show the same view, keep the declared
invariants, offer the mover the same legal actions and play on; and the script reports a fault
it is shown."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.registry import game_class

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "sampling_soak.py"
CASES = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


def _soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sampling_soak", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sampling_soak"] = module
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
