"""Fano lessons: the worked examples of both rules texts, to play one move at a time.

Classic edition (seeds/000_20e0e87f70a9328e.txt): examples 1 (attacking), 2 (combine, then
attack) and 3 (advanced: two attacks and a combination that empties the hand). The Trionfey
edition (seeds/001_4b741ffe6572c987.txt): the examples in its rules for attack, combine,
recruit and promote, its gameplay examples 1 to 3, and the examples of two suit specials
(Reverse Fano, Oversum). One more lesson, marked as fanfold's own, teaches the Trionfey combine
counter, for which the text gives no example.

Every position is written in Fano's position notation and loaded by the engine; every answer
and listed mistake is checked by the lessons' tests against the rules. The words are fanfold's
own, not the rules texts'.
"""

from __future__ import annotations

from fanfold.core.lessons import Lesson, LessonBook, LessonStep, Mistake
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

_CLASSIC_TEXT = "Fano classic rules"
_TRIONFEY_TEXT = 'Fano Trionfey rules ("The battle for Trionfey")'

CLASSIC_1 = Lesson(
    id="classic-1",
    title="Your first attack",
    source=f"{_CLASSIC_TEXT}, example 1 (attacking)",
    variant="classic",
    config=CLASSIC,
    position="fano player=1 | hand=3H,9H field=4H | field=6C",
    seat=0,
    intro=(
        "Fano is a duel of small armies. Each player commands one suit: the cards ace (1) to 7 "
        "are combat cards, 8, 9 and 10 are prestige cards, and the Jack, Queen and King track "
        "your commander's rank. Whoever promotes their commander three times wins. "
        "A turn is: draw up to three cards, then any number of attacks and combinations, then "
        "one closing action. Cards fight along the seven lines of the Fano plane (drawn here): "
        "on each line the three numbers beat each other in a circle, like rock, paper and "
        "scissors. An attack uses three cards of one line: your card in play, the enemy card "
        "it beats, and the line's third number, which you must hold in your hand. "
        "Here you have a 4 in play and a 3 and a 9 in hand; your opponent has a 6 in play."
    ),
    steps=(
        LessonStep(
            prompt="Attack the opponent's 6.",
            hint=(
                "Find the line through 4 and 6 on the plane. Its third number must come from "
                "your hand: is it there?"
            ),
            answers=("4H>6C:3H",),
            explanation=(
                "4, 6 and 3 lie on one line, and going round it the 4 beats the 6 with the 3 as "
                "its support (written 4 -> 6 -> 3). Both fighting cards leave play, each to its "
                "owner's discard pile, face up, and your 3 comes from your hand into play. "
                "The 3 is ready at once: in the same turn it could attack or combine again."
            ),
            mistakes=(
                Mistake(
                    "4H>6C:9H",
                    legal=False,
                    note="A prestige card (8, 9, 10) never takes part in an attack.",
                ),
                Mistake(
                    "play 3H",
                    legal=True,
                    note="it only puts the 3 into play and ends your turn: the 6 stays.",
                ),
            ),
        ),
    ),
    summary=(
        "An attack needs three cards on one line of the plane: attacker, target and support. "
        "Each of the seven combat values beats three others and is beaten by the other three, "
        "and the support is always the line's third number."
    ),
)

