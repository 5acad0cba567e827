"""The play server's own refusals (:class:`~fanfold.core.errors.Refusal`: a code, its params
and the English sentence), which the pages word in their reader's language: at a table (a link
without the seat, a version that is gone, takebacks, draws and claims) and away from tables
(accounts and signing in, the limits on sign-ups, tables and passwords, opening a table, reports
and appeals, the chat, the engines' reviews, the moderators' own actions). :func:`refusal`
makes one, its templates registered."""

from __future__ import annotations

from fanfold.core.errors import ParamValue, Refusal, refusal_words, templates

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

templates(
    {
        "account.wrong": "wrong name or password",
        "account.sign_in_first": "sign in first",
        "account.closed": "the account {name} is closed by the site's moderators; to appeal, "
        "send them a note with your name and password at {page}",
        "account.taken": "the name {name} is taken; choose another",
        "account.bad_name": "a name has 3 to 20 letters, digits, '_', '-' or '.', and starts "
        "with a letter or a digit",
        "account.reserved": "the name {name} is reserved: it reads as {word}, {kind}; choose "
        "another",
        "account.password_length": "a password has {least} to {most} characters, not {count}",
        "limits.wait": "{refusal}; wait {wait} and try again",
        "limits.one_second": "{count} second",
        "limits.seconds": "{count} seconds",
        "limits.minutes": "{count} minutes",
        "limits.sign_ups": "too many accounts made from your address ({count} an hour)",
        "limits.tables": "too many tables opened from your address ({count} a minute)",
        "limits.passwords": "too many wrong passwords from your address",
        "limits.passwords_name": "too many wrong passwords for this name from your address",
        "table.seed_or_deal": "give a seed or a deal number, not both",
        "table.seat_count": "{game} with this variant has {count} seats, not {seats}",
        "table.open_needs_listed": "a seat open to anyone needs a table listed in the lobby",
        "table.rated_copy": "this game is being played at a rated table: it can be loaded, "
        "replayed and analysed once it is over",
        "table.not_owned": "the new table could not be owned; try again",
        "table.no_time_limit": "{game} takes no time limit: some of its decisions have no "
        "passive choice to play when the time runs out",
        "analysis.players_only": "only a player at this table may ask for an analysis",
        "analysis.rated": "a rated game is played without analysis until it is over",
        "report.sign_in": "sign in to report a player",
        "report.reason": "a report's reason is one of {reasons}, not {reason}",
        "report.note_length": "a report's note has at most {count} characters",
        "report.no_table": "no table {table}",
        "report.players_only": "only a player at the table may report one of its players",
        "report.no_seat": "the table has no seat {seat}",
        "report.guest_seat": "seat {seat} is not held by a signed-in player: only accounts are "
        "reported",
        "report.own_seat": "that seat is yours: report another player",
        "report.too_many": "you filed {count} reports in the last day, the most a player may "
        "({most} a day); a moderator reads them all, try again tomorrow",
        "report.again": "you reported seat {seat} at this table already (report {report}); a "
        "moderator will look at it",
        "appeal.not_closed": "this account is not closed: sign in as usual",
        "appeal.too_many": "{count} appeals were sent for this account in the last day, the "
        "most ({most} a day); the moderators read them all",
        # the chat's
        "chat.empty": "an empty line is not sent; write something first",
        "chat.too_long": "a line is at most {most} characters (this one has {count})",
        "chat.spectators_read": "spectators do not write in the players' room",
        "chat.presets_only": "at a rated table of three or more players only the preset phrases "
        "are said until the game ends",
        "chat.spectators_own": "the spectators' room is the spectators' own; write in the players'",
        "chat.sign_in": "sign in to write in the spectators' room; guests read it",
        "chat.no_line": "no such line of chat at this table",
        "chat.players_room": "only the table's players read (and report) its players' room",
        "chat.report_sign_in": "sign in as a spectator to report a spectators' line",
        "chat.reports_an_hour": "at most {count} reports an hour; thank you",
        "chat.reported": "you reported this line already; the moderators have it",
        "chat.table_lines": "at most {count} lines every {seconds} seconds at a table; wait a "
        "moment",
        "chat.site_lines": "at most {count} lines a minute on the whole site; wait a moment",
        # the engines' reviews'
        "reviews.rated_playing": "a rated game is reviewed once it is over: this one is still "
        "being played",
        "reviews.playing": "this game is still being played: its review opens once it is over",
        "reviews.variant": "no engine review for this {game} variant: reviews cover the variants "
        "the compiled search plays (Fan Tan: one hand, plain scoring, a fixed starting rank)",
        "reviews.none": "table {table} has no review",
        "reviews.table_gone": "the finished table could not be found",
        # the moderators' own actions
        "moderation.note_needed": "a note is needed: say why, for the log",
        "moderation.note_length": "a note has at most {most} characters, not {count}",
        "moderation.role": "a role is 'player' or 'moderator', not {role}",
        "moderation.moderator_already": "{name} is a moderator already",
        "moderation.player_already": "{name} is no moderator already",
        "moderation.closed": "{name} is closed: reopen the account first",
        "moderation.own_account": "a moderator does not close their own account",
        "moderation.revoke_first": "{name} is a moderator: revoke the role first (fanfold "
        "moderate revoke)",
        "moderation.not_closed": "{name} is not closed",
        "moderation.no_report": "no report {report}",
        "moderation.report_settled": "report {report} is settled already",
        "moderation.no_chat_report": "no chat report {report}",
        "moderation.chat_report_settled": "chat report {report} is settled already",
        "moderation.no_account": "no account is called {name}",
        # a table's options, as a request or the store gives them (fanfold.server.table_options)
        "options.speed": "a speed is one of {speeds}, not {value}",
        "options.control_has": "a {speed} time control has {wanted}",
        "options.control_seconds": "a time control's {name} is seconds from 0, not {value}",
        "options.control_object": "a time control is an object with a speed, not {value}",
        "options.control_extra": "a time control has no {names}",
        "options.takeback_version": "a takeback's version is a count from 0, not {value}",
        "options.takeback_object": "a takeback is an object of seat and version, not {value}",
        "options.variant": "a variant is a name of 1 to {most} characters, not {value}",
        "options.time_limit": "a time limit is 1 to {most} seconds, not {value}",
        "options.limit_or_clock": "a table has a time limit per decision or a clock, not both",
        "options.bot_level": "a bot at a rated table is a level ({levels}), not {value}",
        "options.open_once": "a seat is open once, not as in {seats}",
        "options.left": "who left is an account number or a guest, not {value}",
        "options.takebacks": "a seat's takebacks are a count from 0, not {value}",
        "options.true_or_false": "{name} is true or false, not {value}",
        "options.a_name": "{name} is a name, not {value}",
        "options.aids": "the aids used are names, not {value}",
        "options.ruling": "a ruling is an object, not {value}",
        "options.object": "a table's options are an object, not {value}",
        "options.open_list": "the open seats are a list, not {value}",
        "options.aids_list": "the aids used are a list, not {value}",
        "options.clocks": "a table's clocks are left, running, since; not {value}",
        "options.seat": "{what} names a seat number from 0, not {value}",
        "options.by_seat": "{name} is an object by seat, not {value}",
        "options.by_seat_number": "{name} is an object by seat number, not by {key}",
    }
)
# the store failing while a player waits (fanfold.server.live.storage_failure: what was being
# done is a refusal inside store.failed), or a table held by another server process
templates(
    {
        "store.failed": "{doing}: the store failed (error {error}); try again",
        "store.offer": "the offer could not be stored",
        "store.ending": "the ending could not be stored",
        "store.clock": "the clock waits for the store",
        "store.leave": "the seat could not be left",
        "store.takeback": "the moves could not be taken back",
        "store.takeback_ask": "the takeback could not be asked",
        "store.takeback_answer": "the answer could not be stored",
        "store.analysis": "the table could not note the analysis",
        "store.check": "the table could not be checked",
        "store.table": "the table could not be stored",
        "store.seat": "the seat could not be taken",
        "store.bot_seat": "the seat could not be given to a bot",
        "store.link": "the link could not be made",
        "store.rematch": "the rematch could not be stored",
        "store.move": "the move could not be stored",
        "store.read_table": "the table could not be read",
        "store.chat_read": "the chat could not be read",
        "store.chat_keep": "the line could not be kept",
        "store.chat_line": "the line could not be read",
        "store.report": "the report could not be kept",
        "store.chat_join": "the chat could not be joined",
        "store.waiting_games": "the games waiting for your move could not be read",
        "store.account_create": "the account could not be made",
        "store.account_read": "the account could not be read",
        "store.sign_out": "the session could not be ended",
        "store.tables": "the tables could not be listed",
        "store.open_tables": "the open tables could not be listed",
        "store.elsewhere": "this table is played by another server process just now; try again",
        "store.moved_on": "this table moved on in another server process; look again",
        "store.closed": "the connection to the store is closed",
        "store.ownership_closed": "the server's ownership connection to the store is closed",
        "store.stopping": "the server is stopping",
        "record.not_a_record": "this is not a fanfold record: {reason}",
        "record.seed_range": "the record's seed must be 0 or more, up to {digits} digits",
        "record.sent_twice": "send the record as 'record' (JSON) or 'text', one of them",
        "record.download_rated": "a rated game's record can be downloaded once the game is over",
        "record.replay_rated": "a rated game can be replayed once it is over",
        "record.replay_hidden": "a game with hidden cards can be replayed once it is over",
    }
)
# what is not there (fanfold.server.live.NotFoundError: a 404), and why a table's socket is
# closed (its close reason is the code, which the page words from its catalogue)
templates(
    {
        "found.table": "there is no table {table}",
        "found.player": "there is no player called {name}",
        "found.leaderboard": "no leaderboard called {name}; there are {names}",
        "found.bot_rating": "no bot {level} has a rating in {board} (the levels: {levels})",
        "found.replay_step": "the game has {count} actions; there is no step {step}",
        "found.seat": "there is no seat {seat}",
        "found.analysis": "this table offers no analysis called {name}",
        "found.no_lessons": "there are no lessons for {game}; lessons exist for: {games}",
        "found.lesson_step": "lesson {lesson} has {count} steps; there is no step {step}",
        "found.no_open_table": "no open table waits with these settings just now; open one and "
        "it will be listed",
        "close.moved": "the table moved to another server process; reconnect",
        "close.restarting": "the server process is restarting; reconnecting to another",
        "close.stopping": "the server is stopping; reconnecting once it is back",
    }
)
# what names a seat in a table's options (options.seat's what)
refusal_words(
    "a takeback",
    "a bot's level",
    "an open seat",
    "a seat whose person left",
    "a draw offer",
    "a takeback count",
)
# what a reserved name reads as (account.reserved's kind)
refusal_words(
    "a bot level", "an agent's name", "a role or a word the site uses", "the site's own name"
)


def refusal(code: str, /, **params: ParamValue) -> Refusal:
    """The server's refusal ``code`` with its ``params`` (its template registered here)."""
    return Refusal(code, **params)
