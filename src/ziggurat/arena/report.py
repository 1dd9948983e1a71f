"""What a tournament leaves on disk: results.json, results.csv, summary.md and the plots.

- ``results.json`` (format ``ziggurat-tournament/1``): the tournament, the standings, every
  game's outcome and the rating history. Only its ``run`` section (which runner, how long)
  and the per-game ``seconds`` depend on the machine; the rest depends only on the tournament.
- ``results.csv``: one row per game and seat (game, seed, seat, entrant, bot, return, place,
  win share, finished, plies, error), ready for a spreadsheet or pandas.
- ``summary.md``: the standings table and the plots, for a pull request or a wiki.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from ziggurat.arena.plots import RATINGS_PNG, WIN_RATE_PNG, save_plots
from ziggurat.arena.stats import places, win_shares
from ziggurat.arena.tournament import Standing, TournamentResult, counted

RESULTS_FORMAT = "ziggurat-tournament/1"
COLUMNS = ("entrant", "bot", "games", "wins", "win %", "95% CI", "avg place", "μ", "σ")


def standing_cells(st: Standing) -> list[str]:
    """One standings row as text, in :data:`COLUMNS` order (terminal and markdown tables)."""
    lo, hi = st.interval
    place = st.average_place
    return [
        st.entrant.name,
        st.entrant.spec,
        str(st.games),
        f"{st.wins:g}",
        f"{100 * st.win_rate:.1f}" if st.games else "-",
        f"{100 * lo:.1f} – {100 * hi:.1f}" if st.games else "-",
        f"{place:.2f}" if place is not None else "-",
        f"{st.mu:.2f}",
        f"{st.sigma:.2f}",
    ]


def _relative(path: str | None, base: Path | None) -> str | None:
    if path is None or base is None:
        return path
    try:
        return Path(path).relative_to(base).as_posix()
    except ValueError:
        return path


def results_data(result: TournamentResult, base: Path | None = None) -> dict[str, Any]:
    """``results.json`` as a dict; record paths are relative to ``base`` when under it."""
    t = result.tournament
    names = [e.name for e in t.entrants]
    games = []
    for o in result.outcomes:
        shares = win_shares(o.returns) if counted(o) and o.returns else None
        games.append({
            "game": o.index + 1,
            "seed": o.seed,
            "seats": list(o.names),
            "returns": o.returns,
            "places": places(o.returns) if counted(o) and o.returns else None,
            "winners": [o.names[s] for s, w in enumerate(shares) if w > 0] if shares else [],
            "plies": o.plies,
            "finished": o.finished,
            "error": o.error,
            "record": _relative(o.record_file, base),
            "seconds": round(o.seconds, 4),
        })  # fmt: skip
    standings = []
    for st in result.standings:
        lo, hi = st.interval
        standings.append({
            "name": st.entrant.name,
            "spec": st.entrant.spec,
            "games": st.games,
            "wins": st.wins,
            "win_rate": st.win_rate,
            "ci95": [lo, hi],
            "average_place": st.average_place,
            "mu": st.mu,
            "sigma": st.sigma,
            "ordinal": st.ordinal,
            "seat_games": st.seat_games,
            "seat_wins": st.seat_wins,
            "bot_stats": st.bot_stats,
        })  # fmt: skip
    history = result.ratings
    return {
        "format": RESULTS_FORMAT,
        "tournament": t.describe(),
        "run": {"runner": result.runner, "seconds": round(result.seconds, 3)},
        "counts": {
            "games": len(result.outcomes),
            "finished": len(result.finished),
            "truncated": len(result.truncated),
            "errors": len(result.errors),
        },
        "fair_share": result.fair_share,
        "standings": standings,
        "games": games,
        "ratings": {
            "model": "openskill PlackettLuce (defaults), one-player teams ranked by returns",
            "games": [i + 1 for i in history.games],
            "mu": dict(zip(names, history.mu, strict=True)),
            "sigma": dict(zip(names, history.sigma, strict=True)),
        },
    }


def write_csv(result: TournamentResult, path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["game", "seed", "seat", "entrant", "bot", "return", "place", "win_share",
                      "finished", "plies", "error"])  # fmt: skip
        specs = {e.name: e.spec for e in result.tournament.entrants}
        for o in result.outcomes:
            shares = win_shares(o.returns) if counted(o) and o.returns else None
            seat_places = places(o.returns) if counted(o) and o.returns else None
            for seat, name in enumerate(o.names):
                out.writerow([
                    o.index + 1, o.seed, seat, name, specs[name],
                    o.returns[seat] if o.returns else "",
                    seat_places[seat] if seat_places else "",
                    shares[seat] if shares else "",
                    int(o.finished), o.plies, int(o.error is not None),
                ])  # fmt: skip


def markdown_table(result: TournamentResult) -> str:
    """The standings as a markdown table."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for st in result.standings:
        cells = standing_cells(st)
        cells[0] = f"`{cells[0]}`"
        cells[1] = f"`{cells[1]}`"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary_markdown(result: TournamentResult) -> str:
    t = result.tournament
    fair = 100 * result.fair_share
    lines = [
        f"# Tournament: {t.game_id}, {t.num_players} players",
        "",
        f"- entrants: {', '.join(f'`{e.name}`' for e in t.entrants)}",
        f"- games: {len(result.outcomes)} (seeds {t.seed} to {t.seed + t.games - 1}), "
        f"{len(result.finished)} finished, {len(result.truncated)} hit the ply limit ({t.max_plies}), "
        f"{len(result.errors)} raised an error",
        "- seats rotate: in game k (from 0) seat s is played by entrant (s + k) mod players",
        f"- options: `{json.dumps(t.options)}`" if t.options else "- options: none (the game's defaults)",
        f"- run: {result.runner}, {result.seconds:.1f} s",
        "",
        markdown_table(result),
        "",
        f"Win rates and places are over finished games; fair share {fair:.1f}%. 95% CI: Wilson score "
        "interval. Average place: ties share the mean of their places. μ, σ: openskill "
        "Plackett-Luce rating, updated game by game in seed order.",
        "",
        f"![win rates]({WIN_RATE_PNG})",
        "",
        f"![ratings]({RATINGS_PNG})",
        "",
    ]
    return "\n".join(lines)


def write_report(result: TournamentResult, out_dir: Path) -> list[Path]:
    """Write results.json, results.csv, summary.md and the plots to ``out_dir``; their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / "results.json"
    json_path.write_text(json.dumps(results_data(result, out_dir), indent=1) + "\n", encoding="utf-8")
    csv_path = out_dir / "results.csv"
    write_csv(result, csv_path)
    md_path = out_dir / "summary.md"
    md_path.write_text(summary_markdown(result), encoding="utf-8")
    return [json_path, csv_path, md_path, *save_plots(result, out_dir)]
