"""The luck of a search's iterations: one random stream per iteration, and one per chance
event the game names, so that the candidates of a paired round meet the same luck.

:class:`Luck` derives from ``random.Random``, which a compiled class cannot: it lives here, in
a module the compiled build leaves to plain Python, while the search that makes and reads it
(:mod:`.search`) may be compiled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from hashlib import sha512


class Luck(random.Random):
    """The luck of one iteration (one candidate of a paired round): a stream seeded by the
    round's seed for the playout policy's tie-breaks and for chance events without a name,
    and, for the events the game names (``evaluate.chance_key``, see :meth:`.search.Searcher._chance`),
    one draw each from a seed of its own: the round's seed, the event's name and how many
    events of that name came before it in this iteration. So the n-th attack of a People on
    an area, or the n-th card drawn in an Epoch, rolls the same after every candidate of a
    round even when their playouts drew other luck before it, and what is common to the
    candidates cancels out of their differences."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.base = seed
        self.counts: dict[Hashable, int] = {}
        self._event: random.Random | None = None  # the stream keyed() reseeds for each event

    def keyed(self, key: Hashable) -> random.Random:
        """The stream of the next event named ``key`` (from ``repr(key)``: stable from process
        to process, unlike ``hash``), valid until the next call: ``random.Random(text)`` for
        the text of the event, one generator reseeded for every event rather than one made
        for each (a playout draws hundreds of them)."""
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        return self._stream((self.base, key, n))

    def keyed_random(self, key: Hashable) -> float:
        """``keyed(key).random()``: the first draw of the next event named ``key``, which is all
        an event's outcome reads (``engine.state.chance_at``). The candidates of a paired
        round meet the same events, so each draw is kept (:data:`SEEDS` of them) rather than
        drawn again from a generator seeded anew."""
        counts = self.counts
        n = counts.get(key, 0)
        counts[key] = n + 1
        name = (self.base, key, n)
        r = _DRAWS.get(name)
        if r is not None:
            return r
        # a new event (some two in five of a search's): seeded without keeping the seed, which
        # no later call asks for once the draw is kept
        event = self._event
        if event is None:
            event = self._event = random.Random(0)
        _seed_generator(event, _seed_of(name))
        r = event.random()
        if len(_DRAWS) >= SEEDS:
            _DRAWS.clear()
        _DRAWS[name] = r
        return r

    def _stream(self, name: tuple[int, Hashable, int]) -> random.Random:
        """The generator seeded for the event ``name`` (the round's seed, the event's name and
        how many events of that name came before it)."""
        seed = _SEEDS.get(name)
        if seed is None:
            seed = _seed_of(name)
            if len(_SEEDS) >= SEEDS:
                _SEEDS.clear()
            _SEEDS[name] = seed
        event = self._event
        if event is None:
            event = self._event = random.Random(0)
        _seed_generator(event, seed)
        event.gauss_next = None  # type: ignore[attr-defined]
        return event


SEEDS = 4096
"""Event seeds :class:`Luck` keeps (then it starts afresh): the candidates of a paired round
share the round's seed, so each meets the same named events and their seeds again. An
event is looked up by its round's seed, its name and its count; the games' names are
tuples of texts and integers, so equal names are written alike."""

_SEEDS: dict[tuple[int, Hashable, int], int] = {}


def _seed_of(name: tuple[int, Hashable, int]) -> int:
    """The integer ``random.Random(text)`` seeds its generator with (version 2 seeding of a
    text) for the event ``name``'s text: the same stream, without the Python-level ``seed()``
    and the generator's own making."""
    base, key, n = name
    text = f"{base}/{key!r}/{n}".encode()
    return int.from_bytes(text + sha512(text).digest())


_DRAWS: dict[tuple[int, Hashable, int], float] = {}
"""The first draw of each event's stream (:meth:`Luck.keyed_random`), by the same names."""


_seed_generator: Callable[[random.Random, int], None] = random.Random.__mro__[1].seed  # type: ignore[attr-defined]
"""The generator's own seeding (``_random.Random.seed``) of an integer, which
``random.Random.seed`` calls once it has made its argument one."""


__all__ = ["Luck"]
