"""Lessons written as data (:mod:`fanfold.core.lesson_files`): a file reads into the lessons it
writes, and a file that is not as the format says is refused with where and why."""

from __future__ import annotations

import re

import pytest

from fanfold.core.lesson_files import LessonFileError, read_lessons
from fanfold.core.lessons import Lesson, LessonStep, Mistake

GOOD = '''
[[lesson]]
id = "take-three"
title = "Take three"
source = "fanfold's own"
variant = "standard"
config = "small"
position = "pile=5"
seat = 0
intro = """
Five pebbles: \
take one to three."""
summary = "Leave four."

[[lesson.step]]
prompt = "Take some."
hint = "Leave a multiple of four."
answers = ["1"]
explanation = "Four left."
replies = ["2"]

[[lesson.step.mistake]]
action = "3"
legal = true
note = "two left: they take both."
'''


def test_a_file_reads_into_its_lessons() -> None:
    config = object()
    assert read_lessons(GOOD, {"small": config}) == (
        Lesson(
            id="take-three",
            title="Take three",
            source="fanfold's own",
            variant="standard",
            config=config,
            position="pile=5",
            seat=0,
            intro="Five pebbles: take one to three.",
            steps=(
                LessonStep(
                    prompt="Take some.",
                    hint="Leave a multiple of four.",
                    answers=("1",),
                    explanation="Four left.",
                    mistakes=(Mistake("3", legal=True, note="two left: they take both."),),
                    replies=("2",),
                ),
            ),
            summary="Leave four.",
        ),
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("seat = 0", 'seat = "0"'), "lesson 1: seat must be int"),
        (("seat = 0", "seat = true"), "lesson 1: seat must be int"),
        (('summary = "Leave four."\n', ""), "lesson 1: missing summary"),
        (('hint = "Leave', 'colour = "red"\nhint = "Leave'), "take-three) step 1: unknown colour"),
        (('config = "small"', 'config = "large"'), "config 'large' is not one of small"),
        (("legal = true", "legal = 1"), "step 1 mistake 1: legal must be bool"),
        (('answers = ["1"]', "answers = [1]"), "step 1 answers: every entry must be a string"),
        (("[[lesson]]", "[lesson"), "not TOML"),
    ],
)
def test_a_file_not_in_the_format_is_refused_with_where_and_why(
    change: tuple[str, str], said: str
) -> None:
    with pytest.raises(LessonFileError, match=f"^lessons.toml: .*{re.escape(said)}"):
        read_lessons(GOOD.replace(*change, 1), {"small": object()})


def test_a_file_without_lessons_is_refused() -> None:
    with pytest.raises(LessonFileError, match="missing lesson"):
        read_lessons('title = "nothing"\n', {})
