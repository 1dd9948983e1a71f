"""Action codecs: a fixed integer index for every action of a game.

Reinforcement-learning interfaces (PettingZoo, OpenSpiel) want actions as integers in a
range fixed for the game, while Ziggurat actions are canonical texts. A codec is that
mapping, built from the game's *structure* (map areas, goods, cards, tribes ...) rather than
from actions seen in play, so every action the rules can ever make legal has an index.

>>> import ziggurat
>>> from ziggurat.interop.codec import codec_for
>>> game = ziggurat.load("mesopotamia-epochs", players=3)
>>> codec = codec_for(game)
>>> codec.decode(codec.encode("place babylon")) == "place babylon"
True

Two id spaces per codec:

- player actions ``0 .. num_actions - 1`` (``encode`` / ``decode``);
- chance outcomes ``0 .. num_chance_outcomes - 1`` (``encode_chance`` / ``decode_chance``),
  a separate space: OpenSpiel's ``max_chance_outcomes`` is ``num_chance_outcomes``.

Each space is a sequence of *blocks*, one per action kind, each a mixed-radix product of small
dimensions (``move``: tile x cargo x flag x direction). ``codec.blocks()`` lists them; the
mapping of every game is tabled in ``docs/interop.md``.

**State.** The Mare Nostrum and Epochs codecs are state-independent: ``state`` may be omitted.
Mesopotamia's map has no fixed extent (it grows by discovery), so its codec numbers tiles by
their rank on the current map and names own tribes relative to the player to move; its
``encode``/``decode`` need the state the action belongs to (``state_dependent`` is True) and
raise :class:`CodecError` (a ``ValueError``) without one, or for an index that names nothing on
that map. Passing the state always works, so generic callers (the PettingZoo and OpenSpiel
adapters) always pass it.
"""

from __future__ import annotations

import bisect
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.engine.contract import CHANCE, Game, State
from ziggurat.engine.errors import ZigguratError

if TYPE_CHECKING:
    import numpy.typing as npt


class CodecError(ZigguratError):
    """An action text or index that the codec cannot map (unknown kind, out of range ...)."""


MASKS_KEPT_UP_TO = 1024
"""Masks of codecs with at most this many actions are remembered (:meth:`ActionCodec.table_mask`)."""


CHANCE_PAIRS_KEPT = 1 << 18
"""Outcome pairs of the chance lists an :class:`ActionCodec` keeps encoded by their contents
(a few megabytes at most); past it, it forgets them and starts again."""

MASK_LOOP_UP_TO = 8
"""A legal table of at most this many indices sets its mask's ones one by one; a longer one
sets them in one assignment through an array of its indices (:meth:`LegalTable.mask`)."""


