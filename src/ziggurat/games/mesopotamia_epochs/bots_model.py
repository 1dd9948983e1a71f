"""The heuristic bot's picture of a Mesopotamia: Epochs position, built from a seat's view only.

- :func:`roll_odds` and :func:`capture`: exact combat odds (E12.2-E12.5: the attacker keeps
  the higher of two dice, +1 for Military; the defender one die, two across difficult terrain;
  Urbanisation wins ties unless both sides have it) and the chance of taking an area with a
  given number of tribes, committed one at a time (E12.6, E12.8), with the tribes it costs.
- :class:`Picture`: the map, the Peoples' owners and VP as the view shows them, the active
  round, and a simple **threat model**: every other player's People that borders an area (or
  reaches it by Seafaring) is one attack before our next scoring round, as strong as its next
  pool; not-yet-entered Peoples threaten their start area (displacement, E7.2) and its
  neighbours with the probability that their card is in an opponent's hand. The survival of
  an area held with ``s`` tribes is ``1 - threat * loss(s)``.

Nothing here reads hidden information: card identities come from the view, where whatever
the seat may not know is null (§6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache, lru_cache
from typing import Any, Final

from ziggurat.games.mesopotamia_epochs.bots_view import Facts, facts_of_view, remembered, rules_id
from ziggurat.games.mesopotamia_epochs.data import Rules
from ziggurat.games.mesopotamia_epochs.geography import Map
from ziggurat.games.mesopotamia_epochs.geography import bits as bits  # the bot modules read it here
from ziggurat.games.mesopotamia_epochs.peoples import Peoples

# The heuristic bot's judgement (:data:`HEURISTIC`; :class:`Judgement` says what each means)
LOSS = (1.0, 0.8, 0.55, 0.4)
URBAN_LOSS = 0.85  # an Urbanisation defender wins ties (E12.5)
THREAT = (0.2, 0.12)
FUTURE_KEEP = 0.7
DENIAL = (2.0, 1.0)
CAP: Final = 14  # tribes considered for capture odds (more change nothing measurable)
OTHER_WEIGHT = 0.7  # with three or more players: weight of an opponent other than the strongest


@dataclass(frozen=True)
class Judgement:
    """The constants of a bot's judgement: the heuristic's (:data:`HEURISTIC`) or a variant's
    (:data:`SUCCESSOR`). A :class:`Picture` carries one, so bots with different constants play
    in the same process (a search follows one policy for its own seat and the heuristic for the
    others)."""

    loss: tuple[float, ...] = LOSS
    """``loss[s]``: the chance that an area defended by ``s`` tribes falls when attacked once
    (times :data:`URBAN_LOSS` for an Urbanisation defender)."""
    threat: tuple[float, float] = THREAT
    """The chance that a People attacks a neighbour: base, plus this per tribe of its pool."""
    future_keep: float = FUTURE_KEEP
    """Generic survival per Epoch of an opponent's area (denial values, a card's damage)."""
    denial: tuple[float, float] = DENIAL
    """Weight of what an opponent loses: two players, more (measured)."""
    open_share: float = 0.35
    """Share of the best area an empty area opens up that counts for it."""
    spare: float = 0.02
    """Value of a spare tribe on a stack while later Epochs remain."""
    keep_per_epoch: float = 0.75
    """Share of a People's areas still held one Epoch later (a card's worth)."""
    reinforcement_vp: float = 0.6
    """VP per reinforcement tribe per round it can still score (a card's worth)."""
    pessimism: float = 0.3
    """How far below the average card we expect what others pass us (three or more players)."""

    losses: tuple[tuple[float, ...], tuple[float, ...]] = field(init=False, repr=False, compare=False)
    """``loss`` of a People without, with Urbanisation (derived)."""

    token: int = field(init=False, repr=False, compare=False)
    """The same small number for equal judgements (cheap to hash: :class:`Picture`'s memos)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "losses", (self.loss, tuple(x * URBAN_LOSS for x in self.loss)))
        constants = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "token", _TOKENS.setdefault(constants, len(_TOKENS)))


_TOKENS: dict[tuple[Any, ...], int] = {}


HEURISTIC = Judgement()
"""The heuristic bot's judgement."""

SUCCESSOR = replace(
    HEURISTIC,
    denial=(4.0, 1.0),
    open_share=0.98,
    spare=0.027,
    threat=(0.118, 0.08),
    keep_per_epoch=0.45,
    reinforcement_vp=1.49,
)
"""The successor policy's judgement (``bots.SuccessorBot``; docs/bots.md, "Own-seat policy"):
what the opponent loses weighs twice the heuristic's, and the other constants were tuned
together against the heuristic in seeded 2-player games."""


@cache
def roll_odds(sides: int, bonus: int, dice: int, urb_att: bool, urb_def: bool) -> tuple[float, float, float]:
    """One roll (E12.2-E12.5, R16-R18): (attacker wins, defender wins, both lose one)."""
    win = lose = tie = 0.0
    n2 = sides * sides
    for x in range(1, sides + 1):
        px = (2 * x - 1) / n2  # the higher of two dice (E12.10)
        for y in range(1, sides + 1):
            py = (2 * y - 1) / n2 if dice == 2 else 1 / sides
            a = x + bonus
            if a > y:
                win += px * py
            elif a < y:
                lose += px * py
            elif urb_att and not urb_def:
                win += px * py
            elif urb_def and not urb_att:
                lose += px * py
            else:
                tie += px * py
    return win, lose, tie


@cache
def capture(defenders: int, tribes: int, odds: tuple[float, float, float]) -> tuple[float, float]:
    """(chance to hold the area, expected tribes spent) committing up to ``tribes`` tribes one
    after another into an area with ``defenders`` (E12.6-E12.8)."""
    tribes = min(tribes, CAP)
    if tribes <= 0:
        return 0.0, 0.0
    if defenders <= 0:
        return 1.0, 1.0
    p, e = _fight(defenders, tribes - 1, odds)
    return p, e + 1.0


@cache
def _fight(defenders: int, rest: int, odds: tuple[float, float, float]) -> tuple[float, float]:
    """An attacking tribe is in the area with ``defenders`` left and ``rest`` in the pool."""
    win, lose, tie = odds
    if defenders == 1:
        pw, ew = 1.0, 0.0
    else:
        pw, ew = _fight(defenders - 1, rest, odds)
    pl, el = capture(defenders, rest, odds)
    pt, et = capture(defenders - 1, rest, odds)
    return win * pw + lose * pl + tie * pt, win * ew + lose * el + tie * et


_CAPTURES: Final[dict[int, tuple[float, float]]] = {}
""":func:`capture` of :func:`roll_odds` (:func:`capture_of`), per (die sides, bonus,
defender's dice, attacker's and defender's Urbanisation, defenders, tribes): what a
placement (and a card's worth) asks of each attack, in one look-up."""
_CAPTURES_LIMIT = 4_096


def capture_of(
    sides: int, bonus: int, dice: int, urb_att: bool, urb_def: bool, defenders: int, tribes: int
) -> tuple[float, float]:
    """``capture(defenders, tribes, roll_odds(sides, bonus, dice, urb_att, urb_def))``."""
    if tribes > CAP:
        tribes = CAP  # capture() considers no more
    if not (0 < sides < 1024 and 0 <= bonus < 64 and 0 < dice < 4 and 0 <= defenders < 1024 and tribes >= 0):
        return capture(defenders, tribes, roll_odds(sides, bonus, dice, urb_att, urb_def))
    key = (
        (((sides * 64 + bonus) * 4 + dice) * 4 + (2 if urb_att else 0) + (1 if urb_def else 0)) * 1024
        + defenders
    ) * (CAP + 1) + tribes
    hit = _CAPTURES.get(key)
    if hit is None:
        if len(_CAPTURES) >= _CAPTURES_LIMIT:
            _CAPTURES.clear()
        hit = _CAPTURES[key] = capture(defenders, tribes, roll_odds(sides, bonus, dice, urb_att, urb_def))
    return hit


@lru_cache(maxsize=8)
def value_table(peoples: Any, m: Any) -> tuple[tuple[int, ...], ...]:
    """E14.2 for every People and area (``[p][a]``): 1, 2 for a double-value area, twice that
    in the People's bonus area. Built once per set of rules (the Peoples and the map)."""
    base = [2 if m.double[a] else 1 for a in range(m.size)]
    return tuple(
        tuple(2 * v if peoples.bonus[p] == a else v for a, v in enumerate(base)) for p in range(peoples.size)
    )


@cache
def _kept(future: int, keep: float) -> float:
    """What an area held now is expected to score over ``future`` later Epochs, at the generic
    survival ``keep`` per Epoch (:attr:`Judgement.future_keep`: the denial values)."""
    return sum(keep**j for j in range(1, future + 1))


@lru_cache(maxsize=8)
def order_table(peoples: Any) -> tuple[tuple[int, ...], ...]:
    """E4.2: every People's order number (``[epoch][p]``; Epoch 0 unused)."""
    return tuple(
        tuple(int(peoples.order(p, e)) for p in range(peoples.size)) for e in range(peoples.epochs + 1)
    )


@lru_cache(maxsize=256)
def _later(orders: tuple[int, ...], order: int) -> tuple[bool, ...]:
    """Per People, whether its order number this Epoch comes after ``order`` (E4.2)."""
    return tuple(o > order for o in orders)


@lru_cache(maxsize=8)
def _land_coasts(m: Any) -> int:
    """The coastal areas that are not deserts (where a sea start may threaten, E7.5, E11)."""
    return sum(1 << a for a in range(m.size) if m.coastal[a] and not m.desert[a])


_TABLES: Final[dict[int, tuple[Any, ...]]] = {}
"""What :meth:`Picture.__init__` reads per set of rules, by the Peoples' id (with the Peoples
and the map: their id stays their own while they are kept): (Peoples, map,
:func:`value_table`, :func:`order_table`, ``_later`` per Epoch and order number, ``_kept``
per judgement and later Epochs), found in one look-up where each table was a call."""


def _tables(peoples: Any, m: Any) -> tuple[Any, ...]:
    """:data:`_TABLES`' entry for ``peoples`` and ``m``."""
    got = _TABLES.get(id(peoples))
    if got is None or got[0] is not peoples or got[1] is not m:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        got = _TABLES[id(peoples)] = (peoples, m, value_table(peoples, m), order_table(peoples), {}, {})
    return got


_AREA_FACTS_LIMIT = 2_000  # per People


def _area_facts(values: Any, adj: Sequence[int], held: list[Any]) -> tuple[list[int], list[int]]:
    """Per People, what its areas score per round (E14.2) and the areas next to them, from
    ``held`` (its bitmask of areas). A People's holdings recur from one position to the next
    (a round changes a few areas), so each People's answer is remembered per bitmask (the
    bitmask's own object is the key: nothing is made to look it up)."""
    n = len(held)
    scores = [0] * n
    near = [0] * n
    kept = _AREA_MEMO.get(id(values))
    if kept is None or kept[0] is not values:
        if len(_AREA_MEMO) >= 8:
            _AREA_MEMO.clear()
        kept = _AREA_MEMO[id(values)] = (values, [{} for _ in range(len(values))])
    memos: list[dict[Any, tuple[Any, ...]]] = kept[1]  # per People (``held`` may stop short of the last ones)
    for p in range(n):
        mask = held[p]  # Any: kept as the object it is, the memo's key
        if not mask:
            continue
        memo = memos[p]
        hit = memo.get(mask)
        if hit is None:
            row = values[p]
            score = reach = 0
            for a in bits(mask):
                score += row[a]
                reach |= adj[a]
            if len(memo) >= _AREA_FACTS_LIMIT:
                memo.clear()
            hit = memo[mask] = (score, reach)
        scores[p] = hit[0]
        near[p] = hit[1]
    return scores, near


_AREA_MEMO: dict[int, tuple[Any, list[dict[Any, tuple[Any, ...]]]]] = {}
"""Per value table (:func:`value_table`, by id, with the table), each People's
:func:`_area_facts` answers per bitmask of its areas (at most :data:`_AREA_FACTS_LIMIT` each,
then afresh)."""


class _Book:
    """Answers of the threat model that Pictures reading the same inputs share (see
    :meth:`Picture.__init__`): :meth:`Picture.threat` per area and People, and values built on
    it alone (a holding's worth in later Epochs, a reinforcement's). Its keys and values are
    numbers and tuples of numbers, which the garbage collector need not follow (a search's
    many books would otherwise make every full collection slower). A class of its own, not a
    tuple: the compiled build reads its fields directly."""

    __slots__ = ("threat", "hold", "reinforce")

    def __init__(self) -> None:
        self.threat: dict[int, float] = {}  # a * Peoples + p
        self.hold: dict[int, float] = {}  # (a * Peoples + p) * 4 + min(tribes, 3)
        self.reinforce: dict[tuple[int, int, int, int], tuple[float, ...]] = {}


_BOOK_LIMIT = 2_000  # some 6 kB each when a search has filled them: a few MB at most
_BOOKS: dict[tuple[Any, ...], _Book] = remembered({})
"""The books per set of what they read (at most :data:`_BOOK_LIMIT`, then afresh); the
rules are named by :func:`~.bots_view.rules_id`."""
_MOVER_LIMIT = 10_000
_MOVERS: dict[tuple[int, ...], list[dict[Any, tuple[Any, ...]]]] = remembered({})
"""Each People's entry of :meth:`Picture._all_movers` (``()``: it attacks nothing) per what
it reads: per rules (:func:`~.bots_view.rules_id`), judgement and Epoch, then per People and
whether it acts later this Epoch (``2 * People + 1`` if it does), per its areas (the bitmask's
own object: nothing is made to look it up); the active People's, per (People, areas, acts
later, pool), in the last dict. At most :data:`_MOVER_LIMIT` in a dict, then afresh."""


PICTURE_FIELDS = (
        "game", "rules", "map", "peoples", "seat", "n", "epoch", "epochs", "phase", "vp", "occ",
        "cnt", "held", "owner", "active", "order", "pool", "sea_round", "coast_held", "pending",
        "_weights_of", "entries", "attackers", "values", "scores", "future", "orders", "later",
        "_generic_kept", "_arrivals", "_reach_any", "_threat", "_denial", "denial_scale",
        "judgement", "_losses", "facts", "_book", "_near", "_movers", "_board", "opened", "worths",
    )  # fmt: skip
"""The fields of a :class:`Picture` (its ``__slots__`` in plain Python)."""


class Picture:
    """What ``seat`` knows, from its view, in the index form of the rules' data.

    A Picture answers many questions about one position (a placement asks the threat to and
    the worth of every area it may use), so what several answers share is built once: the
    threat model's attackers (only opponents' Peoples on the map can attack, E8.2) and the
    order numbers when the Picture is made, the entering Peoples' reach at the first
    :meth:`threat`, and each threat and denial the first time it is asked for. Pictures
    share more (search asks thousands of them): the threat model's answers, and what is built
    on them alone, are kept per set of what they read (the attackers, the entering Peoples,
    the cards' holders: ``_Book``), like each People's round score, neighbours and attacker
    entry per set of areas. Each value is the plain computation's, operation for operation
    (floating-point sums and products in the same order), so the bot decides exactly as
    without these shortcuts (checked against the plain computations in
    ``tests/games/mesopotamia_epochs/test_bot_speedup.py`` and
    ``test_epochs_bot_facts.py``)."""

    __slots__ = PICTURE_FIELDS

    def __init__(
        self,
        game: Any = None,
        view: Mapping[str, Any] | Facts | None = None,
        seat: int = -1,
        judgement: Judgement = HEURISTIC,
    ) -> None:
        """``view``: the seat's view (a dict, or a search's :class:`~.bots_view.PlayoutView`),
        or its :class:`~.bots_view.Facts`. Without a game, a blank picture that
        :meth:`for_seat` and :meth:`after_placements` fill in (they make it with
        ``Picture.__new__``, which a compiled build runs through this)."""
        if game is None or view is None:
            return
        rules: Rules = game.rules  # typed: the compiled build reads their fields directly
        m: Map = rules.map
        peoples: Peoples = rules.peoples
        f = view if isinstance(view, Facts) else facts_of_view(rules, view)
        self.facts = f
        self.game = game
        self.rules = rules
        self.map = m
        self.peoples = peoples
        tables = _tables(peoples, m)
        values: tuple[tuple[int, ...], ...] = tables[2]  # value_table(peoples, m)
        self.values = values
        self.seat = seat
        self.n = f.n
        self.judgement = judgement
        self._losses = judgement.losses  # survival()
        scales = judgement.denial  # what an opponent loses weighs (2 players, more)
        self.denial_scale = scales[0] if self.n == 2 else scales[1]
        self.epoch = f.epoch
        self.epochs = peoples.epochs
        self.future = self.epochs - self.epoch
        generic: dict[int, float] = tables[5]  # _kept(self.future, judgement.future_keep): denial()
        at = judgement.token * 64 + self.future
        kept = generic.get(at)
        if kept is None:
            kept = generic[at] = _kept(self.future, judgement.future_keep)
        self._generic_kept: float = kept
        self.phase = f.phase
        self.vp = f.vp
        self.occ = f.occ
        self.cnt = f.cnt
        self.held = held = list(f.held)
        # E14.2: what each People's areas score per round; the areas next to each People's
        self.scores, near = _area_facts(values, m.adj_mask, held)
        self.owner = list(f.owner)
        self.active = f.active
        self.order = f.order
        self.pool = f.pool
        self.sea_round = f.sea_round
        self.coast_held = f.coast_held
        self.pending = f.pending
        orders: tuple[int, ...] = tables[3][self.epoch]  # order_table(peoples): order_of()
        self.orders = orders
        if self.phase == "allocation":  # acts_later()
            self.later = [True] * peoples.size
        else:
            laters: dict[int, tuple[bool, ...]] = tables[4]
            at = self.epoch * 1024 + self.order
            later = laters.get(at) if 0 <= self.order < 1024 else None
            if later is None:
                later = _later(orders, self.order)
                if 0 <= self.order < 1024:
                    laters[at] = later
            self.later = list(later)
            if self.active >= 0 and self.pending is not None:
                self.later[self.active] = True
        self._near = near
        self._movers: list[tuple[Any, ...]] | None = None  # _all_movers()
        self.opened: dict[int, float] = {}
        """``bots.plan_placement``'s best area opened up, per set of areas a holding would
        open up (a Picture after placements shares it: those areas have not changed)."""
        self._side()

    def _side(self) -> None:
        """What depends on the seat whose side the Picture takes: whom it fears and hurts."""
        f = self.facts
        near = self._near
        self._weights_of: list[float] | None = None  # weights, on first use
        self._board: tuple[Any, ...] | None = None  # board_key(), on first use
        self.worths: dict[tuple[int, int, int], tuple[float, tuple[float, ...]]] | None = None
        """``bots_cards.card_worth``'s answers for this board, once it has asked."""
        self.entries = self._entries(f)
        self.attackers = self._attackers(near)
        reach_any = 0  # the areas some attacker reaches
        for att in self.attackers:
            reach_any |= att[2]
        self._reach_any = reach_any
        self._arrivals: list[tuple[int, int, float, int, float]] | None = None
        self._find_book()
        self._denial: dict[int, float] = {}

    def _find_book(self) -> None:
        """The threat model's book (:class:`_Book`) for the attackers and entries found."""
        # threat() reads only the map, the attackers, the entering Peoples and the cards'
        # holders: positions that share them (the placements of one People round, mostly,
        # and the playouts of a search that pass through them) share its answers
        # flat (a flat tuple hashes twice as fast): no attacker's field is -1, the entries'
        # neither, and the holders, at the end, are one per People
        parts: list[Any] = [rules_id(self.rules), self.judgement.token, self.n, self.future]
        for att in self.attackers:
            parts.extend(att)
        parts.append(-1)
        for entry in self.entries:
            parts.extend(entry)
        parts.extend(self.owner)
        ctx = tuple(parts)
        book = _BOOKS.get(ctx)
        if book is None:
            if len(_BOOKS) >= _BOOK_LIMIT:
                _BOOKS.clear()
            book = _BOOKS[ctx] = _Book()
        self._book = book
        self._threat = book.threat

    def _share(self, pic: Picture) -> None:
        """Give ``pic`` (blank) what :meth:`for_seat` takes over: everything but the seat's
        side (``_SHARED``, written out: a compiled class reads its fields directly)."""
        pic.game = self.game
        pic.rules = self.rules
        pic.map = self.map
        pic.peoples = self.peoples
        pic.n = self.n
        pic.epoch = self.epoch
        pic.epochs = self.epochs
        pic.phase = self.phase
        pic.vp = self.vp
        pic.occ = self.occ
        pic.cnt = self.cnt
        pic.held = self.held
        pic.owner = self.owner
        pic.active = self.active
        pic.order = self.order
        pic.pool = self.pool
        pic.sea_round = self.sea_round
        pic.coast_held = self.coast_held
        pic.pending = self.pending
        pic.values = self.values
        pic.scores = self.scores
        pic.future = self.future
        pic.orders = self.orders
        pic.later = self.later
        pic._generic_kept = self._generic_kept
        pic.denial_scale = self.denial_scale
        pic.judgement = self.judgement
        pic._losses = self._losses
        pic.facts = self.facts
        pic._near = self._near
        pic._movers = self._movers

    def _share_side(self, pic: Picture) -> None:
        """Give ``pic`` the rest of what :meth:`after_placements` takes over (``_ALL``)."""
        pic.seat = self.seat
        pic._weights_of = self._weights_of
        pic.entries = self.entries
        pic.attackers = self.attackers
        pic._arrivals = self._arrivals
        pic._reach_any = self._reach_any
        pic._threat = self._threat
        pic._book = self._book
        pic.opened = self.opened
        pic.worths = self.worths

    def for_seat(self, seat: int) -> Picture:
        """The Picture of the same facts from ``seat``'s side (what it fears, whom it hurts),
        equal to ``Picture(game, facts, seat, judgement)`` for facts that show every card
        (a full position's, as the evaluator reads them): only the seat's side is made anew."""
        pic = Picture.__new__(Picture)
        self._share(pic)
        pic.seat = seat
        pic.opened = {}
        pic._side()
        return pic

    def after_placements(self, f: Facts) -> Picture | None:
        """This Picture once the active People (one of the seat's) has placed tribes, in
        empty areas or on its stacks, its pool has shrunk and tribes have been lost in combat
        where no area changed hands: equal to ``Picture(game, f, seat, judgement)`` when ``f``
        differs from :attr:`facts` by that alone, made from this one (what those cannot
        change is kept: the attackers, the entering Peoples, the weights, the threat
        answers); ``None`` for any other difference. The placements and attacks of one People
        round in a search's playouts follow one another so."""
        g = self.facts
        p = self.active
        if (
            p < 0
            or f.pending is not None
            or g.pending is not None
            or f.active != p
            or self.owner[p] != self.seat
            or not self.held[p]
            or f.cards != g.cards
            or f.vp != g.vp
            or f.order != g.order
            or f.epoch != g.epoch
            or f.phase != g.phase
            or f.set_aside != g.set_aside
            or f.sea_round != g.sea_round
            or f.coast_held != g.coast_held
        ):
            return None
        occ0, occ1 = g.occ, f.occ
        held = self.held[p]
        captured = 0  # the areas taken from other Peoples (E12)
        if occ1 != occ0:
            for a, q in enumerate(occ1):
                if q != occ0[a]:
                    if q != p:
                        return None  # an area changed hands otherwise
                    held |= 1 << a
                    if occ0[a] >= 0:
                        captured |= 1 << a
        # tribes (cnt) may have changed anywhere: nothing made here reads them (a defender
        # that lost a tribe but kept its area, E12.5, is the same attacker and the same target)
        pic = Picture.__new__(Picture)
        self._share(pic)
        self._share_side(pic)
        pic.facts = f
        pic.occ = occ1
        pic.cnt = f.cnt
        pic.pool = f.pool
        if held != self.held[p]:
            pic.held = list(self.held)
            pic.held[p] = held
            pic.scores = list(self.scores)
            pic._near = list(self._near)
            scores, near = _area_facts(self.values, self.map.adj_mask, [0] * p + [held])
            pic.scores[p], pic._near[p] = scores[p], near[p]
        pic._denial = dict(self._denial)  # an area newly held was empty: none of them is kept
        pic._movers = None  # the active People's own entry has changed (other seats' sides)
        pic._board = None
        pic.worths = None
        if captured:
            pic._after_captures(occ0, captured)
        return pic

    def _after_captures(self, before: tuple[int, ...], captured: int) -> None:
        """:meth:`after_placements` once the active People has also taken the areas
        ``captured`` from the Peoples that held them in ``before`` (E12.7): those Peoples'
        areas, their entries as attackers, the entering Peoples if one of them has left the
        map (E4.5), the threat model's book; and with three or more players, whom the seat
        fears most (the weights) and what it read of them (denials, areas opened up)."""
        held = self.held  # a copy already (the active People's areas changed)
        losers: list[int] = []
        for a in bits(captured):
            q = before[a]
            held[q] &= ~(1 << a)
            if q not in losers:
                losers.append(q)
        scores, near = _area_facts(
            self.values, self.map.adj_mask, [held[q] if q in losers else 0 for q in range(max(losers) + 1)]
        )
        gone = False
        for q in losers:
            self.scores[q], self._near[q] = scores[q], near[q]
            gone = gone or not held[q]
        if gone:
            self.entries = self._entries(self.facts)
            self._arrivals = None
        # the attackers: the losers' entries made anew, the others' kept (in People order)
        seat, owner = self.seat, self.owner
        by_people: dict[int, tuple[Any, ...]] = {}
        for att in self.attackers:
            by_people[att[0]] = att
        memo = self._mover_memo()
        for q in losers:
            by_people.pop(q, None)
            if owner[q] != seat and owner[q] >= 0 and held[q]:
                got = self._mover(q, memo, self._near)
                if got:
                    by_people[q] = got
        attackers: list[tuple[Any, ...]] = []
        reach_any = 0
        for q in sorted(by_people):
            att = by_people[q]
            attackers.append(att)
            reach_any |= att[2]
        self.attackers = attackers
        self._reach_any = reach_any
        self._find_book()
        self._denial = {}
        if self.n != 2:  # with two players the weights are fixed (_weights)
            self._weights_of = None
            self.opened = {}

    # --- whom to hurt -----------------------------------------------------------------
    @property
    def weights(self) -> list[float]:
        """How much a VP of each seat counts against us (:meth:`_weights`; worked out when
        first read: the evaluator's Pictures never read it)."""
        w = self._weights_of
        if w is None:
            w = self._weights_of = self._weights()
        return w

    def _weights(self) -> list[float]:
        """How much a VP of each seat counts against us: 1 for the strongest opponent (by VP
        plus what its Peoples score per round times the rounds left), less for the others."""
        if self.n == 2:
            return [0.0 if s == self.seat else 1.0 for s in range(2)]
        proj = [float(v) for v in self.vp]
        left = self.epochs - self.epoch + 1
        held, scores = self.held, self.scores
        for q, s in enumerate(self.owner):
            if s >= 0 and held[q]:
                proj[s] += scores[q] * left * 0.6
        # the strongest opponent, the first seat in order among equals
        strongest = max((s for s in range(self.n) if s != self.seat), key=proj.__getitem__)
        w = [OTHER_WEIGHT] * self.n
        w[self.seat] = 0.0
        w[strongest] = 1.0
        return w

    def board_key(self) -> tuple[Any, ...]:
        """What a card's worth reads of the position (``bots_cards.card_worth``): the rules
        (:func:`~.bots_view.rules_id`, asked at each call: a memo keyed by it is emptied
        when the rules are let go), the Epoch, each area's People, tribes and holder, and
        which Peoples still act this Epoch."""
        rest = self._board
        if rest is None:
            owner = self.owner
            holders = tuple([owner[q] if q >= 0 else -2 for q in self.occ])
            rest = self._board = (self.n, self.epoch, self.occ, self.cnt, holders, tuple(self.later))
        return (rules_id(self.rules), *rest)

    def value(self, p: int, a: int) -> int:
        """E14.2: what area ``a`` scores for People ``p`` each round (:func:`value_table`)."""
        return self.values[p][a]

    def round_score(self, p: int) -> int:
        return self.scores[p]

    def order_of(self, p: int) -> int:
        """E4.2: the People's order number this Epoch."""
        return self.orders[p]

    def acts_later(self, p: int) -> bool:
        """True if ``p`` still has its round (and scoring) later this Epoch: every People in
        the allocation, else a later order number, or the active People before its round ends."""
        return self.later[p]

    def future_rounds(self) -> int:
        """Epochs after this one (each a further scoring round of every People in play)."""
        return self.future

    # --- threats ----------------------------------------------------------------------
    def _entries(self, f: Facts) -> list[tuple[int, float]]:
        """Peoples not on the map yet that may enter against us: (People, probability that it
        enters in an opponent's hands; the next Epoch's count half, being further away)."""
        peoples = self.peoples
        owner, seat, phase = self.owner, self.seat, self.phase
        out: list[tuple[int, float]] = []
        if phase != "allocation" and phase != "strategy":
            return out
        # seen: a card the view shows, in a hand (it has an owner) or set aside
        aside: set[int] = set()
        for _epoch, p in f.set_aside:
            if p >= 0:
                aside.add(p)
        cards = peoples.epoch_cards[self.epoch]
        if phase == "allocation":
            known_opp = 0
            for p in cards:
                if owner[p] >= 0 and owner[p] != seat:
                    known_opp += 1
            hidden = self.n - 1 - known_opp
            unknown = [p for p in cards if owner[p] < 0 and p not in aside]
        else:
            hidden = 0  # this Epoch's opponent cards the view does not show
            for s, hand in enumerate(f.cards):
                if s != seat:
                    for epoch, p in hand:
                        if p < 0 and epoch == self.epoch:
                            hidden += 1
            unknown = [p for p in cards if owner[p] < 0 and p not in aside and self.orders[p] > self.order]
        prob = min(1.0, hidden / len(unknown)) if unknown else 0.0
        for p in cards:
            if owner[p] >= 0 or p in aside:
                s = owner[p]
                if s >= 0 and s != seat and not self.held[p] and self.later[p] and p != self.active:
                    out.append((p, 1.0))
            elif p in unknown and prob > 0:
                out.append((p, prob))
        if self.epoch < self.epochs:
            nxt = peoples.epoch_cards[self.epoch + 1]
            prob = 0.5 * min(1.0, (self.n - 1) / len(nxt))
            for p in nxt:
                out.append((p, prob))
        return out

    def next_pool(self, q: int) -> int:
        """A guess of People ``q``'s next pool: its pool if active, else growth (E6)."""
        if q == self.active:
            return self.pool
        e = self.epoch + (0 if self.acts_later(q) else 1)
        reinf = self.peoples.reinforcements[q].get(e, 0)
        return int(self.rules.growth(q, self.held[q].bit_count())) + reinf

    def _attackers(self, near: list[int]) -> list[tuple[Any, ...]]:
        """The Peoples that may attack before our next round, in People order: ``(People, its
        chance to attack a neighbouring area, the areas it could place into next, the areas
        it holds, whether it reaches every coast by Seafaring)``. A People off the map attacks
        nothing (E8.2). ``near``: the areas next to each People's."""
        movers = self._movers
        if movers is None:  # the same for every seat's side (Picture.for_seat)
            movers = self._movers = self._all_movers(near)
        seat = self.seat
        out: list[tuple[Any, ...]] = []
        for mover, s in movers:
            if s != seat:
                out.append(mover)
        return out

    def _all_movers(self, near: list[int]) -> list[tuple[Any, ...]]:
        """:meth:`_attackers` for a seat holding none of the Peoples: ``(entry, owner)``."""
        out: list[tuple[Any, ...]] = []
        owner = self.owner
        memo = self._mover_memo()
        for q, held in enumerate(self.held):
            s = owner[q]
            if not held or s < 0:
                continue  # not on the map, or no one's (:meth:`_alpha`)
            got = self._mover(q, memo, near)
            if got:
                out.append((got, s))
        return out

    def _mover_memo(self) -> list[dict[Any, tuple[Any, ...]]]:
        """The Peoples' entries as attackers (:meth:`_mover`) kept for this Epoch (``_MOVERS``)."""
        # a People's entry reads only these (next_pool: its pool if active, else its growth
        # and reinforcements), so the positions of a search share them
        start = (rules_id(self.rules), self.judgement.token, self.epoch)
        memo = _MOVERS.get(start)
        if memo is None:
            if len(_MOVERS) >= 64:
                _MOVERS.clear()
            memo = _MOVERS[start] = [{} for _ in range(2 * self.peoples.size + 1)]
        return memo

    def _mover(self, q: int, memo: list[dict[Any, tuple[Any, ...]]], near: list[int]) -> tuple[Any, ...]:
        """People ``q``'s entry as an attacker (on the map, with an owner), ``()`` if it attacks
        nothing; ``memo``: :meth:`_mover_memo`."""
        helds: list[Any] = self.held  # its items as the objects they are: keys
        areas = helds[q]
        held: int = areas
        acts = 1 if self.later[q] else 0
        key: Any = areas
        if q != self.active:
            table = memo[2 * q + acts]
        else:
            table = memo[-1]
            key = (q, areas, acts, self.pool)
        got = table.get(key)
        if got is None:
            got = ()
            # _alpha(q) for a People the seat does not hold
            if not (self.epoch >= self.epochs and not acts):  # else its last round is over
                pool = self.next_pool(q)
                if pool > 0:
                    threat = self.judgement.threat
                    al = threat[0] + threat[1] * pool
                    if self.peoples.military[q]:
                        al *= 1.25
                    al = min(0.9, al)
                    if al > 0:
                        m = self.map
                        coast = bool(self.peoples.seafaring[q] and held & m.coastal_mask)
                        reach = (near[q] | m.coastal_mask if coast else near[q]) & ~m.desert_mask & ~held
                        got = (q, al, reach, held, coast)  # reach: E8.2 b, c; E11.2
            if len(table) >= _MOVER_LIMIT:
                table.clear()
            table[key] = got
        return got

    def _alpha(self, q: int) -> float:
        """The chance that People ``q`` attacks a neighbouring area before our next round."""
        if not self.held[q] or self.owner[q] == self.seat or self.owner[q] < 0:
            return 0.0
        if self.epoch >= self.epochs and not self.acts_later(q):
            return 0.0  # its last round is over
        pool = self.next_pool(q)
        if pool <= 0:
            return 0.0
        threat = self.judgement.threat
        a = threat[0] + threat[1] * pool
        if self.peoples.military[q]:
            a *= 1.25
        return min(0.9, a)

    def _arrival_table(self) -> list[tuple[int, int, float, int, float]]:
        """The :attr:`entries` as :meth:`threat` applies them, in the same order: ``(owner,
        start area's bit, its factor, bits of the other areas it threatens, their factor)``.
        A People entering displaces at its start area (E7.2); a sea start lands on any coast
        (E7.5), a land start reaches the start area's neighbours; never into a desert."""
        m = self.map
        peoples = self.peoples
        out = []
        for q, prob in self.entries:
            start = peoples.start[q]
            if peoples.sea_start[q]:
                near, f = _land_coasts(m), 1.0 - prob * 0.25
            else:
                near, f = m.adj_mask[start] & ~m.desert_mask, 1.0 - prob * 0.5
            out.append((self.owner[q], 1 << start, 1.0 - prob * 0.9, near, f))
        return out

    def threat(self, a: int, p: int) -> float:
        """The chance that area ``a``, held by People ``p``, is attacked (or its People
        displaced) before ``p`` scores again."""
        key = a * self.peoples.size + p
        hit = self._threat.get(key)
        if hit is not None:
            return hit
        m = self.map
        owner = self.owner
        me = owner[p]
        bit = 1 << a
        safe = 1.0
        if self._reach_any & bit and not m.desert[a]:  # E11.5: nothing attacks into a desert
            adj = m.adj_mask[a]
            easy = ~m.difficult_into[a]
            coastal = m.coastal[a]
            q: int
            al: float
            reach: int
            held: int
            coast: bool
            for q, al, reach, held, coast in self.attackers:
                if not reach & bit or q == p or owner[q] == me:
                    continue
                src = held & adj
                if src and not src & easy and not (coastal and coast):
                    al *= 0.6  # only difficult routes (E12.4)
                safe *= 1.0 - al
        arrivals = self._arrivals
        if arrivals is None:
            arrivals = self._arrivals = self._arrival_table()
        for s, start, at_start, near, nearby in arrivals:
            if s == me and me >= 0:
                continue
            if start == bit:
                safe *= at_start
            elif near & bit:
                safe *= nearby
        out = 1.0 - safe
        self._threat[key] = out
        return out

    def survival(self, a: int, p: int, tribes: int) -> float:
        """Chance that ``p`` still holds ``a`` (with ``tribes``) at its next round."""
        loss = self._losses[self.peoples.urbanisation[p]][min(tribes, 3)]
        return max(0.0, 1.0 - self.threat(a, p) * loss)

    def kept(self, s: float) -> float:
        """The later Epochs (:meth:`future_rounds`) an area is expected to be held in, if it
        survives the next one with chance ``s`` (each after that a little less likely)."""
        # a few products (at most one per later Epoch): cheaper worked out than looked up
        keep = total = s  # the first later Epoch
        fall = s * 0.85 if s < 1.0 else s  # held for sure: it stays so
        for _ in range(self.future - 1):
            keep *= fall
            total += keep
        return total

    def hold_value(self, p: int, a: int, tribes: int) -> float:
        """VP expected from holding ``a`` in the rounds after this one (future Epochs)."""
        if self.future <= 0:
            return 0.0
        key = (a * self.peoples.size + p) * 4 + min(tribes, 3)  # survival() reads min(tribes, 3)
        hold = self._book.hold
        hit = hold.get(key)
        if hit is None:
            hit = hold[key] = self.values[p][a] * self.kept(self.survival(a, p, tribes))
        return hit

    def hold_values(self, p: int, a: int, tribes: int, upto: int) -> list[float]:
        """:meth:`hold_value` of ``a`` held with ``tribes`` up to ``upto`` (excluded) tribes."""
        if self.future <= 0:
            return [0.0] * (upto - tribes)
        # hold_value's operations, the threat and the losses read once (a reinforcement's
        # values, which ask for these, are kept in the book themselves)
        threat = self.threat(a, p)
        losses = self._losses[self.peoples.urbanisation[p]]
        value = self.values[p][a]
        out: list[float] = []
        for t in range(tribes, upto):
            survival = max(0.0, 1.0 - threat * losses[min(t, 3)])  # survival(a, p, t)
            out.append(value * self.kept(survival))
        return out

    def denial(self, a: int) -> float:
        """What taking ``a`` from its holder costs that holder's player, weighted by how much
        that player counts against us (negative: it is one of our own Peoples)."""
        hit = self._denial.get(a)
        if hit is not None:
            return hit
        q = self.occ[a]
        if q < 0:
            return 0.0
        s = self.owner[q]
        lost = self.values[q][a] * ((1.0 if self.acts_later(q) else 0.0) + self._generic_kept)
        if s == self.seat:
            out = -lost
        else:
            out = self.denial_scale * lost * (self.weights[s] if s >= 0 else 0.5)
        self._denial[a] = out
        return out


_SHARED = (
    "game", "rules", "map", "peoples", "n", "epoch", "epochs", "phase", "vp", "occ", "cnt",
    "held", "owner", "active", "order", "pool", "sea_round", "coast_held", "pending", "values",
    "scores", "future", "orders", "later", "_generic_kept", "denial_scale", "judgement",
    "_losses", "facts", "_near", "_movers",
)  # fmt: skip
"""What :meth:`Picture.for_seat` takes over: everything but the seat's side (``_side``)."""

_ALL = tuple(name for name in PICTURE_FIELDS if name not in ("_board", "_movers", "_denial"))
"""What :meth:`Picture.after_placements` takes over before it changes what the placements do."""
