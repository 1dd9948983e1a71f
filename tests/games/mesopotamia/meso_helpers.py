"""Helpers for the Mesopotamia rules tests (imported as ``meso_helpers``, a name unique in the
suite, since every test folder has a ``conftest``) (rules spec ``docs/rules/mesopotamia.md``).

Situations are built the way the DESIGN asks: take a real position (``to_position``), edit
it with :class:`Board`, and load it with ``state_from_position``. The builder keeps pieces,
resources, cards and tiles conserved unless a test says otherwise, so most tests can also
check the game's declared invariants with :func:`conserved`.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine.contract import CHANCE, sample_chance

COLOURS = {"b": "blue", "y": "yellow", "r": "red", "g": "green"}
TRIBES_PER_COLOUR = 8
_TRIBE = re.compile(r"^([byrg])(w|s|o\d+)?@(-?\d+),(-?\d+)(\*?)$")

TEMPLE = (0, 0)
PLAINS_A = (1, -1)
PLAINS_B = (1, 0)
FOREST0 = (-1, 0)
QUARRY0 = (-1, 1)


def load(players: int = 4, **options: Any) -> Any:
    return ziggurat.load("mesopotamia", players=players, **options)


def started(players: int = 4, first: str = "b", **options: Any) -> Any:
    """A new game whose first player (seat 1, S2) is colour letter ``first``."""
    state = load(players, **options).new_initial_state()
    state.apply(f"first {first}")
    return state


def heuristic_decisions(players: int, seed: int, plies: int) -> Iterator[tuple[int, Any, int, list[str]]]:
    """The first ``plies`` decisions of a seeded game of heuristic bots, as ``(ply, state,
    seat, legal actions)`` before each move (chance and tie-breaks from one RNG); the caller
    reads the state, the helper plays the move."""
    game = load(players)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    ply = 0
    while not state.is_terminal() and ply < plies:
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        yield ply, state, who, legal
        state.apply(bots[who].choose(state.view(who), legal, rng))
        ply += 1


def conserved(state: Any) -> None:
    """The game's own conservation checks hold (§2 piece counts)."""
    assert state.game.invariants(state) == []


def refuse(state: Any, action: str, *rules: str, exc: type[Exception] = ziggurat.IllegalAction) -> str:
    """``action`` is refused with ``exc``, the message names every rule, nothing changes."""
    assert rules or exc is not ziggurat.IllegalAction, "a rules refusal must name its rule"
    before = state.fingerprint()
    legal = list(state.legal_actions())
    history = state.history()
    assert action not in legal
    with pytest.raises(exc) as info:
        state.apply(action)
    message = str(info.value)
    for rule in rules:
        assert re.search(re.escape(rule) + r"(?![\d.]*\d)", message), f"{rule} not named in {message!r}"
    assert state.fingerprint() == before
    assert list(state.legal_actions()) == legal
    assert state.history() == history
    return message


def mine(state: Any, colour: str) -> dict[str, Any]:
    """The position entry of player ``colour`` (a full name)."""
    return next(p for p in state.to_position()["players"] if p["colour"] == colour)


def tribes(state: Any, colour: str) -> list[str]:
    """Tribes of ``colour`` on the map in tribe notation, sorted (spent flags shown as ``*``)."""
    letter = colour[0]
    out = []
    for q, r, cargo, spent in mine(state, colour)["tribes"]:
        out.append(f"{letter}{cargo}@{q},{r}{'*' if spent else ''}")
    return sorted(out)


def loose(state: Any, c: tuple[int, int]) -> tuple[int, int]:
    """(wood, stone) lying loose on tile ``c``."""
    for q, r, w, s in state.to_position()["loose"]:
        if (q, r) == c:
            return (w, s)
    return (0, 0)


def huts_on(state: Any, c: tuple[int, int]) -> list[list[Any]]:
    return [h for h in state.to_position()["huts"] if (h[2], h[3]) == c]


