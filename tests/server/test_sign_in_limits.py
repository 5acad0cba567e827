"""The sign-in limits counted in the store (every server process shares them: two stores
stand for two processes), on SQLite and PostgreSQL: wrong passwords counted per name and
address with growing delays and per address, never locking the owner out from another
address; ended sessions deleted by the sweep, at start-up and at sign-in."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from fanfold.server.accounts import (
    CLIENT_FAILURES,
    FAILURE_WINDOW,
    FIRST_DELAY,
    FREE_FAILURES,
    LONGEST_DELAY,
    NAME_FAILURES,
    TOO_MANY,
    WRONG,
    Accounts,
    SignInError,
    TooManyError,
)
from fanfold.server.app import create_app
from fanfold.server.store import Store, sessions, sign_in_attempts
from tests.server.support import ROOMY, sqlite_url
from tests.server.test_store import postgres_cluster, store_url  # noqa: F401 (fixtures)

#: Argon2 at its cheapest: these tests count attempts, not hashing time.
QUICK = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def _attempts(store: Store) -> int:
    with store.engine.connect() as connection:
        return int(
            connection.execute(
                sa.select(sa.func.count()).select_from(sign_in_attempts)
            ).scalar_one()
        )


def test_the_owner_is_never_locked_out(store_url: str) -> None:  # noqa: F811
    one_store, other_store = Store(store_url), Store(store_url)
    one = Accounts(one_store, hasher=QUICK)
    other = Accounts(other_store, hasher=QUICK)  # another server process on the same store

    async def attempts() -> None:
        await one.create("ivan", "password one")
        for n in range(FREE_FAILURES):  # the attacker's free failures, over both processes
            with pytest.raises(SignInError, match=WRONG):
                await (one if n % 2 else other).sign_in("Ivan", "wrong password", "10.6.6.6")
        for n in range(20):  # then every try too early is refused, in both processes
            with pytest.raises(TooManyError, match=f"{TOO_MANY} for this name.*wait"):
                await (one if n % 2 else other).sign_in("ivan", "guess", "10.6.6.6")
        for accounts in (one, other):  # the owner, from another address, at once
            account, _ = await accounts.sign_in("ivan", "password one", "10.0.0.2")
            assert account.name == "ivan"

    asyncio.run(attempts())
    one_store.close()
    other_store.close()


def test_many_addresses_against_one_name_never_lock_the_owner_out(
    store_url: str,  # noqa: F811
) -> None:
    store = Store(store_url)
    accounts = Accounts(store, hasher=QUICK)

    async def attempts() -> None:
        await accounts.create("judy", "password one")
        attackers = [f"10.7.{n // 100}.{n % 100}" for n in range(NAME_FAILURES + 10)]
        for address in attackers:  # past the name's cap, one failure an address
            with pytest.raises(SignInError, match=WRONG):
                await accounts.sign_in("judy", "wrong password", address)
        for address in attackers[:5]:  # each failed address now waits before its next try
            with pytest.raises(TooManyError, match="wait"):
                await accounts.sign_in("judy", "wrong password", address)
        account, _ = await accounts.sign_in("judy", "password one", "10.0.0.3")
        assert account.name == "judy"

    asyncio.run(attempts())
    store.close()


def test_right_passwords_are_not_counted(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    accounts = Accounts(store, hasher=QUICK)

    async def sign_ins() -> None:
        await accounts.create("kim", "password one")
        for _ in range(max(FREE_FAILURES, CLIENT_FAILURES[0][0]) + 5):
            await accounts.sign_in("kim", "password one", "10.0.0.1")

    asyncio.run(sign_ins())
    assert _attempts(store) == 0
    store.close()


def test_failures_from_an_address_wait_growing_delays(store_url: str) -> None:  # noqa: F811
    store, other_store = Store(store_url), Store(store_url)
    accounts, other = Accounts(store, hasher=QUICK), Accounts(other_store, hasher=QUICK)
    now = 1000.0
    for n in range(FREE_FAILURES):  # each attempt counts as a failure until forgiven
        (accounts if n % 2 else other).begin_attempt("10.0.0.1", "ivan", now + n)
    last = now + FREE_FAILURES - 1
    delay = FIRST_DELAY
    for _ in range(4):  # then each attempt waits twice as long as the one before
        with pytest.raises(TooManyError, match=f"wait {int(delay)} seconds"):
            other.begin_attempt("10.0.0.1", "ivan", last)
        with pytest.raises(TooManyError, match="wait 1 second and"):
            accounts.begin_attempt("10.0.0.1", "ivan", last + delay - 0.5)
        last += delay
        accounts.begin_attempt("10.0.0.1", "ivan", last)
        delay *= 2
    # another address is not delayed, nor the same address for another name
    accounts.begin_attempt("10.0.0.2", "ivan", last)
    accounts.begin_attempt("10.0.0.1", "other", last)
    # a right password forgives its address's failures for the name
    attempt = other.begin_attempt("10.0.0.2", "ivan", last + 1)
    other.forgive(attempt)
    for n in range(FREE_FAILURES):
        accounts.begin_attempt("10.0.0.2", "ivan", last + 2 + n)
    # the delay stops growing at its longest
    at = last
    for n in range(FREE_FAILURES + 13):
        delay = FIRST_DELAY * 2 ** (n - FREE_FAILURES) if n >= FREE_FAILURES else 0.0
        at += min(delay, LONGEST_DELAY)
        (accounts if n % 2 else other).begin_attempt("10.0.0.3", "x", at)
    assert delay > LONGEST_DELAY
    with pytest.raises(TooManyError, match="wait 1 second and"):
        accounts.begin_attempt("10.0.0.3", "x", at + LONGEST_DELAY - 1)
    accounts.begin_attempt("10.0.0.3", "x", at + LONGEST_DELAY)
    # and failures an hour old are forgotten, and deleted
    later = at + LONGEST_DELAY + FAILURE_WINDOW
    accounts.begin_attempt("10.0.0.1", "ivan", later)
    assert accounts.delete_expired(later + 2 * FAILURE_WINDOW) == 0
    assert _attempts(store) == 0
    store.close()
    other_store.close()


def test_an_addresss_failures_over_every_name_are_limited(store_url: str) -> None:  # noqa: F811
    store, other_store = Store(store_url), Store(store_url)
    accounts, other = Accounts(store, hasher=QUICK), Accounts(other_store, hasher=QUICK)
    now = 1000.0
    (limit, window), (hourly, hour) = CLIENT_FAILURES
    for n in range(limit):  # an address trying many names
        (accounts if n % 2 else other).begin_attempt("10.0.0.1", f"name{n}", now + n)
    for one in (accounts, other):
        with pytest.raises(TooManyError, match=f"{TOO_MANY} from your address"):
            one.begin_attempt("10.0.0.1", "fresh", now + limit)
    accounts.begin_attempt("10.0.0.2", "fresh", now + limit)  # another address is not held
    # a refused attempt was not counted: the minute after the first, one more goes
    accounts.begin_attempt("10.0.0.1", "fresh", now + window + 0.5)
    # and the hour's limit holds however the attempts are spread
    at = now + window + 1
    for n in range(hourly - limit - 1):
        if n % limit == 0:
            at += window
        accounts.begin_attempt("10.0.0.1", f"more{n}", at)
    with pytest.raises(TooManyError, match="wait"):
        accounts.begin_attempt("10.0.0.1", "fresh2", at + window)
    accounts.begin_attempt("10.0.0.1", "fresh2", now + hour + 0.5)
    store.close()
    other_store.close()


def _session_ends(store: Store) -> list[float]:
    with store.engine.connect() as connection:
        return [float(row.expires) for row in connection.execute(sa.select(sessions.c.expires))]


def _end_every_session(store: Store) -> None:
    with store.engine.begin() as connection:
        connection.execute(sessions.update().values(expires=time.time() - 1))


def test_ended_sessions_are_deleted_by_the_sweep_and_at_sign_in(
    store_url: str,  # noqa: F811
) -> None:
    store = Store(store_url)
    accounts = Accounts(store, hasher=QUICK)

    async def sign_ins() -> None:
        await accounts.create("judy", "password one")
        await accounts.create("kim", "password one")
        _end_every_session(store)
        await accounts.sign_in("judy", "password one", "client")  # judy's ended one goes

    asyncio.run(sign_ins())
    ends = _session_ends(store)
    assert len(ends) == 2  # judy's new session and kim's ended one
    assert sum(1 for end in ends if end > time.time()) == 1
    assert accounts.delete_expired() == 1  # kim's
    assert [end > time.time() for end in _session_ends(store)] == [True]
    assert accounts.delete_expired() == 0
    store.close()


def test_the_server_deletes_ended_sessions_when_it_starts(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    store = Store(url)
    asyncio.run(Accounts(store, hasher=QUICK).create("lena", "password one"))
    _end_every_session(store)
    assert len(_session_ends(store)) == 1
    with TestClient(create_app(url, bot_seconds=0.5, limits=ROOMY)) as client:
        assert client.get("/api/account").json() == {"signed_in": False}
        for _ in range(100):
            if not _session_ends(store):
                break
            time.sleep(0.05)
    assert _session_ends(store) == []
    store.close()
