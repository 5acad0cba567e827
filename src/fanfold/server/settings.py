"""A server's settings: every choice ``fanfold serve`` and the tests make when they build the
application (:func:`fanfold.server.app.create_app` takes them as keywords or as one
:class:`Settings`)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fanfold.server.forwarded import public_origin as checked_origin
from fanfold.server.hub import EXPIRE_SECONDS
from fanfold.server.lobby_feed import LobbyLimits
from fanfold.server.ownership import SERVER_NAME
from fanfold.server.store.review_file import review_path
from fanfold.server.throttle import ClientLimits


class Settings(BaseModel):
    """How one server runs.

    Args:
        store_url: the store's SQLAlchemy URL (SQLite or PostgreSQL); on SQLite the reviews
            are kept in a file of their own beside it (:attr:`review_file`).
        bot_seconds: the time cap per decision for bots that take one.
        bot_pause: seconds between bot actions, so that people can follow them.
        resume: at start-up, let abandoned tables expire and load the unfinished tables
            where play goes on without a person (bots, time limits: :meth:`Hub.resume_all`).
        warm_fast: load (or, on a fresh installation, compile) Fano's compiled engine and
            search and Fan Tan's compiled search where the bots think (in every worker
            process, or once in a worker thread) at start-up, so that the first ``hard`` Fano
            or Fan Tan bot does not pay for it in play.
        keep_seconds: how long a table nobody watches and nothing plays on stays in memory
            (games their players left); the store keeps it, and it comes back when asked
            for.
        keep_finished_seconds: the same for a finished game (see :class:`Hub`).
        bot_workers: how many bot decisions run at once, in the pool shared fairly by the
            tables (:class:`~fanfold.server.bots.BotPool`).
        bot_processes: bots think in worker processes (``fanfold serve``), so that no search
            slows the server's answers; otherwise in threads of the server's process (tests).
        expire_seconds: an unfinished table with no action for this long is deleted
            (``None``: never; see :meth:`Hub.expire_abandoned`).
        limits: what one client may do: tables and requests a minute, open sockets, and
            the spectators a table takes (:class:`~fanfold.server.throttle.ClientLimits`).
        trusted_proxies: addresses or networks of the proxies in front of the server whose
            ``X-Forwarded-For`` names the client and whose ``X-Forwarded-Proto`` the scheme
            (default: none, every client is its own address, over its own scheme; see
            :mod:`fanfold.server.forwarded`).
        public_origin: the site's address as browsers see it, ``https://fanfold.example``
            (``None``: not given). An HTTPS one makes the session cookies ``Secure``, and
            every answer carry ``Strict-Transport-Security`` unless it names the local
            machine (:func:`~fanfold.server.forwarded.is_https_site`).
        lobby: the lobby sockets' own limits: per client and per process, the longest
            write, and a socket's lifetime (:class:`~fanfold.server.lobby_feed.LobbyLimits`).
        health_port: a port of its own on which the process answers ``/health`` and
            ``/ready`` from a thread, never queued behind the tables' work
            (:mod:`fanfold.server.checks`; ``None``: on the game's port only).
        health_host: the address the health port listens on.
        server_name: the process's name in the router's configuration (its ``server`` line
            in HAProxy's), which ends the id of every table it opens, so that the router
            keeps the table on it (:mod:`fanfold.server.ownership`; ``None``: ids without
            one, as for a lone process).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    store_url: str
    bot_seconds: float | None = 1.0
    bot_pause: float = Field(default=0.0, ge=0)
    resume: bool = True
    warm_fast: bool = False
    keep_seconds: float = 600.0
    keep_finished_seconds: float = 30.0
    bot_workers: int = Field(default=4, ge=1)
    bot_processes: bool = False
    expire_seconds: float | None = EXPIRE_SECONDS
    limits: ClientLimits = Field(default_factory=ClientLimits)
    trusted_proxies: tuple[str, ...] = ()
    public_origin: str | None = None
    lobby: LobbyLimits = Field(default_factory=LobbyLimits)
    health_port: int | None = Field(default=None, ge=0, le=65535)
    health_host: str = "127.0.0.1"
    server_name: str | None = Field(default=None, pattern=f"^{SERVER_NAME.pattern}$")

    @property
    def review_file(self) -> Path | None:
        """Where the engines' reviews are kept on SQLite: a file of their own beside the
        store's, ``<name>-reviews.sqlite3`` (:mod:`fanfold.server.store.review_file`); ``None``
        where the store keeps them itself (PostgreSQL)."""
        return review_path(self.store_url)

    @field_validator("public_origin")
    @classmethod
    def _origin(cls, value: str | None) -> str | None:
        return None if value is None else checked_origin(value)
