"""Fan's first lesson: the opening moves of a real deal (PySolFC deal 3), to play one move
at a time. Every answer and listed mistake is checked by the lessons' tests against the rules.
"""

from __future__ import annotations

from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake
from fanfold.games.fan.config import FanConfig
from fanfold.games.fan.game import FanGame
from fanfold.games.fan.state import FanState

FIRST = Lesson(
    id="first-moves",
    title="Your first moves",
    source="The opening of deal 3",
    variant="classic",
    config=FanConfig(),
    position=(
        "KCQH2S/2DTS3C/QC5D9H/7H6HKD/6SKS7S/8H7C3S/THAD9S/4D4H2C/7DAS3H/JHJD4C/9D8DAH/"
        "JSAC2H/QS6DJC/8S3D5H/9CKH8C/QD6C4S/TCTD5S/5C ----"
    ),
    seat=0,
    intro=(
        "Every card is face up in 18 fans. Only the top card of a fan (the one drawn whole, "
        "on the right) can move: to its foundation, which builds up by suit from the ace, or "
        "onto the top card of another fan that is one rank higher in the same suit. Only a "
        "king may fill an empty fan. Free all 52 cards to the foundations to win."
    ),
    steps=(
        LessonStep(
            prompt="One ace is on top of a fan. Start its foundation.",
            hint="Look along the tops of the fans for an ace: it is the ace of hearts.",
            answers=("11-F",),
            explanation=(
                "The A♥ goes up and starts the hearts foundation. Under it the 8♦ is now free "
                "to move."
            ),
            mistakes=(
                Mistake(
                    "11-12",
                    legal=True,
                    note="an ace on a fan only blocks the cards under it: aces belong on the "
                    "foundations.",
                ),
            ),
        ),
        LessonStep(
            prompt="Which heart can follow it?",
            hint="The hearts foundation wants the 2♥ next.",
            answers=("12-F",),
            explanation="The 2♥ follows the ace. Under it an ace has come free: the A♣.",
        ),
        LessonStep(
            prompt="Keep the hearts going.",
            hint="Find the 3♥ at the top of a fan.",
            answers=("9-F",),
            explanation="The 3♥ goes up, and the A♠ under it is free now.",
            mistakes=(
                Mistake(
                    "12-F",
                    legal=True,
                    note="the A♣ can go up any time; first see what the hearts can do.",
                ),
            ),
        ),
        LessonStep(
            prompt="Build down in suit: put a card on a fan, one rank lower and of the same suit.",
            hint="The 5♠ tops one fan; where is the 4♠?",
            answers=("16-17",),
            explanation=(
                "The 4♠ goes on the 5♠ and the 6♣ under it comes free. Fans build down in one "
                "suit only: the 4♠ could not go on a 5♥."
            ),
            mistakes=(
                Mistake("16-14", legal=False, note="The 5♥ is a heart: fans build in one suit."),
            ),
        ),
    ),
    summary=(
        "Aces and the cards that follow them go up to the foundations; cards that cannot go "
        "up yet go on the next higher card of their suit, which frees the cards beneath. Look "
        "ahead before each move: there is no redeal, and the hint and 'still winnable?' "
        "buttons at the table tell you whether the deal can still be won."
    ),
)

LESSONS: tuple[Lesson, ...] = (FIRST,)


def lesson_book(game: FanGame) -> LessonBook[FanState]:
    """Fan's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
