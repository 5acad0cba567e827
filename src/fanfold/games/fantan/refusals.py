"""Fan Tan's refusals: each illegal action's code and English template
(:class:`~fanfold.core.errors.Refusal`), worded on the play server's page from the same template
translated."""

from __future__ import annotations

from fanfold.core.errors import refusal_words, templates

templates(
    {
        "fantan.over": "the game is over ({reason})",
        "fantan.must_play": "you may not pass while you can play a card: you can play {cards}",
        "fantan.on_layout": "{card} is already on the layout",
        "fantan.not_held": "you do not hold {card}",
        "fantan.opening": "the first card of the hand must be the {card}",
        "fantan.not_now": "{card} cannot be played now",
        "fantan.row_start": "the {suit} row must start with its {rank}",
        "fantan.up_first": "{card} cannot be played yet: the {suit} row must gain its {rank} "
        "before it can go down",
        "fantan.not_at_end": "{card} cannot be played: it must be next to the end of the {suit} "
        "row",
        "fantan.not_at_end_one": "{card} cannot be played: it must be next to the end of the "
        "{suit} row (playable there: {end})",
        "fantan.not_at_end_two": "{card} cannot be played: it must be next to the end of the "
        "{suit} row (playable there: {low} and {high})",
    }
)
refusal_words("clubs", "diamonds", "hearts", "spades")