class Board:
    """Edits a real position into a test situation; :meth:`state` loads it.

    The base is the set-up of an ``players``-player game just after ``first <first>``:
    it is seat 1's Phase I of round 1.
    """

    def __init__(self, players: int = 4, first: str = "b", **options: Any) -> None:
        self.game = load(players, **options)
        s = self.game.new_initial_state()
        s.apply(f"first {first}")
        self.pos: dict[str, Any] = s.to_position()
        self._supply: dict[str, int] = {}

    # --- players ----------------------------------------------------------------------
    def player(self, colour: str) -> dict[str, Any]:
        colour = COLOURS.get(colour, colour)
        return next(p for p in self.pos["players"] if p["colour"] == colour)

    def turn(
        self, colour: str, phase: str = "movement", mp: int = 5, discoveries: int = 0, round_: int = 2
    ) -> Board:
        """It is ``colour``'s turn, in ``phase`` with ``mp`` movement points left."""
        colour = COLOURS.get(colour, colour)
        self.pos["turn"] = self.pos["turn_order"].index(colour)
        self.pos["phase"] = phase
        self.pos["mp"] = mp if phase == "movement" else 0
        self.pos["discoveries"] = discoveries
        self.pos["round"] = round_
        return self

    def mana(self, colour: str, mana: int, limit: int | None = None) -> Board:
        pl = self.player(colour)
        pl["mana"] = mana
        if limit is not None:
            pl["limit"] = limit
        return self

    # --- tribes -----------------------------------------------------------------------
    def clear_tribes(self, *colours: str) -> Board:
        """Every tribe of ``colours`` (default: all) goes back to its personal supply."""
        for pl in self.pos["players"]:
            if not colours or pl["colour"][0] in colours or pl["colour"] in colours:
                pl["tribes"] = []
                pl["tribes_in_supply"] = TRIBES_PER_COLOUR
        return self

    def tribes(self, *specs: str) -> Board:
        """Add tribes given in tribe notation, e.g. ``"rw@1,-1"``, ``"bo1@0,2"``, ``"r@1,0*"``."""
        for spec in specs:
            m = _TRIBE.match(spec)
            assert m, spec
            pl = self.player(m.group(1))
            pl["tribes"].append([int(m.group(3)), int(m.group(4)), m.group(2) or "", m.group(5) == "*"])
            pl["tribes"].sort()
            pl["tribes_in_supply"] -= 1
            assert pl["tribes_in_supply"] >= 0, f"{pl['colour']} has no tribe left for {spec}"
        return self

    def supply_tribes(self, colour: str, count: int, park: tuple[int, int] = (-1, 1)) -> Board:
        """Leave exactly ``count`` tribes in ``colour``'s supply; the others stand on ``park``."""
        pl = self.player(colour)
        extra = pl["tribes_in_supply"] - count
        assert extra >= 0
        for _ in range(extra):
            pl["tribes"].append([park[0], park[1], "", False])
        pl["tribes"].sort()
        pl["tribes_in_supply"] = count
        return self

    # --- tiles and resources ----------------------------------------------------------
    def tile(self, q: int, r: int, kind: str) -> Board:
        """A tile from the draw pool lies at (q, r): the pool and the largest pile shrink."""
        self.pos["tiles"].append([q, r, kind])
        self.pos["tiles"].sort()
        self.pos["remaining_tiles"][kind] -= 1
        assert self.pos["remaining_tiles"][kind] >= 0
        piles = self.pos["piles"]
        biggest = max(range(len(piles)), key=lambda i: piles[i]["size"])
        piles[biggest]["size"] -= 1
        return self

    def loose(self, q: int, r: int, wood: int = 0, stone: int = 0) -> Board:
        """Exactly ``wood`` and ``stone`` lie loose on (q, r)."""
        rows = [row for row in self.pos["loose"] if (row[0], row[1]) != (q, r)]
        if wood or stone:
            rows.append([q, r, wood, stone])
        self.pos["loose"] = sorted(rows)
        return self

    def clear_loose(self) -> Board:
        self.pos["loose"] = []
        return self

    def supply(self, wood: int | None = None, stone: int | None = None) -> Board:
        """Fix the general supply instead of deriving it (breaks conservation on purpose)."""
        if wood is not None:
            self._supply["wood"] = wood
        if stone is not None:
            self._supply["stone"] = stone
        return self

    def stones_removed(self, n: int) -> Board:
        self.pos["supply"]["stones_removed"] = n
        return self

    # --- huts, holy places, offerings ----------------------------------------------------
    def clear_huts(self) -> Board:
        self.pos["huts"] = []
        return self

    def hut(self, owner: str, num: int, q: int, r: int, offering: int = 0) -> Board:
        """A hut (``owner`` colour letter/name or ``"neutral"``); ``offering`` is a value."""
        owner = COLOURS.get(owner, owner)
        pub = self.offering(owner, offering) if offering else 0
        self.pos["huts"].append([owner, num, q, r, pub])
        self.pos["huts"].sort()
        return self

    def offering(self, colour: str, value: int) -> int:
        """Take ``value`` out of ``colour``'s unplaced offerings; returns its public id."""
        off = self.player(colour)["offerings"]
        off["unplaced"].remove(value)
        off["unplaced_count"] = len(off["unplaced"])
        pub = off["next_id"]
        off["next_id"] = pub + 1
        off["placed"][str(pub)] = value
        return pub

    def delivered(self, colour: str, *values: int) -> Board:
        for v in values:
            pub = self.offering(colour, v)
            self.player(colour)["offerings"]["delivered"].append(pub)
        return self

    def holy(self, colour: str, q: int, r: int) -> Board:
        colour = COLOURS.get(colour, colour)
        self.pos["holy_places"].append([q, r, colour])
        self.pos["holy_places"].sort()
        return self

    # --- cards ------------------------------------------------------------------------
    def hand(self, colour: str, *cards: str, new: bool = False) -> Board:
        """Move ``cards`` from the deck into ``colour``'s hand (``new``: drawn this turn)."""
        pl = self.player(colour)
        for card in cards:
            assert self.pos["deck"].get(card, 0) > 0, card
            self.pos["deck"][card] -= 1
            if not self.pos["deck"][card]:
                del self.pos["deck"][card]
            pl["hand"][card] = pl["hand"].get(card, 0) + 1
            if new:
                pl["new_cards"][card] = pl["new_cards"].get(card, 0) + 1
        pl["hand_size"] = sum(pl["hand"].values())
        pl["new_count"] = sum(pl["new_cards"].values())
        self.pos["deck_size"] = sum(self.pos["deck"].values())
        return self

    def to_discard(self, *cards: str) -> Board:
        for card in cards:
            self.pos["deck"][card] -= 1
            if not self.pos["deck"][card]:
                del self.pos["deck"][card]
            self.pos["discard"][card] = self.pos["discard"].get(card, 0) + 1
        self.pos["deck_size"] = sum(self.pos["deck"].values())
        return self

    def empty_deck(self) -> Board:
        """Every card left in the deck goes to the discard pile."""
        for card, n in self.pos["deck"].items():
            self.pos["discard"][card] = self.pos["discard"].get(card, 0) + n
        self.pos["deck"] = {}
        self.pos["deck_size"] = 0
        return self

    # --- loading ----------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        pos = copy.deepcopy(self.pos)
        wood = 20 - sum(row[2] for row in pos["loose"])
        stone = 20 - sum(row[3] for row in pos["loose"]) - pos["supply"]["stones_removed"]
        for pl in pos["players"]:
            wood -= sum(1 for t in pl["tribes"] if t[2] == "w")
            stone -= sum(1 for t in pl["tribes"] if t[2] == "s")
        pos["supply"]["wood"] = self._supply.get("wood", wood)
        pos["supply"]["stone"] = self._supply.get("stone", stone)
        return pos

    def state(self) -> Any:
        """The position loaded with every check but piece conservation (tests that need it
        call :func:`conserved`), since some situations leave pieces out on purpose."""
        from ziggurat.games.mesopotamia.position import load_position

        return load_position(self.game, self.position(), strict=False)
