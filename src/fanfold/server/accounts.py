"""Players' accounts: a name and a password, sessions kept in the store, and the guard that
keeps other sites from acting for a signed-in player.

* A password is hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's second
  recommended setting) in worker threads, at most :data:`HASHING_AT_ONCE` at a time, so that
  no hash holds the event loop up and a crowd signing in cannot take every CPU.
* Signing in answers the same sentence (:data:`WRONG`) for an unknown name and a wrong
  password, after the same work: an unknown name is checked against a dummy hash. Attempts
  are limited per name and per client address (:data:`NAME_ATTEMPTS`,
  :data:`CLIENT_ATTEMPTS`), whether the name exists or not, counted in the store
  (``sign_in_attempts``) so that every server process shares the count.
* A session is a random token whose SHA-256 the store keeps with its account and its end, so
  that signing out (one session) and signing out everywhere (every session of the account)
  take effect in every server process at once; ended sessions are deleted (hourly, and an
  account's own at each sign-in). The browser holds it in an HttpOnly,
  SameSite=Lax cookie (:data:`SESSION_COOKIE`) signed with a key kept in the store
  (:data:`KEY_NAME`): made by the first process that starts, read by every other, and kept
  across restarts.
* Cross-site requests (:class:`CrossSiteGuard`): every state-changing request (any method but
  GET, HEAD and OPTIONS) whose ``Origin`` names another site is refused, and one that carries
  the session cookie must carry the session's CSRF token in :data:`CSRF_HEADER` too (the page
  reads it from the :data:`CSRF_COOKIE` cookie, which other sites cannot read). Every
  WebSocket whose ``Origin`` names another site is refused before it opens.

Guests play as before: nothing here is needed to open, join or play a casual table.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, Signer
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.core.errors import FanfoldError
from fanfold.server.live import BadRequestError, ForbiddenError
from fanfold.server.ownership import lock_key
from fanfold.server.store import Store, metadata, token_hash

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    # The name in lower case: two names that differ only in case are one name.
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(300), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Index("sessions_account", "account_id"),
    sa.Index("sessions_expires", "expires"),
)

#: One row a sign-in attempt counted in the last :data:`ATTEMPT_WINDOW` seconds, by key
#: (``client:ADDRESS`` or ``name:NAME``), so that every server process counts the same.
sign_in_attempts = sa.Table(
    "sign_in_attempts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(120), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("sign_in_attempts_key", "key", "at"),
)

server_keys = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("value", sa.String(200), nullable=False),
)

#: The cookie holding the signed session token (HttpOnly, SameSite=Lax).
SESSION_COOKIE = "fanfold_session"
#: The cookie holding the session's CSRF token, readable by the site's own pages.
CSRF_COOKIE = "fanfold_csrf"
#: The header a state-changing request of a signed-in browser carries the CSRF token in.
CSRF_HEADER = "X-Fanfold-CSRF"
#: The name of the cookie-signing key in the store's ``server_keys``.
KEY_NAME = "session-signing"
#: How long a session lasts: 30 days.
SESSION_SECONDS = 30 * 24 * 3600.0
#: Password hashes computed at once (each in a thread and 64 MiB; one took about 0.19 s here).
HASHING_AT_ONCE = 2
#: Sign-in attempts per name, and per client address, in :data:`ATTEMPT_WINDOW` seconds
#: (a moving window, counted in the store: every process shares the count).
NAME_ATTEMPTS = 5
CLIENT_ATTEMPTS = 20
ATTEMPT_WINDOW = 60.0

#: A name: 3 to 20 letters, digits, ``_``, ``-`` or ``.``, starting with a letter or digit.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,19}")
MIN_PASSWORD, MAX_PASSWORD = 8, 200

#: What a failed sign-in is told, whether the name exists or not.
WRONG = "wrong name or password"
#: What a sign-in over the limits is told.
TOO_MANY = "too many sign-in attempts; wait a minute and try again"

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SignInError(ForbiddenError):
    """A wrong name or password, or a request that needs a signed-in player (HTTP 401)."""


class TooManyError(FanfoldError, RuntimeError):
    """Too many sign-in attempts for a name or from a client (HTTP 429)."""


@dataclass(frozen=True)
class Account:
    """A signed-in player."""

    id: int
    name: str


def check_name(name: str) -> str:
    """``name`` if it may be an account's name.

    Raises:
        BadRequestError: it may not, with the rule.
    """
    if not NAME.fullmatch(name):
        raise BadRequestError(
            "a name has 3 to 20 letters, digits, '_', '-' or '.', and starts with a letter "
            "or a digit"
        )
    return name


def check_password(password: str) -> str:
    """``password`` if it may be one.

    Raises:
        BadRequestError: too short or too long.
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequestError(
            f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, not {len(password)}"
        )
    return password


def _insert(
    connection: sa.Connection, table: sa.Table
) -> sa.dialects.postgresql.Insert | sa.dialects.sqlite.Insert:
    if connection.dialect.name == "postgresql":
        return sa.dialects.postgresql.insert(table)
    return sa.dialects.sqlite.insert(table)


