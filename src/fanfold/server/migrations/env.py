"""Alembic's entry point for the server's schema: runs on the connection the store passes."""

from __future__ import annotations

from alembic import context

from fanfold.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
