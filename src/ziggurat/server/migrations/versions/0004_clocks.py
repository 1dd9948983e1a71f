"""At your own pace: time controls and seat clocks, server heartbeats, e-mail addresses and
preferences, the mail outbox and "your turn" notices.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("time_control", sa.JSON, nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("mail_turns", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("unsubscribe", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_users_unsubscribe", ["unsubscribe"])
    op.create_table(
        "seat_clocks",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("remaining_ms", sa.BigInteger, nullable=False),
        sa.Column("running_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("timed_out", sa.DateTime(timezone=True), nullable=True),
        sa.Column("bot_since_ply", sa.Integer, nullable=True),
    )
    op.create_table(
        "heartbeats",
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("to_addr", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_try", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
    )
    op.create_index("ix_outbox_user_id", "outbox", ["user_id"])
    op.create_index("ix_outbox_table_id", "outbox", ["table_id"])
    op.create_index("ix_outbox_sent", "outbox", ["sent"])
    op.create_table(
        "turn_notices",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_notices")
    op.drop_table("outbox")
    op.drop_table("heartbeats")
    op.drop_table("seat_clocks")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_unsubscribe", type_="unique")
        batch.drop_column("unsubscribe")
        batch.drop_column("mail_turns")
        batch.drop_column("email")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("time_control")
