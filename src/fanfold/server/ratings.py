"""Ratings: OpenSkill's Plackett-Luce model (Weng and Lin, 2011; the ``openskill`` package)
for every game of 2 to 8 seats, partnerships included, kept per game family.

The model (:data:`MODEL`): each player's skill is a normal distribution, mean ``mu`` and
deviation ``sigma``, starting at ``mu`` 1500 and ``sigma`` 500 (OpenSkill's defaults, 25 and
25/3, times 60); ``beta``, the spread of one game's performance, is 250 (``sigma / 2``), and
``tau``, the deviation added before each game so that a rating keeps moving, is 5
(``mu / 300``). The rating shown is ``mu``, with ``2 * sigma`` as its uncertainty; a rating is
provisional until :data:`PROVISIONAL_GAMES` rated games.

A game family (:func:`family`) is a game, or for Fano its edition (``fano-classic``,
``fano-trionfey``): the variants within one play alike enough to share a rating. The ranks come
from the outcome's returns (higher is better; equal returns share a rank, a draw ranks all
equal); partners (Trionfey's partnerships, :func:`teams`) are one team in the model, ranked by
their best return, and move together.

Which tables are rated (:func:`rated_game`): those opened rated and fair (a deal drawn by the
server, no undo, no chosen deal or position, not a practice table) whose every person's seat is
held by a signed-in account, each account at one seat. Bots at a rated table are players too,
one rating per game family and level (``bot:GAME:LEVEL``), starting from its measured strength
(:func:`bot_anchors`: arena runs of the levels against each other, rated with this model by
``scripts/rate_bots.py``) rather than the first rating; a level that sits at several seats
of one game plays with its rating there but is not moved by that game. A level's row that no
rated game has moved yet reads as its measured rating as the server has it now
(:func:`current`), so the leaderboards show every measured level from the start, and measuring
the levels again moves those that have not played.

The update (:meth:`RatedGame.apply`) runs in the transaction that stores the game's last action
(:attr:`fanfold.server.store.AppendRow.on_end`): a game is rated exactly when its end is
stored, and ``rated_games`` (one row per table) makes a second try change nothing. The rating
rows are locked in one order (by player key) so that two processes ending games of the same
players wait for each other instead of deadlocking or losing an update.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from fanfold.agents.levels import LEVELS as LEVEL_NAMES
from fanfold.core.config import GameConfig, JSONObject
from fanfold.core.game import Termination
from fanfold.core.registry import AnyGame
from fanfold.play.table import Table
from fanfold.server.accounts import SignInError
from fanfold.server.fairplay import flag_shared_origins, repeat_weight
from fanfold.server.live import BadRequestError
from fanfold.server.rating_anchors import (
    BOT_RATINGS,
    DAILY_FAMILY,
    MU,
    SIGMA,
    Anchor,
    AnchorError,
    anchor_runs,
    anchored_in,
    bot_anchors,
    current,
    first_rating,
    live_family,
    read_anchor_runs,
    read_anchors,
)
from fanfold.server.store import Transaction
from fanfold.server.store.protocols import RatingStore
from fanfold.server.store.rating_store import SqlRatings
from fanfold.server.store.records import RatingChange
from fanfold.server.table_options import TableOptions

#: OpenSkill's Plackett-Luce model on fanfold's scale (see the module's text).
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)
#: Rated games before a rating stops being provisional.
PROVISIONAL_GAMES = 10
#: The option of a rated table, and of its bots' levels (seat number as text: level).
RATED, LEVELS = "rated", "levels"
#: A person is listed on a leaderboard after this many rated games of the family, against
#: this many different opponents (people or bot levels); bot levels are listed from the start.
LISTED_GAMES, LISTED_OPPONENTS = 10, 5


def listed_people(tx: Transaction, family: str, keys: Sequence[str]) -> set[str]:
    """Which of the people ``keys`` (``a:ID``) a leaderboard of ``family`` lists: those with
    :data:`LISTED_GAMES` rated games of it against :data:`LISTED_OPPONENTS` different
    opponents, so that a name at the top was earned against a field, not one friend."""
    people = [key for key in keys if key.startswith("a:")]
    if not people:
        return set()
    data: RatingStore = SqlRatings.of(tx)
    return {
        player
        for player, (games, opponents) in data.opponents(tx, family, people).items()
        if games >= LISTED_GAMES and opponents >= LISTED_OPPONENTS
    }


#: The option of the seats whose person left the game before its end (seat number as text:
#: the account, ``None`` for a guest), in the order they left; a bot plays on at each.
LEFT = "left"


def running_rated(options: TableOptions, table: Table) -> bool:
    """Whether ``table`` (with its table ``options``) is a rated game still being played:
    until it ends, nobody gets its record, its replay or an analysis of it."""
    return options.rated and not table.is_over


def family(game: AnyGame, config: GameConfig, speed: str | None = None) -> str:
    """The rating family of a game and variant (:meth:`Game.rating_family`: the game's name,
    or ``fano-EDITION``), and ``-daily`` after it for the daily speed."""
    base = game.rating_family(config)
    return base + DAILY_FAMILY if speed == "daily" else base


def teams(game: AnyGame, config: GameConfig, seats: int) -> list[tuple[int, ...]]:
    """The seats in teams (:meth:`Game.teams`): Fano's partnerships, one seat a team in every
    other game."""
    grouped = game.teams(config)
    if sum(len(team) for team in grouped) != seats:
        raise ValueError(f"{seats} seats, but the game's teams are {grouped}")
    return grouped


def ranks(returns: Sequence[float], grouped: Sequence[tuple[int, ...]]) -> list[int]:
    """Each team's rank (1: best) from the seats' returns, a team by its best member; equal
    results share a rank."""
    best = [max(returns[seat] for seat in team) for team in grouped]
    return [1 + sum(1 for other in best if other > mine) for mine in best]


def account_key(account_id: int) -> str:
    """A signed-in player's key in the ratings."""
    return f"a:{account_id}"


