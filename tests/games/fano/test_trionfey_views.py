"""Fano, "The battle for Trionfey": what each player sees, the notation, and the terminal.

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import random

import pytest

from fanfold.core.errors import IllegalActionError, NotationError
from fanfold.games.fano import Allow, CombineCounter, Declare, Pass, Phase, Recruit
from tests.games.fano.helpers import FANO, TRIONFEY, cards, play
from tests.games.fano.helpers import trionfey_position as setup


def test_everyone_sees_the_declaration_but_not_the_support() -> None:
    state = setup("fano player=1 | hand=5H,9H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    for seat in (0, 1):
        view = FANO.observe(declared, seat)
        assert view.pending == declared.pending
        assert view.phase is Phase.REACT
    defender_view = FANO.observe(declared, 1)
    assert "5H" not in str(defender_view.to_json())
    sampled = FANO.sample_state(defender_view, random.Random(3))
    assert FANO.observe(sampled, 1) == defender_view
    assert FANO.legal_actions(sampled) == FANO.legal_actions(declared)


def test_position_notation_keeps_the_pending_attack() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    declared = play(state, "2H>3C")
    text = FANO.format_position(declared)
    assert "attack=2H>3C@2" in text
    assert "tribute=0" in text
    reloaded = FANO.parse_position(text, TRIONFEY)
    assert reloaded == declared
    with pytest.raises(NotationError, match="Trionfey"):
        FANO.parse_position("fano attack=2H>3C@2 | - | -")


@pytest.mark.parametrize(
    "text",
    ["4H>6C", "4H>6C@3", "4H>6C reverse", "recruit 2H with AH 4H", "counter 2C+3C=5C",
     "counter 3C+4C=7C recruit 4C with AC 2C return 3C", "allow"],
)  # fmt: skip
def test_trionfey_notation_round_trips(text: str) -> None:
    action = FANO.parse_action(text)
    assert str(action) == text
    assert isinstance(action, Declare | Recruit | CombineCounter | Allow)


def test_pass_is_still_pass() -> None:
    assert FANO.parse_action("pass") == Pass()


def test_terminal_asks_the_defender_for_the_counter() -> None:
    from io import StringIO

    from rich.console import Console

    from fanfold.cli.terminal import Session
    from fanfold.core.records import GameRecord
    from fanfold.play import HUMAN, Seat, Table

    state = setup("fano player=1 | hand=AH,5H field=2H | hand=4C field=AC,3C")
    lines = iter(["2H>3C", "counter 3C+4C=7C", "counter AC+3C=4C return AC"])

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    out = StringIO()
    console = Console(file=out, width=120)
    record = GameRecord.start(FANO, TRIONFEY, 0, players=["human", "human"])
    table = Table(FANO, state, record, [Seat(HUMAN), Seat(HUMAN)])
    Session(table, console, read=read).run()
    text = out.getvalue()
    assert "Player 2 (♣) may counter or allow" in text
    assert "Player 2 (♣) (human)> " in text
    assert "Not played: you have no 7C in hand" in text  # explained, nothing changes
    after = table.state
    assert after.players[1].field == ()
    assert after.players[1].up == cards("3C 4C")
    assert after.players[0].field == cards("AH")  # 2 -> 4 with the ace: the attack completed
    assert FANO.current_player(after) == 0


def test_play_command_takes_the_edition() -> None:
    from typer.testing import CliRunner

    from fanfold.cli.app import app

    runner = CliRunner()
    result = runner.invoke(
        app, ["play", "fano", "--edition", "trionfey", "--seat", "human", "--seat", "random",
              "--seed", "2"], input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "0/2 promotions" in result.output
    refused = runner.invoke(app, ["play", "morris", "--edition", "trionfey"])
    assert refused.exit_code != 0
    assert "--edition is for fano" in refused.output
    refused = runner.invoke(app, ["play", "fano", "--edition", "bogus"])
    assert refused.exit_code == 2
    assert "option edition must be one of classic, trionfey, not 'bogus'" in refused.output


def test_declaration_is_announced_without_a_support() -> None:
    state = setup("fano player=1 | hand=5H field=2H | hand=4C field=3C,AC")
    action = FANO.parse_action("2H>3C")
    assert FANO.public_action_text(state, action, 1) == "2H>3C"
    with pytest.raises(IllegalActionError, match="without @"):
        play(state, "2H>3C@2")
