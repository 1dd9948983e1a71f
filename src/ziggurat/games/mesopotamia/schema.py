"""The Mesopotamia position schema (``ziggurat-position/mesopotamia/1``) and its semantic checks.

:class:`Position` is the pydantic model of what :func:`.position.to_position` writes (types,
required fields, enum values, bounds); docs/positions/mesopotamia.schema.json is generated
from it. :func:`check_position` then refuses what the rules make impossible: pieces not
conserved (the game's declared invariants), tribes off the tiles or on a volcano (M2.4), huts
and holy places where they cannot stand (M5.7, M9.1, M10.1), counts that disagree with the
lists they count, seats, tiles and piles that do not exist, and pending decisions that refer
to pieces that are not there. Nothing is dropped or repaired: the first fault raises
:class:`~ziggurat.engine.errors.InvalidPosition` naming the field and the rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Discriminator, Field, StrictBool, StrictInt, StrictStr, Tag

from ziggurat.engine.positions import PositionModel, Refusal, check_schema
from ziggurat.games.mesopotamia.data import CARD_TYPES, COLOURS, DRAWABLE, TILE_TYPES

if TYPE_CHECKING:
    from ziggurat.games.mesopotamia.state import MesoState

    Colour = str
    CardType = str
    TileType = str
    DrawableType = str
else:
    Colour = Literal[tuple(COLOURS)]
    CardType = Literal[tuple(CARD_TYPES)]
    TileType = Literal[tuple(TILE_TYPES)]
    DrawableType = Literal[tuple(DRAWABLE)]


Count = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictInt, Field(ge=1)]
Seat = Annotated[StrictInt, Field(ge=0, le=len(COLOURS) - 1)]
Axial = tuple[StrictInt, StrictInt]
CargoText = Annotated[StrictStr, Field(pattern=r"^(|w|s|o[1-9][0-9]*)$")]
CargoCode = Annotated[StrictInt, Field(ge=0)]  # 0 nothing, 1 wood, 2 stone, 10 + k offering k
Cards = dict[CardType, Count]
IdKey = Annotated[StrictStr, Field(pattern=r"^[1-9][0-9]*$")]


class Offerings(PositionModel):
    unplaced: list[Positive]
    unplaced_count: Count
    placed: dict[IdKey, Positive]
    next_id: Positive
    revealed: list[Positive]
    delivered: list[Positive]


class Player(PositionModel):
    colour: Colour
    mana: Count
    limit: Count
    tribes: list[tuple[StrictInt, StrictInt, CargoText, StrictBool]]
    tribes_in_supply: Count
    offerings: Offerings
    hand: Cards
    new_cards: Cards
    hand_size: Count
    new_count: Count


class Supply(PositionModel):
    wood: Count
    stone: Count
    stones_removed: Count


class Pile(PositionModel):
    size: Count
    top: list[tuple[DrawableType, list[Colour]]]


class RemainingTiles(PositionModel):
    volcano: Count
    forest: Count
    quarry: Count
    plains: Count


def _pending_kind(value: Any) -> str | None:
    """The tag of a pending list: its first element (the union below is keyed on it)."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        return value[0]
    return None


Pending = Annotated[
    Annotated[tuple[Literal["first"]], Tag("first")]
    | Annotated[tuple[Literal["deal"], Count], Tag("deal")]
    | Annotated[tuple[Literal["pile"], Axial, CargoCode, StrictBool, Axial], Tag("pile")]
    | Annotated[tuple[Literal["draw"], Axial, CargoCode, StrictBool, Axial, Count], Tag("draw")]
    | Annotated[tuple[Literal["volcano"], Axial, CargoCode, StrictBool, Axial], Tag("volcano")]
    | Annotated[
        tuple[Literal["shares"], Axial, Literal["forest", "quarry"], Count, list[Axial]], Tag("shares")
    ]
    | Annotated[tuple[Literal["offer"], Positive], Tag("offer")]
    | Annotated[tuple[Literal["card_draw"]], Tag("card_draw")]
    | Annotated[tuple[Literal["peek"], Count, Count], Tag("peek")]
    | Annotated[tuple[Literal["order"], Count, Count], Tag("order")]
    | Annotated[tuple[Literal["teleport"], Seat, Axial, CargoCode, StrictBool], Tag("teleport")]
    | Annotated[tuple[Literal["expel"], tuple[Annotated[StrictInt, Field(ge=-1)], Positive]], Tag("expel")],
    Discriminator(_pending_kind),
]


