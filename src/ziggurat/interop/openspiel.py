"""Ziggurat's games as OpenSpiel Python games.

Importing this module registers three games with ``pyspiel``::

    >>> import pyspiel
    >>> import ziggurat.interop.openspiel
    >>> game = pyspiel.load_game("python_ziggurat_mesopotamia", {"players": 3})
    >>> game.num_players()
    3

``python_ziggurat_mesopotamia``, ``python_ziggurat_mesopotamia_epochs`` and
``python_ziggurat_mare_nostrum`` wrap ``ziggurat.load(game_id, players, **options)``. The
parameters are ``players``, ``options`` (the game options as a JSON object) and
``max_game_length`` (a cap on player decisions: OpenSpiel needs a finite bound and random
Mesopotamia play has none; a game reaching the cap ends as a *truncation*, see
:func:`spec_of`). Integer actions and chance outcomes are those of
:func:`ziggurat.interop.codec.codec_for`; observation tensors are those of
:func:`ziggurat.interop.observe.encoder_for`; strings are views as canonical JSON.
``docs/openspiel.md`` describes every choice (GameType, GameInfo, observers, resampling,
serialisation).

This module, and only it, imports ``pyspiel`` (and NumPy through the codec).
"""

from __future__ import annotations

import json
import random
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pyspiel

import ziggurat
from ziggurat.engine.contract import CHANCE, TERMINAL
from ziggurat.engine.contract import Game as ZGame
from ziggurat.engine.contract import State as ZState
from ziggurat.engine.registry import game_class
from ziggurat.interop.codec import ActionCodec, LegalTable, codec_for
from ziggurat.interop.spiel_observer import ViewObserver

_GENERAL_SUM = pyspiel.GameType.Utility.GENERAL_SUM
_CONSTANT_SUM = pyspiel.GameType.Utility.CONSTANT_SUM
_SPIEL_CHANCE = int(pyspiel.PlayerId.CHANCE)
_SPIEL_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SPIEL_PLAYER = {CHANCE: _SPIEL_CHANCE, TERMINAL: _SPIEL_TERMINAL}
"""Ziggurat's non-seat players as OpenSpiel's (a seat is the same number in both)."""


@dataclass(frozen=True)
class SpielSpec:
    """How one Ziggurat game is presented to OpenSpiel; everything but the names is the
    game's own metadata (:func:`spec_of`)."""

    game_id: str
    short_name: str
    long_name: str
    min_players: int
    max_players: int
    default_players: int
    default_max_game_length: int
    """Cap on player decisions (chance outcomes and the engine's forced moves not counted)."""
    constant_sum: bool
    """Every end (truncation included) pays 1.0 in total; else general-sum."""
    min_utility: float
    max_utility: float


def spec_of(game_id: str) -> SpielSpec:
    """The spec of a registered game, read from its ``Game`` class: players, ``constant_sum``,
    ``max_game_length`` (the default cap) and ``utility_range``. A game reaching the cap ends
    with every seat's share of 1.0 if the game is constant-sum, else with no winner (all 0.0)."""
    cls = game_class(game_id)
    low, high = cls.utility_range
    return SpielSpec(
        game_id,
        "python_ziggurat_" + game_id.replace("-", "_"),
        f"Python Ziggurat {cls.name}",
        cls.min_players,
        cls.max_players,
        cls.min_players,
        cls.max_game_length,
        cls.constant_sum,
        low,
        high,
    )


SPECS: dict[str, SpielSpec] = {game_id: spec_of(game_id) for game_id in ziggurat.games()}
"""Ziggurat game id -> its OpenSpiel spec, for every registered game."""


# -- game parameters --------------------------------------------------------------------
# OpenSpiel writes a game as ``name(key=value,...)`` (``game.to_string()``, serialisation)
# and parses it back with no quoting, so a string parameter may not hold ``,=()``. The
# ``options`` JSON is therefore kept percent-encoded for those characters (and ``%``);
# :func:`decode_options` accepts both that form and plain JSON.
_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "%,=()"})


def encode_options(options: dict[str, Any]) -> str:
    """The ``options`` parameter for ``options``: canonical JSON, safe in a game string."""
    return json.dumps(options, sort_keys=True, separators=(",", ":")).translate(_UNSAFE)


def decode_options(text: str) -> dict[str, Any]:
    """Game options from an ``options`` parameter (JSON, plain or percent-encoded).

    :raises ValueError: if it is not a JSON object.
    """
    if not text.strip():
        return {}
    raw = text if text.lstrip().startswith("{") and "%" not in text else urllib.parse.unquote(text)
    try:
        options = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"options={text!r}: not a JSON object ({exc})") from exc
    if not isinstance(options, dict):
        raise ValueError(f"options={text!r}: not a JSON object")
    return options


