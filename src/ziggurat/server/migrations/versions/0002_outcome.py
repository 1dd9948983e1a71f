"""How a finished game was won, kept with its table for the lobby's list; the position a table
started from, for tables created from one.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("outcome", sa.JSON, nullable=True))
        batch.add_column(sa.Column("start", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("start")
        batch.drop_column("outcome")
