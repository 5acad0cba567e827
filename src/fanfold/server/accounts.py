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
* Reserved names (a bot level, an agent's name, a role, the site's own name, and their
  look-alikes) may not be a new account's name: :mod:`fanfold.server.account_names`.
* Signing in answers the same sentence (:data:`WRONG`) for an unknown name and a wrong
  password, after the same work: an unknown name is checked against a dummy hash. What is
  limited is wrong passwords, never right ones, and never the name alone, so that nobody can
  lock an owner out of their account: per name and address, per address, per name, every
  count kept in the store (:mod:`fanfold.server.sign_in_limits` says how much, and how).
* An account has a role (:data:`PLAYER` or :data:`MODERATOR`) and may be closed by the
  moderators (:mod:`fanfold.server.moderation`): a closed account's right password is
  refused with a sentence that says how to appeal (:class:`ClosedError`, HTTP 403), after the
  same work and under the same limits as any sign-in, and no session of it counts.
  :meth:`Accounts.check` checks a name and password without making a session (an appeal).
* A session is a random token whose SHA-256 the store keeps with its account and its end, so
  that signing out (one session) and signing out everywhere (every session of the account)
  take effect in every server process at once; ended sessions are deleted (hourly, and an
  account's own at each sign-in). The browser holds it in an HttpOnly,
  SameSite=Lax cookie (:data:`SESSION_COOKIE`) signed with a key kept in the store (made by
  the first process that starts, read by every other, kept across restarts), or with the keys
  of an operator's file, the first signing, every one verifying
  (:mod:`fanfold.server.signing_keys`).
* Cross-site requests are refused by :class:`fanfold.server.cross_site.CrossSiteGuard`.

Guests play as before: nothing here is needed to open, join or play a casual table.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, Signer

from fanfold.server.account_names import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    NAME,
    check_name,
    check_password,
    name_keys,
    reserved_as,
)
from fanfold.server.hashing import BUSY, BusyError, HashingLine, TooManyError, lower_priority
from fanfold.server.live import BadRequestError, ForbiddenError
from fanfold.server.refusals import refusal
from fanfold.server.sign_in_limits import (
    CLIENT_FAILURES,
    FAILURE_WINDOW,
    FIRST_DELAY,
    FREE_FAILURES,
    LONGEST_DELAY,
    MEMORY,
    NAME_FAILURES,
    SIGN_UP_WINDOW,
    SIGN_UPS,
    TOO_MANY,
    Attempt,
    Counting,
)
from fanfold.server.signing_keys import SigningKeys, key_file_of_environment
from fanfold.server.store import Store, token_hash
from fanfold.server.store.account_store import SqlAccounts
from fanfold.server.store.protocols import AccountStore
from fanfold.server.store.records import AccountRow

#: An account's roles (``accounts.role``): a player, or a moderator, who may read the reports,
#: the flags and the moderators' log and close and reopen accounts (fanfold.server.moderation).
PLAYER, MODERATOR = "player", "moderator"

#: The cookie holding the signed session token (HttpOnly, SameSite=Lax).
SESSION_COOKIE = "fanfold_session"
#: The cookie holding the session's CSRF token, readable by the site's own pages.
CSRF_COOKIE = "fanfold_csrf"
#: The header a state-changing request of a signed-in browser carries the CSRF token in.
CSRF_HEADER = "X-Fanfold-CSRF"
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
#: once it waited this many seconds for that (looking every
#: :data:`~fanfold.server.hashing.YIELD_STEP` seconds).
SIGN_UP_PATIENCE = 2.0


#: What a failed sign-in is told, whether the name exists or not.
WRONG = "wrong name or password"


class SignInError(ForbiddenError):
    """A wrong name or password, or a request that needs a signed-in player (HTTP 401)."""


class ClosedError(ForbiddenError):
    """A right password for an account the moderators closed (HTTP 403): the sentence says how
    to appeal (:func:`closed_sentence`)."""


#: Where a closed account's owner appeals (the name and password prove the account's owner
#: without a session: fanfold.server.moderation).
APPEAL_PAGE = "/appeal"


def closed_sentence(name: str) -> str:
    """What signing in to the closed account ``name`` is told (a refusal, worded on the page)."""
    return refusal("account.closed", name=name, page=APPEAL_PAGE)


@dataclass(frozen=True)
class Account:
    """A signed-in player."""

    id: int
    name: str


def _taken(name: str) -> str:
    return refusal("account.taken", name=name)


