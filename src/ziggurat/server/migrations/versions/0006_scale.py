"""Several server processes on one database, and tables that resume without replaying.

``tables.revision`` counts the changes of a table's game line (actions, undos, seats, the
start): a change is stored only if the revision is still the one its process saw, so two
processes can never both accept a decision. ``tables.keeper`` and ``keeper_until`` name the
process that runs the table's bots and clocks, and until when its claim holds; ``driven``
says the table needs that process now (a bot or chance to move, or a clock counting).
``snapshots`` keeps the table's position every few plies.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("keeper", sa.String(64), nullable=True))
        batch.add_column(sa.Column("keeper_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("driven", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "snapshots",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("position", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("driven")
        batch.drop_column("keeper_until")
        batch.drop_column("keeper")
        batch.drop_column("revision")
