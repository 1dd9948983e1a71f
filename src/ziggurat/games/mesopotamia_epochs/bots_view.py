"""What the heuristic bot reads of a seat's view, in the index form of the rules' data.

The bot (:class:`~.bots_model.Picture`) reads a few fields of a view (:func:`~.view.bot_view`
lists them): the VP, each holder's cards (Epoch and People, null where the seat may not know
it, §6), the set-aside cards, the areas, the People round and the pending decision. Read from a
view dict, those are ids to look up; search playouts read the same facts straight from the
sampled world, redacted for the seat in the same way (:func:`facts_of_state`), and never build
the dict (:class:`PlayoutView`, what ``evaluate.rollout_view`` gives). Equal views give equal
:class:`Facts`, so the bot decides the same from either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any, Final, NamedTuple

from ziggurat.games.mesopotamia_epochs.data import SYMBOL_SEAT, SYMBOLS
from ziggurat.games.mesopotamia_epochs.state import EpochsState

Card = tuple[int, int]
"""A card slot as a seat sees it: (its Epoch, its People or -1 where the seat may not know it)."""


class Facts(NamedTuple):
    """The fields of a view the heuristic bot reads, as indices (-1: none or unknown, §6)."""

    n: int
    epoch: int
    phase: str
    vp: tuple[int, ...]
    occ: tuple[int, ...]  # per area: its People, -1 empty
    cnt: tuple[int, ...]  # per area: its tribes
    cards: tuple[tuple[Card, ...], ...]  # per seat: its cards in card order (Epoch, then People)
    set_aside: tuple[Card, ...]  # the set-aside cards (R7), in card order
    active: int  # the People whose round is under way (E4.4), -1 outside one
    order: int  # its order number (0 outside a round)
    pool: int
    sea_round: bool
    coast_held: bool
    pending: tuple[Any, ...] | None  # the pending event, indices for ids (a keep's card -1 if unseen)
    held: tuple[int, ...]  # per People: the bitmask of its areas (from ``occ``)
    owner: tuple[int, ...]  # per People: the seat holding its card, -1 unknown (from ``cards``)


_new_tuple: Final[Callable[[type, tuple[Any, ...]], Any]] = tuple.__new__
"""``tuple.__new__``: a named tuple of its fields (a :class:`Facts`) made without the
``__new__`` written in Python that calling the class goes through."""


@lru_cache(maxsize=8)
def _card_order(peoples: Any) -> tuple[int, ...]:
    """The Peoples in the order a holder's cards are listed (by Epoch, then People order)."""
    return tuple(sorted(range(peoples.size), key=lambda p: (peoples.card_epoch[p], p)))


@lru_cache(maxsize=1024)
def _aside_order(peoples: Any, aside: tuple[int, ...]) -> tuple[int, ...]:
    """The set-aside Peoples in card order (by Epoch, then People order)."""
    return tuple(sorted(aside, key=lambda p: (peoples.card_epoch[p], p)))


def _cards(
    s: EpochsState, seat: int | None
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[int, ...]]:
    """:func:`facts_of_state`'s cards: the hands, the set-aside cards, each card's holder as
    ``seat`` sees them."""
    peoples = s.rules.peoples
    ce = peoples.card_epoch
    redact = seat is not None
    mine = 0 if seat is None else 1 << seat
    owner, public, known = s.owner, s.public, s.known
    hands: list[list[Card]] = [[] for _ in range(s.n)]
    seen = [-1] * peoples.size
    for p in _card_order(peoples):
        o = owner[p]
        if o >= 0:
            if not redact or public[p] or known[p] & mine:
                hands[o].append((ce[p], p))
                seen[p] = o
            else:
                hands[o].append((ce[p], -1))
    if redact:
        aside = tuple((ce[p], p if public[p] else -1) for p in _aside_order(peoples, tuple(s.set_aside)))
    else:
        aside = tuple((ce[p], p) for p in _aside_order(peoples, tuple(s.set_aside)))
    return tuple(tuple(h) for h in hands), aside, tuple(seen)


_RULES_LIMIT = 64
_RULES: dict[int, Any] = {}
_MEMOS: list[dict[Any, Any]] = []


def rules_id(rules: Any) -> int:
    """``id(rules)``, for the bot's memos of answers per game (:func:`remembered`): the rules
    are kept alive while their id names them, so no other rules can take it. When more than
    :data:`_RULES_LIMIT` rules have been seen (a server plays many games), they are let go
    and every such memo is emptied with them."""
    key = id(rules)
    if _RULES.get(key) is not rules:
        if len(_RULES) >= _RULES_LIMIT:
            _RULES.clear()
            for memo in _MEMOS:
                memo.clear()
        _RULES[key] = rules
    return key


