"""The data of the players' pages (:mod:`fanfold.server.routes.players` serves them as JSON and
as pages): a family's leaderboard, a player's profile, a bot level's page, what a table did to
ratings and its signed-in players, and the bot levels' ratings for a game. Every measured bot
level is on its family's leaderboard from the start, at the rating arena runs measured, until
its first rated game moves it."""

from __future__ import annotations

from typing import Any

from fanfold.agents.levels import LEVELS, has_levels
from fanfold.core.registry import set_up
from fanfold.server.games import rating_family_titles
from fanfold.server.live import NotFoundError
from fanfold.server.moderation import closed_account_keys
from fanfold.server.ratings import (
    DAILY_FAMILY,
    Anchor,
    anchor_runs,
    anchored_in,
    bot_anchors,
    bot_key,
    current,
    first_rating,
    listed_people,
    shown,
)
from fanfold.server.refusals import refusal
from fanfold.server.store import Store
from fanfold.server.store.protocols import RatingStore
from fanfold.server.store.rating_store import SqlRatings

#: The rating families, with the names players read, as the games' plugins name them.
_LIVE = rating_family_titles()
#: Each family at live speeds, then at the daily speed (rated apart: ``ratings.DAILY_FAMILY``).
FAMILIES = {
    **_LIVE,
    **{name + DAILY_FAMILY: f"{title}, daily" for name, title in _LIVE.items()},
}


def check_family(name: str) -> str:
    if name not in FAMILIES:
        raise NotFoundError(
            refusal("found.leaderboard", name=repr(name), names=", ".join(FAMILIES))
        )
    return name


def bot_name(key: str) -> str:
    level = key.rsplit(":", 1)[-1]
    return f"{level.capitalize()} bot"


def bot_page(family: str, key: str) -> str:
    """A bot level's page in one family."""
    return f"/bots/{family}/{key.rsplit(':', 1)[-1]}"


def _data(store: Store) -> RatingStore:
    return SqlRatings(store.engine)


def _names(store: Store, keys: set[str]) -> dict[str, str]:
    ids = [int(key[2:]) for key in keys if key.startswith("a:")]
    names = {key: bot_name(key) for key in keys if key.startswith("bot:")}
    if ids:
        data = _data(store)
        with data.reading() as tx:
            for number, name in data.account_names(tx, ids).items():
                names[f"a:{number}"] = name
    return names


def _rating_line(
    family: str, player: str, name: str, mu: float, sigma: float, games: int
) -> dict[str, Any]:
    bot = player.startswith("bot:")
    level = player.rsplit(":", 1)[-1] if bot else None
    anchored = bot and games == 0 and (family, str(level)) in bot_anchors()
    return {
        "player": player,
        "name": name,
        "family": family,
        **shown(mu, sigma, games),
        "bot": bot,
        "level": level,
        "anchored": anchored,
        "page": bot_page(family, player) if bot else f"/players/{name}",
    }


def _line(row: Any, names: dict[str, str]) -> dict[str, Any]:
    player, family, games = str(row.player), str(row.family), int(row.games)
    mu, sigma = current(family, player, float(row.mu), float(row.sigma), games)
    return _rating_line(family, player, names.get(player, player), mu, sigma, games)


def _anchor_line(anchor: Anchor, family: str) -> dict[str, Any]:
    return _rating_line(family, anchor.key, bot_name(anchor.key), anchor.mu, anchor.sigma, games=0)


