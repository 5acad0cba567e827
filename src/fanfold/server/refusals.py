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
        "seat.used_invitation": "this link opens no seat: it was used already (a seat is claimed "
        "once) or replaced by a new one; ask the table's creator for a new link",
        "seat.over": "the game is over: nobody can join it",
        "seat.none_open": "this table has no open seat left; look for another",
        "seat.taken": "this seat was taken just now; look for another",
        "seat.creator_gives": "only the table's creator may give a seat to a bot",
        "seat.not_open": "seat {seat} is not an open seat still waiting for a player",
        "seat.game_over": "the game is over",
        "seat.bot_level": "a bot is given by its level ({levels})",
        "seat.open_wait": "an open seat waits {seconds} seconds for a player before it can go to "
        "a bot ({left} s left)",
        "seat.creator_invites": "only the table's creator may invite someone to a seat",
        "seat.no_such_seat": "this table has {count} seats; there is no seat {seat}",
        "seat.not_friends": "{name}'s seat is not a friend's seat",
        "seat.rated_stays": "{name}'s seat at a rated table stays its player's: it is never given "
        "to someone else",
        "seat.still_here": "{name}'s player is still at the table (a seat can be given to someone "
        "else {seconds} seconds after its player left)",
        "seat.crowded": "this table has as many spectators as it takes ({count}); try again later",
        "rematch.players_only": "only a player at this table may ask for a rematch",
        "rematch.not_over": "the game is not over: a rematch follows a finished game",
        "takeback.rated": "a rated game takes no takebacks: every move stands",
        "takeback.over": "the game is over: there is nothing to take back",
        "takeback.hidden": "{game} has hidden cards: a move taken back would be played again "
        "knowing what it showed, so moves stand",
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