class _Binding:
    """A Ziggurat game with its codec, shared by every OpenSpiel game and state of one
    configuration (game id, players, options)."""

    __slots__ = ("key", "spec", "game", "codec")

    def __init__(self, game_id: str, players: int, options_json: str) -> None:
        self.key = (game_id, players, options_json)
        self.spec = SPECS[game_id]
        self.game: ZGame = ziggurat.load(game_id, players=players, **json.loads(options_json))
        self.codec: ActionCodec = codec_for(self.game)


@lru_cache(maxsize=64)
def _binding(game_id: str, players: int, options_json: str) -> _Binding:
    return _Binding(game_id, players, options_json)


class _Held:
    """The Ziggurat state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes one by one and serialises
    it by pickling them; this wrapper makes the first a cheap ``State.clone()`` and the
    second the game's documented position (rebuilt with ``state_from_position``), instead
    of copying the object graph (and the game's static data) wholesale.
    """

    __slots__ = ("binding", "state", "codec", "table", "legal")

    def __init__(self, binding: _Binding, state: ZState) -> None:
        self.binding = binding
        self.state = state
        self.codec = binding.codec
        self.table: LegalTable | None = None
        """The table ``legal_actions`` answered from, kept for ``apply_action`` to decode the
        chosen index with (``None`` after each action) ..."""
        self.legal: object = None
        """... and the engine's legal list it was found for (a clone shares that list)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        held = _Held(self.binding, self.state.clone())
        held.table, held.legal = self.table, self.legal
        return held

    def __reduce__(self) -> tuple[Callable[..., _Held], tuple[Any, ...]]:
        return (_restore, (*self.binding.key, self.state.to_position()))


def _restore(game_id: str, players: int, options_json: str, position: dict[str, Any]) -> _Held:
    binding = _binding(game_id, players, options_json)
    return _Held(binding, binding.game.state_from_position(position))


# -- the game ---------------------------------------------------------------------------


def _game_type(spec: SpielSpec) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_CONSTANT_SUM if spec.constant_sum else _GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": spec.default_players,
            "options": "{}",
            "max_game_length": spec.default_max_game_length,
        },
    )


class ZigguratGame(pyspiel.Game):
    """One Ziggurat game as an OpenSpiel game; subclasses name the game (:attr:`spec`)."""

    spec: SpielSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.spec
        params = dict(params or {})
        unknown = sorted(set(params) - {"players", "options", "max_game_length"})
        if unknown:
            raise ValueError(f"{spec.short_name}: unknown parameter {unknown[0]!r}")
        players = params.get("players", spec.default_players)
        if not isinstance(players, int) or not spec.min_players <= players <= spec.max_players:
            raise ValueError(
                f"{spec.short_name}: players={players!r}, must be {spec.min_players} to {spec.max_players}"
            )
        max_length = params.get("max_game_length", spec.default_max_game_length)
        if not isinstance(max_length, int) or max_length < 1:
            raise ValueError(f"{spec.short_name}: max_game_length={max_length!r}, must be a positive integer")
        options = decode_options(str(params.get("options", "{}")))
        # Normalise through ziggurat.load (unknown or bad options raise ValueError naming them).
        game = ziggurat.load(spec.game_id, players=players, **options)
        options_json = json.dumps(game.options, sort_keys=True, separators=(",", ":"))
        self._binding = _binding(spec.game_id, players, options_json)
        codec = self._binding.codec
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=codec.num_chance_outcomes,
            num_players=players,
            min_utility=spec.min_utility,
            max_utility=spec.max_utility,
            utility_sum=1.0 if spec.constant_sum else None,
            max_game_length=max_length,
        )
        normalised = {
            "players": players,
            "options": encode_options(game.options),
            "max_game_length": max_length,
        }
        super().__init__(_game_type(spec), info, normalised)

    def new_initial_state(self, position: str | dict[str, Any] | None = None) -> ZigguratState:
        """The initial state, or with ``position`` (a position dict or its JSON) that position."""
        if position is None:
            return ZigguratState(self)
        if isinstance(position, str):
            position = json.loads(position)
        return self.state_from_position(position)  # type: ignore[arg-type]

    def state_from_position(self, position: dict[str, Any], decisions: int = 0) -> ZigguratState:
        """An OpenSpiel state for a Ziggurat position (empty OpenSpiel history).

        ``decisions`` is how many of the ``max_game_length`` decisions count as played.
        """
        return ZigguratState(self, self._binding.game.state_from_position(position), decisions)

    def from_ziggurat(self, state: ZState, decisions: int = 0) -> ZigguratState:
        """An OpenSpiel state holding a copy of the Ziggurat ``state`` (empty OpenSpiel history)."""
        if state.game.game_id != self.spec.game_id or state.game.num_players != self.num_players():
            raise ValueError(
                f"a {state.game.game_id} state for {state.game.num_players} players is not one of {self}"
            )
        return ZigguratState(self, state.clone(), decisions)

    def ziggurat_game(self) -> ZGame:
        """The Ziggurat game this OpenSpiel game wraps."""
        return self._binding.game

    def codec(self) -> ActionCodec:
        """The action codec giving the integer actions and chance outcomes."""
        return self._binding.codec

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        """An observer (strings and tensors from views), see :class:`ViewObserver`."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls make_py_observer(params) with no type
            iig_obs_type, params = None, iig_obs_type
        return ViewObserver(
            self._binding.game,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


# -- the state --------------------------------------------------------------------------


class ZigguratState(pyspiel.State):
    """An OpenSpiel state over a Ziggurat state: integer actions through the game's codec.

    Attributes are few and cheap to copy (OpenSpiel's ``clone`` deep-copies them): the held
    Ziggurat state (created on first use, so a clone never builds an initial state it
    throws away), the number of player decisions applied, the game's cap on them, and the
    player to move once asked (``None`` again after each action): OpenSpiel asks for it
    several times per action (``is_chance_node``, ``legal_actions``, ``apply_action``), and
    some games work it out from the whole position.
    """

    def __init__(self, game: ZigguratGame, state: ZState | None = None, decisions: int = 0) -> None:
        super().__init__(game)
        self._held: _Held | None = None if state is None else _Held(game._binding, state)
        self._decisions = decisions
        self._cap: int = game.max_game_length()
        self._player: int | None = None

    def _z(self) -> _Held:
        held = self._held
        if held is None:
            binding: _Binding = self.get_game()._binding
            held = self._held = _Held(binding, binding.game.new_initial_state())
        return held

    # -- Ziggurat side ------------------------------------------------------------------
    def ziggurat_state(self) -> ZState:
        """The Ziggurat state held (live: read it, do not apply to it)."""
        return self._z().state

    def decisions(self) -> int:
        """Player decisions applied so far (counted against ``max_game_length``)."""
        return self._decisions

    def is_pristine(self) -> bool:
        """True for an initial state nothing has looked at or played in yet."""
        return self._held is None

    def decision_cap(self) -> int:
        """The game's ``max_game_length``: the game ends when :meth:`decisions` reaches it."""
        return self._cap

    def is_truncated(self) -> bool:
        """True if the game ended by reaching ``max_game_length`` rather than by its rules."""
        return self._decisions >= self._cap and not self._z().state.is_terminal()

    # -- OpenSpiel API --------------------------------------------------------------------
    # The hot methods read ``_player`` and ``_held`` themselves rather than through
    # ``current_player()`` and ``_z()``: a Python call is a good part of what a step through
    # the adapter costs beyond the engine's own work.
    def current_player(self) -> int:
        player = self._player
        if player is None:
            if self._decisions >= self._cap:
                player = _SPIEL_TERMINAL
            else:
                player = (self._held or self._z()).state.current_player()
                if player < 0:
                    player = _SPIEL_PLAYER.get(player, player)
            self._player = player
        return player

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel calls this for the player to move only (others get [] in C++).
        if self.current_player() < 0:
            return []
        held = self._z()
        return list(held.codec.legal_table(held.state).indices)

    # The three queries below answer from Python what pyspiel's C++ ``State`` would answer
    # (tested against it): a call from Python then skips the C++ round trips (C++ asks this
    # object for its player, then whether it is terminal, then for the legal actions).
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of the player to move (or of ``player``), as OpenSpiel's."""
        current = self._player
        if current is None:
            current = self.current_player()
        if current >= 0 and (player is None or player == current):
            held = self._held or self._z()
            z = held.state
            legal = held.legal = z.legal_actions()
            table = held.table = held.codec.legal_table(z, legal)
            return list(table.indices)
        if player is None:
            return super().legal_actions()  # type: ignore[no-any-return]
        return super().legal_actions(player)  # type: ignore[no-any-return]

    def is_chance_node(self) -> bool:
        player = self._player
        return (self.current_player() if player is None else player) == _SPIEL_CHANCE

    def is_player_node(self) -> bool:
        player = self._player
        return (self.current_player() if player is None else player) >= 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        player = self._player
        if (self.current_player() if player is None else player) != _SPIEL_CHANCE:
            return []
        held = self._held or self._z()
        z = held.state
        return held.codec.encode_outcomes(z.chance_outcomes(), z)

    def _apply_action(self, action: int) -> None:
        player = self._player
        if player is None:
            player = self.current_player()
        if self._decisions >= self._cap:
            raise ziggurat.GameOver(f"the game reached max_game_length={self._cap}")
        held = self._held or self._z()
        z = held.state
        if player == _SPIEL_CHANCE:
            text = held.codec.decode_chance(action, z)
        else:
            # the table legal_actions answered from, if it is still this state's (an index
            # that is not one of its own goes through the codec, which refuses it)
            table = held.table
            found = None
            if table is not None and action.__class__ is int and held.legal is z.legal_actions():
                found = table.text_of(action)
            text = held.codec.decode(action, z) if found is None else found
        self._player = None
        held.table = held.legal = None
        z.apply(text)
        if player != _SPIEL_CHANCE:
            self._decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        held = self._z()
        codec = held.binding.codec
        try:
            if player == pyspiel.PlayerId.CHANCE:
                return codec.decode_chance(action, held.state)
            return codec.decode(action, held.state)
        except ziggurat.ZigguratError:
            # Mesopotamia's codec numbers some things relative to the state; an index that
            # names nothing here still gets a readable string.
            return f"{'chance' if player == pyspiel.PlayerId.CHANCE else 'action'} #{action}"

    def is_terminal(self) -> bool:
        player = self._player
        return (self.current_player() if player is None else player) == _SPIEL_TERMINAL

    def returns(self) -> list[float]:
        z = self._z().state
        if z.is_terminal() or self._decisions < self._cap:
            return [float(r) for r in z.returns()]
        n = z.game.num_players
        share = 1.0 / n if self._z().binding.spec.constant_sum else 0.0
        return [share] * n

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> ZigguratState:
        """A state drawn from ``player_id``'s information state: ``game.sample_state`` on that
        seat's view, with a ``random.Random`` seeded from two draws of the sampler.

        The new state has the same information-state string for ``player_id`` and the same
        decision count, but an empty OpenSpiel history: the true history would show other
        seats' secret choices, and a sampled world has no history of its own.
        """
        held = self._z()
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        sampled = held.binding.game.sample_state(held.state.view(player_id), player_id, random.Random(seed))
        return ZigguratState(self.get_game(), sampled, self._decisions)

    def __str__(self) -> str:
        z = self._z().state
        position = json.dumps(z.to_position(), sort_keys=True, separators=(",", ":"))
        end = " (truncated)" if self._decisions >= self._cap and not z.is_terminal() else ""
        return f"{z.game.game_id} decisions {self._decisions}/{self._cap}{end}\n{position}"


def _subclass(spec: SpielSpec) -> type[ZigguratGame]:
    name = "".join(part.capitalize() for part in spec.game_id.split("-")) + "SpielGame"
    cls = type(name, (ZigguratGame,), {"spec": spec, "__doc__": f"{spec.long_name} for OpenSpiel."})
    cls.__module__ = __name__
    return cls


GAME_CLASSES: dict[str, type[ZigguratGame]] = {gid: _subclass(spec) for gid, spec in SPECS.items()}
"""Ziggurat game id -> OpenSpiel game class (registered under ``spec.short_name``)."""

_registered = set(pyspiel.registered_names())
for _gid, _cls in GAME_CLASSES.items():
    if SPECS[_gid].short_name not in _registered:
        pyspiel.register_game(_game_type(SPECS[_gid]), _cls)


def load(game_id: str, players: int | None = None, **params: Any) -> ZigguratGame:
    """``pyspiel.load_game`` by Ziggurat game id; ``options`` may be a dict here."""
    spec = SPECS[game_id]
    if players is not None:
        params["players"] = players
    if isinstance(params.get("options"), dict):
        params["options"] = encode_options(params["options"])
    game: ZigguratGame = pyspiel.load_game(spec.short_name, params)
    return game


__all__ = [
    "GAME_CLASSES",
    "SPECS",
    "SpielSpec",
    "ZigguratGame",
    "ZigguratState",
    "decode_options",
    "encode_options",
    "load",
]