def shared_key(store: Store) -> str:
    """The cookie-signing key every process of this store uses: the stored one, or a new one
    stored now (when two processes start at once, the first insert wins and both read it)."""
    with store.engine.begin() as connection:
        connection.execute(
            _insert(connection, server_keys)
            .values(name=KEY_NAME, value=secrets.token_urlsafe(48))
            .on_conflict_do_nothing()
        )
        value: str = connection.execute(
            sa.select(server_keys.c.value).where(server_keys.c.name == KEY_NAME)
        ).scalar_one()
    return value


class Accounts:
    """Accounts and sessions in ``store``.

    Args:
        store: the server's store (its schema has the accounts' tables).
        hasher: the Argon2 hasher (argon2-cffi's defaults when ``None``).
        at_once: password hashes computed at the same time.
    """

    def __init__(
        self, store: Store, *, hasher: PasswordHasher | None = None, at_once: int = HASHING_AT_ONCE
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.key = shared_key(store)
        self.signer = Signer(self.key, salt="fanfold.session")
        # An unknown name is checked against this, so that it takes a wrong password's time.
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.slots = asyncio.Semaphore(at_once)
        # SQLite has one process: its threads count one at a time (PostgreSQL locks the keys).
        self._counting = threading.Lock()

    # ------------------------------------------------------------ passwords
    async def _hash(self, password: str) -> str:
        async with self.slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        async with self.slots:
            return await asyncio.to_thread(verify)

    # ------------------------------------------------------------- accounts
    async def create(self, name: str, password: str) -> tuple[Account, str]:
        """A new account, signed in: returns it and its session token.

        Raises:
            BadRequestError: a name or password against the rules, or a name taken.
        """
        check_name(name)
        check_password(password)
        hashed = await self._hash(password)

        def insert() -> int:
            with self.store.engine.begin() as connection:
                found = connection.execute(
                    _insert(connection, accounts)
                    .values(
                        name=name, name_key=name.lower(), password_hash=hashed, created=time.time()
                    )
                    .on_conflict_do_nothing()
                    .returning(accounts.c.id)
                ).first()
                if found is None:
                    raise BadRequestError(f"the name {name} is taken; choose another")
                return int(found.id)

        account = Account(await asyncio.to_thread(insert), name)
        return account, await asyncio.to_thread(self._new_session, account.id)

    async def sign_in(self, name: str, password: str, client: str) -> tuple[Account, str]:
        """Sign in: returns the account and a new session token.

        Raises:
            TooManyError: too many attempts for this name or from ``client`` in the last
                minute (counted whether the name exists or not).
            SignInError: :data:`WRONG`, for an unknown name and a wrong password alike.
        """
        key = name.lower()[:40]
        if not await asyncio.to_thread(self.count_attempt, client, key):
            raise TooManyError(TOO_MANY)
        password = password[:MAX_PASSWORD]

        def find() -> Any:
            with self.store.engine.connect() as connection:
                return connection.execute(
                    sa.select(accounts.c.id, accounts.c.name, accounts.c.password_hash).where(
                        accounts.c.name_key == key
                    )
                ).first()

        row = await asyncio.to_thread(find)
        right = await self._verify(row.password_hash if row else self.dummy, password)
        if row is None or not right:
            raise SignInError(WRONG)
        account = Account(int(row.id), str(row.name))
        if self.hasher.check_needs_rehash(row.password_hash):
            rehashed = await self._hash(password)
            await asyncio.to_thread(self._set_hash, account.id, rehashed)
        return account, await asyncio.to_thread(self._new_session, account.id)

    def count_attempt(self, client: str, name_key: str, now: float | None = None) -> bool:
        """Count a sign-in attempt from ``client`` for the name ``name_key`` (lower case), in
        the store: False when the client has made :data:`CLIENT_ATTEMPTS` attempts, or the
        name had :data:`NAME_ATTEMPTS`, in the last :data:`ATTEMPT_WINDOW` seconds. A refused
        attempt is not counted for what refused it (the client's counted attempt stays when
        the name refuses), as a moving window counts. On PostgreSQL both keys are locked for
        the transaction, in one order, so that processes counting at once wait for each
        other and never let one attempt too many through."""
        now = time.time() if now is None else now
        keys = [f"client:{client}"[:120], f"name:{name_key}"[:120]]
        limits = dict(zip(keys, (CLIENT_ATTEMPTS, NAME_ATTEMPTS), strict=True))
        with self._counting, self.store.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                for key in sorted(keys):
                    connection.execute(
                        sa.select(sa.func.pg_advisory_xact_lock(lock_key(f"sign-in {key}")))
                    )
            connection.execute(
                sign_in_attempts.delete().where(
                    sign_in_attempts.c.key.in_(keys), sign_in_attempts.c.at <= now - ATTEMPT_WINDOW
                )
            )
            for key in keys:
                counted = connection.execute(
                    sa.select(sa.func.count()).where(
                        sign_in_attempts.c.key == key,
                        sign_in_attempts.c.at > now - ATTEMPT_WINDOW,
                    )
                ).scalar_one()
                if counted >= limits[key]:
                    return False
                connection.execute(sign_in_attempts.insert().values(key=key, at=now))
        return True

    def delete_expired(self, now: float | None = None) -> int:
        """Delete every session that has ended (its ``expires`` passed) and every sign-in
        attempt older than the limits' window; returns how many sessions went. The sweeper
        runs it hourly (:func:`fanfold.server.runtime._sweep`), and a sign-in deletes its
        account's own ended sessions."""
        now = time.time() if now is None else now
        with self.store.engine.begin() as connection:
            gone = connection.execute(sessions.delete().where(sessions.c.expires <= now))
            connection.execute(
                sign_in_attempts.delete().where(sign_in_attempts.c.at <= now - ATTEMPT_WINDOW)
            )
            return int(gone.rowcount)

    def _set_hash(self, account_id: int, hashed: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(
                accounts.update().where(accounts.c.id == account_id).values(password_hash=hashed)
            )

    # ------------------------------------------------------------- sessions
    def _new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.store.engine.begin() as connection:
            connection.execute(  # the account's ended sessions go now
                sessions.delete().where(
                    sessions.c.account_id == account_id, sessions.c.expires <= now
                )
            )
            connection.execute(
                sessions.insert().values(
                    token_hash=token_hash(token),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token

    def cookie_value(self, token: str) -> str:
        """The session cookie's value for ``token``: the token signed with the shared key."""
        return self.signer.sign(token).decode()

    def token_of(self, cookie: str | None) -> str | None:
        """The session token a cookie holds, if its signature is this store's."""
        if not cookie:
            return None
        try:
            return self.signer.unsign(cookie).decode()
        except (BadSignature, UnicodeDecodeError):
            return None

    def csrf_token(self, token: str) -> str:
        """The CSRF token of the session ``token`` (an HMAC with the shared key)."""
        return hmac.new(self.key.encode(), b"csrf:" + token.encode(), hashlib.sha256).hexdigest()

    def account_of(self, token: str | None) -> Account | None:
        """The account of a live session, or ``None`` (no token, ended, expired)."""
        if not token:
            return None
        with self.store.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts.c.id, accounts.c.name)
                .select_from(sessions.join(accounts, accounts.c.id == sessions.c.account_id))
                .where(sessions.c.token_hash == token_hash(token), sessions.c.expires > time.time())
            ).first()
        return Account(int(row.id), str(row.name)) if row is not None else None

    def sign_out(self, token: str) -> None:
        """End one session."""
        with self.store.engine.begin() as connection:
            connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash(token)))

    def sign_out_everywhere(self, account_id: int) -> int:
        """End every session of an account (every device); returns how many."""
        with self.store.engine.begin() as connection:
            done = connection.execute(sessions.delete().where(sessions.c.account_id == account_id))
            return int(done.rowcount)

    def name_of(self, account_id: int) -> str | None:
        """An account's name."""
        with self.store.engine.connect() as connection:
            name = connection.execute(
                sa.select(accounts.c.name).where(accounts.c.id == account_id)
            ).scalar()
        return str(name) if name is not None else None


