"""``fanfold restart``: restart a group of ``fanfold serve --processes N`` processes one at a
time, after telling every table when (docs/runbook/restart.md, "Restarting without dropping
players").

It tells every process on the PostgreSQL store that a restart comes in ``--in`` minutes (each
shows a banner at its tables: :class:`fanfold.server.protocol.Restarting`), waits, then sends
the supervisor ``SIGHUP``: the supervisor stops one process (it hands its tables to the
others and closes their sockets with 1012, and the browsers reconnect at once), starts it
again, waits until it is ready, and goes on to the next.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Annotated

import typer

from fanfold.cli.common import console, said, terminal_words
from fanfold.cli.help_words import N_
from fanfold.cli.serve import DB_URL_VARIABLE, database_url


def restart(
    pid: Annotated[
        int | None,
        typer.Option(
            help="The supervisor's process id (fanfold serve --processes N), signalled "
            "(SIGHUP) after the wait. Without it, only the notice and the wait: then restart "
            "the processes one at a time yourself (systemctl restart fanfold-s1, ...).",
            min=1,
        ),
    ] = None,
    minutes: Annotated[
        float,
        typer.Option(
            "--in",
            help="Minutes between the notice to every table and the restart (0: at once).",
            min=0,
            max=60,
        ),
    ] = 2.0,
    db: Annotated[
        str | None,
        typer.Option(help="The store's URL, as fanfold serve was given it (PostgreSQL)."),
    ] = None,
    db_file: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH", help=f"A file holding the store's URL (or {DB_URL_VARIABLE})."
        ),
    ] = None,
) -> None:
    """Restart every process of a group one at a time, after a notice to every table."""
    from fanfold.server.ownership import is_postgresql
    from fanfold.server.stopping import announce_restart

    url = database_url(db, db_file)
    if url is None or not is_postgresql(url):
        said(
            N_(
                "fanfold restart needs the group's PostgreSQL store (--db, --db-file or "
                "%(variable)s): the notice goes to its processes through it"
            ),
            variable=DB_URL_VARIABLE,
        )
    if pid is not None:
        try:
            os.kill(pid, 0)
        except OSError as error:
            said(
                N_("no supervisor to signal: process %(pid)s: %(why)s"), pid=pid, why=error.strerror
            )
    seconds = round(minutes * 60)
    import asyncio

    try:
        asyncio.run(announce_restart(url, seconds))
    except Exception as error:
        said(N_("the notice could not be sent through the store: %(why)s"), why=error)
    gettext = terminal_words().gettext
    told = gettext("Every table was told: the server restarts in %(seconds)s s.")
    console.print(told % {"seconds": seconds}, markup=False)
    time.sleep(seconds)
    if pid is None:
        console.print(gettext("Restart the processes now, one at a time."), markup=False)
        return
    try:
        os.kill(pid, signal.SIGHUP)
    except OSError as error:
        said(
            N_("the supervisor %(pid)s could not be signalled: %(why)s"),
            pid=pid,
            why=error.strerror,
        )
    console.print(
        gettext(
            "The supervisor (%(pid)s) restarts its processes one at a time; its log says when "
            "each is ready again."
        )
        % {"pid": pid},
        markup=False,
    )
