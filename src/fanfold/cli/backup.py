"""``fanfold backup``: a copy of the site's store while it runs, into a folder of dated copies,
and the copies older than ``--keep-days`` deleted (the daily ``fanfold-backup.timer`` of
``fanfold deploy backup`` runs it; docs/backup.md).

The store is the one ``fanfold serve`` is given: ``--db``, ``--db-file`` or ``FANFOLD_DB_URL``
(default: the user's SQLite file). PostgreSQL is dumped by ``pg_dump --format=custom`` into
``fanfold-YYYYmmdd-HHMMSS.dump`` (the password in its environment, never on its command line);
SQLite is copied by its online backup API into ``fanfold-YYYYmmdd-HHMMSS.db``, and its reviews'
file beside it (``fanfold-reviews.sqlite3``) into ``fanfold-YYYYmmdd-HHMMSS-reviews.sqlite3``,
first, so that every review copied is of a game the main copy holds; ``fanfold serve --db`` on
the copy finds its reviews beside it. A copy is written under a temporary name and renamed
once whole, so that a copy in the folder is one that was finished."""

from __future__ import annotations

import contextlib
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import (
    StoreDb,
    StoreDbFile,
    console,
    fail,
    said,
    terminal_words,
)
from fanfold.cli.help_words import N_
from fanfold.cli.store_url import store_url

#: How a copy's file is named, before its ending (``.dump`` or ``.db``), in UTC.
NAME_FORMAT = "fanfold-%Y%m%d-%H%M%S"
#: The copies ``--keep-days`` deletes: those this command wrote, and nothing else.
COPY_PATTERNS = (
    "fanfold-????????-??????.dump",
    "fanfold-????????-??????.db",
    "fanfold-????????-??????-reviews.sqlite3",
)


def backup(
    folder: Annotated[
        Path,
        typer.Option("--dir", metavar="DIR", help="The folder of the copies (made if missing)."),
    ],
    keep_days: Annotated[
        float,
        typer.Option(
            min=0,
            help="Delete this folder's copies older than this many days (0: keep them all).",
        ),
    ] = 14.0,
    db: StoreDb = None,
    db_file: StoreDbFile = None,
) -> None:
    """Copy the site's store while it runs into DIR (PostgreSQL: pg_dump --format=custom;
    SQLite: its online backup), then delete the copies older than --keep-days."""
    from fanfold.server.store.backup import BackupError, backup_suffix

    url = store_url(db, db_file)
    if folder.exists() and not folder.is_dir():
        said(N_("%(folder)s is a file, not a folder: give --dir a folder"), folder=folder)
    made = [path for path in [folder, *folder.parents] if not path.exists()]
    try:
        suffix = backup_suffix(url)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # the copies hold the signing key
    except BackupError as error:
        fail(str(error))
    except OSError as error:
        said(
            N_("the folder %(folder)s cannot be made: %(why)s"),
            folder=folder,
            why=error.strerror or error,
        )
    try:
        with_reviews, target, reviews, took = _copy(url, folder, suffix)
    except BaseException:
        for path in made:  # a copy that fails leaves nothing, the folders it made neither
            with contextlib.suppress(OSError):
                path.rmdir()
        raise
    gettext = terminal_words().gettext
    made_said = gettext("%(copy)s: %(size)s bytes in %(seconds)s s")
    for copied in [reviews, target] if with_reviews else [target]:
        shown = {"copy": copied, "size": copied.stat().st_size, "seconds": f"{took:.2f}"}
        console.print(made_said % shown, markup=False, highlight=False)
    for old in prune(folder, keep_days, keep=target):
        console.print(gettext("deleted %(copy)s") % {"copy": old}, markup=False, highlight=False)


def _copy(url: str, folder: Path, suffix: str) -> tuple[bool, Path, Path, float]:
    """Copy the store at ``url`` (its reviews' file first) into ``folder``, each copy
    readable by its owner only: whether the reviews' file was copied, the copy, the reviews'
    copy and the seconds it took. Exits with a sentence, leaving no file, when it fails."""
    from fanfold.server.store import shown_url
    from fanfold.server.store.backup import BackupError, copy_reviews, copy_store
    from fanfold.server.store.review_file import REVIEW_SUFFIX

    stamp = datetime.now(UTC).strftime(NAME_FORMAT)
    name = stamp + suffix
    target = folder / name
    partial = folder / f".{name}.partial"
    reviews = folder / (stamp + REVIEW_SUFFIX)
    reviews_partial = folder / f".{reviews.name}.partial"
    started = time.perf_counter()
    try:
        # The reviews' file first: every review copied is of a game the main copy holds.
        with_reviews = copy_reviews(url, reviews_partial)
        copy_store(url, partial)
        if with_reviews:
            reviews_partial.rename(reviews)
        partial.rename(target)
    except BackupError as error:
        reviews_partial.unlink(missing_ok=True)
        said(N_("no copy of %(store)s was made: %(why)s"), 1, store=shown_url(url), why=error)
    except OSError as error:
        partial.unlink(missing_ok=True)
        reviews_partial.unlink(missing_ok=True)
        why = error.strerror or error
        said(N_("no copy was written into %(folder)s: %(why)s"), 1, folder=folder, why=why)
    return with_reviews, target, reviews, time.perf_counter() - started


def prune(folder: Path, keep_days: float, *, keep: Path) -> list[Path]:
    """Delete the copies in ``folder`` (by :data:`COPY_PATTERNS`) last written more than
    ``keep_days`` days ago, never ``keep`` (the newest); none when ``keep_days`` is 0."""
    if keep_days == 0:
        return []
    oldest = time.time() - keep_days * 86400
    deleted: list[Path] = []
    for pattern in COPY_PATTERNS:
        for path in sorted(folder.glob(pattern)):
            if path != keep and path.is_file() and path.stat().st_mtime < oldest:
                path.unlink()
                deleted.append(path)
    return deleted
