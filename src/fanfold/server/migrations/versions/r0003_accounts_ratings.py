"""Accounts, their sessions, the server's shared keys, the account holding each seat, and
ratings (each player's per game family, the games rated, each game's changes).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
#: docs/upgrade.md, "Expand and contract": only new tables, indexes and columns.
KIND = "expand"


def upgrade() -> None:
    """New tables for accounts, sessions, keys and ratings; seats get the account that holds
    them (none for the seats stored before: guests)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(300), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("sessions_account", "sessions", ["account_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
    op.create_table(
        "ratings",
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("rated_table", sa.String(40), primary_key=True),
        sa.Column("player", sa.String(80), primary_key=True),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("team", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("rating_changes_player", "rating_changes", ["player", "at"])


def downgrade() -> None:
    """Back to revision 0002: accounts, sessions, keys and ratings are dropped."""
    op.drop_index("rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_games")
    op.drop_table("ratings")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_table("server_keys")
    op.drop_index("sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
