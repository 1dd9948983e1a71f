"""Game records (``ziggurat-record/1``): ``record(state)`` and ``replay(record)``."""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.engine.errors import ZigguratError
from ziggurat.engine.registry import load

FORMAT = "ziggurat-record/1"
FINGERPRINT_EVERY = 50


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
    return load(rec["game"], players=rec["num_players"], **rec.get("options", {}))


def replay(rec: dict[str, Any], upto: int | None = None) -> State:
    """The state after replaying ``rec`` (its first ``upto`` actions if given).

    :raises ValueError: if the record is malformed or an action is refused, naming the ply.
    """
    game = load_game_of(rec)
    state = game.new_initial_state()
    actions = rec["actions"] if upto is None else rec["actions"][:upto]
    checks = rec.get("fingerprints", {})
    for i, text in enumerate(actions, start=1):
        try:
            state.apply(text)
        except ZigguratError as exc:
            raise ValueError(f"record action {i} ({text!r}) refused: {exc}") from exc
        want = checks.get(str(i))
        if want is not None and state.fingerprint() != want:
            raise ValueError(f"record diverges at action {i}: fingerprint mismatch")
    return state
