"""What a table id can be, so that a path or socket naming something else is answered "no such
table" without asking the database (PostgreSQL refuses a NUL character in a query parameter
outright: ``GET /api/tables/%00`` would otherwise fail inside the driver)."""

from __future__ import annotations

import re

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""Table ids are url-safe characters (``secrets.token_urlsafe``), at most the 32 that the
``tables.id`` column holds."""


def is_table_id(text: str) -> bool:
    """Whether ``text`` could be a stored table's id."""
    return TABLE_ID.fullmatch(text) is not None
