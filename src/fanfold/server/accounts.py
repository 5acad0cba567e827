"""Players' accounts: a name and a password, sessions kept in the store, and the guard that
keeps other sites from acting for a signed-in player.

* A password is hashed with Argon2id (``argon2-cffi``'s defaults, RFC 9106's second
  recommended setting) in worker threads, so that no hash holds the event loop up. Signing in
  and signing up each have a :class:`HashingLine` of their own: at most
  :data:`SIGN_IN_HASHING` sign-ins (:data:`SIGN_UP_HASHING` sign-ups) hashing at once and
  :data:`SIGN_IN_WAITING` (:data:`SIGN_UP_WAITING`) more in the line, being checked or
  waiting their turn; one more is refused at once, before it costs anything
  (:class:`BusyError`, HTTP 429, :data:`BUSY`) rather than queued. Sign-ins go first: a
  sign-up's hash waits (at most :data:`SIGN_UP_PATIENCE`) while a sign-in is in its line, so
  that a sign-in shares the CPU with one sign-up's hash at most, the one already running,
  and sign-ups hash in threads of a lower CPU priority (:data:`SIGN_UP_NICENESS`). A crowd
  making accounts therefore barely delays a sign-in, and neither crowd can take every CPU.
* Signing up checks everything that costs no hash first: the name's rules, the reserved names
  (:func:`check_name`), whether the name is taken, the password's length, and the client
  address's sign-ups (:data:`SIGN_UPS` an hour, counted in the store); only then does it hash.
* Reserved names: a bot level (:data:`fanfold.agents.levels.LEVELS`), a registered agent
  (``random``, ``mcts-strong``, ...), a role (``admin``, ``moderator``, ``system``, ...), the
  site's own name, and their look-alikes may not be an account's name. Names are compared on
  keys (:func:`name_keys`): lower case, without ``_ . -``, digits that stand for letters read
  as those letters (``0`` as ``o``, ``1`` as ``l``/``i``, ``3`` ``e``, ``4`` ``a``, ``5``
  ``s``, ``7`` ``t``; ``l`` and ``i`` as one letter, ``rn`` as ``m``, ``vv`` as ``w``),
  other digits at either end and words such as ``bot`` or ``ai`` at either end left out: so
  ``Hard-bot``, ``h4rd`` and ``HARD_2`` all read as ``hard``. Existing accounts keep their
  names; only new accounts are checked.
* Signing in answers the same sentence (:data:`WRONG`) for an unknown name and a wrong
  password, after the same work: an unknown name is checked against a dummy hash. What is
  limited is wrong passwords, never right ones, and never the name alone, so that nobody can
  lock an owner out of their account (:meth:`Accounts.begin_attempt`):

  - per name and client address: :data:`FREE_FAILURES` wrong passwords in
    :data:`FAILURE_WINDOW`, then each further attempt from that address for that name waits
    a delay that doubles with each failure (:data:`FIRST_DELAY`, at most
    :data:`LONGEST_DELAY`) after the last; a right password forgives the address's failures
    for the name;
  - per client address, over every name (one address spraying many names):
    :data:`CLIENT_FAILURES` (20 a minute and 100 an hour);
  - per name, from every address (many addresses against one name): past
    :data:`NAME_FAILURES` in :data:`FAILURE_WINDOW`, an address that has failed for the name
    gets :data:`ATTACKED_FREE_FAILURES` before its delays begin. An address that never failed
    for the name is never delayed: the owner signs in from their own address while others
    guess.

  An attempt too early is refused before any hash (:class:`TooManyError`, HTTP 429) with how
  long to wait, and is not counted. An admitted attempt is counted as a failure before its
  hash (so that attempts at once cannot slip past a limit together) and its rows are deleted
  when the password proves right. Every count lives in the store (``sign_in_attempts``) so
  that every server process shares it; on PostgreSQL the keys counted are locked for the
  counting transaction, in one order, so that processes counting at once never let one
  attempt too many through.
* An account has a role (:data:`PLAYER` or :data:`MODERATOR`) and may be closed by the
  moderators (:mod:`fanfold.server.moderation`): a closed account's right password is
  refused with a sentence that says how to appeal (:class:`ClosedError`, HTTP 403), after the
  same work and under the same limits as any sign-in, and no session of it counts.
  :meth:`Accounts.check` checks a name and password without making a session (an appeal).
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
import contextlib
import functools
import hashlib
import hmac
import math
import os
import re
import secrets
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import sqlalchemy as sa
import sqlalchemy.dialects.postgresql
import sqlalchemy.dialects.sqlite
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, Signer
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fanfold.agents.base import agent_names
from fanfold.agents.levels import LEVELS
from fanfold.core.errors import FanfoldError
from fanfold.server.live import BadRequestError, ForbiddenError
from fanfold.server.ownership import lock_key
from fanfold.server.protocol import ErrorBody, wire
from fanfold.server.store import Store, metadata, token_hash

#: An account's roles (``accounts.role``): a player, or a moderator, who may read the reports,
#: the flags and the moderators' log and close and reopen accounts (fanfold.server.moderation).
PLAYER, MODERATOR = "player", "moderator"

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    # The name in lower case: two names that differ only in case are one name.
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(300), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # What the account may do besides playing: PLAYER or MODERATOR (``fanfold moderate
    # grant``/``revoke``; fanfold.server.moderation).
    sa.Column("role", sa.String(20), nullable=False, server_default=PLAYER),
    # Closed by a moderator: no sign-in, no session, off the leaderboards (until reopened).
    sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()),
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

#: One row a counted attempt, by key, so that every server process counts the same: a sign-in
#: counted as a failure (``client:ADDRESS``, ``name:NAME`` and ``pair:ADDRESS NAME``; deleted
#: when the password proves right) and a sign-up (``sign-up:ADDRESS``). Rows older than
#: :data:`MEMORY` are deleted.
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
#: Sign-ins hashing at once (each a thread and 64 MiB; one hash took about 0.1-0.2 s here),
#: and sign-ins waiting their turn; one more is refused at once.
SIGN_IN_HASHING = 2
SIGN_IN_WAITING = 8
#: Sign-ups hashing at once, and waiting their turn (a line apart from the sign-ins').
SIGN_UP_HASHING = 1
SIGN_UP_WAITING = 4
#: Sign-ins go first: a sign-up's hash starts once no sign-in is in the sign-ins' line, or
#: once it waited this many seconds for that (looking every :data:`YIELD_STEP` seconds).
SIGN_UP_PATIENCE = 2.0
YIELD_STEP = 0.005
#: How much lower than the server's the CPU priority of the threads hashing for sign-ups is
#: (the bots' workers' too, :data:`fanfold.server.bots.NICENESS`): a sign-in, or a table,
#: never shares a core evenly with a sign-up's hash.
SIGN_UP_NICENESS = 10
#: Sign-ups per client address in :data:`SIGN_UP_WINDOW` seconds (a moving window): a few,
#: since a home or a school behind one address may make several accounts in an hour.
SIGN_UPS = 10
SIGN_UP_WINDOW = 3600.0
#: Wrong passwords for a name from one address, in :data:`FAILURE_WINDOW` seconds, before the
#: address waits between attempts for the name: :data:`FIRST_DELAY` seconds after the next
#: failure, twice that after the one after, and so on up to :data:`LONGEST_DELAY`.
FREE_FAILURES = 5
FAILURE_WINDOW = 24 * 3600.0
FIRST_DELAY = 2.0
LONGEST_DELAY = 900.0
#: Wrong passwords for a name from every address in :data:`FAILURE_WINDOW` past which an
#: address that has failed for the name has only :data:`ATTACKED_FREE_FAILURES` free.
NAME_FAILURES = 50
ATTACKED_FREE_FAILURES = 1
#: Wrong passwords from one address over every name: (count, seconds) moving windows.
CLIENT_FAILURES = ((20, 60.0), (100, 3600.0))
#: How long a counted row is kept: the longest window.
MEMORY = max(FAILURE_WINDOW, SIGN_UP_WINDOW, *(window for _, window in CLIENT_FAILURES))

#: A name: 3 to 20 letters, digits, ``_``, ``-`` or ``.``, starting with a letter or digit.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,19}")
MIN_PASSWORD, MAX_PASSWORD = 8, 200

#: What a failed sign-in is told, whether the name exists or not.
WRONG = "wrong name or password"
#: How a sign-in over the limits is told (how long to wait follows).
TOO_MANY = "too many wrong passwords"
#: What a sign-in or sign-up is told when its hashing line is full.
BUSY = "the server is checking too many passwords at the moment; try again in a few seconds"

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SignInError(ForbiddenError):
    """A wrong name or password, or a request that needs a signed-in player (HTTP 401)."""


class ClosedError(ForbiddenError):
    """A right password for an account the moderators closed (HTTP 403): the sentence says how
    to appeal (:func:`closed_sentence`)."""


#: Where a closed account's owner appeals (the name and password prove the account's owner
#: without a session: fanfold.server.moderation).
APPEAL_PAGE = "/appeal"


def closed_sentence(name: str) -> str:
    """What signing in to the closed account ``name`` is told."""
    return (
        f"the account {name} is closed by the site's moderators; to appeal, send them a note "
        f"with your name and password at {APPEAL_PAGE}"
    )


class TooManyError(FanfoldError, RuntimeError):
    """Too many wrong passwords for a name or from a client, or too many sign-ups from a
    client (HTTP 429)."""


class BusyError(TooManyError):
    """The hashing line is full: try again in a few seconds (HTTP 429)."""


T = TypeVar("T")


class HashingLine:
    """Password hashes in worker threads, at most ``at_once`` at a time, with at most
    ``waiting`` more requests in the line (being checked, or waiting for a turn); one more is
    refused at once, before it costs anything. Used on one event loop.

    Args:
        at_once: hashes computed at the same time.
        waiting: requests that may wait in the line besides those hashing.
        after: a line that goes first: a turn here starts its hash once ``after`` is empty,
            or once it waited ``patience`` seconds for that.
        patience: how long a turn waits at most for ``after`` to empty.
        threads: the worker threads that hash (asyncio's default ones when ``None``).
    """

    def __init__(
        self,
        at_once: int,
        waiting: int,
        *,
        after: HashingLine | None = None,
        patience: float = 0.0,
        threads: Executor | None = None,
    ) -> None:
        self.at_once = at_once
        self.waiting = waiting
        self.after = after
        self.patience = patience
        self.threads = threads
        #: Requests in the line: hashing, waiting for a turn, or checked before they hash.
        self.inside = 0
        self._slots = asyncio.Semaphore(at_once)

    @contextlib.asynccontextmanager
    async def place(self) -> AsyncIterator[None]:
        """A place in the line, held until the block ends.

        Raises:
            BusyError: the line is full (:data:`BUSY`).
        """
        if self.inside >= self.at_once + self.waiting:
            raise BusyError(BUSY)
        self.inside += 1
        try:
            yield
        finally:
            self.inside -= 1

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread once a turn comes (called in a :meth:`place`)."""
        async with self._slots:
            if self.after is not None:
                deadline = time.monotonic() + self.patience
                while self.after.inside and time.monotonic() < deadline:
                    await asyncio.sleep(YIELD_STEP)
            if self.threads is None:
                return await asyncio.to_thread(work)
            return await asyncio.get_running_loop().run_in_executor(self.threads, work)


def _lower_priority() -> None:
    """Lower the calling thread's CPU priority by :data:`SIGN_UP_NICENESS` (on Linux, where a
    thread has a niceness of its own; elsewhere it is left as it is)."""
    if sys.platform == "linux":
        thread = threading.get_native_id()
        with contextlib.suppress(OSError):
            niceness = os.getpriority(os.PRIO_PROCESS, thread)
            os.setpriority(os.PRIO_PROCESS, thread, min(19, niceness + SIGN_UP_NICENESS))


@dataclass(frozen=True)
class Attempt:
    """A sign-in attempt counted as a failure until its password proves right: its address,
    its name's key and its rows in ``sign_in_attempts``."""

    client: str
    name_key: str
    ids: tuple[int, ...]


@dataclass(frozen=True)
class Account:
    """A signed-in player."""

    id: int
    name: str


#: Roles, seat words and the site's own name that no account may take (with the bot levels
#: and the registered agents' names, :func:`reserved_keys`).
RESERVED = (
    "admin",
    "administrator",
    "root",
    "superuser",
    "sysop",
    "moderator",
    "mod",
    "staff",
    "support",
    "helpdesk",
    "official",
    "system",
    "server",
    "fanfold",
    "bot",
    "bots",
    "robot",
    "ai",
    "cpu",
    "computer",
    "engine",
    "agent",
    "level",
    "guest",
    "anonymous",
    "nobody",
    "player",
    "owner",
    "human",
    "you",
    "hotseat",
    "friend",
    "open",
    "null",
    "none",
    "undefined",
)
#: Reserved words a name may not contain anywhere.
RESERVED_WITHIN = ("fanfold",)
#: Words left out at either end of a name before it is compared (``Hard-bot`` is ``hard``).
AFFIXES = ("bots", "bot", "ai", "cpu", "agent", "level", "lvl", "official", "the")
#: Characters read as the letter they look like; ``l`` and ``i`` read as one letter.
_LOOK_ALIKE = str.maketrans("013457l", "oieasti")
_SEPARATORS = re.compile(r"[_.\-]")
_DIGITS = "0123456789"


def _letters(text: str) -> str:
    """``text`` read letter for letter: lower case, look-alike characters as their letter
    (one character for one, so that positions stay)."""
    return text.lower().translate(_LOOK_ALIKE)


def _key(text: str) -> str:
    """The key a text is compared on: :func:`_letters`, then ``rn`` as ``m``, ``vv`` as
    ``w``."""
    return _letters(text).replace("rn", "m").replace("vv", "w")


def name_keys(name: str) -> set[str]:
    """Every key ``name`` reads as: without separators, then with digits and
    :data:`AFFIXES` at either end left out in every order (none of them empty)."""
    start = _SEPARATORS.sub("", name.lower())
    found = {start}
    todo = [start]
    while todo:
        text = todo.pop()
        letters = _letters(text)
        shorter = [text.lstrip(_DIGITS), text.rstrip(_DIGITS)]
        for affix in AFFIXES:
            if letters.startswith(_letters(affix)):
                shorter.append(text[len(affix) :])
            if letters.endswith(_letters(affix)):
                shorter.append(text[: -len(affix)])
        for other in shorter:
            if other and other not in found:
                found.add(other)
                todo.append(other)
    return {_key(text) for text in found}


@functools.cache
def reserved_keys() -> dict[str, tuple[str, str]]:
    """The key of each reserved word (the bot levels, the registered agents' names and
    :data:`RESERVED`), with the word and what it is."""
    kinds = (
        (LEVELS, "a bot level"),
        (agent_names(), "an agent's name"),
        (RESERVED, "a role or a word the site uses"),
    )
    found: dict[str, tuple[str, str]] = {}
    for words, kind in kinds:
        for word in words:
            found.setdefault(_key(_SEPARATORS.sub("", word)), (word, kind))
    return found


def reserved_as(name: str) -> tuple[str, str] | None:
    """The reserved word ``name`` reads as, if any, and what it is."""
    keys = name_keys(name)
    reserved = reserved_keys()
    for key in sorted(keys):
        if key in reserved:
            return reserved[key]
    for word in RESERVED_WITHIN:
        if any(_key(word) in key for key in keys):
            return word, "the site's own name"
    return None


def check_name(name: str) -> str:
    """``name`` if it may be a new account's name.

    Raises:
        BadRequestError: it may not, with the rule.
    """
    if not NAME.fullmatch(name):
        raise BadRequestError(
            "a name has 3 to 20 letters, digits, '_', '-' or '.', and starts with a letter "
            "or a digit"
        )
    reserved = reserved_as(name)
    if reserved is not None:
        word, kind = reserved
        raise BadRequestError(
            f"the name {name} is reserved: it reads as {word!r}, {kind}; choose another"
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


def _taken(name: str) -> str:
    return f"the name {name} is taken; choose another"


def shared_key(store: Store) -> str:
    """The cookie-signing key every process of this store uses (:func:`stored_key`)."""
    return stored_key(store, KEY_NAME)


def stored_key(store: Store, name: str) -> str:
    """The secret key ``name`` every process of this store uses: the stored one, or a new one
    stored now (when two processes start at once, the first insert wins and both read it)."""
    with store.engine.begin() as connection:
        connection.execute(
            _insert(connection, server_keys)
            .values(name=name, value=secrets.token_urlsafe(48))
            .on_conflict_do_nothing()
        )
        value: str = connection.execute(
            sa.select(server_keys.c.value).where(server_keys.c.name == name)
        ).scalar_one()
    return value


#: The window of the tables a client opens, counted in the store (:meth:`Accounts.count_table`).
TABLES_WINDOW = 60.0


def _duration(seconds: float) -> str:
    """``seconds`` to wait, for a person: ``1 second``, ``40 seconds``, ``15 minutes``."""
    whole = max(1, math.ceil(seconds - 1e-9))
    if whole < 120:
        return f"{whole} second" if whole == 1 else f"{whole} seconds"
    return f"{math.ceil(whole / 60)} minutes"


def _lock(connection: sa.Connection, keys: Iterable[str]) -> None:
    """On PostgreSQL, hold each key's advisory lock for the transaction, in one order, so
    that processes counting the same keys at once count one after the other."""
    if connection.dialect.name == "postgresql":
        for key in sorted(set(keys)):
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_key(f"sign-in {key}"))))