CLASSIC_2 = Lesson(
    id="classic-2",
    title="Combine, then attack",
    source=f"{_CLASSIC_TEXT}, example 2 (combine -> attack)",
    variant="classic",
    config=CLASSIC,
    position=("fano player=1 | hand=2H,5H,TH field=AH,4H | level=2 hand=9C field=3C,6C,8C,TC"),
    seat=0,
    intro=(
        "A combination removes two of your cards in play and plays their sum from your hand; "
        "you may then take one of the two removed cards back into your hand. It is the only "
        "way prestige cards (8, 9, 10) get into play, but it can also make a combat card. "
        "Promoting takes an 8, a 9 and a 10 in play at once. Your opponent is already a King: "
        "one more promotion wins. They have 3, 6, 8 and 10 in play, and you are fairly sure "
        "they hold the 9 (their 3 and 6 add up to 9). You have an ace and a 4 in play, and "
        "2, 5 and 10 in hand."
    ),
    steps=(
        LessonStep(
            prompt=(
                "Neither your ace nor your 4 can attack the 3 or the 6 now. Find a combination "
                "that lets you attack their 6 next."
            ),
            hint=(
                "Your two cards in play add up to a card you hold. Which card does that card "
                "need in hand to attack a 6, and where can you find it?"
            ),
            answers=("AH+4H=5H return AH",),
            explanation=(
                "1 + 4 = 5: the ace and the 4 leave play and the 5 from your hand takes their "
                "place. You kept the ace by taking it back into your hand, and the ace is "
                "exactly the support a 5 needs to beat a 6."
            ),
            mistakes=(
                Mistake(
                    "AH+4H=5H",
                    legal=True,
                    note="with both cards gone to the discard pile your 5 has no support "
                    "against the 6. Take one of them back.",
                ),
                Mistake(
                    "AH+4H=5H return 4H",
                    legal=True,
                    note="a 4 in hand does not help a 5 beat a 6.",
                ),
                Mistake(
                    "play 5H",
                    legal=True,
                    note="it ends your turn and leaves their 3 and 6 in play: next turn they "
                    "combine them for the 9 and promote.",
                ),
            ),
        ),
        LessonStep(
            prompt="Now take their 6.",
            hint="Look at the line through 5 and 6 on the plane.",
            answers=("5H>6C:AH",),
            explanation=(
                "5 -> 6 -> 1: your 5 and their 6 go to the discard piles and your ace comes "
                "back into play. Their 3, 8 and 10 stay, but no two of their cards add up to "
                "9 any more: they cannot make the 9 and promote next turn. It cost you the 4."
            ),
            mistakes=(
                Mistake(
                    "play AH",
                    legal=True,
                    note="it ends your turn with their 6 still in play: 3 + 6 = 9 wins them "
                    "the game next turn.",
                ),
            ),
        ),
    ),
    summary=(
        "Combining can turn cards that cannot attack into one that can, and the card you take "
        "back into your hand can be the support it needs. Watch your opponent's field for "
        "pairs that add up to the prestige card they are missing."
    ),
)

