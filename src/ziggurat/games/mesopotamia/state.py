"""Mesopotamia state: the pieces on the board and whose decision it is.

The rules live in :mod:`.movement` (Phase I), :mod:`.actions` (Phase II and III),
:mod:`.cards` (M14, M15) and :mod:`.flow` (turns, legality, apply); this module holds the
data and its cheap cloning. Hot fields are plain lists, dicts and tuples: a clone copies a
few short containers and shares every immutable tuple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ziggurat.engine.contract import Action, State
from ziggurat.engine.messages import message
from ziggurat.engine.state import CHANCE, SCAN_UP_TO, TERMINAL, logged
from ziggurat.games.mesopotamia.data import (
    CARD_TYPES,
    DIRECTIONS,
    EMPTY,
    FOREST,
    OFFERING,
    PLAINS,
    QUARRY,
    deck_for,
    sum_of,
)

if TYPE_CHECKING:
    from ziggurat.games.mesopotamia.game import MesopotamiaGame

# The pieces' tuples are typed as tuples of any length: a compiled build (docs/speed.md) keeps
# such a tuple as the object it is, where a fixed-length tuple type would make it unpack each
# one it reads from a list or a dict and build it anew to use it as a key or store it (a tile
# looked up in a dict was built afresh at every lookup).
Coord = tuple[Any, ...]
"""A tile's axial coordinate ``(q, r)``."""
TribeT = tuple[Any, ...]
"""A tribe: ``(tile or None for the personal supply, cargo, spent)``."""
HutT = tuple[Any, ...]
"""A hut: ``(owner (-1 neutral), number, tile, offering public id (0: none))``."""

PHASES = ("setup", "movement", "action", "mana", "over")


class TileMemo:
    """What listing legal actions derives from the placed tiles alone, kept until a tile is
    placed (:func:`set_tile` then starts a new memo; clones share it with the tiles).

    ``steps``: per seat and step context (movement points, discovery, temple open), per tribe
    ``(tile, cargo, spent)``, the move texts and the tribe's other texts (movement.py);
    ``ordinary``: how many tiles a Teleport may land on whatever the tribe (cards.py);
    ``landings``: the tiles a Teleport may land on before the temple's limits, in order, each
    with its kind and its ``to q,r`` text (cards.py).
    """

    __slots__ = ("steps", "ordinary", "landings")

    def __init__(self) -> None:
        self.steps: dict[int, dict[TribeT, tuple[Any, ...]]] = {}
        self.ordinary: int | None = None
        self.landings: list[tuple[Any, ...]] | None = None


TILE_MEMOS_KEPT = 64
"""How many :class:`TileMemo` a game keeps for states with other tiles (:func:`tile_memo_for`)."""


def tile_memo_for(game: MesopotamiaGame, tiles: dict[Coord, str]) -> TileMemo:
    """The :class:`TileMemo` of ``game``'s states with these placed tiles: states made apart
    (from a position, a search's sampled worlds, a new game) share what their listing derives
    from the same tiles. A memo holds what the tiles and the game's options decide, so it is
    kept per game; all are let go once :data:`TILE_MEMOS_KEPT` are kept (one call, which bots'
    threads sharing the game may make at the same time)."""
    memos = game.tile_memos
    key = frozenset(tiles.items())
    memo = memos.get(key)
    if memo is None:
        if len(memos) >= TILE_MEMOS_KEPT:
            memos.clear()
        memo = memos[key] = TileMemo()
    return memo


def set_tile(s: MesoState, c: Coord, kind: str) -> None:
    """Place a tile: a new tiles dict (clones share the old one) and its :class:`TileMemo`."""
    tiles = dict(s.tiles)
    tiles[c] = kind
    s.tiles = tiles
    s.tile_memo = tile_memo_for(s.game, tiles)


class SeatTribes:
    """What listing legal actions derives from one seat's tribes alone, valid while they are
    equal to :attr:`tribes` (a copy): other seats' tribes do not change during most of a turn.

    ``on_map``: the distinct tribes on the map, sorted (legal actions come in this order);
    ``teleports``: the Teleport plays naming them (cards.py), built on first use.
    """

    __slots__ = ("tribes", "on_map", "teleports")

    def __init__(self, tribes: list[TribeT]) -> None:
        self.tribes = list(tribes)
        on_map: list[TribeT] = [t for t in tribes if t[0] is not None]
        on_map.sort()
        distinct = []
        last = None
        for t in on_map:
            if t != last:
                distinct.append(t)
                last = t
        self.on_map = distinct
        self.teleports: tuple[str, ...] | None = None


