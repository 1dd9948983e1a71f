"""The refusal audit shared by the Mesopotamia and Epochs tests: illegal actions taken from seeded
games are refused, each with a rule id that the game's spec defines.

The positions are those of seeded random games (``engine.positions.seeded_positions``). At each
position where a player decides, the actions tried are the legal actions of the plies just
before and just after it (other seats' decisions among them) that are not legal now; each must
be refused with an :class:`~ziggurat.IllegalAction` whose reason names at least one rule id, and
every id it names must be defined by the spec (``ziggurat.rules.definition_lines`` reads the ids, as ``tools/rule_coverage.py`` does).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import ziggurat
from ziggurat.engine.positions import seeded_positions
from ziggurat.rules import definition_lines

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"(?<![A-Za-z0-9])([A-Z]\d+(?:\.\d+)*)(?![\d.]*\d)")


@cache
def spec_ids(spec: str) -> frozenset[str]:
    """The rule ids the spec ``docs/rules/<spec>`` defines."""
    text = (ROOT / "docs" / "rules" / spec).read_text(encoding="utf-8")
    return frozenset(d.rule for d in definition_lines(text))


@dataclass(frozen=True)
class Refusal:
    """One illegal action tried at one position, and what the engine answered."""

    state: Any
    """The state before the action (unchanged by the refusal)."""
    action: str
    reason: Any
    """The reason, a message: its ``key`` and its English text."""
    ids: tuple[str, ...]


def refusals(game_id: str, players: int, seeds: range, plies: int, per_position: int) -> Iterator[Refusal]:
    """The refusals of up to ``per_position`` illegal actions at each position of the seeded games."""
    game = ziggurat.load(game_id, players=players)
    rng = random.Random(0)
    states = [game.state_from_position(p) for p in seeded_positions(game, seeds, plies, 1)]
    legal = [set() if s.is_terminal() else set(s.legal_actions()) for s in states]
    for i, state in enumerate(states):
        who = state.current_player()
        if state.is_terminal() or who == ziggurat.CHANCE:
            continue
        near: set[str] = set()
        for j in (i - 2, i - 1, i + 1, i + 2):
            if 0 <= j < len(states):
                near |= legal[j]
        tried = sorted(near - legal[i])
        for action in rng.sample(tried, min(per_position, len(tried))):
            try:
                state.apply(action, who)
            except ziggurat.IllegalAction as exc:
                reason = exc.args[0].params["reason"]
                yield Refusal(state, action, reason, tuple(RULE_ID.findall(str(reason))))
            else:  # pragma: no cover - an audit failure, reported by the test
                raise AssertionError(f"{action!r} was accepted, though not in the legal list")


def audit(
    game_id: str, spec: str, specific: Callable[[Refusal], set[str]], players: int = 3, plies: int = 300
) -> dict[str, int]:
    """Run the audit; returns how many refusals each reason key gave (for the test to check)."""
    defined = spec_ids(spec)
    counts: dict[str, int] = {}
    for r in refusals(game_id, players, range(3), plies, per_position=6):
        counts[r.reason.key] = counts.get(r.reason.key, 0) + 1
        assert r.ids, f"{r.action!r} refused naming no rule: {r.reason}"
        unknown = [rule for rule in r.ids if rule not in defined]
        assert not unknown, f"{r.action!r} refused citing {unknown}, not defined in {spec}: {r.reason}"
        wanted = specific(r)
        assert wanted <= set(r.ids), f"{r.action!r} should cite {sorted(wanted)}: {r.reason}"
    return counts