CLASSIC_3 = Lesson(
    id="classic-3",
    title="Three moves and a new hand",
    source=f"{_CLASSIC_TEXT}, example 3 (advanced)",
    variant="classic",
    config=CLASSIC,
    position=("fano player=1 | hand=3H,4H,8H field=AH,5H,7H draw=2H,6H,9H,TH | field=2C,6C"),
    seat=0,
    intro=(
        "If your hand runs empty during your main phase, you draw three new cards and carry "
        "on. You have drawn 3, 4 and 8, and have an ace, a 5 and a 7 in play. 1 + 7 = 8 is "
        "tempting, but look at the other side first: your opponent has a 2 and a 6 in play, "
        "and 2 + 6 = 8 too."
    ),
    steps=(
        LessonStep(
            prompt="Do not combine yet. Which attack can you make?",
            hint="Your ace lies on the line 1, 2, 4.",
            answers=("AH>2C:4H",),
            explanation=(
                "1 -> 2 -> 4: your ace and their 2 go to the discard piles and your 4 comes "
                "into play, ready to act this turn."
            ),
            mistakes=(
                Mistake(
                    "AH+7H=8H",
                    legal=True,
                    note="it makes your 8 and leaves their 2 and 6 in play to make their own 8 "
                    "next turn. Attack first.",
                ),
                Mistake(
                    "AH+7H=8H return AH",
                    legal=True,
                    note="it makes your 8 and leaves their 2 and 6 in play to make their own 8 "
                    "next turn. Attack first.",
                ),
            ),
        ),
        LessonStep(
            prompt="The 4 you just played can attack too. Take their last card.",
            hint="Which card do you still hold that lies on one line with 4 and 6?",
            answers=("4H>6C:3H",),
            explanation=(
                "4 -> 6 -> 3: the 4 and their 6 go to the discard piles and your 3 comes into "
                "play. Their field is empty."
            ),
        ),
        LessonStep(
            prompt="You hold only the 8. Play it, and leave your hand empty.",
            hint="Which two of your cards in play add up to 8?",
            answers=("3H+5H=8H",),
            explanation=(
                "3 + 5 = 8: the 8 enters play and, taking neither card back, you have no card "
                "left in hand. An empty hand in the main phase draws three new cards, and your "
                "turn goes on with them."
            ),
            mistakes=(
                Mistake(
                    "3H+5H=8H return 3H",
                    legal=True,
                    note="with a card back in hand your hand is not empty, so you draw nothing.",
                ),
                Mistake(
                    "3H+5H=8H return 5H",
                    legal=True,
                    note="with a card back in hand your hand is not empty, so you draw nothing.",
                ),
            ),
        ),
    ),
    summary=(
        "Cards that enter play act at once, so attacks can chain. Two attacks emptied your "
        "opponent's field, so they cannot combine for their 8 next turn; your 8 is in play "
        "all the same, and an empty hand gave you three fresh cards."
    ),
)

TRIONFEY_ATTACK = Lesson(
    id="trionfey-attack",
    title="Three targets, three supports",
    source=f"{_TRIONFEY_TEXT}, the example of the attack rule",
    variant="Trionfey",
    config=TRIONFEY,
    position="fano player=1 | hand=7H field=2H | field=3S,4S,6S",
    seat=0,
    intro=(
        "In the Trionfey edition you win by promoting twice (Jack to Queen to King), and an "
        "attack is declared without showing the support: you write only attacker and target. "
        "When the attack resolves you must produce the support from your hand, or your "
        "attacking card is discarded. Every combat card beats three values: a 2 beats 3, 4 "
        "and 6, with 5, 1 and 7 as the supports. You have a 2 in play and a 7 in hand; "
        "your opponent (spades) has 3, 4 and 6 in play."
    ),
    steps=(
        LessonStep(
            prompt="Declare the attack your hand can support.",
            hint="Which of the three supports 5, 1 and 7 is in your hand, and which target "
            "goes with it?",
            answers=("2H>6S",),
            explanation=(
                "2 -> 6 -> 7. Their 6 cannot be saved by a counter here, so the attack "
                "resolves: you show the 7, your 2 and their 6 go to the discard piles, and "
                "the 7 enters play."
            ),
            mistakes=(
                Mistake(
                    "2H>3S",
                    legal=True,
                    note="it is a bluff: a 2 beats a 3 only with a 5, which you do not hold. "
                    "Unless they counter, your 2 is discarded and their 3 stays.",
                ),
                Mistake(
                    "2H>4S",
                    legal=True,
                    note="it is a bluff: a 2 beats a 4 only with an ace, which you do not "
                    "hold. Your 2 would be discarded.",
                ),
                Mistake(
                    "2H>6S:7H",
                    legal=False,
                    note="The 7 is shown only when the attack resolves.",
                ),
            ),
        ),
    ),
    summary=(
        "Declaring without the support allows bluffs, but a bluff that is called costs the "
        "attacking card. Learn which three values each card beats, and with what."
    ),
)

