"""Bot specs: the text that names a bot everywhere one is chosen (CLI, server, arena).

```
random
heuristic
ismcts[:BUDGET][:OPTION=VALUE]...
```

``BUDGET`` is a time per decision (``1s``, ``0.5s``, ``250ms``) or a number of iterations
(``2000``); plain ``ismcts`` is ``ismcts:1s``. Options (any order, after or instead of the
budget):

- ``workers=N``: root parallelism over N processes, each searching its own tree with the
  full budget (default 1: no process pool);
- ``c=X``: the UCT exploration constant, on values normalised per node (default: the game's
  ``evaluate.SEARCH_DEFAULTS``, else :data:`DEFAULT_C`);
- ``rollout=heuristic|random``: the playout policy below the tree (default ``heuristic``,
  ``random`` for a game without a heuristic bot);
- ``plies=N``: playout decisions before the cut-off, after which the phase under way is
  played to its end (default: the game's, else :data:`DEFAULT_PLIES`);
- ``root=uct|paired``: how the root's actions share the iterations. ``uct`` selects them by
  UCT like every other node; ``paired`` plays a few candidates (the playout policy's own
  move and the best others one ply on) in rounds, all of a round in the same sampled world
  with the same luck, and keeps the policy's move unless another beats it on the paired
  differences (default: the game's, else ``uct``; see :mod:`ziggurat.bots.search`);
- ``width=K``: the candidates of a ``paired`` root (default: the game's, else
  :data:`DEFAULT_WIDTH`);
- ``confidence=X``: standard errors by which another action must beat the playout policy's
  own move before the bot leaves it (default: the game's, else 0 for a UCT root);
- ``depth=N``: decisions below the root where the tree may grow; deeper, the playout policy
  plays (default: the game's, else unlimited; ``depth=1`` is a flat search of the root);
- ``plans=on|off``: whether a ``paired`` root also tries the game's plans (``bots.PLANS``:
  other heuristic bots, such as Mare Nostrum's raider), each as a candidate whose playouts
  follow that plan for the searching seat (default ``on``; a game without plans has none);
- ``own=NAME``: the playout policy of the searching seat's own decisions in every playout
  (the other seats keep the heuristic): ``heuristic``, or one of the game's other policies
  (``bots.POLICIES`` and ``bots.PLANS``, such as 2-player Epochs' ``successor``). Default: the
  game's, else ``heuristic``; a name the game does not have is refused when the bot is made;
  ignored with ``rollout=random``;
- ``chance=N``: when the root's actions are ranked one ply on (the candidates of a ``paired``
  root, the widening order of a UCT one), a move that sets off chance events (an attack's
  dice) is valued after them, averaged over N draws, instead of before its outcome (default:
  the game's, else 0: valued as it stands);
- ``sync=on|off``: common luck for the playouts of a round (default: the game's, else
  ``on``): where the game names its chance events (``evaluate.chance_key``: the n-th attack
  of a People on an area in an Epoch, the n-th card drawn in an Epoch), each one draws from
  a seed of its own, the round's seed and the event's name, so that the same event rolls the
  same after every root candidate even when the candidates' playouts drew other luck before
  it (``off``: one stream for all the round's luck, as before).

Examples: ``ismcts:0.5s``, ``ismcts:2000:workers=2``, ``ismcts:250ms:rollout=random:plies=20``,
``ismcts:1s:root=paired:width=5:depth=1``, ``ismcts:1s:plans=off``, ``ismcts:1s:chance=4``,
``ismcts:1s:sync=off``, ``ismcts:1s:own=heuristic``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_SECONDS = 1.0
DEFAULT_C = 0.5
DEFAULT_PLIES = 6
MAX_WORKERS = 64
MAX_SECONDS = 3600.0
ROLLOUTS = ("heuristic", "random")
ROOTS = ("uct", "paired")
SWITCHES = {"on": True, "off": False}
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
DEFAULT_WIDTH = 4
MAX_WIDTH = 64
MAX_CHANCE = 64

SPEC_HELP = (
    "random, heuristic, or ismcts[:BUDGET][:OPTION=VALUE...] with BUDGET a time per decision "
    "(1s, 0.5s, 250ms) or an iteration count (2000) and options workers=N, c=X, "
    "rollout=heuristic|random, plies=N, root=uct|paired, width=K, depth=N, confidence=X, plans=on|off, own=NAME, chance=N, sync=on|off"
)

_SECONDS = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)s$")
_MILLIS = re.compile(r"^(\d+)ms$")
_COUNT = re.compile(r"^\d+$")


@dataclass(frozen=True)
class ISMCTSConfig:
    """An ISMCTS bot's settings. Exactly one of ``seconds`` and ``iterations`` is set."""

    seconds: float | None = DEFAULT_SECONDS
    iterations: int | None = None
    workers: int = 1
    c: float | None = None  # None: the game's default (see ziggurat.bots.search)
    rollout: str = "heuristic"
    plies: int | None = None  # None: the game's default
    root: str | None = None  # uct or paired; None: the game's default
    width: int | None = None  # candidates of a paired root; None: the game's default
    depth: int | None = None  # decisions below the root where the tree grows; None: the game's
    confidence: float | None = None  # standard errors needed to leave the prior; None: the game's
    plans: bool = True  # a paired root also tries the game's plans (bots.PLANS)
    chance: int | None = None  # draws of a root move's chance events when ranking; None: the game's
    sync: bool | None = None  # keyed luck for the game's named chance events; None: the game's
    own: str | None = None  # the searching seat's playout policy; None: the game's

    def spec(self) -> str:
        """The canonical spec text (options at their default are left out)."""
        if self.iterations is not None:
            parts = ["ismcts", str(self.iterations)]
        else:
            secs = self.seconds if self.seconds is not None else DEFAULT_SECONDS
            parts = ["ismcts", f"{round(secs * 1000)}ms" if secs < 1 else f"{secs:g}s"]
        if self.workers != 1:
            parts.append(f"workers={self.workers}")
        if self.c is not None:
            parts.append(f"c={self.c:g}")
        if self.rollout != "heuristic":
            parts.append(f"rollout={self.rollout}")
        if self.plies is not None:
            parts.append(f"plies={self.plies}")
        if self.root is not None:
            parts.append(f"root={self.root}")
        if self.width is not None:
            parts.append(f"width={self.width}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.confidence is not None:
            parts.append(f"confidence={self.confidence:g}")
        if not self.plans:
            parts.append("plans=off")
        if self.chance is not None:
            parts.append(f"chance={self.chance}")
        if self.sync is not None:
            parts.append(f"sync={'on' if self.sync else 'off'}")
        if self.own is not None:
            parts.append(f"own={self.own}")
        return ":".join(parts)


def bot_kind(spec: str) -> str:
    """The kind a spec names: ``random``, ``heuristic`` or ``ismcts`` (not validated)."""
    return spec.strip().lower().split(":", 1)[0]


def parse_ismcts(spec: str) -> ISMCTSConfig:
    """The settings of an ``ismcts[...]`` spec.

    :raises ValueError: naming the part that is wrong and what would be right.
    """
    text = spec.strip().lower()
    parts = text.split(":")
    if parts[0] != "ismcts":
        raise ValueError(f"bad bot spec {spec!r}: not an ismcts spec")
    seconds: float | None = None
    iterations: int | None = None
    budget_seen = False
    options: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            raise ValueError(f"bad bot spec {spec!r}: empty part between ':'; {SPEC_HELP}")
        if "=" in part:
            key, _, value = part.partition("=")
            if key in options:
                raise ValueError(f"bad bot spec {spec!r}: option {key!r} given twice")
            options[key] = value
            continue
        if budget_seen:
            raise ValueError(f"bad bot spec {spec!r}: more than one budget ({part!r})")
        budget_seen = True
        if m := _MILLIS.match(part):
            seconds = int(m.group(1)) / 1000
        elif m := _SECONDS.match(part):
            seconds = float(m.group(1))
        elif _COUNT.match(part):
            iterations = int(part)
            if iterations < 1:
                raise ValueError(f"bad bot spec {spec!r}: the iteration budget must be at least 1")
        else:
            raise ValueError(
                f"bad bot spec {spec!r}: {part!r} is neither a budget (1s, 0.5s, 250ms, 2000) "
                "nor an option (workers=2, c=0.5, rollout=random, plies=6)"
            )
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(f"bad bot spec {spec!r}: the time budget must be above 0 and at most 1 hour")
    if not budget_seen:
        seconds = DEFAULT_SECONDS
    workers = 1
    c: float | None = None
    rollout = "heuristic"
    plies: int | None = None
    root: str | None = None
    width: int | None = None
    depth: int | None = None
    confidence: float | None = None
    plans = True
    chance: int | None = None
    sync: bool | None = None
    own: str | None = None
    for key, value in options.items():
        if key == "workers":
            workers = _int(spec, key, value, 1, MAX_WORKERS)
        elif key == "plies":
            plies = _int(spec, key, value, 0, 100_000)
        elif key == "c":
            c = _float(spec, key, value, 100.0)
        elif key == "confidence":
            confidence = _float(spec, key, value, 10.0)
        elif key == "rollout":
            if value not in ROLLOUTS:
                raise ValueError(f"bad bot spec {spec!r}: rollout must be heuristic or random, not {value!r}")
            rollout = value
        elif key == "root":
            if value not in ROOTS:
                raise ValueError(f"bad bot spec {spec!r}: root must be uct or paired, not {value!r}")
            root = value
        elif key == "width":
            width = _int(spec, key, value, 2, MAX_WIDTH)
        elif key == "depth":
            depth = _int(spec, key, value, 1, 100_000)
        elif key == "plans":
            if value not in SWITCHES:
                raise ValueError(f"bad bot spec {spec!r}: plans must be on or off, not {value!r}")
            plans = SWITCHES[value]
        elif key == "chance":
            chance = _int(spec, key, value, 0, MAX_CHANCE)
        elif key == "sync":
            if value not in SWITCHES:
                raise ValueError(f"bad bot spec {spec!r}: sync must be on or off, not {value!r}")
            sync = SWITCHES[value]
        elif key == "own":
            if not _NAME.match(value):
                raise ValueError(
                    f"bad bot spec {spec!r}: own must name a playout policy (heuristic, or one of "
                    f"the game's, such as successor), not {value!r}"
                )
            own = value
        else:
            raise ValueError(
                f"bad bot spec {spec!r}: unknown option {key!r}; options are workers, c, rollout, "
                "plies, root, width, depth, confidence, plans, own, chance, sync"
            )
    return ISMCTSConfig(
        seconds=seconds,
        iterations=iterations,
        workers=workers,
        c=c,
        rollout=rollout,
        plies=plies,
        root=root,
        width=width,
        depth=depth,
        confidence=confidence,
        plans=plans,
        chance=chance,
        sync=sync,
        own=own,
    )


def _float(spec: str, key: str, value: str, hi: float) -> float:
    try:
        x = float(value)
    except ValueError:
        x = -1.0
    if not 0 <= x <= hi:  # also refuses nan
        raise ValueError(f"bad bot spec {spec!r}: {key} must be a number from 0 to {hi:g}, not {value!r}")
    return x


def _int(spec: str, key: str, value: str, lo: int, hi: int) -> int:
    if not _COUNT.match(value) or not lo <= int(value) <= hi:
        raise ValueError(
            f"bad bot spec {spec!r}: {key} must be a whole number from {lo} to {hi}, not {value!r}"
        )
    return int(value)


def check_spec(spec: str) -> str:
    """``spec`` normalised (stripped, lower case) if it names a bot; else ``ValueError``."""
    text = spec.strip().lower()
    kind = bot_kind(text)
    if text in ("random", "heuristic"):
        return text
    if kind == "ismcts":
        parse_ismcts(text)
        return text
    raise ValueError(f"unknown bot {spec!r}; choose {SPEC_HELP}")


__all__ = ["ISMCTSConfig", "SPEC_HELP", "bot_kind", "check_spec", "parse_ismcts"]
