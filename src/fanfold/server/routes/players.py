"""Leaderboards, players' profiles and the bot levels' pages: the JSON API
(``/api/leaderboard/FAMILY``, ``/api/players/NAME``, ``/api/bots/FAMILY/LEVEL``) and their pages
(``/leaderboard/FAMILY``, ``/players/NAME``, ``/bots/FAMILY/LEVEL``), drawn on the server (the
rating history as an inline SVG chart). Every measured bot level is on its family's leaderboard
from the start, at the rating arena runs measured, until its first rated game moves it."""

from __future__ import annotations

import asyncio
from html import escape
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse

from fanfold.agents.levels import LEVELS, has_levels
from fanfold.core.registry import set_up
from fanfold.server import protocol
from fanfold.server.accounts import accounts
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
    rated_games,
    rating_changes,
    ratings,
    shown,
)
from fanfold.server.routes import HubDep
from fanfold.server.routes.pages import STATIC
from fanfold.server.store import Store, seats, tables

router = APIRouter()

#: The rating families, with the names players read.
_LIVE = {
    "fano-classic": "Fano (classic)",
    "fano-trionfey": "Fano (The battle for Trionfey)",
    "fantan": "Fan Tan",
    "morris": "Fano330-R-Morris",
}
#: Each family at live speeds, then at the daily speed (rated apart: ``ratings.DAILY_FAMILY``).
FAMILIES = {
    **_LIVE,
    **{name + DAILY_FAMILY: f"{title}, daily" for name, title in _LIVE.items()},
}
#: Rated games a profile lists.
RECENT = 20


def _check_family(name: str) -> str:
    if name not in FAMILIES:
        raise NotFoundError(f"no leaderboard called {name!r}; there are {', '.join(FAMILIES)}")
    return name


def _bot_name(key: str) -> str:
    level = key.rsplit(":", 1)[-1]
    return f"{level.capitalize()} bot"


def bot_page(family: str, key: str) -> str:
    """A bot level's page in one family."""
    return f"/bots/{family}/{key.rsplit(':', 1)[-1]}"


def _names(store: Store, keys: set[str]) -> dict[str, str]:
    ids = [int(key[2:]) for key in keys if key.startswith("a:")]
    names = {key: _bot_name(key) for key in keys if key.startswith("bot:")}
    if ids:
        with store.engine.connect() as connection:
            for row in connection.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))
            ):
                names[f"a:{row.id}"] = str(row.name)
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
    return _rating_line(family, anchor.key, _bot_name(anchor.key), anchor.mu, anchor.sigma, games=0)


