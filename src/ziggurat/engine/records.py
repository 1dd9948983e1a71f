"""Game records (``ziggurat-record/1``): ``record(state)`` and ``replay(record)``."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, NamedTuple

from ziggurat.engine.contract import State
from ziggurat.engine.errors import IllegalAction, ZigguratError
from ziggurat.engine.eventlog import KEEP_EVERY, ConsLog, Kept, kept_of
from ziggurat.engine.registry import game_class, load

FORMAT = "ziggurat-record/1"
FINGERPRINT_EVERY = KEEP_EVERY
"""A record's fingerprints are those of the states after every this many chosen actions: the
states a game keeps beside its log as it goes (:class:`~ziggurat.engine.eventlog.Kept`)."""
FORCED_ASKED = "asked"
"""A record's ``forced`` field: a decision forced only by a secret is one of its actions (the
seat is asked it). Records without the field were written when the engine played every
decision with one legal action by itself; :func:`replay` replays them that way."""


def record(state: State, seed: int | None = None, players: list[str] | None = None) -> dict[str, Any]:
    """A JSON record of the game so far: options, actions and result.

    Its fingerprints (every :data:`FINGERPRINT_EVERY` chosen actions) are those of the states
    the game went through, which the state kept beside its log as it played (each worked out once,
    on first use): nothing is replayed. Where the log lacks a kept state (a log some other code
    wrote), the game is replayed from the newest state known before it, a kept one or one of
    :data:`CHECKPOINTS` left by an earlier ``record`` or ``replay`` of this game line.
    """
    game = state.game
    actions, marks = chosen_actions(state.log)
    fingerprints = checkpoint_fingerprints(state, actions, marks) if FINGERPRINT_EVERY else {}
    return {
        "format": FORMAT,
        "game": game.game_id,
        "options": dict(game.options),
        "num_players": game.num_players,
        "players": list(players) if players else [f"seat{i}" for i in range(game.num_players)],
        "seed": seed,
        "actions": actions,
        "fingerprints": fingerprints,
        "final_fingerprint": state.fingerprint(),
        "result": state.returns() if state.is_terminal() else None,
        "forced": FORCED_ASKED,
    }


class Checkpoint(NamedTuple):
    """What :data:`CHECKPOINTS` knows of a game line at one checkpoint."""

    node: ConsLog
    """The log node the checkpoint is at (kept, so that its id is not reused)."""
    fingerprints: dict[str, str]
    """The record's fingerprints up to and with this checkpoint."""
    state: State
    """A state at the checkpoint, to replay the next actions from (never changed)."""


CHECKPOINTS: OrderedDict[int, Checkpoint] = OrderedDict()
"""The newest checkpoints seen by :func:`record` and :func:`replay`, by their log node's id
(a game line's log nodes are shared by its states and clones and never change), so that
recording the same game again replays only what came after. At most :data:`CHECKPOINTS_KEPT`."""
CHECKPOINTS_KEPT = 256


def chosen_actions(log: ConsLog) -> tuple[list[str], list[ConsLog]]:
    """The texts of the chosen (non-auto) events of ``log``, oldest first, and for each the log
    node just before the next chosen event (the head for the last one): where the state was
    once that action and the forced decisions after it were played."""
    texts: list[str] = []
    marks: list[ConsLog] = []
    after: ConsLog = log  # the node that ends the current action's step
    node = log
    while node is not None:
        previous = node[0]
        if not node[3]:
            texts.append(node[2])
            marks.append(after)
            after = previous
        node = previous
    texts.reverse()
    marks.reverse()
    return texts, marks


CHECKPOINTS_LOCK = threading.Lock()  # records are made in worker threads too (the server)


def remember(node: ConsLog, fingerprints: dict[str, str], state: State) -> None:
    """Keep ``state``, at a checkpoint of the game line ending at ``node``, and the record's
    fingerprints up to it."""
    with CHECKPOINTS_LOCK:
        CHECKPOINTS[id(node)] = Checkpoint(node, fingerprints, state)
        CHECKPOINTS.move_to_end(id(node))
        while len(CHECKPOINTS) > CHECKPOINTS_KEPT:
            CHECKPOINTS.popitem(last=False)


def known(node: ConsLog) -> Checkpoint | None:
    """The checkpoint kept at ``node`` (this very node), if any."""
    with CHECKPOINTS_LOCK:
        found = CHECKPOINTS.get(id(node))
        if found is None or found.node is not node:
            return None
        CHECKPOINTS.move_to_end(id(node))
        return found


