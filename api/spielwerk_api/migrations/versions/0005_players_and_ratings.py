"""Players with names and passwords, their sessions, the seats that belong to them, their
ratings per game and pool with a history, and the names each match shows; a search bot's
thinking time per ply (its clock is charged that alone).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("names", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("rating_due", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_index("ix_matches_rating_due", "matches", ["rating_due"])
    with op.batch_alter_table("plies") as batch:
        batch.add_column(sa.Column("thought_s", sa.Float(), nullable=True))
    with op.batch_alter_table("seat_joins") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_match_players_match_id_matches", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_match_players_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_players"),
    )
    op.create_index("ix_match_players_player_id", "match_players", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_ratings_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "game", "pool", name="pk_ratings"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "pool", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_rating_history_player_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "game", "at"])
    op.create_table(
        "sessions",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("value", sa.LargeBinary(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_sessions"),
    )
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_sessions_expires_at", "sessions")
    op.drop_table("sessions")
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_match_players_player_id", "match_players")
    op.drop_table("match_players")
    op.drop_table("players")
    with op.batch_alter_table("seat_joins") as batch:
        batch.drop_column("player_id")
        batch.drop_column("name")
    with op.batch_alter_table("plies") as batch:
        batch.drop_column("thought_s")
    op.drop_index("ix_matches_rating_due", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rating_due")
        batch.drop_column("names")
