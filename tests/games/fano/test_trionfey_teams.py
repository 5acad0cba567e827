"""Fano, "The battle for Trionfey": partnerships of 4, 6 or 8 players, "All for one" and
"One for all".

Rules text: seeds/001_4b741ffe6572c987.txt; readings in docs/rules/fano.md.
"""

from __future__ import annotations

import pytest

from fanfold.core.errors import ConfigError, IllegalActionError, NotationError
from fanfold.core.game import Termination
from fanfold.games.fano import Declare, Teams
from fanfold.games.fano.rules import teammates
from tests.games.fano.helpers import FANO, TRIONFEY, cards, legal_texts, play
from tests.games.fano.helpers import trionfey_position as setup

ALL_FOR_ONE = FANO.preset("all-for-one").config
ONE_FOR_ALL = FANO.preset("one-for-all").config


def test_even_player_counts_play_in_partnerships() -> None:
    assert ALL_FOR_ONE.teams is Teams.ALL_FOR_ONE
    assert ONE_FOR_ALL.teams is Teams.ONE_FOR_ALL
    with pytest.raises(ConfigError, match="partnerships"):
        TRIONFEY.replace(players=4)
    assert FANO.with_players(TRIONFEY, 6).teams is Teams.ALL_FOR_ONE
    assert FANO.with_players(ONE_FOR_ALL, 8).teams is Teams.ONE_FOR_ALL
    assert FANO.with_players(ALL_FOR_ONE, 3).teams is Teams.NONE
    assert teammates(ALL_FOR_ONE.replace(players=6), 1) == (1, 3, 5)


@pytest.mark.parametrize(
    ("players", "order"),
    [(4, [0, 2, 1, 3, 2, 0, 3, 1, 0]), (6, [0, 2, 4, 1, 3, 5, 2, 4, 0, 3, 5, 1])],
)
def test_partners_play_in_priority_order_and_priority_passes_clockwise(
    players: int, order: list[int]
) -> None:
    config = FANO.with_players(ALL_FOR_ONE, players)
    sections = " | -" * players
    state = FANO.parse_position(f"fano player=1 priority=1{sections}", config)
    seen = []
    for _ in order:
        seen.append(state.turn_player)
        assert state.turn_player in teammates(config, state.priority)
        state = play(state, "pass")
    assert seen == order


def test_partners_attack_only_the_other_partnership_one_player_per_turn() -> None:
    state = setup(
        "fano player=1 | hand=AH,7H field=2H | field=3C | field=6S | field=4D", ALL_FOR_ONE
    )
    declared = sorted(str(a) for a in FANO.legal_actions(state) if isinstance(a, Declare))
    assert declared == ["2H>3C@2", "2H>4D@4"]  # never the partner's 6S
    after = play(state, "2H>4D@4")
    assert after.players[3].up == cards("4D")
    assert after.target_seat == 3


def test_all_for_one_winner_wins_alone() -> None:
    state = setup("fano player=1 | level=1 field=8H,9H,TH | - | - | -", ALL_FOR_ONE)
    outcome = FANO.outcome(play(state, "promote 8H 9H TH"))
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0, -1.0, -1.0)
    assert outcome.termination is Termination.PROMOTIONS


def test_one_for_all_promotion_paid_from_partners_fields() -> None:
    state = setup("fano player=1 | field=8H,TH | field=9C | field=9S | -", ONE_FOR_ALL)
    texts = legal_texts(state)
    assert "promote 8H 9S@3 TH" in texts
    assert not any("9C" in text for text in texts if text.startswith("promote"))
    after = play(state, "promote 8H 9S@3 TH")
    assert [p.level for p in after.players] == [1, 0, 1, 0]
    assert after.players[2].up == cards("9S")
    assert after.players[0].up == cards("8H TH")
    winning = setup("fano player=1 | level=1 field=8H,TH | level=0 | level=1 field=9S | -",
                    ONE_FOR_ALL)  # fmt: skip
    outcome = FANO.outcome(play(winning, "promote 8H 9S@3 TH"))
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0, 1.0, -1.0)
    assert "partnership of Players 1, 3" in outcome.reason
    assert outcome.termination is Termination.PROMOTIONS


def test_one_for_all_partners_cards_do_not_combine_or_attack() -> None:
    state = setup("fano player=1 | hand=7H field=AH | field=2C | field=6S | -", ONE_FOR_ALL)
    texts = legal_texts(state)
    assert not any("6S" in text for text in texts)
    with pytest.raises(IllegalActionError):
        play(state, "AH+6S=7H")


def test_partnership_position_keeps_priority() -> None:
    config = FANO.with_players(ONE_FOR_ALL, 4)
    state = FANO.parse_position("fano player=3 priority=1 | - | - | - | -", config)
    text = FANO.format_position(state)
    assert "priority=1" in text
    assert FANO.parse_position(text, config) == state
    with pytest.raises(NotationError, match="partnership"):
        FANO.parse_position("fano player=2 priority=1 | - | - | - | -", config)