@dataclass(frozen=True, slots=True)
class Block:
    """One action kind: indices ``start .. start + size - 1``, a product of ``dims``."""

    kind: str
    start: int
    dims: tuple[int, ...]
    labels: tuple[str, ...]

    @property
    def size(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    @property
    def stop(self) -> int:
        return self.start + self.size

    def index(self, *coords: int) -> int:
        """Index of ``coords`` (one per dimension, row-major: the last varies fastest)."""
        if len(coords) != len(self.dims):
            raise CodecError(f"{self.kind}: {len(self.dims)} coordinates expected, got {len(coords)}")
        i = 0
        for c, d in zip(coords, self.dims, strict=True):
            if not 0 <= c < d:
                raise CodecError(f"{self.kind}: coordinate {c} outside 0..{d - 1} ({self.labels})")
            i = i * d + c
        return self.start + i

    def coords(self, index: int) -> tuple[int, ...]:
        """Inverse of :meth:`index`."""
        i = index - self.start
        out = []
        for d in reversed(self.dims):
            i, c = divmod(i, d)
            out.append(c)
        return tuple(reversed(out))


class Layout:
    """Blocks laid end to end: the id space of one codec (player actions or chance)."""

    __slots__ = ("_blocks", "_by_kind", "_starts", "size")

    def __init__(self) -> None:
        self._blocks: list[Block] = []
        self._by_kind: dict[str, Block] = {}
        self._starts: list[int] = []
        self.size = 0

    def add(self, kind: str, dims: Sequence[int] = (), labels: Sequence[str] = ()) -> Block:
        """Append a block; a dimension of size 0 makes an empty block (the kind cannot occur)."""
        if kind in self._by_kind:
            raise ValueError(f"duplicate block {kind!r}")
        block = Block(kind, self.size, tuple(dims), tuple(labels))
        if block.size == 0:
            return block
        self._blocks.append(block)
        self._by_kind[kind] = block
        self._starts.append(block.start)
        self.size = block.stop
        return block

    def __getitem__(self, kind: str) -> Block:
        return self._by_kind[kind]

    @property
    def blocks(self) -> list[Block]:
        return list(self._blocks)

    def locate(self, index: int) -> tuple[Block, tuple[int, ...]]:
        """The block holding ``index`` and the coordinates inside it."""
        if not isinstance(index, int | np.integer) or not 0 <= index < self.size:
            raise CodecError(f"index {index!r} outside 0..{self.size - 1}")
        block = self._blocks[bisect.bisect_right(self._starts, int(index)) - 1]
        return block, block.coords(int(index))


class ActionCodec(ABC):
    """Integer indices for the actions and chance outcomes of one game configuration.

    ``num_actions`` and ``num_chance_outcomes`` are fixed for the game id, player count and
    options. ``encode`` is injective over every action that can be legal in a state (all
    states, for a state-independent codec), ``decode(encode(a)) == a``.
    """

    state_dependent: bool = False

    def __init__(self, game: Game) -> None:
        self.game = game
        self.game_id = game.game_id
        self.num_players = game.num_players
        self.actions = Layout()
        self.chance = Layout()
        # Memos (bounded: the id spaces are finite, and only legal texts are remembered). Index
        # <-> text of player actions are kept only when they do not depend on the state.
        self._index_of: dict[str, int] = {}
        self._text_of: dict[int, str] = {}
        self._chance_index_of: dict[str, int] = {}
        self._chance_text_of: dict[int, str] = {}
        self._last: LegalTable | None = None
        self._last_source: object = None  # the engine's list _last was found for (held)
        self._last_context: object = None
        self._tables: dict[tuple[str, ...], LegalTable] = {}
        self._chance_lists: dict[int, tuple[Sequence[tuple[str, float]], list[tuple[int, float]]]] = {}
        self._chance_contents: dict[tuple[tuple[str, float], ...], list[tuple[int, float]]] = {}
        self._chance_kept = 0  # outcome pairs in _chance_contents, bounded by CHANCE_PAIRS_KEPT
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self._build()
        self._zeros = np.zeros(self.num_actions, dtype=np.int8)
        self._zeros.flags.writeable = False

    # -- what a game's codec provides --------------------------------------------------
    @abstractmethod
    def _build(self) -> None:
        """Fill ``self.actions`` and ``self.chance`` with blocks."""

    @abstractmethod
    def _encode(self, action: str, state: State | None) -> int: ...

    @abstractmethod
    def _decode(self, index: int, state: State | None) -> str: ...

    @abstractmethod
    def _encode_chance(self, outcome: str, state: State | None) -> int:
        """The index of a chance outcome; the same in every state (the base remembers it)."""

    @abstractmethod
    def _decode_chance(self, index: int, state: State | None) -> str: ...

    # -- public API ----------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        """Size of the player-action id space."""
        return self.actions.size

    @property
    def num_chance_outcomes(self) -> int:
        """Size of the chance-outcome id space (separate from the action space)."""
        return self.chance.size

    def blocks(self) -> list[Block]:
        """The action kinds and their index ranges, in index order."""
        return self.actions.blocks

    def chance_blocks(self) -> list[Block]:
        return self.chance.blocks

    def encode(self, action: str, state: State | None = None) -> int:
        """Index of the player action ``action`` (canonical text).

        :raises CodecError: if the text is not an action of this game the codec knows, or
            (state-dependent codecs) ``state`` is missing or cannot hold that action.
        """
        self._need_state(state)
        try:
            return self._encode(action, state)
        except CodecError:
            raise
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise CodecError(f"{self.game_id}: cannot encode action {action!r}: {exc}") from exc

    def decode(self, index: int, state: State | None = None) -> str:
        """Canonical text of action ``index``; inverse of :meth:`encode`.

        :raises CodecError: if ``index`` is out of range or names nothing in ``state``.
        """
        self._need_state(state)
        if index.__class__ is int:  # the memos: other types go through the range check
            table = self._last  # the legal list last encoded, if it is this state's
            if (
                table is not None
                and state is not None
                and self._last_source is state.legal_actions()
                and self._last_context is self._context(state)
            ):
                text = table.text_of(index)
                if text is not None:
                    return text
            if not self.state_dependent:
                text = self._text_of.get(index)
                if text is not None:
                    return text
        self.actions.locate(index)  # range check with a clear message
        try:
            text = self._decode(int(index), state)
        except CodecError:
            raise
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise CodecError(f"{self.game_id}: cannot decode action index {index}: {exc}") from exc
        if not self.state_dependent:
            self._text_of[int(index)] = text
        return text

    def encode_chance(self, outcome: str, state: State | None = None) -> int:
        """Index of a chance outcome in the chance id space."""
        index = self._chance_index_of.get(outcome)
        if index is not None:
            return index
        try:
            index = self._encode_chance(outcome, state)
        except CodecError:
            raise
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise CodecError(f"{self.game_id}: cannot encode chance outcome {outcome!r}: {exc}") from exc
        if self._decode_chance(index, state) == outcome:  # remember canonical texts only
            self._chance_index_of[outcome] = index
        return index

    def decode_chance(self, index: int, state: State | None = None) -> str:
        """Canonical text of chance outcome ``index``; inverse of :meth:`encode_chance`."""
        if index.__class__ is int:
            text = self._chance_text_of.get(index)
            if text is not None:
                return text
        self.chance.locate(index)
        try:
            text = self._decode_chance(int(index), state)
        except CodecError:
            raise
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise CodecError(f"{self.game_id}: cannot decode chance index {index}: {exc}") from exc
        self._chance_text_of[int(index)] = text
        return text

    def legal_indices(self, state: State) -> list[int]:
        """Sorted indices of ``state.legal_actions()`` (empty at chance and terminal nodes)."""
        if state.current_player() < 0:
            return []
        return list(self.legal_table(state).indices)

    def legal_mask(self, state: State) -> npt.NDArray[np.int8]:
        """``int8`` array of size ``num_actions``: 1 at the legal indices."""
        if state.current_player() < 0:
            return np.zeros(self.num_actions, dtype=np.int8)
        return self.table_mask(self.legal_table(state))

    def table_mask(self, table: LegalTable) -> npt.NDArray[np.int8]:
        """A new ``int8`` array of size ``num_actions``: 1 at ``table``'s indices.

        A small codec's masks are remembered by their indices (bounded), so a mask is then a
        copy of a kept one: random play meets the same legal sets again and again, and a copy
        is cheaper than setting the ones. A large codec's (Mesopotamia's, Mare Nostrum's:
        thousands of actions) are not: thousands of kept masks of several kilobytes would be
        copied from memory the caches no longer hold, where the one array of zeros copied at
        every step stays in them, so the mask is made afresh, one copy.
        """
        if self.num_actions > MASKS_KEPT_UP_TO:
            return table.mask(self._zeros)
        mask = table.shared_mask
        if mask is None:
            key = tuple(table.indices)
            mask = self._masks.get(key)
            if mask is None:
                if len(self._masks) >= 4096:
                    self._masks.clear()
                mask = self._masks[key] = table.mask(self._zeros)
                mask.flags.writeable = False
            table.shared_mask = mask
        return mask.copy()

    def legal_table(self, state: State, legal: Sequence[str] | None = None) -> LegalTable:
        """The legal actions of ``state`` (a player to move, not chance) with their indices;
        ``legal``, if given, is ``state.legal_actions()`` already in hand.

        Kept until another legal list is encoded: the engine caches a state's legal list until
        the next ``apply`` and shares it with clones, so asking again (OpenSpiel's
        ``legal_actions`` then ``apply_action``, PettingZoo's mask then ``step``) reuses the
        table, and :meth:`decode` of one of its indices is a lookup. A state-independent codec
        also remembers tables by their texts (bounded): random play meets the same legal
        lists again and again (nine in ten in Epochs), and a tuple of the texts is cheaper to
        look up than the list is to encode and sort.
        """
        if legal is None:
            legal = state.legal_actions()
        table = self._last
        if self.state_dependent:
            context = self._context(state)
            if table is not None and legal is self._last_source and context is self._last_context:
                return table
            table = LegalTable(legal, context, self._encode_legal(legal, state, context))
        else:  # no context: the indices of legal texts depend on nothing else
            if table is not None and legal is self._last_source:
                return table
            context = None
            texts = tuple(legal)
            table = self._tables.get(texts)
            if table is None:
                if len(self._tables) >= 4096:
                    self._tables.clear()
                table = self._tables[texts] = LegalTable(texts, None, self._encode_legal(legal, state, None))
        self._last, self._last_source, self._last_context = table, legal, context
        return table

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        """``state.chance_outcomes()`` as ``(index, probability)``, sorted by index."""
        if state.current_player() != CHANCE:
            return []
        return self.encode_outcomes(state.chance_outcomes(), state)

    def encode_outcomes(self, outcomes: Sequence[tuple[str, float]], state: State) -> list[tuple[int, float]]:
        """``outcomes`` (``state.chance_outcomes()``) as ``(index, probability)``, sorted by index."""
        # An engine may hand out one shared list for a kind of node (Epochs' combat rolls):
        # its encoding is then kept with it.
        hit = self._chance_lists.get(id(outcomes))
        if hit is not None and hit[0] is outcomes:
            return list(hit[1])
        # Other lists are made afresh at each node (a draw, a deal) but come back with the same
        # contents again and again, and their encoding depends on nothing else (the chance
        # numbering never depends on the state): kept by contents, bounded. Hashing the pairs
        # is cheaper than encoding and sorting them.
        try:
            key: tuple[tuple[str, float], ...] | None = tuple(outcomes)
            encoded = self._chance_contents.get(key)  # type: ignore[arg-type]
        except TypeError:  # pairs that are not hashable (not tuples): encoded every time
            key = encoded = None
        if encoded is None:
            memo = self._chance_index_of
            encoded = []
            for a, p in outcomes:
                index = memo.get(a)
                encoded.append((self.encode_chance(a, state) if index is None else index, p))
            encoded.sort()
            if key is not None:
                self._chance_kept += len(key)
                if self._chance_kept > CHANCE_PAIRS_KEPT:
                    self._chance_contents.clear()
                    self._chance_kept = len(key)
                self._chance_contents[key] = encoded
        if len(self._chance_lists) >= 64:
            self._chance_lists.clear()
        self._chance_lists[id(outcomes)] = (outcomes, encoded)
        return list(encoded)

    # -- memos -------------------------------------------------------------------------------
    def _context(self, state: State) -> object:
        """What the indices of legal texts depend on besides the texts (``None``: nothing): an
        object the codec keeps, compared by identity before a :class:`LegalTable` is reused.
        Only a state-dependent codec has one."""
        return None

    def _encode_legal(self, legal: Sequence[str], state: State, context: object) -> list[int]:
        """The indices of the texts of ``legal`` (``state``'s, whose :meth:`_context` is
        ``context``), in its order; legal texts are canonical, so a state-independent codec
        remembers them."""
        memo = self._index_of
        try:
            return list(map(memo.__getitem__, legal))  # every text seen before: the usual case
        except KeyError:
            pass
        out = []
        for a in legal:
            index = memo.get(a)
            if index is None:
                index = self.encode(a, state)
                if not self.state_dependent:
                    memo[a] = index
            out.append(index)
        return out

    def _need_state(self, state: State | None) -> None:
        if self.state_dependent and state is None:
            raise CodecError(
                f"the {self.game_id} codec numbers actions relative to the state: pass the state"
            )

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game_id} {self.num_players}p: {self.num_actions} actions, "
            f"{self.num_chance_outcomes} chance outcomes>"
        )


