"""The HTTP answers about players: who is signed in (:class:`Me`), ratings and their history,
a player's and a bot level's page, a table's players and what it did to ratings, and the
daily deal's board (issue 31). Each is the ``response_model`` of its route."""

from __future__ import annotations

from typing import Any, Literal

from fanfold.server.protocol.base import Out


class Me(Out):
    """Who is signed in on this browser (``signed_in`` false: a guest)."""

    signed_in: bool
    id: int | None = None
    name: str | None = None


class SignedOut(Out):
    """Every session of an account ended."""

    signed_in: bool
    sessions_ended: int


class DailyLine(Out):
    """A win of the daily Fan deal by a signed-in player: ranked (``rank``) only without
    aids; ``aids`` lists the undo and analyses (``hint``, ``winnable``) the table used."""

    rank: int | None
    name: str
    moves: int
    aids: list[str]
    table: str


class DailyBoard(Out):
    """The daily deal's board: the date (UTC), the deal and its wins."""

    date: str
    deal: int
    lines: list[DailyLine]


class RatingLine(Out):
    """One player's rating in one family (a leaderboard's line, a profile's rating). A bot
    level (``bot``) names its ``level``; ``anchored`` says that its rating is the one arena
    runs measured (it has played no rated game yet); ``page`` is the player's page."""

    player: str
    name: str
    family: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool
    bot: bool
    level: str | None = None
    anchored: bool = False
    page: str | None = None


class RatingPoint(Out):
    """One rated game in a player's history."""

    table: str
    family: str
    before: int
    after: int
    uncertainty: int
    rank: int
    at: float


class Profile(Out):
    """A player's page: ratings, rating history, recent rated games, results against bots."""

    name: str
    ratings: list[RatingLine]
    history: list[RatingPoint]
    against_bots: list[dict[str, Any]]


class Named(Out):
    """Someone a profile names: an account (its name and page), a bot by its level (its
    level's page when the game was rated), or a guest (``a guest``, no page)."""

    name: str
    page: str | None
    bot: bool


class FamilyResults(Out):
    """A player's rated games in one family (a game, live or daily): won, lost, drawn, and
    the rating now; ``game`` names the game, ``speed`` says which of its two rows this is."""

    family: str
    title: str
    game: str
    speed: Literal["live", "daily"]
    games: int
    won: int
    lost: int
    drawn: int
    rating: int | None


class BestWin(Out):
    """A rated game won against an opponent rated ``rating`` before it."""

    table: str
    family: str
    opponent: Named
    rating: int
    at: float


class MetOpponent(Out):
    """An opponent met in rated games, and the results against them."""

    opponent: Named
    games: int
    won: int
    lost: int
    drawn: int


class FinishedGame(Out):
    """A finished game at a profile: the result, the others, the replay and the review (when
    the engines' review of it is done; else ``None``)."""

    table: str
    game: str
    rated: bool
    result: str
    at: float
    opponents: list[Named]
    replay: str
    review: str | None


class ProfileRecord(Out):
    """A player's record (``GET /api/players/NAME/record``): per family the rated games won,
    lost and drawn, the best wins, the most-met opponents, the recent finished games."""

    name: str
    families: list[FamilyResults]
    best_wins: list[BestWin]
    opponents: list[MetOpponent]
    recent: list[FinishedGame]


class SeatAccount(Out):
    """A seat held by a signed-in player: the account's name and its page."""

    seat: int
    name: str
    page: str


class TablePlayers(Out):
    """The signed-in players at a table, by seat (``GET /api/tables/ID/players``); a seat of a
    guest, a bot or nobody yet is not listed."""

    table: str
    seats: list[SeatAccount]


class RatingChange(Out):
    """One seat's rating change in a rated game (its player's, from before to after)."""

    seat: int
    name: str
    bot: bool
    page: str
    before: int
    after: int
    uncertainty: int


class TableRatings(Out):
    """What a finished table did to ratings (``GET /api/tables/ID/ratings``): ``rated`` is
    whether it was rated, ``changes`` each moved player's change, by seat (a bot level at
    several seats moves not)."""

    table: str
    family: str | None
    rated: bool
    changes: list[RatingChange]


class Measured(Out):
    """How a bot level's starting rating was measured: arena runs of the levels against each
    other (``games`` of them for this level), rated with the server's model by ``command``."""

    rating: int
    uncertainty: int
    games: int
    command: str


class PersonResult(Out):
    """A bot level's rated games against one person, from the bot's side."""

    name: str
    page: str
    won: int
    lost: int
    drawn: int


class BotProfile(Out):
    """A bot level's page in one family (``GET /api/bots/FAMILY/LEVEL``): its rating, how it
    was measured (``null`` for a level never measured), its rating history from rated games
    against people and its results against each person."""

    name: str
    family: str
    level: str
    rating: RatingLine
    measured: Measured | None
    history: list[RatingPoint]
    against_people: list[PersonResult]


class BotRating(Out):
    """A bot level's rating in one family: the one rated games gave it, or its measured
    starting rating (``measured``: either of those, not the first rating of a newcomer)."""

    level: str
    rating: int
    uncertainty: int
    games: int
    provisional: bool
    measured: bool


class BotRatings(Out):
    """The bot levels' ratings for a game and variant (``GET /api/bot-ratings``); ``family``
    is ``null`` (and ``levels`` empty) for a game with no ratings (Fan patience)."""

    family: str | None
    levels: list[BotRating]


__all__ = [
    "BotProfile",
    "BotRating",
    "BotRatings",
    "DailyBoard",
    "DailyLine",
    "Me",
    "Measured",
    "PersonResult",
    "Profile",
    "RatingChange",
    "RatingLine",
    "RatingPoint",
    "SeatAccount",
    "SignedOut",
    "TablePlayers",
    "TableRatings",
]
