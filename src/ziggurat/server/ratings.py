"""Ratings of accounts per game, the bot levels' fixed ratings, and the leaderboards.

A finished table is **rated** when every seat is an account's or a bot's: each human seat has
its ``seats.user_id`` (a guest, or a seat played by its secret link alone, makes the table
unrated), at least one account plays, no account holds two seats (it would play against
itself), and every bot's kind has a measured rating in :data:`BOT_RATINGS_FILE`. A rated
table is one openskill Plackett-Luce match of one-player teams ranked by the final returns
(seats with equal returns share a rank: ``ziggurat.arena.ratings.rate_match``, as in the
arena). Accounts enter with their rating in that game (openskill's defaults, mu 25 and sigma
25/3, for their first), bots at their level's fixed rating, which play never changes.

Each rated table writes one ``rating_changes`` row per seat and updates the accounts'
``ratings`` rows in one transaction, exactly once: the rows of a table are its mark, so seeing
the end again (a resumed table, a restart) changes nothing. The shown rating is openskill's
ordinal ``mu - 3 sigma``, with one decimal.

The bot levels' ratings are measured by ``benchmarks/bot_ratings.py`` from arena tournaments
on the same scale (the arena starts every entrant at openskill's defaults too).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, status
from openskill.models import PlackettLuce
from pydantic import BaseModel, Field
from sqlalchemy import exists, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ziggurat.arena.ratings import rate_match
from ziggurat.server import gamekit
from ziggurat.server.db import RatingChangeRow, RatingRow, SeatRow, TableRow, UserRow
from ziggurat.server.ids import is_table_id
from ziggurat.server.schemas import ErrorOut
from ziggurat.server.store import Store, now

log = logging.getLogger(__name__)

BOT_RATINGS_FILE = Path(__file__).with_name("bot_ratings.json")
LEADERBOARD_SIZE = 100
"""Accounts listed by ``GET /api/leaderboard/{game}`` (the best ones)."""

_PRIOR = PlackettLuce().rating()
DEFAULT_MU: float = _PRIOR.mu
DEFAULT_SIGMA: float = _PRIOR.sigma


def shown(mu: float, sigma: float) -> float:
    """The rating players see: openskill's ordinal ``mu - 3 sigma``, one decimal."""
    return round(mu - 3 * sigma, 1)


@cache
def bot_ratings() -> dict[str, Any]:
    """The measured bot ratings (``benchmarks/bot_ratings.py`` writes the file)."""
    data: dict[str, Any] = json.loads(BOT_RATINGS_FILE.read_text("utf-8"))
    return data


def bot_levels(game_id: str) -> dict[str, dict[str, Any]]:
    """The bot kinds of ``game_id`` with a measured rating: level -> ``{spec, mu, sigma, games}``."""
    levels: dict[str, dict[str, Any]] = bot_ratings()["games"].get(game_id, {}).get("levels", {})
    return levels


