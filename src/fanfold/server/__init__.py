"""``fanfold serve``: play in the browser.

* :mod:`fanfold.server.store`: the data layer, every SQL statement of the server (SQLite or
  PostgreSQL, with Alembic migrations) behind a typed Protocol a subject;
* :mod:`fanfold.server.hub`: the live tables, authoritative, each a
  :class:`~fanfold.play.table.Table` with tokens, watchers and bots (:mod:`.live`: a table in
  memory and the server's errors; :mod:`.tasks`: the bots' loop and the clock);
* :mod:`fanfold.server.protocol`: the messages in and out (a model each, defined once), and
  their builders;
* :mod:`fanfold.server.routes` and :mod:`fanfold.server.ws`: the pages, the JSON API and the
  WebSocket; :mod:`fanfold.server.runtime` and :mod:`fanfold.server.settings`: the process
  around them;
* :mod:`fanfold.server.app`: the FastAPI application built from them;
* ``static/``: the pages and scripts the browser runs, served from the package itself.
"""
