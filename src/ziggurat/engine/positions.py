"""Shared helpers for validating positions on load (each game's ``schema`` module), and the
seeded corruption of positions that the loaders' property tests and
``benchmarks/position_fuzz.py`` use.

A game's position is checked in two steps: its pydantic model (types, required fields, enum
values, bounds), then the game's semantic checks (what the rules make impossible). Both raise
:class:`~ziggurat.engine.errors.InvalidPosition` with a message naming the field and, where
there is one, the rule, e.g. ``mesopotamia position: players.0.tribes: a tribe on the volcano
at [2, -1] (M2.4)``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, ValidationError

from ziggurat.engine.errors import InvalidPosition

STRICT = ConfigDict(extra="forbid", frozen=True)
"""Model configuration for positions: no unknown keys. Scalars are declared with pydantic's
``Strict*`` types, so nothing is coerced (``"3"`` is not 3, ``true`` is not 1) and a mistyped
field is refused rather than read as something else; JSON arrays still fill tuples."""


class PositionModel(BaseModel):
    """Base of every position model: strict, closed, immutable."""

    model_config = STRICT


def field_name(loc: tuple[int | str, ...] | list[Any]) -> str:
    """``("players", 1, "mana")`` -> ``players.1.mana``."""
    return ".".join(str(x) for x in loc) or "(position)"


def check_schema(model: type[BaseModel], position: Any, what: str) -> None:
    """Validate ``position`` against ``model``.

    :raises InvalidPosition: naming the first field that does not fit.
    """
    if not isinstance(position, dict):
        raise InvalidPosition(f"{what} position must be a JSON object, not {type(position).__name__}")
    try:
        model.model_validate(position)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        loc = [x for x in err["loc"] if not (isinstance(x, str) and x.startswith(("function-", "tagged-")))]
        msg = err["msg"]
        value = err.get("input")
        shown = "" if isinstance(value, dict | list) else f" (got {value!r})"
        raise InvalidPosition(f"{what} position: {field_name(loc)}: {msg}{shown}") from None


class Refusal:
    """Collects the first semantic fault of a position and raises it, naming field and rule."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __call__(self, field: str, reason: str, rule: str | None = None) -> NoReturn:
        suffix = f" ({rule})" if rule else ""
        raise InvalidPosition(f"{self.what} position: {field}: {reason}{suffix}")


# --- corrupted positions, for the loaders' property tests --------------------------------

Path = tuple[int | str, ...]
_WRONG_KINDS: tuple[Any, ...] = (None, "x", 1.5, True, False, [], {}, -1, 0, 10**9, "")