def leaderboard(store: Store, family: str, limit: int) -> list[dict[str, Any]]:
    """A family's ratings, best first: the people with enough rated games against enough
    different opponents (:func:`fanfold.server.ratings.listed_people`), and every
    bot level of the family, a measured level from the start (at its measured rating, until
    its first rated game: then its one row, moved by the games)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            sa.select(ratings)
            .where(
                ratings.c.family == family,
                ratings.c.games > 0,
            )
            .order_by(ratings.c.mu.desc(), ratings.c.player)
        ).all()
        listed = listed_people(connection, family, [str(row.player) for row in rows])
        listed -= closed_account_keys(connection)  # closed by a moderator: off the boards
        played = [
            row for row in rows if str(row.player).startswith("bot:") or row.player in listed
        ][:limit]
        bots = connection.execute(
            sa.select(ratings).where(
                ratings.c.family == family,
                ratings.c.games == 0,
                ratings.c.player.startswith("bot:"),
            )
        ).all()
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
    with store.engine.connect() as connection:
        found = connection.execute(
            sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name.lower())
        ).first()
        if found is None:
            raise NotFoundError(f"there is no player called {name!r}")
        key = f"a:{found.id}"
        rows = connection.execute(
            sa.select(ratings).where(ratings.c.player == key).order_by(ratings.c.family)
        ).all()
        history = connection.execute(
            sa.select(rating_changes)
            .where(rating_changes.c.player == key)
            .order_by(rating_changes.c.at.desc())
            .limit(200)
        ).all()
        tables = [row.rated_table for row in history]
        others = (
            connection.execute(
                sa.select(rating_changes).where(
                    rating_changes.c.rated_table.in_(tables), rating_changes.c.player != key
                )
            ).all()
            if tables
            else []
        )
    names = {key: str(found.name)}
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
                "bot": _bot_name(other.player),
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
        "name": str(found.name),
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
    _check_family(family)
    anchor = anchor_runs().get((family, level))
    game = anchor.game if anchor is not None else family.split("-")[0]
    key = f"bot:{game}:{level}"
    with store.engine.connect() as connection:
        row = connection.execute(
            sa.select(ratings).where(ratings.c.family == family, ratings.c.player == key)
        ).first()
        if level not in LEVELS or (anchor is None and row is None):
            raise NotFoundError(
                f"no bot {level!r} has a rating in {FAMILIES[family]} "
                f"(the levels: {', '.join(LEVELS)})"
            )
        history = connection.execute(
            sa.select(rating_changes)
            .where(rating_changes.c.player == key, rating_changes.c.family == family)
            .order_by(rating_changes.c.at.desc())
            .limit(200)
        ).all()
        tables = [change.rated_table for change in history]
        people = (
            connection.execute(
                sa.select(rating_changes).where(
                    rating_changes.c.rated_table.in_(tables),
                    rating_changes.c.player.startswith("a:"),
                )
            ).all()
            if tables
            else []
        )
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
        line = _line(row, {key: _bot_name(key)})
    else:
        assert anchor is not None
        line = _anchor_line(anchor, family)
    return {
        "name": _bot_name(key),
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
    with store.engine.connect() as connection:
        rated = connection.execute(
            sa.select(rated_games.c.family).where(rated_games.c.table_id == table_id)
        ).first()
        if rated is None and (
            connection.execute(sa.select(tables.c.id).where(tables.c.id == table_id)).first()
            is None
        ):
            raise NotFoundError(f"there is no table {table_id!r}")
        changes = (
            connection.execute(
                sa.select(rating_changes)
                .where(rating_changes.c.rated_table == table_id)
                .order_by(rating_changes.c.seat)
            ).all()
            if rated is not None
            else []
        )
    names = _names(store, {change.player for change in changes})
    return {
        "table": table_id,
        "family": rated.family if rated is not None else None,
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
    with store.engine.connect() as connection:
        if (
            connection.execute(sa.select(tables.c.id).where(tables.c.id == table_id)).first()
            is None
        ):
            raise NotFoundError(f"there is no table {table_id!r}")
        held = connection.execute(
            sa.select(seats.c.seat, accounts.c.name)
            .join(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.table_id == table_id)
            .order_by(seats.c.seat)
        ).all()
    return {
        "table": table_id,
        "seats": [
            {"seat": int(row.seat), "name": str(row.name), "page": f"/players/{row.name}"}
            for row in held
        ],
    }


@router.get("/api/tables/{table_id}/players", response_model=protocol.TablePlayers)
async def table_players_api(table_id: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(table_players, hub.store, table_id)


@router.get("/api/tables/{table_id}/ratings", response_model=protocol.TableRatings)
async def table_ratings_api(table_id: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(table_ratings, hub.store, table_id)


@router.get(
    "/api/leaderboard/{family}",
    response_model=list[protocol.RatingLine],
    response_model_exclude_unset=True,
)
async def leaderboard_api(
    family: str, hub: HubDep, limit: Annotated[int, Query(ge=1, le=200)] = 50
) -> list[dict[str, Any]]:
    return await asyncio.to_thread(leaderboard, hub.store, _check_family(family), limit)


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
    with store.engine.connect() as connection:
        rows = {
            row.player: row
            for row in connection.execute(
                sa.select(ratings).where(
                    ratings.c.family == family_name, ratings.c.player.in_(list(keys))
                )
            )
        }
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


@router.get("/api/bot-ratings", response_model=protocol.BotRatings)
async def bot_ratings_api(
    hub: HubDep,
    game: str,
    variant: str | None = None,
    players: Annotated[int | None, Query(ge=1, le=8)] = None,
) -> dict[str, Any]:
    return await asyncio.to_thread(bot_ratings, hub.store, game, variant, players)


@router.get("/api/players/{name}", response_model=protocol.Profile)
async def profile_api(name: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(profile, hub.store, name)


@router.get("/api/bots/{family}/{level}", response_model=protocol.BotProfile)
async def bot_profile_api(family: str, level: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(bot_profile, hub.store, family, level)


# ----------------------------------------------------------------- pages


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · fanfold</title>"
        '<script src="/static/theme.js"></script>'
        '<link rel="stylesheet" href="/static/fanfold.css"></head><body>'
        '<header class="bar"><a href="/">fanfold</a><span class="grow"></span>'
        '<span class="bar-links"><a href="/leaderboard/fantan">Leaderboards</a> '
        '<a href="/daily">Daily deal</a> <a href="/account">Account</a></span></header>'
        f'<main class="listing"><h1>{escape(title)}</h1>{body}</main></body></html>'
    )


def _families_nav(current: str | None) -> str:
    links = [
        f'<a href="/leaderboard/{f}"'
        + (' aria-current="page"' if f == current else "")
        + f">{escape(title)}</a>"
        for f, title in FAMILIES.items()
    ]
    return '<nav aria-label="Leaderboards">' + " · ".join(links) + "</nav>"


def _rating_text(line: dict[str, Any]) -> str:
    text = f"{line['rating']} ± {line['uncertainty']}"
    if line.get("anchored"):
        return text + " (measured by arena runs)"
    return text + " (provisional)" if line["provisional"] else text


def _player_cell(line: dict[str, Any]) -> str:
    link = f'<a href="{escape(str(line["page"]))}">{escape(str(line["name"]))}</a>'
    return link + (' <span class="tag">bot</span>' if line["bot"] else "")


@router.get("/leaderboard/{family}", include_in_schema=False)
async def leaderboard_page(family: str, hub: HubDep) -> HTMLResponse:
    if family not in FAMILIES:
        return HTMLResponse(_page("No such leaderboard", _families_nav(None)), status_code=404)
    lines = await asyncio.to_thread(leaderboard, hub.store, family, 100)
    rows = "".join(
        f"<tr><td>{n}</td><td>{_player_cell(line)}</td>"
        f"<td>{escape(_rating_text(line))}</td><td>{line['games']}</td></tr>"
        for n, line in enumerate(lines, 1)
    )
    table = (
        "<table><caption>Ratings, best first</caption><thead><tr><th scope=col>#</th>"
        "<th scope=col>Player</th><th scope=col>Rating</th><th scope=col>Rated games</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
        if lines
        else "<p>No rated games yet.</p>"
    )
    note = (
        "<p>The bots' ratings start where arena runs of the levels against each other put "
        "them, and move with their rated games against people.</p>"
        if any(line["bot"] for line in lines)
        else ""
    )
    return HTMLResponse(
        _page(f"Leaderboard: {FAMILIES[family]}", _families_nav(family) + table + note)
    )


def history_chart(points: list[dict[str, Any]], width: int = 480, height: int = 160) -> str:
    """A rating history as an inline SVG line chart (one family's points, oldest first)."""
    values = [int(points[0]["before"])] + [int(p["after"]) for p in points]
    low, high = min(values) - 20, max(values) + 20
    step = (width - 40) / max(1, len(values) - 1)

    def y(value: int) -> float:
        return round(height - 20 - (value - low) * (height - 40) / (high - low), 1)

    line = " ".join(f"{round(20 + n * step, 1)},{y(v)}" for n, v in enumerate(values))
    return (
        f'<svg role="img" class="history-chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}">'
        f"<title>Rating from {values[0]} to {values[-1]} over {len(points)} games</title>"
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{line}"/>'
        f'<text x="2" y="14" font-size="12" fill="currentColor">{high - 20}</text>'
        f'<text x="2" y="{height - 4}" font-size="12" fill="currentColor">{low + 20}</text>'
        "</svg>"
    )


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str, hub: HubDep) -> HTMLResponse:
    try:
        data = await asyncio.to_thread(profile, hub.store, name)
    except NotFoundError as error:
        return HTMLResponse(_page("No such player", f"<p>{escape(str(error))}</p>"), 404)
    parts: list[str] = []
    for line in data["ratings"]:
        family = str(line["family"])
        points = [p for p in data["history"] if p["family"] == family]
        parts.append(
            f"<section><h2>{escape(FAMILIES.get(family, family))}</h2>"
            f"<p>Rating {escape(_rating_text(line))} after {line['games']} rated "
            f"game{'' if line['games'] == 1 else 's'}</p>"
            + (history_chart(points) if points else "")
            + "</section>"
        )
    if data["history"]:
        parts.append(_recent(data["history"]))
    bots = data["against_bots"]
    if bots:
        items = "".join(
            f"<tr><td>{escape(FAMILIES.get(b['family'], b['family']))}</td>"
            f'<td><a href="{escape(b["page"])}">{escape(b["bot"])}</a></td>'
            f"<td>{b['won']}</td><td>{b['lost']}</td>"
            f"<td>{b['drawn']}</td></tr>"
            for b in bots
        )
        parts.append(
            "<section><h2>Against the bots</h2><table><thead><tr><th scope=col>Game</th>"
            "<th scope=col>Bot</th><th scope=col>Won</th><th scope=col>Lost</th>"
            f"<th scope=col>Drawn</th></tr></thead><tbody>{items}</tbody></table></section>"
        )
    if not parts:
        parts.append("<p>No rated games yet.</p>")
    return HTMLResponse(_page(str(data["name"]), "".join(parts)))


