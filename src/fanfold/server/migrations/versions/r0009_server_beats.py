"""Each server process's last sign of life (``server_beats``): the clocks are not charged the
time a table had no live owner (a process killed, until another, or its restart, takes it).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """One new table; an older release never reads it."""
    op.create_table(
        "server_beats",
        sa.Column("name", sa.String(120), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Back to revision 0008 (the beats are lost: the next takes of tables charge their clocks)."""
    op.drop_table("server_beats")
