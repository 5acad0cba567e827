"""The engine-assistance check of rated Fano330-R-Morris (:mod:`fanfold.play.assistance`):
critical positions, matches, the evidence an account needs, the verdicts on the solver's copier
and on an honest strong player, and the benchmark that chose the threshold."""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks import assistance as benchmark

from fanfold.core.errors import RecordError
from fanfold.core.records import GameRecord
from fanfold.core.registry import get_game
from fanfold.games.morris import GAME as MORRIS
from fanfold.games.morris import MorrisState
from fanfold.play.assistance import (
    MIN_CRITICAL,
    MIN_GAMES,
    THRESHOLD,
    AssistanceStats,
    Decision,
    Verdict,
    checks,
    critical_decisions,
    verdict,
)
from fanfold.play.setup import play_game
from fanfold.solvers.morris import Result, load_table, rank_actions

#: Games of one account in the verdict tests (agent seeds 0 to 7).
ACCOUNT_GAMES = 8


def _state_after(texts: list[str]) -> MorrisState:
    state = MORRIS.new_state(MORRIS.default_config())
    for text in texts:
        state = MORRIS.apply_text(state, text)
    return state


def _values_after(texts: list[str], *, ranks: bool = True) -> set[Any]:
    """The values of the legal moves after ``texts`` (their ranks, or the values)."""
    table = load_table(MORRIS.default_config().adjacency)
    ranked = rank_actions(table, _state_after(texts))
    return {value.rank if ranks else value for _, value in ranked}


# ------------------------------------------------------------------ critical positions


def test_a_position_where_every_move_has_the_same_value_never_counts() -> None:
    # After C4, every one of Black's 14 placements draws: Black's T1 decided nothing.
    assert len(_values_after(["C4"])) == 1
    (decision,) = critical_decisions(["C4", "T1"], 1)
    assert decision.number == 2
    assert decision.action == "T1"
    assert not decision.critical
    assert not decision.class_critical
    assert decision.matched
    assert AssistanceStats().add_game([decision]) == AssistanceStats(games=1)


def test_a_losing_opening_is_a_critical_position_missed() -> None:
    # C7 (or T7) is the only opening that loses: every other placement draws.
    (decision,) = critical_decisions(["C7"], 0)
    assert decision.critical
    assert not decision.matched
    assert not decision.kept_class
    assert decision.best.result is Result.DRAW
    assert decision.played.result is Result.LOSS
    (drawn,) = critical_decisions(["C1"], 0)
    assert drawn.critical
    assert drawn.matched


def test_a_slower_win_keeps_the_class_but_is_no_match() -> None:
    # After C4 T1 C1 Black wins: C4 in 16 plies, C6 only in 22.
    decisions = critical_decisions(["C4", "T1", "C1", "C6"], 1)
    assert [d.number for d in decisions] == [2, 4]
    last = decisions[-1]
    assert last.critical
    assert last.kept_class
    assert not last.matched
    assert (last.best.distance, last.played.distance) == (16, 22)
    fastest = critical_decisions(["C4", "T1", "C1", "C4"], 1)[-1]
    assert fastest.matched
    # White's side of the same game: C4 drew (a match), C1 threw the draw away.
    white = critical_decisions(["C4", "T1", "C1", "C6"], 0)
    assert [(d.number, d.critical, d.matched) for d in white] == [(1, True, True), (3, True, False)]
    stats = AssistanceStats().add_game(white)
    assert (stats.games, stats.critical, stats.matched) == (1, 2, 1)


def test_a_faster_loss_is_a_miss_though_every_move_loses() -> None:
    # After T7 C7 every White placement loses: a circle in 11 plies, a triangle in 7.
    assert {value.result for value in _values_after(["T7", "C7"], ranks=False)} == {Result.LOSS}
    first, second = critical_decisions(["T7", "C7", "T1"], 0)
    assert first.critical
    assert first.class_critical
    assert not first.matched  # T7 threw the opening's draw away
    assert second.critical
    assert not second.class_critical  # by the result class alone, nothing to decide
    assert second.kept_class
    assert not second.matched
    assert (second.best.distance, second.played.distance) == (11, 7)
    assert critical_decisions(["T7", "C7", "C1"], 0)[-1].matched


def test_a_record_and_its_texts_score_alike_and_other_games_are_refused() -> None:
    texts = ["C4", "T1", "C1", "C6"]
    record = GameRecord(MORRIS.id, MORRIS.default_config().to_json(), 0, tuple(texts))
    assert critical_decisions(record, 1) == critical_decisions(texts, 1)
    assert checks(MORRIS)
    fantan = get_game("fantan")
    assert not checks(fantan)
    other = GameRecord.start(fantan, fantan.default_config(), seed=1)
    with pytest.raises(RecordError, match="Fano330-R-Morris"):
        critical_decisions(other, 0)
    with pytest.raises(RecordError):
        critical_decisions(["C4", "C4", "C4"], 0)  # a third piece on point 4


# ------------------------------------------------------------------ the evidence and verdicts