class Position(PositionModel):
    """A Mesopotamia position: the whole state, as ``state.to_position()`` writes it."""

    format: Literal["ziggurat-position/mesopotamia/1"]
    num_players: Annotated[StrictInt, Field(ge=2, le=4)]
    turn_order: list[Colour]
    turn: Count
    round: Positive
    phase: Literal["setup", "movement", "action", "mana", "over"]
    mp: Count
    discoveries: Count
    action: Literal["huts", "holy", "grow", "draw"] | None
    used_huts: list[tuple[Annotated[StrictInt, Field(ge=-1)], Positive]]
    income_done: StrictBool
    priests: list[Axial]
    pending: Pending | None
    tiles: list[tuple[StrictInt, StrictInt, TileType]]
    loose: list[tuple[StrictInt, StrictInt, Count, Count]]
    supply: Supply
    huts: list[tuple[Colour | Literal["neutral"], Positive, StrictInt, StrictInt, Count]]
    holy_places: list[tuple[StrictInt, StrictInt, Colour]]
    players: list[Player]
    deck: Cards
    deck_size: Count
    discard: Cards
    removed_cards: Cards
    piles: list[Pile]
    remaining_tiles: RemainingTiles
    winner: Colour | None


def check_schema_of(position: Any) -> None:
    """Types, fields and enum values (:class:`Position`)."""
    check_schema(Position, position, "mesopotamia")


# --- semantic checks ---------------------------------------------------------------------

_refuse = Refusal("mesopotamia")
_MOVEMENT_PENDING = ("pile", "draw", "volcano", "shares")
_PHASE_OF_PENDING = {
    "first": ("setup",),
    "deal": ("setup",),
    "pile": ("movement",),
    "draw": ("movement",),
    "volcano": ("movement",),
    "shares": ("movement",),
    "offer": ("action",),
    "card_draw": ("action",),
    "peek": ("movement", "action", "mana"),
    "order": ("movement", "action", "mana"),
    "teleport": ("movement", "action", "mana"),
    "expel": ("movement", "action", "mana"),
}
# Where the declared invariants' messages point (field, rule) when one of them fails.
_INVARIANT_FIELDS = (
    ("wood", "supply.wood", "§2.5"),
    ("stone", "supply.stone", "§2.5"),
    ("negative general supply", "supply", "§2.5"),
    ("card", "deck", "§2.4"),
    ("tribes", "players.tribes", "§2.2"),
    ("huts", "huts", "§2.2"),
    ("holy places", "holy_places", "§2.2"),
    ("Mana", "players.mana", "§2.6"),
    ("offering", "players.offerings", "§2.3"),
    ("new cards", "players.new_cards", "M12.3"),
    ("pile sizes", "piles", "§2.1"),
    ("tiles not conserved", "tiles", "§2.1"),
)


def _duplicates(field: str, keys: list[Any]) -> None:
    seen: set[Any] = set()
    for i, k in enumerate(keys):
        if k in seen:
            _refuse(f"{field}.{i}", f"{k!r} is listed twice")
        seen.add(k)


