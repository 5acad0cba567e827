"""The play server's own refusals at a table (:class:`~fanfold.core.errors.Refusal`: a code,
its params and the English sentence), which the table page words in its reader's language:
a link without the seat, a version that is gone, takebacks, draws and claims."""

from __future__ import annotations

from fanfold.core.errors import templates

templates(
    {
        "server.no_seat_held": "this link holds no seat at this table",
        "server.not_that_seat": "this link does not hold that seat",
        "server.not_seat_of": "this link does not hold {name}'s seat",
        "server.stale": "the game has moved on (you saw version {version}, it is now {now}); "
        "look again",
        "server.over_already": "the game is over already",
        "server.claim_wait": "the win can be claimed once the other side has left: none of its "
        "players connected for {seconds} seconds",
        "server.claim_wait_left": "the win can be claimed once the other side has left: none of "
        "its players connected for {seconds} seconds ({left} s to go)",
        "server.no_draws": "{game} has no drawn games: no draw to offer",
        "server.leave_by_resigning": "a game of two sides is left by resigning it (or claiming "
        "the win when the other side left)",
        "server.bot_seat": "{name} is a bot's seat",
        "takeback.rated": "a rated game takes no takebacks: every move stands",
        "takeback.over": "the game is over: there is nothing to take back",
        "takeback.hidden": "{game} has hidden cards: a move taken back would be played again "
        "knowing what it showed, so moves stand",
        "takeback.clock": "a game on the clock takes no takebacks: its times would not go back",
        "takeback.two_people": "a takeback is asked of the other player, at a table of two "
        "people; against a bot, use undo where the table allows it",
        "takeback.one_link": "a takeback is asked of another person holding the other seat; at "
        "a table where one link plays both seats, use undo",
        "takeback.yours_waiting": "your takeback is waiting for its answer: one at a time",
        "takeback.waiting": "{name}'s takeback is waiting for its answer: one at a time",
        "takeback.no_move": "you have not moved yet: there is no move of yours to take back",
        "takeback.used": "each player may ask for {limit} takebacks a game: yours are used",
        "takeback.none_waiting": "no takeback is waiting for an answer (a move played since lets "
        "it lapse)",
        "takeback.not_yours": "the other player answers your takeback, not you",
        "takeback.asker_no_move": "there is no move of the asker's to take back",
    }
)
