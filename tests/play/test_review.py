"""The engines' review of a game (:mod:`fanfold.play.review`): Morris moves marked against the
solved table with the right best move, a perfect game unmarked; Fan's bisection against a plain
linear scan, its winning line replayed, won and unwinnable deals; Fano and Fan Tan refused."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from benchmarks import review as benchmark

from fanfold.core.phrases import Phrase
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.fan import FanConfig, FanGame, FanState
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import MorrisState
from fanfold.play.review import (
    LOST,
    REVIEW_FORMAT,
    REVIEW_VERSION,
    WINNABLE,
    Mark,
    MoveValue,
    Review,
    ReviewError,
    Verdict,
    first_lost_position,
    review,
    reviews,
    stored_summary,
    summary_from_json,
    summary_of_json,
)
from fanfold.play.setup import play_game
from fanfold.solvers.fan import SOLVED, UNSOLVABLE, check_solution, solve
from fanfold.solvers.morris import (
    MorrisTable,
    Result,
    best_actions,
    load_table,
    principal_line,
    rank_actions,
)

FAN = FanGame()
#: Deals of tests/solvers/test_fan.py that the solver decides in milliseconds: 3 and 4 can be
#: won, 1 and 5 cannot.
WINNABLE_DEALS = (2, 4, 6)
UNWINNABLE_DEAL = 1


@pytest.fixture(scope="module")
def table() -> MorrisTable:
    return load_table(MORRIS.default_config().adjacency)


def _morris_record(texts: list[str]) -> GameRecord:
    record = GameRecord.start(MORRIS, MORRIS.default_config(), 0)
    for text in texts:
        record = record.extend(MORRIS, text)
    return record


def _state_after(texts: list[str]) -> MorrisState:
    state = MORRIS.new_state(MORRIS.default_config())
    for text in texts:
        state = MORRIS.apply_text(state, text)
    return state


def _losing_move(table: MorrisTable) -> tuple[list[str], str]:
    """Perfect play from the start until a position of the movement phase where some legal
    move turns the value into a worse result class (a win or a draw thrown away): the moves
    before it and that move, found in the solved table."""
    texts: list[str] = []
    state = MORRIS.new_state(MORRIS.default_config())
    while MORRIS.outcome(state) is None:
        ranked = rank_actions(table, state)
        best = ranked[0][1]
        worse = [action for action, value in ranked if value.result is not best.result]
        if worse and len(texts) >= 8:  # in the movement phase, past the placements
            return texts, MORRIS.action_text(worse[0])
        action = best_actions(table, state)[0]
        texts.append(MORRIS.action_text(action))
        state = MORRIS.apply_legal(state, action)
    raise AssertionError("perfect play met no position where a move loses value")


# ------------------------------------------------------------------ Morris


def test_a_losing_move_is_marked_with_the_best_move(table: MorrisTable) -> None:
    before, losing = _losing_move(table)
    state = _state_after(before)
    # The rest of the game is played perfectly, to its end.
    after = MORRIS.apply_text(state, losing)
    rest = [MORRIS.action_text(action) for action in principal_line(table, after)]
    record = _morris_record([*before, losing, *rest])
    result = review(record, table=table)
    assert MORRIS.outcome(record.replay()) is not None
    number = len(before) + 1
    (marked,) = result.marked
    assert marked.number == number
    assert marked.text == losing
    assert marked.mark is Mark.WORSE_RESULT
    best = best_actions(table, state)
    assert marked.best == MORRIS.action_text(best[0])
    assert marked.before == MoveValue.of(table.state_value(state))
    assert marked.before is not None
    assert marked.after is not None
    assert marked.after.result != marked.before.result
    seat = MORRIS.current_player(state)
    assert seat is not None
    assert marked.seat == seat
    assert marked.seat_name == MORRIS.seat_name(MORRIS.default_config(), seat)
    assert marked.seat_move == (number + 1) // 2
    assert marked.words  # the move in words
    sentence = next(line for line in result.summary if losing in line)
    assert sentence.startswith(f"{marked.seat_name}'s ")
    assert f", {losing}, turned a " in sentence
    assert sentence.endswith(f"best was {marked.best}.")


def test_the_opening_that_loses(table: MorrisTable) -> None:
    # C7 is a losing opening: every opening but C7 and T7 draws (tests/play/test_assistance).
    result = review(_morris_record(["C7"]), table=table)
    (move,) = result.moves
    assert move.before == MoveValue("draw")
    assert move.after is not None
    assert move.after.result == "loss"
    assert move.mark is Mark.WORSE_RESULT
    assert move.best in {MORRIS.action_text(a) for a in best_actions(table, _state_after([]))}
    assert "White's 1st move, C7, turned a draw into a loss; best was " in result.summary[1]
    assert result.summary[-1] == "The game is unfinished."


def test_a_slower_win_and_a_faster_loss_are_marked_apart(table: MorrisTable) -> None:
    # After C4 T1 C1 Black wins: C4 in 16 plies, C6 only in 22 (tests/play/test_assistance).
    result = review(_morris_record(["C4", "T1", "C1", "C6"]), table=table)
    slower = result.moves[3]
    assert slower.mark is Mark.SLOWER_WIN
    assert slower.before == MoveValue("win", 16)
    assert slower.after == MoveValue("win", 22)
    assert slower.best is not None
    assert "Black's 2nd move, C6, kept the win but made it slower" in " ".join(result.summary)
    # A faster loss: the side losing picks a quicker loss than the slowest.
    for texts in (["C4", "T1", "C1", "C4"], ["C4", "T1", "C1", "C6"]):
        state = _state_after(texts)
        ranked = rank_actions(table, state)
        losses = [(a, v) for a, v in ranked if v.result is Result.LOSS]
        if ranked[0][1].result is Result.LOSS and len({v.rank for _, v in losses}) > 1:
            quicker = MORRIS.action_text(losses[-1][0])
            marked = review(_morris_record([*texts, quicker]), table=table).moves[-1]
            assert marked.mark is Mark.FASTER_LOSS
            return
    pytest.fail("no position with a choice of losses found")


def test_a_perfect_game_has_no_marks(table: MorrisTable) -> None:
    record = play_game(MORRIS, None, ["perfect", "perfect"], agent_seed=3).finish()
    result = review(record, table=table)
    assert len(result.moves) == len(record.actions) > 0
    assert result.marked == ()
    assert all(move.best is None for move in result.moves)
    assert all(move.before == move.after for move in result.moves)
    assert "No move lost value" in " ".join(result.summary)
    assert result.summary[-1].startswith("Result: ")


def test_the_json_is_stable_and_names_its_inputs(table: MorrisTable) -> None:
    record = play_game(MORRIS, None, ["medium", "easy"], agent_seed=1).finish()
    first, second = review(record, table=table), review(record, table=table)
    assert first.to_json() == second.to_json()
    data: dict[str, Any] = json.loads(json.dumps(first.to_json()))
    assert data == first.to_json()
    assert data["format"] == REVIEW_FORMAT
    assert data["version"] == REVIEW_VERSION
    assert data["game"] == MORRIS.id
    assert GameRecord.from_json(data["record"]) == record
    engine = data["engine"]
    assert engine["engine"] == "morris-solved-table"
    assert engine["adjacency"] == table.adjacency.value
    assert engine["positions"] == table.size
    assert isinstance(engine["crc32"], int)
    assert data["deal"] is None
    moves = data["moves"]
    assert len(moves) == len(record.actions)
    assert set(moves[0]) == {
        "number",
        "seat",
        "seat_name",
        "seat_move",
        "text",
        "words",
        "before",
        "after",
        "best",
        "mark",
        "said",
        "seat_said",
    }
    assert {move["mark"] for move in moves} <= {None, *(mark.value for mark in Mark)}
    assert [move["number"] for move in moves] == list(range(1, len(moves) + 1))
    # the words, the seats and each sentence of the summary also as codes and params, which
    # give the same English again (a page words them in its reader's language)
    for move in moves:
        assert Phrase.from_json(move["said"]) == move["words"]
        assert Phrase.from_json(move["seat_said"]) == move["seat_name"]
    assert len(data["summary_said"]) == len(data["summary"])
    for line, said in zip(data["summary"], data["summary_said"], strict=True):
        assert Phrase.from_json(said) == line
        assert said["code"].startswith("review.")


def test_a_table_of_another_variant_is_refused(table: MorrisTable) -> None:
    config = MORRIS.config_from_json({"adjacency": "complete"})
    record = GameRecord.start(MORRIS, config, 0).extend(MORRIS, "C1")
    assert config.adjacency is not table.adjacency
    with pytest.raises(ValueError, match="variant"):
        review(record, table=table)


# ------------------------------------------------------------------ Fan


def _fan_record(deal: int, agent: str, agent_seed: int = 0) -> GameRecord:
    return play_game(FAN, None, [agent], seed=deal, agent_seed=agent_seed).finish()


def _linear_first_lost(states: list[FanState]) -> int | None:
    """The first position that cannot be won, by asking the solver about each in turn."""
    for index, state in enumerate(states):
        if solve(state).verdict == UNSOLVABLE:
            return index
    return None


@pytest.mark.parametrize("deal", WINNABLE_DEALS)
def test_bisection_finds_the_first_losing_move(deal: int) -> None:
    record = _fan_record(deal, "random", agent_seed=deal)
    states = record.states()
    assert solve(states[0]).verdict == SOLVED
    assert not states[-1].is_won
    first_lost = _linear_first_lost(states)
    assert first_lost is not None
    result = review(record)
    assert result.deal is not None
    assert result.deal.verdict is Verdict.LOST
    assert result.deal.first_losing_move == first_lost
    # The start, perhaps the end, then one question per halving.
    assert result.deal.solves <= 2 + math.ceil(math.log2(len(states)))
    # The move that lost is marked, and only it; values turn from winnable to lost there.
    (marked,) = result.marked
    assert marked.number == first_lost
    assert marked.mark is Mark.LOST_DEAL
    assert marked.before == WINNABLE
    assert marked.after == LOST
    assert all(move.after == WINNABLE for move in result.moves[: first_lost - 1])
    assert all(move.before == LOST for move in result.moves[first_lost:])
    # The winning line from just before it replays to a win, and starts with the best move.
    line = [FAN.parse_action(text) for text in result.deal.winning_line]
    assert check_solution(states[first_lost - 1], line).is_won
    assert marked.best == result.deal.winning_line[0]
    assert marked.best != marked.text
    assert f"move, {marked.text}, lost the deal" in result.summary[0]


def test_a_won_game_has_no_losing_move() -> None:
    record = _fan_record(3, "solver")
    assert record.replay().is_won
    result = review(record)
    assert result.deal is not None
    assert result.deal.verdict is Verdict.WON
    assert result.deal.solves == 0
    assert result.marked == ()
    assert all(move.before == move.after == WINNABLE for move in result.moves)
    assert result.summary[0] == "The deal was won: no move lost it."


def test_a_deal_never_winnable_says_so() -> None:
    record = _fan_record(UNWINNABLE_DEAL, "random", agent_seed=1)
    result = review(record)
    assert result.deal is not None
    assert result.deal.verdict is Verdict.NEVER_WINNABLE
    assert result.deal.first_losing_move is None
    assert result.marked == ()
    assert all(move.before == move.after == LOST for move in result.moves)
    assert "could never be won" in result.summary[0]


def test_an_unfinished_game_still_winnable_and_a_budget_that_runs_out() -> None:
    state = FAN.new_state(FanConfig(), 3)
    moves = solve(state).moves[:5]
    record = GameRecord.start(FAN, FanConfig(), 3)
    for move in moves:
        record = record.extend(FAN, move)
    result = review(record)
    assert result.deal is not None
    assert result.deal.verdict is Verdict.STILL_WINNABLE
    assert result.marked == ()
    lost = _fan_record(2, "random", agent_seed=2)
    undecided = review(lost, max_states=1)
    assert undecided.deal is not None
    assert undecided.deal.verdict is Verdict.UNDECIDED
    assert undecided.marked == ()
    assert undecided.engine["max_states"] == 1
    assert "budget of 1 positions" in undecided.summary[0]


def test_bisection_on_states_directly() -> None:
    record = _fan_record(4, "random", agent_seed=4)
    states = record.states()
    finding = first_lost_position(states)
    assert finding.first_losing_move == _linear_first_lost(states)
    assert finding.last_winnable == (finding.first_lost or 0) - 1


def test_fan_json_carries_the_deal_and_the_solver_settings() -> None:
    data = review(_fan_record(2, "random", agent_seed=2)).to_json()
    assert json.loads(json.dumps(data)) == data
    deal = data["deal"]
    assert isinstance(deal, dict)
    assert deal["verdict"] == "lost"
    assert isinstance(deal["first_losing_move"], int)
    assert isinstance(deal["winning_line"], list)
    engine = data["engine"]
    assert isinstance(engine, dict)
    assert engine["engine"] == "fan-solver"
    assert engine["max_states"] is None


def test_a_resigned_game_says_who_resigned(table: MorrisTable) -> None:
    record = GameRecord(
        MORRIS.id,
        MORRIS.default_config().to_json(),
        0,
        ("C4", "T1"),
        ruling={"ending": "resign", "seat": 0, "after": 2},
    )
    result = review(record, table=table)
    assert result.marked == ()
    assert result.summary[-1] == "White resigned."


# ------------------------------------------------------------------ refused


@pytest.mark.parametrize(("name", "title"), [("fano", "Fano"), ("fantan", "Fan Tan")])
def test_games_with_hidden_cards_are_refused(name: str, title: str) -> None:
    game = get_game(name)
    assert not reviews(game)
    record = GameRecord.start(game, game.default_config(), 0)
    with pytest.raises(ReviewError, match=f"^no engine review for {title} here"):
        review(record)


def test_the_reviewed_games() -> None:
    assert reviews(MORRIS)
    assert reviews(FAN)
    assert isinstance(review(_morris_record([])), Review)


def test_the_benchmarks_quick_run_prints_its_command_and_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One card row (Fan Tan's, the cheapest): every row is timed by the benchmark itself.
    benchmark.main(["--games", "2", "--only", "fantan:default"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "command: python3 benchmarks/review.py --games 2 --only fantan:default"
    assert "| game | players | games | p50 s | p99 s | max s | found |" in lines
    assert sum(line.startswith(("| Fano330-R-Morris |", "| Fan |")) for line in lines) == 3
    assert sum(line.startswith("| Fan Tan (default, 4 seats) |") for line in lines) == 1
    assert not any(line.startswith("| Fano (") for line in lines)


def test_a_summary_is_read_back_as_phrases_and_plain_lines_as_they_are() -> None:
    """``summary_from_json``: each sentence with a code comes back as its phrase (the same
    English); a plain sentence (a review written before the codes) as its words."""
    ending = Phrase("review.resigned", seat=Phrase("game.player", number=2))
    data: dict[str, Any] = {
        "summary": ["An old plain sentence.", ending],
        "summary_said": [None, ending.to_json()],
    }
    back = summary_from_json(data)
    assert back == ["An old plain sentence.", "Player 2 resigned."]
    assert isinstance(back[1], Phrase)
    assert back[1].to_json() == ending.to_json()
    assert summary_from_json({"summary": ["Only English."]}) == ["Only English."]
    assert summary_of_json(stored_summary(back)) == back
