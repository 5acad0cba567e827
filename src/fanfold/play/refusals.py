"""A table's own refusals (:class:`~fanfold.core.errors.Refusal`): an action on a version that
is gone, out of turn, from a seat that is not there, after the end; a set-up's seats and seed."""

from __future__ import annotations

from fanfold.core.errors import templates

templates(
    {
        "table.stale": "the game has moved on (you acted on version {version}, it is now {now}); "
        "look again and decide",
        "table.over": "the game is over",
        "table.no_seat": "there is no seat {seat} at this table",
        "table.not_your_decision": "it is {decider}'s decision, not {seat}'s",
        # a front end asking a seat's agent out of turn (a caller's mistake), a ruling made
        # twice
        "table.agent_not_now": "{seat}'s agent does not decide now",
        "table.ruled_already": "the game is over already",
        # a game's set-up (fanfold.play.setup): the seats and the seed a front end gives
        "setup.too_many_seats": "{given} seats given but {game} has {count} here",
        "setup.seed_and_deal": "give a seed or a deal number, not both",
        "setup.negative_seed": "seeds and deal numbers are 0 or more, not {seed}",
        "setup.mixed_seats": "give seats as names or as Seat values, not both",
    }
)
