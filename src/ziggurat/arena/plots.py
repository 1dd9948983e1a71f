"""The tournament's plots, as PNG files drawn with matplotlib's Agg renderer.

Figures are built with :class:`matplotlib.figure.Figure` directly, not ``pyplot``: no global
figure state and no GUI backend, so plotting works in a headless process or a server thread
and never changes the backend a caller's own code chose. matplotlib is imported when a plot is
drawn, not with the module: it would add most of a second to every ``ziggurat`` command.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ziggurat.arena.tournament import TournamentResult

WIN_RATE_PNG = "winrate.png"
RATINGS_PNG = "ratings.png"


def _colours(count: int) -> list[str]:
    """One colour per entrant, the same in every plot."""
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    return [palette[i % len(palette)] for i in range(count)]


def _heading(result: TournamentResult) -> str:
    t = result.tournament
    return (
        f"{t.game_id}, {t.num_players} players, {len(result.finished)} finished games (seeds from {t.seed})"
    )


def _figure(width: float, height: float) -> Figure:
    """A figure drawn by the Agg renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _legend_below(fig: Figure, ax: Axes, columns: int) -> None:
    """The legend under the plot, read row by row (matplotlib fills columns first)."""
    handles, labels = ax.get_legend_handles_labels()
    order = [i for col in range(columns) for i in range(col, len(handles), columns)]
    fig.legend([handles[i] for i in order], [labels[i] for i in order], loc="outside lower center",
               ncols=columns, fontsize=8, frameon=False)  # fmt: skip


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, format="png", dpi=110)
    return path


def plot_win_rates(result: TournamentResult, path: Path) -> Path:
    """Bars of each entrant's win rate with its 95% Wilson interval and the fair-share line."""
    standings = result.standings
    names = [st.entrant.name for st in standings]
    rates = [100 * st.win_rate for st in standings]
    lows = [max(0.0, 100 * (st.win_rate - st.interval[0])) for st in standings]
    highs = [max(0.0, 100 * (st.interval[1] - st.win_rate)) for st in standings]
    fig = _figure(max(6.0, 1.4 * len(names) + 2.5), 4.8)
    ax = fig.add_subplot()
    xs = list(range(len(names)))
    ax.bar(xs, rates, color=_colours(len(names)), alpha=0.85, label="win rate")
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=6, lw=1.4,
                label="95% Wilson interval")  # fmt: skip
    fair = 100 * result.fair_share
    ax.axhline(
        fair,
        color="grey",
        ls="--",
        lw=1.2,
        label=f"fair share (1/{result.tournament.num_players} = {fair:.0f}%)",
    )
    for x, st in zip(xs, standings, strict=True):
        top = 100 * st.interval[1]
        ax.annotate(f"{100 * st.win_rate:.1f}%\n{st.wins:g}/{st.games}", (x, top), xytext=(0, 4),
                    textcoords="offset points", ha="center", va="bottom", fontsize=9)  # fmt: skip
    long_names = max(len(n) for n in names) > 14
    ax.set_xticks(xs, names, rotation=20 if long_names else 0, ha="right" if long_names else "center")
    ax.set_ylim(0, 118)
    ax.set_yticks(range(0, 101, 20))
    ax.set_xlabel("entrant (bot spec)")
    ax.set_ylabel("games won (%)")
    ax.set_title(f"Win rate: {_heading(result)}", fontsize=11)
    # Below the axes: inside, it would cover the label of a tall bar on the right.
    _legend_below(fig, ax, 3)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, path)


def plot_ratings(result: TournamentResult, path: Path) -> Path:
    """Each entrant's rating mu after each rated game, with a ±sigma band."""
    history = result.ratings
    fig = _figure(8.0, 5.0)
    ax = fig.add_subplot()
    xs = list(range(len(history.games) + 1))
    colours = _colours(len(result.standings))
    for st, mus, sigmas, colour in zip(result.standings, history.mu, history.sigma, colours, strict=True):
        lower = [m - s for m, s in zip(mus, sigmas, strict=True)]
        upper = [m + s for m, s in zip(mus, sigmas, strict=True)]
        ax.fill_between(xs, lower, upper, color=colour, alpha=0.12, lw=0)
        ax.plot(xs, mus, color=colour, lw=1.8, label=f"{st.entrant.name}: μ {st.mu:.1f} ± {st.sigma:.1f}")
    ax.set_xlim(0, max(1, len(xs) - 1))
    ax.set_xlabel("games rated (in seed order)")
    ax.set_ylabel("rating μ (band: μ ± σ)")
    ax.set_title(f"Plackett-Luce rating (openskill): {_heading(result)}", fontsize=11)
    count = len(result.standings)
    _legend_below(fig, ax, count if count <= 3 else 2 if count == 4 else 3)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def save_plots(result: TournamentResult, out_dir: Path) -> list[Path]:
    """Both plots in ``out_dir``: ``winrate.png`` and ``ratings.png``."""
    return [plot_win_rates(result, out_dir / WIN_RATE_PNG), plot_ratings(result, out_dir / RATINGS_PNG)]
