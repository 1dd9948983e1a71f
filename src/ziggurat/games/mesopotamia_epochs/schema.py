"""The Mesopotamia: Epochs position schema (``ziggurat-position/mesopotamia-epochs/1``) and its
semantic checks.

:class:`Position` is the pydantic model of what :func:`.position.to_position` writes (types,
required fields, enum values, bounds); docs/positions/mesopotamia-epochs.schema.json is
generated from it. Area and People ids are checked against the game's own map and cards (a
game may use replacement files, §3.6), so the schema gives them as strings. The semantic
checks then refuse what the rules make impossible: two Peoples in one area or one area listed
twice (E8.8), more tribes than the stacking limit (E13.1), tribes in the sea or an uninhabited
area (E9.1, E10.1), cards in two places or of the wrong Epoch (E3.6), a round or a pending
decision that does not fit the phase, and whatever the declared invariants refuse (tribe
ledger, cards, VP). The first fault raises :class:`~ziggurat.engine.errors.InvalidPosition`
naming the field and the rule; nothing is dropped or repaired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Discriminator, Field, StrictBool, StrictInt, StrictStr, Tag

from ziggurat.engine.positions import PositionModel, Refusal, check_schema
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS

if TYPE_CHECKING:
    from ziggurat.games.mesopotamia_epochs.game import EpochsGame
    from ziggurat.games.mesopotamia_epochs.state import EpochsState

    Symbol = str
else:
    Symbol = Literal[tuple(SYMBOLS)]

Count = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictInt, Field(ge=1)]
Id = Annotated[StrictStr, Field(min_length=1)]


class Card(PositionModel):
    epoch: Positive
    people: Id
    known_by: list[Symbol]
    public: StrictBool


class Player(PositionModel):
    symbol: Symbol
    vp: Count
    cards: list[Card]


class SetAside(PositionModel):
    epoch: Positive
    people: Id
    public: StrictBool


class PeopleStats(PositionModel):
    vp: Count
    entered: Count
    removed: Count


class Round(PositionModel):
    people: Id
    order: Count
    pool: Count
    sea_start: StrictBool
    coast_held: StrictBool


class Roll(PositionModel):
    attack: list[Positive]
    defence: list[Positive]
    winner: Literal["attacker", "defender", "both"]


class LastAttack(PositionModel):
    """The game's last attack (E12), a memory for players who did not see it: decides nothing."""

    area: Id
    attacker: Id
    defender: Id
    defenders: Positive
    dice: Annotated[StrictInt, Field(ge=1, le=2)]
    epoch: Positive
    rolls: list[Roll]
    result: Literal["under_way", "taken", "emptied", "failed"]


