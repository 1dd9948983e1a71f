"""Real-time clocks wait for the players: ``seat_clocks.arrived`` says a seat's player has come
to the table (a socket of the seat's token opened, or the seat was taken in the lobby). Clocks
stored before it are all arrived, so tables in play go on as they were.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seat_clocks") as batch:
        batch.add_column(sa.Column("arrived", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("seat_clocks") as batch:
        batch.drop_column("arrived")