def checkpoint_fingerprints(state: State, actions: list[str], marks: list[ConsLog]) -> dict[str, str]:
    """The fingerprints of ``state``'s game at every :data:`FINGERPRINT_EVERY` chosen actions:
    read from the copies the state kept; those it lacks are worked out by replaying."""
    last = len(actions) - len(actions) % FINGERPRINT_EVERY
    plies = range(FINGERPRINT_EVERY, last + 1, FINGERPRINT_EVERY)
    copies_by_ply = kept_copies(state)
    nodes = [kept_at(copies_by_ply.get(ply), marks[ply - 1], ply) for ply in plies]
    missing = [ply for ply, node in zip(plies, nodes, strict=True) if node is None]
    # the copies still kept, to replay from (read first: a fingerprint worked out lets its copy go)
    copies = {} if not missing else {n.ply: n.state for n in nodes if n is not None and n.state is not None}
    fingerprints = {str(n.ply): n.fingerprint() for n in nodes if n is not None}
    if not missing:
        return fingerprints
    replay_missing(state, actions, marks, fingerprints, missing, copies)
    return ordered(fingerprints, last)


def kept_copies(state: State) -> dict[int, Kept]:
    """The copies ``state`` keeps for records (:class:`Kept`), by their count of chosen
    actions."""
    found: dict[int, Kept] = {}
    kept = kept_of(state)
    while kept is not None:
        found[kept.ply] = kept
        kept = kept.previous
    return found


def kept_at(kept: Kept | None, node: ConsLog, ply: int) -> Kept | None:
    """``kept`` if it is a copy made at log ``node`` (this very node) after ``ply`` chosen
    actions: the state's log then went through ``node``, and the copy is of that state."""
    if kept is not None and kept.node is node and kept.ply == ply:
        return kept
    return None


def replay_missing(
    state: State,
    actions: list[str],
    marks: list[ConsLog],
    fingerprints: dict[str, str],
    missing: list[int],
    copies: dict[int, State],
) -> None:
    """Add to ``fingerprints`` those at the ``missing`` plies (ascending): remembered in
    :data:`CHECKPOINTS`, the state's own if it is at the last of them, the others by replaying
    from the newest state known before them (one of the log's ``copies`` by ply, one remembered,
    or the initial state). The state at the last of them is remembered."""
    top = missing[-1]
    for ply in range(top, 0, -FINGERPRINT_EVERY):
        found = known(marks[ply - 1])
        if found is not None:
            for key, value in found.fingerprints.items():
                fingerprints.setdefault(key, value)
            missing = [p for p in missing if p > ply]
            break
    if not missing:
        return
    at_state = missing[-1] == len(actions)
    if at_state:  # the state itself is at the last one
        fingerprints[str(top)] = state.fingerprint()
        missing = missing[:-1]
    replayed: State | None = None
    if missing:
        start, base = 0, None
        for ply in range(missing[0] - FINGERPRINT_EVERY, 0, -FINGERPRINT_EVERY):
            base = copies.get(ply) or getattr(known(marks[ply - 1]), "state", None)
            if base is not None:
                start = ply
                break
        replayed = state.game.new_initial_state() if base is None else base.clone()
        wanted = set(missing)
        for i in range(start, missing[-1]):
            replayed.apply(actions[i])
            if i + 1 in wanted:
                fingerprints[str(i + 1)] = replayed.fingerprint()
    remember(
        marks[top - 1], ordered(fingerprints, top), replayed if replayed and not at_state else state.clone()
    )


def ordered(fingerprints: dict[str, str], upto: int) -> dict[str, str]:
    """``fingerprints`` up to ply ``upto``, in ply order (as a record lists them)."""
    return {str(p): fingerprints[str(p)] for p in range(FINGERPRINT_EVERY, upto + 1, FINGERPRINT_EVERY)}


def redacted_copy(rec: dict[str, Any], actions: list[str], viewer: Any) -> dict[str, Any]:
    """``rec`` with its actions replaced by ``actions`` as ``viewer`` saw them.

    Fingerprints go: they belong to the full record, and a redacted one cannot be replayed.
    """
    out = dict(rec)
    out["actions"] = actions
    out["redacted_for"] = viewer
    out.pop("fingerprints", None)
    out.pop("final_fingerprint", None)
    return out


