"""Chat's limits counted from the store, so that every process counts the same:
who said a line (``chat_messages.speaker``, with an index by speaker and time) and an index of
the reports by reporter and time. A chat report's settling by a moderator (or by the closing of
the account that said the line, ``chat_reports.reported_id``). The bot pool's shares across
processes (``bot_leases``).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """New indexes and a new nullable column; an older release never reads them (its lines
    are kept without a speaker, and counted by its own processes only)."""
    op.add_column("chat_messages", sa.Column("speaker", sa.String(80), nullable=True))
    op.create_index("chat_messages_speaker", "chat_messages", ["speaker", "at"])
    op.create_index("chat_reports_reporter_id", "chat_reports", ["reporter_id", "at"])
    with op.batch_alter_table("chat_reports") as batch:
        batch.add_column(sa.Column("reported_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("resolved_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("resolved_by", sa.String(80), nullable=True))
        batch.add_column(sa.Column("resolution", sa.Text, nullable=True))
    op.create_index("chat_reports_reported", "chat_reports", ["reported_id", "resolved_at"])
    op.create_table(
        "bot_leases",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(200), nullable=False),
        sa.Column("holder", sa.String(120), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("granted", sa.Boolean, nullable=False),
    )
    op.create_index("bot_leases_client", "bot_leases", ["client", "until"])


def downgrade() -> None:
    """Back to revision 0010 (who said each line is lost,
    whether a chat report was settled, and the bot pool's leases)."""
    op.drop_index("bot_leases_client", "bot_leases")
    op.drop_table("bot_leases")
    op.drop_index("chat_reports_reported", "chat_reports")
    with op.batch_alter_table("chat_reports") as batch:
        for column in ("resolution", "resolved_by", "resolved_at", "reported_id"):
            batch.drop_column(column)
    op.drop_index("chat_reports_reporter_id", "chat_reports")
    op.drop_index("chat_messages_speaker", "chat_messages")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("speaker")
