"""The sign-in limit counted in the store (every server process shares it: two stores stand
for two processes), on SQLite and PostgreSQL, with the answers of a moving window; ended
sessions deleted by the sweep, at start-up and at sign-in."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from fanfold.server.accounts import (
    ATTEMPT_WINDOW,
    CLIENT_ATTEMPTS,
    NAME_ATTEMPTS,
    TOO_MANY,
    WRONG,
    Accounts,
    SignInError,
    TooManyError,
    sessions,
    sign_in_attempts,
)
from fanfold.server.app import create_app
from fanfold.server.store import Store
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


def test_two_processes_share_the_limit_per_name(store_url: str) -> None:  # noqa: F811
    one_store, other_store = Store(store_url), Store(store_url)
    one = Accounts(one_store, hasher=QUICK)
    other = Accounts(other_store, hasher=QUICK)

    async def attempts() -> None:
        await one.create("ivan", "password one")
        for n in range(NAME_ATTEMPTS):  # spread over both processes, from two clients
            accounts = one if n % 2 else other
            with pytest.raises(SignInError, match=WRONG):
                await accounts.sign_in("Ivan", "wrong password", f"client{n % 2}")
        for accounts in (one, other):  # over the limit in both, the right password too
            with pytest.raises(TooManyError, match=TOO_MANY):
                await accounts.sign_in("ivan", "password one", "client9")

    asyncio.run(attempts())
    one_store.close()
    other_store.close()


def test_the_limits_count_as_a_moving_window(store_url: str) -> None:  # noqa: F811
    store, other_store = Store(store_url), Store(store_url)
    accounts, other = Accounts(store, hasher=QUICK), Accounts(other_store, hasher=QUICK)
    now = 1000.0
    for n in range(CLIENT_ATTEMPTS):  # a client trying many names
        assert (accounts if n % 2 else other).count_attempt("10.0.0.1", f"name{n}", now + n)
    assert not accounts.count_attempt("10.0.0.1", "fresh", now + 20)  # the client's limit
    assert not other.count_attempt("10.0.0.1", "fresh", now + 21)
    # a refused attempt is not counted: the name "fresh" has none
    for n in range(NAME_ATTEMPTS):
        assert accounts.count_attempt(f"10.0.1.{n}", "fresh", now + 22)
    assert not other.count_attempt("10.0.2.1", "fresh", now + 23)  # the name's limit
    # the client's attempt counted when the name refused: 10.0.2.1 has one
    for n in range(CLIENT_ATTEMPTS - 1):
        assert accounts.count_attempt("10.0.2.1", f"other{n}", now + 24)
    assert not accounts.count_attempt("10.0.2.1", "another", now + 25)
    # a minute after the first attempts they leave the window, and are deleted
    later = now + ATTEMPT_WINDOW + 0.5
    assert accounts.count_attempt("10.0.0.1", "fresh2", later)
    assert accounts.delete_expired(now + 3 * ATTEMPT_WINDOW) == 0
    assert _attempts(store) == 0
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
