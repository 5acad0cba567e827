"""The ladder's measurement (``benchmarks/ladder.py``): which levels the members meet."""

from __future__ import annotations

import pytest
from benchmarks import ladder


def test_the_levels_play_their_budgets_without_a_time_cap() -> None:
    options = ladder.parse_options(
        ["--games", "10", "--medium-games", "4", "--hard", "--hard-games", "6"]
    )
    assert ladder.opponents(options) == [
        (ladder.YARDSTICK, 10),
        ("medium", 4),
        ("hard", 6),
    ]


def test_seconds_caps_medium_and_hard_as_a_server_does() -> None:
    options = ladder.parse_options(["--games", "0", "--hard", "--seconds", "1"])
    assert ladder.opponents(options) == [("medium(seconds=1)", 100), ("hard(seconds=1)", 40)]
    assert ladder.level("hard", 0.5) == "hard(seconds=0.5)"


@pytest.mark.parametrize("text", ["0", "-1", "inf", "nan", "soon"])
def test_a_time_cap_that_is_not_a_positive_number_is_refused(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        ladder.main(["--hard", "--seconds", text])
    assert stopped.value.code == 2
    assert "--seconds" in capsys.readouterr().err


def test_a_pairing_with_medium_plays_medium_by_its_budget() -> None:
    row = ladder.measure("classic", "ladder(style=rush)", "medium", 2, 5, 1, None)
    assert (row.opponent, row.games) == ("medium", 2)
    assert 0 <= row.wins <= 2
