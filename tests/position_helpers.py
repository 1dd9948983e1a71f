"""Helpers shared by the tests of the position loaders (``test_*position_schema.py`` under
tests/games/): one game's cached game and real positions, its refusals, its fuzz, and its JSON
Schema document in docs/positions.

Each game's test module keeps its own data (player count, which positions it picks, what it
breaks) and declares its ``POSITIONS``; this module holds what is the same for the games.
After a change to a position model, regenerate the schema documents with
``python tests/position_helpers.py``.
"""

from __future__ import annotations

import copy
import json
import runpy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import ziggurat
from ziggurat.engine.errors import InvalidPosition
from ziggurat.engine.positions import FuzzTally, fuzz_loading, seeded_positions

FUZZ_SEEDS = (1, 2, 3, 4)
FUZZ_PER_SEED = 2_500  # 10,000 corrupted positions in all
TESTS = Path(__file__).resolve().parent
SCHEMA_FOLDER = TESTS.parent / "docs" / "positions"


@dataclass(frozen=True)
class GamePositions:
    """A game at a player count, and the positions of seeded random games it is tested on."""

    game: str
    players: int
    model: type[BaseModel]
    every: int
    """One real position every ``every`` plies of each seeded game (and the last)."""
    rule_format: str = "({})"
    """How :meth:`refused` looks for the rule in a refusal's text."""

    @property
    def schema_file(self) -> Path:
        return SCHEMA_FOLDER / f"{self.game}.schema.json"

    def load(self) -> Any:
        """The game, loaded once."""
        return _load(self.game, self.players)

    def real_positions(self) -> tuple[dict[str, Any], ...]:
        """Positions of four seeded random games of 600 plies, computed once."""
        return _real_positions(self)

    def fuzz_tally(self, count: int, seed: int) -> FuzzTally:
        """``count`` corruptions of the real positions, loaded (and played where accepted)."""
        return fuzz_loading(self.load(), list(self.real_positions()), count, seed)

    def find(self, test: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
        """A copy of the first real position that passes ``test``, to break at will."""
        return copy.deepcopy(next(p for p in self.real_positions() if test(p)))

    def refused(self, pos: dict[str, Any], field: str, rule: str | None = None) -> str:
        """Load ``pos``, require it refused naming ``field`` (and ``rule``); the refusal's text."""
        with pytest.raises(InvalidPosition) as info:
            self.load().state_from_position(pos)
        text = str(info.value)
        assert f"{self.game} position: {field}" in text, text
        if rule is not None:
            assert self.rule_format.format(rule) in text, text
        return text

    def check_fuzz(self, seed: int) -> None:
        """The fuzz of one seed: every corruption is refused (a ``ValueError``) or loads and
        plays; most corruptions break something."""
        tally = self.fuzz_tally(FUZZ_PER_SEED, seed)
        assert tally.tried == FUZZ_PER_SEED, tally
        assert tally.rejected + tally.accepted == tally.tried, tally
        assert tally.played == tally.accepted, tally
        assert tally.rejected > tally.tried // 2, tally  # most corruptions break something

    def schema_document(self) -> Any:
        """The game's JSON Schema document as docs/positions holds it."""
        return json.loads(self.schema_file.read_text(encoding="utf-8"))

    def write_schema_document(self) -> None:
        """Regenerate the game's schema document from its model."""
        text = json.dumps(self.model.model_json_schema(), indent=2) + "\n"
        self.schema_file.write_text(text, encoding="utf-8")


@cache
def _load(game: str, players: int) -> Any:
    return ziggurat.load(game, players=players)


@cache
def _real_positions(positions: GamePositions) -> tuple[dict[str, Any], ...]:
    return tuple(seeded_positions(positions.load(), range(4), plies=600, every=positions.every))


def write_schema_documents() -> None:
    """Regenerate the schema document of every game whose position tests declare ``POSITIONS``."""
    for path in sorted(TESTS.glob("games/*/test_*position_schema.py")):
        runpy.run_path(str(path))["POSITIONS"].write_schema_document()


if __name__ == "__main__":  # regenerate the schema documents after a change to a model
    write_schema_documents()
