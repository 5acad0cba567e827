"""While a bot's compiled search compiles, the terminal says so and the bot plays its game's
fallback level; once the compile is done it loads its search and plays its own moves."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from io import StringIO
from typing import Any

import pytest
from rich.console import Console

from fanfold.agents import create_agent
from fanfold.agents.base import Agent
from fanfold.agents.strategy import LEVELS, compiled, fano_fast
from fanfold.cli import terminal
from fanfold.cli.terminal import Compiling, Session, UntilCompiled
from fanfold.core.phrases import Phrase
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import HUMAN, Seat, Table
from fanfold.server import i18n

FANO = get_game("fano")


class _Compile:
    """A stand-in for compiling: 'compiled' once :attr:`release` is set (or it fails)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, fails: bool = False) -> None:
        self.release = threading.Event()
        self.started: list[str] = []
        self.fails = fails
        monkeypatch.setattr(terminal, "_COMPILING", {})
        monkeypatch.setattr(compiled, "_loaded", set())
        monkeypatch.setattr(compiled, "is_compiled", lambda name: self.release.is_set())
        monkeypatch.setattr(compiled, "compile_ahead", self.compile_ahead)
        monkeypatch.setattr(compiled, "last_seconds", lambda name: 42.0)

    def compile_ahead(self, name: str, say: Callable[[str], None]) -> float:
        self.started.append(name)
        say(compiled.progress_line(name))
        what = compiled.WHAT[name]
        if self.fails:
            raise RuntimeError(Phrase("compile.failed", what=what, words="no room"))
        assert self.release.wait(30)
        say(Phrase("compile.prepared", what=what, seconds="1"))
        return 1.0


def _table(bot: str) -> Table:
    config = FANO.default_config()
    state = FANO.new_state(config, 3)
    first = FANO.current_player(state)
    players = [bot if seat == first else HUMAN for seat in range(2)]
    seats = [Seat(name, create_agent(name, FANO, 1) if name != HUMAN else None) for name in players]
    record = GameRecord.start(FANO, config, 3, players=players)
    return Table(FANO, state, record, seats)


def _leave(prompt: str) -> str:
    raise EOFError


def test_hard_plays_the_fallback_while_compiling_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compile = _Compile(monkeypatch)
    loads: list[None] = []
    monkeypatch.setattr(fano_fast, "warm_up", lambda: loads.append(None))
    table = _table("hard")
    first = FANO.current_player(table.state)
    assert first is not None
    expected = create_agent(LEVELS["fano"][compiled.FALLBACK_LEVEL], FANO, 1).choose(
        FANO.observe(table.state, first), list(FANO.legal_actions(table.state))
    )
    out = StringIO()
    record = Session(table, Console(file=out, width=200), read=_leave).run()
    text = out.getvalue()
    assert compile.started == ["fano"]
    assert "Preparing Fano's compiled search: compiling it" in text
    assert "42 s last time" in text
    assert "Until it is ready, hard plays the medium level's moves, then its own." in text
    assert loads == []  # nothing loaded in this process while the compile runs
    assert record.actions[0] == FANO.action_text(expected)
    bot = table.seats[first].agent
    assert isinstance(bot, UntilCompiled)
    assert not bot.ready
    compile.release.set()


class _Named(Agent[Any, Any]):
    def __init__(self, name: str, log: list[str]) -> None:
        super().__init__(FANO)
        self.name = name
        self.log = log

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        self.log.append(f"{self.name} chose")
        return legal[0]

    def prepare(self, config: Any, say: Callable[[str], None]) -> None:
        self.log.append(f"{self.name} prepared")


def test_after_the_compile_the_bot_loads_its_search_and_plays_its_own_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compile = _Compile(monkeypatch)
    log: list[str] = []
    compiling = Compiling("fano")
    bot = UntilCompiled(
        _Named("hard", log), _Named("medium", log), FANO.default_config(), compiling, log.append
    )
    bot.choose(None, [1, 2])
    assert log == ["medium chose"]
    compile.release.set()
    assert compiling.done.wait(30)
    bot.choose(None, [1, 2])
    bot.choose(None, [1, 2])
    assert log == ["medium chose", "hard prepared", "hard chose", "hard chose"]
    assert compiling.take_notes() == ["Fano's compiled search prepared in 1 s."]
    assert compiling.take_notes() == []


def test_a_failed_compile_is_told_and_the_fallback_plays_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _Compile(monkeypatch, fails=True)
    log: list[str] = []
    compiling = Compiling("fano")
    assert compiling.done.wait(30)
    bot = UntilCompiled(
        _Named("hard", log), _Named("medium", log), FANO.default_config(), compiling, log.append
    )
    bot.choose(None, [1])
    assert log == ["medium chose"]
    assert compiling.failed is not None
    assert compiling.take_notes() == [
        "compiling Fano's compiled search failed: no room; the bots play the medium level."
    ]
    # in French, the compile's words as well as the terminal's own (the subprocess's last
    # words are its own)
    _Compile(monkeypatch, fails=True)
    french = Compiling("fano", i18n.messages("fr"))
    assert french.done.wait(30)
    assert french.take_notes() == [
        "la compilation de la recherche compilée de Fano a échoué : no room ; les bots jouent "
        "au niveau medium."
    ]


def test_the_compiles_progress_is_said_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress line, what the bot plays meanwhile, the compile's end and the load from
    the cache, each a phrase the terminal words in its language."""
    compile = _Compile(monkeypatch)
    loads: list[None] = []
    monkeypatch.setattr(fano_fast, "warm_up", lambda: loads.append(None))
    out = StringIO()
    french = i18n.messages("fr")
    Session(_table("hard"), Console(file=out, width=300), read=_leave, words=french).run()
    text = out.getvalue()
    assert compile.started == ["fano"]
    assert (
        "Préparation de la recherche compilée de Fano : compilation, une fois pour cette "
        "installation (une à quatre minutes la première fois ; 42 s la dernière fois)…"
    ) in text
    assert "En attendant, hard joue les coups du niveau medium, puis les siens." in text
    assert "Preparing" not in text
    assert "compiled search" not in text
    # the compile's end, noted for the session to print between two moves
    compiling = Compiling("fano", french)
    compile.release.set()
    assert compiling.done.wait(30)
    assert compiling.take_notes() == [
        "Préparation de la recherche compilée de Fano terminée en 1 s."
    ]
    # a later session finds it in the cache and loads it, saying so in French
    again = StringIO()
    Session(_table("hard"), Console(file=again, width=300), read=_leave, words=french).run()
    assert "Chargement de la recherche compilée de Fano depuis le cache…" in again.getvalue()
    assert loads == [None]
    # the same phrases are the English sentences they were
    assert compiled.progress_line("fano") == (
        "Preparing Fano's compiled search: compiling it, once for this installation (one to "
        "four minutes the first time; 42 s last time)..."
    )


def test_a_compiled_search_in_the_cache_is_loaded_before_play_without_a_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compile = _Compile(monkeypatch)
    compile.release.set()  # in the cache already
    loads: list[None] = []
    monkeypatch.setattr(fano_fast, "warm_up", lambda: loads.append(None))
    table = _table("hard")
    out = StringIO()
    Session(table, Console(file=out, width=200), read=_leave).run()
    assert compile.started == []
    assert loads == [None]
    assert "Until it is ready" not in out.getvalue()
    assert not any(isinstance(seat.agent, UntilCompiled) for seat in table.seats)
