"""Pebbles' lessons (the plugin's ``lessons`` names :func:`lesson_book`): one worked example,
served at ``/learn/pebbles`` like a built-in game's."""

from __future__ import annotations

from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake

from .game import PebblesGame
from .rules import PebblesConfig, PebblesState

FIRST = Lesson(
    id="leave-four",
    title="Leave a multiple of four",
    source="Pebbles' rules (fanfold_pebbles/rules.md)",
    variant="classic",
    config=PebblesConfig(),
    position="6 1",
    seat=0,
    intro="Six pebbles are left and you move. Whoever takes the last pebble wins.",
    steps=(
        LessonStep(
            prompt="Take pebbles so that your opponent cannot win.",
            hint="Whatever they take from four, you can take the rest.",
            answers=("2",),
            explanation="Four are left: whatever your opponent takes, you take the rest.",
            mistakes=(Mistake("3", legal=True, note="three left: they take all three."),),
        ),
    ),
    summary="Leave your opponent a multiple of four and the last pebble is yours.",
)


def lesson_book(game: PebblesGame) -> LessonBook[PebblesState]:
    """Pebbles' lessons, judged by ``game``."""
    return LessonBook(game, (FIRST,))
