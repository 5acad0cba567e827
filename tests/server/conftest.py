"""The server tests' shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.support import serve


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A test client on an application whose store is a new SQLite file (``serve``), its
    life span run; a module that wants another client defines its own ``client``."""
    with serve(tmp_path) as test_client:
        yield test_client
