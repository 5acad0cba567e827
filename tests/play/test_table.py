"""The Table: submitting, refusing without change, agents, undo, views and announcements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from fanfold.agents.random_agent import RandomAgent
from fanfold.core.errors import (
    IllegalActionError,
    NotationError,
    StaleVersionError,
    TurnError,
)
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig
from fanfold.play import HUMAN, Seat, Table, new_table, play_game

MORRIS = get_game("morris")
FANO = get_game("fano")
FAN = get_game("fan")


def snapshot(table: Table) -> tuple[object, ...]:
    return (table.state, table.record, table.version, len(table.played))


def test_a_human_submits_text_and_the_version_grows() -> None:
    table = new_table(MORRIS, seats=[HUMAN, HUMAN], seed=0)
    assert (table.decider, table.version, table.humans) == (0, 0, (0, 1))
    played = table.submit(0, "C1", version=0)
    assert (played.number, played.seat, played.text) == (1, 0, "C1")
    assert table.version == 1
    assert table.decider == 1
    assert list(table.record.actions) == ["C1"]
    table.submit(1, "T2")  # no version given: no staleness check
    assert list(table.record.actions) == ["C1", "T2"]


@pytest.mark.parametrize(
    ("seat", "text", "version", "error", "message"),
    [
        (1, "C2", 2, TurnError, "White's decision, not Black's"),
        (7, "C2", 2, TurnError, "no seat 8"),
        (0, "C2", 1, StaleVersionError, "moved on"),
        (0, "Q9", 2, NotationError, "not a Morris move"),
        (0, "C1", 2, IllegalActionError, "cannot go on a circle"),
    ],
)
def test_every_refusal_changes_nothing(
    seat: int, text: str, version: int, error: type[Exception], message: str
) -> None:
    table = new_table(MORRIS, seats=[HUMAN, HUMAN], seed=0)
    table.submit(0, "C1")
    table.submit(1, "T2")
    before = snapshot(table)
    with pytest.raises(error, match=message):
        table.submit(seat, text, version)
    assert snapshot(table) == before


def test_a_finished_game_refuses_everyone() -> None:
    table = play_game(MORRIS, None, ["random", "random"], seed=2)
    assert table.is_over
    assert table.outcome is not None
    with pytest.raises(TurnError, match="the game is over"):
        table.submit(0, "C1")
    record = table.finish()
    assert record.outcome is not None
    assert record.outcome["reason"] == table.outcome.reason
    assert record.players == ("random", "random")
    assert record.replay() == table.state


def test_agents_play_until_a_human_must_decide() -> None:
    table = new_table(MORRIS, seats=["random", HUMAN], seed=0, agent_seed=3)
    seen: list[int] = []
    played = table.play_agents(on_played=lambda step: seen.append(step.seat))
    assert [step.seat for step in played] == seen == [0]
    assert table.decider == 1
    assert table.step() is None  # a human decides: nothing to step
    assert table.play_agents() == []


def test_undo_goes_back_to_the_humans_last_decision() -> None:
    table = new_table(MORRIS, seats=[HUMAN, "random"], seed=0, agent_seed=1)
    assert not table.undo()  # nothing to take back
    table.submit(0, "C1")
    table.play_agents()
    table.submit(0, table.legal_texts()[0])
    table.play_agents()
    actions = table.record.actions
    assert len(actions) == 4
    version = table.version
    assert table.undo()
    assert table.record.actions == actions[:2]
    assert len(table.played) == 2
    assert table.decider == 0
    assert table.version == version + 1  # an undo is a change: older versions are stale
    assert table.undo()
    assert len(table.record.actions) == 0
    assert not table.undo()


def test_can_undo_says_whether_undo_would_take_anything_back() -> None:
    """A bot's opening move is no person's to take back: can_undo is false until a person has
    decided, as undo finds it."""
    table = new_table(MORRIS, seats=["random", HUMAN], seed=0, agent_seed=1)
    assert not table.can_undo
    table.play_agents()
    assert (len(table.played), table.decider) == (1, 1)
    assert not table.can_undo
    version = table.version
    assert not table.undo()
    assert table.version == version
    table.submit(1, table.legal_texts()[0])
    table.play_agents()
    assert table.can_undo
    assert table.undo()
    assert (len(table.played), table.decider, table.can_undo) == (1, 1, False)


def test_undo_can_be_forbidden() -> None:
    table = new_table(MORRIS, seats=[HUMAN, HUMAN], seed=0, allow_undo=False)
    table.submit(0, "C1")
    assert not table.can_undo
    assert not table.undo()
    assert table.record.actions == ("C1",)


def test_views_and_announcements_hide_what_a_seat_may_not_see() -> None:
    # 100 turns each: the length random games had before the limit became 400 per player.
    config = FanoConfig(turns_per_player=100)
    table = play_game(FANO, config, ["random", "random"], seed=5, agent_seed=5)
    hidden = [step for step in table.played if "face down" in table.announcement(step, None)]
    assert hidden, "a random Fano game discards face down at least once"
    for step in table.played:
        assert table.announcement(step, step.seat) == step.text
        other = 1 - step.seat
        public = FANO.public_action_text(step.before, step.action, other)
        assert table.announcement(step, other) == public
    for step in hidden:
        assert table.announcement(step, 1 - step.seat) != step.text
    assert table.log(0) == [table.announcement(step, 0) for step in table.played]
    assert table.view(0) == FANO.observe(table.state, 0)


def test_a_table_needs_a_seat_per_player() -> None:
    state = MORRIS.new_state(MORRIS.default_config())
    with pytest.raises(ValueError, match="has 2 seats, not 1"):
        Table(MORRIS, state, new_table(MORRIS, seats=[HUMAN, HUMAN]).record, [Seat(HUMAN)])


def test_a_table_can_start_from_a_position() -> None:
    table = new_table(MORRIS, seats=[HUMAN, HUMAN], start_position="C/T/-/c/t/-/- w")
    assert table.record.start_position == "C/T/-/c/t/-/- w"
    table.submit(0, "C4")
    assert table.is_over
    assert table.finish().replay() == table.state


def test_fan_patience_seats_one_human() -> None:
    table = new_table(FAN, seed=3)
    assert table.humans == (0,)
    first = table.legal_texts()[0]
    table.submit(0, first)
    assert table.record.actions == (first,)


def test_take_back_removes_the_last_action_whoever_played_it() -> None:
    table = new_table(get_game("morris"), seats=["human", "random"], seed=4)
    with pytest.raises(ValueError, match="nothing to take back"):
        table.take_back()
    table.submit(0, "C1", version=0)
    table.play_agents()
    assert len(table.played) == 2
    before = table.game.format_position(table.state)
    taken = table.take_back()
    assert taken.seat == 1
    assert len(table.played) == 1
    assert table.record.actions == ("C1",)
    assert table.game.format_position(table.state) == "C/-/-/-/-/-/- b"
    assert table.game.format_position(table.state) != before
    assert table.version == 1  # back where it was before the removed action: no gap
    assert table.decider == 1


def test_without_undo_a_table_keeps_only_the_last_action_to_take_back() -> None:
    """A table that may not undo keeps what take_back needs and no more, so a long game (an
    arena's, a bot's) does not keep a copy of the record at every action."""
    table = new_table(FANO, seats=["random", "random"], seed=4, allow_undo=False)
    for _ in range(12):
        table.step()
    assert len(table.played) == 12
    before = table.record.actions
    table.take_back()
    assert table.record.actions == before[:-1]
    with pytest.raises(ValueError, match="nothing to take back"):
        table.take_back()
    table.step()  # play goes on, and the new last action can be taken back again
    table.take_back()
    assert len(table.played) == 11


def test_rewind_takes_the_game_back_to_after_some_actions_without_undo() -> None:
    """A takeback the players agreed to: back to just after the first ``keep`` actions, the
    state, record and log as they were then, whether or not undo is allowed."""
    table = new_table(MORRIS, seats=[HUMAN, HUMAN], seed=0, allow_undo=False)
    table.submit(0, "C1")
    at_one = (table.state, table.record)
    table.submit(1, "T2")
    table.submit(0, "C3")
    assert table.rewind(1)
    assert (table.state, table.record) == at_one
    assert [played.text for played in table.played] == ["C1"]
    assert (table.version, table.decider) == (4, 1)
    table.submit(1, "T4")  # play goes on from there, numbered on
    assert list(table.record.actions) == ["C1", "T4"]
    assert table.played[-1].number == 2
    table.take_back()  # the last action can still be taken back (a store that refused it)
    assert list(table.record.actions) == ["C1"]
    assert not table.rewind(1)  # nothing after the first action
    assert not table.rewind(-1)
    assert table.rewind(0)
    assert table.record.actions == ()
    assert table.decider == 0


def test_an_agents_choice_can_be_asked_and_applied_apart() -> None:
    table = new_table(get_game("morris"), seats=["human", "random"], seed=4, agent_seed=2)
    assert table.agent_to_move() is None  # the human decides
    with pytest.raises(TurnError):
        table.agent_choice(0)
    table.submit(0, "C1")
    assert table.agent_to_move() == 1
    version = table.version
    action = table.agent_choice(1)
    assert table.version == version  # asking changes nothing
    assert action in table.legal_actions()
    played = table.submit_action(1, action, version)
    assert played.seat == 1
    assert table.agent_to_move() is None


class _Listening(RandomAgent[Any, Any]):
    """A random agent that remembers the restrictions it was told."""

    def __init__(self) -> None:
        super().__init__(FANO, 0)
        self.told: list[tuple[tuple[str, ...], ...]] = []

    def restrict(self, forbidden: Sequence[tuple[str, ...]]) -> None:
        self.told.append(tuple(forbidden))


def test_the_table_tells_every_agent_all_the_seats_restrictions() -> None:
    first, second = _Listening(), _Listening()
    seats = [Seat("random", first, ("oversum",)), Seat("random", second)]
    table = new_table(FANO, FanoConfig(), seats, seed=3)
    assert first.told == second.told == [(("oversum",), ())]
    # Told once, when the table is made: playing does not tell them again.
    table.step()
    assert first.told == second.told == [(("oversum",), ())]


def test_a_table_without_restrictions_tells_nothing() -> None:
    first, second = _Listening(), _Listening()
    new_table(FANO, FanoConfig(), [Seat("random", first), Seat("random", second)], seed=3)
    assert first.told == second.told == []