TRIONFEY_COMBINE = Lesson(
    id="trionfey-combine",
    title="Combine for a 7",
    source=f"{_TRIONFEY_TEXT}, the example of the combine rule",
    variant="Trionfey",
    config=TRIONFEY,
    position="fano player=1 | hand=7H field=AH,6H | -",
    seat=0,
    intro=(
        "Two of your cards in play may add their values if you hold the sum: both leave play "
        "(face up on your discard pile), the sum enters play, and you may take one of the two "
        "back into your hand. You have an ace and a 6 in play and a 7 in hand."
    ),
    steps=(
        LessonStep(
            prompt="Make the 7.",
            hint="1 + 6.",
            answers=("AH+6H=7H", "AH+6H=7H return AH", "AH+6H=7H return 6H"),
            explanation=(
                "The ace and the 6 leave play and the 7 enters. Taking the ace or the 6 back is "
                "up to you: a card in hand can support an attack or enter play later. "
                "Combining is also the only way to bring an 8, 9 or 10 into play."
            ),
            mistakes=(
                Mistake(
                    "play 7H",
                    legal=True,
                    note="it plays the 7 as your closing action, without combining.",
                ),
            ),
        ),
    ),
    summary="A combination trades two cards in play for their sum, with one of them kept.",
)

TRIONFEY_RECRUIT = Lesson(
    id="trionfey-recruit",
    title="Recruit along a line",
    source=f"{_TRIONFEY_TEXT}, the example of the recruit rule",
    variant="Trionfey",
    config=TRIONFEY,
    position="fano player=1 | hand=2H,9H field=AH,4H | -",
    seat=0,
    intro=(
        "Recruiting is new in the Trionfey edition: two of your cards in play bring a third "
        "card from your hand into an empty slot when all three values lie on one line of the "
        "plane. Nothing leaves play. You have an ace and a 4 in play, and a 2 and a 9 in hand."
    ),
    steps=(
        LessonStep(
            prompt="Add a card to your field without ending your turn.",
            hint="Which line of the plane holds both 1 and 4?",
            answers=("recruit 2H with AH 4H",),
            explanation=(
                "1, 2 and 4 share a line, so the ace and the 4 recruit the 2: three cards in "
                "play, and your main phase goes on."
            ),
            mistakes=(
                Mistake(
                    "recruit 9H with AH 4H",
                    legal=False,
                    note="Only combat cards (1 to 7) can be recruited.",
                ),
                Mistake(
                    "play 2H",
                    legal=True,
                    note="playing a card is a closing action: it ends your turn.",
                ),
            ),
        ),
    ),
    summary="Recruit fills your field during the main phase; playing a card ends the turn.",
)

TRIONFEY_PROMOTE = Lesson(
    id="trionfey-promote",
    title="Promote to King",
    source=f"{_TRIONFEY_TEXT}, the example of the promote rule",
    variant="Trionfey",
    config=TRIONFEY,
    position="fano player=1 | level=1 hand=5H field=8H,9H,TH | field=3S",
    seat=0,
    intro=(
        "With an 8, a 9 and a 10 in play you may promote: the three go to your discard pile and "
        "your commander moves up a rank. A Jack becomes a Queen; a Queen becomes a King, which "
        "wins the Trionfey game. You are a Queen with 8, 9 and 10 in play."
    ),
    steps=(
        LessonStep(
            prompt="Win the game.",
            hint="The three prestige cards are in play.",
            answers=("promote 8H 9H TH",),
            explanation=(
                "The 8, 9 and 10 go to your discard pile and your Queen becomes a King: the "
                "second promotion wins."
            ),
            mistakes=(
                Mistake(
                    "play 5H",
                    legal=True,
                    note="it ends your turn without promoting, and gives your opponent a turn "
                    "to win first.",
                ),
            ),
        ),
    ),
    summary="Promotion needs all three prestige cards in play at once, and uses them up.",
)