def _wait_over(
    connection: sa.Connection, key: str, limit: int, window: float, now: float
) -> float | None:
    """Seconds until ``key`` has fewer than ``limit`` rows in the last ``window`` seconds,
    or ``None`` when it has fewer now."""
    since = now - window
    counted = int(
        connection.execute(
            sa.select(sa.func.count()).where(
                sign_in_attempts.c.key == key, sign_in_attempts.c.at > since
            )
        ).scalar_one()
    )
    if counted < limit:
        return None
    leaving = connection.execute(  # the row whose leaving the window frees a place
        sa.select(sign_in_attempts.c.at)
        .where(sign_in_attempts.c.key == key, sign_in_attempts.c.at > since)
        .order_by(sign_in_attempts.c.at)
        .offset(counted - limit)
        .limit(1)
    ).scalar_one()
    return float(leaving) + window - now


def _count(connection: sa.Connection, key: str, now: float) -> int:
    """Insert a row counted for ``key`` at ``now``; returns its id."""
    found = connection.execute(
        sign_in_attempts.insert().values(key=key, at=now).returning(sign_in_attempts.c.id)
    ).scalar_one()
    return int(found)


class Accounts:
    """Accounts and sessions in ``store``.

    Args:
        store: the server's store (its schema has the accounts' tables).
        hasher: the Argon2 hasher (argon2-cffi's defaults when ``None``).
        sign_in_at_once: sign-ins' password checks computed at the same time.
        sign_in_waiting: sign-ins that may wait for a turn to check.
        sign_up_at_once: sign-ups' password hashes computed at the same time.
        sign_up_waiting: sign-ups that may wait for a turn to hash.
    """

    def __init__(
        self,
        store: Store,
        *,
        hasher: PasswordHasher | None = None,
        sign_in_at_once: int = SIGN_IN_HASHING,
        sign_in_waiting: int = SIGN_IN_WAITING,
        sign_up_at_once: int = SIGN_UP_HASHING,
        sign_up_waiting: int = SIGN_UP_WAITING,
    ) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.key = shared_key(store)
        self.signer = Signer(self.key, salt="fanfold.session")
        # An unknown name is checked against this, so that it takes a wrong password's time.
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.sign_in_line = HashingLine(sign_in_at_once, sign_in_waiting)
        self.sign_up_line = HashingLine(
            sign_up_at_once,
            sign_up_waiting,
            after=self.sign_in_line,
            patience=SIGN_UP_PATIENCE,
            threads=ThreadPoolExecutor(
                sign_up_at_once, thread_name_prefix="fanfold-sign-up", initializer=_lower_priority
            ),
        )
        # SQLite has one process: its threads count one at a time (PostgreSQL locks the keys).
        self._counting = threading.Lock()

    # ------------------------------------------------------------ passwords
    async def _verify(self, hashed: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        return await self.sign_in_line.run(verify)

    # ------------------------------------------------------------- accounts
    async def create(
        self, name: str, password: str, client: str | None = None
    ) -> tuple[Account, str]:
        """A new account, signed in: returns it and its session token. Everything that costs
        no hash is checked first (the name, the password, the client's sign-ups); then the
        password is hashed in the sign-ups' line.

        Args:
            client: the client's address, whose sign-ups are limited (:data:`SIGN_UPS` in
                :data:`SIGN_UP_WINDOW`); ``None`` (the server's own programs) is not limited.

        Raises:
            BadRequestError: a name or password against the rules, a reserved name or a name
                taken.
            TooManyError: the client made too many accounts lately.
            BusyError: the sign-ups' hashing line is full (before anything is counted).
        """
        check_name(name)
        check_password(password)
        async with self.sign_up_line.place():
            await asyncio.to_thread(self._check_free, name)
            if client is not None:
                await asyncio.to_thread(self.count_sign_up, client)
            hashed = await self.sign_up_line.run(lambda: self.hasher.hash(password))

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
                    raise BadRequestError(_taken(name))
                return int(found.id)

        account = Account(await asyncio.to_thread(insert), name)
        return account, await asyncio.to_thread(self._new_session, account.id)

    def _check_free(self, name: str) -> None:
        """Refuse a name some account has (whatever its case)."""
        with self.store.engine.connect() as connection:
            taken = connection.execute(
                sa.select(accounts.c.id).where(accounts.c.name_key == name.lower())
            ).first()
        if taken is not None:
            raise BadRequestError(_taken(name))

    def count_sign_up(self, client: str, now: float | None = None) -> int:
        """Count a sign-up from ``client`` in the store; returns its row's id.

        Raises:
            TooManyError: the client made :data:`SIGN_UPS` in the last
                :data:`SIGN_UP_WINDOW` seconds (this one is not counted).
        """
        refusal = f"too many accounts made from your address ({SIGN_UPS} an hour)"
        return self._count_within(
            f"sign-up:{client}", SIGN_UPS, SIGN_UP_WINDOW, MEMORY, refusal, now
        )

    def count_table(self, client: str, limit: int, now: float | None = None) -> int:
        """Count a table opened by ``client`` in the store, so that every server process
        shares the count (the limit per process counts in memory too); returns its row's id.

        Raises:
            TooManyError: the client opened ``limit`` tables in the last minute (this one is
                not counted).
        """
        refusal = f"too many tables opened from your address ({limit} a minute)"
        return self._count_within(
            f"tables:{client}", limit, TABLES_WINDOW, TABLES_WINDOW, refusal, now
        )

    def _count_within(
        self,
        key: str,
        limit: int,
        window: float,
        keep: float,
        refusal: str,
        now: float | None,
    ) -> int:
        """Count one more for ``key`` in the store unless it has ``limit`` in the last
        ``window`` seconds (its rows older than ``keep`` deleted first); returns the row's id.

        Raises:
            TooManyError: ``refusal`` and how long to wait (nothing counted).
        """
        now = time.time() if now is None else now
        key = key[:120]
        with self._counting, self.store.engine.begin() as connection:
            _lock(connection, [key])
            connection.execute(
                sign_in_attempts.delete().where(
                    sign_in_attempts.c.key == key, sign_in_attempts.c.at <= now - keep
                )
            )
            wait = _wait_over(connection, key, limit, window, now)
            if wait is not None:
                raise TooManyError(f"{refusal}; wait {_duration(wait)} and try again")
            return _count(connection, key, now)

    async def sign_in(self, name: str, password: str, client: str) -> tuple[Account, str]:
        """Sign in: returns the account and a new session token.

        Raises:
            TooManyError: too many wrong passwords from ``client``, or from ``client`` for
                this name (:meth:`begin_attempt`; counted whether the name exists or not).
            BusyError: the sign-ins' hashing line is full (before anything is counted).
            SignInError: :data:`WRONG`, for an unknown name and a wrong password alike.
            ClosedError: a right password for a closed account (no session is made).
        """
        account, closed = await self.check(name, password, client)
        if closed:
            raise ClosedError(closed_sentence(account.name))
        return account, await asyncio.to_thread(self._new_session, account.id)

    async def check(self, name: str, password: str, client: str) -> tuple[Account, bool]:
        """Check a name and password as signing in does, under the same limits, without
        making a session: returns the account and whether it is closed (a closed account's
        owner appeals this way).

        Raises:
            TooManyError: as :meth:`sign_in`.
            BusyError: as :meth:`sign_in`.
            SignInError: :data:`WRONG`, for an unknown name and a wrong password alike.
        """
        key = name.lower()[:40]
        password = password[:MAX_PASSWORD]
        async with self.sign_in_line.place():
            attempt = await asyncio.to_thread(self.begin_attempt, client, key)
            row = await asyncio.to_thread(self._find, key)
            right = await self._verify(row.password_hash if row else self.dummy, password)
            if row is None or not right:
                raise SignInError(WRONG)  # the attempt stays counted as a failure
            await asyncio.to_thread(self.forgive, attempt)
            account = Account(int(row.id), str(row.name))
            if self.hasher.check_needs_rehash(row.password_hash):
                rehashed = await self.sign_in_line.run(lambda: self.hasher.hash(password))
                await asyncio.to_thread(self._set_hash, account.id, rehashed)
        return account, bool(row.closed)

    def _find(self, name_key: str) -> Any:
        """The id, name, password hash and closed state of the account called ``name_key``,
        or ``None``."""
        with self.store.engine.connect() as connection:
            return connection.execute(
                sa.select(
                    accounts.c.id, accounts.c.name, accounts.c.password_hash, accounts.c.closed
                ).where(accounts.c.name_key == name_key)
            ).first()

    def begin_attempt(self, client: str, name_key: str, now: float | None = None) -> Attempt:
        """Count a sign-in attempt from ``client`` for the name ``name_key`` (lower case) as a
        failure, in the store, unless it comes too early (see the module's text); a right
        password then deletes it (:meth:`forgive`).

        Raises:
            TooManyError: too many wrong passwords from ``client`` over every name
                (:data:`CLIENT_FAILURES`), or for this name from ``client`` before its delay
                passed; with how long to wait. The refused attempt is not counted.
        """
        now = time.time() if now is None else now
        client_key = f"client:{client}"[:120]
        name_key_row = f"name:{name_key}"[:120]
        pair_key = f"pair:{client} {name_key}"[:120]
        keys = (client_key, name_key_row, pair_key)
        with self._counting, self.store.engine.begin() as connection:
            _lock(connection, keys)
            connection.execute(
                sign_in_attempts.delete().where(
                    sign_in_attempts.c.key.in_(keys), sign_in_attempts.c.at <= now - MEMORY
                )
            )
            for limit, window in CLIENT_FAILURES:
                wait = _wait_over(connection, client_key, limit, window, now)
                if wait is not None:
                    raise TooManyError(
                        f"{TOO_MANY} from your address; wait {_duration(wait)} and try again"
                    )
            since = now - FAILURE_WINDOW
            failed, last = connection.execute(
                sa.select(sa.func.count(), sa.func.max(sign_in_attempts.c.at)).where(
                    sign_in_attempts.c.key == pair_key, sign_in_attempts.c.at > since
                )
            ).one()
            named = connection.execute(
                sa.select(sa.func.count()).where(
                    sign_in_attempts.c.key == name_key_row, sign_in_attempts.c.at > since
                )
            ).scalar_one()
            free = FREE_FAILURES if named < NAME_FAILURES else ATTACKED_FREE_FAILURES
            if failed >= free:
                delay = min(LONGEST_DELAY, FIRST_DELAY * 2.0 ** min(failed - free, 30))
                if now < float(last) + delay:
                    raise TooManyError(
                        f"{TOO_MANY} for this name from your address; wait "
                        f"{_duration(float(last) + delay - now)} and try again"
                    )
            ids = tuple(_count(connection, key, now) for key in keys)
        return Attempt(client, name_key, ids)

    def forgive(self, attempt: Attempt) -> None:
        """A right password: the attempt was no failure, and its address's failures for the
        name are forgiven."""
        pair_key = f"pair:{attempt.client} {attempt.name_key}"[:120]
        with self.store.engine.begin() as connection:
            connection.execute(
                sign_in_attempts.delete().where(
                    sa.or_(
                        sign_in_attempts.c.id.in_(attempt.ids), sign_in_attempts.c.key == pair_key
                    )
                )
            )

    def delete_expired(self, now: float | None = None) -> int:
        """Delete every session that has ended (its ``expires`` passed) and every counted
        attempt older than the longest window (:data:`MEMORY`); returns how many sessions
        went. The sweeper runs it hourly (:func:`fanfold.server.runtime._sweep`), and a
        sign-in deletes its account's own ended sessions."""
        now = time.time() if now is None else now
        with self.store.engine.begin() as connection:
            gone = connection.execute(sessions.delete().where(sessions.c.expires <= now))
            connection.execute(
                sign_in_attempts.delete().where(sign_in_attempts.c.at <= now - MEMORY)
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
        """The account of a live session, or ``None`` (no token, ended, expired, or an
        account closed: closing ends its sessions, and one made at that very moment is no
        session either)."""
        if not token:
            return None
        with self.store.engine.connect() as connection:
            row = connection.execute(
                sa.select(accounts.c.id, accounts.c.name)
                .select_from(sessions.join(accounts, accounts.c.id == sessions.c.account_id))
                .where(
                    sessions.c.token_hash == token_hash(token),
                    sessions.c.expires > time.time(),
                    accounts.c.closed.is_(False),
                )
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
        body = wire(ErrorBody(error=sentence, kind=kind)).encode()
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
