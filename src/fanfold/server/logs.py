"""The server's log lines: plain text (the default: one readable line a record,
:class:`TextFormatter`) or JSON, one object a line (``fanfold serve --log-format json``, or
``FANFOLD_LOG_FORMAT=json``), for a log collector. Both write the same records, from the
level :data:`LEVEL_ENVIRONMENT` names (INFO by default).

A JSON line holds ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, ``pid`` (the
process: several ``fanfold serve`` processes may write to one collector), ``process_name``
(:func:`process_name`: the server name, ``s1``; ``supervisor`` for ``fanfold serve
--processes N`` itself; ``serve`` for a lone process without one; ``s1/bot`` for a bot worker
of ``s1``), ``exc_info`` when an exception is logged, and ``table``, the id of the table the
line is about, on every line logged while the server handles one table: a request or a
WebSocket whose path names the table (:class:`TableContext`), a table being opened, its bots'
moves and its clock (:mod:`fanfold.server.hub.turns`, and the bot worker that decides), a
hand-over to another process, and the store's writes (a group commit of several tables names
them all, separated by spaces). The table is a context variable (:data:`TABLE`, set with
:func:`about`), so it follows the work into the tasks it starts, and never reaches a line
about another table.

The access log (logger ``fanfold.access``, at INFO: :func:`access`, written by
:class:`fanfold.server.request_metrics.RequestObserver`) has a line for each HTTP request but the
checks and scrapes (``/health``, ``/ready``, ``/metrics``): ``method``, ``path`` (without its
query, which may carry an invitation), ``route`` (its template), ``status``, ``ms``,
``bytes`` and ``client`` (as the trusted proxy forwarded it). ``FANFOLD_ACCESS_LOG=off``
leaves it out.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Literal

from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Receive, Scope, Send

#: The log formats ``fanfold serve`` writes.
LogFormat = Literal["text", "json"]
#: The environment variable that chooses the format (``--log-format`` sets it, so that the
#: bot workers a server starts write the same).
ENVIRONMENT = "FANFOLD_LOG_FORMAT"
#: The environment variable that sets the lowest level of the lines, in either format (default
#: INFO; DEBUG adds a line for each action, bot move and store write).
LEVEL_ENVIRONMENT = "FANFOLD_LOG_LEVEL"

#: The environment variable that names the process on its lines (:func:`process_name`; set
#: by :func:`configure`, so that the bot workers a server starts name it too).
NAME_ENVIRONMENT = "FANFOLD_PROCESS_NAME"
#: The environment variable that turns the access log off (``off``) or on (anything else).
ACCESS_ENVIRONMENT = "FANFOLD_ACCESS_LOG"
#: The name of a lone ``fanfold serve`` process without a server name, on its lines.
DEFAULT_NAME = "serve"

#: The access log's logger (:func:`access`).
access_log = logging.getLogger("fanfold.access")

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


def process_name() -> str:
    """This process's name on its lines: :data:`NAME_ENVIRONMENT` as :func:`configure` set
    it (:data:`DEFAULT_NAME` when unset), with ``/bot`` in a bot worker process."""
    name = os.environ.get(NAME_ENVIRONMENT) or DEFAULT_NAME
    if multiprocessing.current_process().name == "fanfold-bot":
        return f"{name}/bot"
    return name


def access(
    *,
    method: str,
    path: str,
    route: str,
    status: int,
    seconds: float,
    sent: int,
    client: str | None,
) -> None:
    """The access log's line for one HTTP request (see the module), at INFO; nothing when
    :data:`ACCESS_ENVIRONMENT` is ``off`` or INFO lines are not written."""
    if not access_log.isEnabledFor(logging.INFO) or _access_off():
        return
    fields: dict[str, object] = {
        "method": method,
        "path": path,
        "route": route,
        "status": status,
        "ms": round(seconds * 1000, 3),
        "bytes": sent,
        "client": client,
    }
    table = table_of_path(path)
    if table is not None:
        fields["table"] = table
    access_log.info("%s %s %d", method, path, status, extra=fields)


def _access_off() -> bool:
    return os.environ.get(ACCESS_ENVIRONMENT, "").strip().lower() in ("off", "0", "no", "false")


def say(logger: logging.Logger, level: int, message: str) -> None:
    """A line of the supervisor of ``fanfold serve --processes N``: a log record, written as
    its processes' lines are (text or JSON, :func:`configure`), from the level
    :data:`LEVEL_ENVIRONMENT` names: its processes' starts and readiness as well as its
    warnings. Where no format was configured (a caller outside ``fanfold serve``), from
    WARNING up, the message alone on standard output."""
    if os.environ.get(ENVIRONMENT) in ("json", "text"):
        logger.log(level, message)
    elif level >= logging.WARNING:
        print(message, flush=True)


class TableFilter(logging.Filter):
    """Give each record the table it is about (:data:`TABLE`), when there is one, and the
    process's name (:func:`process_name`)."""

    def __init__(self) -> None:
        super().__init__()
        self.name_of_process = process_name()

    def filter(self, record: logging.LogRecord) -> bool:
        table = TABLE.get()
        if table is not None and not hasattr(record, "table"):
            record.table = table
        if not hasattr(record, "process_name"):
            record.process_name = self.name_of_process
        return True


