"""Shared parts of the hostile-input harness (``hostile.py``): what it counts (messages sent by
kind, and the faults it saw, each with a short example so that a failed run says what to look
at), the tables it attacks, and the junk it sends."""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from dataclasses import dataclass, field

EXAMPLES_KEPT = 5
"""Examples kept per fault kind (the count goes on)."""


@dataclass
class Tally:
    """Counts of one run. ``sent`` is keyed by message kind (``ws_malformed_json``, ...);
    ``faults`` by what went wrong (``http_5xx``, ``ws_close_1011``, ``accepted_wrong_token``,
    ...), with up to :data:`EXAMPLES_KEPT` examples each."""

    sent: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    close_codes: Counter[int] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    chat_stored: int = 0

    def count(self, kind: str, n: int = 1) -> None:
        self.sent[kind] += n

    def fault(self, kind: str, example: str) -> None:
        self.faults[kind] += 1
        kept = self.examples.setdefault(kind, [])
        if len(kept) < EXAMPLES_KEPT:
            kept.append(example[:300])

    @property
    def total(self) -> int:
        return sum(self.sent.values())

    def server_errors(self) -> int:
        """HTTP 5xx answers and WebSocket 1011 closes (the server's log is counted apart)."""
        return self.faults["http_5xx"] + self.faults["ws_close_1011"]


@dataclass
class Table:
    """A table the harness made to attack: its seat tokens, spectator token, the seat to move and
    what that seat may play now (from its first ``state`` message)."""

    id: str
    game: str
    players: int
    seat_tokens: dict[int, str]
    spectator: str
    mover: int | None = None
    legal: list[str] = field(default_factory=list)
    version: int = 0

    def others(self) -> list[int]:
        """The seats that are not to move."""
        return [s for s in self.seat_tokens if s != self.mover]


@dataclass
class Fixture:
    """The tables under attack: ``play`` and ``other`` (actions, tokens), ``chat`` (chat floods,
    one session at a time so that its broadcasts are answers), ``lobby`` (a public table waiting
    for players: starting it with wrong tokens)."""

    play: Table
    other: Table
    chat: Table
    lobby: Table

    def tables(self) -> list[Table]:
        return [self.play, self.other, self.chat, self.lobby]

    def all_tokens(self) -> list[str]:
        return [t for table in self.tables() for t in [*table.seat_tokens.values(), table.spectator]]


ODD_TEXTS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\u202e\u0644\u0627",
    "\U0001f600" * 10,
    "e\u0301" * 30,
    "' OR 1=1 --",
    '"; DROP TABLE tables; --',
    "../../etc/passwd",
    "..%2f..%2f",
    "%00",
    "%s%s%s%n",
    "{0}{1}{__class__}",
    "<script>alert(1)</script>",
    "\r\n\r\nHTTP/1.1 200 OK",
    "\t\v\f\x1b[31m",
    "null",
    "NaN",
    "-1",
    "99999999999999999999999999",
    "\ufeff",
    "\uffff",
    "x" * 201,
    "y" * 5000,
]
"""Strings that have broken servers before: NUL, direction marks, combining marks, SQL and
format-string bait, path traversal, header splitting, numbers as text, very long text."""


def junk_text(rng: random.Random) -> str:
    """A string no game would take: one of :data:`ODD_TEXTS`, random characters from all of
    Unicode's planes (no surrogates: they are not text), or a real-looking verb with garbage."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(ODD_TEXTS)
    if roll < 0.6:
        size = rng.choice((1, 2, 5, 20, 80, 199, 200))
        return "".join(_any_char(rng) for _ in range(size))
    verb = rng.choice(("move", "pass", "buy", "place", "attack", "deliver", "build", "trade", "bid", "end"))
    tail = "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 30)))
    return f"{verb} {tail}"


def _any_char(rng: random.Random) -> str:
    while True:
        code = rng.choice((rng.randint(0, 0x7F), rng.randint(0x80, 0xFFFF), rng.randint(0x10000, 0x10FFFF)))
        if not 0xD800 <= code <= 0xDFFF:
            return chr(code)


def junk_token(rng: random.Random) -> str:
    """A token no table has: random url-safe text of a token's length, or other lengths and
    characters."""
    alphabet = string.ascii_letters + string.digits + "-_"
    roll = rng.random()
    if roll < 0.6:
        return "".join(rng.choice(alphabet) for _ in range(32))
    if roll < 0.8:
        return "".join(rng.choice(alphabet) for _ in range(rng.choice((0, 1, 31, 33, 200, 4000))))
    return junk_text(rng)


def junk_json(rng: random.Random, depth: int = 0) -> object:
    """A JSON value of any type (for fields of the wrong type)."""
    kinds = ["int", "float", "bool", "null", "str", "list", "dict"] if depth < 3 else ["int", "str", "null"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice((0, -1, 1, 2**31, -(2**63), 2**64, 10**30))
    if kind == "float":
        return rng.choice((0.5, -1e308, 1e308, 3.14))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "str":
        return junk_text(rng)
    if kind == "list":
        return [junk_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {junk_text(rng)[:20]: junk_json(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def deep_json(rng: random.Random, levels: int) -> str:
    """JSON text nested ``levels`` deep, as arrays, objects or both."""
    style = rng.choice(("array", "object", "mixed"))
    if style == "array":
        return "[" * levels + "]" * levels
    if style == "object":
        return '{"a":' * levels + "1" + "}" * levels
    return '{"type":"action","action":"x","x":' + "[" * levels + "]" * levels + "}"


def malformed_json(rng: random.Random) -> str:
    """Text that is not JSON (or JSON the protocol refuses: NaN, Infinity)."""
    good = json.dumps({"type": "action", "action": "pass"})
    choices = [
        "{",
        "}",
        "[1,2",
        '{"type": "action", "action": }',
        "{'type': 'ping'}",
        '{"type": "ping",}',
        "nul",
        "tru",
        '{"type": NaN}',
        '{"type": "action", "action": Infinity}',
        "-Infinity",
        '"\\ud800"',
        '{"type": "action", "action": "\\x41"}',
        good[: rng.randint(1, len(good) - 1)],
        good + "garbage",
        good + good,
        "\x00" + good,
        "".join(_any_char(rng) for _ in range(rng.randint(1, 40))),
    ]
    return rng.choice(choices)
