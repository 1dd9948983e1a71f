"""Replays: a table as one viewer saw it after any number of its stored actions.

``GET /api/tables/{id}/replay?ply=N`` answers the position after the first ``N`` stored
actions (chance outcomes included, as the table stores them): the view of the token's seat
(``state.view(seat)``), or the public view for a spectator token or no token, with the
viewer's log entries up to that ply (the entries the live table built for that viewer), how the
game named each seat then, and the result and outcome once the game is over. Without a token
only a finished table can be replayed: a game in progress is seen only by its seats and
spectators. So a replay never shows a viewer more than what the live table sent it at that ply.

The states are rebuilt from the table's start like :meth:`LiveTable.rebuild`, in a worker
thread. :class:`ReplayCache` keeps, for a bounded number of tables, a state every few plies
(stepping through a replay replays a few actions from the nearest one) and, bounded too, the
last frames asked for (one viewer's view at one ply). A cached state or frame belongs to the
stored actions it was built from: undo replaces the last action row by a new object, so an
entry whose last row is no longer the table's row at that ply is rebuilt.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request, status
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ziggurat.engine.contract import State
from ziggurat.engine.records import apply_recorded
from ziggurat.server import gamekit
from ziggurat.server.api import TokenHeader
from ziggurat.server.live import Forbidden, LiveTable
from ziggurat.server.manager import TableManager, TableUnavailable, hash_token
from ziggurat.server.schemas import ErrorOut
from ziggurat.server.store import StoredAction

router = APIRouter(tags=["tables"])

CHECKPOINT_SPACING = 32
"""Plies between two kept states of a table, at first; doubled when a table would keep more
than :data:`MAX_CHECKPOINTS` (a long game keeps fewer, further apart)."""
MAX_CHECKPOINTS = 64
MAX_TABLES = 16
"""Tables whose states are kept (the least recently replayed is dropped first)."""
MAX_FRAMES = 2048
"""Frames (a viewer's view at a ply) kept over all tables."""
MAX_RECENT = 8
"""States last asked for, kept per table besides the regular ones: a viewer stepping one ply
on replays one action."""


@dataclass(frozen=True, slots=True)
class Frame:
    """What one viewer is shown at one ply, JSON-encoded where it is sent as it is."""

    view: str
    seat_labels: list[Any]
    over: bool
    result: list[float] | None
    outcome: dict[str, Any] | None


_Kept = dict[int, tuple[StoredAction | None, State]]
"""Kept states of a table: ply -> (the stored row of that ply, the state after it)."""


@dataclass(slots=True)
class _States:
    """The kept states of one table: every ``spacing`` plies, and the last ones asked for."""

    table: LiveTable
    spacing: int
    states: _Kept
    recent: OrderedDict[int, tuple[StoredAction | None, State]]


class ReplayCache:
    """States every few plies and recent frames, bounded; safe to use from worker threads."""

    def __init__(
        self,
        max_tables: int = MAX_TABLES,
        max_frames: int = MAX_FRAMES,
        spacing: int = CHECKPOINT_SPACING,
        max_checkpoints: int = MAX_CHECKPOINTS,
    ) -> None:
        self.max_tables = max_tables
        self.max_frames = max_frames
        self.spacing = spacing
        self.max_checkpoints = max_checkpoints
        self._lock = threading.Lock()
        self._tables: OrderedDict[str, _States] = OrderedDict()
        self._frames: OrderedDict[
            tuple[str, int | None, int], tuple[LiveTable, StoredAction | None, Frame]
        ] = OrderedDict()

    def held(self) -> dict[str, int]:
        """How much is kept: tables, their states (regular and recent), frames."""
        with self._lock:
            states = sum(len(k.states) + len(k.recent) for k in self._tables.values())
            return {"tables": len(self._tables), "states": states, "frames": len(self._frames)}

    def frame(
        self, table: LiveTable, rows: list[StoredAction], viewer: int | None, current: State | None = None
    ) -> Frame:
        """What ``viewer`` is shown after ``rows`` (the table's first stored actions).

        ``current`` is the table's state after all of ``rows`` if the caller has it (the live
        table's current state: never changed once current, so it is only read here).
        """
        last = rows[-1] if rows else None
        key = (table.id, viewer, len(rows))
        with self._lock:
            hit = self._frames.get(key)
            if hit is not None and hit[0] is table and hit[1] is last:
                self._frames.move_to_end(key)
                return hit[2]
        state = current if current is not None else self.state_at(table, rows)
        terminal = state.is_terminal()
        frame = Frame(
            view=json.dumps(state.view(viewer), separators=(",", ":")),
            seat_labels=gamekit.seat_labels(state),
            over=terminal,
            result=state.returns() if terminal else None,
            outcome=gamekit.outcome(state) if terminal else None,
        )
        with self._lock:
            self._frames[key] = (table, last, frame)
            self._frames.move_to_end(key)
            while len(self._frames) > self.max_frames:
                self._frames.popitem(last=False)
        return frame

    def state_at(self, table: LiveTable, rows: list[StoredAction]) -> State:
        """A new state after ``rows``, replayed from the nearest kept state before them.

        :raises ValueError: if the engine refuses a stored action (naming the ply).
        """
        with self._lock:
            kept = self._tables.get(table.id)
            if kept is None or kept.table is not table:
                kept = _States(table, self.spacing, {0: (None, table.initial_state())}, OrderedDict())
                self._tables[table.id] = kept
            self._tables.move_to_end(table.id)
            while len(self._tables) > self.max_tables:
                self._tables.popitem(last=False)
            start, base = 0, kept.states[0][1]
            for ply, (row, state) in (*kept.states.items(), *kept.recent.items()):
                # a kept state still stands if the table's row of its ply is the one it followed
                if start < ply <= len(rows) and rows[ply - 1] is row:
                    start, base = ply, state
            spacing = kept.spacing
        state = base.clone()
        made: dict[int, tuple[StoredAction | None, State]] = {}
        for row in rows[start:]:
            try:
                apply_recorded(state, row.text)
            except ValueError as exc:
                raise ValueError(
                    f"table {table.id}: stored action {row.ply} ({row.text!r}) refused: {exc}"
                ) from exc
            if row.ply % spacing == 0:
                made[row.ply] = (row, state.clone())
        with self._lock:
            kept.states.update(made)
            while len(kept.states) > self.max_checkpoints:
                kept.spacing *= 2
                kept.states = {p: v for p, v in kept.states.items() if p % kept.spacing == 0}
            if rows and start < len(rows):
                kept.recent[len(rows)] = (rows[-1], state.clone())
                kept.recent.move_to_end(len(rows))
                while len(kept.recent) > MAX_RECENT:
                    kept.recent.popitem(last=False)
        return state


class ReplayOut(BaseModel):
    """A table as one viewer saw it after ``ply`` stored actions."""

    table: str
    game: str
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]] = Field(
        description='[{"seat", "colour", "kind", "bot", "name"}]: "name" the account or guest sitting there'
    )
    colours: list[str] = Field(description="how the game calls each seat (Game.seat_names)")
    seat: int | None = Field(description="the token's seat; null: the public view (spectator, or no token)")
    colour: str | None
    status: str = Field(description='the table now: "playing" or "over"')
    ply: int = Field(description="stored actions replayed (0: the set-up)")
    last: int = Field(description="stored actions so far: the last ply")
    over: bool = Field(description="the game is over at this ply")
    view: dict[str, Any] = Field(description="state.view(seat) after ply actions")
    seat_labels: list[Any] = Field(description="how the game named each seat at this ply (messages)")
    result: list[float] | None = Field(description="the returns, at the end")
    outcome: dict[str, Any] | None = Field(description="how the game was won, at the end")
    log: list[dict[str, Any]] = Field(description="the viewer's log entries up to this ply")