class PhaseOneKept(NamedTuple):
    """What the Phase I listing of the player to move derived from the pieces, kept from one of
    its plies to the next (:func:`.movement.movement_actions`): a step, a pickup, a drop, an
    exchange, a hand-off or a donation changes one or two of its tribes and nothing the
    other parts depend on, so :func:`.flow.perform` updates ``on_map`` alone after those
    (:func:`.movement.kept_after`) and drops the whole for any other action.

    A named tuple, made with ``tuple.__new__`` where it is made at every ply (the named
    tuple's own ``__new__`` is a Python call). Immutable: clones share it.
    """

    seat: int
    """Whose tribes."""
    tribes: tuple[TribeT, ...]
    """A copy of them as they were."""
    on_map: list[TribeT]
    """Those on the map, sorted, repeats included (never changed once made)."""
    loot: frozenset[Coord | None]
    """The tiles where another seat's tribe carries wood or stone (steals, M4)."""
    offerings: dict[Coord, list[str]] | None
    """Per tile, the names of the seat's huts with an offering under them (M6), or None."""
    plays: tuple[str, ...] | None
    """The card plays open to the seat (M14); None until first listed, and not carried on
    when they name tribes (Teleport)."""
    steals: tuple[str, ...] | None
    """The steals open to the seat (M4) as last listed; None until listed, and not carried on
    when a tribe of the seat leaves or joins a tile in ``loot`` (they depend on its tribes
    there and on the other seats' tribes, which do not change while this is kept)."""


def seat_tribes(s: MesoState, seat: int) -> SeatTribes:
    """The :class:`SeatTribes` of ``seat`` now (the kept one while its tribes are unchanged)."""
    memo = s.seat_memo
    known = memo[seat]
    tribes = s.tribes[seat]
    if known is None or known.tribes != tribes:
        known = SeatTribes(tribes)
        s.seat_memo = (*memo[:seat], known, *memo[seat + 1 :])
    return known


