"""Initial schema: tables, seats, tokens, actions.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
    )
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tokens_table_id", "tokens", ["table_id"])
    op.create_table(
        "actions",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("barrier", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_tokens_table_id", table_name="tokens")
    op.drop_table("tokens")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")
