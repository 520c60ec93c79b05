"""Who opened a lobby match (a hash of the client's address), so that one client cannot
flood the lobby, and the lobby's two lists read newest first from partial indexes.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# The lobby's two questions, each answered from its own index in the order it lists (as
# `db.WAITING` and `db.ENDED` say them today; a migration keeps its own copy).
WAITING = "open_seats > 0 AND status = 'running'"
ENDED = "open_seats = 0 AND status != 'running' AND bots_only = false"


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_matches_creator", "matches", ["creator"])
    op.create_index(
        "ix_matches_waiting",
        "matches",
        ["created_at"],
        sqlite_where=sa.text(WAITING),
        postgresql_where=sa.text(WAITING),
    )
    op.create_index(
        "ix_matches_ended",
        "matches",
        ["created_at"],
        sqlite_where=sa.text(ENDED),
        postgresql_where=sa.text(ENDED),
    )


def downgrade() -> None:
    op.drop_index("ix_matches_ended", "matches")
    op.drop_index("ix_matches_waiting", "matches")
    op.drop_index("ix_matches_creator", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("creator")
