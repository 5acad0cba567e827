"""A fresh installation's first minutes: ``fanfold serve`` says what it compiles, compiles in
a subprocess, stops at once on Ctrl-C or SIGTERM while it does, and its bots play their
fallback level until the compiled code is ready."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fanfold.agents import create_agent
from fanfold.agents.levels import fallback_agent
from fanfold.agents.strategy import compiled, fano_fast
from fanfold.core import numba_cache
from fanfold.core.registry import AnyGame, get_game
from fanfold.play import make_seats, new_table
from fanfold.server.bots import Decision, decide
from tests.server.support import free_port

ROOT = Path(__file__).resolve().parents[2]
#: What the server says while it compiles.
COMPILING = "Preparing Fano's compiled search: compiling it"


def _compile_processes(record: Path) -> list[int]:
    """The compiling subprocesses of the server whose record file is ``record``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        marked = f"{compiled.RECORD_VARIABLE}={record}".encode()
        if b"fanfold.agents.strategy.compiled" in command and marked in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_says_what_it_compiles_and_stops_without_waiting_for_it(
    tmp_path: Path, stop: signal.Signals
) -> None:
    cache = tmp_path / "numba"  # an empty cache: a fresh installation without packaged code
    cache.mkdir()
    record = tmp_path / "compiled.json"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        compiled.RECORD_VARIABLE: str(record),
        numba_cache.NO_PACKAGED: "1",
        "PYTHONPATH": str(ROOT / "src"),
    }
    errors = tmp_path / "stderr"
    with errors.open("wb") as written:
        server = subprocess.Popen(
            [sys.executable, "-m", "fanfold", "serve", "--port", str(free_port()), "--db",
             f"sqlite:///{tmp_path / 'store.db'}"],
            env=env, stdout=subprocess.DEVNULL, stderr=written, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while COMPILING not in errors.read_text() and time.monotonic() < deadline:
            assert server.poll() is None, errors.read_text()
            time.sleep(0.1)
        said = errors.read_text()
        assert COMPILING in said
        assert "the bots of Fano and Fan Tan play the medium level's moves" in said
        time.sleep(2)  # well into the compile
        assert _compile_processes(record)
        stopped = time.monotonic()
        os.killpg(server.pid, stop)  # as a terminal's Ctrl-C: the whole process group
        server.wait(timeout=30)
        took = time.monotonic() - stopped
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    # The compile runs for a minute and more: stopping within a few seconds shows it is not
    # waited for (a second was met on a quiet machine, and missed at a load of 12 and more).
    assert took < 3.0, f"the server took {took:.2f} s to stop"
    deadline = time.monotonic() + 2
    while _compile_processes(record) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _compile_processes(record) == []
    assert "Traceback" not in errors.read_text()
    assert not record.exists()  # nothing was compiled: nothing recorded


def _fano_decision(agent: str) -> tuple[AnyGame, Decision]:
    game = get_game("fano")
    config = game.default_config()
    played = new_table(game, config, make_seats(game, ["random", "random"], 1), seed=5)
    seat = played.decider
    assert seat is not None
    legal = tuple(played.legal_actions())
    return game, Decision("t", seat, game.id, agent, 7, played.view(seat), legal)


def test_a_hard_bot_plays_the_fallback_level_until_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(compiled.RECORD_VARIABLE, str(tmp_path / "compiled.json"))
    monkeypatch.setenv(numba_cache.NO_PACKAGED, "1")  # an installation without packaged code
    monkeypatch.setattr(compiled, "_loaded", set())

    def never() -> None:
        raise AssertionError("a bot's decision compiled or loaded the compiled code")

    monkeypatch.setattr(fano_fast, "warm_up", never)
    monkeypatch.setattr(compiled, "compile_ahead", lambda *_, **__: never())
    game, decision = _fano_decision("hard")
    started = time.monotonic()
    chosen = decide(decision)
    assert time.monotonic() - started < 1.0
    fallback = create_agent(fallback_agent(game), game, 1)
    fallback.rng.seed(decision.seed)
    assert chosen == fallback.choose(decision.view, list(decision.legal))


def test_a_hard_bot_loads_the_compiled_code_once_it_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(compiled.RECORD_VARIABLE, str(tmp_path / "compiled.json"))
    monkeypatch.setattr(compiled, "_loaded", set())
    compiled._record("fano", 1.0)  # another process compiled it
    loads: list[None] = []
    real = fano_fast.warm_up

    def counted() -> None:
        loads.append(None)
        real()

    monkeypatch.setattr(fano_fast, "warm_up", counted)
    _, decision = _fano_decision("hard")
    assert decide(decision) in decision.legal
    assert loads == [None]
    assert compiled.is_loaded("fano")