def _cache(request: Request) -> ReplayCache:
    cache: ReplayCache | None = getattr(request.app.state, "replay_cache", None)
    if cache is None:
        cache = request.app.state.replay_cache = ReplayCache()
    return cache


@router.get(
    "/api/tables/{table_id}/replay",
    response_model=ReplayOut,
    responses={
        400: {"model": ErrorOut, "description": "ply outside 0 to the last ply"},
        403: {"model": ErrorOut, "description": "a wrong token, or no token for a game in progress"},
        404: {"model": ErrorOut, "description": "no such table"},
        503: {"model": ErrorOut, "description": "the stored table cannot be resumed"},
    },
)
async def replay(
    table_id: str,
    request: Request,
    ply: int | None = Query(default=None, description="stored actions to replay (default: all)"),
    x_ziggurat_token: TokenHeader = None,
) -> Response:
    """The table after ``ply`` stored actions as the token's seat saw it (a spectator token or
    no token: the public view). Without a token only a finished table can be replayed."""
    try:
        manager: TableManager = request.app.state.manager
        table = await manager.get(table_id)
    except TableUnavailable as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    viewer: int | None = None
    if x_ziggurat_token:
        try:
            viewer = table.viewer_of(hash_token(x_ziggurat_token))
        except Forbidden as exc:
            raise HTTPException(status.HTTP_403_FORBIDDEN, str(exc)) from exc
    elif table.status != "over":
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "a game in progress is replayed only by its seats and spectators: send a table token",
        )
    await table.watch(viewer)  # its log, built first if nobody watched from that seat yet
    # Everything the answer reads of the live table is taken here, at one moment: changes
    # replace the table's rows and logs only between awaits.
    last = table.version
    if ply is None:
        ply = last
    if not 0 <= ply <= last:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, f"ply must be between 0 and {last}")
    rows = table.rows[:ply]
    current = table.state if ply == last else None  # the last ply needs no replaying
    cut = bisect.bisect_right(table.log_plies[viewer], ply)
    log = table.logs[viewer][:cut]
    head = {
        "table": table.id,
        "game": table.game.game_id,
        "players": table.game.num_players,
        "options": dict(table.game.options),
        "seats": [
            {"seat": s.seat, "colour": table.colours[s.seat], "kind": s.kind, "bot": s.bot, "name": s.name}
            for s in table.seats
        ],
        "colours": table.colours,
        "seat": viewer,
        "colour": table.colour(viewer),
        "status": table.status,
        "ply": ply,
        "last": last,
    }
    body = await asyncio.to_thread(_answer, _cache(request), table, rows, current, viewer, head, log)
    return Response(body, media_type="application/json")


def _answer(
    cache: ReplayCache,
    table: LiveTable,
    rows: list[StoredAction],
    current: State | None,
    viewer: int | None,
    head: dict[str, Any],
    log: list[str],
) -> str:
    """The answer's JSON text (in a worker thread: replaying is CPU work)."""
    frame = cache.frame(table, rows, viewer, current)
    head = {
        **head,
        "over": frame.over,
        "seat_labels": frame.seat_labels,
        "result": frame.result,
        "outcome": frame.outcome,
    }
    text = json.dumps(head, separators=(",", ":"))
    # the view and the log entries are JSON text already: joined, not re-encoded
    return text[:-1] + ',"view":' + frame.view + ',"log":[' + ",".join(log) + "]}"
