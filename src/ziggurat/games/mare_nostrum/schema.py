"""The Mare Nostrum: Empires position schema (``ziggurat-position/mare-nostrum/1``).

:class:`Position` is the pydantic model of what ``state.to_position()`` writes: the header
(``format``, ``num_players``) and the whole state dict (docs/mare-nostrum.md, "State and
positions"), with the sub-records of the phase under way (``trade``, ``buy``, ``mil``,
``battle``, ``claim``) and the queue of interrupting items. Ids of goods, tiles, empires,
tracks and stages are enums; province and sea ids are strings checked against the in-play
board by :mod:`.position`, which also holds the semantic checks.
docs/positions/mare-nostrum.schema.json is generated from this model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Discriminator, Field, StrictBool, StrictInt, StrictStr, Tag

from ziggurat.engine.positions import PositionModel, check_schema
from ziggurat.games.mare_nostrum import data as D

STAGES = (
    "assign",
    "start_title",
    "reveal",
    "castor",
    "trade_start",
    "trade_token",
    "trade_size",
    "trade_offer",
    "trade_starter",
    "trade_draft",
    "trade_give",
    "buy_perseus",
    "buy_order",
    "buy_turn",
    "buy_keep",
    "mil_zeus",
    "mil_order",
    "mil_conv",
    "mil_row",
    "mil_sea",
    "mil_march",
    "mil_fight",
    "mil_circe",
    "tie_win",
    "claim_tie",
    "over",
)
if TYPE_CHECKING:
    Good = str
    TileId = str
    EmpireId = str
    Stage = str
else:
    Good = Literal[tuple(D.GOODS)]
    TileId = Literal[tuple(sorted(D.TILES))]
    EmpireId = Literal[tuple(D.EMPIRE_ORDER)]
    Stage = Literal[STAGES]

TOKEN_PATTERN = "^(tax|(leg:)?(" + "|".join(D.GOODS) + "))$"

Count = Annotated[StrictInt, Field(ge=0)]
Positive = Annotated[StrictInt, Field(ge=1)]
HOLDING_BOUND = 999
"""The most tokens of one kind a holding may list. The supply is unlimited (2.1), but a holding
grows by a few tokens a round; the bound keeps a corrupted count from costing the engine
billions of steps."""
Held = Annotated[StrictInt, Field(ge=1, le=HOLDING_BOUND)]
Seat = Annotated[StrictInt, Field(ge=0, le=D.PLAYER_RANGE[1] - 1)]
Token = Annotated[StrictStr, Field(pattern=TOKEN_PATTERN)]
Area = Annotated[StrictStr, Field(min_length=1)]
SeatKey = Annotated[StrictStr, Field(pattern=r"^[0-9]$")]
Track = Literal["trade", "culture", "military"]


class Titles(PositionModel):
    trade: Seat | None
    culture: Seat | None
    military: Seat | None


class Trade(PositionModel):
    v: Count
    token: tuple[Annotated[StrictInt, Field(ge=0, le=2)], Count]
    parts: dict[SeatKey, Positive]
    offers: list[list[Token]]
    received: list[list[Token]]
    takes: list[tuple[Seat, Seat]]
    starter: Seat | None
    chooser: Seat | None
    revealed: StrictBool
    sizing: list[Seat]


class Paying(PositionModel):
    item: Annotated[StrictStr, Field(min_length=1)]
    cost: Positive
    kind: Annotated[StrictStr, Field(pattern="^(normal|alt:(" + "|".join(D.GOODS) + "))$")]
    paid: list[Token]


class Buy(PositionModel):
    done: list[Seat]
    active: Seat | None
    first: list[Seat]
    paying: Paying | None
    free_used: list[Literal["hammurabi", "penthesilea"]]
    perseus: list[Seat]


class Military(PositionModel):
    done: list[Seat]
    active: Seat | None
    arrived: dict[Area, Positive]
    fought: list[Area]
    zeus_q: list[Seat]
    circe_used: list[Seat]


class Battle(PositionModel):
    kind: Literal["land", "sea"]
    where: Area
    att: Seat
    def_: Seat = Field(alias="def")
    att_faces: list[Count]
    def_faces: list[Count]


class LastBattle(Battle):
    totals: tuple[Count, Count]
    hits: tuple[Count, Count]


class Claim(PositionModel):
    track: Track
    tied: list[Seat]


class LastTrade(PositionModel):
    v: Count
    token: tuple[Annotated[StrictInt, Field(ge=0, le=2)], Count]


class LastPayment(PositionModel):
    seat: Seat
    item: Annotated[StrictStr, Field(min_length=1)]
    paid: list[Token]


def _queue_kind(value: Any) -> str | None:
    """The tag of a queue item: its first element (the union below is keyed on it)."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        return value[0]
    return None