TRIONFEY_1 = Lesson(
    id="trionfey-1",
    title="Hearts attacks spades",
    source=f"{_TRIONFEY_TEXT}, gameplay example 1 (attacking)",
    variant="Trionfey",
    config=TRIONFEY,
    position="fano player=1 | hand=3H,9H field=4H | field=6S",
    seat=0,
    intro=(
        "You play hearts: a 4 in play, a 3 and a 9 in hand. Spades has a 6 in play. In this "
        "edition you declare an attack with attacker and target only; the support is shown "
        "when the attack resolves."
    ),
    steps=(
        LessonStep(
            prompt="Declare an attack on the 6 of spades that you can support.",
            hint="4, 6 and 3 lie on one line.",
            answers=("4H>6S",),
            explanation=(
                "4 -> 6 -> 3: spades has nothing to counter with, so the attack resolves at "
                "once: your 3 is shown and enters play, your 4 and their 6 go to the discard "
                "piles."
            ),
            mistakes=(
                Mistake(
                    "4H>6S:3H",
                    legal=False,
                    note="The 3 is shown only when the attack resolves.",
                ),
            ),
        ),
    ),
    summary="The same attack as in the classic game; only the way it is written differs.",
)

TRIONFEY_2 = Lesson(
    id="trionfey-2",
    title="Stop the last prestige card",
    source=f"{_TRIONFEY_TEXT}, gameplay example 2 (combine -> attack)",
    variant="Trionfey",
    config=TRIONFEY,
    position=("fano player=1 | hand=2H,5H,TH field=AH,4H | level=1 hand=9S field=3S,6S,8S,TS"),
    seat=0,
    intro=(
        "Spades is a Queen: one more promotion wins. They have 3, 6, 8 and 10 in play and you "
        "are fairly sure they hold the 9 (3 + 6 = 9). You play hearts: an ace and a 4 in play, "
        "2, 5 and 10 in hand."
    ),
    steps=(
        LessonStep(
            prompt="Set up an attack on their 6 with a combination.",
            hint="1 + 4 = 5. What does a 5 need in hand to beat a 6?",
            answers=("AH+4H=5H return AH",),
            explanation=(
                "The ace and the 4 leave play, the 5 enters, and the ace goes back to your hand, "
                "where it is the support a 5 needs against a 6."
            ),
            mistakes=(
                Mistake(
                    "AH>3S",
                    legal=True,
                    note="it is a bluff: an ace beats a 3 only with a 7, which you do not hold, "
                    "and the 6 would still be there.",
                ),
                Mistake(
                    "AH+4H=5H",
                    legal=True,
                    note="with both cards discarded your 5 has no support against the 6.",
                ),
                Mistake(
                    "AH+4H=5H return 4H",
                    legal=True,
                    note="a 4 in hand does not help a 5 beat a 6.",
                ),
            ),
        ),
        LessonStep(
            prompt="Declare the attack.",
            hint="5, 6 and 1 share a line.",
            answers=("5H>6S",),
            explanation=(
                "5 -> 6 -> 1: spades cannot counter, so you show the ace, which enters play; "
                "your 5 and their 6 are discarded. Without the 6 spades cannot make the 9 next "
                "turn. It cost you the 4."
            ),
        ),
    ),
    summary=(
        "Taking a card back after a combination can supply the next attack. Break up the pairs "
        "that would give your opponent the prestige card they lack."
    ),
)

