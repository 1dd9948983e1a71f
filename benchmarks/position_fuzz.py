"""Benchmark: how the position loaders take corrupted positions, per game.

Reuses the generator of the property tests (``fuzz_tally`` in
tests/games/<game>/test_*position_schema.py): real positions of seeded random games, each
corrupted once (a field deleted, a value of the wrong kind, a number out of range, a piece
moved, duplicated or removed, a count changed), loaded with ``state_from_position``; every
accepted one then plays 200 seeded random plies. Prints, per game, the positions tried,
rejected (``ValueError``), accepted, and accepted and played, the fields refused most often,
and the time taken.

    .venv/bin/python benchmarks/position_fuzz.py [--count 10000] [--seed 1]

Figures are printed, never checked (the tests check the outcome).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests" / "games"
MODULES = {
    "mesopotamia": ("mesopotamia", "test_position_schema"),
    "mesopotamia-epochs": ("mesopotamia_epochs", "test_epochs_position_schema"),
    "mare-nostrum": ("mare_nostrum", "test_nostrum_position_schema"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="corrupted positions per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=sorted(MODULES), action="append", help="default: all three")
    args = parser.parse_args()
    print(
        f"{'game':<20}{'players':>8}{'tried':>8}{'rejected':>10}{'accepted':>10}{'played':>8}{'seconds':>9}"
    )
    sys.path.insert(0, str(TESTS.parent))  # the tests' shared position_helpers
    for game in args.game or list(MODULES):
        folder, name = MODULES[game]
        sys.path.insert(0, str(TESTS / folder))
        module = importlib.import_module(name)
        start = time.perf_counter()
        tally = module.fuzz_tally(args.count, args.seed)
        took = time.perf_counter() - start
        print(
            f"{game:<20}{module.PLAYERS:>8}{tally.tried:>8}{tally.rejected:>10}{tally.accepted:>10}"
            f"{tally.played:>8}{took:>9.1f}"
        )
        top = ", ".join(f"{field} {k}" for field, k in tally.reasons.most_common(6))
        print(f"{'':<20}most refused: {top}")


if __name__ == "__main__":
    main()
