"""Fan Tan's actions told in words, and what they mark on the board.

Every Fan Tan action is public (a card played face up, a pass), so every watcher hears the same
sentence, from their own side ("You" for their own seat): the card with its suit symbol, the
row it starts, the chip a pass pays, and a player going out (which ends the hand). What a
sentence adds beyond the action comes from the public part of the state: the number of cards
in each hand and the pool.
"""

from __future__ import annotations

from fanfold.games.fantan.actions import FanTanAction, Play
from fanfold.games.fantan.cards import row_ranks
from fanfold.games.fantan.choices import card_name
from fanfold.games.fantan.rules import seat_name
from fanfold.games.fantan.state import FanTanState


def _held(state: FanTanState, seat: int) -> int:
    return int(state.hands[seat]).bit_count()


def describe(
    state: FanTanState, after: FanTanState, action: FanTanAction, observer: int | None
) -> str:
    """``action``, taken in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    seat = state.to_move
    you = observer == seat
    who = "You" if you else seat_name(seat)
    if isinstance(action, Play):
        card = action.card
        row = row_ranks(state.layout, card.suit.order, state.config.ace_high)
        words = f"{who} played {card_name(card)}"
        if not row:
            words += f", starting the {card.suit.symbol} row"
        if _held(state, seat) == 1:
            words += f": {'you go' if you else 'goes'} out, and the hand is over"
        return words + "."
    paid = after.pool - state.pool
    if paid > 0 and after.hand_number == state.hand_number:
        chips = f"{paid} chip{'s' if paid != 1 else ''}"
        return f"{who} passed (no card to play) and {'pay' if you else 'pays'} {chips} to the pool."
    return f"{who} passed (no card to play)."


def highlight(action: FanTanAction) -> tuple[str, ...]:
    """The card played, by its text as the view's layout lists it (a pass: nothing)."""
    return (str(action.card),) if isinstance(action, Play) else ()