ConquestsTaken = Annotated[list[Literal["pillage", "occupy", "convert"]], Field(min_length=1, max_length=2)]
"""The options a conquest has already given, when it may give another (N4.11.1)."""

QueueItem = Annotated[
    Annotated[tuple[Literal["draw"], Seat], Tag("draw")]
    | Annotated[tuple[Literal["lc"], Seat], Tag("lc")]
    | Annotated[tuple[Literal["colossus"], Seat], Tag("colossus")]
    | Annotated[
        # with conquest_options_per_conquest above 1, the options already taken (N4.11.1)
        tuple[Literal["conquest"], Seat, Area] | tuple[Literal["conquest"], Seat, Area, ConquestsTaken],
        Tag("conquest"),
    ]
    | Annotated[tuple[Literal["lose"], Seat, Area, Positive], Tag("lose")],
    Discriminator(_queue_kind),
]


class Position(PositionModel):
    """A Mare Nostrum position: the header and the whole state, as ``state.to_position()``
    writes it (positions written before the header existed have none)."""

    format: Literal["ziggurat-position/mare-nostrum/1"] = "ziggurat-position/mare-nostrum/1"
    num_players: Annotated[StrictInt, Field(ge=D.PLAYER_RANGE[0], le=D.PLAYER_RANGE[1])] | None = None
    n: Annotated[StrictInt, Field(ge=D.PLAYER_RANGE[0], le=D.PLAYER_RANGE[1])]
    round: Count
    stage: Stage
    empires: list[EmpireId | None]
    res: list[dict[Token, Held]]
    tiles: list[list[TileId]]
    copy_: list[TileId | None] = Field(alias="copy")
    pool: dict[Good, Annotated[StrictInt, Field(ge=0, le=1)]]
    legendary_out: dict[Good, Positive]
    markers: dict[Area, Seat]
    buildings: dict[Area, list[Annotated[StrictStr, Field(min_length=1)]]]
    legions: dict[Area, list[Count]]
    triremes: dict[Area, list[Count]]
    fortresses: dict[Area, Seat]
    occupy: dict[Area, dict[Annotated[StrictStr, Field(min_length=1)], Seat]]
    on_marker: dict[Area, Seat]
    pending: dict[Area, tuple[Seat, Count]]
    conqueror: dict[Area, Seat]
    titles: Titles
    tokens_used: tuple[StrictBool, StrictBool, StrictBool]
    display: list[TileId | None]
    facedown: list[TileId]
    pyramids: Seat | None
    queue: list[QueueItem]
    trade: Trade | None
    buy: Buy | None
    mil: Military | None
    battle: Battle | None
    claim: Claim | None
    winner: Seat | None
    after_reveal: Literal["round", "military"]
    zeus: list[tuple[Seat, Seat]]
    castor: list[Seat] | None = None
    start_titles: list[tuple[Track, list[Seat]]] | None = None
    last_trade: LastTrade | None = None
    last_payment: LastPayment | None = None
    last_battle: LastBattle | None = None


def check_schema_of(position: Any) -> None:
    """Types, fields and enum values (:class:`Position`)."""
    check_schema(Position, position, "mare-nostrum")