class Accounts(Counting):
    """Accounts and sessions in ``store``.

    Args:
        store: the server's store (its schema has the accounts' tables).
        data: where accounts, sessions and counts are kept (``None``: the store's SQL
            database, :class:`~fanfold.server.store.account_store.SqlAccounts`).
        hasher: the Argon2 hasher (argon2-cffi's defaults when ``None``).
        sign_in_at_once: sign-ins' password checks computed at the same time.
        sign_in_waiting: sign-ins that may wait for a turn to check.
        sign_up_at_once: sign-ups' password hashes computed at the same time.
        sign_up_waiting: sign-ups that may wait for a turn to hash.
        keys: the keys that sign the session cookies (``None``: those of the key file named
            in the environment, else the store's own, :meth:`SigningKeys.load`).
    """

    def __init__(
        self,
        store: Store,
        *,
        data: AccountStore | None = None,
        hasher: PasswordHasher | None = None,
        sign_in_at_once: int = SIGN_IN_HASHING,
        sign_in_waiting: int = SIGN_IN_WAITING,
        sign_up_at_once: int = SIGN_UP_HASHING,
        sign_up_waiting: int = SIGN_UP_WAITING,
        keys: SigningKeys | None = None,
    ) -> None:
        self.store = store
        self.data: AccountStore = data if data is not None else SqlAccounts(store.engine)
        self.hasher = hasher or PasswordHasher()
        self.keys = keys or SigningKeys.load(self.data, key_file_of_environment())
        self.key = self.keys.signing
        # itsdangerous signs with the last key, and verifies with every one.
        self.signer = Signer(list(reversed(self.keys.accepted)), salt="fanfold.session")
        # An unknown name is checked against this, so that it takes a wrong password's time.
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.sign_in_line = HashingLine(sign_in_at_once, sign_in_waiting)
        self.sign_up_line = HashingLine(
            sign_up_at_once,
            sign_up_waiting,
            after=self.sign_in_line,
            patience=SIGN_UP_PATIENCE,
            threads=ThreadPoolExecutor(
                sign_up_at_once, thread_name_prefix="fanfold-sign-up", initializer=lower_priority
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
            found = self.data.add_account(name, hashed, time.time())
            if found is None:
                raise BadRequestError(_taken(name))
            return found

        account = Account(await asyncio.to_thread(insert), name)
        return account, await asyncio.to_thread(self._new_session, account.id)

    def _check_free(self, name: str) -> None:
        """Refuse a name some account has (whatever its case)."""
        if self.data.name_taken(name.lower()):
            raise BadRequestError(_taken(name))

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
        too_long = len(password) > MAX_PASSWORD  # no account's: wrong, at a hash's cost
        password = password[:MAX_PASSWORD]
        async with self.sign_in_line.place():
            attempt = await asyncio.to_thread(self.begin_attempt, client, key)
            row = await asyncio.to_thread(self._find, key)
            right = await self._verify(row.password_hash if row else self.dummy, password)
            if row is None or not right or too_long:
                raise SignInError(refusal("account.wrong"))  # still counted as a failure
            await asyncio.to_thread(self.forgive, attempt)
            account = Account(row.id, row.name)
            if self.hasher.check_needs_rehash(row.password_hash):
                rehashed = await self.sign_in_line.run(lambda: self.hasher.hash(password))
                await asyncio.to_thread(self._set_hash, account.id, rehashed)
        return account, bool(row.closed)

    def _find(self, name_key: str) -> AccountRow | None:
        """The id, name, password hash and closed state of the account called ``name_key``,
        or ``None``."""
        return self.data.find(name_key)

    def delete_expired(self, now: float | None = None) -> int:
        """Delete every session that has ended (its ``expires`` passed) and every counted
        attempt older than the longest window (:data:`MEMORY`); returns how many sessions
        went. The sweeper runs it hourly (:func:`fanfold.server.runtime.sweeper.sweep`), and a
        sign-in deletes its account's own ended sessions."""
        now = time.time() if now is None else now
        return self.data.delete_expired(now, now - MEMORY)

    def _set_hash(self, account_id: int, hashed: str) -> None:
        self.data.set_hash(account_id, hashed)

    # ------------------------------------------------------------- sessions
    def _new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()  # the account's ended sessions go now
        self.data.add_session(account_id, token_hash(token), now, now + SESSION_SECONDS)
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

    def csrf_token(self, token: str, key: str | None = None) -> str:
        """The CSRF token of the session ``token`` (an HMAC with the signing key, or ``key``)."""
        secret = (self.key if key is None else key).encode()
        return hmac.new(secret, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()

    def csrf_valid(self, token: str, sent: str) -> bool:
        """Whether ``sent`` is the CSRF token of the session ``token`` under any accepted key
        (a page loaded before a rotation of the key file goes on working)."""
        return any(
            hmac.compare_digest(sent, self.csrf_token(token, key)) for key in self.keys.accepted
        )

    def account_of(self, token: str | None) -> Account | None:
        """The account of a live session, or ``None`` (no token, ended, expired, or an
        account closed: closing ends its sessions, and one made at that very moment is no
        session either)."""
        if not token:
            return None
        found = self.data.session_account(token_hash(token), time.time())
        return Account(*found) if found is not None else None

    def sign_out(self, token: str) -> None:
        """End one session."""
        self.data.end_session(token_hash(token))

    def sign_out_everywhere(self, account_id: int) -> int:
        """End every session of an account (every device); returns how many."""
        return self.data.end_sessions(account_id)

    def name_of(self, account_id: int) -> str | None:
        """An account's name."""
        return self.data.name_of(account_id)


__all__ = [
    "APPEAL_PAGE",
    "BUSY",
    "CLIENT_FAILURES",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "FAILURE_WINDOW",
    "FIRST_DELAY",
    "FREE_FAILURES",
    "LONGEST_DELAY",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "MODERATOR",
    "NAME",
    "NAME_FAILURES",
    "PLAYER",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "SIGN_UPS",
    "SIGN_UP_HASHING",
    "SIGN_UP_WAITING",
    "SIGN_UP_WINDOW",
    "TOO_MANY",
    "WRONG",
    "Account",
    "Accounts",
    "Attempt",
    "BusyError",
    "ClosedError",
    "HashingLine",
    "SignInError",
    "TooManyError",
    "check_name",
    "check_password",
    "closed_sentence",
    "name_keys",
    "reserved_as",
]