def check_lists(pos: dict[str, Any], n: int, strict: bool = True) -> None:
    """What the state's dicts and multisets would silently merge or drop: duplicates, entries
    that list nothing, unknown seats, and (``strict``) counts that disagree with the lists
    they count."""
    if pos["num_players"] != n:
        _refuse("num_players", f"the position is for {pos['num_players']} players, the game for {n}")
    seats = COLOURS[:n]
    if len(pos["players"]) != n:
        _refuse("players", f"{len(pos['players'])} players listed for a {n}-player game")
    for i, pl in enumerate(pos["players"]):
        if pl["colour"] != seats[i]:
            _refuse(f"players.{i}.colour", f"seat {i} plays {seats[i]}, not {pl['colour']}", "§3")
    _duplicates("tiles", [(q, r) for q, r, _ in pos["tiles"]])
    _duplicates("loose", [(q, r) for q, r, _, _ in pos["loose"]])
    for i, (_, _, wood, stone) in enumerate(pos["loose"]):
        if not wood and not stone:
            _refuse(f"loose.{i}", "an entry with no wood and no stone")
    _duplicates("holy_places", [(q, r) for q, r, _ in pos["holy_places"]])
    _duplicates("huts", [(o, num) for o, num, _, _, _ in pos["huts"]])
    colour_fields = [("turn_order", pos["turn_order"]), ("holy_places", [h[2] for h in pos["holy_places"]])]
    colour_fields.append(("huts", [h[0] for h in pos["huts"] if h[0] != "neutral"]))
    if pos["winner"] is not None:
        colour_fields.append(("winner", [pos["winner"]]))
    for p, pile in enumerate(pos["piles"]):
        for t, (_, knowers) in enumerate(pile["top"]):
            colour_fields.append((f"piles.{p}.top.{t}", knowers))
            _duplicates(f"piles.{p}.top.{t}.1", knowers)
    for field, colours in colour_fields:
        for c in colours:
            if c not in seats:
                _refuse(field, f"{c} does not play in a {n}-player game")
    for i, pl in enumerate(pos["players"]):
        off = pl["offerings"]
        at = f"players.{i}"
        if strict and off["unplaced_count"] != len(off["unplaced"]):
            _refuse(f"{at}.offerings.unplaced_count", "does not count offerings.unplaced")
        _duplicates(f"{at}.offerings.revealed", off["revealed"])
        _duplicates(f"{at}.offerings.delivered", off["delivered"])
        placed = {int(k) for k in off["placed"]}
        for key in ("revealed", "delivered"):
            for pub in off[key]:
                if pub not in placed:
                    _refuse(f"{at}.offerings.{key}", f"offering {pub} is not placed", "M6.4")
        if placed and max(placed) >= off["next_id"]:
            _refuse(f"{at}.offerings.next_id", f"{off['next_id']} is already used by a placed offering")
        if strict and pl["hand_size"] != sum(pl["hand"].values()):
            _refuse(f"{at}.hand_size", "does not count the hand")
        if strict and pl["new_count"] != sum(pl["new_cards"].values()):
            _refuse(f"{at}.new_count", "does not count new_cards")
        for card, k in pl["new_cards"].items():
            if k > pl["hand"].get(card, 0):
                _refuse(f"{at}.new_cards.{card}", "more new cards than the hand holds", "M12.3")
    if strict and pos["deck_size"] != sum(pos["deck"].values()):
        _refuse("deck_size", "does not count the deck")
    if not pos["piles"]:
        _refuse("piles", "there is at least one tile pile", "S7")
    tops: dict[str, int] = {}
    for p, pile in enumerate(pos["piles"]):
        if len(pile["top"]) > pile["size"]:
            _refuse(f"piles.{p}.top", f"{len(pile['top'])} known tiles on a pile of {pile['size']}", "M15.5")
        for kind, _ in pile["top"]:
            tops[kind] = tops.get(kind, 0) + 1
    for kind, k in tops.items():
        if strict and k > pos["remaining_tiles"][kind]:
            _refuse("piles", f"{k} known {kind} tiles on the piles, {pos['remaining_tiles'][kind]} left")


