"""A live table: the game state in memory, its sockets, its log, and its driver.

Every change happens under the table's asyncio lock in the same order: the engine validates
the action on a clone, the action row is committed to the database, and only then is the
clone made current, the log extended and every connected seat sent its own ``state``
message. Bot seats and chance nodes are played by one driver task per table
(``server/driver.py``, the table's own code in a module of its own). A seat's bot kind is a
difficulty level or a bot kind (``gamekit.bot_spec``). The refusals, a socket's queue and what
a step shows are in ``server/tabletypes.py``; the names routes use are re-exported here.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, Literal

from ziggurat.bots.base import Bot, close_bot, make_bot
from ziggurat.engine.contract import CHANCE, State
from ziggurat.engine.errors import ZigguratError
from ziggurat.engine.records import apply_recorded, record
from ziggurat.engine.registry import game_class, load
from ziggurat.server import driver, gamekit, jsontext, metrics, presence
from ziggurat.server.botpool import BotPool
from ziggurat.server.bus import Note
from ziggurat.server.clocks import TableClocks
from ziggurat.server.presence import Elsewhere
from ziggurat.server.store import SNAPSHOT_EVERY, Commit, Conflict, SeatSpec, Store, StoredAction, StoredTable
from ziggurat.server.tabletypes import BOT_PLAYS as BOT_PLAYS
from ziggurat.server.tabletypes import MAX_PENDING_MESSAGES as MAX_PENDING_MESSAGES
from ziggurat.server.tabletypes import NOT_STARTED as NOT_STARTED
from ziggurat.server.tabletypes import UNDO_BLOCKS as UNDO_BLOCKS
from ziggurat.server.tabletypes import Connection as Connection
from ziggurat.server.tabletypes import Forbidden as Forbidden
from ziggurat.server.tabletypes import NoRecord as NoRecord
from ziggurat.server.tabletypes import Refused as Refused
from ziggurat.server.tabletypes import Shown, Views, refused
from ziggurat.server.timecontrol import TimeControl

log = logging.getLogger(__name__)

FLAGS_SLICE = 0.005
"""Seconds of final-flag work (``LiveTable._step_flags``) between two turns of the event loop
to other work."""


class LiveTable:
    """One table being played (or finished) and held in memory."""

    def __init__(
        self, stored: StoredTable, store: Store, bot_delay: float, bot_pool: BotPool | None = None
    ) -> None:
        self.id = stored.id
        options = game_class(stored.game).recorded_options(stored.options)
        self.game = load(stored.game, players=stored.players, **options)
        self.seed = stored.seed
        self.created: datetime = stored.created
        self.seats: list[SeatSpec] = stored.seats
        self.tokens: dict[str, int | None] = dict(stored.tokens)
        self.rematch_id = stored.rematch_id
        self.start_position = stored.start
        self.public = stored.public
        self.host_seat = stored.host_seat
        self.time_control = TimeControl.from_json(stored.time_control)
        self.open = stored.status == "open"  # a lobby table waiting for players: nothing is played
        self.store = store
        self.bot_delay = bot_delay
        self.bot_pool = bot_pool
        """Where thinking bots decide (``None``: in worker threads)."""
        self._bot_keys: dict[int, tuple[Bot, str]] = {}  # seat -> its bot and the pool's key for it
        self.colours = gamekit.colours(self.game)
        self.viewers: list[int | None] = [*range(self.game.num_players), None]
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(gamekit.bot_spec(s.bot), self.game, s.seat)
            for s in self.seats
            if s.kind == "bot"
        }
        self.watched: set[int | None] = set()
        """The viewers whose view and log this process keeps current at every step: those a
        socket or a replay asked for here (:meth:`watch`: built then by replaying the game for
        the viewer), kept from then on. A viewer nobody looks from in this process (a bot's
        seat, or a seat or the spectators served by another process) costs nothing per step."""
        self.writer = gamekit.LogWriter(self.game)
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.elsewhere = Elsewhere()  # the seats with a socket in other processes (presence.py)
        self.state: State = self.initial_state()
        self.rows: list[StoredAction] = []
        self.views = Views()  # the current view of each watched viewer, as JSON text
        self.logs: dict[int | None, list[str]] = {}  # JSON text of each log entry, per viewer
        self.log_plies: dict[int | None, list[int]] = {}
        self.synced: dict[int | None, int] = {}  # log entries every socket of the viewer holds
        self.changes = 0
        self.thinking: tuple[int, float] | None = None  # the bot deciding now, since (monotonic)
        self._thinking_timer: asyncio.TimerHandle | None = None  # the notice not yet sent
        self._thinking_told = False  # the sockets were told a bot is thinking
        self._final: tuple[State, dict[str, str]] | None = None  # the state they are of
        self._outcome: tuple[int, dict[str, Any] | None] | None = None
        self._labels: tuple[int, list[Any]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.clocks = TableClocks(self) if self.time_control is not None else None
        self.mover_listeners: list[Callable[[LiveTable, int | None], None]] = []
        """Called ``(table, seat or None)`` when the seat with a decision changes, once the change
        is stored, with the table's lock held: a listener must not block (it may start a task)."""
        self._mover: int | None = None
        self.on_end: Callable[[str], Awaitable[None]] | None = None
        """Awaited with the table's id once the game's last action is committed (ratings)."""
        # several processes (docs/server.md, "Several processes")
        self.revision = stored.revision  # changes of the game line stored, as this copy knows
        self.snapshot = stored.snapshot  # where rebuild starts (None: the set-up)
        self.origin = ""  # this process (its notes name it); set by the manager
        self.keeper = True  # this process runs the table's bots and clocks
        self.keeper_until: Callable[[], datetime] | None = None  # the claim a commit asks for
        self.history_ready = True  # rows, logs and the state's history go back to the set-up
        self.last_used = time.monotonic()  # for leaving memory when idle (manager.evict)

    # --- building ---------------------------------------------------------------------------
    def rebuild(
        self,
        actions: list[StoredAction],
        snapshot: tuple[int, dict[str, Any]] | None = None,
        viewers: Iterable[int | None] | None = None,
    ) -> None:
        """Replay stored actions from the start, building the logs of ``viewers`` (default:
        every viewer), which are watched from then on (CPU only).

        With ``snapshot`` (``(ply, position)``), start from that position instead and replay
        only the actions after it: the logs are left to :meth:`ensure_history`, which the
        first socket, replay or record of the table awaits.

        :raises ValueError: if the engine refuses a stored action (naming the ply).
        """
        self.watched = set(self.viewers if viewers is None else viewers)
        if snapshot is not None and 0 < snapshot[0] <= len(actions):
            self._resume_from(actions, snapshot)
            return
        state = self.initial_state()
        self.logs = {v: [] for v in self.viewers}
        self.log_plies = {v: [] for v in self.viewers}
        views = self._views_of(state)
        self._extend_logs(0, gamekit.initial_events(state), views, views)
        for row in actions:
            mark = gamekit.log_mark(state)
            try:
                apply_recorded(state, row.text)
            except ZigguratError as exc:
                raise ValueError(
                    f"table {self.id}: stored action {row.ply} ({row.text!r}) refused: {exc}"
                ) from exc
            after = self._views_of(state)
            self._extend_logs(row.ply, gamekit.events_after(state, mark), views, after)
            views = after
        self.state = state
        self.rows = list(actions)
        self._mover = self._seat_to_move()
        self.views = Views(views)
        self.synced = {v: len(self.logs[v]) for v in self.viewers}
        self.history_ready = True

    def _resume_from(self, actions: list[StoredAction], snapshot: tuple[int, dict[str, Any]]) -> None:
        ply, position = snapshot
        try:
            state = self.game.state_from_position(position)
        except ZigguratError as exc:
            raise ValueError(f"table {self.id}: the snapshot of ply {ply} does not load: {exc}") from exc
        for row in actions[ply:]:
            try:
                apply_recorded(state, row.text)
            except ZigguratError as exc:
                raise ValueError(
                    f"table {self.id}: stored action {row.ply} ({row.text!r}) refused: {exc}"
                ) from exc
        self.state = state
        self.rows = list(actions)
        self._mover = self._seat_to_move()
        self.views = Views(self._views_of(state))
        self.logs = {v: [] for v in self.viewers}
        self.log_plies = {v: [] for v in self.viewers}
        self.synced = {v: 0 for v in self.viewers}
        self.history_ready = False

    async def _replayed(
        self,
        actions: list[StoredAction],
        snapshot: tuple[int, dict[str, Any]] | None = None,
        viewers: Iterable[int | None] | None = None,
    ) -> LiveTable:
        """A scratch table holding what :meth:`rebuild` makes of ``actions`` (state, rows,
        views, and the logs of ``viewers``, default the watched ones), built in a worker
        thread; this table is left as it is."""
        copy = LiveTable.__new__(LiveTable)  # only the fields rebuild reads and writes
        copy.id, copy.game, copy.start_position = self.id, self.game, self.start_position
        copy.viewers, copy.writer, copy.open = self.viewers, self.writer, self.open
        keep = set(self.watched if viewers is None else viewers)
        await asyncio.to_thread(LiveTable.rebuild, copy, actions, snapshot, keep)
        return copy

    async def watch(self, viewer: int | None) -> None:
        """Keep ``viewer``'s view and log current from now on; a viewer not watched yet has its
        log built first, by replaying the game for it in a worker thread (with the history of
        a table resumed from a snapshot, in the same replay)."""
        if self.history_ready and viewer in self.watched:
            return
        async with self.lock:
            if not self.history_ready:
                await self._build_history(viewer)
                return
            if viewer in self.watched:
                return
            copy = await self._replayed(list(self.rows), viewers=[viewer])
            self.logs[viewer], self.log_plies[viewer] = copy.logs[viewer], copy.log_plies[viewer]
            self.views.copy_from(copy.views, viewer)
            self.synced[viewer] = len(self.logs[viewer])
            self.watched.add(viewer)
            if self.clocks is not None:
                self.clocks.announce_takeovers([viewer])

    async def ensure_history(self) -> None:
        """Build the logs (and a state that knows its whole history) of a table resumed from
        a snapshot, by replaying its game once, in a worker thread."""
        if self.history_ready:
            return
        async with self.lock:
            if not self.history_ready:
                await self._build_history()

    async def _build_history(self, *also: int | None) -> None:
        """:meth:`ensure_history`'s replay (the lock held), building the logs of the watched
        viewers and of ``also``, which are watched from then on."""
        self.watched.update(also)
        copy = await self._replayed(list(self.rows))
        self.state, self.logs, self.log_plies = copy.state, copy.logs, copy.log_plies
        self.views = copy.views
        self.synced = {v: len(self.logs[v]) for v in self.viewers}
        self.history_ready = True
        self.changes += 1
        if self.clocks is not None:
            self.clocks.announce_takeovers()

    def initial_state(self) -> State:
        """The state before the first stored action: the game's set-up, or the position the
        table was created from."""
        if self.start_position is not None:
            return self.game.state_from_position(self.start_position)
        return self.game.new_initial_state()

    def _views_of(self, state: State) -> dict[int | None, dict[str, Any]]:
        """The view of ``state`` of every watched viewer."""
        return {v: state.view(v) for v in self.viewers if v in self.watched}

    def _extend_logs(
        self,
        ply: int,
        events: list[gamekit.Event],
        before: Mapping[int | None, dict[str, Any]],
        after: dict[int | None, dict[str, Any]],
    ) -> None:
        self._add_log(ply, self._log_entries(ply, events, before, after))

    def _log_entries(
        self,
        ply: int,
        events: list[gamekit.Event],
        before: Mapping[int | None, dict[str, Any]],
        after: dict[int | None, dict[str, Any]],
    ) -> dict[int | None, list[str]]:
        """The JSON text of each viewer's log entries of one step, for the viewers whose views
        ``before`` and ``after`` hold (CPU only: changes nothing). ``before`` is usually the
        table's :class:`Views`, each read once here."""
        return {
            v: [jsontext.dumps(e) for e in self.writer.entries(ply, events, v, before[v], after[v])]
            for v in after
            if v in before
        }

    def _add_log(self, ply: int, entries: dict[int | None, list[str]]) -> None:
        for v, texts in entries.items():
            self.logs[v].extend(texts)
            self.log_plies[v].extend(ply for _ in texts)

    def _shown(self, after: State, ply: int, events: list[gamekit.Event]) -> Shown:
        """What a step to ``after`` shows: every watched viewer's view and log entries, the
        outcome if the game is over and the seats' labels; the final flags are left to
        :meth:`_step_flags`. CPU only, reading ``after`` (not yet shared) and the current views
        (the lock is held). It runs on the event loop: a step takes well under a millisecond of
        Mesopotamia, and handing it to a worker thread cost a third more CPU per action in the
        switches of the interpreter lock between the two threads, for no parallelism."""
        views = self._views_of(after)
        entries = self._log_entries(ply, events, self.views, views)
        outcome = gamekit.outcome(after) if after.is_terminal() else None
        labels = gamekit.seat_labels(after) if self.connections else None  # read by messages only
        return Shown(views, entries, None, outcome, labels)

    async def _step_flags(self, after: State, shown: Shown) -> Shown:
        """``shown`` with the final flags of the person to move in ``after``, if a socket of
        theirs is here. Worked out on the event loop, which serves other work every
        :data:`FLAGS_SLICE` seconds meanwhile: each legal action is played on a copy, and a
        long legal list of a large game takes several milliseconds."""
        who = after.current_player()
        if who < 0 or who in self.bots or not any(c.viewer == who for c in self.connections):
            return shown
        flags: dict[str, str] = {}
        until = time.perf_counter() + FLAGS_SLICE
        for _ in gamekit.final_flags_stepwise(after, who, shown.views.get(who), flags):
            if time.perf_counter() > until:
                await asyncio.sleep(0)
                until = time.perf_counter() + FLAGS_SLICE
        return shown._replace(final=flags)

    # --- facts ------------------------------------------------------------------------------
    @property
    def status(self) -> Literal["open", "playing", "over"]:
        if self.open:
            return "open"
        return "over" if self.state.is_terminal() else "playing"

    @property
    def result(self) -> list[float] | None:
        return self.state.returns() if self.state.is_terminal() else None

    @property
    def version(self) -> int:
        return len(self.rows)

    def to_move(self) -> str | None:
        """Colour of the seat to move (``None`` at a chance node, before a lobby table starts,
        or once the game is over)."""
        if self.open:
            return None
        who = self.state.current_player()
        return self.colours[who] if 0 <= who < len(self.colours) else None

    def colour(self, seat: int | None) -> str | None:
        return None if seat is None else self.colours[seat]

    def connected(self, seat: int) -> bool:
        """A socket of ``seat`` is open, in this process or another (server/presence.py)."""
        return any(c.viewer == seat for c in self.connections) or seat in self.elsewhere.seats()

    def here(self) -> set[int]:
        """The seats with a socket open in this process."""
        return {c.viewer for c in self.connections if c.viewer is not None}

    def presence(self) -> list[bool]:
        """:meth:`connected` of every seat, in seat order (the ``presence`` message)."""
        on = self.here() | self.elsewhere.seats()
        return [seat in on for seat in range(self.game.num_players)]

    def viewer_of(self, token_hash: str | None) -> int | None:
        """The seat a token (by hash) acts for, ``None`` for a spectator token.

        :raises Forbidden: if the token does not open this table.
        """
        if token_hash is None or token_hash not in self.tokens:
            raise Forbidden("missing or wrong token for this table")
        return self.tokens[token_hash]

    def undo_block(self, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now, as a key of :data:`UNDO_BLOCKS`, or ``None`` if it may."""
        if seat is None:
            return "spectator"
        if self.state.is_terminal():
            return "over"
        if seat in self.bots:  # a bot plays the seat since its clock ran out (clocks.py)
            return "bot"
        if not any(row.actor == seat for row in self.rows):
            return "nothing"
        last = self.rows[-1]
        if last.actor != seat:
            if last.actor < 0:
                return "chance"
            return "bot" if last.actor in self.bots else "other"
        if last.barrier:
            return "barrier"
        return None

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now, in English, or ``None`` if it may."""
        key = self.undo_block(seat)
        return None if key is None else UNDO_BLOCKS[key]

    def final_flags(self) -> dict[str, str]:
        """The legal actions of the seat to move that are final (``gamekit.final_flags``),
        computed once per change of the game."""
        if self._final is None or self._final[0] is not self.state:
            who = self.state.current_player()
            flags = gamekit.final_flags(self.state, who) if who >= 0 and who not in self.bots else {}
            self._final = (self.state, flags)
        return self._final[1]

    def outcome(self) -> dict[str, Any] | None:
        """How the finished game was won (``gamekit.outcome``), ``None`` while it goes on."""
        if not self.state.is_terminal():
            return None
        if self._outcome is None or self._outcome[0] != self.changes:
            self._outcome = (self.changes, gamekit.outcome(self.state))
        return self._outcome[1]

    def thinking_payload(self) -> dict[str, Any] | None:
        """``{"seat", "elapsed"}`` of the bot deciding now (seconds since it started), or ``None``."""
        if self.thinking is None:
            return None
        seat, since = self.thinking
        return {"seat": seat, "elapsed": round(max(0.0, time.monotonic() - since), 1)}

    def explain(self, seat: int | None, text: str) -> Refused | None:
        """The refusal ``text`` would get if ``seat`` sent it now, or ``None`` if it is legal.

        Plays it on a copy of the state: nothing changes and nobody is told.
        """
        if seat is None:
            raise Refused("forbidden", "a spectator token can only watch")
        if self.open:
            return Refused("not_started", NOT_STARTED)
        trial = self.state.clone()
        try:
            trial.apply(text, seat=seat)
        except ZigguratError as exc:
            return refused(exc)
        return None

    def seat_labels(self) -> list[Any]:
        """How the game names each seat now (``gamekit.seat_labels``), once per change."""
        if self._labels is None or self._labels[0] != self.changes:
            self._labels = (self.changes, gamekit.seat_labels(self.state))
        return self._labels[1]

    def record_for(self, viewer: int | None) -> dict[str, Any]:
        """The game record redacted for ``viewer``; the seed stays secret until the game is over.

        Reads only the current state object, which is never changed once current (changes
        replace it), so this may run in a worker thread.
        """
        if self.start_position is not None:
            raise NoRecord(
                "a table created from a position has no game record: records start from the set-up"
            )
        state = self.state
        rec = record(state, seed=self.seed if state.is_terminal() else None, players=self.colours)
        out = self.game.redact_record(rec, viewer)
        if not state.is_terminal():
            out["seed"] = None
        return out

    # --- messages ---------------------------------------------------------------------------
    def message_for(self, viewer: int | None, log_start: int) -> str:
        """The ``state`` message for ``viewer`` with log entries from ``log_start`` on."""
        legal: list[str] = []
        if (
            viewer is not None
            and not self.open
            and self.state.current_player() == viewer
            and viewer not in self.bots
        ):
            legal = list(self.state.legal_actions())
        head = {
            "type": "state",
            "seat": viewer,
            "colour": self.colour(viewer),
            "version": self.version,
            "view": jsontext.raw(self.views.text(viewer)),
            "legal": legal,
            "log_start": log_start,
            "can_undo": viewer is not None and self.undo_refusal(viewer) is None,
            "undo_block": self.undo_block(viewer),
            "final": self.final_flags() if legal else {},
            "seat_labels": self.seat_labels(),
            "thinking": self.thinking_payload(),
            "status": self.status,
            "result": self.result,
            "outcome": self.outcome(),
            "seats": self.seats_payload(),
            "host_seat": self.host_seat,
            "public": self.public,
            "time_control": None if self.time_control is None else self.time_control.to_json(),
            "clocks": None if self.clocks is None else self.clocks.payload(),
        }
        body = jsontext.dumps(head)
        # Log entries are kept as JSON text, so a long log is joined, not re-encoded.
        return body[:-1] + ',"log":[' + ",".join(self.logs[viewer][log_start:]) + "]}"

    def _broadcast(self) -> None:
        for v in self.viewers:
            conns = [c for c in self.connections if c.viewer == v]
            if conns:
                text = self.message_for(v, self.synced[v])
                for c in conns:
                    c.send(text)
            self.synced[v] = len(self.logs[v])

    async def attach(self, conn: Connection) -> None:
        """Register a socket and queue its first ``state`` message (with the whole log); if it
        is its seat's first socket here, the other sockets are told (``presence``). A seat's
        first socket ever is its player's arrival at the table (a real-time table's clocks wait
        for every player's): every socket, this one too, then hears the clocks."""
        await self.watch(conn.viewer)
        async with self.lock:
            first_here = not self.connections
            arrived = conn.viewer is not None and not self.connected(conn.viewer)
            new_here = conn.viewer is not None and conn.viewer not in self.here()
            self.connections.append(conn)
            conn.send(self.message_for(conn.viewer, 0))
            if arrived:
                self._tell_presence(skip=conn)
            if new_here or first_here:  # the other processes learn it (and, first, tell theirs)
                presence.share(self, ask=first_here)
            if conn.viewer is not None and self.clocks is not None and self.clocks.arrive(conn.viewer):
                self._broadcast()

    def detach(self, conn: Connection) -> None:
        """Forget a socket that closed; if it was its seat's last one here, the other sockets
        are told (``presence``)."""
        if conn in self.connections:
            self.connections.remove(conn)
            if conn.viewer is not None and not self._closed and conn.viewer not in self.here():
                presence.share(self)
                if not self.connected(conn.viewer):
                    self._tell_presence()

    def _tell_presence(self, skip: Connection | None = None) -> None:
        """Send every socket here but ``skip`` which seats have a socket open now, here or in
        another process (:meth:`presence`). The
        socket that just arrived is not sent it: its first ``state`` and ``chat_history`` come
        first, and its page reads the seats (``GET /api/tables/{id}``) once it has them."""
        text = jsontext.dumps({"type": "presence", "connected": self.presence()})
        for c in self.connections:
            if c is not skip:
                c.send(text)

    def notify(self, viewer: int | None, payload: dict[str, Any]) -> None:
        """Send ``payload`` to every socket of ``viewer``."""
        text = jsontext.dumps(payload)
        for c in self.connections:
            if c.viewer == viewer:
                c.send(text)

    # --- changes ----------------------------------------------------------------------------
    async def act(self, seat: int | None, text: str) -> None:
        """Play ``text`` for ``seat``. :raises Refused: and then nothing changed."""
        if seat is None:
            raise Refused("forbidden", "a spectator token can only watch")
        async with self.lock:
            if self.open:
                raise Refused("not_started", NOT_STARTED)
            if seat in self.bots:
                raise Refused("bot_plays", BOT_PLAYS)
            await self._play_or_catch_up(seat, text)

    async def _play_or_catch_up(self, actor: int, text: str) -> None:
        """:meth:`_play`; when another process changed the table first, bring this copy up to
        date and judge the action again against the game as it now stands (lock held)."""
        for _ in range(5):
            try:
                await self._play(actor, text)
                return
            except Conflict:
                await self.catch_up()  # the sockets here are told, whatever becomes of the action
                self._broadcast()
                self._schedule()
                if self.open:
                    raise Refused("not_started", NOT_STARTED) from None
                if actor >= 0 and actor in self.bots:
                    raise Refused("bot_plays", BOT_PLAYS) from None
        raise Refused("busy", "the table changed too often to take this action: send it again")

    async def undo(self, seat: int | None) -> None:
        """Take back ``seat``'s last action. :raises Refused: if that is not allowed now."""
        if seat is None:
            raise Refused("forbidden", "a spectator token can only watch")
        async with self.lock:
            if self.open:
                raise Refused("not_started", NOT_STARTED)
            why = self.undo_refusal(seat)
            if why is not None:
                raise Refused("cannot_undo", why)
            last = self.rows[-1]
            note = (
                Note(self.origin, self.id, "undo", self.revision + 1).encode()
                if self.store.postgres
                else None
            )
            try:
                await self.store.run(self.store.delete_action, self.id, last.ply, self.revision, note)
            except Conflict:
                await self.catch_up()
                self._broadcast()
                self._schedule()
                raise Refused("cannot_undo", UNDO_BLOCKS["other"]) from None
            self.revision += 1
            self.rows.pop()
            if not self.history_ready:  # the undone state is rebuilt from the stored actions, like a restart
                await self._reload()
                self._broadcast()
                self._schedule()
                return
            state = self.initial_state()
            for row in self.rows:
                apply_recorded(state, row.text)
            self.state = state
            self.changes += 1
            for v in self.viewers:
                cut = bisect.bisect_left(self.log_plies[v], last.ply)
                del self.logs[v][cut:]
                del self.log_plies[v][cut:]
                self.synced[v] = min(self.synced[v], cut)
            self.views = Views(self._views_of(state))
            await self._changed(None)
            self._broadcast()
            self._schedule()

    async def _play(self, actor: int, text: str) -> None:
        """Validate, commit, then publish one action (the lock is held)."""
        started = time.perf_counter()
        before = self.state
        after = before.clone()
        mark = gamekit.log_mark(before)
        try:
            if actor >= 0:
                after.apply(text, seat=actor)
            else:
                after.apply(text)
        except ZigguratError as exc:
            raise refused(exc) from exc
        events = gamekit.events_after(after, mark)
        chosen = [e[1] for e in events if not e[2]]
        canon = chosen[0] if chosen else self.game.parse_action(text)
        row = StoredAction(len(self.rows) + 1, canon, actor, self.game.undo_barrier(before, canon, after))
        status = "over" if after.is_terminal() else "playing"
        result = after.returns() if after.is_terminal() else None
        # the views, log entries, outcome and final flags are worked out before the commit and
        # published only once the action is committed
        shown = await self._step_flags(after, self._shown(after, row.ply, events))
        outcome = shown.outcome
        commit = Commit(revision=self.revision, driven=self.driven(after))
        if row.ply % SNAPSHOT_EVERY == 0 and not after.is_terminal():
            commit.snapshot = after.to_position()
        if self.store.postgres:
            commit.notify = Note(
                self.origin, self.id, "action", self.revision + 1, row.ply, row.text, row.actor, row.barrier
            ).encode()
            if not self.keeper and commit.driven and self.keeper_until is not None:
                commit.keeper, commit.keeper_until = self.origin, self.keeper_until()
        kept = await self.store.add_action(self.id, row, status, result, outcome, commit)
        # Committed: from here on the action is part of the game.
        self.revision += 1
        if kept and not self.keeper:
            self.keeper = True
            if self.clocks is not None:
                await self.clocks.reload()
        self._advance(row, after, events, shown)
        await self._changed(actor)
        if after.is_terminal() and self.on_end is not None:
            await self.on_end(self.id)  # before the broadcast: the players then find the ratings
        self._broadcast()
        self._schedule()
        metrics.action_done(self, actor, started)

    def _advance(
        self,
        row: StoredAction,
        after: State,
        events: list[gamekit.Event],
        shown: Shown | None = None,
    ) -> None:
        """Make ``after`` (the state after the stored ``row``) current: rows, views, logs
        (``shown``: what the step shows, already worked out by :meth:`_shown`)."""
        self.state = after
        self.rows.append(row)
        self.changes += 1
        self.last_used = time.monotonic()
        if shown is None:
            views = self._views_of(after)
            if self.history_ready:
                self._extend_logs(row.ply, events, self.views, views)
        else:
            views = shown.views
            if self.history_ready:
                self._add_log(row.ply, shown.entries)
            if shown.final is not None:
                self._final = (after, shown.final)
            if shown.labels is not None:
                self._labels = (self.changes, shown.labels)
        self.views = Views(views)

    # --- changes made by another process (server/bus.py) -----------------------------------
    async def on_note(self, note: Note) -> None:
        """Bring this copy up to date with a change another process stored, and tell the
        sockets here."""
        async with self.lock:
            if self._closed:
                return
            if note.kind == "action" and note.revision <= self.revision:
                return  # known already (this copy caught up meanwhile)
            if (
                note.kind == "action"
                and note.revision == self.revision + 1
                and note.ply == len(self.rows) + 1
                and note.text is not None
            ):
                await self._apply_stored(StoredAction(note.ply, note.text, note.actor, note.barrier))
                self.revision = note.revision
            elif note.kind in ("action", "undo"):
                if note.revision <= self.revision:
                    return
                await self.catch_up()
            elif note.kind == "meta":
                await self.refresh_meta()
            else:
                return
            self._broadcast()
            self._schedule()

    async def _apply_stored(self, row: StoredAction) -> None:
        """Apply an action another process stored (lock held; nothing is stored here). On the
        event loop: a worker thread per note put the sockets here behind the queue of this
        process's own steps (bench-server, PostgreSQL x2: spectators' p99 1.5 s, against 0.3 s)."""
        after = self.state.clone()
        mark = gamekit.log_mark(after)
        apply_recorded(after, row.text)
        events = gamekit.events_after(after, mark)
        shown = await self._step_flags(after, self._shown(after, row.ply, events))
        self._advance(row, after, events, shown)
        if self.clocks is not None:
            self.clocks.changed(row.actor if row.actor >= 0 else None)
        self._mover = self._seat_to_move()  # its listeners were told by the process that stored it

    async def catch_up(self) -> None:
        """Read the table's actions again and apply those this copy lacks; if its actions are
        no longer a prefix of the stored ones (an undo elsewhere), rebuild it (lock held)."""
        revision, actions = await self.store.run(self.store.load_actions, self.id)
        known = len(self.rows)
        if len(actions) >= known and all(a.text == r.text for a, r in zip(actions, self.rows, strict=False)):
            for row in actions[known:]:
                await self._apply_stored(row)
            self.revision = revision
            return
        await self._reload()

    async def _reload(self) -> None:
        """Rebuild this copy from the database (lock held)."""
        stored = await self.store.run(self.store.load_table, self.id)
        if stored is None:
            return
        copy = await self._replayed(stored.actions, stored.snapshot)
        self.state, self.rows, self.views = copy.state, copy.rows, copy.views
        self.logs, self.log_plies, self.synced = copy.logs, copy.log_plies, copy.synced
        self.history_ready = copy.history_ready
        self.revision = stored.revision
        self.changes += 1
        self._mover = self._seat_to_move()
        if self.connections and not self.history_ready:
            # sockets here hold a log: build it again before they are sent anything
            copy2 = await self._replayed(stored.actions)
            self.state, self.logs, self.log_plies, self.views = (
                copy2.state,
                copy2.logs,
                copy2.log_plies,
                copy2.views,
            )
            self.history_ready = True
        if self.history_ready:
            self.synced = {v: 0 for v in self.viewers}  # every socket gets the whole log again
        if self.clocks is not None:
            await self.clocks.reload()

    async def refresh_meta(self) -> None:
        """Read seats, tokens, the status and the clocks again (lock held)."""
        stored = await self.store.run(self.store.load_meta, self.id)
        if stored is None:
            return
        was_open = self.open
        self.seats = stored.seats
        self.tokens = dict(stored.tokens)
        self.rematch_id = stored.rematch_id
        self.open = stored.status == "open"
        for spec in self.seats:
            if spec.kind == "bot" and spec.seat not in self.bots:
                self.bots[spec.seat] = make_bot(gamekit.bot_spec(spec.bot), self.game, spec.seat)
        self.changes += 1
        if self.clocks is not None:
            await self.clocks.reload()
        if was_open and not self.open:
            self._mover = self._seat_to_move()

    async def publish_meta(self) -> None:
        """Tell the other processes that seats, tokens, the start, the clocks or the rematch
        of this table changed (already stored)."""
        note = Note(self.origin, self.id, "meta", self.revision).encode() if self.store.postgres else None
        await self.store.run(self.store.set_driven, self.id, self.driven(), note)

    async def _changed(self, actor: int | None) -> None:
        """After a committed change (the lock is held): the clocks, stored before anyone is
        told, and the listeners of the seat to move."""
        if self.clocks is not None:
            self.clocks.changed(actor)
            await self.clocks.save()
        self._moved()

    def driven(self, state: State | None = None) -> bool:
        """The table needs its keeper: a bot or chance to move, or a person's clock counting."""
        state = self.state if state is None else state
        if self.open or state.is_terminal():
            return False
        who = state.current_player()
        if who == CHANCE or who in self.bots:
            return True
        return self.clocks is not None and who >= 0 and self.clocks.clocked(who)

    def _seat_to_move(self) -> int | None:
        who = None if self.open or self.state.is_terminal() else self.state.current_player()
        return who if who is not None and who >= 0 else None

    def _moved(self, resumed: bool = False) -> None:
        """Tell the seat-to-move listeners when the seat with a decision changed, and once
        when the table starts or resumes (``resumed``), so that they learn where it stands."""
        mover = self._seat_to_move()
        if mover != self._mover or resumed:
            self._mover = mover
            for listener in self.mover_listeners:
                try:
                    listener(self, mover)
                except Exception:  # a listener's failure never stops the table
                    log.exception("table %s: a seat-to-move listener failed", self.id)

    # --- a lobby table: seats taken, then the host starts it ------------------------------------
    def seats_payload(self) -> list[dict[str, Any]]:
        """Who sits where: ``{"seat", "kind", "bot", "name", "account", "free"}`` per seat
        (``name``: the account's or guest's name, if known; ``free``: an open seat)."""
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "account": s.user_id is not None,
                "free": s.kind == "open",
            }
            for s in self.seats
        ]

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "open"]

    def seat_taken(self, seat: int, user_id: int | None, name: str | None, token_hash: str) -> None:
        """A player took the free ``seat`` (already stored; the lock is held): every socket is
        told who sits where now."""
        self.seats[seat] = SeatSpec(seat, "human", None, user_id, name)
        self.tokens[token_hash] = seat
        self._broadcast()

    def seat_claimed(self, seat: int, user_id: int, name: str) -> None:
        """The human ``seat`` was saved to an account (already stored): every socket is told
        its name, and the end of the game rates it."""
        spec = self.seats[seat]
        self.seats[seat] = SeatSpec(seat, spec.kind, spec.bot, user_id, name)
        self._broadcast()

    def begin(self, fill: str | None) -> None:
        """The host started the table (already stored; the lock is held): free seats become
        ``fill`` bots, and the game begins (bots and chance start moving)."""
        for i, spec in enumerate(self.seats):
            if spec.kind == "open":
                if fill is None:
                    raise ValueError(f"seat {i + 1} is free and no bot level fills it")
                self.seats[i] = SeatSpec(i, "bot", fill)
                self.bots[i] = make_bot(gamekit.bot_spec(fill), self.game, i)
                if not any(c.viewer == i for c in self.connections):
                    self.watched.discard(i)  # nobody sees the game from a bot's seat
                    self.views.drop(i)
        self.open = False
        self.changes += 1
        if self.clocks is not None:
            for i, spec in enumerate(self.seats):
                if spec.kind == "human":  # each took their seat in the lobby: they are here
                    self.clocks.seats[i].arrived = True
            self.clocks.changed(None)
            self.clocks.save_soon()
        self._moved()
        self._broadcast()
        self._schedule()

    # --- the driver -------------------------------------------------------------------------
    def start(self) -> None:
        """Let the driver play chance and bot seats if one of them is to move; the seat-to-move
        listeners learn who is to move."""
        self._moved(resumed=True)
        self._schedule()

    def _schedule(self) -> None:
        if not self.keeper or self.open or self._closed or (self._task is not None and not self._task.done()):
            return
        who = self.state.current_player()
        if not self.state.is_terminal() and (who == CHANCE or who in self.bots):
            self._task = asyncio.get_running_loop().create_task(driver.drive(self), name=f"table-{self.id}")

    async def close(self) -> None:
        """Stop the driver and ask every socket's sender to finish."""
        self._closed = True
        await presence.settle(self)  # the last presence notes go out before the store may close
        if self.clocks is not None:
            await self.clocks.settle()
            self.clocks.close()
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for c in self.connections:
            c.stop()
        for bot in self.bots.values():
            close_bot(bot)  # worker processes, if a bot has any (the levels use none)
