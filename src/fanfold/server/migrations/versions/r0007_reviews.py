"""The engines' reviews of finished games: one stored job per table and review version, and
its judged moves.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """Two new tables: ``reviews`` (the jobs) and ``review_moves`` (their moves)."""
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(60), nullable=False),
        sa.Column("budget", sa.Integer, nullable=True),
        sa.Column("owner", sa.String(80), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("engine", sa.Text, nullable=True),
        sa.Column("summary", sa.Text, nullable=True),
        sa.Column("deal", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "review_moves",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Back to revision 0006 (the stored reviews are lost; they can be made again)."""
    op.drop_table("review_moves")
    op.drop_table("reviews")
