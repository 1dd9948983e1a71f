"""Keep tokens out of server logs.

uvicorn logs every request line and WebSocket path with its query string, and Starlette
percent-decodes query names and values, so ``?tok%65n=...`` is the ``token`` parameter too.
:func:`redact` therefore replaces the value of every parameter whose name, percent-decoded
(repeatedly) and in any case, ends in ``token`` (``token``, ``TOKEN``, ``tok%65n``,
``spectator_token``; after ``?``, ``&``, ``;``, ``#`` or anywhere in a path), and the value of
the ``X-Ziggurat-Token`` header however it is written (``X-Ziggurat-Token: ...``, a dict or
a list of byte pairs). :class:`TokenFilter` applies it to the message, its arguments and the
formatted traceback of every record of the loggers in :data:`LOGGERS`, and :func:`install`
also puts it on their handlers, so records propagated from other loggers are redacted too.

:class:`ClientFaultFilter` keeps a client's fault from reading as the server's: uvicorn logs a
WebSocket text frame that is not UTF-8 as an ``ERROR`` with a traceback.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import unquote

MASK = "***"

# A query parameter: a name (letters, digits, url-safe punctuation or %XX escapes), "=" (or %3D),
# then the value up to the next "&", blank or quote. Starlette splits the query on "&" only, so
# ";" and "%26" belong to the value and are redacted with it.
_PARAM = re.compile(r"((?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+!$*,:@-])+)(=|%3[Dd])([^&\s\"']*)")
# The header, as a line ("X-Ziggurat-Token: v"), in a dict ("'x-ziggurat-token': 'v'") or as
# a pair of bytes ("(b'x-ziggurat-token', b'v')").
_HEADER = re.compile(
    r"(x(?:-|%2[Dd]|_)ziggurat(?:-|%2[Dd]|_)token['\"]?\s*[:,=]\s*b?['\"]?)([^'\"\s,;)}\]]+)", re.IGNORECASE
)
LOGGERS = (
    "uvicorn",
    "uvicorn.access",
    "uvicorn.error",
    "uvicorn.asgi",
    "websockets",
    "websockets.server",
    "websockets.protocol",
    "fastapi",
    "ziggurat",
    "ziggurat.server",
    "ziggurat.server.ws",
    "ziggurat.server.manager",
    "ziggurat.server.live",
    "ziggurat.server.api",
    "ziggurat.server.app",
    "ziggurat.server.store",
)


def _decoded(name: str) -> str:
    """``name`` percent-decoded until it no longer changes (``%2574`` -> ``%74`` -> ``t``)."""
    for _ in range(8):
        plain = unquote(name)
        if plain == name:
            break
        name = plain
    return name


def _param(match: re.Match[str]) -> str:
    name, equals, value = match.groups()
    if not value or not _decoded(name.replace("+", " ")).strip().lower().endswith("token"):
        return match.group(0)
    return f"{name}{equals}{MASK}"


def redact(text: str) -> str:
    """``text`` with the value of every token parameter and ``X-Ziggurat-Token`` header
    replaced by ``***`` (see the module docstring for the spellings)."""
    if "=" in text or "%3" in text:
        text = _PARAM.sub(_param, text)
    if "ziggurat" in text.lower():
        text = _HEADER.sub(rf"\1{MASK}", text)
    return text


def _redacted_arg(arg: Any) -> Any:
    """``arg`` itself when its text holds no token (so ``%d`` and friends still format it),
    otherwise its redacted text."""
    if isinstance(arg, str):
        return redact(arg)
    if isinstance(arg, int | float | type(None)):
        return arg
    text = str(arg)
    clean = redact(text)
    return arg if clean == text else clean


class TokenFilter(logging.Filter):
    """Rewrites log records so that no token reaches a log file in any spelling."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted_arg(v) for k, v in record.args.items()}
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit the message: keep both apart
            message = None
        if message is None:
            record.msg = redact(str(record.msg))
        elif redact(message) != message:  # e.g. "token=%s": the token is only whole once formatted
            record.msg, record.args = redact(message), ()
        if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class ClientFaultFilter(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 as an ``ERROR`` with the decoding
    traceback, though the fault is the client's and the socket is closed with 1007 as it should
    be: the record becomes one ``WARNING`` line without traceback, so that a client cannot fill
    the log with tracebacks and an ``ERROR`` still means a fault of the server."""

    UVICORN_MESSAGE = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == self.UVICORN_MESSAGE and record.levelno >= logging.ERROR:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.msg = (
                "a client sent a WebSocket text frame that is not UTF-8: its socket was closed (1007)"
            )
            record.args, record.exc_info, record.exc_text = (), None, None
        return True


def install() -> None:
    """Add the filter (once) to the loggers of :data:`LOGGERS` and to their handlers and the
    root logger's (a handler's filter also sees records propagated from other loggers)."""
    loggers = [logging.getLogger(name) for name in LOGGERS] + [logging.getLogger()]
    for logger in loggers:
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, TokenFilter) for f in target.filters):
                target.addFilter(TokenFilter())
    uvicorn_errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaultFilter) for f in uvicorn_errors.filters):
        uvicorn_errors.addFilter(ClientFaultFilter())