def check_state(s: MesoState, strict: bool = True) -> None:
    """What the rules make impossible in a built state (after :func:`check_lists`); with
    ``strict`` false, piece conservation (the declared invariants, tile and hut counts) and
    what tribes on the temple carry are not checked: for test situations set up by hand."""
    _check_turn(s)
    _check_board(s, strict)
    _check_pending(s)
    if not strict:
        return
    for message in s.game.invariants(s):
        field, rule = next(((f, r) for key, f, r in _INVARIANT_FIELDS if key in message), ("(pieces)", "§2"))
        _refuse(field, f"pieces not conserved: {message}", rule)


def _check_turn(s: MesoState) -> None:
    n = s.n
    pend = s.pending
    if s.turn_order:
        if sorted(s.turn_order) != list(range(n)):
            _refuse("turn_order", "must list every colour once", "M1.1")
        if s.turn_idx >= n:
            _refuse("turn", f"{s.turn_idx} is not a turn position of {n} players", "M1.1")
    elif pend is None or pend[0] != "first":
        _refuse("turn_order", "empty once the first player is known", "S2")
    elif s.turn_idx:
        _refuse("turn", "no turn before the first player is known", "S2")
    if s.phase == "setup" and (pend is None or pend[0] not in ("first", "deal")):
        _refuse("pending", "set-up waits for the first player or a card deal", "S2")
    if s.phase == "over":
        if pend is not None:
            _refuse("pending", "nothing is pending once the game is over", "M16.1")
    elif s.winner is not None:
        _refuse("winner", "a winner only once the game is over", "M16.1")
    if s.phase == "movement":
        if s.action is not None or s.income_done:
            _refuse("action", "Phase II has not started during Phase I", "M1.2")
        if s.disc > s.game.max_discoveries:
            _refuse("discoveries", f"at most {s.game.max_discoveries} per turn", "M7.7")
    elif s.phase == "action" and s.income_done:
        _refuse("income_done", "income comes in Phase III", "M1.2")
    if s.phase in ("setup", "over") and (s.action is not None or s.used_huts or s.priests):
        _refuse("action", "no Phase II action outside a turn", "M1.2")
    if s.priests and s.phase != "mana":
        _refuse("priests", "Priests are played in Phase III", "M15.2")
    if s.used_huts and s.action != "grow":
        _refuse("used_huts", "huts are used by growth (action C) only", "M11.1")
    huts = {(h[0], h[1]) for h in s.huts}
    for i, h in enumerate(s.used_huts):
        if h not in huts:
            _refuse(f"used_huts.{i}", f"no hut {list(h)} on the map", "M11.1")
    for i, c in enumerate(s.priests):
        if c not in s.holy:
            _refuse(f"priests.{i}", f"no holy place at {list(c)}", "M15.2")
    for seat in range(n):
        if s.limit[seat] < s.game.data["mana"]["startLimit"]:
            _refuse(f"players.{seat}.limit", "below the starting limit; a limit never falls", "§2.6")


