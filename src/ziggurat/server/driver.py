"""The driver of a live table: it plays chance and the bot seats, one task per table.

A bot's decision runs in a worker process of the server's bot pool (``botpool.BotPool``; in a
worker thread without one) when the bot reads views (the heuristic, and ISMCTS, whose search
takes its whole time budget), so the event loop stays responsive. Chance and bots use
``random.Random(f"{seed}/{ply}...")``, so a restarted server continues a game exactly as it
would have gone on. The sockets are told which bot is thinking once it has been deciding a
while (:data:`THINKING_NOTICE_AFTER`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ziggurat.bots.base import Bot
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.server import gamekit, jsontext
from ziggurat.server.botpool import Decision, bot_key
from ziggurat.server.store import Conflict
from ziggurat.server.tabletypes import Refused

if TYPE_CHECKING:
    from ziggurat.server.live import LiveTable

log = logging.getLogger("ziggurat.server.live")  # the table's own log (logfilter.LOGGERS)

THINKING_NOTICE_AFTER = 0.25
"""Seconds a bot decides before the sockets are told that it is thinking: a quicker bot's move
arrives before a notice could be read, and each notice is one more message to every socket."""

RETRY_AFTER = (0.2, 1.0, 5.0, 30.0)
"""Seconds the driver waits after its first, second ... failure in a row before it reads the
table again and goes on (the last figure repeats)."""


@dataclass(slots=True)
class BotTurn:
    """One decision of a bot seat, as the driver found it (the table's lock held)."""

    seat: int
    bot: Bot
    view: dict[str, Any] | None
    legal: list[str]
    rng: random.Random
    changes: int
    seed: str  # the seed of ``rng`` (a pooled decision builds its own)


async def drive(table: LiveTable) -> None:
    """Play the table's chance nodes and bot seats until a person is to move, the game is over
    or the table closes (the table's driver task).

    A failure (the database out of reach, say) does not stop it for good: nothing else would
    start it again while a bot or chance is to move, so the table would wait forever while its
    keeper kept claiming it. It logs the failure, waits (:data:`RETRY_AFTER`), reads the table
    again from the store and goes on."""
    failures = 0
    while not table._closed:
        try:
            if not await play_one(table):
                return
            failures = 0
        except asyncio.CancelledError:
            raise
        except Exception:
            wait = RETRY_AFTER[min(failures, len(RETRY_AFTER) - 1)]
            failures += 1
            log.exception(
                "table %s: the bot driver failed (%d in a row); it reads the table again in %g s",
                table.id,
                failures,
                wait,
            )
            await asyncio.sleep(wait)
            await recover(table)


async def play_one(table: LiveTable) -> bool:
    """Play the chance nodes up to the next bot decision, then that decision; ``False`` when
    there is nothing left to play (a person to move, the game over)."""
    async with table.lock:
        turn = await next_turn(table)
    if turn is None:
        return False
    set_thinking(table, turn.seat)
    try:
        if table.bot_delay > 0:
            await asyncio.sleep(table.bot_delay)
        action = await choose(table, turn)
    finally:
        set_thinking(table, None)
    async with table.lock:
        if table.changes != turn.changes:
            return True  # the game moved meanwhile (e.g. an undo): decide again
        try:
            await table._play(turn.seat, action)
        except Conflict:
            await table.catch_up()  # another process moved first: decide again
            table._broadcast()
        except Refused as exc:
            log.error("table %s: bot %s chose %r: %s", table.id, turn.seat, action, exc.message)
            await table._play(turn.seat, turn.legal[turn.rng.randrange(len(turn.legal))])
    return True


async def recover(table: LiveTable) -> None:
    """After a failure of the driver: bring the table's copy here level with the store (an
    action may have been stored before the failure) and tell its sockets. A failure here is
    logged; the driver's next round tries again."""
    if table._closed:
        return
    try:
        async with table.lock:
            await table.catch_up()
            table._broadcast()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("table %s: the bot driver could not read the table again", table.id)


def set_thinking(table: LiveTable, seat: int | None) -> None:
    """The bot of ``seat`` started deciding (``None``: it stopped). The sockets are told
    once it has been deciding for :data:`THINKING_NOTICE_AFTER` seconds, and told that it
    stopped only if they were told that it started."""
    table.thinking = None if seat is None else (seat, time.monotonic())
    if table._thinking_timer is not None:
        table._thinking_timer.cancel()
        table._thinking_timer = None
    if seat is not None:
        loop = asyncio.get_running_loop()
        table._thinking_timer = loop.call_later(
            THINKING_NOTICE_AFTER, functools.partial(tell_thinking, table)
        )
    elif table._thinking_told:
        tell_thinking(table)


def tell_thinking(table: LiveTable) -> None:
    """Send every socket the ``thinking`` notice of now."""
    table._thinking_timer = None
    table._thinking_told = table.thinking is not None
    text = jsontext.dumps({"type": "thinking", **(table.thinking_payload() or {"seat": None})})
    for c in table.connections:
        c.send(text)


async def next_turn(table: LiveTable) -> BotTurn | None:
    """Resolve chance nodes; return the next bot decision to make, or ``None`` (lock held)."""
    while not table.state.is_terminal():
        who = table.state.current_player()
        ply = len(table.rows) + 1
        if who == CHANCE:
            try:
                await table._play(CHANCE, sample_chance(table.state, random.Random(f"{table.seed}/{ply}")))
            except Conflict:
                await table.catch_up()
                table._broadcast()
            continue
        bot = table.bots.get(who)
        if bot is None:
            return None
        view = None
        if bot.needs_view:  # the bot's own copy (the pool's is pickled: the view already made)
            pooled = table.bot_pool is not None and who in table.watched
            view = table.views[who] if pooled else table.state.view(who)
        seed = f"{table.seed}/{ply}/seat{who}"
        legal = list(table.state.legal_actions())
        return BotTurn(who, bot, view, legal, random.Random(seed), table.changes, seed)
    return None


def bot_spec(table: LiveTable, seat: int) -> str:
    """The spec of the bot playing ``seat``: its level, or the time control's takeover
    level for a human seat whose clock ran out (clocks.py)."""
    spec = table.seats[seat]
    if spec.kind != "bot" and table.time_control is not None:
        return gamekit.bot_spec(table.time_control.takeover)
    return gamekit.bot_spec(spec.bot)


def decision(table: LiveTable, turn: BotTurn) -> Decision:
    """``turn`` as the bot pool takes it. The pool's bot of a seat lives as long as the
    seat's bot here (a new bot, after a takeover, starts afresh there too)."""
    known = table._bot_keys.get(turn.seat)
    if known is None or known[0] is not turn.bot:
        known = table._bot_keys[turn.seat] = (turn.bot, bot_key(table.id, turn.seat))
    game = table.game
    return Decision(
        known[1],
        game.game_id,
        game.num_players,
        dict(game.options),
        turn.seat,
        bot_spec(table, turn.seat),
        turn.view,
        turn.legal,
        turn.seed,
    )


async def choose(table: LiveTable, turn: BotTurn) -> str:
    try:
        if turn.bot.needs_view:  # a thinking bot: keep the event loop free
            if table.bot_pool is not None:
                return await table.bot_pool.decide(decision(table, turn))
            return await asyncio.to_thread(turn.bot.choose, turn.view, turn.legal, turn.rng)
        return turn.bot.choose(turn.view, turn.legal, turn.rng)
    except Exception:
        log.exception("table %s: bot of seat %s failed; playing a random legal action", table.id, turn.seat)
        return turn.legal[turn.rng.randrange(len(turn.legal))]
