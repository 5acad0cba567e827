"""``fanfold serve``: play in the browser.

* :mod:`fanfold.server.store`: tables, seats and actions in SQL (SQLite or PostgreSQL), with
  Alembic migrations;
* :mod:`fanfold.server.hub`: the live tables, authoritative, each a
  :class:`~fanfold.play.table.Table` with tokens, watchers and bots;
* :mod:`fanfold.server.app`: the FastAPI application (pages, JSON API, WebSocket);
* ``static/``: the pages and scripts the browser runs, served from the package itself.
"""