def _recent(points: list[dict[str, Any]]) -> str:
    items = "".join(
        f'<li><a href="/table/{escape(g["table"])}?replay=1">'
        f"{escape(FAMILIES.get(g['family'], g['family']))}</a>: place {g['rank']}, "
        f"{g['before']} → {g['after']}</li>"
        for g in list(reversed(points))[:RECENT]
    )
    return f"<section><h2>Recent rated games</h2><ul>{items}</ul></section>"


@router.get("/bots/{family}/{level}", include_in_schema=False)
async def bot_profile_page(family: str, level: str, hub: HubDep) -> HTMLResponse:
    try:
        data = await asyncio.to_thread(bot_profile, hub.store, family, level)
    except NotFoundError as error:
        return HTMLResponse(_page("No such bot", f"<p>{escape(str(error))}</p>"), 404)
    line, measured = data["rating"], data["measured"]
    games = int(line["games"])
    parts = [
        f"<p>A bot: the {escape(level)} level of {escape(FAMILIES[family])}. "
        f"Rating {escape(_rating_text(line))}"
        + (
            f" after {games} rated game{'' if games == 1 else 's'} against people.</p>"
            if games
            else "; no rated game against people yet.</p>"
        )
    ]
    if measured is not None:
        parts.append(
            "<section><h2>How its rating started</h2>"
            f"<p>Its first rating, {measured['rating']} ± {measured['uncertainty']}, was "
            f"measured from {measured['games']} games it played against the other bot levels, "
            "rated the same way as people's games.</p></section>"
        )
    if data["history"]:
        parts.append(
            "<section><h2>Rating history</h2>" + history_chart(data["history"]) + "</section>"
        )
        parts.append(_recent(data["history"]))
    people = data["against_people"]
    if people:
        items = "".join(
            f'<tr><td><a href="{escape(p["page"])}">{escape(p["name"])}</a></td>'
            f"<td>{p['won']}</td><td>{p['lost']}</td><td>{p['drawn']}</td></tr>"
            for p in people
        )
        parts.append(
            "<section><h2>Against people</h2><table><caption>The bot's results</caption>"
            "<thead><tr><th scope=col>Player</th><th scope=col>Won</th><th scope=col>Lost</th>"
            f"<th scope=col>Drawn</th></tr></thead><tbody>{items}</tbody></table></section>"
        )
    else:
        parts.append("<section><h2>Against people</h2><p>No rated games yet.</p></section>")
    title = f"{data['name']}: {FAMILIES[family]}"
    return HTMLResponse(_page(title, "".join(parts)))
