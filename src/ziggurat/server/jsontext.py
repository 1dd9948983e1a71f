"""The JSON text the server sends and digests, written by orjson.

Every action sends a ``state`` message to each viewer watching the table and keeps each
viewer's log entries as JSON text, so encoding is on every action's path: orjson writes a
state message about ten times faster than the standard library's ``json.dumps``.

The text holds the same JSON values as ``json.dumps(value, separators=(",", ":"))`` gives:
keys that are not texts (a seat number, ``None``) become texts as ``json`` makes them, and
named tuples become arrays. Two differences in spelling, not in value: characters beyond ASCII
are written as UTF-8 rather than as ``\\u`` escapes, and a float such as ``1e16`` is written
without the ``+`` of its exponent. Readers parse it with any JSON parser.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_SORTED = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS


def _default(value: Any) -> Any:
    """What orjson does not write itself and ``json`` does: a tuple's subclass (a named
    tuple) as an array."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    return orjson.dumps(value, default=_default, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON ``text`` (a new object each time)."""
    return orjson.loads(text)


def raw(text: str) -> Any:
    """JSON ``text`` that :func:`dumps` writes as it is, where the value would go (text made
    by :func:`dumps` already, not written again)."""
    return orjson.Fragment(text)


def sorted_bytes(value: Any) -> bytes:
    """``value`` as compact JSON with sorted keys, UTF-8 encoded: the same value always gives
    the same bytes, for a digest."""
    return orjson.dumps(value, default=_default, option=_SORTED)
