"""Collection settings for the whole checkout."""

# Alembic runs this script itself, inside a migration; importing it alone has no context.
collect_ignore = ["src/fanfold/server/migrations/env.py"]
