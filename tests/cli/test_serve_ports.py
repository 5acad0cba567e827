"""``fanfold serve`` binds its ports before anything else: a port taken, a health port taken or
an address that is not this machine's stops it with one sentence and exit status 2, before it
says it serves and before the store is made; its help says what the health port answers."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fanfold.cli.serve import LISTEN_STATUS
from tests.server.support import ROOT, free_port, subprocess_environment


@pytest.fixture
def taken() -> Iterator[int]:
    """A port on loopback that another program listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def _serve(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    environment = subprocess_environment()
    environment.update({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"})
    return subprocess.run(
        [
            *(sys.executable, "-m", "fanfold", "serve", "--lang", "en"),
            *("--db", f"sqlite:///{tmp_path / 'site' / 'x.db'}", *options),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=120,
    )


def _refused(done: subprocess.CompletedProcess[str], tmp_path: Path, sentence: str) -> None:
    assert done.returncode == LISTEN_STATUS == 2, done
    assert done.stderr == f"error: {sentence}\n"
    assert "serving" not in done.stdout
    assert not (tmp_path / "site").exists()  # no store made


def test_a_port_taken_is_one_sentence(tmp_path: Path, taken: int) -> None:
    done = _serve(tmp_path, "--port", str(taken))
    _refused(done, tmp_path, f"cannot listen on 127.0.0.1:{taken}: address already in use")


def test_an_address_that_is_none_is_one_sentence(tmp_path: Path) -> None:
    port = free_port()
    done = _serve(tmp_path, "--port", str(port), "--host", "999.1.1.1")
    _refused(
        done,
        tmp_path,
        f"cannot listen on 999.1.1.1:{port}: no address of this machine has that name",
    )


def test_a_health_port_taken_is_one_sentence(tmp_path: Path, taken: int) -> None:
    done = _serve(tmp_path, "--port", str(free_port()), "--health-port", str(taken))
    _refused(
        done,
        tmp_path,
        f"the health port 127.0.0.1:{taken} cannot be listened on: address already in use",
    )


def test_the_help_says_the_health_port_answers_the_metrics_too() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fanfold", "serve", "--help", "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(subprocess_environment(), COLUMNS="400"),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "answer /health, /ready and /metrics on this port" in done.stdout
