"""Leaderboards and players' profiles: the JSON API (``/api/leaderboard/FAMILY``,
``/api/players/NAME``) and their pages (``/leaderboard/FAMILY``, ``/players/NAME``), drawn on
the server (the rating history as an inline SVG chart)."""

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
from fanfold.server.ratings import (
    bot_anchors,
    bot_key,
    first_rating,
    rating_changes,
    ratings,
    shown,
)
from fanfold.server.routes import HubDep
from fanfold.server.routes.pages import STATIC
from fanfold.server.store import Store

router = APIRouter()

#: The rating families, with the names players read.
FAMILIES = {
    "fano-classic": "Fano (classic)",
    "fano-trionfey": "Fano (The battle for Trionfey)",
    "fantan": "Fan Tan",
    "morris": "Fano330-R-Morris",
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


def _line(row: Any, names: dict[str, str]) -> dict[str, Any]:
    return {
        "player": row.player,
        "name": names.get(row.player, row.player),
        "family": row.family,
        **shown(float(row.mu), float(row.sigma), int(row.games)),
        "bot": str(row.player).startswith("bot:"),
    }


def leaderboard(store: Store, family: str, limit: int) -> list[dict[str, Any]]:
    """A family's ratings, best first (players with at least one rated game)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            sa.select(ratings)
            .where(ratings.c.family == family, ratings.c.games > 0)
            .order_by(ratings.c.mu.desc(), ratings.c.player)
            .limit(limit)
        ).all()
    names = _names(store, {row.player for row in rows})
    return [_line(row, names) for row in rows]


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


# ----------------------------------------------------------------- pages


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · fanfold</title>"
        '<link rel="stylesheet" href="/static/fanfold.css">'
        "<style>main table { border-collapse: collapse; } main th, main td "
        "{ padding: 0.2em 0.4em; text-align: left; }</style></head><body>"
        '<header class="bar"><a href="/">fanfold</a><span class="grow"></span>'
        '<span class="bar-links"><a href="/leaderboard/fantan">Leaderboards</a> '
        '<a href="/account">Account</a></span></header>'
        f"<main><h1>{escape(title)}</h1>{body}</main></body></html>"
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
    return text + " (provisional)" if line["provisional"] else text


@router.get("/leaderboard/{family}", include_in_schema=False)
async def leaderboard_page(family: str, hub: HubDep) -> HTMLResponse:
    if family not in FAMILIES:
        return HTMLResponse(_page("No such leaderboard", _families_nav(None)), status_code=404)
    lines = await asyncio.to_thread(leaderboard, hub.store, family, 100)
    rows = "".join(
        f"<tr><td>{n}</td><td>"
        + (
            escape(str(line["name"]))
            if line["bot"]
            else f'<a href="/players/{escape(str(line["name"]))}">{escape(str(line["name"]))}</a>'
        )
        + f"</td><td>{escape(_rating_text(line))}</td><td>{line['games']}</td></tr>"
        for n, line in enumerate(lines, 1)
    )
    table = (
        "<table><caption>Ratings, best first</caption><thead><tr><th scope=col>#</th>"
        "<th scope=col>Player</th><th scope=col>Rating</th><th scope=col>Rated games</th>"
        f"</tr></thead><tbody>{rows}</tbody></table>"
        if lines
        else "<p>No rated games yet.</p>"
    )
    return HTMLResponse(_page(f"Leaderboard: {FAMILIES[family]}", _families_nav(family) + table))


def history_chart(points: list[dict[str, Any]], width: int = 480, height: int = 160) -> str:
    """A rating history as an inline SVG line chart (one family's points, oldest first)."""
    values = [int(points[0]["before"])] + [int(p["after"]) for p in points]
    low, high = min(values) - 20, max(values) + 20
    step = (width - 40) / max(1, len(values) - 1)

    def y(value: int) -> float:
        return round(height - 20 - (value - low) * (height - 40) / (high - low), 1)

    line = " ".join(f"{round(20 + n * step, 1)},{y(v)}" for n, v in enumerate(values))
    return (
        f'<svg role="img" viewBox="0 0 {width} {height}" '
        f'style="width: 100%; max-width: {width}px; height: auto">'
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
    games = list(reversed(data["history"]))[:RECENT]
    if games:
        items = "".join(
            f'<li><a href="/table/{escape(g["table"])}?replay=1">'
            f"{escape(FAMILIES.get(g['family'], g['family']))}</a>: place {g['rank']}, "
            f"{g['before']} → {g['after']}</li>"
            for g in games
        )
        parts.append(f"<section><h2>Recent rated games</h2><ul>{items}</ul></section>")
    bots = data["against_bots"]
    if bots:
        items = "".join(
            f"<tr><td>{escape(FAMILIES.get(b['family'], b['family']))}</td>"
            f"<td>{escape(b['bot'])}</td><td>{b['won']}</td><td>{b['lost']}</td>"
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
