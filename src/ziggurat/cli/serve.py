"""``ziggurat serve``: run the game server (HTTP, WebSockets and the browser client), for
yourself or for friends: on the LAN, or behind a reverse proxy with its public URL
(docs/server.md, "Hosting").

``cli/main.py`` registers :func:`serve` as the ``serve`` command.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import socket
from typing import Annotated, Any

import typer

from ziggurat.server.links import (
    DEFAULT_FORWARDED_ALLOW_IPS,
    FORWARDED_ALLOW_IPS_ENV,
    PUBLIC_URL_ENV,
    check_forwarded_allow_ips,
    check_public_url,
)

WS_MAX_SIZE = 64 * 1024
"""Frames above this are refused by uvicorn; the server answers ``too_large`` above 4096 bytes."""


ALL_ADDRESSES = ("0.0.0.0", "", "::")
"""Hosts that bind every network interface: the start-up message then names the LAN address."""
PROBE_V4 = ("192.0.2.1", 9)
"""A UDP socket ``connect``ed here (nothing is sent) takes the address of the interface the
machine would route to the outside through: its LAN address."""


def display_url(host: str, port: int) -> str:
    """The URL a person should open for a server bound to ``host``."""
    shown = "127.0.0.1" if host in ALL_ADDRESSES else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def _usable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def lan_addresses() -> list[str]:
    """This machine's IPv4 address(es) other machines of its network reach it at, found
    without sending anything: the outward interface's address (a UDP ``connect``), else the
    addresses its host name resolves to; ``[]`` when there is none (no network)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE_V4)
            outward = str(probe.getsockname()[0])
        if _usable(outward):
            return [outward]
    except OSError:
        pass  # no route out: fall back on the host name
    try:
        named = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []
    return sorted({a for a in named if _usable(a)}, key=ipaddress.ip_address)


def startup_lines(host: str, port: int, public_url: str | None, lan: list[str] | None = None) -> list[str]:
    """What ``serve`` prints before it starts: the address to open, the LAN address(es) to
    share when bound to every interface (``lan``: found by :func:`lan_addresses` if ``None``),
    and the public URL invite links start with."""
    lines = [f"Ziggurat server: open {display_url(host, port)}"]
    if host in ALL_ADDRESSES:
        found = lan_addresses() if lan is None else lan
        for address in found:
            lines.append(
                f"On your network: {display_url(address, port)} (share this address with your friends)"
            )
        if not found:
            lines.append(
                f"On your network: no address found; friends use this machine's address, port {port}"
            )
        if public_url is None and found:
            lines.append("Invite links carry the address you open: create tables from the one to share.")
    if public_url is not None:
        lines.append(f"Public URL: {public_url}/ (invite and spectator links start with it)")
    return lines


