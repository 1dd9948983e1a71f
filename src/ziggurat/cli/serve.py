"""``ziggurat serve``: run the game server (HTTP, WebSockets and the browser client).

``cli/main.py`` registers :func:`serve` as the ``serve`` command.
"""

from __future__ import annotations

from typing import Annotated

import typer

WS_MAX_SIZE = 64 * 1024
"""Frames above this are refused by uvicorn; the server answers ``too_large`` above 4096 bytes."""


def display_url(host: str, port: int) -> str:
    """The URL a person should open for a server bound to ``host``."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


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
) -> None:
    """Run the game server and print the address to open in a browser."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from ziggurat.server import create_app
    from ziggurat.server.db import default_url

    url = db or default_url()
    app = create_app(url, bot_delay=bot_delay)
    typer.echo(f"Ziggurat server: open {display_url(host, port)}")
    typer.echo(f"Database: {make_url(url).render_as_string(hide_password=True)}")
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, log_level="info")
