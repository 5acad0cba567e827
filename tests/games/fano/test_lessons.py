"""Fano's lessons: every worked example of both rules texts is a lesson, every answer is legal
where it is asked and plays through, and every listed mistake is judged as the lesson says.

Rules texts: seeds/000_20e0e87f70a9328e.txt and seeds/001_4b741ffe6572c987.txt.
"""

from __future__ import annotations

import re

import pytest

from fanfold.core.errors import NotationError
from fanfold.core.lessons import Lesson, Verdict
from fanfold.games.fano import Edition, Phase
from fanfold.games.fano.lessons import LESSONS, lesson_book
from tests.games.fano.helpers import FANO, cards

BOOK = lesson_book(FANO)


def lesson(lesson_id: str) -> Lesson:
    return BOOK.get(lesson_id)


def test_every_worked_example_has_a_lesson() -> None:
    sources = [entry.source for entry in LESSONS]
    for number in (1, 2, 3):
        assert sum(f"classic rules, example {number}" in source for source in sources) == 1
        assert sum(f"gameplay example {number}" in source for source in sources) == 1
    for rule in ("attack rule", "combine rule", "recruit rule", "promote rule"):
        assert sum(rule in source for source in sources) == 1, rule
    for special in ("Reverse Fano", "Oversum"):
        assert sum(f"example of {special}" in source for source in sources) == 1, special
    assert [entry.config.edition for entry in LESSONS[:3]] == [Edition.CLASSIC] * 3
    assert all(entry.config.edition is Edition.TRIONFEY for entry in LESSONS[3:])


@pytest.mark.parametrize("entry", LESSONS, ids=lambda entry: entry.id)
def test_the_lesson_plays_as_written(entry: Lesson) -> None:
    assert BOOK.problems(entry) == []
    for number, step in enumerate(entry.steps):
        state = BOOK.state(entry, number)
        assert FANO.current_player(state) == entry.seat
        for answer in step.answers:
            assert FANO.is_legal(state, FANO.parse_action(answer))
            judged = BOOK.judge(entry, number, answer)
            assert judged.verdict is Verdict.CORRECT
            assert judged.message == step.explanation
        for mistake in step.mistakes:
            judged = BOOK.judge(entry, number, mistake.action)
            assert judged.verdict is (Verdict.OTHER if mistake.legal else Verdict.ILLEGAL)
            assert mistake.note in judged.message
            if not mistake.legal:  # the rules' own reason comes first
                reason = FANO.explain_illegal(state, FANO.parse_action(mistake.action))
                assert judged.message.startswith(reason)


@pytest.mark.parametrize("entry", LESSONS, ids=lambda entry: entry.id)
def test_the_words_are_filled_in(entry: Lesson) -> None:
    for words in (entry.title, entry.intro, entry.summary, entry.source):
        assert words.strip()
    assert re.fullmatch(r"[a-z0-9-]+", entry.id)
    for step in entry.steps:
        for words in (step.prompt, step.hint, step.explanation):
            assert words.strip()
        for answer in step.answers:  # the hint does not give the answer away
            assert answer not in step.hint


def test_a_legal_move_that_is_not_the_lessons_is_told_apart() -> None:
    judged = BOOK.judge(lesson("classic-1"), 0, "discard 9H")
    assert judged.verdict is Verdict.OTHER
    assert "not the move this lesson is after" in judged.message
    assert judged.played == "discard 9H"


def test_answers_are_compared_in_canonical_notation() -> None:
    judged = BOOK.judge(lesson("classic-2"), 0, "4h+1h=5h return 1h")
    assert judged.verdict is Verdict.CORRECT
    assert judged.played == "AH+4H=5H return AH"


def test_an_illegal_move_gets_the_rules_reason() -> None:
    judged = BOOK.judge(lesson("classic-1"), 0, "4H>6C:2H")
    assert judged.verdict is Verdict.ILLEGAL
    assert judged.message == "you have no 2H in hand"


def test_text_that_is_no_move_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        BOOK.judge(lesson("classic-1"), 0, "attack the six")


def test_classic_example_2_ends_with_the_ace_back_in_play() -> None:
    after = BOOK.state(lesson("classic-2"), 2)
    me, them = after.players
    assert me.field == cards("AH")
    assert me.hand == cards("2H TH")
    assert them.field == cards("3C 8C TC")


def test_classic_example_3_draws_three_new_cards() -> None:
    entry = lesson("classic-3")
    before_last = BOOK.state(entry, 2)
    assert before_last.players[0].hand == cards("8H")
    after = BOOK.state(entry, 3)
    assert after.players[0].hand == cards("2H 6H 9H")
    assert after.players[1].field == ()
    assert after.phase is Phase.MAIN


def test_the_promotion_lesson_wins_the_game() -> None:
    outcome = FANO.outcome(BOOK.state(lesson("trionfey-promote"), 1))
    assert outcome is not None
    assert outcome.winners == (0,)


def test_the_counter_lesson_is_played_by_the_defender() -> None:
    entry = lesson("trionfey-counter")
    assert entry.seat == 1
    start = BOOK.state(entry, 0)
    assert start.phase is Phase.REACT
    assert start.turn_player == 0
    after, told = BOOK.after(entry, 0, "counter 3S+4S=7S return 4S")
    assert after.players[1].field == cards("7S")
    assert after.players[1].hand == cards("4S")
    assert after.players[0].field == ()  # the attack failed: only the attacker was discarded
    assert told == [(1, "counter 3S+4S=7S return 4S")]


def test_moves_played_are_told_as_the_learner_saw_them() -> None:
    entry = lesson("trionfey-3")
    assert BOOK.played(entry, 0) == []
    assert BOOK.played(entry, 3) == [(0, "AH>2S"), (0, "4H>6S"), (0, "3H+5H=8H")]