# ----------------------------------------------------------- the guard


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", ())}


def same_origin(scope: Scope) -> bool:
    """Whether the request has no ``Origin`` (not a browser's cross-site request) or one
    naming the host it was sent to."""
    headers = _headers(scope)
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"").decode("latin-1").lower()
    parts = urlsplit(origin.decode("latin-1"))
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host


class CrossSiteGuard:
    """Refuse what another site makes a browser send (see the module's text): a
    state-changing request or a WebSocket from another ``Origin``, and a state-changing
    request with the session cookie but without its CSRF token.

    Args:
        app: the ASGI application behind it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    @staticmethod
    async def _refuse(send: Send, sentence: str, kind: str) -> None:
        body = json.dumps({"error": sentence, "kind": kind}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not same_origin(scope):
            message: Message = await receive()  # the connect; closing now refuses it
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008, "reason": "cross-site"})
            return
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        if not same_origin(scope):
            await self._refuse(
                send, "this request came from another site and is refused", "CrossSite"
            )
            return
        headers = _headers(scope)
        cookie = cookie_parser(headers.get(b"cookie", b"").decode("latin-1")).get(SESSION_COOKIE)
        found: Accounts | None = getattr(scope["app"].state, "accounts", None)
        token = found.token_of(cookie) if found is not None else None
        if token is not None and found is not None:
            sent = headers.get(CSRF_HEADER.lower().encode(), b"").decode("latin-1")
            if not hmac.compare_digest(sent, found.csrf_token(token)):
                await self._refuse(
                    send,
                    f"this request lacks the page's {CSRF_HEADER} token (reload the page)",
                    "CSRF",
                )
                return
        await self.app(scope, receive, send)