TRIONFEY_3 = Lesson(
    id="trionfey-3",
    title="Clear the field, draw again",
    source=f"{_TRIONFEY_TEXT}, gameplay example 3 (advanced)",
    variant="Trionfey",
    config=TRIONFEY,
    position=("fano player=1 | hand=3H,4H,8H field=AH,5H,7H draw=2H,6H,9H,TH | field=2S,6S"),
    seat=0,
    intro=(
        "Hearts has drawn 3, 4 and 8 and has an ace, a 5 and a 7 in play. Spades has a 2 and a "
        "6 in play: 2 + 6 = 8, their own prestige card, next turn. A hand that runs empty in "
        "your main phase draws three new cards."
    ),
    steps=(
        LessonStep(
            prompt="Before making your 8, attack.",
            hint="1, 2 and 4 share a line, and you hold the 4.",
            answers=("AH>2S",),
            explanation="1 -> 2 -> 4: the 4 replaces your ace in play and their 2 is gone.",
            mistakes=(
                Mistake(
                    "AH+7H=8H",
                    legal=True,
                    note="it leaves their 2 and 6 in play, ready to make their own 8.",
                ),
            ),
        ),
        LessonStep(
            prompt="Attack again with the card you just played.",
            hint="4, 6 and 3 share a line.",
            answers=("4H>6S",),
            explanation="4 -> 6 -> 3: the 3 replaces your 4; spades has no card in play.",
        ),
        LessonStep(
            prompt="Make your 8 and empty your hand.",
            hint="3 + 5.",
            answers=("3H+5H=8H",),
            explanation=(
                "The 3 and 5 go to the discard pile and the 8 enters play. With neither taken "
                "back your hand is empty, so you draw three new cards and go on."
            ),
            mistakes=(
                Mistake(
                    "3H+5H=8H return 3H",
                    legal=True,
                    note="a card back in hand keeps the hand from being empty: no new cards.",
                ),
                Mistake(
                    "3H+5H=8H return 5H",
                    legal=True,
                    note="a card back in hand keeps the hand from being empty: no new cards.",
                ),
            ),
        ),
    ),
    summary=(
        "Chained attacks cleared spades' field, your 8 is in play anyway, and the empty hand "
        "refilled itself."
    ),
)

TRIONFEY_COUNTER = Lesson(
    id="trionfey-counter",
    title="Counter an attack",
    source=(
        f"{_TRIONFEY_TEXT}, the reaction rules (the text gives no example: this one is "
        "fanfold's own)"
    ),
    variant="Trionfey",
    config=TRIONFEY,
    position=("fano player=1 phase=react attack=2H>3S@2 | hand=5H field=2H | hand=7S field=3S,4S"),
    seat=1,
    intro=(
        "In the Trionfey edition the defender may answer an attack before the support is "
        "shown. A combine counter adds another of your cards in play to the attacked card, "
        "for a combat card (at most 7) you hold: the attack then turns on the new card. If "
        "the attacker's card does not beat the new card, only the attacker is discarded. "
        "This time you play spades: hearts' 2 attacks your 3. You have a 3 and a 4 in play "
        "and a 7 in hand."
    ),
    steps=(
        LessonStep(
            prompt="Save your 3 and make the attack fail.",
            hint="3 + 4 = 7. Does a 2 beat a 7?",
            answers=(
                "counter 3S+4S=7S",
                "counter 3S+4S=7S return 3S",
                "counter 3S+4S=7S return 4S",
            ),
            explanation=(
                "Your 3 and 4 become a 7 and the attack turns on it. A 2 beats only 3, 4 and "
                "6, so the attack fails: hearts' 2 is discarded and your 7 stays in play."
            ),
            mistakes=(
                Mistake(
                    "allow",
                    legal=True,
                    note="hearts then has to show a 5, and if they hold it your 3 is lost.",
                ),
            ),
        ),
    ),
    summary=(
        "A counter changes the target. It works best when the attacker cannot beat the new "
        "card; if they can and hold its support, the attack goes on and may be countered again."
    ),
)

