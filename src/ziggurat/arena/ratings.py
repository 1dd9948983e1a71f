"""Ratings of the entrants with openskill's Plackett-Luce model, updated game by game.

Every entrant plays every game (one seat each), so each finished game is one Plackett-Luce
match of ``n`` one-player teams ranked by their returns (competition ranking: seats with equal
returns tie). Games are rated in game-index order, which is seed order, so the ratings do
not depend on which worker finished first. Games that hit the ply limit or raised are not
rated. Ratings start at openskill's defaults (mu 25, sigma 25/3); ``mu - 3 sigma`` (openskill's
``ordinal``) is a conservative estimate for leaderboards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from ziggurat.arena.stats import ranks


@dataclass
class RatingHistory:
    """Each entrant's ``(mu, sigma)`` before any game and after each rated game."""

    games: list[int] = field(default_factory=list)
    """The index (0-based) of each rated game, in rating order."""
    mu: list[list[float]] = field(default_factory=list)
    """``mu[e][k]``: entrant ``e``'s mu after ``k`` rated games (``k`` = 0: the prior)."""
    sigma: list[list[float]] = field(default_factory=list)

    def final(self) -> list[tuple[float, float]]:
        return [(mus[-1], sigmas[-1]) for mus, sigmas in zip(self.mu, self.sigma, strict=True)]


def rate_match(
    before: Sequence[tuple[float, float]], returns: Sequence[float], model: PlackettLuce | None = None
) -> list[tuple[float, float]]:
    """One finished game as a Plackett-Luce match of one-player teams: each seat's
    ``(mu, sigma)`` after it, from its ``(mu, sigma)`` before and the game's returns (seats with
    equal returns share a rank)."""
    model = model or PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = model.rate(teams, ranks=[float(r) for r in ranks(returns)])
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_games(entrants: int, games: Iterable[tuple[int, Sequence[int], Sequence[float]]]) -> RatingHistory:
    """Rate ``(index, seating, returns)`` games in the order given.

    ``seating[s]`` is the entrant at seat ``s`` and ``returns[s]`` that seat's return.
    """
    model = PlackettLuce()
    prior = model.rating()
    current = [(prior.mu, prior.sigma)] * entrants
    history = RatingHistory(mu=[[mu] for mu, _ in current], sigma=[[sigma] for _, sigma in current])
    for index, seating, returns in games:
        rated = rate_match([current[e] for e in seating], returns, model)
        for seat, entrant in enumerate(seating):
            current[entrant] = rated[seat]
        history.games.append(index)
        for e, (mu, sigma) in enumerate(current):
            history.mu[e].append(mu)
            history.sigma[e].append(sigma)
    return history
