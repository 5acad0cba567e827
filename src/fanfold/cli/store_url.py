"""The store a command of the server's tools works on (``fanfold backup``, ``fanfold keys
rotate``, ``fanfold moderate``), named as ``fanfold serve`` takes it: ``--db``, ``--db-file``
(:data:`fanfold.cli.common.StoreDb`, :data:`~fanfold.cli.common.StoreDbFile`) or
``FANFOLD_DB_URL``. A module of its own: it reads them with ``fanfold serve``'s own
:func:`~fanfold.cli.serve.database_url`, and :mod:`fanfold.cli.serve` imports
:mod:`fanfold.cli.common`."""

from __future__ import annotations

from pathlib import Path


def store_url(db: str | None, db_file: Path | None) -> str:
    """The store's URL given by ``--db``, ``--db-file`` or ``FANFOLD_DB_URL``, as ``fanfold
    serve`` reads them (:func:`fanfold.cli.serve.database_url`: given more than one way, they
    must be one URL), else ``fanfold serve``'s default SQLite file (its folder not made: a
    store is made by ``fanfold serve``, never by these tools)."""
    from fanfold.cli.serve import database_url

    given = database_url(db, db_file)
    if given is not None:
        return given
    from platformdirs import user_data_dir

    return "sqlite:///" + str(Path(user_data_dir("fanfold")) / "fanfold.db")


__all__ = ["store_url"]
