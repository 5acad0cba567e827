"""The lesson machinery: lookups, and the checks that catch a lesson whose data does not fit
its game (illegal answers, wrong mistakes, replies that never hand the move back)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fanfold.core.errors import NotationError
from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake, UnknownLessonError
from fanfold.core.registry import get_game
from fanfold.games.fano import FanoConfig

FANO = get_game("fano")

GOOD = Lesson(
    id="attack",
    title="Attack",
    source="a test",
    variant="classic",
    config=FanoConfig(),
    position="fano player=1 | hand=3H,9H field=4H | field=6C",
    seat=0,
    intro="An attack.",
    steps=(
        LessonStep(
            prompt="Attack.",
            hint="A line.",
            answers=("4H>6C:3H",),
            explanation="Done.",
            mistakes=(Mistake("play 3H", legal=True, note="it ends the turn."),),
        ),
    ),
    summary="That was it.",
)


def book(*lessons: Lesson) -> LessonBook[object]:
    return LessonBook(FANO, lessons)


def step_with(**changes: Any) -> Lesson:
    return replace(GOOD, steps=(replace(GOOD.steps[0], **changes),))


def test_a_good_lesson_has_no_problems() -> None:
    assert book(GOOD).problems(GOOD) == []


def test_ids_are_unique_and_unknown_ones_are_named() -> None:
    with pytest.raises(ValueError, match="unique"):
        book(GOOD, GOOD)
    with pytest.raises(UnknownLessonError, match="no lesson called 'nope'; its lessons: attack"):
        book(GOOD).get("nope")
    with pytest.raises(UnknownLessonError, match="not step 1"):
        book(GOOD).judge(GOOD, 1, "pass")
    with pytest.raises(UnknownLessonError, match="not step 2"):
        book(GOOD).state(GOOD, 2)


@pytest.mark.parametrize(
    ("broken", "words"),
    [
        (step_with(answers=("4H>6C:9H",)), "answer 4H>6C:9H is illegal"),
        (step_with(answers=("attack!",)), "does not parse"),
        (step_with(answers=()), "no answer"),
        (step_with(mistakes=(Mistake("play 3H", legal=False, note="."),)), "is not illegal"),
        (step_with(mistakes=(Mistake("4H>6C:9H", legal=True, note="."),)), "is not legal"),
        (step_with(mistakes=(Mistake("4H>6C:3H", legal=True, note="."),)), "also an answer"),
        (step_with(replies=("pass",)), "would be the learner's move"),
        (step_with(replies=("pass", "4H>6C:3H")), "cannot be played"),
        (replace(GOOD, seat=1), "seat 1 does not decide"),
        (replace(GOOD, position="fano | nonsense"), "does not load"),
        (replace(GOOD, steps=()), "no steps"),
        (
            replace(
                GOOD,
                steps=(
                    replace(GOOD.steps[0], answers=("4H>6C:3H", "play 3H"), mistakes=()),
                    GOOD.steps[0],
                ),
            ),
            "lead to different positions",
        ),
    ],
)
def test_problems_name_what_is_wrong(broken: Lesson, words: str) -> None:
    problems = book(broken).problems(broken)
    assert problems
    assert any(words in problem for problem in problems), problems


def test_the_last_step_may_accept_answers_that_differ() -> None:
    both = step_with(answers=("4H>6C:3H", "play 3H"), mistakes=())
    entry = book(both)
    assert entry.problems(both) == []
    after, told = entry.after(both, 0, "play 3H")
    assert told == [(0, "play 3H")]
    assert FANO.current_player(after) == 1


def test_judging_text_that_is_no_move_raises_the_notation_error() -> None:
    with pytest.raises(NotationError):
        book(GOOD).judge(GOOD, 0, "???")
