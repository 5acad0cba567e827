"""Fano330-R-Morris's first lesson: stacking, and the lines that lose, to play one move at a
time. Every answer and listed mistake is checked by the lessons' tests against the rules.
"""

from __future__ import annotations

from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake
from fanfold.games.morris.config import MorrisConfig
from fanfold.games.morris.game import MorrisGame
from fanfold.games.morris.state import MorrisState

_SAFE = ("C2", "C4", "C5", "C6", "T1", "T2", "T4", "T5", "T6")

FIRST = Lesson(
    id="first-placements",
    title="Stack, and never close a line",
    source="The placing phase",
    variant="geometric",
    config=MorrisConfig(),
    position="C/-/-/-/-/-/t w",
    seat=0,
    intro=(
        "Each player has two circles and two triangles. The players take turns placing them on "
        "the seven points, then moving them. A point holds at most two pieces, never two of "
        "the same shape and colour, and only the top piece counts. Whoever ends their turn "
        "with a line of three points whose top pieces are all one colour or all one shape "
        "loses. You play White: your circle is on point 1, and Black has put a triangle on "
        "the centre, point 7."
    ),
    steps=(
        LessonStep(
            prompt="Put your triangle on top of Black's triangle in the centre.",
            hint="A placement is written as the shape and the point: T for a triangle, then 7.",
            answers=("T7",),
            explanation=(
                "Your triangle covers theirs: the centre is yours until it moves away, and the "
                "black triangle underneath cannot move. Black answers with a circle on point 3."
            ),
            mistakes=(
                Mistake(
                    "C1",
                    legal=False,
                    note="Two pieces of the same shape and colour never share a point.",
                ),
            ),
            replies=("c3",),
        ),
        LessonStep(
            prompt="Place a piece without completing a losing line.",
            hint="Points 1, 7 and 3 form a line: your circle, your triangle, and Black's circle.",
            answers=_SAFE,
            explanation=(
                "Safe: no line has three top pieces of one colour or one shape. Covering the "
                "black circle on 3 would have made the line 1, 7, 3 all white, and you would "
                "have lost at once."
            ),
            mistakes=(
                Mistake(
                    "C3",
                    legal=True,
                    note="it makes the line 1, 7, 3 all white: you lose at once.",
                ),
                Mistake(
                    "T3",
                    legal=True,
                    note="it makes the line 1, 7, 3 all white: you lose at once.",
                ),
            ),
        ),
    ),
    summary=(
        "Stacking on an opponent's piece takes its point away and pins it underneath, but "
        "every piece you add may complete a line. Before each move, look at the three lines "
        "through the point you play to."
    ),
)

LESSONS: tuple[Lesson, ...] = (FIRST,)


def lesson_book(game: MorrisGame) -> LessonBook[MorrisState]:
    """Fano330-R-Morris's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
