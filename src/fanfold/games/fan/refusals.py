"""Fan's refusals: each illegal move's code and English template (:class:`~fanfold.core.errors.
Refusal`), worded on the play server's page from the same template translated."""

from __future__ import annotations

from fanfold.core.errors import refusal_words, templates

templates(
    {
        "fan.won": "the game is over: every card is on its foundation",
        "fan.lost": "the game is over (no legal move is left): {reason}",
        "fan.no_such_fan": "there is no fan {fan}: the fans are numbered 1 to {fans}",
        "fan.empty": "fan {fan} is empty",
        "fan.no_cards": "a move takes at least one card",
        "fan.one_at_a_time": "only one card moves at a time (sequence moves are a variant: "
        "--variant sequences)",
        "fan.too_few": "fan {fan} holds only {count} card(s)",
        "fan.not_a_run": "the top {count} cards of fan {fan} are not one suit in descending "
        "order, so they cannot move together",
        "fan.home_one_at_a_time": "cards go to the foundations one at a time",
        "fan.not_next_home": "{card} cannot go to the foundations: the {suit} foundation needs "
        "{needed} next",
        "fan.same_fan": "a card must move to another fan",
        "fan.not_down_by_suit": "{card} cannot go on {below}: fans are built down by suit",
        "fan.king_only": "only a king may fill an empty fan, and {card} is not a king",
        "fan.empty_to_empty": "fan {fan} would just move to another empty fan: that changes "
        "nothing",
        "fan.deal_number": "deal numbers are 0 or more, not {deal}",
    }
)
refusal_words("clubs", "diamonds", "hearts", "spades")
