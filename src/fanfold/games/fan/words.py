"""Fan patience's moves told in words, and what they mark on the board.

A solitaire with every card face up: the sentence names the cards moved (suit symbols), the
fan they leave and where they go, and says when the move ends the deal.
"""

from __future__ import annotations

from fanfold.core.phrases import Phrase, joined, phrases
from fanfold.games.fan import rules
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.choices import card_name
from fanfold.games.fan.state import FanState
from fanfold.games.fan.view import FOUNDATIONS, fan_ref

phrases(
    {
        "fan.you_moved": "You moved {cards} from fan {source} {where}",
        "fan.player_moved": "The player moved {cards} from fan {source} {where}",
        "fan.player": "Player",
    }
)


def describe(state: FanState, after: FanState, move: FanMove, observer: int | None) -> str:
    """``move``, made in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    taken = state.fans[move.source - 1][-move.count :]
    what = joined([card_name(card) for card in taken], "words.and_also")
    where: Phrase
    if move.target is None:
        where = Phrase("fan.to_foundation")
    else:
        onto = state.fans[move.target - 1]
        where = (
            Phrase("fan.onto", card=card_name(onto[-1]), target=move.target)
            if onto
            else Phrase("fan.to_empty", target=move.target)
        )
    code = "fan.you_moved" if observer == 0 else "fan.player_moved"
    words = Phrase(code, cards=what, source=move.source, where=where)
    ended = rules.ending_words(after)
    if ended is not None:
        return Phrase("words.sentence_end", words=words, ending=ended)
    return Phrase("words.sentence", words=words)


def highlight(move: FanMove) -> tuple[str, ...]:
    """The fan the cards left and the fan (or the foundations) they went to."""
    target = FOUNDATIONS if move.target is None else fan_ref(move.target)
    return (fan_ref(move.source), target)
