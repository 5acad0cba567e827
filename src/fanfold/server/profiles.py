"""What a player's profile shows beyond the ratings (:func:`fanfold.server.leaderboards.profile`
has those): per game and speed (a rating family: the game at live speeds, or daily) the rated
games won, lost and drawn, a row each, the live one first; the best wins (the highest-rated
opponents beaten in rated games); the most-met opponents with the results against each; and
the recent finished games, rated or not, with links to their replay and, once done, their
engine review.

Finished games only: a running game (its cards, its position) is never read here. Bots are
named by their level (``Easy bot``; another bot by its agent's name, ``Bot (random)``),
signed-in players by their account's name, guests only as ``a guest``, and an account the
moderators closed only as ``a closed account`` (in the best wins, the most met and the recent
games alike).

Results: against one opponent, a game is won when ranked above them, lost below, drawn at the
same rank (partners are not opponents). In a family or at a table, a game is won when ranked
first above someone, drawn when every player ranks alike, and lost otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fanfold.core.config import JSONObject
from fanfold.core.errors import FanfoldError
from fanfold.core.game import Termination
from fanfold.core.registry import get_game
from fanfold.play.review import REVIEW_VERSION
from fanfold.server.leaderboards import FAMILIES, bot_name, bot_page
from fanfold.server.live import NotFoundError
from fanfold.server.rating_anchors import live_family
from fanfold.server.ratings import RATED, ranks, teams
from fanfold.server.refusals import refusal
from fanfold.server.store import Store
from fanfold.server.store.profile_reads import FinishedSeat, ProfileReads, Results
from fanfold.server.store.protocols import ProfileStore, RatingStore
from fanfold.server.store.rating_store import SqlRatings
from fanfold.server.waiting import LEVEL_WORDS

#: Finished games, best wins and most-met opponents a profile lists at most.
RECENT, BEST_WINS, MET = 20, 5, 10
#: How a guest is named on someone else's profile.
GUEST = "a guest"
#: How a closed account is named on someone else's profile.
CLOSED = "a closed account"


def _person(name: str) -> dict[str, Any]:
    return {"name": name, "page": f"/players/{name}", "bot": False}


def _closed() -> dict[str, Any]:
    return {"name": CLOSED, "page": None, "bot": False}


def _opponent(key: str, family: str, names: dict[str, str], closed: set[str]) -> dict[str, Any]:
    """A rating key as the profile names it: an account's name (a closed one as
    :data:`CLOSED`), or a bot's level."""
    if key.startswith("bot:"):
        return {"name": bot_name(key), "page": bot_page(family, key), "bot": True}
    if key in closed:
        return _closed()
    return _person(names.get(key, GUEST))


def _speed_row(results: Results, rating: int | None) -> dict[str, Any]:
    """A row of results: the family's game and speed (``live`` or ``daily``)."""
    live = live_family(results.family)
    return {
        "family": results.family,
        "title": FAMILIES.get(results.family, results.family),
        "game": FAMILIES.get(live, live),
        "speed": "live" if live == results.family else "daily",
        **_counts(results),
        "rating": rating,
    }


def _counts(results: Results) -> dict[str, int]:
    return {
        "games": results.games,
        "won": results.won,
        "lost": results.lost,
        "drawn": results.drawn,
    }


def verdict(returns: Sequence[float], grouped: Sequence[tuple[int, ...]], seat: int) -> str:
    """``won``, ``lost`` or ``drawn`` for ``seat`` at a finished table (see the module); a
    solitaire is won with a positive return, else lost."""
    if len(returns) == 1:
        return "won" if returns[0] > 0 else "lost"
    placed = ranks(returns, grouped)
    mine = next(placed[n] for n, team in enumerate(grouped) if seat in team)
    if min(placed) == max(placed):
        return "drawn"
    return "won" if mine == 1 else "lost"


def _leavers_last(returns: list[float], left: object) -> list[float]:
    """``returns`` with the seats whose players left the table (the table's ``left`` option:
    a bot played on for them) ranked below every other, as their rating ranked them when
    they left, whatever the bot then made of the seat."""
    if not isinstance(left, dict) or not left or not returns:
        return returns
    gone = {int(seat) for seat in left if str(seat).isdigit()}
    floor = min(returns) - 1.0
    return [floor if seat in gone else value for seat, value in enumerate(returns)]


