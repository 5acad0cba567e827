"""``fanfold keys``: the keys that sign the session cookies, when an operator keeps them in a
file (``fanfold serve --key-file PATH``, :mod:`fanfold.server.signing_keys`).

``fanfold keys rotate --key-file PATH`` accepts the file's first key as the signing key: the
store keeps its fingerprint, which every ``fanfold serve --key-file`` checks at start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import Said, console, refused, worded

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
    db: Annotated[
        str | None, typer.Option(help="The store's URL, as fanfold serve --db takes it.")
    ] = None,
    db_file: Annotated[
        Path | None,
        typer.Option(metavar="PATH", help="A file holding the store's URL (fanfold serve's)."),
    ] = None,
) -> None:
    """Accept the key file's first key as the signing key (a deliberate change): the store
    keeps its fingerprint, and the processes started with this file from now on sign with it.
    Sessions signed by the file's other keys stay signed in until their line is removed."""
    from fanfold.cli.serve import database_url
    from fanfold.server.signing_keys import KeyFileError, rotate
    from fanfold.server.store import Store, StoreOpenError, default_url, shown_url
    from fanfold.server.store.account_store import SqlAccounts

    url = database_url(db, db_file) or default_url()
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
