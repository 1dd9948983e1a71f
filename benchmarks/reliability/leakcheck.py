"""What a viewer may know, and the checks of every payload the server sent it.

Used by ``leaks.py`` (the reliability harness) and its short version in the test suite.
A finished table is rebuilt offline from its stored actions (:class:`TrueGame`): the state
after every number of actions, each viewer's log as the server's own ``LogWriter`` writes it,
and the events of each ply. Every payload a viewer received is then checked against it:

- ``view`` equals the engine's ``state.view(viewer)`` at the payload's version;
- ``legal`` is empty unless the viewer is the seat to move (then the engine's legal list);
- the log entries equal the ``LogWriter``'s for that viewer;
- the secret scan, which does not trust the game's own view: every hidden field of the true
  state that the viewer may not know (:func:`secret_fields`, listed from the rules of each
  game: other seats' offerings, hands, cards and screens, the deck, pile tops, the pool,
  face-down tiles, a card just drawn...) must be blank in the payload, and a substitution
  check resamples the hidden part with the game's ``sample_state`` and asks that the viewer
  would have been sent the same view; the log entry and record action of every event that
  hides something from the viewer (a draw, a deal, a peek, a secret offer, :func:`event_secret`)
  must not name the secret;
- records, replays, ``/explain``, the lookup listing and the table's facts are compared the
  same way; a record carries the seed only once the game is over.

A finding is a :class:`Leak`. ``PLANTS`` patches the server (or a game) in-process to leak on
purpose, so that a run proves the checks catch each kind of leak.
"""

from __future__ import annotations

import bisect
import contextlib
import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import ziggurat
from ziggurat.engine.contract import State
from ziggurat.engine.errors import ZigguratError
from ziggurat.engine.records import apply_recorded, record
from ziggurat.server import gamekit

Path = tuple[Any, ...]
Viewer = int | None

MAX_EXAMPLES = 5
"""Leaks described per kind in a report (all are counted)."""


# --------------------------------------------------------------------------- what is secret


def _meso_fields(pos: dict[str, Any], seat: Viewer) -> list[Path]:
    """Mesopotamia (rules spec section 6): another colour's offering values not yet revealed or
    delivered and its unplaced ones, its hand and new cards, the deck, and the pile tops the
    viewer did not peek at."""
    from ziggurat.games.mesopotamia.data import COLOURS

    mine = None if seat is None else COLOURS[seat]
    out: list[Path] = [("deck",)]
    for i, pl in enumerate(pos["players"]):
        if pl["colour"] == mine:
            continue
        off = pl["offerings"]
        shown = {int(k) for k in off["revealed"]} | {int(k) for k in off["delivered"]}
        out += [("players", i, "offerings", "placed", k) for k in off["placed"] if int(k) not in shown]
        out += [("players", i, "offerings", "unplaced"), ("players", i, "hand"), ("players", i, "new_cards")]
    for p, pile in enumerate(pos["piles"]):
        out += [
            ("piles", p, "top", t, 0) for t, (_, knowers) in enumerate(pile["top"]) if mine not in knowers
        ]
    return out


def _epochs_fields(pos: dict[str, Any], seat: Viewer) -> list[Path]:
    """Mesopotamia: Epochs (section 6): a card identity that is not face up and that the viewer
    was not shown (E1.5, E3.5, E3.7), set-aside cards not yet public (R42), the deck, and a
    card someone else has just drawn (E3.3)."""
    from ziggurat.games.mesopotamia_epochs.data import SYMBOLS

    me = None if seat is None else SYMBOLS[seat]
    out: list[Path] = [("deck",)]
    for i, pl in enumerate(pos["players"]):
        for c, card in enumerate(pl["cards"]):
            if not card["public"] and me not in card["known_by"]:
                out.append(("players", i, "cards", c, "people"))
    out += [("set_aside", c, "people") for c, card in enumerate(pos["set_aside"]) if not card["public"]]
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep" and pos["draw_order"][pos["draw_index"]] != me:
        out.append(("pending", 1))
    return out