def bot_rating(game_id: str, kind: str | None) -> tuple[float, float] | None:
    """The fixed ``(mu, sigma)`` of a bot seat of kind ``kind`` (a level, or ``heuristic`` /
    ``random``: the level playing the same bot spec), ``None`` if it was never measured."""
    levels = bot_levels(game_id)
    level = levels.get(kind or "")
    if level is None:
        spec = gamekit.bot_spec(kind)
        level = next((lv for lv in levels.values() if lv["spec"] == spec), None)
    return None if level is None else (float(level["mu"]), float(level["sigma"]))


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a rated table: an account (``user_id``) or a bot (``bot``, at ``fixed``)."""

    seat: int
    user_id: int | None
    bot: str | None
    fixed: tuple[float, float] | None


def rated_seats(game_id: str, seats: list[SeatRow]) -> list[RatedSeat] | None:
    """The seats of a rated table, or ``None`` if the table is not rated (module docstring)."""
    out: list[RatedSeat] = []
    accounts: set[int] = set()
    for row in sorted(seats, key=lambda r: r.seat):
        if row.kind == "bot":
            fixed = bot_rating(game_id, row.bot)
            if fixed is None:
                return None
            out.append(RatedSeat(row.seat, None, row.bot or "random", fixed))
        elif row.kind == "human" and row.user_id is not None and row.user_id not in accounts:
            accounts.add(row.user_id)
            out.append(RatedSeat(row.seat, row.user_id, None, None))
        else:
            return None  # a guest, a seat played by its link alone, an account's second seat, a free seat
    return out if accounts else None


# --- database functions (run in the database thread) ---------------------------------------
def rate_table(store: Store, table_id: str, ended: bool = False) -> bool:
    """Rate the finished table ``table_id`` if it is rated and not rated yet; ``True`` if this
    call rated it. ``ended``: its game has just ended, so its ``finished`` time is now if
    nothing set it."""
    try:
        with store.sessions.begin() as s:
            return _rate(s, table_id, ended)
    except IntegrityError:
        return False  # another server process rated it first: its rows stand


def _rate(s: Session, table_id: str, ended: bool) -> bool:
    table = s.get(TableRow, table_id)
    if table is None or table.status != "over" or table.result is None:
        return False
    when = now()
    if ended:
        s.execute(
            update(TableRow).where(TableRow.id == table_id, TableRow.finished.is_(None)).values(finished=when)
        )
    if s.scalar(select(exists().where(RatingChangeRow.table_id == table_id))):
        return False
    seats = list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)))
    plan = rated_seats(table.game, seats)
    if plan is None or len(plan) != len(table.result):
        return False
    rows: dict[int, RatingRow] = {}
    before: list[tuple[float, float]] = []
    for seat in plan:
        if seat.fixed is not None:
            before.append(seat.fixed)
            continue
        assert seat.user_id is not None
        row = s.get(RatingRow, (seat.user_id, table.game))
        if row is None:
            row = RatingRow(
                user_id=seat.user_id,
                game=table.game,
                mu=DEFAULT_MU,
                sigma=DEFAULT_SIGMA,
                games=0,
                updated=when,
            )
            s.add(row)
        rows[seat.seat] = row
        before.append((row.mu, row.sigma))
    after = rate_match(before, [float(r) for r in table.result])
    for seat, (mu0, sigma0), (mu1, sigma1) in zip(plan, before, after, strict=True):
        if seat.fixed is not None:
            mu1, sigma1 = mu0, sigma0  # a bot level's rating is fixed
        else:
            row = rows[seat.seat]
            row.mu, row.sigma, row.games, row.updated = mu1, sigma1, row.games + 1, when
        s.add(
            RatingChangeRow(
                table_id=table_id,
                seat=seat.seat,
                user_id=seat.user_id,
                bot=seat.bot,
                game=table.game,
                mu_before=mu0,
                sigma_before=sigma0,
                mu_after=mu1,
                sigma_after=sigma1,
                created=when,
            )
        )
    s.flush()
    return True


def table_changes(store: Store, table_id: str) -> dict[str, Any] | None:
    """What the table did to each seat's rating (``GET /api/tables/{id}/ratings``); ``None``
    for an unknown table."""
    if not is_table_id(table_id):
        return None
    with store.sessions() as s:
        table = s.get(TableRow, table_id)
        if table is None:
            return None
        query = (
            select(RatingChangeRow, UserRow.name)
            .outerjoin(UserRow, RatingChangeRow.user_id == UserRow.id)
            .where(RatingChangeRow.table_id == table_id)
            .order_by(RatingChangeRow.seat)
        )
        changes = [
            {
                "seat": row.seat,
                "name": name,
                "bot": row.bot,
                "mu_before": row.mu_before,
                "sigma_before": row.sigma_before,
                "mu_after": row.mu_after,
                "sigma_after": row.sigma_after,
                "before": shown(row.mu_before, row.sigma_before),
                "after": shown(row.mu_after, row.sigma_after),
                "change": round(
                    shown(row.mu_after, row.sigma_after) - shown(row.mu_before, row.sigma_before), 1
                ),
            }
            for row, name in s.execute(query)
        ]
        return {"table": table_id, "game": table.game, "rated": bool(changes), "changes": changes}


def leaderboard(store: Store, game_id: str, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The accounts with a rated game of ``game_id`` (the best ``limit``) and the bot levels,
    by shown rating (best first); accounts are ranked 1, 2, ... (bots have no rank)."""
    with store.sessions() as s:
        query = (
            select(RatingRow, UserRow.name)
            .join(UserRow, RatingRow.user_id == UserRow.id)
            .where(RatingRow.game == game_id, RatingRow.games > 0)
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.games.desc(), UserRow.name_key)
            .limit(limit)
        )
        accounts = [
            {
                "kind": "account",
                "name": name,
                "rating": shown(row.mu, row.sigma),
                "mu": round(row.mu, 3),
                "sigma": round(row.sigma, 3),
                "games": row.games,
            }
            for row, name in s.execute(query)
        ]
    for rank, entry in enumerate(accounts, 1):
        entry["rank"] = rank
    bots = [
        {
            "kind": "bot",
            "name": level,
            "rating": shown(lv["mu"], lv["sigma"]),
            "mu": round(lv["mu"], 3),
            "sigma": round(lv["sigma"], 3),
            "games": lv["games"],
            "rank": None,
        }
        for level, lv in bot_levels(game_id).items()
    ]
    # accounts keep their order; a bot goes before the first account it outrates
    out: list[dict[str, Any]] = []
    pending = sorted(bots, key=lambda b: -b["rating"])
    for entry in accounts:
        while pending and pending[0]["rating"] > entry["rating"]:
            out.append(pending.pop(0))
        out.append(entry)
    return out + pending


