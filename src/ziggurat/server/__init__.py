"""The game server: FastAPI + uvicorn, tables stored with SQLAlchemy, bots played server-side.

The protocol is docs/server.md; :func:`create_app` builds the application.
"""

from ziggurat.server.app import create_app

__all__ = ["create_app"]
