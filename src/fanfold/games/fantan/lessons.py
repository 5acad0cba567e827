"""Fan Tan's first lesson: the opening of a three-player hand, to play one move at a time.
Every answer and listed mistake is checked by the lessons' tests against the rules.
"""

from __future__ import annotations

from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake
from fanfold.games.fantan.config import FanTanConfig
from fanfold.games.fantan.game import FanTanGame
from fanfold.games.fantan.state import FanTanState

_YOU = "7H 8H 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S 5S 2H 3H"
_LEFT = "6H 4H TH JH QH KH AH 8C 9C TC JC QC KC AC 8D 9D TD"
_RIGHT = "7S 9H 5H 6S 8S 7C 7D JD QD KD AD 9S TS JS QS KS AS"

FIRST = Lesson(
    id="first-hand",
    title="Sevens first",
    source="A three-player hand",
    variant="standard",
    config=FanTanConfig(players=3),
    position=f"hand=1 leader=1 scores=0,0,0 pool=0 last=- seed=7 | {_YOU} / {_LEFT} / {_RIGHT} | -",
    seat=0,
    intro=(
        "Each suit gets a row on the table, started by its seven and grown one card at a "
        "time at either end: down towards the 2, up towards the ace. On your turn you must "
        "play a card if you can; if you cannot, you pass. The first player to play all their "
        "cards wins. You lead this hand, with 18 cards."
    ),
    steps=(
        LessonStep(
            prompt="Open the game: which of your cards can start a row?",
            hint="Rows start with a seven. How many sevens do you hold?",
            answers=("7H",),
            explanation=(
                "The 7♥ starts the hearts row. Your left-hand opponent then plays the 6♥ "
                "below it, and the next player starts spades with the 7♠."
            ),
            mistakes=(
                Mistake(
                    "8H",
                    legal=False,
                    note="The 8♥ can only go next to a 7♥ in the row, and there is none yet.",
                ),
            ),
            replies=("6H", "7S"),
        ),
        LessonStep(
            prompt="Hearts run 6 to 7 and spades have their seven. Which card of yours fits?",
            hint="A row grows at both ends, one rank at a time, in its own suit.",
            answers=("8H",),
            explanation=(
                "The 8♥ goes above the 7♥. Your left-hand opponent has nothing to play and "
                "passes; the next player adds the 9♥."
            ),
            mistakes=(
                Mistake(
                    "5S",
                    legal=False,
                    note="The 5♠ needs the 6♠ in the row first.",
                ),
                Mistake(
                    "pass",
                    legal=False,
                    note="You must play when you can.",
                ),
            ),
            replies=("pass", "9H"),
        ),
        LessonStep(
            prompt="Nothing in your hand fits the rows now. What do you do?",
            hint="The rows want a 5♥, a 10♥, a 6♠, an 8♠ or a seven: you hold none of them.",
            answers=("pass",),
            explanation=(
                "You pass (knock) and play goes on. Your low clubs, diamonds and spades wait "
                "for their sevens, which your opponents hold."
            ),
            mistakes=(Mistake("6C", legal=False, note="The clubs row has not been started."),),
        ),
    ),
    summary=(
        "Only sevens and the cards next to the ends of a row can be played, and you must "
        "play one when you can. When you have a choice, keeping a seven back keeps its whole "
        "suit closed to your opponents."
    ),
)

LESSONS: tuple[Lesson, ...] = (FIRST,)


def lesson_book(game: FanTanGame) -> LessonBook[FanTanState]:
    """Fan Tan's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
