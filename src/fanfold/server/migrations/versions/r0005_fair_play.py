"""Boosting checks: where each rated seat was taken from (keyed hashes), the flags of accounts
sharing an address or a device, and the weight of each rating change.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """Two tables and a column (every earlier rating change weighed 1)."""
    op.create_table(
        "seat_origins",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("device_hash", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_seat_origins_at", "seat_origins", ["at"])
    op.create_table(
        "fairplay_flags",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("first_account", sa.Integer, nullable=False),
        sa.Column("second_account", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_fairplay_flags_at", "fairplay_flags", ["at"])
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("weight", sa.Float, nullable=False, server_default="1"))


def downgrade() -> None:
    """Back to revision 0004."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("weight")
    op.drop_index("ix_fairplay_flags_at", "fairplay_flags")
    op.drop_table("fairplay_flags")
    op.drop_index("ix_seat_origins_at", "seat_origins")
    op.drop_table("seat_origins")