def _pending_kind(value: Any) -> str | None:
    """The tag of a pending list: its first element (the union below is keyed on it)."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        return value[0]
    return None


Pending = Annotated[
    Annotated[tuple[Literal["deal"], Symbol], Tag("deal")]
    | Annotated[tuple[Literal["draw"]], Tag("draw")]
    | Annotated[tuple[Literal["keep"], Id], Tag("keep")]
    | Annotated[tuple[Literal["landing"]], Tag("landing")]
    | Annotated[tuple[Literal["displace"], Id], Tag("displace")]
    | Annotated[tuple[Literal["combat"], Id, Annotated[StrictInt, Field(ge=1, le=2)]], Tag("combat")],
    Discriminator(_pending_kind),
]


class Position(PositionModel):
    """A Mesopotamia: Epochs position: the whole state, as ``state.to_position()`` writes it."""

    format: Literal["ziggurat-position/mesopotamia-epochs/1"]
    num_players: Annotated[StrictInt, Field(ge=2, le=len(SYMBOLS))]
    map: StrictStr
    peoples_data: StrictStr
    epoch: Positive
    phase: Literal["allocation", "strategy", "over"]
    players: list[Player]
    deck: list[Id]
    deck_size: Count
    set_aside: list[SetAside]
    draw_order: list[Symbol]
    draw_index: Count
    areas: list[tuple[Id, Id, Positive]]
    peoples: dict[Id, PeopleStats]
    round: Round | None
    pending: Pending | None
    last_attack: LastAttack | None = None


def check_schema_of(position: Any) -> None:
    """Types, fields and enum values (:class:`Position`)."""
    check_schema(Position, position, "mesopotamia-epochs")


# --- semantic checks ---------------------------------------------------------------------

_refuse = Refusal("mesopotamia-epochs")
_PHASE_OF_PENDING = {
    "deal": "allocation",
    "draw": "allocation",
    "keep": "allocation",
    "landing": "strategy",
    "displace": "strategy",
    "combat": "strategy",
}
# Where the declared invariants' messages point (field, rule) when one of them fails.
_INVARIANT_FIELDS = (
    ("tribes of", "peoples", "E13"),
    ("area", "areas", "E8.8"),
    ("held areas", "areas", "E8.8"),
    ("has played", "peoples", "E3.7"),
    ("negative pool", "round.pool", "E5"),
    ("deck card", "deck", "E3.6"),
    ("set-aside", "set_aside", "R7"),
    ("dealt before", "players.cards", "E3.6"),
    ("does not know", "players.cards", "E3.5"),
    ("is in", "players.cards", "E3.6"),
    ("holds", "players.cards", "E3.6"),
    ("received", "players.cards", "R9"),
    ("scored", "peoples", "E14"),
    ("VP", "players.vp", "E14.4"),
)


def check_lists(game: EpochsGame, pos: dict[str, Any], strict: bool = True) -> None:
    """What the state's lists would silently merge, drop or misread: unknown ids, duplicates,
    a card listed under the wrong Epoch, a count that disagrees with its list, unknown seats."""
    rules = game.rules
    peoples, m = rules.peoples, rules.map
    n = game.num_players
    if pos["num_players"] != n:
        _refuse("num_players", f"the position is for {pos['num_players']} players, the game for {n}")
    for key, want in (("map", m.map_id), ("peoples_data", peoples.peoples_id)):
        if pos[key] != want:
            _refuse(key, f"the position is for {pos[key]!r}, the game uses {want!r}", "§3.6")
    if not 1 <= pos["epoch"] <= peoples.epochs:
        _refuse("epoch", f"{pos['epoch']} is outside 1 to {peoples.epochs}", "E1")
    seats = SYMBOLS[:n]
    if len(pos["players"]) != n:
        _refuse("players", f"{len(pos['players'])} players listed for a {n}-player game")
    cards: list[tuple[str, str, int]] = []  # (field, people, epoch)
    for i, pl in enumerate(pos["players"]):
        if pl["symbol"] != seats[i]:
            _refuse(f"players.{i}.symbol", f"seat {i} plays {seats[i]}, not {pl['symbol']}", "§2.3")
        for j, card in enumerate(pl["cards"]):
            field = f"players.{i}.cards.{j}"
            cards.append((field, card["people"], card["epoch"]))
            for sym in card["known_by"]:
                if sym not in seats:
                    _refuse(f"{field}.known_by", f"{sym} does not play in a {n}-player game")
            if len(set(card["known_by"])) != len(card["known_by"]):
                _refuse(f"{field}.known_by", "a symbol listed twice")
    for j, card in enumerate(pos["set_aside"]):
        cards.append((f"set_aside.{j}", card["people"], card["epoch"]))
    for j, pid in enumerate(pos["deck"]):
        cards.append((f"deck.{j}", pid, pos["epoch"]))
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep":
        cards.append(("pending.1", pend[1], pos["epoch"]))
    seen: set[str] = set()
    for field, pid, epoch in cards:
        if pid not in peoples.index:
            _refuse(field, f"{pid!r} is not a People of this game", "§9.2")
        if pid in seen:
            _refuse(field, f"the card of {pid} is in two places", "E3.6")
        seen.add(pid)
        card_epoch = peoples.card_epoch[peoples.index[pid]]
        if epoch != card_epoch:
            _refuse(field, f"{pid} is a card of Epoch {card_epoch}, not {epoch}", "E3.6")
    if strict and pos["deck_size"] != len(pos["deck"]):
        _refuse("deck_size", "does not count the deck")
    order = pos["draw_order"]
    if order and sorted(SYMBOLS.index(q) for q in order) != list(range(n)):
        _refuse("draw_order", "must list every player once", "E3.2")
    if pos["draw_index"] > len(order) or (
        pend is not None and pend[0] == "keep" and pos["draw_index"] == len(order)
    ):
        _refuse("draw_index", f"{pos['draw_index']} is past the draw order", "E3.2")
    areas: set[str] = set()
    limit = rules.stack_limit
    for j, (area, pid, count) in enumerate(pos["areas"]):
        field = f"areas.{j}"
        if area not in m.index:
            _refuse(field, f"{area!r} is not an area of the map", "§9.1")
        if area in areas:
            _refuse(field, f"{area} listed twice: two Peoples may not share an area", "E8.8")
        areas.add(area)
        if pid not in peoples.index:
            _refuse(field, f"{pid!r} is not a People of this game", "§9.2")
        if count > limit:
            _refuse(field, f"{count} tribes in {area}, the limit is {limit}", "E13.1")
        if not m.placeable[m.index[area]]:
            _refuse(field, f"tribes in {m.kinds[m.index[area]]} area {area}", "E9.1, E10.1")
    for pid in pos["peoples"]:
        if pid not in peoples.index:
            _refuse(f"peoples.{pid}", f"{pid!r} is not a People of this game", "§9.2")
    rnd = pos["round"]
    if rnd is not None and rnd["people"] not in peoples.index:
        _refuse("round.people", f"{rnd['people']!r} is not a People of this game", "§9.2")
    if pend is not None and pend[0] in ("displace", "combat") and pend[1] not in m.index:
        _refuse("pending.1", f"{pend[1]!r} is not an area of the map", "§9.1")
    if pend is not None and pend[0] == "deal" and pend[1] not in seats:
        _refuse("pending.1", f"{pend[1]} does not play in a {n}-player game", "E1.5")


def check_state(s: EpochsState, strict: bool = True) -> None:
    """What the rules make impossible in a built state (after :func:`check_lists`); with
    ``strict`` false the declared invariants (tribe ledger, cards, VP), the draw order's
    agreement with the VP (E3.2) and which cards are face up (E3.7) are not checked."""
    pend = s.pending
    kind = None if pend is None else pend[0]
    if s.phase == "over":
        if pend is not None or s.active >= 0:
            _refuse("pending", "nothing is under way once the game is over", "E15")
    elif s.phase == "allocation":
        if kind is None or _PHASE_OF_PENDING[kind] != "allocation":
            _refuse("pending", "the allocation waits for a deal, a draw or a keep", "E3")
        if s.active >= 0:
            _refuse("round", "no People round during the allocation", "E4")
    else:
        if s.active < 0:
            _refuse("round", "the Strategy segment is a People's round", "E4.4")
        if kind is not None and _PHASE_OF_PENDING[kind] != "strategy":
            _refuse("pending", f"{kind} belongs to the allocation", "E3")
        if s.owner[s.active] < 0 or not s.public[s.active]:
            _refuse("round.people", "the active People is not in play face up", "E3.7")
    n = len(s.draw_order)
    dealt = sum(1 for card in s.received if card >= 0)
    if kind == "deal":
        if s.epoch != 1 or s.draw_order:
            _refuse("pending", "cards are dealt in Epoch 1 only", "E1.5")
        if [card >= 0 for card in s.received] != [q < pend[1] for q in range(s.n)]:  # type: ignore[index]
            _refuse("pending.1", "cards are dealt in seat order, one to each player", "E1.5")
    elif kind in ("draw", "keep"):
        from ziggurat.games.mesopotamia_epochs.allocation import draw_order

        if s.epoch == 1 or s.draw_idx >= n:
            _refuse("draw_index", "nobody is to draw", "E3.2")
        if strict and s.draw_order != draw_order(s):
            _refuse("draw_order", "not the order of ascending VP (ties: R8)", "E3.2")
        if dealt != s.draw_idx:
            _refuse("draw_index", f"{s.draw_idx} draws made but {dealt} cards received", "E3.4")
        if kind == "draw" and not s.deck:
            _refuse("deck", "a draw from an empty deck", "E3.3")
    elif kind in ("displace", "combat"):
        a = pend[1]  # type: ignore[index]
        if s.occ[a] < 0 or s.occ[a] == s.active:
            _refuse("pending.1", f"{s.rules.map.ids[a]} is not held by another People", "E12")
    if s.epoch == 1 and s.draw_order:
        _refuse("draw_order", "there is no draw in Epoch 1", "E1.5")
    if s.active >= 0 and (s.order, s.active) not in s.rules.peoples.schedule[s.epoch]:
        _refuse("round.order", f"not the order number of {s.rules.peoples.ids[s.active]} this Epoch", "E4.2")
    if strict:
        _check_faces(s)
    if s.phase == "strategy" and s.draw_idx not in (0, n):
        _refuse("draw_index", "the drawing is over in the Strategy segment", "E3.6")
    if not strict:
        return
    from ziggurat.games.mesopotamia_epochs.invariants import check

    for message in check(s):
        field, rule = next(((f, r) for key, f, r in _INVARIANT_FIELDS if key in message), ("(pieces)", "§2"))
        _refuse(field, f"not conserved: {message}", rule)


def _check_faces(s: EpochsState) -> None:
    """Which cards are face up (E3.7, R42): a held card from its People's first round on (or
    from the end of the allocation with ``card_reveal: after_allocation``), a set-aside card
    from the end of its Epoch with ``set_aside_reveal: end_of_epoch``."""
    peoples = s.rules.peoples
    ce = peoples.card_epoch
    over = s.phase == "over"
    for p, o in enumerate(s.owner):
        if o < 0:
            continue
        if ce[p] < s.epoch or over:
            want = True
        elif s.phase == "allocation":
            want = False
        else:
            want = s.rules.reveal_after_allocation or peoples.order(p, s.epoch) <= s.order
        if s.public[p] != want:
            side = "up" if s.public[p] else "down"
            _refuse(f"players.{o}.cards", f"the card of {peoples.ids[p]} is face {side}", "E3.7")
    for p in s.set_aside:
        want = s.rules.set_aside_public and (ce[p] < s.epoch or (ce[p] == s.epoch and over))
        if s.public[p] != want:
            side = "up" if s.public[p] else "down"
            _refuse("set_aside", f"the card of {peoples.ids[p]} is face {side}", "R42")
