"""A table's own refusals (:class:`~fanfold.core.errors.Refusal`): an action on a version that
is gone, out of turn, from a seat that is not there, after the end."""

from __future__ import annotations

from fanfold.core.errors import templates

templates(
    {
        "table.stale": "the game has moved on (you acted on version {version}, it is now {now}); "
        "look again and decide",
        "table.over": "the game is over",
        "table.no_seat": "there is no seat {seat} at this table",
        "table.not_your_decision": "it is {decider}'s decision, not {seat}'s",
    }
)
