"""Leaderboards, players' profiles and the bot levels' pages: the JSON API
(``/api/leaderboard/FAMILY``, ``/api/players/NAME``, ``/api/bots/FAMILY/LEVEL``) and their pages
(``/leaderboard/FAMILY``, ``/players/NAME``, ``/bots/FAMILY/LEVEL``), drawn on the server (the
rating history as an inline SVG chart). Every measured bot level is on its family's leaderboard
from the start, at the rating arena runs measured, until its first rated game moves it."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from fanfold.server import protocol
from fanfold.server import ratings as rating_rules
from fanfold.server.accounts import Account
from fanfold.server.hub import Hub
from fanfold.server.i18n import gettext
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
from fanfold.server.not_found import sentence
from fanfold.server.profiles import record
from fanfold.server.routes.deps import AccountDep, HubDep
from fanfold.server.store import Store
from fanfold.server.templating import bot_level_words, render
from fanfold.server.waiting import described, waiting_for

router = APIRouter(tags=["players"])
log = logging.getLogger(__name__)

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


@router.get("/api/players/{name}/record", response_model=protocol.ProfileRecord)
async def profile_record_api(name: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(record, hub.store, name)


@router.get("/api/bots/{family}/{level}", response_model=protocol.BotProfile)
async def bot_profile_api(family: str, level: str, hub: HubDep) -> dict[str, Any]:
    return await asyncio.to_thread(bot_profile, hub.store, family, level)


# ----------------------------------------------------------------- pages


@router.get("/account", include_in_schema=False)
async def account_page() -> HTMLResponse:
    return HTMLResponse(render("account.html"))


def _page(title: str, template: str = "message.html", **context: Any) -> str:
    """A listing page (the bar with the leaderboards, the daily deal and the account, then
    ``title``): ``template`` drawn with ``context`` (``message.html``: ``text``, a paragraph,
    and ``families``, the leaderboards' links)."""
    context.setdefault("families", {})
    context.setdefault("text", "")
    context.setdefault("current", None)
    return render(template, title=title, rating_text=_rating_text, **context)


def _rating_text(line: dict[str, Any]) -> str:
    text = f"{line['rating']} ± {line['uncertainty']}"
    if line.get("anchored"):
        return gettext("%(rating)s (from games between bots)") % {"rating": text}
    if line["provisional"]:
        return gettext("%(rating)s (provisional)") % {"rating": text}
    return text


@router.get("/leaderboard/{family}", include_in_schema=False)
async def leaderboard_page(family: str, hub: HubDep) -> HTMLResponse:
    if family not in FAMILIES:
        missing = _page(gettext("No such leaderboard"), families=FAMILIES)
        return HTMLResponse(missing, status_code=404)
    lines = await asyncio.to_thread(leaderboard, hub.store, family, 100)
    page = _page(
        gettext("Leaderboard: %(game)s") % {"game": gettext(FAMILIES[family])},
        "leaderboard.html",
        families=FAMILIES,
        current=family,
        lines=lines,
        bots=any(line["bot"] for line in lines),
        listed_games=rating_rules.LISTED_GAMES,
        listed_opponents=rating_rules.LISTED_OPPONENTS,
    )
    return HTMLResponse(page)


def history_chart(points: list[dict[str, Any]], width: int = 480, height: int = 160) -> Markup:
    """A rating history as an inline SVG line chart (one family's points, oldest first)."""
    values = [int(points[0]["before"])] + [int(p["after"]) for p in points]
    low, high = min(values) - 20, max(values) + 20
    step = (width - 40) / max(1, len(values) - 1)

    def y(value: int) -> float:
        return round(height - 20 - (value - low) * (height - 40) / (high - low), 1)

    line = " ".join(f"{round(20 + n * step, 1)},{y(v)}" for n, v in enumerate(values))
    return render(
        "history_chart.svg",
        width=width,
        height=height,
        first=values[0],
        last=values[-1],
        games=len(points),
        points=line,
        high=high - 20,
        low=low + 20,
    )


def _recent(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The latest rated games of a history (oldest first), newest first."""
    return list(reversed(points))[:RECENT]


async def _your_move(hub: Hub, account: Account | None, name: str) -> list[dict[str, str]]:
    """The games waiting for the viewer's move when the viewer is the profile's player (a
    failing store leaves the section out: the profile is shown without it)."""
    if account is None or account.name != name:
        return []
    if not isinstance(hub.store, Store):
        return []
    try:
        games = await waiting_for(hub.store, hub.live, account.id)
    except Exception:
        log.exception("the games waiting for %s's move could not be read", name)
        return []
    now = time.time()
    return [described(game, now) for game in games]


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str, hub: HubDep, account: AccountDep) -> HTMLResponse:
    try:
        data = await asyncio.to_thread(profile, hub.store, name)
        games = await asyncio.to_thread(record, hub.store, name)
    except NotFoundError as error:
        return HTMLResponse(_page(gettext("No such player"), text=sentence(error)), 404)
    your_move = await _your_move(hub, account, str(data["name"]))
    ratings = []
    for line in data["ratings"]:
        points = [p for p in data["history"] if p["family"] == line["family"]]
        ratings.append({"line": line, "chart": history_chart(points) if points else None})
    page = _page(
        str(data["name"]),
        "profile.html",
        named=True,
        families=FAMILIES,
        ratings=ratings,
        record=games,
        changes={point["table"]: point for point in data["history"]},
        against_bots=data["against_bots"],
        your_move=your_move,
    )
    return HTMLResponse(page)


@router.get("/bots/{family}/{level}", include_in_schema=False)
async def bot_profile_page(family: str, level: str, hub: HubDep) -> HTMLResponse:
    try:
        data = await asyncio.to_thread(bot_profile, hub.store, family, level)
    except NotFoundError as error:
        return HTMLResponse(_page(gettext("No such bot"), text=sentence(error)), 404)
    history = data["history"]
    # the level's and the leaderboard's words in the page's language (the catalogues keep a
    # game's title in them as it is)
    bot = bot_level_words(str(data["name"])) or str(data["name"])
    page = _page(
        gettext("%(bot)s: %(family)s") % {"bot": bot, "family": gettext(FAMILIES[family])},
        "bot.html",
        families=FAMILIES,
        level=level,
        family_title=gettext(FAMILIES[family]),
        line=data["rating"],
        measured=data["measured"],
        chart=history_chart(history) if history else None,
        recent=_recent(history),
        against_people=data["against_people"],
    )
    return HTMLResponse(page)