class LegalTable:
    """One legal list and its indices (sorted): what :meth:`ActionCodec.legal_table` keeps."""

    __slots__ = ("source", "context", "indices", "_order", "shared_mask", "_positions")

    def __init__(self, source: Sequence[str], context: object, order: list[int]) -> None:
        self.source = source
        """The legal texts, in the engine's order (a state-independent codec keeps them as a
        tuple, shared by every state with that legal list)."""
        self.context = context
        self._order = order
        self.indices: list[int] = sorted(order)
        self.shared_mask: npt.NDArray[np.int8] | None = None
        """Its mask (read-only) once :meth:`ActionCodec.table_mask` kept or found it."""
        self._positions: npt.NDArray[np.intp] | None = None
        """:attr:`indices` as an array, once a mask of a long list was made from them."""

    def text_of(self, index: int) -> str | None:
        """The legal text of ``index``, or ``None`` if it is not one of the table's."""
        try:
            return self.source[self._order.index(index)]
        except ValueError:
            return None

    def mask(self, zeros: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        """A copy of ``zeros`` (an ``int8`` array of zeros) with 1 at the legal indices."""
        mask = zeros.copy()  # cheaper than a new zeroed array
        indices = self.indices
        if len(indices) <= MASK_LOOP_UP_TO:  # a few indices: cheaper than a fancy assignment
            for index in indices:
                mask[index] = 1
            return mask
        # more: one assignment through the indices as an array, kept with the table (a kept
        # table's next mask then costs the copy and the assignment, whatever its length)
        positions = self._positions
        if positions is None:
            positions = self._positions = np.array(indices, dtype=np.intp)
        mask[positions] = 1
        return mask


_CACHE: dict[tuple[type, str, int, str], ActionCodec] = {}


def _options_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, default=repr)


def codec_for(game: Game) -> ActionCodec:
    """The codec of ``game`` (its ``hooks.codec``, cached per game class, id, player count and options).

    :raises ValueError: for a game that declares no codec.
    """
    # the class is part of the key: a game built on another's id may declare other hooks
    key = (type(game), game.game_id, game.num_players, _options_key(dict(game.options)))
    codec = _CACHE.get(key)
    if codec is None:
        hook = game.hooks.codec
        if hook is None:
            raise ValueError(f"no action codec for game {game.game_id!r}")
        made: ActionCodec = hook.get()(game)
        codec = _CACHE[key] = made
    return codec


__all__ = ["ActionCodec", "Block", "CodecError", "Layout", "LegalTable", "codec_for"]
