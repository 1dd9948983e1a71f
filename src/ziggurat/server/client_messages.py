"""The messages a client sends on a table's WebSocket (docs/server.md), and how they are read.

A text frame is read in two steps, each refusing bad input with a reason the client is sent
(as a :class:`~ziggurat.server.live.Refused`), never with an exception that ends the socket:

1. JSON, with a nesting limit checked *before* parsing (Python's parser recurses, so ``[[[...``
   10,000 deep would otherwise fail deep inside it) and no ``NaN`` or ``Infinity``;
2. one of the protocol's messages, a pydantic union told apart by its ``type``: ``action``
   (with its notation text), ``undo``, ``ping`` or ``chat`` (with its text); strict, so
   ``{"action": true}`` or a number for a text is refused, not converted.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from ziggurat.server.live import Refused

MAX_DEPTH = 8
"""Deepest nesting of arrays and objects a message may have (the protocol's need 1)."""
MAX_ACTION_CHARS = 200
"""Longest action text (the longest notation of any game is well under 100 characters)."""
KINDS = ("action", "undo", "ping", "chat")


class _Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class ActionIn(_Message):
    """``{"type": "action", "action": "<notation>"}``: play it for the token's seat."""

    type: Literal["action"]
    action: Annotated[str, StringConstraints(min_length=1, max_length=MAX_ACTION_CHARS, pattern=r"\S")]


class UndoIn(_Message):
    """``{"type": "undo"}``: take back this seat's last action of the turn."""

    type: Literal["undo"]


class PingIn(_Message):
    """``{"type": "ping"}``: answered by ``{"type": "pong"}``."""

    type: Literal["ping"]


class ChatIn(_Message):
    """``{"type": "chat", "text": "..."}``: a chat message of the token's seat (server/chat.py
    cleans it and checks its length, so any string is read here)."""

    type: Literal["chat"]
    text: str


ClientMessage = Annotated[ActionIn | UndoIn | PingIn | ChatIn, Field(discriminator="type")]
_READER: TypeAdapter[ActionIn | UndoIn | PingIn | ChatIn] = TypeAdapter(ClientMessage)


def nesting_depth(text: str) -> int:
    """How deeply the arrays and objects of JSON ``text`` nest (brackets inside strings do not
    count); one pass over the characters, no recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_message(text: str) -> ActionIn | UndoIn | PingIn | ChatIn:
    """The message ``text`` holds.

    :raises Refused: ``bad_message`` saying what is wrong: not JSON, nested deeper than
        :data:`MAX_DEPTH`, not an object, an unknown ``type``, or a field missing or of the
        wrong type or size.
    """
    if nesting_depth(text) > MAX_DEPTH:
        raise Refused("bad_message", f"messages nest at most {MAX_DEPTH} levels deep")
    try:
        data: Any = json.loads(text, parse_constant=_no_constant)
    except ValueError:  # JSONDecodeError, NaN/Infinity, and bad surrogates are all ValueErrors
        raise Refused("bad_message", "not JSON") from None
    if not isinstance(data, dict):
        raise Refused("bad_message", f"a message is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:37] + "..."
        raise Refused("bad_message", f"unknown message type {shown}; expected {', '.join(KINDS)}")
    try:
        return _READER.validate_python(data)
    except ValidationError as exc:
        raise Refused("bad_message", _reason(kind, exc)) from None


def _reason(kind: str, exc: ValidationError) -> str:
    """The first problem pydantic found, as a sentence naming the field."""
    err = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in err["loc"][1:]) or "message"  # loc[0] is the union tag
    if err["type"] == "missing":
        return f"a {kind} message needs {where!r}"
    if kind == "action" and where == "action":
        return (
            f"an action message needs an 'action' string of 1 to {MAX_ACTION_CHARS} characters, "
            "not only spaces"
        )
    return f"{kind} message: {where}: {err['msg']}"
