"""The server's schema as SQLAlchemy tables: every table of the store, in one
:data:`metadata` (Alembic compares it with the migrations, :mod:`fanfold.server.migrations`).

Only the store package reads and writes these tables; the rest of the server asks the store's
typed methods (:mod:`fanfold.server.store`).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# ------------------------------------------------------------------- tables

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    # Decimal digits: a dealt game's seed has 128 bits (see fanfold.play.setup.fresh_seed).
    sa.Column("seed", sa.String(60), nullable=False),
    sa.Column("start_position", sa.Text, nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("allow_undo", sa.Boolean, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("outcome", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False, index=True),
    # The hash of the creator's token: the creator may give a seat a new invitation.
    sa.Column("creator_hash", sa.String(64), nullable=True),
    # Whether the lobby lists the table (tables opened to the public).
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    # The hash of the seat's pending invitation (a join link nobody has claimed yet).
    sa.Column("invite_hash", sa.String(64), nullable=True),
    # The account that holds the seat (none: a guest, a bot, or a seat nobody claimed).
    sa.Column("account_id", sa.Integer, nullable=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
)
