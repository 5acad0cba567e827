"""Leaderboards, players' profiles and the bot levels' pages: the JSON API
(``/api/leaderboard/FAMILY``, ``/api/players/NAME``, ``/api/bots/FAMILY/LEVEL``) and their pages
(``/leaderboard/FAMILY``, ``/players/NAME``, ``/bots/FAMILY/LEVEL``), drawn on the server (the
rating history as an inline SVG chart). Every measured bot level is on its family's leaderboard
from the start, at the rating arena runs measured, until its first rated game moves it."""

from __future__ import annotations

import asyncio
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse

from fanfold.server import protocol
from fanfold.server.leaderboards import (
    FAMILIES,
    bot_profile,
    bot_ratings,
    check_family,
    leaderboard,
    profile,
    table_players,
    table_ratings,
)
from fanfold.server.live import NotFoundError
from fanfold.server.routes import HubDep
from fanfold.server.routes.pages import STATIC

router = APIRouter()

#: Rated games a profile lists.
RECENT = 20


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
    return await asyncio.to_thread(leaderboard, hub.store, check_family(family), limit)


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
