"""Fan Tan's actions told in words, and what they mark on the board.

Every Fan Tan action is public (a card played face up, a pass), so every watcher hears the same
sentence, from their own side ("You" for their own seat): the card with its suit symbol, the
row it starts, the chip a pass pays, and a player going out (which ends the hand). What a
sentence adds beyond the action comes from the public part of the state: the number of cards
in each hand and the pool.
"""

from __future__ import annotations

from fanfold.core.phrases import Phrase, PhraseParam, phrases
from fanfold.games.fantan.actions import FanTanAction, Play
from fanfold.games.fantan.cards import row_ranks
from fanfold.games.fantan.choices import card_name
from fanfold.games.fantan.rules import seat_words
from fanfold.games.fantan.state import FanTanState

phrases(
    {
        "fantan.you_played": "You played {card}{start}{out}.",
        "fantan.played": "{seat} played {card}{start}{out}.",
        "fantan.you_go_out": ": you go out, and the hand is over",
        "fantan.goes_out": ": goes out, and the hand is over",
        "fantan.you_passed": "You passed (no card to play).",
        "fantan.passed": "{seat} passed (no card to play).",
        "fantan.you_passed_paying_one": (
            "You passed (no card to play) and pay {chips} chip to the pool."
        ),
        "fantan.passed_paying_one": (
            "{seat} passed (no card to play) and pays {chips} chip to the pool."
        ),
        "fantan.you_passed_paying": (
            "You passed (no card to play) and pay {chips} chips to the pool."
        ),
        "fantan.passed_paying": (
            "{seat} passed (no card to play) and pays {chips} chips to the pool."
        ),
    }
)


def _held(state: FanTanState, seat: int) -> int:
    return int(state.hands[seat]).bit_count()


def describe(
    state: FanTanState, after: FanTanState, action: FanTanAction, observer: int | None
) -> str:
    """``action``, taken in ``state`` (leading to ``after``), in a sentence for ``observer``."""
    seat = state.to_move
    you = observer == seat
    who = seat_words(seat)
    if isinstance(action, Play):
        card = action.card
        row = row_ranks(state.layout, card.suit.order, state.config.ace_high)
        start: PhraseParam = "" if row else Phrase("fantan.starting", suit=card.suit.symbol)
        out: PhraseParam = ""
        if _held(state, seat) == 1:
            out = Phrase("fantan.you_go_out" if you else "fantan.goes_out")
        if you:
            return Phrase("fantan.you_played", card=card_name(card), start=start, out=out)
        return Phrase("fantan.played", seat=who, card=card_name(card), start=start, out=out)
    paid = after.pool - state.pool
    if paid > 0 and after.hand_number == state.hand_number:
        code = "fantan.you_passed_paying" if you else "fantan.passed_paying"
        if paid == 1:
            code += "_one"
        return Phrase(code, chips=paid) if you else Phrase(code, seat=who, chips=paid)
    return Phrase("fantan.you_passed") if you else Phrase("fantan.passed", seat=who)


def highlight(action: FanTanAction) -> tuple[str, ...]:
    """The card played, by its text as the view's layout lists it (a pass: nothing)."""
    return (str(action.card),) if isinstance(action, Play) else ()