def load_game_of(rec: dict[str, Any]):  # type: ignore[no-untyped-def]
    if rec.get("format") != FORMAT:
        raise ValueError(f"not a Ziggurat record (format {rec.get('format')!r})")
    options = game_class(rec["game"]).recorded_options(rec.get("options", {}))
    return load(rec["game"], players=rec["num_players"], **options)


def play_forced(state: State) -> None:
    """Play every decision that has one legal action, as the engine did by itself before it
    asked the decisions forced only by a secret (to replay records written then)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) != 1:
            return
        state.apply(legal[0])


LEGACY_FORCED_STEPS = 8
"""How many once-automatic decisions :func:`apply_recorded` plays before one recorded action."""


def apply_recorded(state: State, text: str) -> None:
    """Apply ``text``, an action read from a record or a stored table.

    Like ``state.apply``, but a record written before a decision became one the seat is asked
    (a decision forced only by a secret is asked since the games keep secrets that way; the
    engine used to play it by itself, so the record does not hold it) still replays: when
    ``text`` is refused and the decision now has exactly one legal action, that action is played
    first, as the engine then did, and ``text`` is tried again. A refused ``text`` leaves the
    state unchanged.

    :raises ZigguratError: the engine's refusal of ``text``.
    """
    try:
        state.apply(text)
        return
    except IllegalAction as refusal:
        trial = state.clone()
        forced: list[str] = []
        while len(forced) < LEGACY_FORCED_STEPS and not trial.is_terminal():
            legal = trial.legal_actions()
            if len(legal) != 1 or legal[0] == text:
                raise refusal from None
            forced.append(legal[0])
            trial.apply(legal[0])
            try:
                trial.apply(text)
            except IllegalAction:
                continue
            for action in forced:
                state.apply(action)
            state.apply(text)
            return
        raise refusal from None


def replay(rec: dict[str, Any], upto: int | None = None) -> State:
    """The state after replaying ``rec`` (its first ``upto`` actions if given).

    The fingerprints checked on the way are those of the states the replayed game keeps in its
    log, so recording it later works none of them out again.

    :raises ValueError: if the record is malformed or an action is refused, naming the ply.
    """
    game = load_game_of(rec)
    state = game.new_initial_state()
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    checks = rec.get("fingerprints", {})
    if rec.get("forced") != FORCED_ASKED:
        return replay_legacy(state, actions, checks)
    seen: dict[str, str] = {}
    done = 0
    for ply in sorted(
        int(k) for k in checks if k.isdigit() and k == str(int(k)) and 0 < int(k) <= len(actions)
    ):
        apply_all(state, actions, done, ply)
        done = ply
        node = kept_at(kept_of(state), state.log, ply)
        if (state.fingerprint() if node is None else node.fingerprint()) != checks[str(ply)]:
            raise ValueError(f"record diverges at action {ply}: fingerprint mismatch")
        seen[str(ply)] = checks[str(ply)]
    if (
        done
        and kept_at(kept_of(state), state.log, done) is None  # no copy kept (some other code wrote the log)
        and set(seen) == {str(p) for p in range(FINGERPRINT_EVERY, done + 1, FINGERPRINT_EVERY)}
    ):
        remember(state.log, seen, state.clone())
    apply_all(state, actions, done, len(actions))
    return state


def apply_all(state: State, actions: list[str], start: int, stop: int) -> None:
    """Apply ``actions[start:stop]``; a refusal names its ply (counted from 1)."""
    apply = state.apply
    i = start
    try:
        for i in range(start, stop):
            apply(actions[i])
    except ZigguratError as exc:
        raise ValueError(f"record action {i + 1} ({actions[i]!r}) refused: {exc}") from exc


def replay_legacy(state: State, actions: list[str], checks: dict[str, str]) -> State:
    """Replay a record written before decisions forced only by a secret were asked: every
    decision with one legal action is played by the engine, as it then was."""
    play_forced(state)
    for i, text in enumerate(actions, start=1):
        try:
            state.apply(text)
        except ZigguratError as exc:
            raise ValueError(f"record action {i} ({text!r}) refused: {exc}") from exc
        play_forced(state)
        want = checks.get(str(i))
        if want is not None and state.fingerprint() != want:
            raise ValueError(f"record diverges at action {i}: fingerprint mismatch")
    return state
