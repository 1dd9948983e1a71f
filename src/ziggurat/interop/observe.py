"""View encoders: a fixed-size float vector of everything a seat's view shows.

``encoder_for(game)`` gives a :class:`ViewEncoder` whose ``encode(view, seat)`` turns
``state.view(seat)`` into a flat ``float32`` array of length ``shape[0]``, the same length for
every state of the game configuration (game id, player count, options). It reads only the view
dict, so nothing a seat may not see can leak into its observation; what the view hides (another
seat's hand, an unrevealed card) is encoded as zeros, with an explicit "known" flag where that
matters.

>>> import ziggurat
>>> from ziggurat.interop.observe import encoder_for
>>> game = ziggurat.load("mesopotamia-epochs", players=3)
>>> state = game.new_initial_state()
>>> enc = encoder_for(game)
>>> enc.encode(state.view(0), 0).shape == enc.shape
True

The vector is a concatenation of named *fields* (``encoder.fields()`` lists name, offset,
shape); ``encoder.split(vector)`` gives them back as named arrays. Values are raw counts and
0/1 flags (one-hot for categories), not normalised. Seats are absolute (seat 0 first), as in
the action codec; the ``viewer`` field says whose view it is. Layouts: ``docs/interop.md``.
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.engine.contract import Game

if TYPE_CHECKING:
    import numpy.typing as npt


class Fields:
    """Named views into one flat buffer: ``f["mana"][seat] = 3``."""

    __slots__ = ("buf", "_parts")

    def __init__(self, buf: npt.NDArray[np.float32], parts: dict[str, npt.NDArray[np.float32]]) -> None:
        self.buf = buf
        self._parts = parts

    def __getitem__(self, name: str) -> npt.NDArray[np.float32]:
        return self._parts[name]


class ViewEncoder(ABC):
    """Encodes views of one game configuration into vectors of a fixed ``shape``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.game_id = game.game_id
        self.num_players = game.num_players
        self._layout: list[tuple[str, int, tuple[int, ...]]] = []
        self._spans: list[tuple[str, int, int, tuple[int, ...]]] = []  # name, start, stop, shape
        self._bounds: list[tuple[float, float, int]] = []
        self._size = 0
        self._build()
        self.shape: tuple[int, ...] = (self._size,)
        self._scratch = threading.local()
        """Per thread, a buffer and its fields made once: :meth:`encode` zeroes and fills it,
        then hands out a copy (splitting a new buffer into its fields costs more than the
        filling of most views)."""

    # -- what a game's encoder provides -------------------------------------------------------
    @abstractmethod
    def _build(self) -> None:
        """Declare the fields with :meth:`field`."""

    @abstractmethod
    def _fill(self, view: dict[str, Any], seat: int, f: Fields) -> None:
        """Write ``view`` into the (zeroed) fields."""

    # -- layout -------------------------------------------------------------------------------
    def field(self, name: str, *shape: int, low: float = 0.0, high: float = 1.0) -> None:
        """Declare a field; ``low``/``high`` bound its values (flags: 0 and 1, counts: ``COUNT``)."""
        size = 1
        for d in shape:
            size *= d
        self._bounds.append((low, high, size))
        self._layout.append((name, self._size, tuple(shape) or (1,)))
        self._spans.append((name, self._size, self._size + size, tuple(shape) or (1,)))
        self._size += size

    def fields(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(name, offset, shape)`` of every field, in vector order."""
        return list(self._layout)

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Arrays ``(low, high)`` of the values each feature can take (for a ``Box`` space)."""
        low = np.concatenate([np.full(k, lo, dtype=np.float32) for lo, _, k in self._bounds])
        high = np.concatenate([np.full(k, hi, dtype=np.float32) for _, hi, k in self._bounds])
        return low, high

    def split(self, vector: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """The named fields of an encoded vector (views into it)."""
        return {name: vector[start:stop].reshape(shape) for name, start, stop, shape in self._spans}

    # -- encoding -----------------------------------------------------------------------------
    def encode(self, view: dict[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` from its view (``state.view(seat)``)."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat {seat} is not a seat of a {self.num_players}-player game")
        fields: Fields | None = getattr(self._scratch, "fields", None)
        if fields is None:
            buf = np.zeros(self._size, dtype=np.float32)
            fields = self._scratch.fields = Fields(buf, self.split(buf))
        else:
            fields.buf.fill(0.0)
        self._fill(view, seat, fields)
        return fields.buf.copy()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game_id} {self.num_players}p: {self._size} features>"


COUNT = 1e6
"""Upper bound declared for open counts (rounds, resources ...): finite, but never reached."""

_CACHE: dict[tuple[type, str, int, str], ViewEncoder] = {}


def encoder_for(game: Game) -> ViewEncoder:
    """The view encoder of ``game`` (its ``hooks.observer``, cached per game id, player count
    and options).

    :raises ValueError: for a game that declares no observer.
    """
    key = (
        type(game),
        game.game_id,
        game.num_players,
        json.dumps(dict(game.options), sort_keys=True, default=repr),
    )
    enc = _CACHE.get(key)
    if enc is None:
        hook = game.hooks.observer
        if hook is None:
            raise ValueError(f"no view encoder for game {game.game_id!r}")
        made: ViewEncoder = hook.get()(game)
        enc = _CACHE[key] = made
    return enc


def one_hot(arr: npt.NDArray[np.float32], index: int | None) -> None:
    """Set ``arr[index] = 1`` unless ``index`` is None (unknown or absent)."""
    if index is not None:
        arr[index] = 1.0


__all__ = ["COUNT", "Fields", "ViewEncoder", "encoder_for", "one_hot"]
