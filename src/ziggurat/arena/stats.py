"""Statistics of a tournament: wins, places and Wilson intervals from each game's returns.

Everything here is computed from ``state.returns()`` alone, so it holds for every game:

- **win share**: the seats with the best return share one win (``1/k`` each for ``k`` tied
  winners); a game where every seat has the same return of 0 or less has no winner.
- **place**: fractional ("average") ranking by return, 1 being best; tied seats get the mean
  of the places they cover, so a 4-player game won outright gives places 1, 3, 3, 3 and the
  places of any game sum to ``1 + 2 + ... + n`` (the fair average place is ``(n + 1) / 2``).
- **rank** (for ratings): competition ranking, 1 + the number of seats with a better return.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for ``successes`` out of ``n`` (``(0, 1)`` when ``n`` is 0).

    ``successes`` may be fractional (shared victories).
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    # min/max: rounding must not put p outside its own interval (p = 0 or 1 exactly).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def win_shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: ``1/k`` for the ``k`` seats with the best return."""
    best = max(returns)
    if best <= 0 and min(returns) == best:
        return [0.0] * len(returns)
    tops = [seat for seat, value in enumerate(returns) if value == best]
    return [1.0 / len(tops) if seat in tops else 0.0 for seat in range(len(returns))]


def places(returns: Sequence[float]) -> list[float]:
    """Fractional ranking by return (1 is best; ties share the mean of their places)."""
    out = []
    for value in returns:
        better = sum(1 for other in returns if other > value)
        tied = sum(1 for other in returns if other == value)
        out.append(better + (tied + 1) / 2)
    return out


def ranks(returns: Sequence[float]) -> list[int]:
    """Competition ranking by return (1 is best; tied seats get the same rank)."""
    return [1 + sum(1 for other in returns if other > value) for value in returns]
