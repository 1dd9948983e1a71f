"""A table's time control (docs/server.md, "Time controls"): none, real-time or turn-based.

- **real-time**: each player has a ``budget`` of seconds for the whole game, and ``increment``
  seconds are added after each of their decisions (e.g. 15 min + 20 s);
- **turn-based**: each turn (a seat's run of decisions) may take at most ``per_turn`` seconds
  (e.g. 24 hours);

and for both, ``grace`` seconds after a clock runs out, a bot of level ``takeover`` plays the seat
until its player takes it back. A table without a clock (the default, for friends) stores
``None``. The clocks themselves are kept by the server (``seat_clocks``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

KINDS = ("none", "realtime", "turn_based")
DEFAULT_GRACE = 15.0
DEFAULT_TAKEOVER = "easy"
MAX_BUDGET = 7 * 24 * 3600.0
MAX_INCREMENT = 24 * 3600.0
MAX_PER_TURN = 30 * 24 * 3600.0
MAX_GRACE = 24 * 3600.0


class TimeControlIn(BaseModel):
    """The time control asked for when a table is created."""

    kind: Literal["none", "realtime", "turn_based"] = Field(
        default="none",
        description="none (no clock), realtime (budget + increment) or turn_based (time per turn)",
    )
    budget: float | None = Field(
        default=None, gt=0, le=MAX_BUDGET, description="realtime: seconds each player has for the game"
    )
    increment: float = Field(
        default=0.0, ge=0, le=MAX_INCREMENT, description="realtime: seconds added after each decision"
    )
    per_turn: float | None = Field(
        default=None, gt=0, le=MAX_PER_TURN, description="turn_based: seconds a player has for each turn"
    )
    grace: float = Field(
        default=DEFAULT_GRACE,
        ge=0,
        le=MAX_GRACE,
        description="seconds after a clock ran out before a bot takes the seat over",
    )
    takeover: str = Field(
        default=DEFAULT_TAKEOVER,
        max_length=32,
        description="the bot level that plays a seat whose clock ran out",
    )


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's clock rules (``None`` stands for no clock); see the module docstring."""

    kind: Literal["realtime", "turn_based"]
    budget: float = 0.0
    increment: float = 0.0
    per_turn: float = 0.0
    grace: float = DEFAULT_GRACE
    takeover: str = DEFAULT_TAKEOVER

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.kind == "realtime":
            del data["per_turn"]
        else:
            del data["budget"], data["increment"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl | None:
        """The stored form back (``None`` for no clock)."""
        if not data or data.get("kind", "none") == "none":
            return None
        return cls(
            kind=data["kind"],
            budget=float(data.get("budget", 0.0)),
            increment=float(data.get("increment", 0.0)),
            per_turn=float(data.get("per_turn", 0.0)),
            grace=float(data.get("grace", DEFAULT_GRACE)),
            takeover=str(data.get("takeover", DEFAULT_TAKEOVER)),
        )

    @property
    def turn_based(self) -> bool:
        return self.kind == "turn_based"

    def describe(self) -> str:
        """``15 min + 20 s`` or ``24 h per turn``."""
        if self.kind == "realtime":
            text = duration(self.budget)
            return f"{text} + {duration(self.increment)}" if self.increment else text
        return f"{duration(self.per_turn)} per turn"


def duration(seconds: float) -> str:
    """``90`` -> ``1 min 30 s``; ``86400`` -> ``1 d``; whole units only, largest first."""
    left = round(seconds)
    if left <= 0:
        return "0 s"
    parts = []
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min"), (1, "s")):
        if left >= size:
            parts.append(f"{left // size} {unit}")
            left %= size
    return " ".join(parts)


def parse(spec: TimeControlIn | None, bots: list[str]) -> TimeControl | None:
    """The time control asked for, checked against the game's bot levels (``bots``).

    :raises ValueError: naming what is missing or wrong (a real-time clock without a budget, a
        turn-based one without a time per turn, an unknown takeover level).
    """
    if spec is None or spec.kind == "none":
        return None
    if spec.takeover not in bots:
        raise ValueError(
            f"time_control.takeover: unknown bot level {spec.takeover!r}; available: {', '.join(bots)}"
        )
    if spec.kind == "realtime":
        if spec.budget is None:
            raise ValueError("time_control: a real-time clock needs a budget (seconds per player)")
        if spec.per_turn is not None:
            raise ValueError(
                "time_control: per_turn is for turn-based clocks; a real-time clock has a budget"
            )
        return TimeControl(
            "realtime", budget=spec.budget, increment=spec.increment, grace=spec.grace, takeover=spec.takeover
        )
    if spec.per_turn is None:
        raise ValueError("time_control: a turn-based clock needs per_turn (seconds per turn)")
    if spec.budget is not None or spec.increment:
        raise ValueError(
            "time_control: budget and increment are for real-time clocks; a turn-based one has per_turn"
        )
    return TimeControl("turn_based", per_turn=spec.per_turn, grace=spec.grace, takeover=spec.takeover)
