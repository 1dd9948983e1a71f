"""What the server needs from a game beyond the engine contract, read from its hooks.

A game declares (``Game.hooks``, :class:`ziggurat.engine.hooks.GameHooks`) its option
defaults, declarations and rule numbers, ``redact_events`` (a log as a seat saw it),
``describe_step`` (player-readable sentences), its heuristic bot and ``board_data()`` (static
data its browser board draws with, e.g. the map layout); seats are named by
``Game.seat_names()``. Games without a hook still work: logs hide every other seat's action
text, sentences repeat the text, the board data is empty, no option is listed (without
declarations or rules, each is offered by its default's type alone), no heuristic bot is
offered, no outcome is sent.

For the table page it also works out which legal actions are final (:func:`final_flags`), how
the game names each seat now (:func:`seat_labels`) and how a finished game was won
(:func:`outcome`, the game's ``outcome`` hook).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ziggurat.bots.base import BOT_KINDS
from ziggurat.engine.contract import CHANCE, Game, State
from ziggurat.engine.eventlog import Event, events_since
from ziggurat.engine.eventlog import log_mark as log_mark_of
from ziggurat.engine.hooks import Redactor, StepDescriber
from ziggurat.engine.messages import Message
from ziggurat.engine.registry import game_class, games, load
from ziggurat.server import jsontext

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameInfo:
    """A registered game as the lobby lists it."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    bots: list[str]
    option_specs: dict[str, dict[str, Any]]


def lobby_option_specs(
    names: Iterable[str], specs: Mapping[str, Mapping[str, Any]], rules: Mapping[str, str]
) -> dict[str, dict[str, Any]]:
    """What the lobby's form needs of each option's declaration (``ziggurat.engine.options``):
    the ``values`` of a text with a closed set of them, the ``min``/``max`` of a number, the
    ``rules`` it belongs to. An option with none of them is left out."""
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        spec = specs.get(name, {})
        entry: dict[str, Any] = {}
        if spec.get("type") == "str" and isinstance(spec.get("values"), list):
            entry["values"] = list(spec["values"])
        if spec.get("type") in ("int", "formula"):
            for bound in ("min", "max"):
                if isinstance(spec.get(bound), int | float):
                    entry[bound] = spec[bound]
        if rules.get(name):
            entry["rules"] = rules[name]
        if entry:
            out[name] = entry
    return out


@cache
def game_infos() -> list[GameInfo]:
    out = []
    for game_id in games():
        cls = game_class(game_id)
        hooks = cls.hooks
        defaults = dict(hooks.option_defaults.get()) if hooks.option_defaults is not None else {}
        specs = hooks.option_specs.get() if hooks.option_specs is not None else {}
        rules = hooks.option_rules.get() if hooks.option_rules is not None else {}
        out.append(
            GameInfo(
                game_id,
                cls.name or game_id,
                cls.min_players,
                cls.max_players,
                defaults,
                available_bots(game_id),
                lobby_option_specs(defaults, specs, rules),
            )
        )
    return out


DIFFICULTIES: dict[str, str] = {
    "easy": "heuristic",
    "medium": "ismcts:0.3s",
    "hard": "ismcts:1.5s",
}
"""The lobby's bot levels and the bot spec each plays (docs/bots.md). Seats store the level's
name, so a table keeps its level if the mapping is retuned; the plain kinds (``random``,
``heuristic``) stay valid for the API and for tables stored before the levels existed."""


@cache
def available_bots(game_id: str) -> list[str]:
    """Bot kinds a seat of this game may have: the difficulty levels, then ``heuristic`` and
    ``random``. ``easy`` and ``heuristic`` need the game's heuristic bot; ``medium`` and
    ``hard`` search with random playouts in a game without one."""
    has_heuristic = game_class(game_id).hooks.heuristic_bot is not None
    kinds = [level for level, spec in DIFFICULTIES.items() if has_heuristic or spec != "heuristic"]
    # ISMCTS itself is offered through the levels only: a seat cannot ask for any budget
    kinds += [k for k in ("heuristic", "random") if k in BOT_KINDS and (has_heuristic or k != "heuristic")]
    return kinds


