"""An index on the seats' accounts (``seats_account``): the lobby's "Your move" badge asks for
a signed-in player's seats at unfinished tables every 45 seconds
(:meth:`~fanfold.server.store.rating_reads.RatingReads.unfinished_seats`), which read every
seat without it.

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
    """One new index; an older release never notices it."""
    op.create_index("seats_account", "seats", ["account_id"])


def downgrade() -> None:
    """Back to revision 0009 (the badge reads every seat again)."""
    op.drop_index("seats_account", "seats")
