"""Fano lessons: the worked examples of both rules texts, to play one move at a time.

Classic edition (seeds/000_20e0e87f70a9328e.txt): examples 1 (attacking), 2 (combine, then
attack) and 3 (advanced: two attacks and a combination that empties the hand). The Trionfey
edition (seeds/001_4b741ffe6572c987.txt): the examples in its rules for attack, combine,
recruit and promote, its gameplay examples 1 to 3, and the examples of two suit specials
(Reverse Fano, Oversum). One more lesson, marked as fanfold's own, teaches the Trionfey combine
counter, for which the text gives no example.

The lessons are data, in ``lessons.toml`` next to this module (the format:
:mod:`fanfold.core.lesson_files`). Every position is written in Fano's position notation and
loaded by the engine; every answer and listed mistake is checked by the lessons' tests against
the rules. The words are fanfold's own, not the rules texts'.
"""

from __future__ import annotations

from fanfold.core.lesson_files import load_lessons
from fanfold.core.lessons import LessonBook
from fanfold.games.fano.config import PRESETS, FanoConfig
from fanfold.games.fano.game import FanoGame
from fanfold.games.fano.state import FanoState


def _preset(name: str) -> FanoConfig:
    return next(preset.config for preset in PRESETS if preset.name == name)


CLASSIC = _preset("classic")
#: The Trionfey examples pit hearts against spades.
TRIONFEY = _preset("trionfey").replace(suits="HS")
#: Tribute counters and suit specials: hearts (Reverse Fano) against spades.
HEARTS_SPECIALS = _preset("trionfey-specials").replace(suits="HS")
#: ... and clubs (Oversum) against hearts.
CLUBS_SPECIALS = _preset("trionfey-specials").replace(suits="CH")

#: The configs the lessons name.
CONFIGS = {
    "classic": CLASSIC,
    "trionfey": TRIONFEY,
    "hearts-specials": HEARTS_SPECIALS,
    "clubs-specials": CLUBS_SPECIALS,
}

#: The lessons, in the order of the learning page (``lessons.toml``, next to this module).
LESSONS = load_lessons("fanfold.games.fano", CONFIGS)


def lesson_book(game: FanoGame) -> LessonBook[FanoState]:
    """Fano's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