def remembered(memo: dict[Any, Any]) -> dict[Any, Any]:
    """``memo``, a dict whose keys hold a :func:`rules_id`: emptied when the rules are let go."""
    _MEMOS.append(memo)
    return memo


_CARDS_LIMIT = 2_000
_CARDS: dict[tuple[Any, ...], tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[int, ...]]] = (
    remembered({})
)
""":func:`_cards` per rules (:func:`rules_id`), seat, and the cards' holders, knowledge,
faces and set-aside Peoples (all it reads)."""

_LAST_CARDS: Final[dict[int | None, tuple[Any, ...]]] = remembered({})
"""Per seat, the last cards :func:`facts_of_state` made: (rules, holders, knowledge, faces,
set-aside Peoples, what :func:`_cards` gave for them)."""


def facts_of_state(s: EpochsState, seat: int | None) -> Facts:
    """The :class:`Facts` of ``view(s, seat)`` (:func:`~.view.bot_view`'s redaction: the
    card identities ``seat`` may not know are -1); ``seat=None``: every card shown."""
    # the cards change only in the allocation: a playout meets the same ones again and again,
    # most often the very ones of the seat's last facts (compared, not hashed)
    last = _LAST_CARDS.get(seat)
    if (
        last is not None
        and last[0] is s.rules
        and last[1] == s.owner
        and last[2] == s.known
        and last[3] == s.public
        and last[4] == s.set_aside
    ):
        cards = last[5]
    else:
        key = (rules_id(s.rules), seat, *s.owner, *s.known, *s.public, -1, *s.set_aside)
        cards = _CARDS.get(key)
        if cards is None:
            if len(_CARDS) >= _CARDS_LIMIT:
                _CARDS.clear()
            cards = _CARDS[key] = _cards(s, seat)
        _LAST_CARDS[seat] = (s.rules, list(s.owner), list(s.known), list(s.public), list(s.set_aside), cards)
    hands, aside, seen = cards
    strategy = s.active >= 0 and s.phase == "strategy"  # position.round_out
    pend = s.pending  # in index form already
    if seat is not None and pend is not None and pend[0] == "keep" and s.draw_order[s.draw_idx] != seat:
        pend = ("keep", -1)  # E3.3: only the drawer sees the card drawn
    fields = (
        s.n,
        s.epoch,
        s.phase,
        tuple(s.vp),
        tuple(s.occ),
        tuple(s.cnt),
        hands,
        aside,
        s.active if strategy else -1,
        s.order if strategy else 0,
        s.pool if strategy else 0,
        s.sea_round if strategy else False,
        s.coast_held if strategy else False,
        pend,
        tuple(s.held),  # kept in step with occ (state.py)
        seen,
    )
    facts: Facts = _new_tuple(Facts, fields)  # Facts(*fields), without its __new__ in Python
    return facts


def facts_of_view(rules: Any, view: Mapping[str, Any]) -> Facts:
    """The :class:`Facts` of a view (or of a full position: every card shown)."""
    if type(view) is PlayoutView:  # not isinstance: a compiled build takes any Mapping for one
        return view.facts
    m, peoples = rules.map, rules.peoples
    area_index, people_index = m.index, peoples.index
    occ = [-1] * m.size
    cnt = [0] * m.size
    held = [0] * peoples.size
    for area, pid, count in view["areas"]:
        a, p = area_index[area], people_index[pid]
        occ[a] = p
        cnt[a] = int(count)
        held[p] |= 1 << a
    cards = tuple(
        tuple(
            (int(c["epoch"]), -1 if c["people"] is None else people_index[c["people"]]) for c in pl["cards"]
        )
        for pl in view["players"]
    )
    aside = tuple(
        (int(c["epoch"]), -1 if c["people"] is None else people_index[c["people"]]) for c in view["set_aside"]
    )
    owner = [-1] * peoples.size
    for seat, hand in enumerate(cards):
        for _epoch, p in hand:
            if p >= 0:
                owner[p] = seat
    rnd = view["round"]
    pend = view["pending"]
    pending: tuple[Any, ...] | None = None
    if pend is not None:
        kind = pend[0]
        if kind == "deal":
            pending = ("deal", SYMBOL_SEAT[pend[1]])
        elif kind == "keep":
            pending = ("keep", -1 if pend[1] is None else people_index[pend[1]])
        elif kind == "displace":
            pending = ("displace", area_index[pend[1]])
        elif kind == "combat":
            pending = ("combat", area_index[pend[1]], int(pend[2]))
        else:
            pending = (kind,)
    return Facts(
        int(view["num_players"]),
        int(view["epoch"]),
        view["phase"],
        tuple(int(pl["vp"]) for pl in view["players"]),
        tuple(occ),
        tuple(cnt),
        cards,
        aside,
        -1 if rnd is None else people_index[rnd["people"]],
        0 if rnd is None else int(rnd["order"]),
        0 if rnd is None else int(rnd["pool"]),
        False if rnd is None else bool(rnd["sea_start"]),
        False if rnd is None else bool(rnd["coast_held"]),
        pending,
        tuple(held),
        tuple(owner),
    )


