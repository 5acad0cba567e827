"""An index of the seats by account: a player's profile lists the finished tables where the
account held a seat, and "Your move" its unfinished ones, without reading every seat.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """One new index; an older release reads the seats as before."""
    op.create_index("seats_account", "seats", ["account_id"])


def downgrade() -> None:
    """Back to revision 0009 (the profiles read the seats without the index)."""
    op.drop_index("seats_account", table_name="seats")
