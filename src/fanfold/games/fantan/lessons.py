"""Fan Tan's first lesson: the opening of a three-player hand, to play one move at a time.

The lesson is data, in ``lessons.toml`` next to this module (the format:
:mod:`fanfold.core.lesson_files`). Every answer and listed mistake is checked by the lessons'
tests against the rules.
"""

from __future__ import annotations

from fanfold.core.lesson_files import load_lessons
from fanfold.core.lessons import LessonBook
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.game import FanTanGame
from fanfold.games.fantan.state import FanTanState

#: The configs the lessons name.
CONFIGS = {"three-players": FanTanConfig(players=3)}

#: The lessons, in the order of the learning page (``lessons.toml``, next to this module).
LESSONS = load_lessons("fanfold.games.fantan", CONFIGS)

FIRST = LESSONS[0]
#: The three hands of the first lesson: the learner's, then the next two seats'.
_YOU, _LEFT, _RIGHT = FIRST.position.split(" | ")[1].split(" / ")


def lesson_book(game: FanTanGame) -> LessonBook[FanTanState]:
    """Fan Tan's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
