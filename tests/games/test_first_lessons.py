"""The first lessons of Fan Tan, Fano330-R-Morris and Fan: every answer is legal where it is
asked and plays through, every listed mistake is judged as the lesson says, and the learner
sees no hidden card."""

from __future__ import annotations

from typing import Any

import pytest

from fanfold.core.lessons import Lesson, LessonBook, Verdict
from fanfold.core.registry import get_game
from fanfold.games.fan import lessons as fan_lessons
from fanfold.games.fantan import lessons as fantan_lessons
from fanfold.games.morris import lessons as morris_lessons

BOOKS: list[LessonBook[Any]] = [
    fan_lessons.lesson_book(get_game("fan")),  # type: ignore[arg-type]
    fantan_lessons.lesson_book(get_game("fantan")),  # type: ignore[arg-type]
    morris_lessons.lesson_book(get_game("morris")),  # type: ignore[arg-type]
]
CASES = [(book, lesson) for book in BOOKS for lesson in book.lessons]


@pytest.mark.parametrize(("book", "entry"), CASES, ids=lambda x: getattr(x, "id", ""))
def test_the_lesson_plays_as_written(book: LessonBook[Any], entry: Lesson) -> None:
    game = book.game
    assert book.problems(entry) == []
    assert len(entry.steps) >= 2
    for number, step in enumerate(entry.steps):
        state = book.state(entry, number)
        assert game.current_player(state) == entry.seat
        assert step.prompt
        assert step.hint
        assert step.explanation
        for answer in step.answers:
            judged = book.judge(entry, number, answer)
            assert judged.verdict is Verdict.CORRECT
            assert judged.message == step.explanation
        for mistake in step.mistakes:
            judged = book.judge(entry, number, mistake.action)
            assert judged.verdict is (Verdict.OTHER if mistake.legal else Verdict.ILLEGAL)
            assert mistake.note in judged.message


def test_a_losing_move_in_the_morris_lesson_is_not_accepted() -> None:
    book = BOOKS[2]
    entry = book.lessons[0]
    judged = book.judge(entry, 1, "C3")
    assert judged.verdict is Verdict.OTHER
    after = book.game.apply_text(book.state(entry, 1), "C3")
    assert book.game.outcome(after) is not None  # it loses at once, as the lesson says


def test_the_fan_tan_learner_never_sees_the_other_hands() -> None:
    book = BOOKS[1]
    entry = book.lessons[0]
    for number in range(len(entry.steps) + 1):
        view = book.game.observe(book.state(entry, number), entry.seat).to_json()
        text = str(view)
        for card in fantan_lessons._LEFT.split() + fantan_lessons._RIGHT.split():
            played = any(card in step.replies for step in entry.steps[:number])
            if not played:
                assert f"'{card}'" not in text, (number, card)
