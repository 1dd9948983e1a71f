"""OpenSpiel observer for Ziggurat games: strings and tensors from views.

OpenSpiel asks a Python game for an observer per *observation type*
(``pyspiel.IIGObservationType``: public info, perfect recall, whose private info). A Ziggurat
view already is "everything this seat may know now", memory included (a Land peek, cards
seen), so:

- private info ``SINGLE_PLAYER`` (the default observation and the information state):
  ``state.view(seat)``;
- ``NONE``: the spectator view ``state.view(None)`` (public information only);
- ``ALL_PLAYERS``: the full position (``state.to_position()``).

The string is ``decision N/CAP`` (the decisions played against ``max_game_length``, which is
public and bounds the game) and the view as canonical JSON (sorted keys, no spaces). Perfect
recall adds nothing: the view is the whole of what the rules let a seat know; two paths to
the same view share one information state, which is what information-set search wants.

The tensor (``SINGLE_PLAYER`` only, named ``"view"``) is
``ziggurat.interop.observe.encoder_for(game).encode(view, seat)``. Observation types without
public information are refused: a Ziggurat view does not split into public and private parts.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ziggurat.engine.contract import Game

if TYPE_CHECKING:
    import numpy.typing as npt

    from ziggurat.interop.openspiel import ZigguratState


def canonical_json(value: Any) -> str:
    """The JSON text used in observation strings: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """Observer conforming to OpenSpiel's PyObserver interface (``tensor``, ``dict``,
    ``set_from``, ``string_from``)."""

    def __init__(
        self, game: Game, iig_obs_type: pyspiel.IIGObservationType, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if not iig_obs_type.public_info:
            raise ValueError(
                "observation types without public information are not supported: "
                "a Ziggurat view does not split into public and private parts"
            )
        self.private_info = iig_obs_type.private_info
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        self._encoder: Any = None
        self._initial: dict[int, npt.NDArray[np.float32]] = {}
        if self.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            from ziggurat.interop.observe import encoder_for

            self._encoder = encoder_for(game)
            shape = tuple(int(d) for d in self._encoder.shape)
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"view": self.tensor.reshape(shape)}

    def _seen(self, state: ZigguratState, player: int) -> dict[str, Any]:
        z = state.ziggurat_state()
        if self.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return z.view(player)
        if self.private_info == pyspiel.PrivateInfoType.NONE:
            return z.view(None)
        return z.to_position()

    def set_from(self, state: ZigguratState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        if self.tensor is None:
            return
        if state.is_pristine():
            # OpenSpiel recomputes a Python game's tensor shape by writing the tensor of a
            # fresh initial state, on every tensor call; that tensor never changes.
            cached = self._initial.get(player)
            if cached is None:
                cached = self._initial[player] = self._encode(state, player)
            self.tensor[:] = cached
            return
        self.tensor[:] = self._encode(state, player)

    def _encode(self, state: ZigguratState, player: int) -> npt.NDArray[np.float32]:
        view = state.ziggurat_state().view(player)
        return np.asarray(self._encoder.encode(view, player), np.float32).reshape(-1)

    def string_from(self, state: ZigguratState, player: int) -> str:
        """``player``'s observation of ``state`` as a string (see the module docstring)."""
        return f"decision {state.decisions()}/{state.decision_cap()}\n{canonical_json(self._seen(state, player))}"
