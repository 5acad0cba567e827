"""What signing in, signing up and opening tables count in the store, so that every server
process counts the same (:mod:`fanfold.server.accounts` checks the passwords). What is limited
is wrong passwords, never right ones, and never the name alone, so that nobody can lock an
owner out of their account (:meth:`Counting.begin_attempt`); and a client address's sign-ups
(:data:`SIGN_UPS` an hour) and tables opened.

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

An attempt too early is refused before any hash
(:class:`~fanfold.server.hashing.TooManyError`, HTTP 429) with how long to wait, and is not
counted. An admitted attempt is counted as a failure before its hash (so that attempts at
once cannot slip past a limit together) and its rows are deleted when the password proves
right. Every count lives in the store (``sign_in_attempts``) so that every server process
shares it; on PostgreSQL the keys counted are locked for the counting transaction, in one
order, so that processes counting at once never let one attempt too many through.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from fanfold.core.errors import Refusal
from fanfold.server.hashing import TooManyError
from fanfold.server.refusals import refusal
from fanfold.server.store import Transaction
from fanfold.server.store.protocols import AccountStore

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
#: How a sign-in over the limits is told (how long to wait follows).
TOO_MANY = "too many wrong passwords"
#: The window of the tables a client opens, counted in the store (:meth:`Accounts.count_table`).
TABLES_WINDOW = 60.0


def _duration(seconds: float) -> Refusal:
    """``seconds`` to wait, for a person: ``1 second``, ``40 seconds``, ``15 minutes``."""
    whole = max(1, math.ceil(seconds - 1e-9))
    if whole == 1:
        return refusal("limits.one_second", count=whole)
    if whole < 120:
        return refusal("limits.seconds", count=whole)
    return refusal("limits.minutes", count=math.ceil(whole / 60))


def _waiting(why: Refusal, seconds: float) -> TooManyError:
    """The refusal ``why``, and how long to wait."""
    return TooManyError(refusal("limits.wait", refusal=why, wait=_duration(seconds)))


def _wait_over(
    data: AccountStore, tx: Transaction, key: str, limit: int, window: float, now: float
) -> float | None:
    """Seconds until ``key`` has fewer than ``limit`` rows in the last ``window`` seconds,
    or ``None`` when it has fewer now."""
    since = now - window
    counted = data.counted_since(tx, key, since)
    if counted < limit:
        return None
    # the row whose leaving the window frees a place
    return data.counted_at(tx, key, since, counted - limit) + window - now


@dataclass(frozen=True)
class Attempt:
    """A sign-in attempt counted as a failure until its password proves right: its address,
    its name's key and its rows in ``sign_in_attempts``."""

    client: str
    name_key: str
    ids: tuple[int, ...]


class Counting:
    """The counts of an :class:`~fanfold.server.accounts.Accounts`: in :attr:`data`, one
    transaction a count (SQLite's threads one at a time under :attr:`_counting`; PostgreSQL
    locks the keys counted)."""

    data: AccountStore
    _counting: threading.Lock

    def count_sign_up(self, client: str, now: float | None = None) -> int:
        """Count a sign-up from ``client`` in the store; returns its row's id.

        Raises:
            TooManyError: the client made :data:`SIGN_UPS` in the last
                :data:`SIGN_UP_WINDOW` seconds (this one is not counted).
        """
        why = refusal("limits.sign_ups", count=SIGN_UPS)
        return self._count_within(f"sign-up:{client}", SIGN_UPS, SIGN_UP_WINDOW, MEMORY, why, now)

    def count_table(self, client: str, limit: int, now: float | None = None) -> int:
        """Count a table opened by ``client`` in the store, so that every server process
        shares the count (the limit per process counts in memory too); returns its row's id.

        Raises:
            TooManyError: the client opened ``limit`` tables in the last minute (this one is
                not counted).
        """
        why = refusal("limits.tables", count=limit)
        return self._count_within(f"tables:{client}", limit, TABLES_WINDOW, TABLES_WINDOW, why, now)

    def _count_within(
        self,
        key: str,
        limit: int,
        window: float,
        keep: float,
        why: Refusal,
        now: float | None,
    ) -> int:
        """Count one more for ``key`` in the store unless it has ``limit`` in the last
        ``window`` seconds (its rows older than ``keep`` deleted first); returns the row's id.

        Raises:
            TooManyError: ``why`` and how long to wait (nothing counted).
        """
        now = time.time() if now is None else now
        key = key[:120]
        with self._counting, self.data.begin() as tx:
            self.data.lock_counted(tx, [key])
            self.data.forget_counted(tx, [key], now - keep)
            wait = _wait_over(self.data, tx, key, limit, window, now)
            if wait is not None:
                raise _waiting(why, wait)
            return self.data.count(tx, key, now)

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
        data = self.data
        with self._counting, data.begin() as tx:
            data.lock_counted(tx, keys)
            data.forget_counted(tx, keys, now - MEMORY)
            for limit, window in CLIENT_FAILURES:
                wait = _wait_over(data, tx, client_key, limit, window, now)
                if wait is not None:
                    raise _waiting(refusal("limits.passwords"), wait)
            since = now - FAILURE_WINDOW
            failed, last = data.last_counted(tx, pair_key, since)
            named = data.counted_since(tx, name_key_row, since)
            free = FREE_FAILURES if named < NAME_FAILURES else ATTACKED_FREE_FAILURES
            if failed >= free and last is not None:
                delay = min(LONGEST_DELAY, FIRST_DELAY * 2.0 ** min(failed - free, 30))
                if now < last + delay:
                    raise _waiting(refusal("limits.passwords_name"), last + delay - now)
            ids = tuple(data.count(tx, key, now) for key in keys)
        return Attempt(client, name_key, ids)

    def forgive(self, attempt: Attempt) -> None:
        """A right password: the attempt was no failure, and its address's failures for the
        name are forgiven."""
        pair_key = f"pair:{attempt.client} {attempt.name_key}"[:120]
        self.data.forgive(attempt.ids, pair_key)
