"""Keep tokens out of server logs: uvicorn logs WebSocket paths with their query string."""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"(token=)[^&\s\"']+")
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact(text: str) -> str:
    """``text`` with every ``token=...`` value replaced by ``***``."""
    return _TOKEN.sub(r"\1***", text)


class TokenFilter(logging.Filter):
    """Rewrites log records so that ``?token=...`` never reaches a log file."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple) and any(isinstance(a, str) and "token=" in a for a in record.args):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Add the filter to uvicorn's loggers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenFilter) for f in logger.filters):
            logger.addFilter(TokenFilter())
