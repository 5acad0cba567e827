"""Every rule of Fano330-R-Morris (seeds/002 and rules/morris-notes.md), one test or more each."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fanfold.core.errors import IllegalActionError, NotationError
from fanfold.core.game import Termination
from fanfold.games.morris import (
    GEOMETRIC_ADJACENT,
    LINES,
    Adjacency,
    MorrisAction,
    MorrisConfig,
    MorrisGame,
    MorrisState,
    Move,
    Place,
)
from fanfold.games.morris.board import neighbours
from fanfold.games.morris.rules import losing_line, why_illegal

GAME = MorrisGame()
COMPLETE = MorrisConfig(Adjacency.COMPLETE)


def position(text: str, config: MorrisConfig | None = None) -> MorrisState:
    return GAME.parse_position(text, config)


def play(state: MorrisState, *moves: str) -> MorrisState:
    for move in moves:
        state = GAME.apply_text(state, move)
    return state


# --------------------------------------------------------------------------- the board


def test_the_seven_lines_are_those_of_the_text_and_form_a_fano_plane() -> None:
    assert {frozenset(line) for line in LINES} == {
        frozenset(s) for s in ({1, 2, 4}, {5, 2, 3}, {3, 4, 6}, {6, 1, 5}, {2, 7, 6}, {4, 7, 5},
                               {1, 7, 3})
    }  # fmt: skip
    for a in range(1, 8):
        for b in range(a + 1, 8):
            assert sum(1 for line in LINES if a in line and b in line) == 1


def test_geometric_adjacency_has_fifteen_pairs_and_complete_has_all_twenty_one() -> None:
    assert len(GEOMETRIC_ADJACENT) == 15
    geometric = neighbours(Adjacency.GEOMETRIC)
    assert sum(len(n) for n in geometric) == 30
    assert sum(len(n) for n in neighbours(Adjacency.COMPLETE)) == 42
    assert set(geometric[7]) == {1, 2, 3, 4, 5, 6}  # the centre touches every other point
    assert set(geometric[3]) == {2, 4, 7}  # a corner: its two side midpoints and the centre
    assert set(geometric[1]) == {2, 4, 5, 6, 7}  # a midpoint: circle, its side, the centre
    assert frozenset((5, 3)) not in GEOMETRIC_ADJACENT  # corners are not neighbours


# --------------------------------------------------------------------------- placement


def test_the_board_starts_empty_and_white_places_first() -> None:
    state = GAME.new_state(GAME.default_config())
    assert GAME.format_position(state) == "-/-/-/-/-/-/- w"
    assert GAME.current_player(state) == 0
    assert state.is_placement
    assert set(GAME.legal_actions(state)) == {Place(s, p) for s in "CT" for p in range(1, 8)}


def test_a_piece_may_go_on_an_empty_point_or_on_a_single_piece() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1", "C1")
    assert state.board[0] == "Cc"  # black's circle on white's circle: other colour, allowed
    assert Place("T", 1) not in GAME.legal_actions(state)  # at most two to a point
    with pytest.raises(IllegalActionError, match="already holds two pieces"):
        GAME.apply_text(state, "T1")


def test_two_pieces_of_the_same_shape_and_colour_never_stack() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1", "T2")
    with pytest.raises(IllegalActionError, match="circle cannot go on a circle"):
        GAME.apply_text(state, "C1")
    state = play(state, "T1")  # a triangle on a circle of the same colour is fine
    assert state.board[0] == "CT"


def test_each_side_places_exactly_two_circles_and_two_triangles() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1", "C2", "C3", "T4")
    assert state.in_hand(0) == {"C": 0, "T": 2}
    assert state.in_hand(1) == {"C": 1, "T": 1}
    assert all(
        action.shape == "T" for action in GAME.legal_actions(state) if isinstance(action, Place)
    )
    with pytest.raises(IllegalActionError, match="no circle left"):
        GAME.apply_text(state, "C4")


def test_movement_starts_after_the_eighth_placement() -> None:
    state = play(GAME.new_state(GAME.default_config()), "T7", "C7", "T1", "C1")
    assert state.is_placement
    state = play(state, "C4", "T6", "C6")
    assert state.is_placement
    state = play(state, "T5")
    assert GAME.format_position(state) == "Tc/-/-/C/t/tC/Tc w"
    assert not state.is_placement
    assert all(isinstance(action, Move) for action in GAME.legal_actions(state))
    with pytest.raises(IllegalActionError, match="all pieces are placed"):
        GAME.apply_text(state, "C1")


def test_during_placement_moving_is_refused() -> None:
    state = GAME.new_state(GAME.default_config())
    with pytest.raises(IllegalActionError, match="still has pieces to place"):
        GAME.apply(state, Move(1, 2))


# --------------------------------------------------------------------------- movement


MOVEMENT = "tT/c/-/-/tC/c/CT w"


def test_only_the_top_piece_of_a_stack_moves_and_only_your_own() -> None:
    state = position(MOVEMENT)
    sources = {action.source for action in GAME.legal_actions(state) if isinstance(action, Move)}
    assert sources == {1, 5, 7}  # white tops: T at 1, C at 5, T at 7
    with pytest.raises(IllegalActionError, match="not White's"):
        GAME.apply(state, Move(2, 3))  # black's circle
    with pytest.raises(IllegalActionError, match="is empty"):
        GAME.apply(state, Move(3, 4))
    after = GAME.apply(state, Move(1, 4))
    assert after.board[0] == "t"  # the black triangle underneath stays
    assert after.board[3] == "T"


def test_geometric_moves_go_only_to_neighbouring_points() -> None:
    state = position(MOVEMENT)
    targets = {a.target for a in GAME.legal_actions(state) if isinstance(a, Move) and a.source == 5}
    assert targets <= set(neighbours(Adjacency.GEOMETRIC)[5])
    with pytest.raises(IllegalActionError, match="not adjacent"):
        GAME.apply(state, Move(5, 3))


def test_complete_adjacency_allows_any_point_on_a_common_line() -> None:
    state = position(MOVEMENT, COMPLETE)
    assert Move(5, 3) in GAME.legal_actions(state)
    assert Move(5, 3) not in GAME.legal_actions(position(MOVEMENT))


def test_moves_obey_the_stacking_rules() -> None:
    state = position(MOVEMENT)
    with pytest.raises(IllegalActionError, match="already holds two pieces"):
        GAME.apply(state, Move(7, 1))
    assert Move(7, 2) in GAME.legal_actions(state)  # a white triangle on a black circle
    state = position("ct/T/T/C/-/c/tC w")
    with pytest.raises(IllegalActionError, match="cannot be stacked"):
        GAME.apply(state, Move(2, 3))  # a white triangle onto a white triangle


# --------------------------------------------------------------------------- losing


def test_three_tops_of_your_own_colour_on_a_line_lose_during_placement() -> None:
    state = position("C/T/-/c/t/-/- w")
    after = GAME.apply_text(state, "C4")  # tops C, T, C on the circle 1-2-4
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.returns == (-1.0, 1.0)
    assert "White" in outcome.reason
    assert "1-2-4" in outcome.reason
    assert outcome.termination is Termination.LINE_OF_THREE
    assert GAME.current_player(after) is None
    assert GAME.legal_actions(after) == ()


def test_three_tops_of_one_shape_in_mixed_colours_lose_too() -> None:
    after = GAME.apply_text(position("C/c/-/-/-/-/- w"), "C4")
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.returns == (-1.0, 1.0)
    assert "circles" in outcome.reason


def test_you_lose_by_making_a_line_of_the_opponents_colour() -> None:
    state = position("-/cC/-/Ct/-/tT/Tc b")
    after = GAME.apply(state, Move(7, 1))  # uncovers the white triangle at 7: C, T, T on 2-7-6
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0)
    assert "Black" in outcome.reason
    assert "2-7-6" in outcome.reason
    assert outcome.termination is Termination.LINE_OF_THREE


def test_only_the_topmost_piece_counts_and_a_line_with_an_empty_point_never_does() -> None:
    assert GAME.outcome(position("C/c/-/Ct/-/-/- w")) is None  # tops C, c, t
    assert GAME.outcome(position("C/T/-/-/c/-/- b")) is None  # point 4 is empty
    assert losing_line(("Ct", "T", "", "C", "", "", "")) is None  # top t breaks the colour
    assert losing_line(("tC", "T", "", "C", "", "", "")) == (1, 2, 4)  # the buried t does not


def test_no_legal_move_at_the_start_of_a_movement_turn_loses() -> None:
    # Every black piece is buried under a white one on the four points that hold no line.
    state = position("-/-/cC/-/tT/cT/tC b")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.returns == (1.0, -1.0)
    assert "no legal move" in outcome.reason
    assert outcome.termination is Termination.NO_MOVE


def test_a_repeated_position_is_a_draw() -> None:
    state = position("tT/c/-/-/tC/c/CT w")
    after = play(state, "1-2", "6-4", "2-1")
    assert GAME.outcome(after) is None
    final = GAME.apply_text(after, "4-6")
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.is_draw
    assert outcome.returns == (0.0, 0.0)
    assert "repeated" in outcome.reason
    assert outcome.termination is Termination.REPETITION
    assert outcome.to_json()["termination"] == "repetition"


def test_the_same_board_with_the_other_side_to_move_is_not_a_repetition() -> None:
    state = position("tT/c/-/-/tC/c/CT w")
    assert state.key != position("tT/c/-/-/tC/c/CT b").key


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "action"),
    [("C1", Place("C", 1)), ("c1", Place("C", 1)), ("T7", Place("T", 7)), ("3-5", Move(3, 5)),
     ("3>5", Move(3, 5)), ("35", Move(3, 5)), (" 3 - 5 ", Move(3, 5))],
)  # fmt: skip
def test_action_notation_reads_the_usual_spellings(text: str, action: object) -> None:
    assert GAME.parse_action(text) == action
    assert GAME.parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "C8", "X1", "3-3", "1-9", "move", "C1 C2"])
def test_bad_action_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


def test_the_issue_example_position_reads_and_writes_back() -> None:
    state = position("C/-/tc/-/-/-/T b")
    assert state.board == ("C", "", "tc", "", "", "", "T")
    assert state.to_move == 1
    assert GAME.format_position(state) == "C/-/tc/-/-/-/T b"
    assert state.in_hand(0) == {"C": 1, "T": 1}
    assert state.in_hand(1) == {"C": 1, "T": 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("C/-/-/-/-/-/-", "not a Morris position"),
        ("C/-/-/-/-/- w", "not a Morris position"),
        ("CCC/-/-/-/-/-/- w", "not a Morris position"),
        ("CC/-/-/-/-/-/- b", "cannot be stacked"),
        ("C/C/C/-/-/-/- w", "only two"),
        ("C/T/C/-/-/-/- b", "differ by at most one"),
        ("C/-/-/-/-/-/- w", "Black's turn"),
        ("C-/-/-/-/-/-/- b", "stands alone"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        position(text)


def test_an_illegal_action_changes_nothing() -> None:
    state = position(MOVEMENT)
    before = GAME.format_position(state)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Move(5, 3))
    assert GAME.format_position(state) == before
    assert state.history == frozenset()


def test_after_the_game_ends_every_action_is_refused_with_the_reason() -> None:
    over = GAME.apply_text(position("C/T/-/c/t/-/- w"), "C4")
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply_text(over, "T3")


# --------------------------------------------------------------------------- views


def test_views_show_everything_and_are_json() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1", "t2")
    for seat in (0, 1):
        view = GAME.observe(state, seat)
        data = view.to_json()
        assert data["position"] == "C/t/-/-/-/-/- w"
        assert data["in_hand"] == {"w": {"C": 1, "T": 2}, "b": {"C": 2, "T": 1}}
        assert GAME.sample_state(view, __import__("random").Random(0)) == state


def test_the_drawing_shows_every_stack() -> None:
    text = GAME.render(GAME.observe(position("C/Tt/tc/-/c/-/T w"), 0))
    for cell in ("1[C ]", "2[Tt]", "3[tc]", "5[c ]", "7[T ]", "4[  ]"):
        assert cell in text
    assert "C/Tt/tc/-/c/-/T w" in text


@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_random_lines_of_play_keep_the_stacking_rules(choices: list[int]) -> None:
    state = GAME.new_state(GAME.default_config())
    for choice in choices:
        legal = GAME.legal_actions(state)
        if not legal:
            break
        state = GAME.apply(state, legal[choice % len(legal)])
        assert GAME.invariant_violations(state) == []
        assert GAME.format_position(position(GAME.format_position(state))) == GAME.format_position(
            state
        )


#: Every action a player could write, and some no player could.
EVERY_ACTION: list[MorrisAction] = [
    *(Place(shape, point) for shape in "CTX" for point in range(9)),
    *(Move(source, target) for source in range(9) for target in range(9)),
]


@given(
    st.sampled_from([Adjacency.GEOMETRIC, Adjacency.COMPLETE]),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=60),
)
def test_why_illegal_allows_exactly_the_legal_actions(
    adjacency: Adjacency, choices: list[int]
) -> None:
    state = GAME.new_state(MorrisConfig(adjacency))
    for choice in [*choices, 0]:
        legal = GAME.legal_actions(state)
        allowed = [action for action in EVERY_ACTION if why_illegal(state, action) is None]
        assert sorted(map(str, allowed)) == sorted(map(str, legal))
        if not legal:
            break
        state = GAME.apply(state, legal[choice % len(legal)])


def test_placements_are_announced_with_the_colour_and_shape() -> None:
    state = play(GAME.new_state(GAME.default_config()), "C1")
    assert GAME.public_action_text(state, Place("T", 3), 0) == "T3 (black triangle on 3)"
    assert GAME.public_action_text(state, Move(1, 2), None) == "1-2"