TRIONFEY_REVERSE = Lesson(
    id="trionfey-reverse",
    title="Reverse Fano (hearts special)",
    source=f"{_TRIONFEY_TEXT}, specials: the example of Reverse Fano",
    variant="Trionfey with specials",
    config=HEARTS_SPECIALS,
    position="fano player=1 | tribute=3 hand=4H field=3H | field=6S",
    seat=0,
    intro=(
        "With the specials variant each player earns tribute counters (one for each combine, "
        "substitute or closing discard of their own cards) and may spend three on their "
        "suit's special. Hearts' special turns the arrows of the plane round for one attack. "
        "Normally a 3 beats a 4 with a 6; a 6 beats a 3. You have 3 counters, a 3 in play and "
        "a 4 in hand; spades has a 6 in play."
    ),
    steps=(
        LessonStep(
            prompt="Take the 6 with your 3.",
            hint="Reversed, the line 3, 4, 6 runs the other way: the 3 beats the 6, with the 4.",
            answers=("3H>6S reverse",),
            explanation=(
                "You pay three counters and reverse the arrows for this attack: 3 -> 6 with "
                "the 4 as support. Your 3 and their 6 are discarded and the 4 enters play."
            ),
            mistakes=(
                Mistake(
                    "3H>6S",
                    legal=False,
                    note="Without the special the arrow runs from 6 to 3.",
                ),
            ),
        ),
    ),
    summary="Reverse Fano lets any card attack the three values that normally beat it.",
)

TRIONFEY_OVERSUM = Lesson(
    id="trionfey-oversum",
    title="Oversum (clubs special)",
    source=f"{_TRIONFEY_TEXT}, specials: the example of Oversum",
    variant="Trionfey with specials",
    config=CLUBS_SPECIALS,
    position="fano player=1 | tribute=3 hand=9C field=5C,6C,8C,TC | -",
    seat=0,
    intro=(
        "Clubs' special, for three tribute counters, combines two cards in play for any card "
        "in hand worth less than their sum: 5 + 6 = 11 can make anything up to a 10. You play "
        "clubs with 3 counters: 5, 6, 8 and 10 in play and the 9 in hand."
    ),
    steps=(
        LessonStep(
            prompt=(
                "Bring your 9 into play without losing the 8 or the 10, and take no card back "
                "into your hand."
            ),
            hint="5 + 6 is more than 9.",
            answers=("5C+6C=9C oversum",),
            explanation=(
                "Oversum: the 5 and 6 leave play and the 9 enters. A combination that makes a "
                "prestige card this way earns no tribute counter. Your hand is empty, so you "
                "draw three new cards."
            ),
            mistakes=(
                Mistake(
                    "5C+6C=9C oversum return 5C",
                    legal=True,
                    note="the lesson asks you to take no card back: an empty hand draws three "
                    "new cards.",
                ),
                Mistake(
                    "5C+6C=9C oversum return 6C",
                    legal=True,
                    note="the lesson asks you to take no card back: an empty hand draws three "
                    "new cards.",
                ),
                Mistake(
                    "8C+TC=9C oversum",
                    legal=True,
                    note="it throws away the 8 and 10 that you need to promote.",
                ),
                Mistake(
                    "6C+8C=9C oversum",
                    legal=True,
                    note="it throws away the 8 that you need to promote.",
                ),
                Mistake(
                    "5C+6C=9C",
                    legal=False,
                    note="A plain combination must make exactly the sum; this one needs the "
                    "special.",
                ),
            ),
        ),
        LessonStep(
            prompt="Finish the job.",
            hint="8, 9 and 10 are in play.",
            answers=("promote 8C 9C TC",),
            explanation="Your Jack becomes a Queen: one more promotion wins.",
        ),
    ),
    summary="Oversum turns a pair of cards into any lesser card, prestige cards included.",
)

LESSONS: tuple[Lesson, ...] = (
    CLASSIC_1,
    CLASSIC_2,
    CLASSIC_3,
    TRIONFEY_ATTACK,
    TRIONFEY_COMBINE,
    TRIONFEY_RECRUIT,
    TRIONFEY_PROMOTE,
    TRIONFEY_1,
    TRIONFEY_2,
    TRIONFEY_3,
    TRIONFEY_COUNTER,
    TRIONFEY_REVERSE,
    TRIONFEY_OVERSUM,
)


def lesson_book(game: FanoGame) -> LessonBook[FanoState]:
    """Fano's lessons, judged by ``game``."""
    return LessonBook(game, LESSONS)