def _seat_name(
    player: str, account: int | None, names: dict[int, str], closed: set[int]
) -> dict[str, Any]:
    """Another seat of a finished table as the profile names it (a bot as the lobby says it:
    its level, never the agent's settings; a closed account as :data:`CLOSED`)."""
    if account is not None and account in closed:
        return _closed()
    if account is not None and account in names:
        return _person(names[account])
    if player == "human":
        return {"name": GUEST, "page": None, "bot": False}
    level = player.split("(")[0]
    return {"name": LEVEL_WORDS.get(level, f"Bot ({level})"), "page": None, "bot": True}


def _finished(
    held: FinishedSeat, me: int, names: dict[int, str], closed: set[int], reviewed: set[str]
) -> dict[str, Any]:
    """A finished game of the profile's player (account ``me``): the game, the result, the
    others (not the player's partners, nor the player's own other seats), links."""
    try:
        game = get_game(held.game)
        config = game.config_from_json(held.config)
        title = str(game.title)
        grouped = [tuple(team) for team in teams(game, config, len(held.seats))]
    except (FanfoldError, ValueError, KeyError, TypeError):
        title = held.game
        grouped = [(seat,) for seat, _player, _account in held.seats]
    outcome: JSONObject = held.outcome
    returns = outcome.get("returns")
    if outcome.get("termination") == Termination.ABORTED or not isinstance(returns, list):
        result = "called off"
    else:
        values = [float(value) for value in returns]  # type: ignore[arg-type]
        result = verdict(_leavers_last(values, held.options.get("left")), grouped, held.seat)
    partners = next((team for team in grouped if held.seat in team), (held.seat,))
    return {
        "table": held.table_id,
        "game": title,
        "rated": bool(held.options.get(RATED)),
        "result": result,
        "at": held.updated,
        "opponents": [
            _seat_name(player, account, names, closed)
            for seat, player, account in held.seats
            if seat not in partners and account != me
        ],
        "replay": f"/table/{held.table_id}?replay=1",
        "review": f"/table/{held.table_id}/review" if held.table_id in reviewed else None,
    }


def _first_seats(held: list[FinishedSeat]) -> list[FinishedSeat]:
    """One line a table: an account holding several seats of one table (one browser playing
    both sides) is listed once, at its first seat."""
    seen: set[str] = set()
    kept = []
    for seat in held:
        if seat.table_id not in seen:
            seen.add(seat.table_id)
            kept.append(seat)
    return kept


def record(store: Store, name: str) -> dict[str, Any]:
    """The profile's record of the player called ``name`` (``ProfileRecord``): results per
    family with the rating now, best wins, most-met opponents, recent finished games.

    Raises:
        NotFoundError: no account by that name.
    """
    data: ProfileStore = ProfileReads(store.engine)
    ratings: RatingStore = SqlRatings(store.engine)
    with data.reading() as tx:
        found = ratings.account_named(tx, name.lower())
        if found is None:
            raise NotFoundError(refusal("found.player", name=repr(name)))
        number, account_name = found
        key = f"a:{number}"
        families = data.family_results(tx, key)
        rows = {row.family: row for row in ratings.player_ratings(tx, key)}
        wins = data.best_wins(tx, key, BEST_WINS)
        met = data.met_opponents(tx, key, MET)
        held = data.finished_seats(tx, number, RECENT)
        reviewed = data.reviewed(tx, [seat.table_id for seat in held], REVIEW_VERSION)
        keys = [*(win.opponent for win in wins), *(one.key for one in met)]
        people = {int(k[2:]) for k in keys if k.startswith("a:")}
        people |= {acc for seat in held for _s, _p, acc in seat.seats if acc is not None}
        closed = data.closed_among(tx, people)
        names = ratings.account_names(tx, people - closed)  # a closed account is not named
    keyed = {f"a:{n}": text for n, text in names.items()}
    closed_keys = {f"a:{n}" for n in closed}
    ordered = sorted(families, key=lambda one: (live_family(one.family), one.family))
    return {
        "name": account_name,
        "families": [
            _speed_row(one, round(rows[one.family].mu) if one.family in rows else None)
            for one in ordered
        ],
        "best_wins": [
            {
                "table": win.rated_table,
                "family": win.family,
                "opponent": _opponent(win.opponent, win.family, keyed, closed_keys),
                "rating": round(win.opponent_mu),
                "at": win.at,
            }
            for win in wins
        ],
        "opponents": [
            {"opponent": _opponent(one.key, one.family, keyed, closed_keys), **_counts(one)}
            for one in met
        ],
        "recent": [_finished(seat, number, names, closed, reviewed) for seat in _first_seats(held)],
    }


__all__ = ["BEST_WINS", "CLOSED", "GUEST", "MET", "RECENT", "record", "verdict"]