def leaderboard(store: Store, family: str, limit: int) -> list[dict[str, Any]]:
    """A family's ratings, best first: the people with enough rated games against enough
    different opponents (:func:`fanfold.server.ratings.listed_people`), and every
    bot level of the family, a measured level from the start (at its measured rating, until
    its first rated game: then its one row, moved by the games)."""
    data = _data(store)
    with data.reading() as tx:
        rows = data.family_ratings(tx, family)
        listed = listed_people(tx, family, [row.player for row in rows])
        listed -= closed_account_keys(tx)  # closed by a moderator: off the boards
        played = [row for row in rows if row.player.startswith("bot:") or row.player in listed][
            :limit
        ]
        bots = data.unplayed_bots(tx, family)
    names = _names(store, {row.player for row in [*played, *bots]})
    found: dict[str, tuple[float, dict[str, Any]]] = {}
    for row in [*played, *bots]:
        mu = current(row.family, row.player, float(row.mu), float(row.sigma), row.games)[0]
        found[str(row.player)] = (mu, _line(row, names))
    for anchor in anchored_in(family):
        if anchor.key not in found:  # no rated game yet: the measured rating
            found[anchor.key] = (anchor.mu, _anchor_line(anchor, family))
    order = sorted(found, key=lambda key: (-found[key][0], key))
    return [found[key][1] for key in order[:limit]]


def profile(store: Store, name: str) -> dict[str, Any]:
    """A player's ratings, rating history (oldest first), recent rated games and results
    against each bot level.

    Raises:
        NotFoundError: no account by that name.
    """
    data = _data(store)
    with data.reading() as tx:
        found = data.account_named(tx, name.lower())
        if found is None:
            raise NotFoundError(refusal("found.player", name=repr(name)))
        number, account_name = found
        key = f"a:{number}"
        rows = data.player_ratings(tx, key)
        history = data.history(tx, key)
        tables = [row.rated_table for row in history]
        others = data.changes_at(tx, tables, other_than=key)
    names = {key: account_name}
    against: dict[tuple[str, str], dict[str, Any]] = {}
    mine = {row.rated_table: row for row in history}
    for other in others:
        if not str(other.player).startswith("bot:"):
            continue
        me = mine[other.rated_table]
        entry = against.setdefault(
            (other.family, other.player),
            {
                "family": other.family,
                "bot": bot_name(other.player),
                "level": str(other.player).rsplit(":", 1)[-1],
                "page": bot_page(other.family, other.player),
                "won": 0,
                "lost": 0,
                "drawn": 0,
            },
        )
        verdict = "won" if me.rank < other.rank else "lost" if me.rank > other.rank else "drawn"
        entry[verdict] += 1
    return {
        "name": account_name,
        "ratings": [_line(row, names) for row in rows],
        "history": [
            {
                "table": row.rated_table,
                "family": row.family,
                "before": round(row.mu_before),
                "after": round(row.mu_after),
                "uncertainty": round(2 * row.sigma_after),
                "rank": int(row.rank),
                "at": float(row.at),
            }
            for row in reversed(history)
        ],
        "against_bots": sorted(against.values(), key=lambda e: (e["family"], e["bot"])),
    }


def bot_profile(store: Store, family: str, level: str) -> dict[str, Any]:
    """A bot level's page in one family (``BotProfile``): its rating (the one rated games gave
    it, or its measured rating before the first), how it was measured, its rated games
    against people (oldest first) and its results against each person.

    Raises:
        NotFoundError: no such family, or a level with neither a measured rating nor a rated
            game there.
    """
    check_family(family)
    anchor = anchor_runs().get((family, level))
    game = anchor.game if anchor is not None else family.split("-")[0]
    key = f"bot:{game}:{level}"
    data = _data(store)
    with data.reading() as tx:
        row = data.rating(tx, family, key)
        if level not in LEVELS or (anchor is None and row is None):
            raise NotFoundError(
                refusal(
                    "found.bot_rating",
                    level=repr(level),
                    board=FAMILIES[family],
                    levels=", ".join(LEVELS),
                )
            )
        history = data.history(tx, key, family)
        tables = [change.rated_table for change in history]
        people = data.changes_at(tx, tables, people_only=True)
    names = _names(store, {person.player for person in people})
    mine = {change.rated_table: change for change in history}
    against: dict[str, dict[str, Any]] = {}
    for person in people:
        name = names.get(person.player, person.player)
        entry = against.setdefault(
            person.player,
            {"name": name, "page": f"/players/{name}", "won": 0, "lost": 0, "drawn": 0},
        )
        me = mine[person.rated_table]
        verdict = "won" if me.rank < person.rank else "lost" if me.rank > person.rank else "drawn"
        entry[verdict] += 1
    if row is not None:
        line = _line(row, {key: bot_name(key)})
    else:
        assert anchor is not None
        line = _anchor_line(anchor, family)
    return {
        "name": bot_name(key),
        "family": family,
        "level": level,
        "rating": line,
        "measured": (
            {
                "rating": round(anchor.mu),
                "uncertainty": round(2 * anchor.sigma),
                "games": anchor.games,
                "command": anchor.command,
            }
            if anchor is not None
            else None
        ),
        "history": [
            {
                "table": change.rated_table,
                "family": change.family,
                "before": round(change.mu_before),
                "after": round(change.mu_after),
                "uncertainty": round(2 * change.sigma_after),
                "rank": int(change.rank),
                "at": float(change.at),
            }
            for change in reversed(history)
        ],
        "against_people": sorted(
            against.values(),
            key=lambda e: (-(e["won"] + e["lost"] + e["drawn"]), str(e["name"]).lower()),
        ),
    }