def test_below_the_minimums_there_is_no_verdict() -> None:
    assert (MIN_CRITICAL, MIN_GAMES) == (40, 5)
    too_few_positions = AssistanceStats(games=12, critical=39, matched=39)
    too_few_games = AssistanceStats(games=4, critical=120, matched=120)
    for stats in (too_few_positions, too_few_games, AssistanceStats()):
        judged = verdict(stats)
        assert judged.verdict is Verdict.NOT_ENOUGH_EVIDENCE
        assert not judged.flagged
        assert "Not enough evidence" in judged.sentence
    assert "39 critical positions over 12 games" in verdict(too_few_positions).sentence
    # Exactly at the minimums, a verdict.
    assert verdict(AssistanceStats(games=5, critical=40, matched=40)).flagged
    missed_one = verdict(AssistanceStats(games=5, critical=40, matched=39))
    assert missed_one.verdict is Verdict.NOT_FLAGGED
    assert "39 of 40 critical positions" in missed_one.sentence
    # A moderator may ask for more evidence, never less.
    assert (
        verdict(AssistanceStats(games=5, critical=40, matched=40), min_games=6).verdict
        is Verdict.NOT_ENOUGH_EVIDENCE
    )
    with pytest.raises(ValueError, match="at least 40"):
        verdict(AssistanceStats(games=5, critical=40, matched=40), min_critical=20)
    with pytest.raises(ValueError, match="threshold"):
        verdict(AssistanceStats(games=5, critical=40, matched=40), 1.5)


def test_the_threshold_is_a_share_of_the_critical_positions() -> None:
    assert THRESHOLD == 1.0
    stats = AssistanceStats(games=6, critical=80, matched=78)
    assert verdict(stats).verdict is Verdict.NOT_FLAGGED
    assert verdict(stats, 0.975).verdict is Verdict.FLAGGED  # 97.5% matched
    assert "at or above the threshold of 97.5%" in verdict(stats, 0.975).sentence
    assert "below the threshold of 100%" in verdict(stats).sentence
    assert verdict(stats, 0.98).verdict is Verdict.NOT_FLAGGED
    flagged = verdict(AssistanceStats(games=6, critical=80, matched=80))
    assert "it is not a finding and removes nothing" in flagged.sentence
    with pytest.raises(ValueError, match="not a count"):
        AssistanceStats(games=1, critical=3, matched=4)
    assert AssistanceStats(1, 10, 9) + AssistanceStats(2, 5, 5) == AssistanceStats(3, 15, 14)


def _account(mistakes: float) -> tuple[AssistanceStats, int, int]:
    """An account of ``perfect(mistakes=...)`` over seeded games against ``medium``, its colour
    alternating: the check's evidence, and the agent's own count of its graded decisions and
    of its second-best moves."""
    game = get_game("morris")
    games: list[list[Decision]] = []
    graded = mistakes_made = 0
    for number in range(ACCOUNT_GAMES):
        seat = number % 2
        seats = [f"perfect(mistakes={mistakes})", "medium"]
        if seat:
            seats.reverse()
        table = play_game(game, None, seats, agent_seed=number)
        games.append(critical_decisions(table.record, seat))
        agent = table.seats[seat].agent
        assert agent is not None
        graded += agent.graded_decisions  # type: ignore[attr-defined]
        mistakes_made += agent.mistakes_made  # type: ignore[attr-defined]
    return AssistanceStats.of_games(games), graded, mistakes_made


def test_the_solvers_copier_is_flagged() -> None:
    stats, graded, mistakes_made = _account(0.0)
    assert stats.games == ACCOUNT_GAMES
    assert stats.critical >= MIN_CRITICAL
    # The critical positions are the agent's own graded decisions, and it matched every one.
    assert (stats.critical, stats.matched, mistakes_made) == (graded, graded, 0)
    judged = verdict(stats)
    assert judged.verdict is Verdict.FLAGGED
    assert judged.flagged
    assert f"{graded} of {graded} critical positions" in judged.sentence


def test_an_honest_strong_player_over_the_same_games_is_not_flagged() -> None:
    stats, graded, mistakes_made = _account(0.1)
    assert stats.critical >= MIN_CRITICAL
    # Every second-best move the agent played at a critical position is a miss, and only those.
    assert stats.critical == graded
    assert stats.critical - stats.matched == mistakes_made > 0
    assert verdict(stats).verdict is Verdict.NOT_FLAGGED


# ------------------------------------------------------------------ the benchmark


def test_the_benchmarks_quick_run_prints_its_command_and_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    benchmark.main(["--quick", "--workers", "1"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "command: python3 benchmarks/assistance.py --quick --workers 1"
    for rate in ("0", "0.02", "0.05", "0.1"):
        assert f"| perfect(mistakes={rate}) | 5 |" in out
        assert f"| perfect(mistakes={rate}) | 10 |" in out
    detection = [line for line in lines if line.startswith("Detection of the solver's copier")]
    assert len(detection) == 2
    # The copier matches every critical position: each judged account of it is flagged.
    assert all("100.0%" in line for line in detection)
