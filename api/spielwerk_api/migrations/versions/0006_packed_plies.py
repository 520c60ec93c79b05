"""An ended match's plies packed into one value of its record (``matches.packed``), in
place of a row each (issue 34). Matches that ended before keep their rows: the store reads
both.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("plies_packed", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    # The packed plies go back to a row each first: the older schema reads only those.
    from spielwerk_api.matches.packed import unpack

    matches = sa.table("matches", sa.column("id", sa.String), sa.column("plies_packed", sa.LargeBinary))
    plies = sa.table(
        "plies",
        sa.column("match_id", sa.String),
        sa.column("ply", sa.Integer),
        sa.column("kind", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("action", sa.Integer),
        sa.column("at", sa.Float),
        sa.column("thought_s", sa.Float),
    )
    conn = op.get_bind()
    for match_id, packed in conn.execute(sa.select(matches).where(matches.c.plies_packed.is_not(None))):
        rows = [p._asdict() | {"match_id": match_id} for p in unpack(packed)]
        if rows:
            conn.execute(sa.insert(plies), rows)
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("plies_packed")
