"""The server's log lines: plain text (the default, as Python prints them) or JSON, one object
a line (``fanfold serve --log-format json``, or ``FANFOLD_LOG_FORMAT=json``), for a log
collector.

A JSON line holds ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, ``pid`` (the
process: several ``fanfold serve`` processes may write to one collector), ``exc_info`` when an
exception is logged, and ``table``, the id of the table the line is about, on every line
logged while the server handles one table: a request or a WebSocket whose path names the
table (:class:`TableContext`), a table being opened, its bots' moves and its clock
(:mod:`fanfold.server.hub.turns`, and the bot worker that decides), a hand-over to another
process, and the store's writes (a group commit of several tables names them all, separated
by spaces). The table is a context variable (:data:`TABLE`, set with :func:`about`), so it
follows the work into the tasks it starts, and never reaches a line about another table.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Literal

from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Receive, Scope, Send

#: The log formats ``fanfold serve`` writes.
LogFormat = Literal["text", "json"]
#: The environment variable that chooses the format (``--log-format`` sets it, so that the
#: bot workers a server starts write the same).
ENVIRONMENT = "FANFOLD_LOG_FORMAT"
#: The environment variable that sets the lowest level of the JSON lines (default INFO;
#: DEBUG adds a line for each action, bot move and store write).
LEVEL_ENVIRONMENT = "FANFOLD_LOG_LEVEL"

#: The table the work in progress is about (``None``: none).
TABLE: ContextVar[str | None] = ContextVar("fanfold_table", default=None)

#: Where each path that names a table holds its id (``/table/ID``, ``/api/tables/ID/...``,
#: ``/ws/tables/ID``), as HAProxy reads it (``deploy/haproxy.cfg``).
_TABLE_PATHS = (("table",), ("api", "tables"), ("ws", "tables"))


@contextmanager
def about(table_id: str | None) -> Iterator[None]:
    """Every line logged inside names ``table_id``."""
    token = TABLE.set(table_id)
    try:
        yield
    finally:
        TABLE.reset(token)


def table_of_path(path: str) -> str | None:
    """The table a request's path names, if any."""
    parts = path.strip("/").split("/")
    for prefix in _TABLE_PATHS:
        if len(parts) > len(prefix) and tuple(parts[: len(prefix)]) == prefix:
            return parts[len(prefix)] or None
    return None


class TableContext:
    """Name the table of a request or a WebSocket whose path names one (:data:`TABLE`) while
    it is handled.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table = table_of_path(scope["path"]) if scope["type"] in ("http", "websocket") else None
        if table is None:
            await self.app(scope, receive, send)
            return
        with about(table):
            await self.app(scope, receive, send)


class TableFilter(logging.Filter):
    """Give each record the table it is about (:data:`TABLE`), when there is one."""

    def filter(self, record: logging.LogRecord) -> bool:
        table = TABLE.get()
        if table is not None and not hasattr(record, "table"):
            record.table = table
        return True


def json_handler(stream: IO[str] | None = None) -> logging.Handler:
    """A handler that writes each record as one JSON object a line (to standard error by
    default), with its table."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(
        JsonFormatter(
            ["levelname", "name", "message", "process"],
            rename_fields={"levelname": "level", "name": "logger", "process": "pid"},
            timestamp="time",
        )
    )
    handler.addFilter(TableFilter())
    return handler


def configure(log_format: LogFormat) -> None:
    """Set this process's logging up for ``log_format``: JSON lines on standard error, for
    every logger (the server's, uvicorn's), from the level :data:`LEVEL_ENVIRONMENT` names
    (INFO by default); plain text leaves Python's defaults alone. The choice is kept in
    :data:`ENVIRONMENT` for the processes this one starts.

    Raises:
        ValueError: :data:`LEVEL_ENVIRONMENT` names no level.
    """
    os.environ[ENVIRONMENT] = log_format
    if log_format != "json":
        return
    name = os.environ.get(LEVEL_ENVIRONMENT, "INFO").strip().upper()
    level = logging.getLevelNamesMapping().get(name)
    if level is None:
        raise ValueError(
            f"{LEVEL_ENVIRONMENT}={name!r} is no log level (DEBUG, INFO, WARNING, ERROR)"
        )
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(json_handler())
    root.setLevel(level)
    logging.captureWarnings(True)  # Python's warnings as JSON lines too (logger py.warnings)


def configure_from_environment() -> None:
    """:func:`configure` as :data:`ENVIRONMENT` says (a bot worker process starting)."""
    if os.environ.get(ENVIRONMENT) == "json":
        configure("json")


__all__ = [
    "ENVIRONMENT",
    "LEVEL_ENVIRONMENT",
    "TABLE",
    "LogFormat",
    "TableContext",
    "TableFilter",
    "about",
    "configure",
    "configure_from_environment",
    "json_handler",
    "table_of_path",
]