def bot_spec(kind: str | None) -> str:
    """The bot spec (for ``make_bot``) a seat's stored bot kind names: a difficulty level's
    spec, or the kind itself (``random``, ``heuristic``; ``random`` when missing)."""
    if not kind:
        return "random"
    return DIFFICULTIES.get(kind, kind)


@cache
def board_data(game_id: str) -> dict[str, Any]:
    """Static data for the game's browser board (its ``hooks.board_data()``), or ``{}``."""
    hook = game_class(game_id).hooks.board_data
    return hook.get()() if hook is not None else {}


def colours(game: Game) -> list[str]:
    """The colour of each seat of ``game``."""
    return colours_for(game.game_id, game.num_players)


@cache
def colours_for(game_id: str, players: int) -> list[str]:
    """How the game calls each seat (``Game.seat_names``: colours in Mesopotamia)."""
    return load(game_id, players=players).seat_names()


def log_mark(state: State) -> Any:
    """An opaque marker of how far ``state``'s event log goes, for :func:`events_after`."""
    return log_mark_of(state)


def events_after(state: State, mark: Any) -> list[Event]:
    """Events applied to ``state`` (or a clone it grew from) since :func:`log_mark` gave ``mark``."""
    return events_since(state, mark)


def initial_events(state: State) -> list[Event]:
    """Events the engine applied itself while setting up ``state`` (before any action)."""
    return state.events()


def _entry(ply: int, colour: str | None, text: str, sentence: str) -> dict[str, Any]:
    """One log entry; a sentence the game gave as a :class:`Message` also goes as ``event``
    (its key and parameters), which the browser renders in the reader's language."""
    entry: dict[str, Any] = {"ply": ply, "colour": colour, "text": text, "sentence": str(sentence)}
    if isinstance(sentence, Message):
        entry["event"] = sentence.to_json()
    return entry


class LogWriter:
    """Turns the events of one step into log entries for one viewer (seat or ``None``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.colours = colours(game)
        hooks = game.hooks
        self._redact: Redactor | None = hooks.redact_events.get() if hooks.redact_events else None
        self._describe: StepDescriber | None = hooks.describe_step.get() if hooks.describe_step else None

    def entries(
        self, ply: int, events: list[Event], viewer: int | None, before: dict[str, Any], after: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """``{"ply", "colour", "text", "sentence"[, "event"]}`` for each event, as ``viewer`` may
        read them."""
        if not events:
            return []
        texts = self._redacted(events, viewer)
        sentences = self._sentences(events, viewer, before, after, texts)
        out = []
        for (actor, _, _, _), text, sentence in zip(events, texts, sentences, strict=False):
            colour = self.colours[actor] if 0 <= actor < len(self.colours) else None
            out.append(_entry(ply, colour, text, sentence))
        for sentence in sentences[len(events) :]:
            out.append(_entry(ply, None, "", sentence))
        return out

    def _redacted(self, events: list[Event], viewer: int | None) -> list[str]:
        if self._redact is not None:
            return list(self._redact(list(events), viewer))
        # Without a game-specific redaction, another seat's action text is not shown at all.
        return [text if actor == viewer or actor < 0 else "?" for actor, text, _, _ in events]

    def _sentences(
        self,
        events: list[Event],
        viewer: int | None,
        before: dict[str, Any],
        after: dict[str, Any],
        texts: list[str],
    ) -> list[str]:
        if self._describe is not None:
            try:
                return [text for text, _ in self._describe(events, before, after)]
            except Exception:  # a wording bug must never stop the game; the text still shows
                log.exception("describe_step failed for %s", [e[1] for e in events])
        return list(texts)


FINAL_ENDS_TURN = "ends_turn"
"""After the action this seat no longer has the decision (another seat, or the game is over)."""
FINAL_IRREVERSIBLE = "irreversible"
"""The action sets off chance (dice, a draw), or the server's undo cannot take it back."""