class MesoState(State):
    """A Mesopotamia position; :mod:`.flow` decides who moves, what is legal and plays it."""

    __slots__ = (
        "n", "opts", "tiles", "wood", "stone", "tribes", "huts", "holy", "mana",
        "limit", "unplaced", "offer_val", "next_pub", "revealed", "delivered", "hand", "new",
        "deck", "discard", "removed", "pile_sizes", "pile_tops", "remaining", "supply_wood",
        "supply_stone", "stones_removed", "turn_order", "turn_idx", "round", "phase", "mp",
        "disc", "action", "used_huts", "income_done", "priests", "pending", "winner", "tile_memo",
        "seat_memo", "kept",
    )  # fmt: skip

    n: int
    opts: dict[str, Any]
    tiles: dict[Coord, str]  # placed tiles by axial coordinate; replaced, never changed in place
    tile_memo: TileMemo  # what the legal-action listing derived from these tiles
    seat_memo: tuple[SeatTribes | None, ...]
    """Per seat, what listing derived from its tribes when last looked at (:func:`seat_tribes`);
    replaced, never changed in place, so clones share it."""
    kept: PhaseOneKept | None
    """The Phase I listing's parts kept from the last listing (None: none kept); replaced,
    never changed in place, so clones share it."""
    wood: dict[Coord, int]  # loose wood per tile (only non-zero entries)
    stone: dict[Coord, int]
    tribes: list[list[TribeT]]  # per seat, always 8 entries
    huts: list[HutT]
    holy: dict[Coord, int]  # holy place -> owner
    mana: list[int]
    limit: list[int]
    unplaced: list[list[int]]  # values of offerings still in the personal supply
    offer_val: list[dict[int, int]]  # public offering id -> value, for placed offerings
    next_pub: list[int]
    revealed: list[frozenset[int]]
    delivered: list[list[int]]  # public ids, in delivery order
    hand: list[list[int]]  # card counts per type
    new: list[list[int]]  # of which drawn this turn (M12.3)
    deck: list[int]
    discard: list[int]
    removed: list[int]
    pile_sizes: list[int]
    pile_tops: list[list[tuple[str, int]]]  # Land-peeked tops: (tile type, bitmask of knowers)
    remaining: dict[str, int]  # tile types left in all piles together
    supply_wood: int
    supply_stone: int
    stones_removed: int
    turn_order: list[int]
    turn_idx: int
    round: int
    phase: str
    mp: int
    disc: int
    action: str | None
    used_huts: tuple[tuple[int, int], ...]
    income_done: bool
    priests: tuple[Coord, ...]
    pending: tuple[Any, ...] | None  # a sub-decision or chance event under way
    winner: int | None
    # an event's seat (State.log) is the seat whose turn it is, -1 before the first turn

    turn_rule = "M1.3"

    # --- the contract (the pipeline is the engine's: State.apply) ---------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.pending is None:
            return self.turn_order[self.turn_idx]
        return _flow.actor(self)

    def _legal_actions(self) -> list[Action]:
        if self.pending is None and self.phase == "movement":  # most decisions: Phase I
            out: list[Action] = []
            _movement.movement_actions(self, self.turn_order[self.turn_idx], out)
            return out
        return _flow.compute_legal(self)

    def legal_actions(self) -> list[Action]:
        """The engine's :meth:`State.legal_actions` (cached until the next apply, shared with
        clones: do not mutate it), listing a Phase I decision without the call through
        :meth:`_legal_actions` (asked at most decisions)."""
        legal = self._legal
        if legal is None:
            if self.pending is None and self.phase == "movement":
                legal = []
                _movement.movement_actions(self, self.turn_order[self.turn_idx], legal)
            else:
                legal = _flow.compute_legal(self)
            self._legal = legal
            self._legal_set = None
        return legal

    def is_chance_node(self) -> bool:
        # the engine's asks current_player(); most decisions have no sub-decision pending
        return self.pending is not None and self.phase != "over" and _flow.actor(self) == CHANCE

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return _flow.chance_outcomes(self)

    def _apply_action(self, action: Action) -> None:
        _flow.perform(self, action)

    def _refusal(self, who: int, action: Action) -> str:
        reason = _flow.refusal(self, who, _flow.decode(action))
        return message("engine.illegal", action=action, reason=reason)

    def _concerned(self, who: int) -> int:
        return self.turn_order[self.turn_idx] if self.turn_order else -1

    def _game_over(self) -> str:
        if self.winner is None:
            return message("meso.refusal.gameOverNoWinner")
        return message("meso.refusal.gameOver", winner=V.colour(self.winner))

    def _forced_by_secret(self) -> bool:
        """R58: whether this one-alternative decision is forced only because of a secret.

        The engine calls this only when there is one legal action, so the tests are cheap:
        a top-level decision of a player holding a card from before this turn (the card types
        are secret, so the number of card plays is too), the offering under a new hut while
        several are left, a Land reorder, a card drawn from a deck of more than one card (its
        make-up follows from the hands) and a tile drawn from the unseen pool while some
        Land-peeked tile is secret and more than one tile is unseen.
        """
        pend = self.pending
        if pend is None:
            p = self.turn_order[self.turn_idx]
            return sum_of(self.hand[p]) > sum_of(self.new[p])
        kind = pend[0]
        if kind == "order":
            return True
        if kind == "offer":
            return len(self.unplaced[self.turn_order[self.turn_idx]]) > 1
        if kind in ("card_draw", "deal"):
            return sum_of(self.deck) > 1
        if kind == "peek" or (kind == "draw" and not self.pile_tops[pend[5]]):
            peeked = sum(len(t) for t in self.pile_tops)
            return peeked > 0 and sum(self.remaining.values()) - peeked > 1
        return False

    def _settle(self) -> None:
        """The engine's forced-decision loop, skipped where a cheap test shows the decision now
        has two alternatives at least (most Phase I decisions): then nothing is forced, and
        the legal actions are listed only when asked for."""
        if self.pending is None and self.phase == "movement" and _movement.has_a_step(self):
            return
        State._settle(self)

    def apply(self, action: Any, seat: Any = None) -> None:
        """The engine's :meth:`State.apply`, with its most common case inline: a text of the
        cached legal list at a decision of the player whose turn it is, with nothing pending
        (no seat given, or that player's). There the seat to move is the turn's, and so is
        the seat the event concerns; anything else goes through the engine's checks."""
        listed = self._legal
        pending = self.pending  # read once: checking ``self.pending`` would narrow it below
        if (
            listed is None
            or pending is not None
            or action.__class__ is not str
            or len(listed) > SCAN_UP_TO
            or action not in listed  # a finished game lists nothing
        ):
            return State.apply(self, action, seat)
        who = self.turn_order[self.turn_idx]
        if seat is not None and (seat.__class__ is not int or seat != who):
            return State.apply(self, action, seat)  # refuses it as the full checks do
        plies = self._plies_so_far()
        self._legal = None
        self._legal_set = None
        _flow.perform(self, action)
        self.log = logged((self.log, who, action, False, who))
        if not (self.pending is None and self.phase == "movement" and _movement.has_a_step(self)):
            State._settle(self)
        self._count_chosen(plies)

    def _seat_label(self, seat: int) -> str:
        return message("engine.chance") if seat == CHANCE else V.colour(seat)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        out = [0.0] * self.n
        if self.phase == "over" and self.winner is not None:
            out[self.winner] = 1.0
        return out

    def _view(self, seat: int | None) -> dict[str, Any]:
        from ziggurat.games.mesopotamia.view import view

        return view(self, seat)

    def to_position(self) -> dict[str, Any]:
        from ziggurat.games.mesopotamia.position import to_position

        return to_position(self)

    def clone(self) -> MesoState:
        s = MesoState.__new__(MesoState)
        s.game = self.game
        s.n = self.n
        s.opts = self.opts
        s.tiles = self.tiles  # shared: a placed tile replaces the dict (set_tile)
        s.tile_memo = self.tile_memo
        s.seat_memo = self.seat_memo
        s.kept = self.kept
        s.wood = dict(self.wood)
        s.stone = dict(self.stone)
        s.tribes = [list(t) for t in self.tribes]
        s.huts = list(self.huts)
        s.mana = list(self.mana)
        # shared: the rules replace these when they change, never change them in place
        # (rare changes: a card drawn or played, an offering placed or delivered, a tile drawn)
        s.holy = self.holy
        s.limit = self.limit
        s.next_pub = self.next_pub
        s.deck = self.deck
        s.discard = self.discard
        s.removed = self.removed
        s.pile_sizes = self.pile_sizes
        s.remaining = self.remaining
        # per seat or pile: the outer list is copied, each seat's (pile's) own is replaced
        s.unplaced = list(self.unplaced)
        s.offer_val = list(self.offer_val)
        s.revealed = list(self.revealed)
        s.delivered = list(self.delivered)
        s.hand = list(self.hand)
        s.new = list(self.new)
        s.pile_tops = list(self.pile_tops)
        s.supply_wood = self.supply_wood
        s.supply_stone = self.supply_stone
        s.stones_removed = self.stones_removed
        s.turn_order = self.turn_order
        s.turn_idx = self.turn_idx
        s.round = self.round
        s.phase = self.phase
        s.mp = self.mp
        s.disc = self.disc
        s.action = self.action
        s.used_huts = self.used_huts
        s.income_done = self.income_done
        s.priests = self.priests
        s.pending = self.pending
        s.winner = self.winner
        s.log = self.log
        s._legal = self._legal  # never mutated once built: safe to share until the next apply
        s._legal_set = self._legal_set
        self._carry_plies(s)
        return s

    # --- helpers used by the rules ------------------------------------------------------
    @property
    def active(self) -> int:
        """Seat whose turn it is."""
        return self.turn_order[self.turn_idx] if self.turn_order else 0

    def tribes_on(self, seat: int, c: Coord) -> int:
        n = 0
        for t in self.tribes[seat]:
            if t[0] == c:
                n += 1
        return n

    def supply_tribes(self, seat: int) -> int:
        return sum(1 for t in self.tribes[seat] if t[0] is None)

    def huts_on(self, c: Coord) -> list[HutT]:
        return [h for h in self.huts if h[2] == c]

    def huts_placed(self, seat: int) -> int:
        return sum(1 for h in self.huts if h[0] == seat)

    def huts_in_supply(self, seat: int) -> int:
        return self.game.pieces["huts"] - self.huts_placed(seat)

    def holy_in_supply(self, seat: int) -> int:
        placed = sum(1 for o in self.holy.values() if o == seat)
        return self.game.pieces["holyPlaces"] - placed

    def tiles_of(self, kind: str) -> list[Coord]:
        return [c for c, t in self.tiles.items() if t == kind]

    def is_space(self, c: Coord) -> bool:
        """An empty hex that touches at least one tile."""
        if c in self.tiles:
            return False
        q, r = c
        return any((q + dq, r + dr) in self.tiles for dq, dr in DIRECTIONS)

    def spaces(self) -> list[Coord]:
        out = set()
        for q, r in self.tiles:
            for dq, dr in DIRECTIONS:
                c = (q + dq, r + dr)
                if c not in self.tiles:
                    out.add(c)
        return sorted(out)

    def playable(self, seat: int, card: int) -> bool:
        """Held since before this turn (M12.3, M14.2)."""
        return self.hand[seat][card] - self.new[seat][card] > 0

    def offering_value(self, seat: int, pub: int) -> int:
        return self.offer_val[seat][pub]

    def resource_kind_of(self, kind: str) -> str:
        return "wood" if kind == FOREST else "stone" if kind == QUARRY else ""


