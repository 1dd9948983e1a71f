"""Game records (``ziggurat-record/1``): ``record(state)`` and ``replay(record)``."""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.engine.errors import IllegalAction, ZigguratError
from ziggurat.engine.registry import game_class, load

FORMAT = "ziggurat-record/1"
FINGERPRINT_EVERY = 50
FORCED_ASKED = "asked"
"""A record's ``forced`` field: a decision forced only by a secret is one of its actions (the
seat is asked it). Records without the field were written when the engine played every
decision with one legal action by itself; :func:`replay` replays them that way."""


def record(state: State, seed: int | None = None, players: list[str] | None = None) -> dict[str, Any]:
    """A JSON record of the game so far: options, actions and result."""
    game = state.game
    actions = state.history()
    fingerprints: dict[str, str] = {}
    if FINGERPRINT_EVERY and len(actions) >= FINGERPRINT_EVERY:
        # Replaying once to stamp checkpoints lets a reader detect a divergent engine early.
        replayed = game.new_initial_state()
        for i, text in enumerate(actions, start=1):
            replayed.apply(text)
            if i % FINGERPRINT_EVERY == 0:
                fingerprints[str(i)] = replayed.fingerprint()
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

    :raises ValueError: if the record is malformed or an action is refused, naming the ply.
    """
    game = load_game_of(rec)
    state = game.new_initial_state()
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    checks = rec.get("fingerprints", {})
    legacy = rec.get("forced") != FORCED_ASKED
    if legacy:
        play_forced(state)
    for i, text in enumerate(actions, start=1):
        try:
            state.apply(text)
        except ZigguratError as exc:
            raise ValueError(f"record action {i} ({text!r}) refused: {exc}") from exc
        if legacy:
            play_forced(state)
        want = checks.get(str(i))
        if want is not None and state.fingerprint() != want:
            raise ValueError(f"record diverges at action {i}: fingerprint mismatch")
    return state
