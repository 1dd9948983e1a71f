"""A tournament: entrants, seat rotation, the seeded games and their summary.

Game ``i`` (0-based) is played with seed ``seed + i``; in it, seat ``s`` is played by entrant
``(s + i) mod n`` (``n`` entrants = ``n`` players), a cyclic rotation, so over every block of
``n`` games each entrant plays each seat once. :func:`balanced_games` rounds a game count up
to a whole number of rotations.

Entrants are the items of the player list, in order. A bot spec given more than once makes
distinct entrants numbered by order of appearance (``heuristic#1``, ``heuristic#2``): each
has its own seat, statistics and rating, since a rating system cannot rate one player against
itself, and the spread between two copies of one bot is a useful gauge of the noise.

Outcomes come back in any order (processes, Ray) and are sorted by game index before anything
is summed or rated, so the result depends only on the tournament, never on how it was run
(given bots that are deterministic for a seed: a time-budgeted search is not).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import ziggurat
from ziggurat.arena.ratings import RatingHistory, rate_games
from ziggurat.arena.runner import ArenaError, GameOutcome, GameTask, LocalRunner, check_bot
from ziggurat.arena.stats import places, wilson, win_shares
from ziggurat.engine.registry import game_class


@dataclass(frozen=True)
class Entrant:
    """One player of the tournament: a unique ``name`` and the bot ``spec`` given to make_bot."""

    name: str
    spec: str


def parse_entrants(players: str | Sequence[str]) -> tuple[Entrant, ...]:
    """Entrants from a comma-separated list (or a list) of bot specs, in order.

    :raises ArenaError: for an empty list or an empty spec.
    """
    specs = players.split(",") if isinstance(players, str) else list(players)
    specs = [spec.strip().lower() for spec in specs]
    if not specs or any(not spec for spec in specs):
        raise ArenaError(
            f"bad player list {players!r}: give comma-separated bot specs, e.g. heuristic,random"
        )
    counts = Counter(specs)
    seen: Counter[str] = Counter()
    entrants = []
    for spec in specs:
        seen[spec] += 1
        name = spec if counts[spec] == 1 else f"{spec}#{seen[spec]}"
        entrants.append(Entrant(name, spec))
    return tuple(entrants)


def balanced_games(games: int, players: int) -> int:
    """``games`` rounded up to a multiple of ``players``: whole rotations only."""
    return -(-games // players) * players


class Runner(Protocol):
    """Plays game tasks and yields their outcomes, in any order."""

    def run(self, tasks: Sequence[GameTask]) -> Iterable[GameOutcome]: ...


@dataclass(frozen=True)
class Tournament:
    """What to play. :meth:`create` parses and validates; the constructor trusts its input."""

    game_id: str
    entrants: tuple[Entrant, ...]
    games: int
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    max_plies: int = 100_000
    records: bool = True

    @classmethod
    def create(
        cls,
        game_id: str,
        players: str | Sequence[str],
        games: int,
        seed: int = 1,
        options: dict[str, Any] | None = None,
        max_plies: int = 100_000,
        records: bool = True,
        balance: bool = False,
    ) -> Tournament:
        """A validated tournament; ``balance`` rounds ``games`` up to whole rotations.

        :raises ArenaError: for an unknown game, a bad player count, bad options, a bot spec
            that cannot be made, or ``games``/``max_plies`` below 1.
        """
        entrants = parse_entrants(players)
        if games < 1:
            raise ArenaError(f"games must be at least 1, not {games}")
        if max_plies < 1:
            raise ArenaError(f"max_plies must be at least 1, not {max_plies}")
        if game_id not in ziggurat.games():
            raise ArenaError(f"unknown game {game_id!r}; known games: {', '.join(ziggurat.games())}")
        kind = game_class(game_id)
        if not kind.min_players <= len(entrants) <= kind.max_players:
            raise ArenaError(
                f"{game_id} is for {kind.min_players} to {kind.max_players} players; "
                f"the player list names {len(entrants)}"
            )
        try:
            game = ziggurat.load(game_id, players=len(entrants), **(options or {}))
        except ValueError as exc:
            raise ArenaError(str(exc)) from exc
        for spec in dict.fromkeys(e.spec for e in entrants):
            check_bot(spec, game)
        if balance:
            games = balanced_games(games, len(entrants))
        return cls(game_id, entrants, games, seed, dict(options or {}), max_plies, records)

    @property
    def num_players(self) -> int:
        return len(self.entrants)

    def seating(self, index: int) -> tuple[int, ...]:
        """The entrant (index into ``entrants``) at each seat of game ``index``."""
        n = self.num_players
        return tuple((seat + index) % n for seat in range(n))

    def tasks(self) -> list[GameTask]:
        """One picklable task per game, in game order."""
        out = []
        for index in range(self.games):
            seating = self.seating(index)
            out.append(
                GameTask(
                    game_id=self.game_id,
                    options=self.options,
                    specs=tuple(self.entrants[e].spec for e in seating),
                    names=tuple(self.entrants[e].name for e in seating),
                    seating=seating,
                    index=index,
                    seed=self.seed + index,
                    max_plies=self.max_plies,
                    record=self.records,
                )
            )
        return out

    def describe(self) -> dict[str, Any]:
        """The tournament as JSON-ready data (results.json's ``tournament``)."""
        return {
            "game": self.game_id,
            "players": self.num_players,
            "options": self.options,
            "entrants": [{"name": e.name, "spec": e.spec} for e in self.entrants],
            "games": self.games,
            "seed": self.seed,
            "seeds": f"game k (from 0) is played with seed {self.seed} + k",
            "rotation": "cyclic: in game k (from 0) seat s is played by entrant (s + k) mod players",
            "max_plies": self.max_plies,
        }


@dataclass
class Standing:
    """One entrant's results over the finished games."""

    entrant: Entrant
    games: int = 0
    wins: float = 0.0
    place_sum: float = 0.0
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    bot_stats: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.games if self.games else None


@dataclass
class TournamentResult:
    tournament: Tournament
    outcomes: list[GameOutcome]
    standings: list[Standing]
    ratings: RatingHistory
    seconds: float = 0.0
    runner: str = ""

    @property
    def finished(self) -> list[GameOutcome]:
        """The games that count: finished without error."""
        return [o for o in self.outcomes if counted(o)]

    @property
    def truncated(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if not o.finished and o.error is None]

    @property
    def errors(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.error is not None]

    @property
    def fair_share(self) -> float:
        return 1.0 / self.tournament.num_players


def counted(outcome: GameOutcome) -> bool:
    """A game that counts for the statistics and ratings: finished, without error."""
    return outcome.finished and outcome.error is None and outcome.returns is not None


def summarize(
    tournament: Tournament, outcomes: Iterable[GameOutcome], seconds: float = 0.0, runner: str = ""
) -> TournamentResult:
    """Standings and ratings of the outcomes (any order in; sorted by game index inside).

    Only finished games count: a game that hit ``max_plies`` or raised is listed in the
    outcomes but has no winner, no places and no rating update.
    """
    ordered = sorted(outcomes, key=lambda o: o.index)
    n = tournament.num_players
    standings = [Standing(e, seat_games=[0] * n, seat_wins=[0.0] * n) for e in tournament.entrants]
    for outcome in ordered:
        for seat, entrant in enumerate(outcome.seating):
            for key, value in outcome.bot_stats[seat].items():
                stats = standings[entrant].bot_stats
                stats[key] = stats.get(key, 0.0) + value
        if not counted(outcome) or outcome.returns is None:
            continue
        shares = win_shares(outcome.returns)
        seat_places = places(outcome.returns)
        for seat, entrant in enumerate(outcome.seating):
            st = standings[entrant]
            st.games += 1
            st.wins += shares[seat]
            st.place_sum += seat_places[seat]
            st.seat_games[seat] += 1
            st.seat_wins[seat] += shares[seat]
    history = rate_games(n, [(o.index, o.seating, o.returns) for o in ordered if counted(o) and o.returns])
    for st, (mu, sigma) in zip(standings, history.final(), strict=True):
        st.mu, st.sigma, st.ordinal = mu, sigma, mu - 3 * sigma
    return TournamentResult(tournament, ordered, standings, history, seconds, runner)


def record_path(records_dir: Path, index: int) -> Path:
    """Where game ``index`` (0-based) is saved: ``records/game-00001.json`` ..."""
    return records_dir / f"game-{index + 1:05d}.json"


def run_tournament(
    tournament: Tournament,
    runner: Runner | None = None,
    records_dir: Path | None = None,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> TournamentResult:
    """Play every game of ``tournament`` and summarize.

    ``runner`` defaults to this process (``LocalRunner(1)``). With ``records_dir`` each game's
    record is written there as it arrives (``game-00001.json`` ...) and dropped from memory;
    ``on_outcome`` is called once per game, in completion order (a progress bar).
    """
    runner = runner or LocalRunner(1)
    if records_dir is not None:
        records_dir.mkdir(parents=True, exist_ok=True)
    outcomes = []
    start = time.perf_counter()
    for outcome in runner.run(tournament.tasks()):
        if records_dir is not None and outcome.record is not None:
            path = record_path(records_dir, outcome.index)
            path.write_text(json.dumps(outcome.record), encoding="utf-8")
            outcome.record = None
            outcome.record_file = str(path)
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    label = getattr(runner, "label", type(runner).__name__)
    return summarize(tournament, outcomes, time.perf_counter() - start, str(label))
