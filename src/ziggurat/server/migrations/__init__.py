"""Alembic migrations of the server database (run by :func:`ziggurat.server.db.upgrade`)."""
