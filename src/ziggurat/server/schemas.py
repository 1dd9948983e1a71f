"""Pydantic models of the HTTP API (they make the OpenAPI document at ``/openapi.json``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from ziggurat.server.timecontrol import TimeControlIn


class FailedTable(BaseModel):
    """A stored table that could not be resumed, and why."""

    table: str
    reason: str


class TablesHealth(BaseModel):
    resumed: int = Field(description="unfinished tables resumed when the server started")
    failed: list[FailedTable] = Field(description="stored tables that could not be loaded")


class Health(BaseModel):
    status: str = Field(examples=["ok"])
    tables: TablesHealth | None = Field(default=None, description="null until the tables are resumed")


class ErrorOut(BaseModel):
    """Every error answer: a reason a person can read."""

    detail: str


class GameOut(BaseModel):
    """A game tables can be created for."""

    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any] = Field(description="option name -> default value")
    bots: list[str] = Field(description="bot kinds a bot seat may use")
    option_specs: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description='option name -> what its declaration allows, where known: "values" (the '
        'only texts it takes), "min"/"max" (a number\'s bounds), "rules" (its rule numbers)',
    )


class SeatIn(BaseModel):
    """A seat of a new table: a human (who gets an invite token), a bot, or an open seat of a
    public table (a player takes it from the lobby)."""

    kind: Literal["human", "bot", "open"] = "human"
    bot: str | None = Field(
        default=None,
        description=(
            "for bot seats: one of the game's bots (GET /api/games): a level, easy, medium or "
            "hard (docs/bots.md), or random or heuristic; by default heuristic, else random"
        ),
    )


class TableIn(BaseModel):
    """``POST /api/tables``: seats default to all humans, the seed to a random one."""

    game: str = Field(examples=["mesopotamia"])
    players: int | None = Field(default=None, examples=[3], description="defaults to the number of seats")
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"round_limit": 30}])
    seats: list[SeatIn] | None = None
    seed: int | None = Field(default=None, description="chance and bots are seeded from it; kept secret")
    position: dict[str, Any] | None = Field(
        default=None,
        description=(
            "start from this position (the game's position format) instead of the set-up; only on a "
            "server created with allow_positions (for tests and prepared situations): 403 otherwise"
        ),
    )
    public: bool = Field(
        default=False,
        description=(
            "list the table in the public lobby: its one human seat is the creator's (the host), the "
            "others open seats or bots; created with the sign-in cookie it needs X-CSRF-Token"
        ),
    )
    time_control: TimeControlIn | None = Field(
        default=None, description="the table's clock: none (the default), realtime or turn_based"
    )
    host_name: str | None = Field(
        default=None,
        max_length=200,
        description="a public table's host as a guest: the name shown in the lobby (a signed-in host is shown by the account's name)",
    )


class SeatCreated(BaseModel):
    seat: int
    colour: str
    kind: str
    bot: str | None
    token: str | None = Field(description="the seat's invite token (human seats; shown once)")
    link: str | None = Field(
        description="https://host/table/{id}#token=...: the server's public URL, else the address asked"
    )


class TableCreated(BaseModel):
    table: str
    game: str
    seats: list[SeatCreated]
    spectator_token: str
    spectator_link: str = Field(description="the spectator token's link, absolute like a seat's")


class ExplainIn(BaseModel):
    """``POST /api/tables/{id}/explain``: an action in the game's notation."""

    action: str = Field(min_length=1, max_length=200, examples=["move b@1,-1 2,-1"])


class ExplainOut(BaseModel):
    """What the engine would answer this seat for ``action`` now (nothing is played)."""

    action: str
    legal: bool = Field(description="true: the move is legal now (it was not played)")
    code: str | None = Field(default=None, description="the refusal's code, as a socket error has it")
    message: str | None = Field(default=None, description="the refusal in English, naming the rule")
    event: dict[str, Any] | None = Field(
        default=None, description="the refusal as a message (key and parameters), for other languages"
    )


class LookupIn(BaseModel):
    tokens: list[str] = Field(max_length=100)


class Access(BaseModel):
    """A table a token opens."""

    table: str
    game: str
    status: str
    seat: int | None = Field(description="null for a spectator token")
    colour: str | None
    to_move: str | None
    created: datetime
    seat_label: Any = Field(
        default=None, description="how the game names this seat now (a message: in Mare Nostrum its empire)"
    )
    to_move_label: Any = Field(
        default=None, description="how the game names the seat to move now (a message)"
    )
    seat_labels: list[Any] | None = Field(default=None, description="every seat's name now (messages)")
    outcome: dict[str, Any] | None = Field(
        default=None, description="a finished game: how it was won (condition, rule, winners, scores)"
    )


class SeatOut(BaseModel):
    seat: int
    colour: str
    kind: str = Field(description="human, bot, or open (a free seat of a lobby table)")
    bot: str | None
    connected: bool
    name: str | None = Field(default=None, description="the account or guest sitting there, if known")


class TableOut(BaseModel):
    table: str
    game: str
    players: int
    options: dict[str, Any]
    status: Literal["open", "playing", "over"] = Field(
        description="open: a lobby table waiting for players (the host starts it)"
    )
    public: bool = Field(default=False, description="listed in the public lobby")
    host_seat: int | None = Field(default=None, description="the seat that starts a lobby table")
    time_control: dict[str, Any] | None = Field(
        default=None, description="the table's clock rules (docs/server.md, Time controls); null: no clock"
    )
    seats: list[SeatOut]
    to_move: str | None = Field(description="colour of the seat to move")
    rematch: str | None = Field(description="id of the rematch table, once one was asked for")