def bot_key(game: AnyGame, level: str) -> str:
    """A bot level's key in the ratings of ``game``."""
    return f"bot:{game.name}:{level}"


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as players read it."""
    return {
        "rating": round(mu),
        "uncertainty": round(2 * sigma),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
    }


@dataclass(frozen=True)
class RatedGame:
    """A finished rated game, ready to rate: its table, family, each seat's player key, the
    teams and the returns."""

    table_id: str
    game: str
    family: str
    players: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    returns: tuple[float, ...]

    def apply(self, tx: Transaction) -> bool:
        """Rate the game in the caller's transaction; returns False (and changes nothing)
        when it was rated already. A player rated by this table already (one who left it:
        :meth:`apply_leaver`) keeps the rank the game gives them but is not moved again."""
        now = time.time()
        data: RatingStore = SqlRatings.of(tx)
        if not data.mark_rated(tx, self.table_id, self.game, self.family, now):
            return False
        return self._rate(data, tx, now, moved=None)

    def apply_leaver(self, tx: Transaction, seat: int) -> bool:
        """Rate the player of ``seat``, who leaves the game before its end, in the caller's
        transaction: ranked last (its team's returns are the game's lowest), everyone else
        as they stand (the returns given); nobody else moves now. Returns False (changing
        nothing) when that player was rated by this table already."""
        data: RatingStore = SqlRatings.of(tx)
        return self._rate(data, tx, time.time(), moved=self.players[seat])

    def _rate(self, data: RatingStore, tx: Transaction, now: float, moved: str | None) -> bool:
        """Rate the game: every player (``moved`` ``None``), or ``moved`` alone."""
        done = data.rated_by(tx, self.table_id)
        if moved is not None and moved in done:
            return False
        keys = sorted(set(self.players))
        rows = data.lock_ratings(
            tx, self.family, {key: first_rating(self.family, key) for key in keys}, now
        )
        before = {
            key: current(self.family, key, row.mu, row.sigma, row.games)
            for key, row in rows.items()
        }
        team_ranks = ranks(self.returns, self.teams)
        rated = MODEL.rate(
            [[MODEL.rating(*before[self.players[seat]]) for seat in team] for team in self.teams],
            ranks=[float(rank) for rank in team_ranks],
        )
        seats_of = {key: [n for n, k in enumerate(self.players) if k == key] for key in keys}
        changes: list[RatingChange] = []
        for team_number, (team, new_team) in enumerate(zip(self.teams, rated, strict=True)):
            for seat, new in zip(team, new_team, strict=True):
                key = self.players[seat]
                if len(seats_of[key]) > 1:
                    continue  # a bot level at several seats: not moved by this game
                if key in done or (moved is not None and key != moved):
                    continue  # rated by this table already (it left), or not moved now
                mu, sigma = before[key]
                # Repeated results with the same people within a day move a rating less.
                weight = repeat_weight(tx, key, self.players, self.table_id, now)
                changes.append(
                    RatingChange(
                        rated_table=self.table_id,
                        player=key,
                        family=self.family,
                        seat=seat,
                        team=team_number,
                        rank=team_ranks[team_number],
                        mu_before=mu,
                        sigma_before=sigma,
                        mu_after=mu + weight * (float(new.mu) - mu),
                        sigma_after=sigma + weight * (float(new.sigma) - sigma),
                        at=now,
                        weight=weight,
                    )
                )
        data.record_changes(tx, changes, now)
        if moved is None:  # the game's end: accounts that share an address or a device
            flag_shared_origins(tx, self.table_id, now)
        return True


def check_rated(
    game: AnyGame, seats: Sequence[str], *, account: int | None, chosen: bool, practice: bool
) -> dict[int, str]:
    """Check that a table asked for as rated can be one; returns its bots' levels by seat.

    A rated table is opened by a signed-in player who sits at one seat (``"you"``), every
    other person a friend who signs in to take the seat (or anyone signed in, at an open
    seat), every bot a level (``easy``,
    ``medium``, ``hard``); its deal is drawn by the server, and it is no practice table.

    Raises:
        SignInError: the creator is not signed in.
        BadRequestError: anything else that keeps the table from being rated, said.
    """
    if account is None:
        raise SignInError("sign in to open a rated table")
    if len(seats) < 2:
        raise BadRequestError(f"{game.title} with one seat is not rated")
    if chosen:
        raise BadRequestError(
            "a rated game's deal is drawn by the server: give no seed or position"
        )
    if practice:
        raise BadRequestError("a practice table is never rated")
    kinds = [seat.strip().lower() for seat in seats]
    if kinds.count("you") != 1 or any(kind in ("hotseat", "human") for kind in kinds):
        raise BadRequestError(
            "at a rated table you sit at one seat and every other person is a friend who "
            "signs in to take a seat (no hot-seat)"
        )
    levels: dict[int, str] = {}
    for seat, kind in enumerate(kinds):
        if kind in ("you", "friend", "open"):
            continue
        if kind not in LEVEL_NAMES:
            raise BadRequestError(
                f"a bot at a rated table is a level ({', '.join(LEVEL_NAMES)}), not {kind!r}"
            )
        levels[seat] = kind
    return levels


def check_rated_seat(accounts: Sequence[int | None], account: int | None) -> None:
    """Check that ``account`` may take a seat at a rated table whose seats are held by
    ``accounts``.

    Raises:
        SignInError: no account, or one that holds a seat there already.
    """
    if account is None:
        raise SignInError("a rated table's seats are for signed-in players: sign in first")
    if account in accounts:
        raise SignInError("you hold a seat at this rated table already: one seat each")


def rated_game(
    table_id: str,
    game: AnyGame,
    config: GameConfig,
    options: TableOptions,
    players: Sequence[str],
    accounts: Sequence[int | None],
    outcome: JSONObject,
) -> RatedGame | None:
    """The game to rate at a finished table, or ``None`` when the table changes no rating:
    not opened rated, not fair, or a person's seat held by no account (or by an account that
    holds another seat).

    Args:
        players: each seat's player (``"human"`` or a bot's agent text).
        accounts: the account holding each seat.
        outcome: the outcome's JSON (its ``returns``).
    """
    if not options.rated or not options.fair or options.practice:
        return None
    if outcome.get("termination") == Termination.ABORTED:
        return None  # called off before every side had moved: no result
    gone = options.left or {}
    keys: list[str] = []
    for seat, (player, account) in enumerate(zip(players, accounts, strict=True)):
        left = gone.get(seat)
        if isinstance(left, int):  # a person who left, ranked last; a bot played on
            keys.append(account_key(left))
        elif player == "human":
            if account is None:
                return None
            keys.append(account_key(account))
        else:
            level = options.levels.get(seat)
            if level is None:
                return None
            keys.append(bot_key(game, level))
    people = [key for key in keys if key.startswith("a:")]
    if not people or len(set(people)) != len(people):
        return None
    returns = outcome.get("returns")
    if not isinstance(returns, list) or len(returns) != len(players):
        return None
    if gone:  # those who left rank below everyone who stayed, the first to leave lowest
        floor = min(float(value) for value in returns)  # type: ignore[arg-type]
        order = list(gone)
        returns = [
            floor - 1 - (len(order) - order.index(n)) if n in order else value
            for n, value in enumerate(returns)
        ]
    return RatedGame(
        table_id,
        game.name,
        family(game, config, options.time_control.speed if options.time_control else None),
        tuple(keys),
        tuple(teams(game, config, len(players))),
        tuple(float(value) for value in returns),  # type: ignore[arg-type]
    )


__all__ = [
    "BOT_RATINGS",
    "DAILY_FAMILY",
    "LEFT",
    "LEVELS",
    "LISTED_GAMES",
    "LISTED_OPPONENTS",
    "MODEL",
    "MU",
    "PROVISIONAL_GAMES",
    "RATED",
    "SIGMA",
    "Anchor",
    "AnchorError",
    "RatedGame",
    "account_key",
    "anchor_runs",
    "anchored_in",
    "bot_anchors",
    "bot_key",
    "check_rated",
    "check_rated_seat",
    "current",
    "family",
    "first_rating",
    "listed_people",
    "live_family",
    "ranks",
    "rated_game",
    "read_anchor_runs",
    "read_anchors",
    "running_rated",
    "shown",
    "teams",
]