def _paths(node: Any, path: Path, out: list[Path]) -> None:
    out.append(path)
    if isinstance(node, dict):
        for k, v in node.items():
            _paths(v, (*path, k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _paths(v, (*path, i), out)


def _get(node: Any, path: Path) -> Any:
    for k in path:
        node = node[k]
    return node


def _replace(node: Any, path: Path, change: Any) -> Any:
    """A copy of ``node`` with ``change(parent, key)`` applied at ``path``: only the containers
    along the path are copied (so a corruption costs little whatever the position's size)."""
    copy: Any = dict(node) if isinstance(node, dict) else list(node)
    if len(path) == 1:
        change(copy, path[0])
    else:
        copy[path[0]] = _replace(node[path[0]], path[1:], change)
    return copy


def corrupt(position: dict[str, Any], rng: Any) -> tuple[str, dict[str, Any]]:
    """One random corruption of ``position`` and what it did: a field deleted, a value of the
    wrong kind, an integer out of range or off by a little, a string or a list element taken
    from elsewhere in the position (a piece moved or renamed), a list element duplicated or
    removed, an unknown key. The result always differs from ``position``, which is left
    unchanged."""
    paths: list[Path] = []
    _paths(position, (), paths)
    while True:
        what, changed = _corrupt_once(position, paths, rng)
        if changed != position:
            return what, changed


def _corrupt_once(position: dict[str, Any], paths: list[Path], rng: Any) -> tuple[str, dict[str, Any]]:
    path = paths[rng.randrange(1, len(paths))]
    value = _get(position, path)
    parent = _get(position, path[:-1])
    roll = rng.random()
    if roll < 0.12:
        if isinstance(parent, dict):
            return f"delete {path}", _replace(position, path, lambda p, k: p.pop(k))
        return f"remove {path}", _replace(position, path, lambda p, k: p.pop(k))
    if roll < 0.24:
        wrong = rng.choice(_WRONG_KINDS)
        return f"{path} = {wrong!r}", _replace(position, path, lambda p, k: p.__setitem__(k, wrong))
    if roll < 0.5 and isinstance(value, int) and not isinstance(value, bool):
        new = rng.choice((value + 1, value - 1, value + rng.randint(2, 9), -value - 1, rng.randint(0, 60)))
        return f"{path} = {new}", _replace(position, path, lambda p, k: p.__setitem__(k, new))
    if roll < 0.5 and isinstance(value, bool):
        return f"{path} flipped", _replace(position, path, lambda p, k: p.__setitem__(k, not value))
    if roll < 0.7:
        donors = [q for q in paths if q and type(_get(position, q)) is type(value) and q != path]
        if donors:
            other = _get(position, rng.choice(donors))
            return f"{path} = {other!r}", _replace(position, path, lambda p, k: p.__setitem__(k, other))
    if roll < 0.85 and isinstance(parent, list):
        return f"duplicate {path}", _replace(position, path, lambda p, k: p.insert(k, p[k]))
    if isinstance(value, dict):
        return f"{path} gains a key", _replace(
            position, path, lambda p, k: p.__setitem__(k, {**p[k], "x": 1})
        )
    if isinstance(parent, dict):
        names = [v for v in (_get(position, q) for q in paths) if isinstance(v, str)] or ["x"]
        name = rng.choice(names)
        return f"{path} renamed {name!r}", _replace(
            position, path, lambda p, k: p.__setitem__(name, p.pop(k))
        )
    return f"remove {path}", _replace(position, path, lambda p, k: p.pop(k))


def seeded_positions(game: Any, seeds: range, plies: int, every: int) -> list[dict[str, Any]]:
    """Positions of seeded random games (one every ``every`` plies, and the last), to corrupt."""
    import random

    out = []
    for seed in seeds:
        state = game.new_initial_state()
        rng = random.Random(seed)
        for start in range(0, plies, every):
            if state.is_terminal():
                break
            out.append(state.to_position())
            play_random(state, min(every, plies - start), rng)
        out.append(state.to_position())
    return out


def play_random(state: Any, plies: int, rng: Any) -> int:
    """Play up to ``plies`` seeded random plies from ``state`` (chance by its probabilities);
    returns how many were played (fewer if the game ends)."""
    from ziggurat.engine.contract import CHANCE, sample_chance

    for ply in range(plies):
        if state.is_terminal():
            return ply
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return plies


@dataclass
class FuzzTally:
    """What :func:`fuzz_loading` did: positions tried, rejected with a ``ValueError``, accepted,
    and accepted then played without error."""

    tried: int = 0
    rejected: int = 0
    accepted: int = 0
    played: int = 0
    reasons: Counter[str] = field(default_factory=Counter)


def fuzz_loading(
    game: Any, positions: list[dict[str, Any]], count: int, seed: int, plies: int = 200
) -> FuzzTally:
    """Load ``count`` corrupted copies of ``positions`` (:func:`corrupt`, seeded); a refusal
    must be a ``ValueError`` (anything else propagates), and every accepted position must play
    ``plies`` seeded random plies. ``reasons`` counts the refusals by field (indices as N)."""
    import random

    rng = random.Random(seed)
    tally = FuzzTally()
    for i in range(count):
        _, position = corrupt(positions[rng.randrange(len(positions))], rng)
        tally.tried += 1
        try:
            state = game.state_from_position(position)
        except ValueError as exc:
            tally.rejected += 1
            field = str(exc).split(": ")[1] if str(exc).count(": ") > 1 else "(position)"
            tally.reasons[re.sub(r"\.\d+", ".N", field.split(" ")[0])] += 1
            continue
        tally.accepted += 1
        play_random(state, plies, random.Random(seed * 1_000_003 + i))
        tally.played += 1
    return tally