def _public_url(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return check_public_url(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _forwarded_allow_ips(value: str) -> str:
    try:
        return check_forwarded_allow_ips(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 opens the server to the network).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL, e.g. postgresql+psycopg://user:pw@host/db "
            "(default: $ZIGGURAT_DATABASE_URL, else a SQLite file in the user data directory).",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.", min=0)] = 0.6,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes sharing the port (PostgreSQL only: SQLite serves one process). "
            "Any number of `ziggurat serve` processes, on this machine or others, may also share one "
            "PostgreSQL database.",
        ),
    ] = 1,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Worker processes where thinking bots (the levels, the heuristic) decide, so that the "
            "server stays responsive (default: 2, or 1 on a one-core machine). 0 starts no process: "
            "bots decide in threads of the server's own process, for tiny machines.",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            envvar=PUBLIC_URL_ENV,
            callback=_public_url,
            help="Where players reach the server, e.g. https://games.example.org: invite and spectator "
            "links start with it (default: the address each request came to).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            envvar=FORWARDED_ALLOW_IPS_ENV,
            callback=_forwarded_allow_ips,
            help="Reverse proxies (addresses, networks, or *) whose X-Forwarded-Host, -Proto and -For "
            "headers are honoured.",
        ),
    ] = DEFAULT_FORWARDED_ALLOW_IPS,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="ZIGGURAT_SMTP_HOST",
            help="SMTP server for the 'your turn' mails of turn-based tables (default: none, and no mail "
            "is queued or sent).",
            rich_help_panel="Mail",
        ),
    ] = None,
    smtp_port: Annotated[
        int | None,
        typer.Option(
            envvar="ZIGGURAT_SMTP_PORT",
            min=1,
            max=65535,
            help="SMTP port (default: 587 with starttls, 465 with ssl, 25 with none).",
            rich_help_panel="Mail",
        ),
    ] = None,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            envvar="ZIGGURAT_SMTP_USER",
            help="SMTP login name, if the server wants one.",
            rich_help_panel="Mail",
        ),
    ] = None,
    smtp_password: Annotated[
        str | None,
        typer.Option(
            envvar="ZIGGURAT_SMTP_PASSWORD",
            help="SMTP password (prefer the environment variable: a command line is visible to other users).",
            rich_help_panel="Mail",
        ),
    ] = None,
    smtp_tls: Annotated[
        str,
        typer.Option(
            envvar="ZIGGURAT_SMTP_TLS",
            help="How the SMTP connection is encrypted: starttls, ssl, or none (a server on this machine).",
            rich_help_panel="Mail",
        ),
    ] = "starttls",
    mail_from: Annotated[
        str,
        typer.Option(envvar="ZIGGURAT_MAIL_FROM", help="The mails' sender address.", rich_help_panel="Mail"),
    ] = "ziggurat@localhost",
    metrics: Annotated[
        bool,
        typer.Option(
            "--metrics/--no-metrics",
            envvar="ZIGGURAT_METRICS",
            help="Serve Prometheus metrics at /metrics (to anyone who asks; --no-metrics: 404).",
        ),
    ] = True,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            envvar="ZIGGURAT_WS_COMPRESSION",
            help="Compress WebSocket messages (permessage-deflate) when the browser offers it: about "
            "a third of the bytes, for more CPU per message and memory per socket (default: off).",
        ),
    ] = False,
) -> None:
    """Run the game server and print the address to open in a browser (and, bound to
    0.0.0.0, the address friends on your network open)."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from ziggurat.server import create_app
    from ziggurat.server.db import default_url
    from ziggurat.server.loopwatch import tune_gc
    from ziggurat.server.mail import SmtpSettings

    url = db or default_url()
    smtp = None
    if smtp_host:
        try:
            smtp = SmtpSettings(
                host=smtp_host,
                port=smtp_port or 0,
                user=smtp_user or None,
                password=smtp_password or None,
                tls=smtp_tls.lower(),  # type: ignore[arg-type]  # checked by SmtpSettings
                sender=mail_from,
            )
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    if workers > 1 and make_url(url).get_backend_name() != "postgresql":
        raise typer.BadParameter(
            "SQLite serves one process: several workers need PostgreSQL "
            "(--db postgresql+psycopg://user:pw@host/db)",
            param_hint="--workers",
        )
    settings: dict[str, Any] = {
        "database_url": url,
        "bot_delay": bot_delay,
        "public_url": public_url,
        "forwarded_allow_ips": forwarded_allow_ips,
        "smtp": None if smtp is None else dataclasses.asdict(smtp),
        "sole_sqlite_server": True,
        "bot_workers": bot_workers,
        "metrics_enabled": metrics,
    }
    app = create_app(**_app_settings(settings)) if workers == 1 else None
    for line in startup_lines(host, port, public_url):
        typer.echo(line)
    typer.echo(f"Database: {make_url(url).render_as_string(hide_password=True)}")
    if smtp is None:
        typer.echo("Mail: off (no --smtp-host): turn-based tables send no 'your turn' mail")
    else:
        typer.echo(
            f"Mail: 'your turn' mails go through {smtp.host}:{smtp.port} ({smtp.tls}) from {smtp.sender}"
        )
        if public_url is None:
            typer.echo("  without --public-url their links start with the address the last request came to")
    # the app reads the forwarded headers itself (links.ForwardedHeaders): uvicorn's would
    # replace the proxy's address by the client's before the app could check the proxy
    options: dict[str, Any] = {
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": ws_compression,
        "log_level": "info",
        "proxy_headers": False,
    }
    if app is not None:
        tune_gc()
        uvicorn.run(app, host=host, port=port, **options)
        return
    typer.echo(f"Workers: {workers} processes share the port and the database")
    os.environ[WORKER_SETTINGS_ENV] = json.dumps(settings)
    uvicorn.run(f"{__name__}:worker_app", factory=True, host=host, port=port, workers=workers, **options)


WORKER_SETTINGS_ENV = "ZIGGURAT_SERVE_SETTINGS"
"""How ``serve --workers`` hands its settings to the worker processes (JSON)."""


def _app_settings(settings: dict[str, Any]) -> dict[str, Any]:
    from ziggurat.server.mail import SmtpSettings

    out = dict(settings)
    out["smtp"] = None if settings.get("smtp") is None else SmtpSettings(**settings["smtp"])
    return out


def worker_app() -> Any:
    """The app of one ``serve --workers`` process (uvicorn's factory), from the settings the
    command put in :data:`WORKER_SETTINGS_ENV`."""
    from ziggurat.server import create_app
    from ziggurat.server.loopwatch import tune_gc

    app = create_app(**_app_settings(json.loads(os.environ[WORKER_SETTINGS_ENV])))
    tune_gc()
    return app
