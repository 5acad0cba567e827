"""``fanfold serve``: the browser play server, on its embedded store or a database by URL."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from fanfold.cli.common import console, fail


class Allocator(StrEnum):
    """Which allocator a ``fanfold serve`` process runs on (:mod:`fanfold.server.allocator`)."""

    PYTHON = "python"
    JEMALLOC = "jemalloc"


class LogFormat(StrEnum):
    """How ``fanfold serve`` writes its log (:mod:`fanfold.server.logs`)."""

    TEXT = "text"
    JSON = "json"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///path.db or postgresql+psycopg://user@host/name "
            "(default: a SQLite file in your data directory)."
        ),
    ] = None,
    bot_seconds: Annotated[
        float,
        typer.Option(
            help="Most seconds a bot thinks per decision: bots without a time cap get this "
            "one, and a table asking for more is refused (docs/server.md, the bots' budget).",
            min=0.05,
        ),
    ] = 1.0,
    bot_pause: Annotated[
        float, typer.Option(help="Seconds between bot moves, so you can follow them.", min=0)
    ] = 0.4,
    bot_workers: Annotated[
        int,
        typer.Option(
            help="Bot decisions computed at once, each in a worker process of its own, shared "
            "fairly by the tables.",
            min=1,
            max=64,
        ),
    ] = 4,
    expire_days: Annotated[
        float,
        typer.Option(
            help="Days an unfinished table may go without an action before it is deleted "
            "as abandoned (0: never).",
            min=0,
        ),
    ] = 30.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ADDR",
            help="Address or network of a proxy in front of the server (repeat it, or separate "
            "with commas): requests through it count against the client its X-Forwarded-For "
            "names. Default: none, every client is the address it connects from.",
        ),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            help="Server processes to start, on ports PORT, PORT+1, ... (each its own "
            "process, not workers sharing one socket), for a router such as HAProxy in front "
            "(docs/deploy.md); more than one needs a PostgreSQL store.",
            min=1,
            max=64,
        ),
    ] = 1,
    keep_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds a table nobody watches and nothing plays on stays in memory after "
            "it was last asked for (the store keeps it, and it comes back when asked for).",
            min=1,
        ),
    ] = 600.0,
    health_port: Annotated[
        int | None,
        typer.Option(
            help="Also answer /health and /ready on this port, from a thread of the process "
            "that never waits behind the tables' work, for a router's health checks "
            "(docs/deploy.md); with --processes N, ports HEALTH_PORT to HEALTH_PORT+N-1. "
            "Default: on the game's port only.",
            min=1,
            max=65535,
        ),
    ] = None,
    server_name: Annotated[
        str | None,
        typer.Option(
            help="This process's name in the router's configuration (its server line in "
            "HAProxy's): it ends the id of every table the process opens, so that the router "
            "keeps the table on it (docs/deploy.md). With --processes N, NAME1 to NAMEN "
            "(default s1 to sN, the names deploy/haproxy.cfg gives). Default for one process: "
            "none.",
        ),
    ] = None,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            help="How the server writes its log on standard error: text (Python's plain "
            "lines) or json (one JSON object a line, with the time, level, logger, message, "
            "process id, and the table a line is about; docs/deploy.md).",
            envvar="FANFOLD_LOG_FORMAT",
        ),
    ] = LogFormat.TEXT,
    allocator: Annotated[
        Allocator,
        typer.Option(
            help="The memory allocator: python (Python's own, the default) or jemalloc "
            "(Debian's libjemalloc2; the process starts itself again on it), which hands "
            "the memory of tables that left back to the system: a busy process's size falls "
            'back near its idle size (docs/deploy.md, "Memory after the load"). With '
            "--processes N, every process.",
            envvar="FANFOLD_ALLOCATOR",
        ),
    ] = Allocator.PYTHON,
) -> None:
    """Serve fanfold in the browser: open the printed address to play."""
    import logging

    import uvicorn

    from fanfold.server.app import MAX_MESSAGE, create_app
    from fanfold.server.store import default_url, shown_url
    from fanfold.server.throttle import trusted_networks

    proxies = list(trusted_proxy or [])
    try:
        trusted_networks(proxies)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--trusted-proxy") from None

    from fanfold.server.logs import configure

    json_lines = log_format is LogFormat.JSON
    try:
        configure("json" if json_lines else "text")
    except ValueError as error:
        fail(str(error))
    url = db or default_url()
    if processes > 1:
        from fanfold.server.ownership import is_postgresql

        if not is_postgresql(url):
            fail(
                f"--processes {processes} needs a PostgreSQL store (--db "
                "postgresql+psycopg://user@host/name): a SQLite file is served by one process"
            )
        if port + processes - 1 > 65535:
            fail(f"--port {port} leaves no room for {processes} ports")
    if health_port is not None:
        if health_port + processes - 1 > 65535:
            fail(f"--health-port {health_port} leaves no room for {processes} ports")
        serving = set(range(port, port + processes))
        if serving & set(range(health_port, health_port + processes)):
            fail(
                f"--health-port {health_port} and --port {port} overlap: the health checks "
                "need ports of their own"
            )
    names: list[str | None] = [server_name]
    if processes > 1:
        names = [f"{server_name or 's'}{n}" for n in range(1, processes + 1)]
    from fanfold.server.ownership import check_server_name

    for name in names:
        if name is not None:
            try:
                check_server_name(name)
            except ValueError as error:
                fail(str(error))
    _check_store(url)
    if processes > 1:
        arguments = [
            *("--host", host, "--db", url, "--bot-seconds", f"{bot_seconds!r}"),
            *("--bot-pause", f"{bot_pause!r}", "--bot-workers", str(bot_workers)),
            *("--expire-days", f"{expire_days!r}", "--keep-seconds", f"{keep_seconds!r}"),
            *("--log-format", log_format.value, "--allocator", allocator.value),
        ]
        for proxy in proxies:
            arguments += ["--trusted-proxy", proxy]
        _supervise(
            [port + n for n in range(processes)],
            arguments,
            None if health_port is None else [health_port + n for n in range(processes)],
            [name for name in names if name is not None],
        )
        return
    if allocator is Allocator.JEMALLOC:
        import sys

        from fanfold.server.allocator import AllocatorError, start_on_jemalloc

        try:
            start_on_jemalloc(sys.argv[1:])  # returns once the process runs on jemalloc
        except AllocatorError as error:
            fail(str(error))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    if json_lines:  # every line a JSON object, the progress lines too
        logging.getLogger("fanfold.server.progress").info(
            "fanfold is serving on http://%s:%d/ (store: %s)", shown, port, shown_url(url)
        )
    else:
        console.print(
            f"fanfold is serving on http://{shown}:{port}/  (store: {shown_url(url)})",
            markup=False,
        )
        console.print(
            "Open that address in a browser to play; Ctrl-C stops the server.", markup=False
        )
        _show_progress()
    uvicorn.run(
        create_app(
            url,
            bot_seconds=bot_seconds,
            bot_pause=bot_pause,
            warm_fast=True,
            bot_workers=bot_workers,
            bot_processes=True,
            expire_seconds=expire_days * 24 * 3600 if expire_days else None,
            trusted_proxies=proxies,
            keep_seconds=keep_seconds,
            keep_finished_seconds=min(keep_seconds, 30.0),
            health_port=health_port,
            health_host=host,
            server_name=server_name,
        ),
        host=host,
        port=port,
        log_level="warning",
        # JSON lines: uvicorn's loggers write through the one JSON handler (logs.configure).
        log_config=None if json_lines else uvicorn.config.LOGGING_CONFIG,
        # fanfold reads X-Forwarded-For itself, from --trusted-proxy only (uvicorn would
        # believe it from any local peer).
        proxy_headers=False,
        ws_max_size=MAX_MESSAGE * 4,
    )


def _show_progress() -> None:
    """Print the server's progress lines (what it compiles, and when that is done) in the
    terminal, each prefixed with ``fanfold:``."""
    import logging
    import sys

    from fanfold.server.runtime import progress

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("fanfold: %(message)s"))
    progress.addHandler(handler)
    progress.setLevel(logging.INFO)
    progress.propagate = False


def _check_store(url: str) -> None:
    """Open the store once before serving (creating a SQLite file's folder, bringing the
    schema up to date), so that one that cannot be opened stops ``fanfold serve`` with a
    sentence and exit status 1 instead of a traceback."""
    from fanfold.server.store import Store, StoreOpenError

    try:
        Store(url).close()
    except StoreOpenError as error:
        fail(str(error), code=1)


#: Seconds before a server process that stopped is started again (``--processes``).
RESTART_SECONDS = 1.0


def _supervise(
    ports: list[int], arguments: list[str], health: list[int] | None, names: list[str]
) -> None:
    """Run one ``fanfold serve`` process per port (each with its health port, if any, and
    its server name) until Ctrl-C or SIGTERM, starting again any that stops, under the same
    name (its tables are played meanwhile by the others, through the router, and come back
    to it once the router sees it up)."""
    import signal
    import subprocess
    import sys
    import time

    health_of = dict(zip(ports, health or [], strict=False))
    name_of = dict(zip(ports, names, strict=True))

    def start(port: int) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "fanfold", "serve", "--port", str(port), *arguments]
        command += ["--server-name", name_of[port]]
        if port in health_of:
            command += ["--health-port", str(health_of[port])]
        return subprocess.Popen(command)

    running = {port: start(port) for port in ports}
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        del signum, frame
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping:
            time.sleep(0.2)
            for port, process in list(running.items()):
                code = process.poll()
                if code is not None and not stopping:
                    console.print(
                        f"the process on port {port} stopped (status {code}); starting it again",
                        markup=False,
                    )
                    time.sleep(RESTART_SECONDS)
                    running[port] = start(port)
    except KeyboardInterrupt:
        pass
    finally:
        for process in running.values():
            if process.poll() is None:
                process.terminate()
        for process in running.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
