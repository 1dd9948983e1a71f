"""Around the table: accounts and their sign-in sessions, lobby tables (public, a host seat,
free seats, who sits where), chat, and ratings.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_auth_sessions_user_id", "auth_sessions", ["user_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("host_seat", sa.Integer, nullable=True))
        batch.add_column(sa.Column("finished", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("name", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_seats_user_id", "users", ["user_id"], ["id"], ondelete="SET NULL")
        batch.create_index("ix_seats_user_id", ["user_id"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_user_id", "rating_changes", ["user_id"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("chat")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_user_id")
        batch.drop_constraint("fk_seats_user_id", type_="foreignkey")
        batch.drop_column("name")
        batch.drop_column("user_id")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("finished")
        batch.drop_column("host_seat")
        batch.drop_column("public")
    op.drop_table("auth_sessions")
    op.drop_table("users")
