"""Matches of bots alone are marked; workers' signs of life and the server's outages.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("bots_only", sa.Boolean(), nullable=False, server_default=sa.false()))
    matches = sa.table("matches", sa.column("id", sa.String()), sa.column("seats", sa.JSON()))
    conn = op.get_bind()
    bots_only = [
        r.id
        for r in conn.execute(sa.select(matches.c.id, matches.c.seats))
        if all(s["kind"] == "bot" for s in r.seats)
    ]
    if bots_only:
        conn.execute(
            sa.text("UPDATE matches SET bots_only = :yes WHERE id IN :ids").bindparams(
                sa.bindparam("ids", expanding=True), sa.bindparam("yes", type_=sa.Boolean())
            ),
            {"ids": bots_only, "yes": True},
        )
    op.create_index("ix_matches_bots_only", "matches", ["bots_only", "created_at"])
    op.create_table(
        "workers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("alive_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "outages",
        sa.Column("began", sa.Float(), primary_key=True),
        sa.Column("ended", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("outages")
    op.drop_table("workers")
    op.drop_index("ix_matches_bots_only", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("bots_only")