def final_flags(state: State, seat: int, view: dict[str, Any] | None = None) -> dict[str, str]:
    """The legal actions of ``seat`` (to move in ``state``) that are final, and why.

    Each action is played on a copy: one that sets off chance (a chance event follows it, or
    chance is to move after it) or that the game's ``undo_barrier`` says an undo cannot take
    back is ``irreversible``; one after which another seat decides, or the game is over, is
    ``ends_turn``. Actions that are neither are left out.

    Who decides after an action may hang on a secret (in Epochs, whether the next People's
    card is another seat's hidden card or set aside), so the actions are played on a state
    chosen from what the seat sees (:func:`seat_basis`), not on the true one: the flags are a
    function of the seat's view and tell it no secret. A game whose rules keep all three facts
    public (``hooks.flags_from_state``, Mesopotamia) has them read on ``state`` itself, which
    gives the same flags without sampling a state. ``view``: ``state.view(seat)`` when the
    caller has it already.
    """
    out: dict[str, str] = {}
    for _ in final_flags_stepwise(state, seat, view, out):
        pass
    return out


def final_flags_stepwise(
    state: State, seat: int, view: dict[str, Any] | None, out: dict[str, str]
) -> Iterator[None]:
    """:func:`final_flags` one action at a time: fills ``out`` and yields after each legal
    action played, so that an event loop can serve other work between two (a long legal list
    of a large game takes milliseconds)."""
    basis = state if flags_from_state(state.game) else seat_basis(state, seat, view)
    game = basis.game
    mark = log_mark_of(basis)
    for action in basis.legal_actions():
        after = basis.clone()
        try:
            after.apply(action, seat=seat)
        except Exception:  # a legal action the engine refuses is a game bug: it must not stop the table
            log.exception("final_flags: legal action %r refused", action)
            continue
        who = after.current_player()
        if who == CHANCE or any(e.actor < 0 for e in events_since(after, mark)):
            out[action] = FINAL_IRREVERSIBLE
        elif after.is_terminal() or who != seat:
            out[action] = FINAL_ENDS_TURN
        elif game.undo_barrier(basis, action, after):
            out[action] = FINAL_IRREVERSIBLE
        yield


def flags_from_state(game: Game) -> bool:
    """Whether ``game``'s final flags may be read on the true state (its
    ``hooks.flags_from_state``)."""
    hook = game.hooks.flags_from_state
    return hook is not None and bool(hook.get())


def seat_basis(state: State, seat: int, view: dict[str, Any] | None = None) -> State:
    """A state ``seat`` cannot tell from ``state``, chosen from its view alone (``view``, or
    ``state.view(seat)``): the game's ``sample_state`` with a random generator seeded by the
    view, so that one view always gives the same state. ``state`` itself if the game cannot
    sample one (logged)."""
    if view is None:
        view = state.view(seat)
    digest = hashlib.sha256(jsontext.sorted_bytes(view)).hexdigest()
    try:
        return state.game.sample_state(view, seat, random.Random(digest))
    except Exception:  # a determinization bug must not stop the table; the flags use the state
        log.exception("seat_basis: %s cannot sample a state for seat %s", state.game.game_id, seat)
        return state


def seat_labels(state: State) -> list[Any]:
    """How the game names each seat in its sentences now (the state's seat label: a colour, a
    symbol, or in Mare Nostrum the empire once dealt), as message JSON the browser renders."""
    out: list[Any] = []
    for seat in range(state.game.num_players):
        label = state._seat_label(seat)  # the engine contract's name of a seat in a message
        out.append(label.to_json() if isinstance(label, Message) else str(label))
    return out


def outcome(state: State) -> dict[str, Any] | None:
    """How the finished game in ``state`` was won (the game's ``outcome`` hook), as JSON:
    ``{"condition", "rule", "winners", "summary", "scores", "labels"}`` with the messages as
    ``{"key", "params"}``; ``None`` for a game without the hook or not over."""
    hook = state.game.hooks.outcome
    if hook is None or not state.is_terminal():
        return None
    try:
        found = dict(hook.get()(state))
        return {
            "condition": str(found["condition"]),
            "rule": str(found["rule"]),
            "winners": [int(w) for w in found["winners"]],
            "summary": _message_json(found["summary"]),
            "scores": [[{"key": str(c["key"]), "value": c["value"]} for c in row] for row in found["scores"]],
            "labels": {str(k): _message_json(v) for k, v in found["labels"].items()},
        }
    except Exception:  # like a wording bug, a failing outcome must never stop the game
        log.exception("the outcome hook of %s failed", state.game.game_id)
        return None


def _message_json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Message) else str(value)
