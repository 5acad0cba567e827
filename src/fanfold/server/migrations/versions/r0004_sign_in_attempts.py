"""Sign-in attempts counted in the store (every server process shares the limit), and an
index on the sessions' ends (expired sessions are deleted).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """A table of recent sign-in attempts (one row an attempt, by name or client key) and an
    index on ``sessions.expires``."""
    op.create_table(
        "sign_in_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("sign_in_attempts_key", "sign_in_attempts", ["key", "at"])
    op.create_index("sessions_expires", "sessions", ["expires"])


def downgrade() -> None:
    """Back to revision 0003."""
    op.drop_index("sessions_expires", "sessions")
    op.drop_index("sign_in_attempts_key", "sign_in_attempts")
    op.drop_table("sign_in_attempts")
