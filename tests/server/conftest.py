"""The server tests' shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from tests.server.support import serve


class QuickHasher(PasswordHasher):
    """Argon2id at its smallest cost (one pass over 8 KiB), for the servers of tests that are
    not about the cost of a hash: each server's start-up hashes once (the dummy hash an
    unknown name is checked against) and each account made or signed in to once more, at
    about half a second each with argon2-cffi's defaults on the test machine."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture(autouse=True)
def quick_password_hashing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The accounts of the servers a test starts in its own process hash with
    :class:`QuickHasher`, unless the test is marked ``argon2_defaults`` (servers started
    before the test, by a module's fixture, and in processes of their own keep the
    defaults)."""
    if request.node.get_closest_marker("argon2_defaults") is None:
        monkeypatch.setattr("fanfold.server.accounts.PasswordHasher", QuickHasher)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A test client on an application whose store is a new SQLite file (``serve``), its
    life span run; a module that wants another client defines its own ``client``."""
    with serve(tmp_path) as test_client:
        yield test_client