def new_state(game: MesopotamiaGame) -> MesoState:
    """The set-up position (S1-S8); the first decision is who plays first (S2)."""
    opts = game.opts
    n = game.num_players
    s = MesoState.__new__(MesoState)
    s.game = game
    s.n = n
    s.opts = opts
    s.tiles = {}
    s.seat_memo = (None,) * n
    s.kept = None
    s.wood = {}
    s.stone = {}
    ids: dict[str, Coord] = {}
    for t in opts["start_tiles"]:
        c = (int(t["q"]), int(t["r"]))
        s.tiles[c] = t["type"]
        ids[t["id"]] = c
    s.tile_memo = tile_memo_for(game, s.tiles)
    s.huts = []
    s.tribes = [[] for _ in range(n)]
    s.holy = {}
    pieces = game.pieces
    # Seats in S4 are turn positions; they are bound to colours once the first player is known.
    s.turn_order = []
    s.turn_idx = 0
    s.round = 1
    s.phase = "setup"
    for seat in range(n):
        s.tribes[seat] = [(None, EMPTY, False)] * pieces["tribes"]
    for num, tile_id in enumerate(opts["neutral_huts"], start=1):
        s.huts.append((-1, num, ids[tile_id], 0))
    forest0 = next(c for c, t in s.tiles.items() if t == "forest")
    quarry0 = next(c for c, t in s.tiles.items() if t == "quarry")
    general = game.data["generalSupply"]
    s.wood = {forest0: n}
    s.stone = {quarry0: n}
    s.supply_wood = general["wood"] - n
    s.supply_stone = general["stone"] - n
    s.stones_removed = 0
    start = game.data["mana"]
    s.mana = [start["startMana"]] * n
    s.limit = [start["startLimit"]] * n
    s.unplaced = [sorted(game.data["offeringValues"]) for _ in range(n)]
    s.offer_val = [{} for _ in range(n)]
    s.next_pub = [1] * n
    s.revealed = [frozenset()] * n
    s.delivered = [[] for _ in range(n)]
    s.deck, s.removed = deck_for(n, opts)
    s.discard = [0] * len(CARD_TYPES)
    s.hand = [[0] * len(CARD_TYPES) for _ in range(n)]
    s.new = [[0] * len(CARD_TYPES) for _ in range(n)]
    pool = game.pool
    total = sum(pool.values())
    k = opts["tile_pile_count"]
    s.pile_sizes = [total // k + (1 if i < total % k else 0) for i in range(k)]
    s.pile_tops = [[] for _ in range(k)]
    s.remaining = dict(pool)
    s.mp = 0
    s.disc = 0
    s.action = None
    s.used_huts = ()
    s.income_done = False
    s.priests = ()
    s.pending = ("first",)
    s.winner = None
    s.log = None
    s._legal = None
    s._legal_set = None
    return s


def place_start_pieces(s: MesoState) -> None:
    """S4: once turn order is known, each turn position's colour gets its hut and 3 tribes."""
    ids = {t["id"]: (int(t["q"]), int(t["r"])) for t in s.opts["start_tiles"]}
    per_seat = s.game.data["setup"]["perSeat"]["onStartPlains"]
    for pos, seat in enumerate(s.turn_order, start=1):
        c = ids[s.opts["seat_tiles"][str(pos)]]
        s.huts.append((seat, 1, c, 0))
        tribes = s.tribes[seat]
        for i in range(per_seat["tribes"]):
            tribes[i] = (c, EMPTY, False)
    s.tribes = [sorted(t, key=_tribe_key) for t in s.tribes]


def _tribe_key(t: TribeT) -> tuple:  # type: ignore[type-arg]
    c = t[0]
    return (c is None, c or (0, 0), t[1], t[2])


def sort_tribes(tribes: list[TribeT]) -> list[TribeT]:
    return sorted(tribes, key=_tribe_key)


# The rules import this module, so they are imported once it is complete.
from ziggurat.games.mesopotamia import flow as _flow  # noqa: E402
from ziggurat.games.mesopotamia import movement as _movement  # noqa: E402
from ziggurat.games.mesopotamia import vocabulary as V  # noqa: E402

__all__ = [
    "CHANCE",
    "MesoState",
    "PhaseOneKept",
    "SeatTribes",
    "TileMemo",
    "new_state",
    "seat_tribes",
    "set_tile",
    "tile_memo_for",
    "place_start_pieces",
    "PLAINS",
    "OFFERING",
]