def _nostrum_fields(pos: dict[str, Any], seat: Viewer) -> list[Path]:
    """Mare Nostrum (section 7): the tokens behind other seats' screens (7.1), the pool of
    legendary goods (7.4), the face-down tiles (7.5) and other seats' trade offers until they
    are revealed (7.2)."""
    n = pos["n"]
    out: list[Path] = [("res", s) for s in range(n) if s != seat]
    out += [("pool",), ("facedown",)]
    trade = pos.get("trade")
    if trade and not trade["revealed"]:
        out += [("trade", "offers", s) for s in range(n) if s != seat]
    return out


SECRET_FIELDS: dict[str, Callable[[dict[str, Any], Viewer], list[Path]]] = {
    "mesopotamia": _meso_fields,
    "mesopotamia-epochs": _epochs_fields,
    "mare-nostrum": _nostrum_fields,
}


def secret_fields(state: State, seat: Viewer) -> list[Path]:
    """Where the true ``state`` holds something ``seat`` may not know: the paths (into its
    position, which a view mirrors) that a view for ``seat`` must leave blank (``None``)."""
    return SECRET_FIELDS[state.game.game_id](state.to_position(), seat)


def json_copy(doc: Any) -> Any:
    """A deep copy of a JSON document (dicts, lists, scalars): quicker than ``copy.deepcopy``."""
    if isinstance(doc, dict):
        return {k: json_copy(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [json_copy(v) for v in doc]
    return doc


def get_path(doc: Any, path: Path) -> Any:
    """The value at ``path`` in ``doc``, or ``None`` where the path does not lead."""
    for step in path:
        try:
            doc = doc[step]
        except (KeyError, IndexError, TypeError):
            return None
    return doc


def set_path(doc: Any, path: Path, value: Any) -> bool:
    """Set ``path`` in ``doc`` to ``value``; ``False`` where the path does not lead."""
    for step in path[:-1]:
        try:
            doc = doc[step]
        except (KeyError, IndexError, TypeError):
            return False
    try:
        doc[path[-1]] = value
    except (KeyError, IndexError, TypeError):
        return False
    return True


def _secret_words(kind: str, words: list[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        for part in w.split(","):
            out.append(part)
            if part.startswith("leg:"):
                out.append(part[4:])
    return out


def event_secret(game_id: str, event: Any, viewer: Viewer) -> list[str] | None:
    """The secret words of ``event`` ``(actor, text, auto, seat concerned)`` that ``viewer``
    may not read when it happens, or ``None`` if the viewer may read all of it. Mesopotamia:
    another colour's offering value, tile order, card drawn, peeked tile or dealt card.
    Epochs: a card dealt to or drawn by another seat (E1.5, E3.3). Mare Nostrum: another
    seat's legendary draw, Colossus good or trade offer (7.2-7.5)."""
    actor, text, _, concerned = event
    words = text.split(" ")
    kind = words[0]
    if game_id == "mesopotamia":
        from ziggurat.games.mesopotamia.data import LETTER_SEAT

        owner = concerned if actor < 0 else actor
        if kind == "deal" and len(words) > 2:
            return None if viewer == LETTER_SEAT.get(words[1]) else _secret_words(kind, words[2:])
        if kind in ("offer", "order", "card", "peek") and len(words) > 1:
            return None if viewer == owner else _secret_words(kind, words[1:])
        return None
    if game_id == "mesopotamia-epochs":
        from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT

        if kind == "deal" and len(words) > 2:
            return None if viewer == SYMBOL_SEAT.get(words[1]) else _secret_words(kind, words[2:])
        if kind == "draw" and len(words) > 1:
            return None if viewer == concerned else _secret_words(kind, words[1:])
        return None
    if kind in ("draw", "colossus") or (kind == "offer" and len(words) > 1 and words[1] != "size"):
        return None if viewer == concerned else _secret_words(kind, words[1:])
    return None


def _leaves(doc: Any, name: str = "") -> Iterator[tuple[str, Any]]:
    """``(parameter name, value)`` of every leaf of a message's JSON; a nested message's key
    gives its last part (``meso.card.land`` -> ``land``) under the name ``key``."""
    if isinstance(doc, dict):
        if isinstance(doc.get("key"), str):
            yield "key", doc["key"].rsplit(".", 1)[-1]
        for k, v in doc.items():
            if k != "key":
                yield from _leaves(v, k if k != "params" else name)
    elif isinstance(doc, list):
        for v in doc:
            yield from _leaves(v, name)
    else:
        yield name, doc


def names_secret(text: str, event: Any, secret: list[str]) -> str | None:
    """The secret word a log entry or record action (``text``, and the entry's ``event``
    message) gives away, or ``None``. A redacted text keeps a ``?`` where the secret was."""
    if "?" not in text:
        return f"text {text!r} is not redacted"
    words = set(text.replace(",", " ").split(" "))
    for s in secret:
        if s in words:
            return f"text {text!r} names {s!r}"
    for name, value in _leaves(event):
        for s in secret:
            if name == "key" and value == s:
                return f"message names {s!r}"
            if isinstance(value, str) and value == s:
                return f"parameter {name} is {s!r}"
            if isinstance(value, int) and name == "value" and s.isdigit() and value == int(s):
                return f"parameter value is {s}"
    return None


# --------------------------------------------------------------------------- the true game


@dataclass
class Leak:
    """A payload that shows a viewer more than it may know."""

    kind: str
    viewer: Viewer
    version: int
    detail: str


@dataclass
class TrueGame:
    """A table rebuilt offline from its stored actions: states, logs and events by ply."""

    game: Any
    seed: int
    states: list[State]
    events: list[list[Any]]  # events of each ply (0: the set-up)
    logs: dict[Viewer, list[dict[str, Any]]]
    log_plies: dict[Viewer, list[int]]
    public_at: list[int] = field(default_factory=list)  # per chosen event: the ply it became public
    viewers: list[Viewer] = field(default_factory=list)
    public_events: set[tuple[int, int]] = field(default_factory=set)
    """(ply, index) of the events whose secret the same step made public (Mare Nostrum: the
    last offer of a trade, revealed with the others, N2.3: its log sentence may name it)."""
    views: list[dict[Viewer, dict[str, Any]]] = field(default_factory=list)
    """Every viewer's view after each ply, as the rebuild computed them (read only)."""

    @classmethod
    def rebuild(
        cls, game_id: str, players: int, options: dict[str, Any], seed: int, actions: list[str]
    ) -> TrueGame:
        """Replay ``actions`` (the stored ones, chance included) from the set-up, writing every
        viewer's log as a live table does (``LiveTable.rebuild``)."""
        game = ziggurat.load(game_id, players=players, **options)
        viewers: list[Viewer] = [*range(players), None]
        writer = gamekit.LogWriter(game)
        state = game.new_initial_state()
        logs: dict[Viewer, list[dict[str, Any]]] = {v: [] for v in viewers}
        plies: dict[Viewer, list[int]] = {v: [] for v in viewers}
        views = {v: state.view(v) for v in viewers}
        events = [gamekit.initial_events(state)]
        states = [state.clone()]

        def extend(ply: int, evs: list[Any], before: dict[Viewer, Any], after: dict[Viewer, Any]) -> None:
            for v in viewers:
                entries = json.loads(json.dumps(writer.entries(ply, evs, v, before[v], after[v])))
                logs[v].extend(entries)
                plies[v].extend(ply for _ in entries)

        extend(0, events[0], views, views)
        all_views = [views]
        public_at: list[int] = []
        pending_offers: list[int] = []
        public_events: set[tuple[int, int]] = set()
        for ply, text in enumerate(actions, start=1):
            mark = gamekit.log_mark(state)
            apply_recorded(state, text)
            evs = gamekit.events_after(state, mark)
            after = {v: state.view(v) for v in viewers}
            extend(ply, evs, views, after)
            views = after
            all_views.append(after)
            events.append(evs)
            states.append(state.clone())
            offers_now = []
            for i, e in enumerate(evs):
                words = e[1].split(" ")
                offer = game_id == "mare-nostrum" and words[0] == "offer" and words[1:2] != ["size"]
                if offer:
                    offers_now.append(i)
                if not e[2]:
                    public_at.append(10**9)
                    if offer:
                        pending_offers.append(len(public_at) - 1)
            if pending_offers or offers_now:  # Mare Nostrum: offers are public once revealed (N2.3)
                trade = state.to_position().get("trade")
                if trade is None or trade["revealed"]:
                    for i in pending_offers:
                        public_at[i] = ply
                    pending_offers = []
                    public_events.update((ply, i) for i in offers_now)
        return cls(game, seed, states, events, logs, plies, public_at, viewers, public_events, all_views)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def log_upto(self, viewer: Viewer, ply: int) -> int:
        """How many of ``viewer``'s log entries were written by the first ``ply`` actions."""
        return bisect.bisect_right(self.log_plies[viewer], ply)


# --------------------------------------------------------------------------- the checks


class Checker:
    """Checks the payloads of one table against its :class:`TrueGame`; collects leaks."""

    def __init__(self, true: TrueGame, rng: random.Random, substitute_every: int = 1) -> None:
        self.true = true
        self.game_id = true.game.game_id
        self.rng = rng
        self.substitute_every = substitute_every
        self.leaks: list[Leak] = []
        self.checked: dict[str, int] = {}
        self.colours = gamekit.colours(true.game)
        self._fields: dict[tuple[int, Viewer], list[Path]] = {}
        self._positions: dict[int, dict[str, Any]] = {}
        self._substituted: set[tuple[Any, ...]] = set()
        self._labels: dict[int, Any] = {}

    def engine_view(self, version: int, viewer: Viewer) -> dict[str, Any]:
        """The engine's ``view(viewer)`` of the state at ``version`` (not to be changed)."""
        if version < len(self.true.views):
            return self.true.views[version][viewer]
        return self.true.states[version].view(viewer)

    def seat_labels(self, version: int) -> Any:
        """The state's seat labels at ``version`` as JSON reads them (once per version)."""
        if version not in self._labels:
            labels = gamekit.seat_labels(self.true.states[version])
            self._labels[version] = json.loads(json.dumps(labels))
        return self._labels[version]

    def secret_fields(self, version: int, seat: Viewer) -> list[Path]:
        """:func:`secret_fields` of the state at ``version``, read once per version and seat."""
        key = (version, seat)
        if key not in self._fields:
            if version not in self._positions:
                self._positions[version] = self.true.states[version].to_position()
            self._fields[key] = SECRET_FIELDS[self.game_id](self._positions[version], seat)
        return self._fields[key]

    def _leak(self, kind: str, viewer: Viewer, version: int, detail: str) -> None:
        self.leaks.append(Leak(kind, viewer, version, detail))

    def _count(self, what: str, viewer: Viewer) -> None:
        key = f"{what}/{'spectator' if viewer is None else 'seat'}"
        self.checked[key] = self.checked.get(key, 0) + 1

    # --- views ---
    def check_view(
        self,
        view: dict[str, Any],
        viewer: Viewer,
        version: int,
        where: str,
        legal: list[str] | None = None,
        final: dict[str, str] | None = None,
    ) -> None:
        """Equal to the engine's view; every secret field blank; the same after resampling."""
        state = self.true.states[version]
        engine = view == self.engine_view(version, viewer)
        if not engine:
            self._leak(f"{where}: view", viewer, version, "differs from the engine's view for this viewer")
        fields = self.secret_fields(version, viewer)
        self.checked["hidden fields"] = self.checked.get("hidden fields", 0) + len(fields)
        for path in fields:
            if get_path(view, path) is not None:
                self._leak(
                    f"{where}: secret", viewer, version, f"hidden field {'/'.join(map(str, path))} is shown"
                )
        if self.substitute_every and version % self.substitute_every == 0 and not state.is_terminal():
            # once per distinct payload: the same view (the engine's), legal list and final flags
            # sent to this viewer at this version again (a replay of a ply already sent on the
            # socket) would be resampled from the same hidden part
            key = (viewer, version, tuple(legal or ()), tuple(sorted((final or {}).items())))
            if not engine or key not in self._substituted:
                if engine:
                    self._substituted.add(key)
                self.substitute(view, viewer, version, where, legal, final)

    def substitute(
        self,
        view: dict[str, Any],
        viewer: Viewer,
        version: int,
        where: str,
        legal: list[str] | None = None,
        final: dict[str, str] | None = None,
    ) -> None:
        """Resample what ``viewer`` may not know: the view it was sent must not change, nor who
        is to move, nor (``legal``, ``final``: what it was sent as the seat to move) its legal
        actions and which of them are final."""
        state = self.true.states[version]
        n = self.true.game.num_players
        seat = viewer if viewer is not None else version % n
        base = json_copy(view if viewer is not None else self.engine_view(version, seat))
        for path in self.secret_fields(version, seat):
            set_path(base, path, None)
        try:
            other = self.true.game.sample_state(base, seat, self.rng)
        except Exception as exc:  # a view the game cannot resample is itself a finding
            self._leak(f"{where}: substitution", viewer, version, f"sample_state failed: {exc!r}")
            return
        if other.view(viewer) != view:
            self._leak(
                f"{where}: substitution",
                viewer,
                version,
                "the view changes when what the viewer may not know is resampled",
            )
        elif other.current_player() != state.current_player():
            self._leak(f"{where}: substitution", viewer, version, "who is to move depends on a hidden part")
        elif legal and list(other.legal_actions()) != legal:
            self._leak(f"{where}: substitution", viewer, version, "the legal actions depend on a hidden part")
        elif (
            legal
            and final is not None
            and viewer == state.current_player()
            and gamekit.final_flags(other, state.current_player()) != final
        ):
            self._leak(
                f"{where}: substitution", viewer, version, "which actions are final depends on a hidden part"
            )

    # --- the socket's state message ---
    def check_state(
        self, msg: dict[str, Any], viewer: Viewer, log: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """One ``state`` message; returns the viewer's log after it (``log_start`` + ``log``)."""
        version = msg["version"]
        self._count("state", viewer)
        if msg.get("seat") != viewer:
            self._leak("state: seat", viewer, version, f"addressed to seat {msg.get('seat')}")
        if not 0 <= version <= self.true.last:
            self._leak("state: version", viewer, version, "no such version")
            return log
        state = self.true.states[version]
        self.check_view(msg["view"], viewer, version, "state", msg["legal"], msg.get("final"))
        mover = state.current_player()
        expected = list(state.legal_actions()) if viewer is not None and mover == viewer else []
        if msg["legal"] != expected:
            self._leak(
                "state: legal",
                viewer,
                version,
                f"{len(msg['legal'])} legal actions sent, {len(expected)} due",
            )
        if set(msg.get("final") or {}) - set(expected):
            self._leak("state: final", viewer, version, "final flags for actions the viewer may not play")
        start = msg["log_start"]
        upto = self.true.log_upto(viewer, version)
        if start > len(log) or msg["log"] != self.true.logs[viewer][start:upto]:
            self._leak("state: log", viewer, version, "log entries differ from the server's LogWriter's")
        if msg["seat_labels"] != self.seat_labels(version):
            self._leak("state: seat_labels", viewer, version, "seat labels differ")
        if (msg["result"] is not None) != state.is_terminal():
            self._leak("state: result", viewer, version, "a result before the end")
        return log[:start] + msg["log"]

    def check_log_secrets(self, viewer: Viewer, log: list[dict[str, Any]]) -> None:
        """The whole log a viewer holds: no entry names a secret of its event."""
        self._count("log", viewer)
        by_ply: dict[int, list[dict[str, Any]]] = {}
        for entry in log:
            by_ply.setdefault(entry["ply"], []).append(entry)
        for ply, evs in enumerate(self.true.events):
            entries = by_ply.get(ply, [])
            for i, (event, entry) in enumerate(zip(evs, entries, strict=False)):
                secret = event_secret(self.game_id, event, viewer)
                if secret is None or (ply, i) in self.true.public_events:
                    continue
                self.checked["hidden events"] = self.checked.get("hidden events", 0) + 1
                found = names_secret(entry["text"], entry.get("event"), secret)
                if found is None and entry.get("event") is None:
                    found = next(
                        (f"sentence names {s!r}" for s in secret if s in entry["sentence"].split()), None
                    )
                if found is not None:
                    self._leak("log: secret", viewer, ply, f"{event[1]!r}: {found}")

    # --- HTTP payloads ---
    def check_record(self, rec: dict[str, Any], viewer: Viewer, version: int) -> None:
        """``GET /record`` at ``version``: as ``LiveTable.record_for`` would make it offline; no
        seed before the end; no action names another seat's secret."""
        self._count("record", viewer)
        state = self.true.states[version]
        over = state.is_terminal()
        expected = record(state, seed=self.true.seed if over else None, players=self.colours)
        expected = self.true.game.redact_record(expected, viewer)
        if not over:
            expected["seed"] = None
            if rec.get("seed") is not None:
                self._leak("record: seed", viewer, version, "the seed before the end of the game")
            if {"fingerprints", "final_fingerprint"} & set(rec):
                # a fingerprint of the whole state lets a seat test guesses of what is hidden
                self._leak("record: fingerprint", viewer, version, "fingerprints of the full state")
        if rec != json.loads(json.dumps(expected)):
            self._leak("record", viewer, version, "differs from the record redacted for this viewer")
        chosen = [e for evs in self.true.events[1 : version + 1] for e in evs if not e[2]]
        for i, (event, shown) in enumerate(zip(chosen, rec.get("actions", []), strict=False)):
            if self.true.public_at[i] <= version:
                continue
            secret = event_secret(self.game_id, event, viewer)
            if secret is not None and (found := names_secret(shown, None, secret)) is not None:
                self._leak("record: secret", viewer, version, f"{event[1]!r}: {found}")

    def check_replay(self, body: dict[str, Any], viewer: Viewer) -> None:
        """``GET /replay?ply=N``: the view and the log up to that ply."""
        self._count("replay", viewer)
        ply = body["ply"]
        if body.get("seat") != viewer:
            self._leak("replay: seat", viewer, ply, f"answered as seat {body.get('seat')}")
        self.check_view(body["view"], viewer, ply, "replay")
        if body["log"] != self.true.logs[viewer][: self.true.log_upto(viewer, ply)]:
            self._leak("replay: log", viewer, ply, "log entries differ from the viewer's")
        if (body["result"] is not None) != self.true.states[ply].is_terminal():
            self._leak("replay: result", viewer, ply, "a result before the end")

    def check_explain(self, body: dict[str, Any], viewer: int, action: str, version: int) -> None:
        """``POST /explain``: what the engine answers this seat, nothing else."""
        self._count("explain", viewer)
        trial = self.true.states[version].clone()
        try:
            trial.apply(action, seat=viewer)
            legal, message = True, None
        except ZigguratError as exc:
            legal = False
            message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        if body.get("legal") != legal or (not legal and body.get("message") != str(message)):
            self._leak("explain", viewer, version, f"answer to {action!r} differs from the engine's")

    def check_listing(self, entry: dict[str, Any], viewer: Viewer, version: int, where: str) -> None:
        """An entry of ``POST /api/tables/lookup``, ``GET /api/account/games`` (My games) or
        ``GET /api/tables/{id}``: who is to move, the seats' labels, no result before the end."""
        self._count(where, viewer)
        state = self.true.states[version]
        who = state.current_player()
        to_move = self.colours[who] if 0 <= who < len(self.colours) else None
        if entry.get("to_move") != to_move:
            self._leak(where, viewer, version, f"to_move {entry.get('to_move')!r}, due {to_move!r}")
        labels = self.seat_labels(version)
        if "seat_labels" in entry and entry["seat_labels"] != labels:
            self._leak(where, viewer, version, "seat labels differ")
        if "seat_to_move" in entry and entry["seat_to_move"] != (viewer is not None and who == viewer):
            self._leak(where, viewer, version, "seat_to_move is not the state's")
        if entry.get("result") is not None and not state.is_terminal():
            self._leak(where, viewer, version, "a result before the end")
        for seat in entry.get("seats") or []:
            if "label" in seat and seat["label"] != labels[seat["seat"]]:
                self._leak(where, viewer, version, "a seat's label is not the state's")


# --------------------------------------------------------------------------- planted leaks


def _fill_one_secret(view: dict[str, Any], state: State, viewer: Viewer) -> None:
    """Copy into ``view`` the first hidden field of ``state`` that holds something."""
    pos = state.to_position()
    for path in secret_fields(state, viewer):
        value = get_path(pos, path)
        if value not in (None, [], {}, 0):
            set_path(view, path, copy.deepcopy(value))
            return


@contextlib.contextmanager
def _patched(owner: Any, name: str, make: Callable[[Any], Any]) -> Iterator[None]:
    original = getattr(owner, name)
    setattr(owner, name, make(original))
    try:
        yield
    finally:
        setattr(owner, name, original)


def _rewrite_message(original: Callable[..., str], change: Callable[[Any, dict[str, Any]], None]) -> Any:
    def message_for(self: Any, viewer: Viewer, log_start: int) -> str:
        msg = json.loads(original(self, viewer, log_start))
        change(self, msg)
        return json.dumps(msg)

    return message_for


def plant_other_view() -> contextlib.AbstractContextManager[None]:
    """Server: each seat is sent the next seat's view."""
    from ziggurat.server.live import LiveTable

    def change(table: Any, msg: dict[str, Any]) -> None:
        if msg["seat"] is not None:
            msg["view"] = table.state.view((msg["seat"] + 1) % table.game.num_players)

    return _patched(LiveTable, "message_for", lambda orig: _rewrite_message(orig, change))


def plant_spectator_secret() -> contextlib.AbstractContextManager[None]:
    """Server: the spectator's view gets a hidden part (a hand, the screen's tokens, a card)."""
    from ziggurat.server.live import LiveTable

    def change(table: Any, msg: dict[str, Any]) -> None:
        if msg["seat"] is None:
            _fill_one_secret(msg["view"], table.state, None)

    return _patched(LiveTable, "message_for", lambda orig: _rewrite_message(orig, change))


def plant_legal_to_all() -> contextlib.AbstractContextManager[None]:
    """Server: every seat is sent the legal actions of the seat to move."""
    from ziggurat.server.live import LiveTable

    def change(table: Any, msg: dict[str, Any]) -> None:
        who = table.state.current_player()
        if msg["seat"] is not None and who >= 0 and not table.state.is_terminal():
            msg["legal"] = list(table.state.legal_actions())

    return _patched(LiveTable, "message_for", lambda orig: _rewrite_message(orig, change))


def plant_log_drawn() -> contextlib.AbstractContextManager[None]:
    """Server: a log entry naming what was drawn or dealt is written for everyone."""
    from ziggurat.server.live import LiveTable

    def make(original: Any) -> Any:
        def _log_entries(
            self: Any, ply: int, events: list[Any], before: Any, after: Any
        ) -> dict[Viewer, list[str]]:
            out: dict[Viewer, list[str]] = original(self, ply, events, before, after)
            for event in events:
                if event_secret(self.game.game_id, event, None) is not None:
                    entry = {"ply": ply, "colour": None, "text": event[1], "sentence": event[1]}
                    out = {v: [*texts, json.dumps(entry)] for v, texts in out.items()}
            return out

        return _log_entries

    return _patched(LiveTable, "_log_entries", make)


def plant_record_seed() -> contextlib.AbstractContextManager[None]:
    """Server: the record carries the table's seed before the game is over."""
    from ziggurat.server.live import LiveTable

    def make(original: Any) -> Any:
        def record_for(self: Any, viewer: Viewer) -> dict[str, Any]:
            out: dict[str, Any] = original(self, viewer)
            out["seed"] = self.seed
            return out

        return record_for

    return _patched(LiveTable, "record_for", make)


def plant_replay_view() -> contextlib.AbstractContextManager[None]:
    """Server: a replay shows a seat (or a spectator) the next seat's view."""
    from ziggurat.server.replay import ReplayCache

    def make(original: Any) -> Any:
        def frame(self: Any, table: Any, rows: Any, viewer: Viewer, current: Any = None) -> Any:
            other = 0 if viewer is None else (viewer + 1) % table.game.num_players
            return original(self, table, rows, other, current)

        return frame

    return _patched(ReplayCache, "frame", make)


@contextlib.contextmanager
def plant_game_view() -> Iterator[None]:
    """A game's own view leaks a hidden part to every viewer: the server then sends exactly the
    engine's view, so only the secret scan can catch it."""
    classes = {type(ziggurat.load(g).new_initial_state()) for g in ziggurat.games()}
    originals = {cls: cls.view for cls in classes}

    def make(original: Any) -> Any:
        def view(self: State, seat: Viewer) -> dict[str, Any]:
            out: dict[str, Any] = original(self, seat)
            _fill_one_secret(out, self, seat)
            return out

        return view

    try:
        for cls, original in originals.items():
            cls.view = make(original)  # type: ignore[method-assign]
        yield
    finally:
        for cls, original in originals.items():
            cls.view = original  # type: ignore[method-assign]


@contextlib.contextmanager
def plant_game_log() -> Iterator[None]:
    """A game's own log redaction shows every event's text to everyone (a drawn card, a dealt
    one, a secret offer): the server's log then equals its LogWriter's, so only the event scan
    can catch it."""
    import importlib

    patched = []
    for game_id in ziggurat.games():
        hook = type(ziggurat.load(game_id)).hooks.redact_events
        if hook is None:
            continue
        module_name, _, attribute = hook.target.partition(":")
        module = importlib.import_module(module_name)
        patched.append((module, attribute, getattr(module, attribute)))
    try:
        for module, attribute, _ in patched:
            setattr(module, attribute, lambda events, seat: [e[1] for e in events])
        yield
    finally:
        for module, attribute, original in patched:
            setattr(module, attribute, original)


PLANTS: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
    "other-view": plant_other_view,
    "spectator-secret": plant_spectator_secret,
    "legal-to-all": plant_legal_to_all,
    "log-drawn": plant_log_drawn,
    "record-seed": plant_record_seed,
    "replay-view": plant_replay_view,
    "game-view": plant_game_view,
    "game-log": plant_game_log,
}
"""Leaks the harness plants on purpose (``--plant``), each of which it must report."""
