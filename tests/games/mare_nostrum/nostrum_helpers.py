"""Helpers for the Mare Nostrum: Empires rules tests (spec ``docs/rules/mare-nostrum.md``).

Situations are positions: a game is set up with forced chance outcomes (empires in seat order,
a known display), then the position dict is edited (resources, pieces, the phase under way)
and loaded with ``state_from_position``. Seats: 0 Rome, 1 Greece, 2 Carthage, 3 Egypt,
4 Babylon unless a test says otherwise.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import ziggurat
from ziggurat.games.mare_nostrum import MareNostrumGame

ROME, GREECE, CARTHAGE, EGYPT, BABYLON = 0, 1, 2, 3, 4
EMPIRES = ["rome", "greece", "carthage", "egypt", "babylon"]
DISPLAY = ["hercules", "antigone", "spartacus", "colossus", "lighthouse"]


def new(n: int = 3, display: list[str] | None = None, **options: Any) -> Any:
    """A game after set-up (round 1, the Trade leader choosing a token)."""
    game = MareNostrumGame(n, dict(options))
    state = game.new_initial_state()
    state.apply("empires " + ",".join(EMPIRES[:n]))
    for tile in display or DISPLAY:
        state.apply(f"reveal {tile}")
    return state


def pos(state: Any) -> dict[str, Any]:
    return state.to_position()


def load(state: Any, position: dict[str, Any]) -> Any:
    """Load a hand-set situation: every check but the bookkeeping only play keeps in step
    (tile places, phase records, the declared invariants), which such situations skip."""
    from ziggurat.games.mare_nostrum.position import load_position

    return load_position(state.game, position, strict=False)


def buy_turn(state: Any, seat: int, done: list[int] | None = None, **changes: Any) -> Any:
    """``seat`` starts his buy turn; ``done`` have bought already (default: everyone else)."""
    p = pos(state)
    p.update(trade=None, stage="buy_turn", round=max(p["round"], 1))
    p["buy"] = {
        "done": [s for s in range(p["n"]) if s != seat] if done is None else done,
        "active": seat,
        "first": [],
        "paying": None,
        "free_used": [],
        "perseus": [],
    }
    p.update(changes)
    return load(state, p)


def mil_turn(
    state: Any, seat: int, stage: str = "mil_row", done: list[int] | None = None, **changes: Any
) -> Any:
    """``seat``'s Military turn at ``stage``; ``done`` have acted (default: everyone else)."""
    p = pos(state)
    p.update(trade=None, buy=None, stage=stage)
    others = [s for s in range(p["n"]) if s != seat] if done is None else done
    p["mil"] = {"done": others, "active": seat, "arrived": {}, "fought": [], "zeus_q": [], "circe_used": []}
    p.update(changes)
    return load(state, p)


def conserved(state: Any) -> None:
    assert state.game.invariants(state) == []


def refuse(state: Any, action: str, *rules: str, exc: type[Exception] = ziggurat.IllegalAction) -> str:
    """``action`` is refused with ``exc``, the message names every rule, and nothing changes."""
    before = state.fingerprint()
    legal = list(state.legal_actions())
    history = state.history()
    assert action not in legal
    with pytest.raises(exc) as info:
        state.apply(action)
    message = str(info.value)
    for rule in rules:
        assert re.search(re.escape(rule) + r"(?![\d.]*\d)", message), f"{rule} not named in {message!r}"
    assert state.fingerprint() == before
    assert list(state.legal_actions()) == legal
    assert state.history() == history
    return message


def play(state: Any, *actions: str) -> Any:
    for a in actions:
        state.apply(a)
    return state


def buy(state: Any, item: str, *tokens: str) -> Any:
    """Buy ``item`` paying ``tokens`` (N0.8). Forced payment steps are applied by the engine,
    so tokens are only sent while the payment is still under way; the payment is then checked."""
    state.apply(item)
    for tok in tokens:
        if state.d["buy"] is None or state.d["buy"]["paying"] is None:
            break
        state.apply(f"pay {tok}")
    assert sorted(state.d["last_payment"]["paid"]) == sorted(tokens)
    return state


def steps(state: Any, *actions: str) -> Any:
    """Play ``actions`` in order; an action the engine already applied as a forced (auto)
    decision right after the previous one is checked in the event log instead of sent."""
    mark = len(state.events())
    for a in actions:
        evs = state.events()
        if mark < len(evs) and evs[mark][1] == a and evs[mark][2]:
            mark += 1
            continue
        start = len(evs)
        state.apply(a)
        mark = start + 1
    return state


def finish_military(state: Any) -> Any:
    """End the Military turn under way and every later one with ``done`` (N4.2)."""
    while state.d["stage"].startswith("mil_"):
        state.apply("done")
    return state
