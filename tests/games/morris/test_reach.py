"""Whether a side could still win by any legal sequence of moves (the Morris time-out rule:
a side that runs out of time loses, unless the other side could not have won at all)."""

from __future__ import annotations

import random

import pytest

from fanfold.games.morris import rules
from fanfold.games.morris.actions import parse_action
from fanfold.games.morris.board import BLACK, WHITE
from fanfold.games.morris.config import Adjacency, MorrisConfig
from fanfold.games.morris.reach import can_still_win, winning_line
from fanfold.games.morris.state import MorrisState
from fanfold.solvers.morris import MorrisTable, Result

#: A game in which White's last move leaves White no way to win: every placement Black can
#: make hands Black the win or nothing (found by the search, checked below move by move).
NO_WIN_FOR_WHITE = ("T6", "T5", "T3", "C5", "C6", "C2", "C2", "T1", "6-1")


def played(moves: tuple[str, ...], config: MorrisConfig | None = None) -> MorrisState:
    state = rules.new_state(config or MorrisConfig())
    for text in moves:
        action = parse_action(text)
        assert rules.is_legal(state, action), text
        state = rules.apply(state, action)
    return state


def exhaustive(state: MorrisState, side: int, depth: int) -> bool:
    """An independent oracle: every sequence of at most ``depth`` actions, tried in full with
    the rules' own ``apply`` (which keeps the history and marks repetitions)."""
    ended = rules.outcome(state)
    if ended is not None:
        return ended.returns[side] > 0
    if depth == 0:
        return False
    return any(
        exhaustive(rules.apply(state, action), side, depth - 1)
        for action in rules.legal_actions(state)
    )


def test_white_cannot_win_after_the_found_game_and_black_can() -> None:
    state = played(NO_WIN_FOR_WHITE)
    assert state.to_move == BLACK
    assert rules.outcome(state) is None
    assert not can_still_win(state, WHITE)
    assert can_still_win(state, BLACK)
    # One move earlier White still could: the last move gave it away.
    before = played(NO_WIN_FOR_WHITE[:-1])
    assert can_still_win(before, WHITE)
    # Checked to the end of every sequence: each of Black's replies ends the game or leaves
    # White without a win at any depth the oracle reaches.
    assert not exhaustive(state, WHITE, 6)


def test_a_finished_game_is_won_only_by_its_winner() -> None:
    state = played(("C1", "c2", "C4"))  # the circle 1-2-4 holds three circles: White lost
    ended = rules.outcome(state)
    assert ended is not None
    assert ended.returns == (-1.0, 1.0)
    assert can_still_win(state, BLACK)
    assert not can_still_win(state, WHITE)


def test_a_repetition_on_every_way_forward_leaves_no_win() -> None:
    """In the movement phase, a position the game has seen may not be entered again (a
    draw), so with every next position already seen only a move that ends the game at once
    can still win."""
    rng = random.Random(5)
    for _ in range(200):
        state = rules.new_state(MorrisConfig())
        while state.is_placement and rules.outcome(state) is None:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        if rules.outcome(state) is not None:
            continue
        nexts = [rules.apply(state, action) for action in rules.legal_actions(state)]
        if any(rules.outcome(after) is not None for after in nexts):
            continue  # a move that ends the game at once: repetitions do not matter
        side = 1 - state.to_move
        assert can_still_win(state, side)
        hemmed = MorrisState(
            state.config,
            state.board,
            state.to_move,
            state.history | {after.key for after in nexts},
        )
        assert not can_still_win(hemmed, side)
        return
    pytest.fail("no movement position without an ending move was found")


@pytest.mark.parametrize("adjacency", list(Adjacency))
def test_agrees_with_the_solved_table_and_the_oracle(
    adjacency: Adjacency, tables: dict[Adjacency, MorrisTable]
) -> None:
    """Whoever wins under perfect play can certainly win with help; a side the search says
    cannot win is not the solved table's winner; and near the end the exhaustive oracle gives
    the same answer."""
    table = tables[adjacency]
    config = MorrisConfig(adjacency)
    rng = random.Random(11)
    checked = oracle = 0
    for _ in range(300):
        state = rules.new_state(config)
        while rules.outcome(state) is None:
            value = table.state_value(state)
            mover = state.to_move
            for side in (WHITE, BLACK):
                line = winning_line(state, side)
                answer = line is not None
                checked += 1
                if line is not None:  # the line is played by the rules themselves
                    after = state
                    for action in line:
                        assert rules.is_legal(after, action)
                        after = rules.apply(after, action)
                    ended = rules.outcome(after)
                    assert ended is not None
                    assert ended.returns[side] > 0
                if value.result is Result.WIN:
                    winner: int | None = mover
                elif value.result is Result.LOSS:
                    winner = 1 - mover
                else:
                    winner = None
                if winner == side and not state.history:
                    assert answer, (state.board, mover, side)
                if not answer and not state.history:
                    assert winner != side
                if not answer and state.is_placement and sum(map(len, state.board)) >= 5:
                    assert not exhaustive(state, side, 8 - sum(map(len, state.board)) + 2)
                    oracle += 1
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    assert checked > 500
    assert oracle > 0
