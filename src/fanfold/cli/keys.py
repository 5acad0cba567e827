"""``fanfold keys``: the keys that sign the session cookies, when an operator keeps them in a
file (``fanfold serve --key-file PATH``, :mod:`fanfold.server.signing_keys`).

``fanfold keys rotate --key-file PATH`` accepts the file's first key as the signing key: the
store keeps its fingerprint, which every ``fanfold serve --key-file`` checks at start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import (
    Said,
    StoreDb,
    StoreDbFile,
    console,
    refused,
    said,
    worded,
)
from fanfold.cli.help_words import N_
from fanfold.cli.store_url import store_url

app = typer.Typer(
    help="The keys that sign the session cookies, kept in a file (fanfold serve --key-file).",
    no_args_is_help=True,
)

KeyFile = Annotated[
    Path,
    typer.Option(
        metavar="PATH",
        help="The key file: one key a line, the first signs, every one verifies.",
    ),
]


@app.command()
def rotate(
    key_file: KeyFile,
    db: StoreDb = None,
    db_file: StoreDbFile = None,
) -> None:
    """Accept the key file's first key as the signing key (a deliberate change): the store
    keeps its fingerprint, and the processes started with this file from now on sign with it.
    Sessions signed by the file's other keys stay signed in until their line is removed."""
    from fanfold.server.signing_keys import KeyFileError, rotate
    from fanfold.server.store import Store, StoreOpenError, shown_url
    from fanfold.server.store.account_store import SqlAccounts
    from fanfold.server.store.engine import sqlite_file

    url = store_url(db, db_file)
    found = sqlite_file(url)
    if found is not None and not found.is_file():  # a store is made by fanfold serve, never here
        said(
            N_(
                "there is no SQLite file at %(path)s: give the store fanfold serve uses (--db, "
                "--db-file or FANFOLD_DB_URL)"
            ),
            1,
            path=found,
        )
    try:
        store = Store(url)
    except StoreOpenError as error:
        refused(error, 1)
    try:
        before, after = rotate(SqlAccounts(store.engine), key_file)
    except KeyFileError as error:
        refused(error)
    finally:
        store.close()
    if before is None:
        taken = Said(
            "the store at %(store)s takes the signing key with fingerprint %(after)s (none "
            "before): start fanfold serve --key-file %(key_file)s again",
            store=shown_url(url),
            after=after,
            key_file=key_file,
        )
    else:
        taken = Said(
            "the store at %(store)s takes the signing key with fingerprint %(after)s (it was "
            "%(before)s): start fanfold serve --key-file %(key_file)s again",
            store=shown_url(url),
            after=after,
            before=before,
            key_file=key_file,
        )
    console.print(worded(taken), markup=False)


__all__ = ["app", "rotate"]