def table_ratings(store: Store, table_id: str) -> dict[str, Any]:
    """What a table did to ratings (``TableRatings``): each moved player's change, by seat;
    ``rated`` false (and no change) for a table not rated, or not finished yet.

    Raises:
        NotFoundError: no such table.
    """
    data = _data(store)
    with data.reading() as tx:
        rated = data.rated_family(tx, table_id)
        if rated is None and not data.table_exists(tx, table_id):
            raise NotFoundError(refusal("found.table", table=repr(table_id)))
        changes = data.table_changes(tx, table_id) if rated is not None else []
    names = _names(store, {change.player for change in changes})
    return {
        "table": table_id,
        "family": rated,
        "rated": rated is not None,
        "changes": [
            {
                "seat": int(change.seat),
                "name": names.get(change.player, change.player),
                "bot": str(change.player).startswith("bot:"),
                "page": (
                    bot_page(change.family, change.player)
                    if str(change.player).startswith("bot:")
                    else f"/players/{names.get(change.player, change.player)}"
                ),
                "before": round(change.mu_before),
                "after": round(change.mu_after),
                "uncertainty": round(2 * change.sigma_after),
            }
            for change in changes
        ],
    }


def table_players(store: Store, table_id: str) -> dict[str, Any]:
    """The signed-in players at a table (``TablePlayers``), by seat.

    Raises:
        NotFoundError: no such table.
    """
    data = _data(store)
    with data.reading() as tx:
        if not data.table_exists(tx, table_id):
            raise NotFoundError(refusal("found.table", table=repr(table_id)))
        held = data.seat_names(tx, table_id)
    return {
        "table": table_id,
        "seats": [{"seat": seat, "name": name, "page": f"/players/{name}"} for seat, name in held],
    }


def bot_ratings(
    store: Store, game_name: str, variant: str | None, players: int | None
) -> dict[str, Any]:
    """The bot levels' ratings (``BotRatings``) for a game, variant and player count: each
    level's stored rating, or before its first rated game its measured starting rating."""
    game, config = set_up(game_name, variant, {}, players)
    if game.num_players(config) < 2 or not has_levels(game):
        return {"family": None, "levels": []}
    family_name = game.rating_family(config)
    keys = {bot_key(game, level): level for level in LEVELS}
    data = _data(store)
    with data.reading() as tx:
        rows = {row.player: row for row in data.ratings_of(tx, family_name, list(keys))}
    levels: list[dict[str, Any]] = []
    for key, level in keys.items():
        row = rows.get(key)
        if row is not None:
            mu, sigma, games = float(row.mu), float(row.sigma), int(row.games)
        else:
            (mu, sigma), games = first_rating(family_name, key), 0
        measured = row is not None or (family_name, level) in bot_anchors()
        levels.append({"level": level, **shown(mu, sigma, games), "measured": measured})
    return {"family": family_name, "levels": levels}