def view_of_facts(rules: Any, f: Facts) -> dict[str, Any]:
    """The view fields (:func:`~.view.bot_view`) that ``f`` stands for, with ids."""
    ids, pids = rules.map.ids, rules.peoples.ids

    def card(c: Card) -> dict[str, Any]:
        return {"epoch": c[0], "people": pids[c[1]] if c[1] >= 0 else None}

    pend = f.pending
    pending: list[Any] | None = None
    if pend is not None:
        kind = pend[0]
        if kind == "deal":
            pending = ["deal", SYMBOLS[pend[1]]]
        elif kind == "keep":
            pending = ["keep", pids[pend[1]] if pend[1] >= 0 else None]
        elif kind == "displace":
            pending = ["displace", ids[pend[1]]]
        elif kind == "combat":
            pending = ["combat", ids[pend[1]], pend[2]]
        else:
            pending = [kind]
    rnd = None
    if f.active >= 0:
        rnd = {
            "people": pids[f.active],
            "order": f.order,
            "pool": f.pool,
            "sea_start": f.sea_round,
            "coast_held": f.coast_held,
        }
    return {
        "num_players": f.n,
        "epoch": f.epoch,
        "phase": f.phase,
        "players": [
            {"vp": v, "cards": [card(c) for c in hand]} for v, hand in zip(f.vp, f.cards, strict=True)
        ],
        "set_aside": [card(c) for c in f.set_aside],
        "areas": [[ids[a], pids[p], f.cnt[a]] for a, p in enumerate(f.occ) if p >= 0],
        "round": rnd,
        "pending": pending,
    }


class PlayoutView(Mapping[str, Any]):
    """A seat's view of a search's sampled world as the heuristic bot reads it: its
    :class:`Facts`, taken from the state when made (the state may move on). As a mapping it
    is :func:`~.view.bot_view`'s dict (built on first read); the bot reads the facts. It
    pickles as the game's settings, the seat and the facts, and unpickles to an equal view;
    the playouts' memory of choices knows it by its facts (:meth:`memo_key`)."""

    __slots__ = ("game", "seat", "facts", "_fields")

    def __init__(self, game: Any, seat: int, facts: Facts) -> None:
        self.game = game
        self.seat = seat
        self.facts = facts
        self._fields: dict[str, Any] | None = None

    @classmethod
    def of(cls, state: EpochsState, seat: int) -> PlayoutView:
        return cls(state.game, seat, facts_of_state(state, seat))

    def fields(self) -> dict[str, Any]:
        got = self._fields
        if got is None:
            got = self._fields = view_of_facts(self.game.rules, self.facts)
        return got

    def __getitem__(self, key: str) -> Any:
        return self.fields()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.fields())

    def __len__(self) -> int:
        return len(self.fields())

    def memo_key(self) -> Facts:
        """What a search's memory of playout choices knows the view by (the seat and the game
        are the playout's own, :class:`~ziggurat.bots.playout.HeuristicPlayout`): its facts,
        equal exactly when the views' pickles are, and hashed for a fraction of pickling them."""
        return self.facts

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.game
        settings = (game.num_players, tuple(sorted(game.options.items())))
        # a plain tuple pickles faster; what follows from the rest (held, owner) is left out
        return (_restore, (settings, self.seat, self.facts[:_SHOWN]))


_SHOWN = Facts._fields.index("held")
"""The fields of :class:`Facts` that the view shows (the others follow from them)."""


def _restore(
    settings: tuple[int, tuple[tuple[str, Any], ...]], seat: int, shown: tuple[Any, ...]
) -> PlayoutView:
    from ziggurat.engine.registry import load

    players, options = settings
    game: Any = load("mesopotamia-epochs", players=players, **dict(options))
    partial = Facts._make((*shown, (), ()))
    return PlayoutView(game, seat, facts_of_view(game.rules, view_of_facts(game.rules, partial)))


__all__ = [
    "Card",
    "Facts",
    "PlayoutView",
    "facts_of_state",
    "facts_of_view",
    "remembered",
    "rules_id",
    "view_of_facts",
]
