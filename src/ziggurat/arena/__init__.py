"""The arena: seeded bot tournaments with seat rotation, statistics, ratings, plots and records.

    from ziggurat.arena import LocalRunner, Tournament, run_tournament, write_report

    t = Tournament.create("mesopotamia", "heuristic,random", games=100, seed=1)
    result = run_tournament(t, LocalRunner(jobs=2), records_dir=Path("out/records"))
    for st in result.standings:
        print(st.entrant.name, st.win_rate, st.interval, st.average_place, st.mu, st.sigma)
    write_report(result, Path("out"))     # results.json, results.csv, summary.md, PNG plots

``ziggurat tournament`` is the command-line face of this package (docs/arena.md).
"""

from ziggurat.arena.ratings import RatingHistory, rate_games
from ziggurat.arena.ray_runner import RayRunner
from ziggurat.arena.report import results_data, write_report
from ziggurat.arena.runner import ArenaError, GameOutcome, GameTask, LocalRunner, play_task
from ziggurat.arena.stats import places, ranks, wilson, win_shares
from ziggurat.arena.tournament import (
    Entrant,
    Standing,
    Tournament,
    TournamentResult,
    balanced_games,
    parse_entrants,
    run_tournament,
    summarize,
)

__all__ = [
    "ArenaError",
    "Entrant",
    "GameOutcome",
    "GameTask",
    "LocalRunner",
    "RatingHistory",
    "RayRunner",
    "Standing",
    "Tournament",
    "TournamentResult",
    "balanced_games",
    "parse_entrants",
    "places",
    "play_task",
    "ranks",
    "rate_games",
    "results_data",
    "run_tournament",
    "summarize",
    "wilson",
    "win_shares",
    "write_report",
]
