"""The luck of a search's iterations: one random stream per iteration, and one per chance
event the game names, so that the candidates of a paired round meet the same luck.

:class:`Luck` derives from ``random.Random``, which a compiled class cannot: it lives here, in
a module the compiled build leaves to plain Python, while the search that makes and reads it
(:mod:`.search`) may be compiled; the draws of named events are made in :mod:`.draws`, which
may be compiled too.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ziggurat.bots.draws import keyed_draw, seed_stream, stream_seed


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
        an event's outcome reads (``engine.state.chance_at``), kept for the other candidates of
        the round (:func:`.draws.keyed_draw`, which the search calls directly)."""
        return keyed_draw(self.counts, self.base, key)

    def _stream(self, name: tuple[int, Hashable, int]) -> random.Random:
        """The generator seeded for the event ``name`` (the round's seed, the event's name and
        how many events of that name came before it)."""
        event = self._event
        if event is None:
            event = self._event = random.Random(0)
        seed_stream(event, stream_seed(name))
        event.gauss_next = None  # type: ignore[attr-defined]
        return event


__all__ = ["Luck"]