class _StandardError(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to the process's standard error as it is at each line (not the stream
    it was when the handler was made: one replaced since, as a test's runner does, and closed,
    would take every later line with it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        del value  # always standard error, as it is now


def json_handler(stream: IO[str] | None = None) -> logging.Handler:
    """A handler that writes each record as one JSON object a line (to standard error by
    default), with its table."""
    handler = logging.StreamHandler(stream) if stream is not None else _StandardError()
    handler.setFormatter(
        JsonFormatter(
            ["levelname", "name", "message", "process"],
            rename_fields={"levelname": "level", "name": "logger", "process": "pid"},
            timestamp="time",
        )
    )
    handler.addFilter(TableFilter())
    return handler


#: What every log record holds (and uvicorn's ``color_message``, its message again): the rest
#: of a record's attributes are its own fields (a request's, its table), written after the
#: message by :class:`TextFormatter`.
_RECORD_ATTRIBUTES = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    *("message", "asctime", "process_name", "taskName", "color_message"),
}


class TextFormatter(logging.Formatter):
    """One readable line a record: its time (ISO 8601, UTC), level, logger, the process's name
    and id, the message, then the record's own fields as ``name=value`` (a request's
    ``route``, ``status``, ``ms``, ``bytes``, ``client``; the ``table``), and the traceback
    of an exception on the lines below:

    ``2026-11-25T10:41:07.512+00:00 INFO fanfold.access [s1 41872] GET /api/games 200
    method=GET path=/api/games route=/api/games status=200 ms=1.2 bytes=512
    client=127.0.0.1``
    """

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        when = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        name = getattr(record, "process_name", None) or process_name()
        line = f"{when} {record.levelname} {record.name} [{name} {record.process}] {message}"
        for field, value in record.__dict__.items():
            if field not in _RECORD_ATTRIBUTES and not field.startswith("_"):
                line += f" {field}={_shown(value)}"
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            line += "\n" + record.exc_text
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


def _shown(value: object) -> str:
    """A field's value on a text line: as it is, quoted where it holds a space (a group
    commit's tables) or nothing."""
    text = "-" if value is None else str(value)
    if not text or any(c.isspace() or c == '"' for c in text):
        return json.dumps(text)
    return text


def text_handler(stream: IO[str] | None = None) -> logging.Handler:
    """A handler that writes each record as one line of text (:class:`TextFormatter`; to
    standard error by default), with its table."""
    handler = logging.StreamHandler(stream) if stream is not None else _StandardError()
    handler.setFormatter(TextFormatter())
    handler.addFilter(TableFilter())
    return handler


def level_of_environment() -> int:
    """The lowest level of the lines, as :data:`LEVEL_ENVIRONMENT` names it (INFO when unset).

    Raises:
        ValueError: it names no level.
    """
    name = os.environ.get(LEVEL_ENVIRONMENT, "INFO").strip().upper()
    level = logging.getLevelNamesMapping().get(name)
    if level is None:
        raise ValueError(
            f"{LEVEL_ENVIRONMENT}={name!r} is no log level (DEBUG, INFO, WARNING, ERROR)"
        )
    return level


def configure(log_format: LogFormat, name: str | None = None) -> None:
    """Set this process's logging up for ``log_format``, for every logger (the server's,
    uvicorn's, Alembic's): one handler on standard error, writing plain text lines
    (:func:`text_handler`) or JSON lines (:func:`json_handler`), from the level
    :data:`LEVEL_ENVIRONMENT` names (INFO by default). The choice is kept in
    :data:`ENVIRONMENT` for the processes this one starts, and ``name``, the process's name on
    its lines, in :data:`NAME_ENVIRONMENT` (``None``: keep the one there).

    Raises:
        ValueError: :data:`LEVEL_ENVIRONMENT` names no level (nothing is changed then).
    """
    level = level_of_environment()
    os.environ[ENVIRONMENT] = log_format
    if name is not None:
        os.environ[NAME_ENVIRONMENT] = name
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(json_handler() if log_format == "json" else text_handler())
    root.setLevel(level)
    logging.captureWarnings(True)  # Python's warnings as lines too (logger py.warnings)


def configure_from_environment() -> None:
    """:func:`configure` as :data:`ENVIRONMENT` says (a bot worker process starting); nothing
    where it says no format (a process that ``fanfold serve`` did not start)."""
    log_format = os.environ.get(ENVIRONMENT)
    if log_format in ("text", "json"):
        with suppress(ValueError):  # a level that is no level: the server refused it already
            configure("json" if log_format == "json" else "text")


__all__ = [
    "ACCESS_ENVIRONMENT",
    "DEFAULT_NAME",
    "ENVIRONMENT",
    "LEVEL_ENVIRONMENT",
    "NAME_ENVIRONMENT",
    "TABLE",
    "LogFormat",
    "TableContext",
    "TableFilter",
    "TextFormatter",
    "about",
    "access",
    "access_log",
    "configure",
    "configure_from_environment",
    "json_handler",
    "level_of_environment",
    "process_name",
    "say",
    "table_of_path",
    "text_handler",
]
