"""Open person seats that anyone may take from the lobby, first come first served.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("open_seats", sa.Integer(), nullable=False, server_default="0"))
    op.create_index("ix_matches_lobby", "matches", ["open_seats", "status", "created_at"])
    op.create_table(
        "seat_joins",
        sa.Column(
            "match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_joins")
    op.drop_index("ix_matches_lobby", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("open_seats")
