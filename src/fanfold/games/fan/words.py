"""Fan patience's moves told in words, and what they mark on the board.

A solitaire with every card face up: the sentence names the cards moved (suit symbols), the
fan they leave and where they go, and says when the move ends the deal.
"""

from __future__ import annotations

from fanfold.games.fan import rules
from fanfold.games.fan.actions import FanMove
from fanfold.games.fan.choices import card_name
from fanfold.games.fan.state import FanState
from fanfold.games.fan.view import FOUNDATIONS, fan_ref


def describe(state: FanState, after: FanState, move: FanMove, observer: int | None) -> str:
    """``move``, made in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    who = "You" if observer == 0 else "The player"
    taken = state.fans[move.source - 1][-move.count :]
    what = " and ".join(card_name(card) for card in taken)
    if move.target is None:
        where = "to its foundation"
    else:
        onto = state.fans[move.target - 1]
        where = (
            f"onto {card_name(onto[-1])} on fan {move.target}"
            if onto
            else f"to the empty fan {move.target}"
        )
    words = f"{who} moved {what} from fan {move.source} {where}"
    ended = rules.outcome(after)
    if ended is not None:
        reason = ended.reason
        return f"{words}. {reason[:1].upper()}{reason[1:]}."
    return words + "."


def highlight(move: FanMove) -> tuple[str, ...]:
    """The fan the cards left and the fan (or the foundations) they went to."""
    target = FOUNDATIONS if move.target is None else fan_ref(move.target)
    return (fan_ref(move.source), target)
