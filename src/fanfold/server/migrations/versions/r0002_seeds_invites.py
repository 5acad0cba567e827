"""Seeds as decimal text (128-bit seeds), invitations to seats, the creator, listed tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
#: docs/upgrade.md, "Expand and contract": seeds change type, which no older release reads.
KIND = "contract"


def upgrade() -> None:
    """Seeds become text (a seed of a dealt game has 128 bits, more than a BIGINT holds); seats
    get the hash of their pending invitation; tables get their creator's token hash and whether
    the lobby lists them (tables stored before are not listed)."""
    with op.batch_alter_table("tables") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger,
            type_=sa.String(60),
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Back to revision 0001 (seeds beyond 64 bits do not fit and make this fail)."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("listed")
        batch.drop_column("creator_hash")
        batch.alter_column(
            "seed",
            existing_type=sa.String(60),
            type_=sa.BigInteger,
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
