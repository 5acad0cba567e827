"""Table-level endings (resign, agreed draw, abort): the same for every game, applied by a
table on top of the rules, written in a record as its ruling and checked on replay."""

from __future__ import annotations

import pytest

from fanfold.core.errors import RecordError
from fanfold.core.game import Termination
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game, set_up
from fanfold.core.rulings import Ending, Ruling, RulingError
from fanfold.play.setup import make_seats, new_table
from fanfold.play.table import Table


def table_of(game_name: str, players: int | None = None, variant: str | None = None) -> Table:
    game, config = set_up(game_name, variant, {}, players)
    seats = make_seats(game, ["human"] * game.num_players(config), 1)
    return new_table(game, config, seats, seed=7)


def play_first(table: Table, count: int) -> None:
    for _ in range(count):
        decider = table.decider
        assert decider is not None
        table.submit(decider, table.legal_texts()[0])


def test_a_resignation_ends_a_two_player_game_and_the_other_side_wins() -> None:
    table = table_of("morris")
    play_first(table, 3)
    version = table.version
    table.rule(Ruling(Ending.RESIGN, 0, 3))
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination is Termination.RESIGNED
    assert outcome.returns == (-1.0, 1.0)
    assert outcome.winners == (1,)
    assert outcome.reason == "White resigned."
    assert table.is_over
    assert table.decider is None
    assert table.legal_texts() == []
    assert table.version == version + 1
    with pytest.raises(RulingError, match="over already"):
        table.rule(Ruling(Ending.RESIGN, 1, 3))


def test_a_partnership_resigns_together() -> None:
    table = table_of("fano", 4, "trionfey-all-for-one")
    teams = table.game.teams(table.config)
    assert len(teams) == 2
    resigner = teams[1][0]
    table.rule(Ruling(Ending.RESIGN, resigner, 0))
    outcome = table.outcome
    assert outcome is not None
    assert set(outcome.winners) == set(teams[0])
    for seat in teams[1]:
        assert outcome.returns[seat] == -1.0


def test_a_game_of_three_sides_is_not_ended_by_one_resignation() -> None:
    table = table_of("fantan", 4)
    with pytest.raises(RulingError, match="4 sides goes on"):
        table.rule(Ruling(Ending.RESIGN, 2, 0))
    assert not table.is_over
    assert table.ruling is None


def test_a_solitaire_is_given_up() -> None:
    table = table_of("fan")
    table.rule(Ruling(Ending.RESIGN, 0, 0))
    outcome = table.outcome
    assert outcome is not None
    assert outcome.winners == ()
    assert outcome.returns == (table.game.traits.returns[0],)


def test_a_draw_needs_another_sides_offer_and_a_game_with_draws() -> None:
    table = table_of("morris")
    play_first(table, 2)
    with pytest.raises(RulingError, match="offer from another side"):
        table.rule(Ruling(Ending.DRAW, 1, 2))
    with pytest.raises(RulingError, match="offer from another side"):
        table.rule(Ruling(Ending.DRAW, 1, 2), offered=1)
    table.rule(Ruling(Ending.DRAW, 1, 2), offered=0)
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination is Termination.AGREED_DRAW
    assert outcome.is_draw
    fano = table_of("fano", 2, "classic")
    with pytest.raises(RulingError, match="no drawn games"):
        fano.rule(Ruling(Ending.DRAW, 1, 0), offered=0)


def test_an_abort_only_before_every_side_has_moved() -> None:
    table = table_of("morris")
    play_first(table, 1)  # White moved; Black has not
    table.rule(Ruling(Ending.ABORT, 1, 1))
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination is Termination.ABORTED
    assert outcome.returns == (0.0, 0.0)
    later = table_of("morris")
    play_first(later, 2)
    with pytest.raises(RulingError, match="every side has moved"):
        later.rule(Ruling(Ending.ABORT, 0, 2))


def test_a_ruling_made_at_the_wrong_place_is_refused() -> None:
    table = table_of("morris")
    play_first(table, 2)
    with pytest.raises(RulingError, match="after 1 actions, but 2"):
        table.rule(Ruling(Ending.RESIGN, 0, 1))
    with pytest.raises(RulingError, match="no seat 3"):
        table.rule(Ruling(Ending.RESIGN, 2, 2))