def _check_board(s: MesoState, strict: bool) -> None:
    from ziggurat.games.mesopotamia.data import OFFERING, STONE, TEMPLE, VOLCANO, WOOD

    for t in s.opts["start_tiles"]:
        c = (int(t["q"]), int(t["r"]))
        if s.tiles.get(c) != t["type"]:
            _refuse("tiles", f"the start tile {t['type']} at {list(c)} is missing", "S1")
    start = {(int(t["q"]), int(t["r"])) for t in s.opts["start_tiles"]}
    drawn = {kind: 0 for kind in s.remaining}
    for c, kind in s.tiles.items():
        if c in start:
            continue
        if kind not in drawn:
            _refuse("tiles", f"a {kind} at {list(c)}, which only the set-up places", "S1")
        drawn[kind] += 1
    if s.pending is not None and s.pending[0] == "volcano":
        drawn[VOLCANO] += 1  # drawn and shown, about to be placed (M7.3)
    for kind, k in drawn.items():
        if strict and k + s.remaining[kind] != s.game.pool[kind]:
            _refuse(
                f"remaining_tiles.{kind}",
                f"{k} drawn and {s.remaining[kind]} left make {k + s.remaining[kind]}, "
                f"not the {s.game.pool[kind]} of the piles",
                "§2.1",
            )
    _check_connected(s, start)
    opts = s.opts
    for seat, tribes in enumerate(s.tribes):
        on_temple = 0
        for t in tribes:
            at, cargo, _ = t
            if at is None:
                continue
            field = f"players.{seat}.tribes"
            here = s.tiles.get(at)
            if here is None:
                _refuse(field, f"a tribe at {list(at)}, where there is no tile", "M2.2")
            if here == VOLCANO:
                _refuse(field, f"a tribe on the volcano at {list(at)}", "M2.4")
            if 2 < cargo < OFFERING + 1:
                _refuse(field, f"cargo code {cargo} is not wood, stone or an offering", "M3.1")
            if here == TEMPLE:
                on_temple += 1
                if not strict:
                    continue
                if cargo == WOOD and not opts["wood_carrier_may_enter_temple"]:
                    _refuse(field, "a tribe carrying wood on the temple", "M5.3")
                if cargo == STONE and opts["stone_donated_on_temple_entry"]:
                    _refuse(field, "a tribe carrying stone on the temple (donated on entry)", "M5.4")
        limit = opts["temple_tribe_limit"]
        if limit is not None and on_temple > limit:
            _refuse(f"players.{seat}.tribes", f"{on_temple} tribes on the temple, limit {limit}", "M5.1")
    for res in (s.wood, s.stone):
        for spot in res:
            ground = s.tiles.get(spot)
            if ground is None or ground == VOLCANO:
                _refuse("loose", f"resources at {list(spot)}, which is not a tile they can lie on", "M3.3")
            if ground == TEMPLE and not opts["drop_on_temple_allowed"]:
                _refuse("loose", "loose resources on the temple", "M5.7")
    for seat in range(-1, s.n):
        numbers = sorted(h[1] for h in s.huts if h[0] == seat)
        if strict and numbers != list(range(1, len(numbers) + 1)):
            name = "neutral" if seat < 0 else COLOURS[seat]
            _refuse("huts", f"the {name} huts are numbered {numbers}, not 1 to {len(numbers)}", "M9.4")
    per_tile: dict[tuple[int, int], int] = {}
    for owner, num, c, pub in s.huts:
        field = f"huts ({'neutral' if owner < 0 else COLOURS[owner]} {num})"
        limit = len(opts["neutral_huts"]) if owner < 0 else s.game.pieces["huts"]
        if strict and num > limit:
            _refuse(field, f"hut number {num} above {limit}", "§2.2")
        if s.tiles.get(c) != "plains":
            _refuse(field, f"a hut at {list(c)}, which is not a plains", "M9.1")
        if c in s.holy:
            _refuse(field, "a hut on a holy place's tile", "M10.6")
        if owner < 0 and pub:
            _refuse(field, "a neutral hut has no offering", "M6.1")
        per_tile[c] = per_tile.get(c, 0) + 1
        if per_tile[c] > 2:
            _refuse(field, f"three huts on the tile at {list(c)}", "M9.1")
    for c in s.holy:
        if s.tiles.get(c) != "plains":
            _refuse("holy_places", f"a holy place at {list(c)}, which is not a plains", "M10.1")


