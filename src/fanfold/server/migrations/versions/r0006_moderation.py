"""Moderation: an account's role and closed state, players' reports, closed accounts' appeals,
the refunds of points lost to a closed account, and the moderators' log.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """Two columns on ``accounts`` (every existing account a player, open) and four tables."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("role", sa.String(20), nullable=False, server_default="player"))
        batch.add_column(sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, nullable=False),
        sa.Column("reported_id", sa.Integer, nullable=False),
        sa.Column("table_ref", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("resolved_at", sa.Float, nullable=True),
        sa.Column("resolved_by", sa.String(80), nullable=True),
        sa.Column("resolution", sa.Text, nullable=True),
    )
    op.create_index("reports_reporter", "reports", ["reporter_id", "at"])
    op.create_index("reports_open", "reports", ["resolved_at", "at"])
    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("appeals_account", "appeals", ["account_id", "at"])
    op.create_table(
        "rating_refunds",
        sa.Column("rated_table", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("closed_accounts", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.Integer, nullable=True),
        sa.Column("moderator", sa.String(80), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("account", sa.String(40), nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("moderation_log_at", "moderation_log", ["at"])


def downgrade() -> None:
    """Back to revision 0005 (the moderation's rows are lost; refunded ratings stay)."""
    op.drop_index("moderation_log_at", "moderation_log")
    op.drop_table("moderation_log")
    op.drop_table("rating_refunds")
    op.drop_index("appeals_account", "appeals")
    op.drop_table("appeals")
    op.drop_index("reports_open", "reports")
    op.drop_index("reports_reporter", "reports")
    op.drop_table("reports")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("closed")
        batch.drop_column("role")
