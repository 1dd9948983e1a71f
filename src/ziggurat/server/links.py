"""Links to this server that people share (invites, spectators, mail) and the reverse-proxy
headers they are built from (docs/server.md, "Hosting").

A link is the server's public URL (``ziggurat serve --public-url``, ``ZIGGURAT_PUBLIC_URL``)
plus a path; without one, the address the request came to (``request.base_url``), so a server
opened at a LAN address hands out LAN links. Behind a reverse proxy that address is the proxy's
``Host``, ``X-Forwarded-Host`` and ``X-Forwarded-Proto``, honoured only from the trusted proxy
addresses (``--forwarded-allow-ips``): :class:`ForwardedHeaders`.
"""

from __future__ import annotations

import ipaddress
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # the CLI reads the checks below without loading the web stack
    from starlette.requests import HTTPConnection
    from starlette.types import ASGIApp, Receive, Scope, Send

PUBLIC_URL_ENV = "ZIGGURAT_PUBLIC_URL"
FORWARDED_ALLOW_IPS_ENV = "ZIGGURAT_FORWARDED_ALLOW_IPS"
DEFAULT_FORWARDED_ALLOW_IPS = "127.0.0.1"
"""As uvicorn's: only a proxy on the same machine is trusted unless told otherwise."""

_HOST = re.compile(r"^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::[0-9]{1,5})?$")


def check_public_url(text: str) -> str:
    """The public URL ``text`` as links start with (``https://games.example.org``, no
    trailing slash).

    :raises ValueError: unless it is an http or https URL with a host and nothing after it
        but ``/``: the browser client loads its files from the root of the address, so the
        server cannot live under a path, and a query or fragment would break every link.
    """
    value = text.strip()
    try:
        parts = urlsplit(value)
        port = parts.port  # a port that is not a number raises here
    except ValueError as exc:
        raise ValueError(f"public URL {text!r}: {exc}") from exc
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"public URL {text!r} must start with http:// or https://")
    if not parts.hostname:
        raise ValueError(f"public URL {text!r} has no host name")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"public URL {text!r} must not hold a user name or password")
    if parts.query or "?" in value:
        raise ValueError(f"public URL {text!r} must not have a query (?...)")
    if parts.fragment or "#" in value:
        raise ValueError(f"public URL {text!r} must not have a fragment (#...)")
    if parts.path not in ("", "/"):
        raise ValueError(
            f"public URL {text!r} must not have a path ({parts.path}): the server is served at the root "
            "of its address"
        )
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    return f"{parts.scheme}://{host}" + ("" if port is None else f":{port}")


def check_forwarded_allow_ips(text: str) -> str:
    """``text`` if it names trusted proxies as uvicorn reads them: ``*`` (any address) or a
    comma-separated list of IP addresses and networks (``127.0.0.1,10.0.0.0/8``).

    :raises ValueError: naming the item that is neither.
    """
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise ValueError(
            "no trusted proxy address given (use 127.0.0.1, a list of addresses or networks, or *)"
        )
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(
                f"trusted proxy {item!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8, or *)"
            ) from None
    return ",".join(items)


def _networks(allowed: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None:
    """The trusted networks of a checked ``--forwarded-allow-ips`` (``None``: any address)."""
    items = allowed.split(",")
    return None if "*" in items else [ipaddress.ip_network(item, strict=False) for item in items]


def _trusts(networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None, peer: str | None) -> bool:
    if peer is None:
        return False
    if networks is None:
        return True
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in networks)


class ForwardedHeaders:
    """ASGI middleware for a server behind a reverse proxy. A request from a trusted proxy
    address takes its host from ``X-Forwarded-Host`` (the last one, set by the nearest proxy),
    then uvicorn's :class:`ProxyHeadersMiddleware` takes its scheme from ``X-Forwarded-Proto``
    and its client address from ``X-Forwarded-For``; from any other address they are ignored.

    uvicorn's own proxy headers are turned off where this runs (``ziggurat serve``): uvicorn
    would put the client's address in place of the proxy's before this could check the proxy.
    """

    def __init__(self, app: ASGIApp, trusted: str = DEFAULT_FORWARDED_ALLOW_IPS) -> None:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        self.trusted = check_forwarded_allow_ips(trusted)
        self.networks = _networks(self.trusted)
        self.app = ProxyHeadersMiddleware(app, trusted_hosts=self.trusted)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if _trusts(self.networks, client[0] if client else None):
                forwarded = [v for k, v in scope["headers"] if k == b"x-forwarded-host"]
                host = forwarded[-1].decode("latin-1").split(",")[-1].strip() if forwarded else ""
                if _HOST.match(host):
                    headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
                    scope = {**scope, "headers": [*headers, (b"host", host.encode("latin-1"))]}
        await self.app(scope, receive, send)  # type: ignore[arg-type]


def public_url(connection: HTTPConnection) -> str:
    """Where this server is reached, without a trailing slash: its public URL, else the
    address the request came to (through the trusted proxy's headers)."""
    configured: str | None = getattr(connection.app.state, "public_url", None)
    if configured:
        return configured
    base = str(connection.base_url).rstrip("/")
    return re.sub(r"^ws", "http", base)  # a WebSocket's own address is ws:// or wss://


def public_link(connection: HTTPConnection, path: str) -> str:
    """The absolute link to ``path`` (which starts with ``/``) that a person can open from
    anywhere this server is reached: ``https://games.example.org/table/...``."""
    if not path.startswith("/"):
        raise ValueError(f"a link's path starts with '/': {path!r}")
    return public_url(connection) + path


def seat_link(connection: HTTPConnection, table_id: str, token: str) -> str:
    """The absolute link that opens ``table_id`` with ``token`` (a seat's or a spectator's)."""
    return public_link(connection, f"/table/{table_id}#token={token}")
