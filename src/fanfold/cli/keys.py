"""``fanfold keys``: the keys that sign the session cookies, when an operator keeps them in a
file (``fanfold serve --key-file PATH``, :mod:`fanfold.server.signing_keys`).

``fanfold keys rotate --key-file PATH`` accepts the file's first key as the signing key: the
store keeps its fingerprint, which every ``fanfold serve --key-file`` checks at start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import console, fail

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
        fail(str(error), code=1)
    try:
        before, after = rotate(SqlAccounts(store.engine), key_file)
    except KeyFileError as error:
        fail(str(error))
    finally:
        store.close()
    was = "none before" if before is None else f"it was {before}"
    console.print(
        f"the store at {shown_url(url)} takes the signing key with fingerprint {after} "
        f"({was}): start fanfold serve --key-file {key_file} again",
        markup=False,
    )


__all__ = ["app", "rotate"]