def _check_pending(s: MesoState) -> None:
    pend = s.pending
    if pend is None:
        if s.phase == "action" and s.action == "draw":
            _refuse("action", "action D draws at once; its draw is pending", "M12.1")
        return
    kind = pend[0]
    if s.phase not in _PHASE_OF_PENDING[kind]:
        _refuse("pending", f"{kind} cannot be pending in phase {s.phase}")
    p = s.active
    if kind == "deal":
        if pend[1] >= s.n:
            _refuse("pending.1", f"turn position {pend[1]} of {s.n}", "§6.1")
        if not sum(s.deck):
            _refuse("deck", "a card is dealt from an empty deck", "§6.1")
    elif kind in ("pile", "draw", "volcano"):
        origin, cargo, spent, target = pend[1:5]
        if (origin, cargo, spent) not in s.tribes[p]:
            _refuse("pending.1", f"no tribe of {COLOURS[p]} at {list(origin)} as described", "M7.1")
        if target in s.tiles or not _adjacent(origin, target):
            _refuse("pending.4", f"{list(target)} is not an empty space next to the tribe", "M7.1")
        if s.mp < 1:
            _refuse("mp", "a discovery step costs 1 MP", "M2.2")
        if kind != "volcano" and not any(s.pile_sizes):
            # a volcano being placed was drawn already: it may have been the last tile
            _refuse("piles", "a discovery with every pile empty", "M7.8")
        if kind == "draw":
            pile = pend[5]
            if pile >= len(s.pile_sizes) or not s.pile_sizes[pile]:
                _refuse("pending.5", f"pile {pile} is not a non-empty pile", "M7.2")
    elif kind == "shares":
        new_tile, tile_kind, left, picked = pend[1:]
        supply = s.supply_wood if tile_kind == "forest" else s.supply_stone
        if s.tiles.get(new_tile) != tile_kind:
            _refuse("pending.1", f"{list(new_tile)} is not a {tile_kind}", "M7.5")
        if not 1 <= left <= supply:
            _refuse("pending.3", f"{left} shares left with {supply} in the supply", "M7.5")
        for c in picked:
            if s.tiles.get(c) != tile_kind:
                _refuse("pending.4", f"{list(c)} is not a {tile_kind}", "M7.5")
    elif kind == "offer":
        if (p, pend[1], 0) not in {(h[0], h[1], h[3]) for h in s.huts} or not s.unplaced[p]:
            _refuse("pending.1", f"no new hut {pend[1]} of {COLOURS[p]} waiting for an offering", "M9.4")
    elif kind == "card_draw":
        if not sum(s.deck) and not sum(s.discard):
            _refuse("deck", "a card draw with no card in the deck or the discard pile", "M12.2")
    elif kind in ("peek", "order"):
        pile, count = pend[1:]
        if pile >= len(s.pile_sizes) or not 1 <= count <= s.pile_sizes[pile]:
            _refuse("pending", f"pile {pile} does not hold {count} tiles", "M15.5")
        if kind == "order" and len(s.pile_tops[pile]) < count:
            _refuse("pending.2", f"{count} tiles to order, {len(s.pile_tops[pile])} seen", "M15.5")
    elif kind == "teleport":
        seat, c, cargo, spent = pend[1:]
        if seat >= s.n or (c, cargo, spent) not in s.tribes[seat]:
            _refuse("pending", f"no such tribe at {list(c)} to teleport", "M15.7")
    elif kind == "expel":
        if tuple(pend[1]) not in {(h[0], h[1]) for h in s.huts}:
            _refuse("pending.1", f"no hut {list(pend[1])} to expel", "M15.8")


def _check_connected(s: MesoState, start: set[tuple[int, int]]) -> None:
    """Every tile is reached from the start tiles through neighbouring tiles: a discovered tile
    lies next to the tile its tribe stepped from, a volcano on a space (M7.1, M7.3)."""
    from ziggurat.games.mesopotamia.data import DIRECTIONS

    seen = set(start)
    todo = list(start)
    while todo:
        q, r = todo.pop()
        for dq, dr in DIRECTIONS:
            c = (q + dq, r + dr)
            if c in s.tiles and c not in seen:
                seen.add(c)
                todo.append(c)
    for c in s.tiles:
        if c not in seen:
            _refuse("tiles", f"the tile at {list(c)} is cut off from the others", "M7.1")


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    from ziggurat.games.mesopotamia.data import DIRECTIONS

    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS
