"""Chat at the table: the lines said in a table's rooms (its players', its spectators') and the
players' reports of a line, each kept with the lines around it for the moderators.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
#: docs/upgrade.md, "Expand and contract": only new tables and indexes.
KIND = "expand"


def upgrade() -> None:
    """Two new tables: ``chat_messages`` and ``chat_reports``."""
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("room", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("chat_messages_room", "chat_messages", ["table_id", "room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("table_ref", sa.String(40), nullable=False),
        sa.Column("reporter", sa.String(120), nullable=False),
        sa.Column("reporter_id", sa.Integer, nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("chat_reports_at", "chat_reports", ["at"])
    op.create_index("chat_reports_reporter", "chat_reports", ["reporter", "message_id"])


def downgrade() -> None:
    """Back to revision 0007 (the chat's lines and reports are lost)."""
    op.drop_index("chat_reports_reporter", "chat_reports")
    op.drop_index("chat_reports_at", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("chat_messages_room", "chat_messages")
    op.drop_table("chat_messages")