def test_a_record_carries_its_ruling_and_replay_checks_it() -> None:
    table = table_of("morris")
    play_first(table, 4)
    table.rule(Ruling(Ending.RESIGN, 1, 4))
    record = table.finish()
    data = record.to_json()
    assert data["ruling"] == {"ending": "resign", "seat": 1, "after": 4}
    assert record.outcome is not None
    assert record.outcome["termination"] == "resigned"
    again = GameRecord.loads(record.dumps())
    assert again.ruling == record.ruling
    assert len(again.states()) == 5
    again.check_outcome(again.states())  # the resignation's outcome, not the rules' (unfinished)
    other = GameRecord.from_json({**data, "ruling": {"ending": "resign", "seat": 0, "after": 4}})
    with pytest.raises(RecordError, match="is not its game's"):
        other.check_outcome(other.states())  # the other seat resigned: the returns swap
    forged = [
        ({"ending": "resign", "seat": 1, "after": 3}, "after 3 actions, but 4"),
        ({"ending": "abort", "seat": 1, "after": 4}, "every side has moved"),
        ({"ending": "surrender", "seat": 1, "after": 4}, "resign, draw, abort"),
        ({"ending": "resign", "seat": -1, "after": 4}, "whole number"),
    ]
    for ruling, said in forged:
        bad = GameRecord.from_json({**data, "ruling": ruling})
        with pytest.raises(RecordError, match=said):
            bad.states()
    with pytest.raises(RecordError, match="'ruling' must be an object"):
        GameRecord.from_json({**data, "ruling": "resign"})


def test_a_ruling_after_the_rules_ended_the_game_is_refused() -> None:
    game = get_game("morris")
    table = table_of("morris")
    while not table.is_over:
        play_first(table, 1)
    record = table.finish()
    ended = GameRecord.from_json(
        {
            **record.to_json(),
            "ruling": {"ending": "resign", "seat": 0, "after": len(record.actions)},
        }
    )
    with pytest.raises(RecordError, match="over already"):
        ended.states()
    assert game.outcome(table.state) is not None


def test_a_claimed_win_goes_to_the_claimants_side_in_a_game_of_two_sides() -> None:
    table = table_of("morris")
    play_first(table, 2)
    table.rule(Ruling(Ending.CLAIM, 1, 2))
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination is Termination.ABANDONED
    assert outcome.winners == (1,)
    assert outcome.reason == "Black claimed the win: the other side left the game."
    fantan = table_of("fantan", 3)
    with pytest.raises(RulingError, match="only in a game of two sides"):
        fantan.rule(Ruling(Ending.CLAIM, 0, 0))


def test_a_time_out_is_a_draw_where_the_other_side_could_not_have_won() -> None:
    """Morris: the side whose time runs out loses, unless the other side could not have won
    by any legal sequence of moves from there (chess's time-out against insufficient
    material); a record carrying that ruling replays to the same draw."""
    from tests.games.morris.test_reach import NO_WIN_FOR_WHITE

    table = table_of("morris")
    for text in NO_WIN_FOR_WHITE:
        decider = table.decider
        assert decider is not None
        table.submit(decider, text)
    assert table.decider == 1
    table.rule(Ruling(Ending.TIMEOUT, 1, len(NO_WIN_FOR_WHITE)))
    outcome = table.outcome
    assert outcome is not None
    assert outcome.termination is Termination.TIME_FORFEIT
    assert outcome.returns == (0.0, 0.0)
    assert outcome.reason.startswith("Black ran out of time, but the other side could not")
    record = table.finish()
    assert record.outcome is not None
    assert record.outcome["returns"] == [0.0, 0.0]
    again = GameRecord.loads(record.dumps())
    assert again.ruling == record.ruling
    assert len(again.states()) == len(NO_WIN_FOR_WHITE) + 1

    # One move earlier White could still win: White's time-out there loses as always.
    earlier = table_of("morris")
    for text in NO_WIN_FOR_WHITE[:-1]:
        decider = earlier.decider
        assert decider is not None
        earlier.submit(decider, text)
    earlier.rule(Ruling(Ending.TIMEOUT, 0, len(NO_WIN_FOR_WHITE) - 1))
    lost = earlier.outcome
    assert lost is not None
    assert lost.returns == (-1.0, 1.0)
    assert lost.reason == "White ran out of time."
