"""The draws of the chance events a game names, for a search's luck (:class:`.luck.Luck`).

An event's luck is the stream ``random.Random(text)`` seeds for its text: the round's seed,
the event's name and how many events of that name came before it in the iteration. Most of
what the search asks of it is the stream's first draw (:func:`keyed_draw`), which the
candidates of a paired round ask again and again: it is kept. This module is compiled in the
compiled build (``engine.build.COMPILED``), while :mod:`.luck`, whose ``Luck`` derives from
``random.Random``, stays Python: the search calls :func:`keyed_draw` here directly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from hashlib import sha512
from typing import Any, Final

SEEDS: Final = 4096
"""Event seeds and draws kept (then afresh): the candidates of a paired round share the
round's seed, so each meets the same named events and their seeds again. An event is looked
up by its round's seed, its name and its count; the games' names are tuples of texts and
integers, so equal names are written alike."""

_SEEDS: Final[dict[tuple[Any, ...], int]] = {}
"""The seed of each event's stream (:func:`stream_seed`), by (round's seed, name, count)."""

_DRAWS: Final[dict[tuple[Any, ...], float]] = {}
"""The first draw of each event's stream (:func:`keyed_draw`), by the same names."""

_SHOWN: Final[dict[Hashable, str]] = {}
"""``repr`` of each event name :func:`seed_of` has met: a search meets a few hundred names,
each in round after round (with another round's seed), and writing one out costs more than
looking it up."""

_seed_generator: Final[Callable[[random.Random, int], None]] = random.Random.__mro__[1].seed  # type: ignore[attr-defined]
"""The generator's own seeding (``_random.Random.seed``) of an integer, which
``random.Random.seed`` calls once it has made its argument one."""

_EVENT: Final = random.Random(0)
"""The generator :func:`keyed_draw` seeds for each new event and draws from once."""


def seed_of(name: tuple[Any, ...]) -> int:
    """The integer ``random.Random(text)`` seeds its generator with (version 2 seeding of a
    text) for the event ``name``'s text (the round's seed, the event's name, its count): the
    same stream, without the Python-level ``seed()`` and the generator's own making."""
    base: int = name[0]
    key: Hashable = name[1]
    n: int = name[2]
    shown = _SHOWN.get(key)
    if shown is None:
        if len(_SHOWN) >= SEEDS:
            _SHOWN.clear()
        shown = _SHOWN[key] = repr(key)
    text = f"{base}/{shown}/{n}".encode()
    return int.from_bytes(text + sha512(text).digest(), "big")


def stream_seed(name: tuple[Any, ...]) -> int:
    """:func:`seed_of`, kept (:data:`SEEDS` of them) for the streams ``Luck.keyed`` gives."""
    seed = _SEEDS.get(name)
    if seed is None:
        seed = seed_of(name)
        if len(_SEEDS) >= SEEDS:
            _SEEDS.clear()
        _SEEDS[name] = seed
    return seed


def seed_stream(generator: random.Random, seed: int) -> None:
    """Seed ``generator`` as ``random.Random`` seeds itself for a text whose integer is
    ``seed`` (:func:`seed_of`)."""
    _seed_generator(generator, seed)


def keyed_draw(counts: dict[Hashable, int], base: int, key: Hashable) -> float:
    """The first draw of the stream of the next event named ``key`` in an iteration whose
    round's seed is ``base`` and whose events of each name so far are ``counts`` (counted
    here): all an event's outcome reads (``engine.state.chance_at``). The candidates of a
    paired round meet the same events, so each draw is kept rather than drawn again from a
    generator seeded anew."""
    n = counts.get(key, 0)
    counts[key] = n + 1
    name = (base, key, n)
    r = _DRAWS.get(name)
    if r is not None:
        return r
    # a new event (some two in five of a search's): seeded without keeping the seed, which
    # no later call asks for once the draw is kept
    _seed_generator(_EVENT, seed_of(name))
    got: float = _EVENT.random()
    if len(_DRAWS) >= SEEDS:
        _DRAWS.clear()
    _DRAWS[name] = got
    return got


__all__ = ["SEEDS", "keyed_draw", "seed_of", "seed_stream", "stream_seed"]
