"""The terminal loads Fano's and Fan Tan's compiled search before play when a bot seat uses
it."""

from __future__ import annotations

from io import StringIO

import pytest
from rich.console import Console

from fanfold.agents import create_agent
from fanfold.agents.strategy import fano_fast, fantan_fast
from fanfold.cli.terminal import Session
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.play import HUMAN, Seat, Table

FANO = get_game("fano")
LOADING = "Loading Fano's compiled search"


def _session_output(bot: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    calls: list[None] = []
    monkeypatch.setattr(fano_fast, "warm_up", lambda: calls.append(None))
    config = FANO.default_config()
    record = GameRecord.start(FANO, config, 3, players=["human", bot])
    seats = [Seat(HUMAN), Seat(bot, create_agent(bot, FANO, 1))]
    table = Table(FANO, FANO.new_state(config, 3), record, seats)
    out = StringIO()

    def leave(prompt: str) -> str:
        raise EOFError

    Session(table, Console(file=out, width=120), read=leave).run()
    return out.getvalue(), len(calls)


def test_a_hard_fano_bot_has_its_compiled_search_loaded_before_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text, calls = _session_output("hard", monkeypatch)
    assert calls == 1
    assert LOADING in text
    assert text.index(LOADING) < text.index("Game left unfinished")


def test_a_bot_without_it_loads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    text, calls = _session_output("heuristic", monkeypatch)
    assert calls == 0
    assert LOADING not in text


FANTAN = get_game("fantan")
FANTAN_LOADING = "Loading Fan Tan's compiled search"


@pytest.mark.parametrize(("bot", "loads"), [("hard", True), ("heuristic", False)])
def test_a_hard_fan_tan_bot_has_its_compiled_search_loaded_before_play(
    monkeypatch: pytest.MonkeyPatch, bot: str, loads: bool
) -> None:
    calls: list[None] = []
    monkeypatch.setattr(fantan_fast, "warm_up", lambda: calls.append(None))
    config = FANTAN.default_config()
    players = ["human", bot, bot, bot]
    record = GameRecord.start(FANTAN, config, 3, players=players)
    seats = [Seat(HUMAN)] + [Seat(bot, create_agent(bot, FANTAN, seat)) for seat in (1, 2, 3)]
    table = Table(FANTAN, FANTAN.new_state(config, 3), record, seats)
    out = StringIO()

    def leave(prompt: str) -> str:
        raise EOFError

    Session(table, Console(file=out, width=120), read=leave).run()
    text = out.getvalue()
    assert len(calls) == (1 if loads else 0)
    assert (FANTAN_LOADING in text) is loads