# --- HTTP ---------------------------------------------------------------------------------
router = APIRouter(tags=["ratings"])


class LeaderboardEntry(BaseModel):
    kind: Literal["account", "bot"]
    name: str = Field(description="the account's name, or the bot level (easy, medium, hard, random)")
    rank: int | None = Field(description="the account's place among accounts; null for a bot level")
    rating: float = Field(description="the shown rating, mu - 3 sigma, one decimal")
    mu: float
    sigma: float
    games: int = Field(description="rated games (a bot level: the arena games it was measured in)")


class BotsMeasured(BaseModel):
    games: int = Field(description="the arena games the bot levels' ratings come from")
    players: int = Field(description="players in each of those games")
    date: str = Field(description="when they were played (UTC)")


class LeaderboardOut(BaseModel):
    game: str
    scale: str
    bots: BotsMeasured | None = Field(description="how the bot levels were measured (null: never)")
    entries: list[LeaderboardEntry]


class RatingChangeOut(BaseModel):
    seat: int
    name: str | None = Field(description="the account; null for a bot seat")
    bot: str | None = Field(description="the bot's kind; null for an account")
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    before: float = Field(description="the shown rating before the game")
    after: float
    change: float


class TableRatingsOut(BaseModel):
    table: str
    game: str
    rated: bool = Field(description="false while the game goes on, and for an unrated table")
    changes: list[RatingChangeOut]


def _store(request: Request) -> Store:
    store: Store = request.app.state.manager.store
    return store


@router.get(
    "/api/leaderboard/{game_id}",
    response_model=LeaderboardOut,
    responses={404: {"model": ErrorOut, "description": "no such game"}},
)
async def get_leaderboard(game_id: str, request: Request) -> LeaderboardOut:
    """The accounts with a rated game of this game, best first, with the bot levels at their
    place on the same scale."""
    if game_id not in {g.id for g in gamekit.game_infos()}:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no game {game_id!r}")
    store = _store(request)
    entries = await store.run(leaderboard, store, game_id)
    measured = bot_ratings()["games"].get(game_id)
    return LeaderboardOut(
        game=game_id,
        scale=bot_ratings()["scale"],
        bots=None
        if measured is None
        else BotsMeasured(games=measured["finished"], players=measured["players"], date=measured["date"]),
        entries=[LeaderboardEntry(**e) for e in entries],
    )


@router.get(
    "/api/tables/{table_id}/ratings",
    response_model=TableRatingsOut,
    responses={404: {"model": ErrorOut, "description": "no such table"}},
)
async def get_table_ratings(table_id: str, request: Request) -> TableRatingsOut:
    """What a finished table did to each seat's rating (public, like the leaderboard)."""
    store = _store(request)
    found = await store.run(table_changes, store, table_id)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return TableRatingsOut(**found)
